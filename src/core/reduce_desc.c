/* Reduce-tensor descriptor: operation, compute type, NaN option and indices request of
 * pdnnReduceTensor. */
#include "core/desc.h"
#include "core/error.h"

typedef struct pdnnReduceTensorStruct reduce_t;

pdnnStatus_t pdnnCreateReduceTensorDescriptor(pdnnReduceTensorDescriptor_t *reduceTensorDesc)
{
    PDNN_CHECK_NULL(reduceTensorDesc);
    reduce_t *d = pdnn_obj_new(PDNN_OBJ_REDUCE_TENSOR, sizeof *d);
    if (!d) return pdnn_error(PDNN_STATUS_ALLOC_FAILED, __func__, "out of host memory");
    *reduceTensorDesc = d;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetReduceTensorDescriptor(pdnnReduceTensorDescriptor_t reduceTensorDesc,
                                           pdnnReduceTensorOp_t reduceTensorOp,
                                           pdnnDataType_t reduceTensorCompType,
                                           pdnnNanPropagation_t reduceTensorNanOpt,
                                           pdnnReduceTensorIndices_t reduceTensorIndices,
                                           pdnnIndicesType_t reduceTensorIndicesType)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_REDUCE_TENSOR, reduceTensorDesc, __func__,
                            "reduceTensorDesc"));
    if ((int)reduceTensorOp < (int)PDNN_REDUCE_TENSOR_ADD ||
        (int)reduceTensorOp > (int)PDNN_REDUCE_TENSOR_MUL_NO_ZEROS)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "reduceTensorOp %d is not a pdnnReduceTensorOp_t (0..8)",
                          (int)reduceTensorOp);
    if (pdnn_dtype_size(reduceTensorCompType) == 0)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "reduceTensorCompType %d is not a pdnnDataType_t",
                          (int)reduceTensorCompType);
    if (reduceTensorNanOpt != PDNN_NOT_PROPAGATE_NAN && reduceTensorNanOpt != PDNN_PROPAGATE_NAN)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "reduceTensorNanOpt %d is not a pdnnNanPropagation_t (0 or 1)",
                          (int)reduceTensorNanOpt);
    if (reduceTensorIndices != PDNN_REDUCE_TENSOR_NO_INDICES &&
        reduceTensorIndices != PDNN_REDUCE_TENSOR_FLATTENED_INDICES)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "reduceTensorIndices %d is not a pdnnReduceTensorIndices_t (0 or 1)",
                          (int)reduceTensorIndices);
    if ((int)reduceTensorIndicesType < (int)PDNN_32BIT_INDICES ||
        (int)reduceTensorIndicesType > (int)PDNN_8BIT_INDICES)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "reduceTensorIndicesType %d is not a pdnnIndicesType_t (0..3)",
                          (int)reduceTensorIndicesType);
    reduceTensorDesc->op = reduceTensorOp;
    reduceTensorDesc->comp_type = reduceTensorCompType;
    reduceTensorDesc->nan_opt = reduceTensorNanOpt;
    reduceTensorDesc->indices = reduceTensorIndices;
    reduceTensorDesc->indices_type = reduceTensorIndicesType;
    reduceTensorDesc->set = true;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetReduceTensorDescriptor(const pdnnReduceTensorDescriptor_t reduceTensorDesc,
                                           pdnnReduceTensorOp_t *reduceTensorOp,
                                           pdnnDataType_t *reduceTensorCompType,
                                           pdnnNanPropagation_t *reduceTensorNanOpt,
                                           pdnnReduceTensorIndices_t *reduceTensorIndices,
                                           pdnnIndicesType_t *reduceTensorIndicesType)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_REDUCE_TENSOR, reduceTensorDesc, __func__,
                            "reduceTensorDesc"));
    if (!reduceTensorDesc->set)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "reduceTensorDesc was created but never set "
                          "(call pdnnSetReduceTensorDescriptor)");
    PDNN_CHECK_NULL(reduceTensorOp);
    PDNN_CHECK_NULL(reduceTensorCompType);
    PDNN_CHECK_NULL(reduceTensorNanOpt);
    PDNN_CHECK_NULL(reduceTensorIndices);
    PDNN_CHECK_NULL(reduceTensorIndicesType);
    *reduceTensorOp = reduceTensorDesc->op;
    *reduceTensorCompType = reduceTensorDesc->comp_type;
    *reduceTensorNanOpt = reduceTensorDesc->nan_opt;
    *reduceTensorIndices = reduceTensorDesc->indices;
    *reduceTensorIndicesType = reduceTensorDesc->indices_type;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnDestroyReduceTensorDescriptor(pdnnReduceTensorDescriptor_t reduceTensorDesc)
{
    if (reduceTensorDesc == NULL) return PDNN_STATUS_SUCCESS;
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_REDUCE_TENSOR, reduceTensorDesc, __func__,
                            "reduceTensorDesc"));
    pdnn_obj_free(PDNN_OBJ_REDUCE_TENSOR, reduceTensorDesc);
    return PDNN_STATUS_SUCCESS;
}
