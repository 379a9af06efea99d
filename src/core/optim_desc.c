/* Optimizer descriptor (pdnn/train.h): one Set/Get pair per algorithm. */
#include <math.h>

#include "core/error.h"
#include "core/objects.h"
#include "core/train_desc.h"

typedef struct pdnnOptimizerStruct opt_t;

pdnnStatus_t pdnn_check_optimizer(const opt_t *d, const char *func, const char *argname)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_OPTIMIZER, d, func, argname));
    if (!d->set)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "%s was created but never set (call pdnnSetOptimizerDescriptor*)",
                          argname);
    return PDNN_STATUS_SUCCESS;
}

int pdnn_optimizer_nbufs(const opt_t *o)
{
    switch (o->type) {
    case PDNN_OPTIMIZER_SGD: return o->momentum != 0.0 ? 1 : 0;
    case PDNN_OPTIMIZER_ADAM:
    case PDNN_OPTIMIZER_ADAMW: return o->amsgrad ? 3 : 2;
    case PDNN_OPTIMIZER_RMSPROP: return 1 + (o->momentum > 0.0) + o->centered;
    case PDNN_OPTIMIZER_ADAGRAD: return 1;
    }
    return 0;
}

static const char *type_name(pdnnOptimizerType_t t)
{
    switch (t) {
    case PDNN_OPTIMIZER_SGD: return "SGD";
    case PDNN_OPTIMIZER_ADAM: return "Adam";
    case PDNN_OPTIMIZER_ADAMW: return "AdamW";
    case PDNN_OPTIMIZER_RMSPROP: return "RMSprop";
    case PDNN_OPTIMIZER_ADAGRAD: return "Adagrad";
    }
    return "unknown";
}

/* v must be finite and lo <= v (< hi when hi_open, <= hi otherwise). */
static pdnnStatus_t check_range(double v, double lo, double hi, bool hi_open,
                                const char *name, const char *func)
{
    bool ok = isfinite(v) && v >= lo && (hi_open ? v < hi : v <= hi);
    if (!ok) {
        if (isinf(hi))
            return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, func,
                              "%s is %g, must be finite and >= %g", name, v, lo);
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, func,
                          "%s is %g, must be in [%g, %g%c", name, v, lo, hi,
                          hi_open ? ')' : ']');
    }
    return PDNN_STATUS_SUCCESS;
}

static pdnnStatus_t check_flag(int v, const char *name, const char *func)
{
    if (v != 0 && v != 1)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, func,
                          "%s is %d, must be 0 or 1", name, v);
    return PDNN_STATUS_SUCCESS;
}

#define NONNEG(v) PDNN_TRY(check_range((v), 0.0, INFINITY, false, #v, __func__))
#define FLAG(v) PDNN_TRY(check_flag((v), #v, __func__))

/* Getter prologue: live, set, of the expected algorithm. */
static pdnnStatus_t check_get(const opt_t *d, pdnnOptimizerType_t want, const char *func)
{
    PDNN_TRY(pdnn_check_optimizer(d, func, "optDesc"));
    if (d->type != want)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "optDesc holds %s, not %s (use pdnnGetOptimizerType)",
                          type_name(d->type), type_name(want));
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnCreateOptimizerDescriptor(pdnnOptimizerDescriptor_t *optDesc)
{
    PDNN_CHECK_NULL(optDesc);
    opt_t *d = pdnn_obj_new(PDNN_OBJ_OPTIMIZER, sizeof *d);
    if (!d) return pdnn_error(PDNN_STATUS_ALLOC_FAILED, __func__, "out of host memory");
    *optDesc = d;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnDestroyOptimizerDescriptor(pdnnOptimizerDescriptor_t optDesc)
{
    if (optDesc == NULL) return PDNN_STATUS_SUCCESS;
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_OPTIMIZER, optDesc, __func__, "optDesc"));
    pdnn_obj_free(PDNN_OBJ_OPTIMIZER, optDesc);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetOptimizerType(const pdnnOptimizerDescriptor_t optDesc,
                                  pdnnOptimizerType_t *type)
{
    PDNN_TRY(pdnn_check_optimizer(optDesc, __func__, "optDesc"));
    PDNN_CHECK_NULL(type);
    *type = optDesc->type;
    return PDNN_STATUS_SUCCESS;
}

