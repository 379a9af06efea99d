/* pdnnGetOptimizerStateSize, pdnnOptimizerStep, pdnnClipGradNorm:
 * validate -> problem -> dispatch -> run. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alias.h"
#include "core/error.h"
#include "core/log.h"
#include "core/registry.h"
#include "ops/optim/optim_impls.h"
#include "ops/optim/optim_problem.h"

typedef struct pdnnTensorStruct tensor_t;

static const char *opt_name(pdnnOptimizerType_t t)
{
    static const char *const names[] = {"sgd", "adam", "adamw", "rmsprop", "adagrad"};
    return (int)t >= 0 && (int)t < 5 ? names[t] : "unknown";
}

/* State bytes of w for optimizer o; false on overflow. */
static bool state_bytes(const struct pdnnOptimizerStruct *o, const tensor_t *w, size_t *out)
{
    uint64_t n = (uint64_t)pdnn_tensor_numel(w), b;
    if (__builtin_mul_overflow(n, (uint64_t)pdnn_optimizer_nbufs(o), &b) ||
        __builtin_mul_overflow(b, (uint64_t)pdnn_dtype_size(w->dtype), &b) || b > SIZE_MAX)
        return false;
    *out = (size_t)b;
    return true;
}

pdnnStatus_t pdnnGetOptimizerStateSize(pdnnHandle_t handle,
                                       const pdnnOptimizerDescriptor_t optDesc,
                                       const pdnnTensorDescriptor_t wDesc, size_t *sizeInBytes)
{
    const char *f = __func__;
    PDNN_TRY(pdnn_check_handle(handle, f));
    PDNN_TRY(pdnn_check_optimizer(optDesc, f, "optDesc"));
    PDNN_TRY(pdnn_check_tensor(wDesc, f, "wDesc"));
    PDNN_CHECK_NULL(sizeInBytes);
    PDNN_TRY(pdnn_check_compute_dtype(wDesc->dtype, f, "wDesc"));
    size_t b;
    if (!state_bytes(optDesc, wDesc, &b))
        return pdnn_error(PDNN_STATUS_BAD_PARAM, f, "the state size overflows 64 bits");
    *sizeInBytes = b;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnOptimizerStep(pdnnHandle_t handle, const pdnnOptimizerDescriptor_t optDesc,
                               double lr, int64_t step, pdnnParamFreeze_t freeze,
                               const pdnnTensorDescriptor_t dwDesc, const void *dw,
                               const pdnnTensorDescriptor_t wDesc, void *w, void *state,
                               size_t stateSizeInBytes)
{
    const char *f = __func__;
    PDNN_TRY(pdnn_check_handle(handle, f));
    PDNN_TRY(pdnn_check_optimizer(optDesc, f, "optDesc"));
    if (!(isfinite(lr) && lr >= 0.0))
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, f,
                          "lr is %g, must be finite and >= 0", lr);
    if (step < 1)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, f,
                          "step is %lld, must be >= 1 (1 for the first step of a tensor)",
                          (long long)step);
    if (freeze != PDNN_PARAM_TRAINABLE && freeze != PDNN_PARAM_FROZEN)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, f,
                          "freeze is %d, not a pdnnParamFreeze_t (TRAINABLE 0, FROZEN 1)",
                          (int)freeze);
    PDNN_TRY(pdnn_check_tensor(dwDesc, f, "dwDesc"));
    PDNN_TRY(pdnn_check_output_tensor(wDesc, f, "wDesc"));
    PDNN_TRY(pdnn_check_compute_dtype(wDesc->dtype, f, "wDesc"));
    PDNN_TRY(pdnn_check_same_dtype(wDesc, "wDesc", dwDesc, "dwDesc", f));
    PDNN_TRY(pdnn_check_same_dims(wDesc, "wDesc", dwDesc, "dwDesc", f));
    PDNN_TRY(pdnn_check_data(wDesc, w, f, "w"));
    size_t need;
    if (!state_bytes(optDesc, wDesc, &need))
        return pdnn_error(PDNN_STATUS_BAD_PARAM, f, "the state size overflows 64 bits");
    if (freeze == PDNN_PARAM_FROZEN) {
        if (pdnn_log_on()) {
            char sw[160];
            pdnn_tensor_str(wDesc, sw, sizeof sw);
            pdnn_log_call(f, "opt=%s lr=%g step=%lld frozen w=%s impl=none (frozen: "
                          "nothing read or written) ws=0 threads=%d time=0.000ms",
                          opt_name(optDesc->type), lr, (long long)step, sw, handle->nthreads);
        }
        return PDNN_STATUS_SUCCESS;
    }
    PDNN_TRY(pdnn_check_data(dwDesc, dw, f, "dw"));
    if (stateSizeInBytes < need)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, f,
                          "stateSizeInBytes is %zu but %s on this tensor needs %zu bytes "
                          "(pdnnGetOptimizerStateSize)", stateSizeInBytes,
                          opt_name(optDesc->type), need);
    if (state == NULL && need > 0)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, f,
                          "argument 'state' is NULL but %zu bytes of state are needed", need);
    /* w is written while dw and the state are read elementwise: any overlap between the
     * three (even w == dw) makes the result depend on the order of the updates. */
    PDNN_TRY(pdnn_check_disjoint(dwDesc, dw, "dw", wDesc, w, "w", f));
    PDNN_TRY(pdnn_check_bytes_disjoint(state, need, "state", wDesc, w, "w", f));
    PDNN_TRY(pdnn_check_bytes_disjoint(state, need, "state", dwDesc, dw, "dw", f));
    if (pdnn_tensor_numel(wDesc) == 0) return PDNN_STATUS_SUCCESS;

    pdnn_optim_problem p;
    memset(&p, 0, sizeof p);
    p.opt = *optDesc;
    p.dtype = wDesc->dtype;
    p.n = pdnn_tensor_numel(wDesc);
    p.w = *wDesc;
    p.dw = *dwDesc;
    p.lr = lr;
    p.step = step;
    pdnn_optim_args a = {w, dw, state};
    const pdnn_impl *impl;
    PDNN_TRY(pdnn_dispatch(pdnn_optim_impls, -1, &p, 0, f, &impl));
    pdnn_ctx ctx = {handle->nthreads, NULL, 0};
    double t0 = pdnn_log_on() ? pdnn_now_ms() : 0;
    pdnnStatus_t st = impl->exec(&p, &a, &ctx);
    if (pdnn_log_on()) {
        char sw[160], sdw[160];
        pdnn_tensor_str(wDesc, sw, sizeof sw);
        pdnn_tensor_str(dwDesc, sdw, sizeof sdw);
        pdnn_log_call(f, "opt=%s lr=%g step=%lld dw=%s w=%s state=%zuB impl=%s ws=0 "
                      "threads=%d time=%.3fms", opt_name(optDesc->type), lr, (long long)step,
                      sdw, sw, need, impl->name, handle->nthreads, pdnn_now_ms() - t0);
    }
    return st;
}

