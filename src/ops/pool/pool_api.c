/* pdnnPoolingForward / pdnnPoolingBackward: validate -> problem -> dispatch -> run. */
#include <stdio.h>
#include <string.h>

#include "core/alias.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/log.h"
#include "core/pool_desc.h"
#include "core/registry.h"
#define PDNN_POOL_IMPL_LISTS
#include "ops/pool/pool_impls.h"
#include "ops/pool/pool_problem.h"

typedef struct pdnnTensorStruct tensor_t;
typedef struct pdnnPoolingStruct pool_t;

/* Common descriptor checks: 1..3 spatial dims computed, x's rank and its output dims
 * equal to `out`'s (SHAPE_MISMATCH otherwise). */
static pdnnStatus_t check_shapes(const pool_t *pd, const tensor_t *x, const char *xname,
                                 const tensor_t *y, const char *yname, int64_t *odim,
                                 const char *func)
{
    PDNN_TRY(pdnn_pool_output_dims(pd, x, odim, func));
    if (pd->nbSpatial > PDNN_POOL_SP_MAX)
        return pdnn_error(PDNN_STATUS_NOT_SUPPORTED_SHAPE, func,
                          "poolingDesc has %d spatial dimensions; 1 to %d are computed",
                          pd->nbSpatial, PDNN_POOL_SP_MAX);
    bool same = y->nbDims == x->nbDims;
    for (int i = 0; same && i < x->nbDims; i++) same = y->dim[i] == odim[i];
    if (!same) {
        char sx[160], sy[160], want[160];
        size_t off = 0;
        pdnn_tensor_str(x, sx, sizeof sx);
        pdnn_tensor_str(y, sy, sizeof sy);
        want[0] = '\0';
        for (int i = 0; i < x->nbDims && off < sizeof want; i++) {
            int r = snprintf(want + off, sizeof want - off, "%s%lld", i ? "x" : "",
                             (long long)odim[i]);
            if (r > 0) off += (size_t)r;
        }
        return pdnn_error(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, func,
                          "%s (%s) must have dims %s, the pooling output of %s (%s)", yname,
                          sy, want, xname, sx);
    }
    return PDNN_STATUS_SUCCESS;
}

static void build(pdnn_pool_problem *p, pdnn_pool_dir dir, const pool_t *pd,
                  const tensor_t *x, const tensor_t *y, const tensor_t *dx)
{
    memset(p, 0, sizeof *p);
    p->dir = dir;
    p->dtype = x->dtype;
    p->mode = pd->mode;
    p->nan_prop = pd->nan_opt == PDNN_PROPAGATE_NAN;
    p->nsp = pd->nbSpatial;
    p->n = x->dim[0];
    p->c = x->dim[1];
    p->xs[0] = x->stride[0], p->xs[1] = x->stride[1];
    p->ys[0] = y->stride[0], p->ys[1] = y->stride[1];
    if (dx) p->dxs[0] = dx->stride[0], p->dxs[1] = dx->stride[1];
    int first = PDNN_POOL_SP_MAX - p->nsp;
    for (int j = 0; j < PDNN_POOL_SP_MAX; j++) {
        int i = j - first; /* descriptor spatial index; < 0 for a padding dim */
        bool real = i >= 0;
        p->in[j] = real ? x->dim[2 + i] : 1;
        p->out[j] = real ? y->dim[2 + i] : 1;
        p->win[j] = real ? pd->window[i] : 1;
        p->stride[j] = real ? pd->stride[i] : 1;
        p->dil[j] = real ? pd->dilation[i] : 1;
        p->pad_b[j] = real ? pd->pad_begin[i] : 0;
        p->pad_e[j] = real ? pd->pad_end[i] : 0;
        p->xs[2 + j] = real ? x->stride[2 + i] : 0;
        p->ys[2 + j] = real ? y->stride[2 + i] : 0;
        if (dx) p->dxs[2 + j] = real ? dx->stride[2 + i] : 0;
    }
}

/* Dispatches and runs; logs when asked. */
static pdnnStatus_t run(const pdnn_pool_problem *p, const pdnn_pool_args *a,
                        const pdnn_impl *const *list, pdnnHandle_t h, const char *func,
                        const tensor_t *const *descs, const char *const *names, int ndescs)
{
    const pdnn_impl *impl;
    PDNN_TRY(pdnn_dispatch(list, -1, p, 0, func, &impl));
    pdnn_ctx ctx = {h->nthreads, NULL, 0};
    bool log = pdnn_log_on();
    double t0 = log ? pdnn_now_ms() : 0;
    pdnnStatus_t st = impl->exec(p, a, &ctx);
    if (log) {
        char key[256], all[720];
        pdnn_pool_problem_key(p, key, sizeof key);
        pdnn_tensor_list_str(descs, names, ndescs, all, sizeof all);
        pdnn_log_call(func, "%s alpha=%g beta=%g%s impl=%s ws=0 threads=%d time=%.3fms", key,
                      a->alpha, a->beta, all, impl->name, h->nthreads, pdnn_now_ms() - t0);
    }
    return st;
}

