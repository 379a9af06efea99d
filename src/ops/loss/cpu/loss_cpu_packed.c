/* Losses on packed tensors: OpenMP over rows (samples x spatial positions), double
 * accumulation. Reductions sum fixed blocks of rows (their number depends only on the
 * row count) and then the blocks in order, so results are bitwise identical for any
 * thread count. */
#include <math.h>

#include "core/par.h"
#include "core/registry.h"
#include "ops/loss/loss_problem.h"

#define NBLOCKS 64
#define PAR_MIN_WORK 16384 /* elements below which one thread runs */

static inline double ldx(const void *p, pdnnDataType_t t, int64_t i)
{
    return t == PDNN_DATA_DOUBLE ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

static inline void blend(void *y, pdnnDataType_t t, int64_t i, double alpha, double v,
                         double beta)
{
    if (t == PDNN_DATA_DOUBLE) {
        double *q = y;
        q[i] = beta != 0.0 ? alpha * v + beta * q[i] : alpha * v;
    } else {
        float *q = y;
        q[i] = (float)(beta != 0.0 ? alpha * v + beta * (double)q[i] : alpha * v);
    }
}

/* Loss of one row (class losses: row r; MSE: element r). *counted: not ignored. */
static double row_loss(const pdnn_loss_problem *p, const pdnn_loss_args *a, int64_t r,
                       bool *counted)
{
    pdnnDataType_t t = p->dtype;
    if (p->mode == PDNN_LOSS_MSE) {
        double d = ldx(a->x, t, r) - ldx(a->target, t, r);
        *counted = true;
        return d * d;
    }
    int64_t label = pdnn_loss_label(a->target, p->ttype, r);
    if (label == p->ignore_index) {
        *counted = false;
        return 0.0;
    }
    *counted = true;
    int64_t s = p->s, base = (r / s) * p->c * s + r % s, c = p->c;
    double xt = ldx(a->x, t, base + label * s);
    if (p->mode == PDNN_LOSS_NLL) return -xt;
    double m = -INFINITY;
    for (int64_t k = 0; k < c; k++) {
        double v = ldx(a->x, t, base + k * s);
        if (v > m || v != v) m = v;
    }
    double sum = 0.0, sx = 0.0;
    for (int64_t k = 0; k < c; k++) {
        double v = ldx(a->x, t, base + k * s);
        sum += exp(v - m);
        sx += m - v;
    }
    double ls = log(sum), nll = (m - xt) + ls;
    if (p->smoothing == 0.0) return nll;
    double smooth = sx + (double)c * ls; /* sum_k (m - x_k + ls) */
    return (1.0 - p->smoothing) * nll + p->smoothing / (double)c * smooth;
}

static pdnnStatus_t forward(const pdnn_loss_problem *p, const pdnn_loss_args *a, int nthreads)
{
    int64_t rows = p->rows;
    const double work = (double)rows * (double)p->c;
    if (p->reduction == PDNN_LOSS_REDUCTION_NONE) {
        const int nt = pdnn_par_threads(nthreads, rows, work, PAR_MIN_WORK);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
        for (int64_t r = 0; r < rows; r++) {
            bool counted;
            double l = row_loss(p, a, r, &counted);
            blend(a->y, p->dtype, r, a->alpha, l, a->beta);
        }
        return PDNN_STATUS_SUCCESS;
    }
    double part[NBLOCKS];
    int64_t cnt[NBLOCKS];
    int nb = rows < NBLOCKS ? (int)rows : NBLOCKS;
    const int nt = pdnn_par_threads(nthreads, nb, work, PAR_MIN_WORK);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int b = 0; b < nb; b++) {
        double acc = 0.0;
        int64_t n = 0;
        for (int64_t r = rows * b / nb; r < rows * (b + 1) / nb; r++) {
            bool counted;
            acc += row_loss(p, a, r, &counted);
            n += counted;
        }
        part[b] = acc;
        cnt[b] = n;
    }
    double sum = 0.0;
    int64_t count = 0;
    for (int b = 0; b < nb; b++) sum += part[b], count += cnt[b];
    double v = p->reduction == PDNN_LOSS_REDUCTION_MEAN ? sum / (double)count : sum;
    blend(a->y, p->dtype, 0, a->alpha, v, a->beta);
    return PDNN_STATUS_SUCCESS;
}

