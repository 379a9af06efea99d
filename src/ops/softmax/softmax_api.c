/* pdnnSoftmaxForward / pdnnSoftmaxBackward: validate -> problem -> dispatch -> run. */
#include <string.h>

#include "core/alias.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/log.h"
#include "core/registry.h"
#include "ops/softmax/softmax_impls.h"
#include "ops/softmax/softmax_problem.h"

typedef struct pdnnTensorStruct tensor_t;

static pdnnStatus_t check_enums(pdnnSoftmaxAlgorithm_t algo, pdnnSoftmaxMode_t mode,
                                const char *func)
{
    if (algo != PDNN_SOFTMAX_FAST && algo != PDNN_SOFTMAX_ACCURATE && algo != PDNN_SOFTMAX_LOG)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "algo %d is not a pdnnSoftmaxAlgorithm_t (FAST 0, ACCURATE 1, LOG 2)",
                          (int)algo);
    if (mode != PDNN_SOFTMAX_MODE_INSTANCE && mode != PDNN_SOFTMAX_MODE_CHANNEL)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "mode %d is not a pdnnSoftmaxMode_t (INSTANCE 0, CHANNEL 1)",
                          (int)mode);
    return PDNN_STATUS_SUCCESS;
}

static pdnnStatus_t check_rank(const tensor_t *d, const char *name, const char *func)
{
    if (d->nbDims < 2)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "%s has %d dimension; softmax needs at least 2 (N, C, spatial...)",
                          name, d->nbDims);
    return PDNN_STATUS_SUCCESS;
}

static const char *algo_name(pdnnSoftmaxAlgorithm_t a)
{
    return a == PDNN_SOFTMAX_FAST ? "FAST" : a == PDNN_SOFTMAX_ACCURATE ? "ACCURATE" : "LOG";
}

static pdnnStatus_t run(const pdnn_softmax_problem *p, const pdnn_softmax_args *a,
                        pdnnHandle_t h, const char *func, const tensor_t *const *descs,
                        const char *const *names, int ndescs)
{
    const pdnn_impl *impl;
    PDNN_TRY(pdnn_dispatch(pdnn_softmax_impls, -1, p, 0, func, &impl));
    pdnn_ctx ctx = {h->nthreads, NULL, 0};
    double t0 = pdnn_log_on() ? pdnn_now_ms() : 0;
    pdnnStatus_t st = impl->exec(p, a, &ctx);
    if (pdnn_log_on()) {
        char ts[720];
        pdnn_tensor_list_str(descs, names, ndescs, ts, sizeof ts);
        pdnn_log_call(func,
                      "algo=%s mode=%s alpha=%g beta=%g%s impl=%s ws=0 threads=%d time=%.3fms",
                      algo_name(p->algo),
                      p->mode == PDNN_SOFTMAX_MODE_INSTANCE ? "INSTANCE" : "CHANNEL",
                      a->alpha, a->beta, ts, impl->name, h->nthreads, pdnn_now_ms() - t0);
    }
    return st;
}

static void fill_problem(pdnn_softmax_problem *p, bool bwd, pdnnSoftmaxAlgorithm_t algo,
                         pdnnSoftmaxMode_t mode, const tensor_t *in0, const tensor_t *in1,
                         const tensor_t *out)
{
    memset(p, 0, sizeof *p);
    p->bwd = bwd;
    p->algo = algo;
    p->mode = mode;
    p->dtype = out->dtype;
    p->nb = out->nbDims;
    memcpy(p->dim, out->dim, sizeof p->dim);
    memcpy(p->s[PDNN_SM_IN0], in0->stride, sizeof p->s[0]);
    memcpy(p->s[PDNN_SM_IN1], in1->stride, sizeof p->s[0]);
    memcpy(p->s[PDNN_SM_OUT], out->stride, sizeof p->s[0]);
}