static pdnnStatus_t clip_run(pdnn_clip_op op, const tensor_t *d, void *g, double norm_type,
                             double coef, double *acc, pdnnHandle_t h, const char *func,
                             const pdnn_impl **chosen)
{
    pdnn_clip_problem p;
    memset(&p, 0, sizeof p);
    p.op = op;
    p.g = *d;
    p.n = pdnn_tensor_numel(d);
    p.norm_type = norm_type;
    pdnn_clip_args a = {g, coef, acc};
    PDNN_TRY(pdnn_dispatch(pdnn_clip_impls, -1, &p, 0, func, chosen));
    pdnn_ctx ctx = {h->nthreads, NULL, 0};
    return (*chosen)->exec(&p, &a, &ctx);
}

pdnnStatus_t pdnnClipGradNorm(pdnnHandle_t handle, int nbTensors,
                              const pdnnTensorDescriptor_t gradDescs[], void *const grads[],
                              double maxNorm, double normType, double *totalNorm)
{
    const char *f = __func__;
    PDNN_TRY(pdnn_check_handle(handle, f));
    if (nbTensors < 0)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, f, "nbTensors is %d, must be >= 0",
                          nbTensors);
    if (nbTensors > 0) {
        PDNN_CHECK_NULL(gradDescs);
        PDNN_CHECK_NULL(grads);
    }
    if (!(maxNorm >= 0.0))
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, f,
                          "maxNorm is %g, must be >= 0 (+INFINITY only measures)", maxNorm);
    if (!(normType > 0.0))
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, f,
                          "normType is %g, must be > 0 (or +INFINITY)", normType);
    PDNN_CHECK_NULL(totalNorm);
    for (int i = 0; i < nbTensors; i++) {
        char name[40], dname[40];
        snprintf(name, sizeof name, "gradDescs[%d]", i);
        snprintf(dname, sizeof dname, "grads[%d]", i);
        PDNN_TRY(pdnn_check_output_tensor(gradDescs[i], f, name));
        PDNN_TRY(pdnn_check_compute_dtype(gradDescs[i]->dtype, f, name));
        PDNN_TRY(pdnn_check_data(gradDescs[i], grads[i], f, dname));
    }
    /* a tensor listed twice (or two overlapping views) would be counted and scaled twice */
    for (int i = 0; i < nbTensors; i++)
        for (int j = i + 1; j < nbTensors; j++) {
            char ni[40], nj[40];
            snprintf(ni, sizeof ni, "grads[%d]", i);
            snprintf(nj, sizeof nj, "grads[%d]", j);
            PDNN_TRY(pdnn_check_disjoint(gradDescs[i], grads[i], ni, gradDescs[j], grads[j],
                                         nj, f));
        }

    double t0 = pdnn_log_on() ? pdnn_now_ms() : 0;
    const bool inf = isinf(normType);
    const pdnn_impl *impl = NULL, *first = NULL;
    double acc = 0.0;
    for (int i = 0; i < nbTensors; i++) {
        if (pdnn_tensor_numel(gradDescs[i]) == 0) continue;
        PDNN_TRY(clip_run(PDNN_CLIP_MEASURE, gradDescs[i], grads[i], normType, 0.0, &acc,
                          handle, f, &impl));
        if (!first) first = impl;
    }
    double total = inf ? acc : normType == 2.0 ? sqrt(acc) : normType == 1.0 ? acc
                                                            : pow(acc, 1.0 / normType);
    double coef = maxNorm / (total + 1e-6);
    bool scaled = !(coef >= 1.0); /* NaN scales too, as PyTorch's clamp keeps NaN */
    if (scaled)
        for (int i = 0; i < nbTensors; i++) {
            if (pdnn_tensor_numel(gradDescs[i]) == 0) continue;
            PDNN_TRY(clip_run(PDNN_CLIP_SCALE, gradDescs[i], grads[i], normType, coef, NULL,
                              handle, f, &impl));
        }
    *totalNorm = total;
    if (pdnn_log_on()) {
        char s0[160] = "none";
        if (nbTensors > 0) pdnn_tensor_str(gradDescs[0], s0, sizeof s0);
        pdnn_log_call(f, "nbTensors=%d grads[0]=%s maxNorm=%g normType=%g total=%g "
                      "coef=%g scaled=%d impl=%s ws=0 threads=%d time=%.3fms", nbTensors, s0,
                      maxNorm, normType, total, coef, (int)scaled,
                      first ? first->name : "none", handle->nthreads, pdnn_now_ms() - t0);
    }
    return PDNN_STATUS_SUCCESS;
}
