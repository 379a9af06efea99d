/* Loss descriptor (pdnn/train.h). */
#include "core/error.h"
#include "core/objects.h"
#include "core/train_desc.h"

typedef struct pdnnLossStruct loss_t;

pdnnStatus_t pdnn_check_loss(const loss_t *d, const char *func, const char *argname)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_LOSS, d, func, argname));
    if (!d->set)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "%s was created but never set (call pdnnSetLossDescriptor)",
                          argname);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnCreateLossDescriptor(pdnnLossDescriptor_t *lossDesc)
{
    PDNN_CHECK_NULL(lossDesc);
    loss_t *d = pdnn_obj_new(PDNN_OBJ_LOSS, sizeof *d);
    if (!d) return pdnn_error(PDNN_STATUS_ALLOC_FAILED, __func__, "out of host memory");
    *lossDesc = d;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnDestroyLossDescriptor(pdnnLossDescriptor_t lossDesc)
{
    if (lossDesc == NULL) return PDNN_STATUS_SUCCESS;
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_LOSS, lossDesc, __func__, "lossDesc"));
    pdnn_obj_free(PDNN_OBJ_LOSS, lossDesc);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetLossDescriptor(pdnnLossDescriptor_t lossDesc, pdnnLossMode_t mode,
                                   pdnnLossReduction_t reduction, int64_t ignoreIndex,
                                   double labelSmoothing)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_LOSS, lossDesc, __func__, "lossDesc"));
    if (mode != PDNN_LOSS_SOFTMAX_CROSS_ENTROPY && mode != PDNN_LOSS_NLL &&
        mode != PDNN_LOSS_MSE)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "mode %d is not a pdnnLossMode_t (SOFTMAX_CROSS_ENTROPY 0, NLL 1, "
                          "MSE 2)", (int)mode);
    if (reduction != PDNN_LOSS_REDUCTION_NONE && reduction != PDNN_LOSS_REDUCTION_MEAN &&
        reduction != PDNN_LOSS_REDUCTION_SUM)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "reduction %d is not a pdnnLossReduction_t (NONE 0, MEAN 1, SUM 2)",
                          (int)reduction);
    if (!(labelSmoothing >= 0.0 && labelSmoothing <= 1.0))
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, __func__,
                          "labelSmoothing is %g, must be in [0, 1]", labelSmoothing);
    if (labelSmoothing != 0.0 && mode != PDNN_LOSS_SOFTMAX_CROSS_ENTROPY)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "labelSmoothing is %g but only SOFTMAX_CROSS_ENTROPY smooths labels "
                          "(mode is %d; PyTorch's nll_loss and mse_loss have none)",
                          labelSmoothing, (int)mode);
    lossDesc->mode = mode;
    lossDesc->reduction = reduction;
    lossDesc->ignore_index = ignoreIndex;
    lossDesc->smoothing = labelSmoothing;
    lossDesc->set = true;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetLossDescriptor(const pdnnLossDescriptor_t lossDesc, pdnnLossMode_t *mode,
                                   pdnnLossReduction_t *reduction, int64_t *ignoreIndex,
                                   double *labelSmoothing)
{
    PDNN_TRY(pdnn_check_loss(lossDesc, __func__, "lossDesc"));
    PDNN_CHECK_NULL(mode);
    PDNN_CHECK_NULL(reduction);
    PDNN_CHECK_NULL(ignoreIndex);
    PDNN_CHECK_NULL(labelSmoothing);
    *mode = lossDesc->mode;
    *reduction = lossDesc->reduction;
    *ignoreIndex = lossDesc->ignore_index;
    *labelSmoothing = lossDesc->smoothing;
    return PDNN_STATUS_SUCCESS;
}