/* ---------------------------------------------------------------- SGD */

pdnnStatus_t pdnnSetOptimizerDescriptorSGD(pdnnOptimizerDescriptor_t optDesc, double momentum,
                                           double dampening, int nesterov, double weightDecay)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_OPTIMIZER, optDesc, __func__, "optDesc"));
    NONNEG(momentum);
    PDNN_TRY(check_range(dampening, 0.0, 1.0, false, "dampening", __func__));
    FLAG(nesterov);
    NONNEG(weightDecay);
    if (nesterov && (momentum <= 0.0 || dampening != 0.0))
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, __func__,
                          "nesterov requires momentum > 0 and dampening == 0 (momentum is "
                          "%g, dampening %g), as PyTorch requires", momentum, dampening);
    opt_t o = {.set = true, .type = PDNN_OPTIMIZER_SGD, .momentum = momentum,
               .dampening = dampening, .nesterov = nesterov, .weight_decay = weightDecay};
    *optDesc = o;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetOptimizerDescriptorSGD(const pdnnOptimizerDescriptor_t optDesc,
                                           double *momentum, double *dampening, int *nesterov,
                                           double *weightDecay)
{
    PDNN_TRY(check_get(optDesc, PDNN_OPTIMIZER_SGD, __func__));
    PDNN_CHECK_NULL(momentum);
    PDNN_CHECK_NULL(dampening);
    PDNN_CHECK_NULL(nesterov);
    PDNN_CHECK_NULL(weightDecay);
    *momentum = optDesc->momentum;
    *dampening = optDesc->dampening;
    *nesterov = optDesc->nesterov;
    *weightDecay = optDesc->weight_decay;
    return PDNN_STATUS_SUCCESS;
}

/* ---------------------------------------------------------------- Adam, AdamW */

static pdnnStatus_t set_adam(opt_t *d, pdnnOptimizerType_t type, double beta1, double beta2,
                             double eps, double weightDecay, int amsgrad, const char *func)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_OPTIMIZER, d, func, "optDesc"));
    PDNN_TRY(check_range(beta1, 0.0, 1.0, true, "beta1", func));
    PDNN_TRY(check_range(beta2, 0.0, 1.0, true, "beta2", func));
    PDNN_TRY(check_range(eps, 0.0, INFINITY, false, "eps", func));
    PDNN_TRY(check_range(weightDecay, 0.0, INFINITY, false, "weightDecay", func));
    PDNN_TRY(check_flag(amsgrad, "amsgrad", func));
    opt_t o = {.set = true, .type = type, .beta1 = beta1, .beta2 = beta2, .eps = eps,
               .weight_decay = weightDecay, .amsgrad = amsgrad};
    *d = o;
    return PDNN_STATUS_SUCCESS;
}

static pdnnStatus_t get_adam(const opt_t *d, pdnnOptimizerType_t type, double *beta1,
                             double *beta2, double *eps, double *weightDecay, int *amsgrad,
                             const char *func)
{
    PDNN_TRY(check_get(d, type, func));
    const void *outs[5] = {beta1, beta2, eps, weightDecay, amsgrad};
    static const char *const names[5] = {"beta1", "beta2", "eps", "weightDecay", "amsgrad"};
    for (int i = 0; i < 5; i++)
        if (!outs[i])
            return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, func,
                              "argument '%s' is NULL", names[i]);
    *beta1 = d->beta1;
    *beta2 = d->beta2;
    *eps = d->eps;
    *weightDecay = d->weight_decay;
    *amsgrad = d->amsgrad;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetOptimizerDescriptorAdam(pdnnOptimizerDescriptor_t optDesc, double beta1,
                                            double beta2, double eps, double weightDecay,
                                            int amsgrad)
{
    return set_adam(optDesc, PDNN_OPTIMIZER_ADAM, beta1, beta2, eps, weightDecay, amsgrad,
                    __func__);
}

