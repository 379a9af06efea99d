/* pdnnLossForward / pdnnLossBackward: validate -> problem -> dispatch -> run. */
#include <stdio.h>
#include <string.h>

#include "core/alias.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/log.h"
#include "core/registry.h"
#include "ops/loss/loss_impls.h"
#include "ops/loss/loss_problem.h"

typedef struct pdnnTensorStruct tensor_t;

static const char *mode_name(pdnnLossMode_t m)
{
    return m == PDNN_LOSS_SOFTMAX_CROSS_ENTROPY ? "softmax_ce" : m == PDNN_LOSS_NLL ? "nll" : "mse";
}

static const char *red_name(pdnnLossReduction_t r)
{
    return r == PDNN_LOSS_REDUCTION_NONE ? "none" : r == PDNN_LOSS_REDUCTION_MEAN ? "mean" : "sum";
}

/* True when d has one value per row of the class-loss input x: dims N x d1 x ... x dk,
 * or N x 1 x d1 x ... x dk. */
static bool is_rows_shape(const tensor_t *x, const tensor_t *d)
{
    int nb = x->nbDims;
    if (d->nbDims == nb - 1) {
        if (d->dim[0] != x->dim[0]) return false;
        for (int i = 1; i < nb - 1; i++)
            if (d->dim[i] != x->dim[i + 1]) return false;
        return true;
    }
    if (d->nbDims == nb) {
        if (d->dim[0] != x->dim[0] || d->dim[1] != 1) return false;
        for (int i = 2; i < nb; i++)
            if (d->dim[i] != x->dim[i]) return false;
        return true;
    }
    return false;
}

static pdnnStatus_t rows_mismatch(const tensor_t *x, const tensor_t *d, const char *name,
                                  const char *func)
{
    char sx[160], sd[160];
    pdnn_tensor_str(x, sx, sizeof sx);
    pdnn_tensor_str(d, sd, sizeof sd);
    return pdnn_error(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, func,
                      "%s (%s) must have xDesc's dims without the class dimension (N x d1 x "
                      "... x dk) or with it set to 1, for xDesc (%s)", name, sd, sx);
}

/* Shape rule of the loss value tensor (forward y, backward dy) for the reduction. */
static pdnnStatus_t check_value_shape(const struct pdnnLossStruct *L, const tensor_t *x,
                                      const tensor_t *v, const char *name, const char *func)
{
    if (L->reduction != PDNN_LOSS_REDUCTION_NONE) {
        if (pdnn_tensor_numel(v) != 1) {
            char sv[160];
            pdnn_tensor_str(v, sv, sizeof sv);
            return pdnn_error(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, func,
                              "%s (%s) must have exactly one element for reduction %s", name,
                              sv, red_name(L->reduction));
        }
        return PDNN_STATUS_SUCCESS;
    }
    if (L->mode == PDNN_LOSS_MSE) return pdnn_check_same_dims(x, "xDesc", v, name, func);
    if (!is_rows_shape(x, v)) return rows_mismatch(x, v, name, func);
    return PDNN_STATUS_SUCCESS;
}

/* Everything about x and target shared by forward and backward; fills the problem. */
static pdnnStatus_t check_inputs(const struct pdnnLossStruct *L, const tensor_t *x,
                                 const void *xp, const tensor_t *t, const void *tp,
                                 pdnn_loss_problem *p, const char *func)
{
    PDNN_TRY(pdnn_check_tensor(x, func, "xDesc"));
    PDNN_TRY(pdnn_check_tensor(t, func, "targetDesc"));
    PDNN_TRY(pdnn_check_compute_dtype(x->dtype, func, "xDesc"));
    memset(p, 0, sizeof *p);
    p->mode = L->mode;
    p->reduction = L->reduction;
    p->ignore_index = L->ignore_index;
    p->smoothing = L->smoothing;
    p->dtype = x->dtype;
    p->ttype = t->dtype;
    p->x = *x;
    p->t = *t;
    if (L->mode == PDNN_LOSS_MSE) {
        PDNN_TRY(pdnn_check_same_dtype(x, "xDesc", t, "targetDesc", func));
        PDNN_TRY(pdnn_check_same_dims(x, "xDesc", t, "targetDesc", func));
        p->n = p->rows = pdnn_tensor_numel(x);
        p->c = p->s = 1;
    } else {
        if (x->nbDims < 2)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                              "xDesc has %d dimension(s); %s needs N x C (x d1 x ... x dk)",
                              x->nbDims, mode_name(L->mode));
        if (t->dtype != PDNN_DATA_INT32 && t->dtype != PDNN_DATA_INT64)
            return pdnn_error(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, func,
                              "targetDesc has data type %s; class indices must be INT32 or "
                              "INT64 (class-probability targets are not supported)",
                              pdnn_dtype_name(t->dtype));
        if (!is_rows_shape(x, t)) return rows_mismatch(x, t, "targetDesc", func);
        p->n = x->dim[0];
        p->c = x->dim[1];
        p->s = 1;
        for (int i = 2; i < x->nbDims; i++) p->s *= x->dim[i];
        p->rows = p->n * p->s;
        if (p->c == 0 && p->rows > 0)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                              "xDesc has 0 classes for %lld samples", (long long)p->rows);
    }
    PDNN_TRY(pdnn_check_data(x, xp, func, "x"));
    PDNN_TRY(pdnn_check_data(t, tp, func, "target"));
    return PDNN_STATUS_SUCCESS;
}