static pdnnStatus_t backward(const pdnn_loss_problem *p, const pdnn_loss_args *a, int nthreads)
{
    int64_t rows = p->rows, c = p->c, s = p->s;
    pdnnDataType_t t = p->dtype;
    const int nt = pdnn_par_threads(nthreads, rows, (double)rows * (double)c, PAR_MIN_WORK);
    int64_t count = rows;
    if (p->mode != PDNN_LOSS_MSE && p->reduction == PDNN_LOSS_REDUCTION_MEAN) {
        count = 0;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1) reduction(+ : count)
        for (int64_t r = 0; r < rows; r++)
            count += pdnn_loss_label(a->target, p->ttype, r) != p->ignore_index;
    }
    double g0 = p->reduction != PDNN_LOSS_REDUCTION_NONE && p->has_dy ? ldx(a->dy, t, 0) : 1.0;
    if (p->reduction == PDNN_LOSS_REDUCTION_MEAN) g0 /= (double)(count > 0 ? count : 1);
    double eps = p->smoothing, off = eps / (double)(c > 0 ? c : 1);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t r = 0; r < rows; r++) {
        double w = p->reduction == PDNN_LOSS_REDUCTION_NONE ? (p->has_dy ? ldx(a->dy, t, r) : 1.0)
                                                            : g0;
        if (p->mode == PDNN_LOSS_MSE) {
            double d = ldx(a->x, t, r) - ldx(a->target, t, r);
            blend(a->dx, t, r, a->alpha, 2.0 * d * w, a->beta);
            continue;
        }
        int64_t base = (r / s) * c * s + r % s;
        int64_t label = pdnn_loss_label(a->target, p->ttype, r);
        if (label == p->ignore_index) {
            for (int64_t k = 0; k < c; k++) blend(a->dx, t, base + k * s, a->alpha, 0.0, a->beta);
            continue;
        }
        if (p->mode == PDNN_LOSS_NLL) {
            for (int64_t k = 0; k < c; k++)
                blend(a->dx, t, base + k * s, a->alpha, k == label ? -w : 0.0, a->beta);
            continue;
        }
        double m = -INFINITY, sum = 0.0;
        for (int64_t k = 0; k < c; k++) {
            double v = ldx(a->x, t, base + k * s);
            if (v > m || v != v) m = v;
        }
        for (int64_t k = 0; k < c; k++) sum += exp(ldx(a->x, t, base + k * s) - m);
        double ls = log(sum); /* (x - m) - ls, never (m + ls): m may absorb ls */
        for (int64_t k = 0; k < c; k++) {
            double prob = exp((ldx(a->x, t, base + k * s) - m) - ls);
            double g = prob - (k == label ? 1.0 - eps : 0.0) - off;
            blend(a->dx, t, base + k * s, a->alpha, g * w, a->beta);
        }
    }
    return PDNN_STATUS_SUCCESS;
}

static bool supports(const void *prob, const char **why)
{
    const pdnn_loss_problem *p = prob;
    bool ok = pdnn_tensor_is_packed(&p->x) && pdnn_tensor_is_packed(&p->t);
    if (p->backward)
        ok = ok && pdnn_tensor_is_packed(&p->dx) && (!p->has_dy || pdnn_tensor_is_packed(&p->y));
    else
        ok = ok && pdnn_tensor_is_packed(&p->y);
    if (!ok) *why = "needs packed (row-major) tensors";
    return ok;
}

static pdnnStatus_t exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_loss_problem *p = prob;
    return p->backward ? backward(p, args, ctx->nthreads) : forward(p, args, ctx->nthreads);
}

const pdnn_impl pdnn_loss_cpu_packed = {
    .name = "cpu:packed",
    .algo = -1,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = supports,
    .workspace = NULL,
    .exec = exec,
};