pdnnStatus_t pdnnGetOptimizerDescriptorAdam(const pdnnOptimizerDescriptor_t optDesc,
                                            double *beta1, double *beta2, double *eps,
                                            double *weightDecay, int *amsgrad)
{
    return get_adam(optDesc, PDNN_OPTIMIZER_ADAM, beta1, beta2, eps, weightDecay, amsgrad,
                    __func__);
}

pdnnStatus_t pdnnSetOptimizerDescriptorAdamW(pdnnOptimizerDescriptor_t optDesc, double beta1,
                                             double beta2, double eps, double weightDecay,
                                             int amsgrad)
{
    return set_adam(optDesc, PDNN_OPTIMIZER_ADAMW, beta1, beta2, eps, weightDecay, amsgrad,
                    __func__);
}

pdnnStatus_t pdnnGetOptimizerDescriptorAdamW(const pdnnOptimizerDescriptor_t optDesc,
                                             double *beta1, double *beta2, double *eps,
                                             double *weightDecay, int *amsgrad)
{
    return get_adam(optDesc, PDNN_OPTIMIZER_ADAMW, beta1, beta2, eps, weightDecay, amsgrad,
                    __func__);
}

/* ---------------------------------------------------------------- RMSprop */

pdnnStatus_t pdnnSetOptimizerDescriptorRMSprop(pdnnOptimizerDescriptor_t optDesc,
                                               double alpha, double eps, double momentum,
                                               int centered, double weightDecay)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_OPTIMIZER, optDesc, __func__, "optDesc"));
    NONNEG(alpha);
    NONNEG(eps);
    NONNEG(momentum);
    FLAG(centered);
    NONNEG(weightDecay);
    opt_t o = {.set = true, .type = PDNN_OPTIMIZER_RMSPROP, .alpha = alpha, .eps = eps,
               .momentum = momentum, .centered = centered, .weight_decay = weightDecay};
    *optDesc = o;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetOptimizerDescriptorRMSprop(const pdnnOptimizerDescriptor_t optDesc,
                                               double *alpha, double *eps, double *momentum,
                                               int *centered, double *weightDecay)
{
    PDNN_TRY(check_get(optDesc, PDNN_OPTIMIZER_RMSPROP, __func__));
    PDNN_CHECK_NULL(alpha);
    PDNN_CHECK_NULL(eps);
    PDNN_CHECK_NULL(momentum);
    PDNN_CHECK_NULL(centered);
    PDNN_CHECK_NULL(weightDecay);
    *alpha = optDesc->alpha;
    *eps = optDesc->eps;
    *momentum = optDesc->momentum;
    *centered = optDesc->centered;
    *weightDecay = optDesc->weight_decay;
    return PDNN_STATUS_SUCCESS;
}

/* ---------------------------------------------------------------- Adagrad */

pdnnStatus_t pdnnSetOptimizerDescriptorAdagrad(pdnnOptimizerDescriptor_t optDesc,
                                               double lrDecay, double initialAccumulatorValue,
                                               double eps, double weightDecay)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_OPTIMIZER, optDesc, __func__, "optDesc"));
    NONNEG(lrDecay);
    NONNEG(initialAccumulatorValue);
    NONNEG(eps);
    NONNEG(weightDecay);
    opt_t o = {.set = true, .type = PDNN_OPTIMIZER_ADAGRAD, .lr_decay = lrDecay,
               .init_acc = initialAccumulatorValue, .eps = eps, .weight_decay = weightDecay};
    *optDesc = o;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetOptimizerDescriptorAdagrad(const pdnnOptimizerDescriptor_t optDesc,
                                               double *lrDecay,
                                               double *initialAccumulatorValue, double *eps,
                                               double *weightDecay)
{
    PDNN_TRY(check_get(optDesc, PDNN_OPTIMIZER_ADAGRAD, __func__));
    PDNN_CHECK_NULL(lrDecay);
    PDNN_CHECK_NULL(initialAccumulatorValue);
    PDNN_CHECK_NULL(eps);
    PDNN_CHECK_NULL(weightDecay);
    *lrDecay = optDesc->lr_decay;
    *initialAccumulatorValue = optDesc->init_acc;
    *eps = optDesc->eps;
    *weightDecay = optDesc->weight_decay;
    return PDNN_STATUS_SUCCESS;
}
