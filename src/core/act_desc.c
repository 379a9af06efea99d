/* Activation descriptor: create, set, get, swish beta, destroy. */
#include <math.h>

#include "core/desc.h"
#include "core/error.h"

typedef struct pdnnActivationStruct act_t;

/* True for the modes pdnnActivationMode_t defines. */
static bool mode_valid(pdnnActivationMode_t m)
{
    return (m >= PDNN_ACTIVATION_SIGMOID && m <= PDNN_ACTIVATION_SWISH) ||
           m == PDNN_ACTIVATION_GELU_ERF || m == PDNN_ACTIVATION_GELU_TANH;
}

pdnnStatus_t pdnn_check_activation(const act_t *a, const char *func, const char *argname)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_ACTIVATION, a, func, argname));
    if (!a->set)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "%s was created but never set (call pdnnSetActivationDescriptor)",
                          argname);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnCreateActivationDescriptor(pdnnActivationDescriptor_t *activationDesc)
{
    PDNN_CHECK_NULL(activationDesc);
    act_t *a = pdnn_obj_new(PDNN_OBJ_ACTIVATION, sizeof *a);
    if (!a) return pdnn_error(PDNN_STATUS_ALLOC_FAILED, __func__, "out of host memory");
    a->set = false;
    a->mode = PDNN_ACTIVATION_RELU;
    a->nan_opt = PDNN_NOT_PROPAGATE_NAN;
    a->coef = 0.0;
    a->swish_beta = 1.0;
    *activationDesc = a;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnDestroyActivationDescriptor(pdnnActivationDescriptor_t activationDesc)
{
    if (activationDesc == NULL) return PDNN_STATUS_SUCCESS;
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_ACTIVATION, activationDesc, __func__, "activationDesc"));
    pdnn_obj_free(PDNN_OBJ_ACTIVATION, activationDesc);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetActivationDescriptor(pdnnActivationDescriptor_t activationDesc,
                                         pdnnActivationMode_t mode,
                                         pdnnNanPropagation_t reluNanOpt, double coef)
{
    const char *f = __func__;
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_ACTIVATION, activationDesc, f, "activationDesc"));
    if (!mode_valid(mode))
        return pdnn_error(PDNN_STATUS_BAD_PARAM, f,
                          "mode %d is not a pdnnActivationMode_t (0..6, 100, 101)", (int)mode);
    if (reluNanOpt != PDNN_NOT_PROPAGATE_NAN && reluNanOpt != PDNN_PROPAGATE_NAN)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, f,
                          "reluNanOpt %d is not PDNN_NOT_PROPAGATE_NAN (0) or "
                          "PDNN_PROPAGATE_NAN (1)", (int)reluNanOpt);
    if (isnan(coef))
        return pdnn_error(PDNN_STATUS_BAD_PARAM, f, "coef is NaN");
    if (mode == PDNN_ACTIVATION_CLIPPED_RELU && !(coef > 0))
        return pdnn_error(PDNN_STATUS_BAD_PARAM, f,
                          "coef (the clipping threshold of CLIPPED_RELU) is %g, must be > 0",
                          coef);
    if (mode == PDNN_ACTIVATION_ELU && !isfinite(coef))
        return pdnn_error(PDNN_STATUS_BAD_PARAM, f,
                          "coef (the alpha of ELU) is %g, must be finite", coef);
    activationDesc->mode = mode;
    activationDesc->nan_opt = reluNanOpt;
    activationDesc->coef = coef;
    activationDesc->set = true;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetActivationDescriptor(const pdnnActivationDescriptor_t activationDesc,
                                         pdnnActivationMode_t *mode,
                                         pdnnNanPropagation_t *reluNanOpt, double *coef)
{
    PDNN_TRY(pdnn_check_activation(activationDesc, __func__, "activationDesc"));
    PDNN_CHECK_NULL(mode);
    PDNN_CHECK_NULL(reluNanOpt);
    PDNN_CHECK_NULL(coef);
    *mode = activationDesc->mode;
    *reluNanOpt = activationDesc->nan_opt;
    *coef = activationDesc->coef;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetActivationDescriptorSwishBeta(pdnnActivationDescriptor_t activationDesc,
                                                  double swish_beta)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_ACTIVATION, activationDesc, __func__, "activationDesc"));
    if (!isfinite(swish_beta))
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__, "swish_beta is %g, must be finite",
                          swish_beta);
    activationDesc->swish_beta = swish_beta;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetActivationDescriptorSwishBeta(pdnnActivationDescriptor_t activationDesc,
                                                  double *swish_beta)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_ACTIVATION, activationDesc, __func__, "activationDesc"));
    PDNN_CHECK_NULL(swish_beta);
    *swish_beta = activationDesc->swish_beta;
    return PDNN_STATUS_SUCCESS;
}