pdnnStatus_t pdnnSoftmaxForward(pdnnHandle_t handle, pdnnSoftmaxAlgorithm_t algo,
                                pdnnSoftmaxMode_t mode, const void *alpha,
                                const pdnnTensorDescriptor_t xDesc, const void *x,
                                const void *beta, const pdnnTensorDescriptor_t yDesc, void *y)
{
    const char *f = __func__;
    PDNN_TRY(pdnn_check_handle(handle, f));
    PDNN_TRY(check_enums(algo, mode, f));
    PDNN_CHECK_NULL(alpha);
    PDNN_CHECK_NULL(beta);
    PDNN_TRY(pdnn_check_tensor(xDesc, f, "xDesc"));
    PDNN_TRY(pdnn_check_output_tensor(yDesc, f, "yDesc"));
    PDNN_TRY(pdnn_check_same_dtype(xDesc, "xDesc", yDesc, "yDesc", f));
    PDNN_TRY(pdnn_check_compute_dtype(xDesc->dtype, f, "xDesc"));
    PDNN_TRY(check_rank(xDesc, "xDesc", f));
    PDNN_TRY(pdnn_check_same_dims(xDesc, "xDesc", yDesc, "yDesc", f));
    PDNN_TRY(pdnn_check_data(xDesc, x, f, "x"));
    PDNN_TRY(pdnn_check_data(yDesc, y, f, "y"));
    if (pdnn_tensor_numel(yDesc) == 0) return PDNN_STATUS_SUCCESS;
    PDNN_TRY(pdnn_check_alias(xDesc, x, "x", yDesc, y, "y", f));

    pdnn_softmax_problem p;
    fill_problem(&p, false, algo, mode, xDesc, yDesc, yDesc);
    pdnn_softmax_args a = {x, NULL, y, pdnn_scalar(alpha, p.dtype), pdnn_scalar(beta, p.dtype)};
    const tensor_t *d[2] = {xDesc, yDesc};
    const char *nm[2] = {"x", "y"};
    return run(&p, &a, handle, f, d, nm, 2);
}

pdnnStatus_t pdnnSoftmaxBackward(pdnnHandle_t handle, pdnnSoftmaxAlgorithm_t algo,
                                 pdnnSoftmaxMode_t mode, const void *alpha,
                                 const pdnnTensorDescriptor_t yDesc, const void *y,
                                 const pdnnTensorDescriptor_t dyDesc, const void *dy,
                                 const void *beta, const pdnnTensorDescriptor_t dxDesc,
                                 void *dx)
{
    const char *f = __func__;
    PDNN_TRY(pdnn_check_handle(handle, f));
    PDNN_TRY(check_enums(algo, mode, f));
    PDNN_CHECK_NULL(alpha);
    PDNN_CHECK_NULL(beta);
    PDNN_TRY(pdnn_check_tensor(yDesc, f, "yDesc"));
    PDNN_TRY(pdnn_check_tensor(dyDesc, f, "dyDesc"));
    PDNN_TRY(pdnn_check_output_tensor(dxDesc, f, "dxDesc"));
    PDNN_TRY(pdnn_check_same_dtype(yDesc, "yDesc", dxDesc, "dxDesc", f));
    PDNN_TRY(pdnn_check_same_dtype(dyDesc, "dyDesc", dxDesc, "dxDesc", f));
    PDNN_TRY(pdnn_check_compute_dtype(dxDesc->dtype, f, "dxDesc"));
    PDNN_TRY(check_rank(dxDesc, "dxDesc", f));
    PDNN_TRY(pdnn_check_same_dims(yDesc, "yDesc", dxDesc, "dxDesc", f));
    PDNN_TRY(pdnn_check_same_dims(dyDesc, "dyDesc", dxDesc, "dxDesc", f));
    PDNN_TRY(pdnn_check_data(yDesc, y, f, "y"));
    PDNN_TRY(pdnn_check_data(dyDesc, dy, f, "dy"));
    PDNN_TRY(pdnn_check_data(dxDesc, dx, f, "dx"));
    if (pdnn_tensor_numel(dxDesc) == 0) return PDNN_STATUS_SUCCESS;
    PDNN_TRY(pdnn_check_alias(yDesc, y, "y", dxDesc, dx, "dx", f));
    PDNN_TRY(pdnn_check_alias(dyDesc, dy, "dy", dxDesc, dx, "dx", f));

    pdnn_softmax_problem p;
    fill_problem(&p, true, algo, mode, yDesc, dyDesc, dxDesc);
    pdnn_softmax_args a = {y, dy, dx, pdnn_scalar(alpha, p.dtype), pdnn_scalar(beta, p.dtype)};
    const tensor_t *d[3] = {yDesc, dyDesc, dxDesc};
    const char *nm[3] = {"y", "dy", "dx"};
    return run(&p, &a, handle, f, d, nm, 3);
}
