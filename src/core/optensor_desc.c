/* Op-tensor descriptor: the operation, compute type and NaN option of pdnnOpTensor. */
#include "core/desc.h"
#include "core/error.h"

typedef struct pdnnOpTensorStruct optensor_t;

pdnnStatus_t pdnnCreateOpTensorDescriptor(pdnnOpTensorDescriptor_t *opTensorDesc)
{
    PDNN_CHECK_NULL(opTensorDesc);
    optensor_t *d = pdnn_obj_new(PDNN_OBJ_OP_TENSOR, sizeof *d);
    if (!d) return pdnn_error(PDNN_STATUS_ALLOC_FAILED, __func__, "out of host memory");
    *opTensorDesc = d;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetOpTensorDescriptor(pdnnOpTensorDescriptor_t opTensorDesc,
                                       pdnnOpTensorOp_t opTensorOp,
                                       pdnnDataType_t opTensorCompType,
                                       pdnnNanPropagation_t opTensorNanOpt)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_OP_TENSOR, opTensorDesc, __func__, "opTensorDesc"));
    if ((int)opTensorOp < (int)PDNN_OP_TENSOR_ADD || (int)opTensorOp > (int)PDNN_OP_TENSOR_NOT)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "opTensorOp %d is not a pdnnOpTensorOp_t (0..5)", (int)opTensorOp);
    if (pdnn_dtype_size(opTensorCompType) == 0)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "opTensorCompType %d is not a pdnnDataType_t", (int)opTensorCompType);
    if (opTensorNanOpt != PDNN_NOT_PROPAGATE_NAN && opTensorNanOpt != PDNN_PROPAGATE_NAN)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "opTensorNanOpt %d is not a pdnnNanPropagation_t (0 or 1)",
                          (int)opTensorNanOpt);
    opTensorDesc->op = opTensorOp;
    opTensorDesc->comp_type = opTensorCompType;
    opTensorDesc->nan_opt = opTensorNanOpt;
    opTensorDesc->set = true;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetOpTensorDescriptor(const pdnnOpTensorDescriptor_t opTensorDesc,
                                       pdnnOpTensorOp_t *opTensorOp,
                                       pdnnDataType_t *opTensorCompType,
                                       pdnnNanPropagation_t *opTensorNanOpt)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_OP_TENSOR, opTensorDesc, __func__, "opTensorDesc"));
    if (!opTensorDesc->set)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "opTensorDesc was created but never set "
                          "(call pdnnSetOpTensorDescriptor)");
    PDNN_CHECK_NULL(opTensorOp);
    PDNN_CHECK_NULL(opTensorCompType);
    PDNN_CHECK_NULL(opTensorNanOpt);
    *opTensorOp = opTensorDesc->op;
    *opTensorCompType = opTensorDesc->comp_type;
    *opTensorNanOpt = opTensorDesc->nan_opt;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnDestroyOpTensorDescriptor(pdnnOpTensorDescriptor_t opTensorDesc)
{
    if (opTensorDesc == NULL) return PDNN_STATUS_SUCCESS;
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_OP_TENSOR, opTensorDesc, __func__, "opTensorDesc"));
    pdnn_obj_free(PDNN_OBJ_OP_TENSOR, opTensorDesc);
    return PDNN_STATUS_SUCCESS;
}