/* Every class index must be in [0, C) or be the ignore index (read before any write). */
static pdnnStatus_t check_labels(const pdnn_loss_problem *p, const void *target,
                                 const char *func)
{
    if (!pdnn_loss_is_class(p)) return PDNN_STATUS_SUCCESS;
    for (int64_t r = 0; r < p->rows; r++) {
        int64_t k = pdnn_loss_label(target, p->ttype, pdnn_offset_of(&p->t, r));
        if (k != p->ignore_index && (k < 0 || k >= p->c))
            return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, func,
                              "target element %lld (sample %lld) is %lld: outside [0, %lld) "
                              "and not the ignore index %lld", (long long)r,
                              (long long)(r / p->s), (long long)k, (long long)p->c,
                              (long long)p->ignore_index);
    }
    return PDNN_STATUS_SUCCESS;
}

static pdnnStatus_t run(const pdnn_loss_problem *p, const pdnn_loss_args *a, pdnnHandle_t h,
                        const char *func)
{
    const pdnn_impl *impl;
    PDNN_TRY(pdnn_dispatch(pdnn_loss_impls, -1, p, 0, func, &impl));
    pdnn_ctx ctx = {h->nthreads, NULL, 0};
    double t0 = pdnn_log_on() ? pdnn_now_ms() : 0;
    pdnnStatus_t st = impl->exec(p, a, &ctx);
    if (pdnn_log_on()) {
        char sx[160], st_[160], sy[160], sdx[160];
        pdnn_tensor_str(&p->x, sx, sizeof sx);
        pdnn_tensor_str(&p->t, st_, sizeof st_);
        if (p->backward && !p->has_dy)
            snprintf(sy, sizeof sy, "none");
        else
            pdnn_tensor_str(&p->y, sy, sizeof sy);
        if (p->backward)
            pdnn_tensor_str(&p->dx, sdx, sizeof sdx);
        pdnn_log_call(func,
                      "mode=%s reduction=%s ignore_index=%lld label_smoothing=%g alpha=%g "
                      "beta=%g x=%s target=%s %s=%s%s%s impl=%s ws=0 threads=%d time=%.3fms",
                      mode_name(p->mode), red_name(p->reduction), (long long)p->ignore_index,
                      p->smoothing, a->alpha, a->beta, sx, st_, p->backward ? "dy" : "y", sy,
                      p->backward ? " dx=" : "", p->backward ? sdx : "", impl->name,
                      h->nthreads, pdnn_now_ms() - t0);
    }
    return st;
}

