/* pdnnActivationForward / pdnnActivationBackward: validate -> problem -> dispatch -> run. */
#include <string.h>

#include "core/alias.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/log.h"
#include "core/registry.h"
#include "ops/act/act_impls.h"
#include "ops/act/act_problem.h"

typedef struct pdnnTensorStruct tensor_t;

static void copy_strides(int64_t *dst, const tensor_t *d)
{
    memcpy(dst, d->stride, sizeof d->stride);
}

/* Dispatches and runs; logs when asked. */
static pdnnStatus_t run(const pdnn_act_problem *p, const pdnn_act_args *a, pdnnHandle_t h,
                        const char *func, const tensor_t *const *descs,
                        const char *const *names, int ndescs)
{
    const pdnn_impl *impl;
    PDNN_TRY(pdnn_dispatch(pdnn_act_impls, -1, p, 0, func, &impl));
    pdnn_ctx ctx = {h->nthreads, NULL, 0};
    double t0 = pdnn_log_on() ? pdnn_now_ms() : 0;
    pdnnStatus_t st = impl->exec(p, a, &ctx);
    if (pdnn_log_on()) {
        char ts[720];
        pdnn_tensor_list_str(descs, names, ndescs, ts, sizeof ts);
        pdnn_log_call(func,
                      "mode=%d nanOpt=%d coef=%g swish_beta=%g alpha=%g beta=%g%s impl=%s ws=0 "
                      "threads=%d time=%.3fms",
                      (int)p->act.mode, (int)p->act.propagate_nan, p->act.coef,
                      p->act.swish_beta, a->alpha, a->beta, ts, impl->name, h->nthreads,
                      pdnn_now_ms() - t0);
    }
    return st;
}

pdnnStatus_t pdnnActivationForward(pdnnHandle_t handle,
                                   pdnnActivationDescriptor_t activationDesc,
                                   const void *alpha, const pdnnTensorDescriptor_t xDesc,
                                   const void *x, const void *beta,
                                   const pdnnTensorDescriptor_t yDesc, void *y)
{
    const char *f = __func__;
    PDNN_TRY(pdnn_check_handle(handle, f));
    PDNN_TRY(pdnn_check_activation(activationDesc, f, "activationDesc"));
    PDNN_CHECK_NULL(alpha);
    PDNN_CHECK_NULL(beta);
    PDNN_TRY(pdnn_check_tensor(xDesc, f, "xDesc"));
    PDNN_TRY(pdnn_check_output_tensor(yDesc, f, "yDesc"));
    PDNN_TRY(pdnn_check_same_dtype(xDesc, "xDesc", yDesc, "yDesc", f));
    PDNN_TRY(pdnn_check_compute_dtype(xDesc->dtype, f, "xDesc"));
    PDNN_TRY(pdnn_check_same_dims(xDesc, "xDesc", yDesc, "yDesc", f));
    PDNN_TRY(pdnn_check_data(xDesc, x, f, "x"));
    PDNN_TRY(pdnn_check_data(yDesc, y, f, "y"));
    if (pdnn_tensor_numel(yDesc) == 0) return PDNN_STATUS_SUCCESS;
    PDNN_TRY(pdnn_check_alias(xDesc, x, "x", yDesc, y, "y", f));

    pdnn_act_problem p;
    memset(&p, 0, sizeof p);
    p.bwd = false;
    p.dtype = yDesc->dtype;
    p.nb = yDesc->nbDims;
    memcpy(p.dim, yDesc->dim, sizeof p.dim);
    p.numel = pdnn_tensor_numel(yDesc);
    copy_strides(p.xs, xDesc);
    copy_strides(p.ys, yDesc);
    p.act = pdnn_act_params_of(activationDesc);
    pdnn_act_args a = {x, NULL, NULL, y, pdnn_scalar(alpha, p.dtype),
                       pdnn_scalar(beta, p.dtype)};
    const tensor_t *d[2] = {xDesc, yDesc};
    const char *nm[2] = {"x", "y"};
    return run(&p, &a, handle, f, d, nm, 2);
}