pdnnStatus_t pdnnPoolingForward(pdnnHandle_t handle, const pdnnPoolingDescriptor_t poolingDesc,
                                const void *alpha, const pdnnTensorDescriptor_t xDesc,
                                const void *x, const void *beta,
                                const pdnnTensorDescriptor_t yDesc, void *y)
{
    const char *f = __func__;
    PDNN_TRY(pdnn_check_handle(handle, f));
    PDNN_TRY(pdnn_check_pooling(poolingDesc, f, "poolingDesc"));
    PDNN_CHECK_NULL(alpha);
    PDNN_CHECK_NULL(beta);
    PDNN_TRY(pdnn_check_tensor(xDesc, f, "xDesc"));
    PDNN_TRY(pdnn_check_output_tensor(yDesc, f, "yDesc"));
    PDNN_TRY(pdnn_check_same_dtype(xDesc, "xDesc", yDesc, "yDesc", f));
    PDNN_TRY(pdnn_check_compute_dtype(xDesc->dtype, f, "xDesc"));
    int64_t odim[PDNN_DIM_MAX];
    PDNN_TRY(check_shapes(poolingDesc, xDesc, "xDesc", yDesc, "yDesc", odim, f));
    PDNN_TRY(pdnn_check_data(xDesc, x, f, "x"));
    PDNN_TRY(pdnn_check_data(yDesc, y, f, "y"));
    PDNN_TRY(pdnn_check_disjoint(xDesc, x, "x", yDesc, y, "y", f));
    if (pdnn_tensor_numel(yDesc) == 0) return PDNN_STATUS_SUCCESS;

    pdnn_pool_problem p;
    build(&p, PDNN_POOL_FWD, poolingDesc, xDesc, yDesc, NULL);
    pdnn_pool_args a = {x, NULL, y, pdnn_scalar(alpha, p.dtype), pdnn_scalar(beta, p.dtype)};
    const tensor_t *d[2] = {xDesc, yDesc};
    const char *nm[2] = {"x", "y"};
    return run(&p, &a, pdnn_pool_fwd_impls, handle, f, d, nm, 2);
}

pdnnStatus_t pdnnPoolingBackward(pdnnHandle_t handle,
                                 const pdnnPoolingDescriptor_t poolingDesc, const void *alpha,
                                 const pdnnTensorDescriptor_t yDesc, const void *y,
                                 const pdnnTensorDescriptor_t dyDesc, const void *dy,
                                 const pdnnTensorDescriptor_t xDesc, const void *x,
                                 const void *beta, const pdnnTensorDescriptor_t dxDesc,
                                 void *dx)
{
    const char *f = __func__;
    PDNN_TRY(pdnn_check_handle(handle, f));
    PDNN_TRY(pdnn_check_pooling(poolingDesc, f, "poolingDesc"));
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
    PDNN_TRY(pdnn_check_same_dims(xDesc, "xDesc", dxDesc, "dxDesc", f));
    int64_t odim[PDNN_DIM_MAX];
    PDNN_TRY(check_shapes(poolingDesc, xDesc, "xDesc", yDesc, "yDesc", odim, f));
    PDNN_TRY(pdnn_check_same_dims(yDesc, "yDesc", dyDesc, "dyDesc", f));
    PDNN_TRY(pdnn_check_data(yDesc, y, f, "y"));
    PDNN_TRY(pdnn_check_data(dyDesc, dy, f, "dy"));
    PDNN_TRY(pdnn_check_data(xDesc, x, f, "x"));
    PDNN_TRY(pdnn_check_data(dxDesc, dx, f, "dx"));
    PDNN_TRY(pdnn_check_disjoint(yDesc, y, "y", dxDesc, dx, "dx", f));
    PDNN_TRY(pdnn_check_disjoint(dyDesc, dy, "dy", dxDesc, dx, "dx", f));
    PDNN_TRY(pdnn_check_disjoint(xDesc, x, "x", dxDesc, dx, "dx", f));
    if (pdnn_tensor_numel(dxDesc) == 0) return PDNN_STATUS_SUCCESS;

    pdnn_pool_problem p;
    build(&p, PDNN_POOL_BWD, poolingDesc, xDesc, dyDesc, dxDesc);
    pdnn_pool_args a = {x, dy, dx, pdnn_scalar(alpha, p.dtype), pdnn_scalar(beta, p.dtype)};
    const tensor_t *d[4] = {yDesc, dyDesc, xDesc, dxDesc};
    const char *nm[4] = {"y", "dy", "x", "dx"};
    return run(&p, &a, pdnn_pool_bwd_impls, handle, f, d, nm, 4);
}