pdnnStatus_t pdnnLossForward(pdnnHandle_t handle, const pdnnLossDescriptor_t lossDesc,
                             const void *alpha, const pdnnTensorDescriptor_t xDesc,
                             const void *x, const pdnnTensorDescriptor_t targetDesc,
                             const void *target, const void *beta,
                             const pdnnTensorDescriptor_t yDesc, void *y)
{
    const char *f = __func__;
    PDNN_TRY(pdnn_check_handle(handle, f));
    PDNN_TRY(pdnn_check_loss(lossDesc, f, "lossDesc"));
    PDNN_CHECK_NULL(alpha);
    PDNN_CHECK_NULL(beta);
    pdnn_loss_problem p;
    PDNN_TRY(check_inputs(lossDesc, xDesc, x, targetDesc, target, &p, f));
    PDNN_TRY(pdnn_check_output_tensor(yDesc, f, "yDesc"));
    PDNN_TRY(pdnn_check_same_dtype(xDesc, "xDesc", yDesc, "yDesc", f));
    PDNN_TRY(check_value_shape(lossDesc, xDesc, yDesc, "yDesc", f));
    PDNN_TRY(pdnn_check_data(yDesc, y, f, "y"));
    /* the output may not overlap an input, not even as the same view */
    PDNN_TRY(pdnn_check_disjoint(xDesc, x, "x", yDesc, y, "y", f));
    PDNN_TRY(pdnn_check_disjoint(targetDesc, target, "target", yDesc, y, "y", f));
    PDNN_TRY(check_labels(&p, target, f));
    if (pdnn_tensor_numel(yDesc) == 0) return PDNN_STATUS_SUCCESS;
    p.backward = false;
    p.y = *yDesc;
    pdnn_loss_args a = {x, target, NULL, y, NULL, pdnn_scalar(alpha, p.dtype),
                        pdnn_scalar(beta, p.dtype)};
    return run(&p, &a, handle, f);
}

pdnnStatus_t pdnnLossBackward(pdnnHandle_t handle, const pdnnLossDescriptor_t lossDesc,
                              const void *alpha, const pdnnTensorDescriptor_t xDesc,
                              const void *x, const pdnnTensorDescriptor_t targetDesc,
                              const void *target, const pdnnTensorDescriptor_t dyDesc,
                              const void *dy, const void *beta,
                              const pdnnTensorDescriptor_t dxDesc, void *dx)
{
    const char *f = __func__;
    PDNN_TRY(pdnn_check_handle(handle, f));
    PDNN_TRY(pdnn_check_loss(lossDesc, f, "lossDesc"));
    PDNN_CHECK_NULL(alpha);
    PDNN_CHECK_NULL(beta);
    pdnn_loss_problem p;
    PDNN_TRY(check_inputs(lossDesc, xDesc, x, targetDesc, target, &p, f));
    if (dyDesc == NULL && dy != NULL)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, f,
                          "dyDesc is NULL but dy is not (pass both NULL for an upstream "
                          "gradient of 1)");
    if (dyDesc != NULL) {
        PDNN_TRY(pdnn_check_tensor(dyDesc, f, "dyDesc"));
        PDNN_TRY(pdnn_check_same_dtype(xDesc, "xDesc", dyDesc, "dyDesc", f));
        PDNN_TRY(check_value_shape(lossDesc, xDesc, dyDesc, "dyDesc", f));
        if (dy == NULL && pdnn_tensor_numel(dyDesc) > 0)
            return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, f,
                              "argument 'dy' is NULL but dyDesc is not (pass both NULL for "
                              "an upstream gradient of 1)");
    }
    PDNN_TRY(pdnn_check_output_tensor(dxDesc, f, "dxDesc"));
    PDNN_TRY(pdnn_check_same_dtype(xDesc, "xDesc", dxDesc, "dxDesc", f));
    PDNN_TRY(pdnn_check_same_dims(xDesc, "xDesc", dxDesc, "dxDesc", f));
    PDNN_TRY(pdnn_check_data(dxDesc, dx, f, "dx"));
    /* the output may not overlap an input, not even as the same view */
    PDNN_TRY(pdnn_check_disjoint(xDesc, x, "x", dxDesc, dx, "dx", f));
    PDNN_TRY(pdnn_check_disjoint(targetDesc, target, "target", dxDesc, dx, "dx", f));
    if (dyDesc != NULL) PDNN_TRY(pdnn_check_disjoint(dyDesc, dy, "dy", dxDesc, dx, "dx", f));
    PDNN_TRY(check_labels(&p, target, f));
    if (pdnn_tensor_numel(dxDesc) == 0) return PDNN_STATUS_SUCCESS;
    p.backward = true;
    p.has_dy = dyDesc != NULL;
    if (p.has_dy) p.y = *dyDesc;
    p.dx = *dxDesc;
    pdnn_loss_args a = {x, target, dy, NULL, dx, pdnn_scalar(alpha, p.dtype),
                        pdnn_scalar(beta, p.dtype)};
    return run(&p, &a, handle, f);
}