pdnnStatus_t pdnnActivationBackward(pdnnHandle_t handle,
                                    pdnnActivationDescriptor_t activationDesc,
                                    const void *alpha, const pdnnTensorDescriptor_t yDesc,
                                    const void *y, const pdnnTensorDescriptor_t dyDesc,
                                    const void *dy, const pdnnTensorDescriptor_t xDesc,
                                    const void *x, const void *beta,
                                    const pdnnTensorDescriptor_t dxDesc, void *dx)
{
    const char *f = __func__;
    PDNN_TRY(pdnn_check_handle(handle, f));
    PDNN_TRY(pdnn_check_activation(activationDesc, f, "activationDesc"));
    PDNN_CHECK_NULL(alpha);
    PDNN_CHECK_NULL(beta);
    PDNN_TRY(pdnn_check_tensor(yDesc, f, "yDesc"));
    PDNN_TRY(pdnn_check_tensor(dyDesc, f, "dyDesc"));
    PDNN_TRY(pdnn_check_tensor(xDesc, f, "xDesc"));
    PDNN_TRY(pdnn_check_output_tensor(dxDesc, f, "dxDesc"));
    PDNN_TRY(pdnn_check_same_dtype(yDesc, "yDesc", dxDesc, "dxDesc", f));
    PDNN_TRY(pdnn_check_same_dtype(dyDesc, "dyDesc", dxDesc, "dxDesc", f));
    PDNN_TRY(pdnn_check_same_dtype(xDesc, "xDesc", dxDesc, "dxDesc", f));
    PDNN_TRY(pdnn_check_compute_dtype(dxDesc->dtype, f, "dxDesc"));
    PDNN_TRY(pdnn_check_same_dims(yDesc, "yDesc", dxDesc, "dxDesc", f));
    PDNN_TRY(pdnn_check_same_dims(dyDesc, "dyDesc", dxDesc, "dxDesc", f));
    PDNN_TRY(pdnn_check_same_dims(xDesc, "xDesc", dxDesc, "dxDesc", f));
    PDNN_TRY(pdnn_check_data(yDesc, y, f, "y"));
    PDNN_TRY(pdnn_check_data(dyDesc, dy, f, "dy"));
    PDNN_TRY(pdnn_check_data(xDesc, x, f, "x"));
    PDNN_TRY(pdnn_check_data(dxDesc, dx, f, "dx"));
    if (pdnn_tensor_numel(dxDesc) == 0) return PDNN_STATUS_SUCCESS;
    PDNN_TRY(pdnn_check_alias(yDesc, y, "y", dxDesc, dx, "dx", f));
    PDNN_TRY(pdnn_check_alias(dyDesc, dy, "dy", dxDesc, dx, "dx", f));
    PDNN_TRY(pdnn_check_alias(xDesc, x, "x", dxDesc, dx, "dx", f));

    pdnn_act_problem p;
    memset(&p, 0, sizeof p);
    p.bwd = true;
    p.dtype = dxDesc->dtype;
    p.nb = dxDesc->nbDims;
    memcpy(p.dim, dxDesc->dim, sizeof p.dim);
    p.numel = pdnn_tensor_numel(dxDesc);
    copy_strides(p.xs, xDesc);
    copy_strides(p.ys, yDesc);
    copy_strides(p.dys, dyDesc);
    copy_strides(p.dxs, dxDesc);
    p.act = pdnn_act_params_of(activationDesc);
    pdnn_act_args a = {x, y, dy, dx, pdnn_scalar(alpha, p.dtype), pdnn_scalar(beta, p.dtype)};
    const tensor_t *d[4] = {yDesc, dyDesc, xDesc, dxDesc};
    const char *nm[4] = {"y", "dy", "x", "dx"};
    return run(&p, &a, handle, f, d, nm, 4);
}
