/* Reference losses: plain loops over any strides, double accumulation, one thread. */
#include <math.h>

#include "core/dtype.h"
#include "core/registry.h"
#include "ops/loss/loss_problem.h"

typedef struct pdnnTensorStruct tensor_t;

static double ld(const void *p, const tensor_t *d, int64_t linear)
{
    return pdnn_ld(p, d->dtype, pdnn_offset_of(d, linear));
}

/* Log-sum-exp of row r's logits split as max m and log(sum exp(x - m)). */
static void row_lse(const pdnn_loss_problem *p, const void *x, int64_t r, double *m,
                    double *logsum)
{
    int64_t i = r / p->s, j = r % p->s, base = i * p->c * p->s + j;
    double mx = -INFINITY;
    for (int64_t k = 0; k < p->c; k++) {
        double v = ld(x, &p->x, base + k * p->s);
        if (v > mx || v != v) mx = v;
    }
    double sum = 0.0;
    for (int64_t k = 0; k < p->c; k++) sum += exp(ld(x, &p->x, base + k * p->s) - mx);
    *m = mx;
    *logsum = log(sum);
}

/* Loss of row r with target label k (class losses, not ignored). */
static double row_loss(const pdnn_loss_problem *p, const void *x, int64_t r, int64_t label)
{
    int64_t i = r / p->s, j = r % p->s, base = i * p->c * p->s + j;
    double xt = ld(x, &p->x, base + label * p->s);
    if (p->mode == PDNN_LOSS_NLL) return -xt;
    double m, ls;
    row_lse(p, x, r, &m, &ls);
    double nll = (m - xt) + ls; /* -log softmax(x)[label] */
    if (p->smoothing == 0.0) return nll;
    double smooth = 0.0;        /* sum_k -log softmax(x)[k] */
    for (int64_t k = 0; k < p->c; k++) smooth += (m - ld(x, &p->x, base + k * p->s)) + ls;
    return (1.0 - p->smoothing) * nll + p->smoothing / (double)p->c * smooth;
}

static int64_t label_of(const pdnn_loss_problem *p, const void *t, int64_t r)
{
    return pdnn_loss_label(t, p->ttype, pdnn_offset_of(&p->t, r));
}

static pdnnStatus_t forward(const pdnn_loss_problem *p, const pdnn_loss_args *a)
{
    double sum = 0.0;
    int64_t count = 0;
    for (int64_t r = 0; r < p->rows; r++) {
        double l;
        if (pdnn_loss_is_class(p)) {
            int64_t label = label_of(p, a->target, r);
            if (label == p->ignore_index) {
                l = 0.0;
            } else {
                l = row_loss(p, a->x, r, label);
                count++;
            }
        } else {
            double d = ld(a->x, &p->x, r) - ld(a->target, &p->t, r);
            l = d * d;
            count++;
        }
        if (p->reduction == PDNN_LOSS_REDUCTION_NONE)
            pdnn_blend(a->y, p->dtype, pdnn_offset_of(&p->y, r), a->alpha, l, a->beta);
        else
            sum += l;
    }
    if (p->reduction != PDNN_LOSS_REDUCTION_NONE) {
        double v = p->reduction == PDNN_LOSS_REDUCTION_MEAN ? sum / (double)count : sum;
        pdnn_blend(a->y, p->dtype, 0, a->alpha, v, a->beta);
    }
    return PDNN_STATUS_SUCCESS;
}

static pdnnStatus_t backward(const pdnn_loss_problem *p, const pdnn_loss_args *a)
{
    int64_t count = p->rows;
    if (pdnn_loss_is_class(p) && p->reduction == PDNN_LOSS_REDUCTION_MEAN) {
        count = 0;
        for (int64_t r = 0; r < p->rows; r++)
            count += label_of(p, a->target, r) != p->ignore_index;
    }
    double g0 = 1.0; /* upstream gradient of a reduced loss */
    if (p->reduction != PDNN_LOSS_REDUCTION_NONE && p->has_dy) g0 = ld(a->dy, &p->y, 0);
    for (int64_t r = 0; r < p->rows; r++) {
        double w;
        if (p->reduction == PDNN_LOSS_REDUCTION_NONE)
            w = p->has_dy ? ld(a->dy, &p->y, r) : 1.0;
        else
            w = p->reduction == PDNN_LOSS_REDUCTION_MEAN ? g0 / (double)count : g0;
        if (!pdnn_loss_is_class(p)) {
            double d = ld(a->x, &p->x, r) - ld(a->target, &p->t, r);
            pdnn_blend(a->dx, p->dtype, pdnn_offset_of(&p->dx, r), a->alpha, 2.0 * d * w,
                       a->beta);
            continue;
        }
        int64_t i = r / p->s, j = r % p->s, base = i * p->c * p->s + j;
        int64_t label = label_of(p, a->target, r);
        bool ignored = label == p->ignore_index;
        double m = 0.0, ls = 0.0;
        if (!ignored && p->mode == PDNN_LOSS_SOFTMAX_CROSS_ENTROPY) row_lse(p, a->x, r, &m, &ls);
        for (int64_t k = 0; k < p->c; k++) {
            int64_t e = base + k * p->s;
            double g = 0.0;
            if (!ignored) {
                double onehot = k == label ? 1.0 : 0.0;
                if (p->mode == PDNN_LOSS_NLL) {
                    g = -onehot * w;
                } else {
                    double prob = exp((ld(a->x, &p->x, e) - m) - ls);
                    g = (prob - (1.0 - p->smoothing) * onehot - p->smoothing / (double)p->c) * w;
                }
            }
            pdnn_blend(a->dx, p->dtype, pdnn_offset_of(&p->dx, e), a->alpha, g, a->beta);
        }
    }
    return PDNN_STATUS_SUCCESS;
}

static pdnnStatus_t exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    (void)ctx;
    const pdnn_loss_problem *p = prob;
    return p->backward ? backward(p, args) : forward(p, args);
}

const pdnn_impl pdnn_loss_ref = {
    .name = "cpu:ref",
    .algo = -1,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = pdnn_supports_any,
    .workspace = NULL,
    .exec = exec,
};
