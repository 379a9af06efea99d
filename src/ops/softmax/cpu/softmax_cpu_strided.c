/* Softmax on tensors whose views share one layout and whose row and outer index sets
 * each collapse to simple strided ranges: the row to one (len, sr) range, the outer
 * positions to at most two (na, sa) x (nb, sb). That covers packed NCHW, NHWC, NCDHW,
 * NDHWC and many gapped layouts, in both modes.
 *
 * When the innermost outer range is unit-stride (NCHW CHANNEL mode: rows run across C
 * with stride H*W) a block of W neighbouring rows is processed together, so that every
 * memory access is a contiguous run; otherwise each row is walked along its stride.
 * The arithmetic is the reference's: exp and compensated sums in double, each row's sum
 * in a fixed order (memory order along the collapsed row), independent of threads. */
#include <math.h>

#include "core/par.h"
#include "core/registry.h"
#include "ops/softmax/softmax_problem.h"

#define W 32 /* rows per block in the column kernel */

typedef struct {
    int64_t len, sr;   /* the row: len elements, stride sr */
    int64_t na, sa;    /* outer range A (outermost) */
    int64_t nb, sb;    /* outer range B */
    bool cols;         /* sb == 1: process W rows of B at once */
} plan_t;

/* Collapses dims (sizes > 1) into ranges, outermost first; false if more than max. */
static bool collapse(int n, const int64_t *dim, const int64_t *st, int max, int64_t *gd,
                     int64_t *gs, int *ng)
{
    int idx[PDNN_DIM_MAX], m = 0;
    for (int i = 0; i < n; i++)
        if (dim[i] > 1) idx[m++] = i;
    for (int i = 1; i < m; i++) /* by stride, largest first */
        for (int j = i; j > 0 && st[idx[j]] > st[idx[j - 1]]; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    int g = 0;
    for (int i = 0; i < m; i++) {
        int64_t d = dim[idx[i]], s = st[idx[i]];
        if (g > 0 && gs[g - 1] == s * d) {
            gd[g - 1] *= d;
            gs[g - 1] = s;
        } else {
            if (g == max) return false;
            gd[g] = d, gs[g] = s, g++;
        }
    }
    *ng = g;
    return true;
}

static bool make_plan(const pdnn_softmax_problem *p, plan_t *pl, const char **why)
{
    for (int i = 0; i < p->nb; i++)
        if (p->dim[i] > 1 && (p->s[PDNN_SM_IN0][i] != p->s[PDNN_SM_OUT][i] ||
                              p->s[PDNN_SM_IN1][i] != p->s[PDNN_SM_OUT][i])) {
            *why = "the tensors have different strides";
            return false;
        }
    const int64_t *st = p->s[PDNN_SM_OUT];
    int64_t rd[PDNN_DIM_MAX], rs[PDNN_DIM_MAX], od[PDNN_DIM_MAX], os[PDNN_DIM_MAX];
    int nr = 0, no = 0;
    for (int i = 0; i < p->nb; i++) {
        if (pdnn_softmax_reduces(p, i))
            rd[nr] = p->dim[i], rs[nr] = st[i], nr++;
        else
            od[no] = p->dim[i], os[no] = st[i], no++;
    }
    int64_t gd[2], gs[2];
    int g;
    if (!collapse(nr, rd, rs, 1, gd, gs, &g)) {
        *why = "the row's dims do not collapse to one strided range";
        return false;
    }
    pl->len = g ? gd[0] : 1;
    pl->sr = g ? gs[0] : 0;
    if (!collapse(no, od, os, 2, gd, gs, &g)) {
        *why = "the outer dims do not collapse to two strided ranges";
        return false;
    }
    pl->na = g == 2 ? gd[0] : 1;
    pl->sa = g == 2 ? gs[0] : 0;
    pl->nb = g ? gd[g - 1] : 1;
    pl->sb = g ? gs[g - 1] : 0;
    pl->cols = pl->sb == 1 && pl->nb > 1 && pl->len > 1;
    return true;
}

static bool strided_supports(const void *prob, const char **why)
{
    plan_t pl;
    return make_plan(prob, &pl, why);
}

#define INLINE static inline __attribute__((always_inline))

INLINE double ld(const void *p, bool f32, int64_t i)
{
    return f32 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

/* out[i] = alpha * v + beta * out[i], out not read when beta == 0. */
INLINE void put(void *p, bool f32, int64_t i, double alpha, double v, double beta)
{
    double r = alpha * v;
    if (beta != 0.0) r += beta * ld(p, f32, i);
    if (f32)
        ((float *)p)[i] = (float)r;
    else
        ((double *)p)[i] = r;
}

/* ---------------------------------------------------------------- one row at a time */

INLINE void row_fwd(const pdnn_softmax_problem *p, const pdnn_softmax_args *a,
                    const plan_t *pl, int64_t base, bool f32)
{
    const void *x = a->in0;
    void *y = a->out;
    const int64_t n = pl->len, s = pl->sr;
    double m = 0;
    if (p->algo != PDNN_SOFTMAX_FAST) {
        m = -INFINITY;
        for (int64_t r = 0; r < n; r++) {
            double v = ld(x, f32, base + r * s);
            if (v > m) m = v;
        }
    }
    pdnn_ksum k = {0, 0};
    for (int64_t r = 0; r < n; r++) pdnn_ksum_add(&k, exp(ld(x, f32, base + r * s) - m));
    double sum = pdnn_ksum_get(&k);
    if (p->algo == PDNN_SOFTMAX_LOG) {
        double ls = pdnn_ksum_log(&k);
        for (int64_t r = 0; r < n; r++)
            put(y, f32, base + r * s, a->alpha, (ld(x, f32, base + r * s) - m) - ls, a->beta);
    } else {
        for (int64_t r = 0; r < n; r++)
            put(y, f32, base + r * s, a->alpha, exp(ld(x, f32, base + r * s) - m) / sum,
                a->beta);
    }
}

INLINE void row_bwd(const pdnn_softmax_problem *p, const pdnn_softmax_args *a,
                    const plan_t *pl, int64_t base, bool f32)
{
    const void *y = a->in0, *dy = a->in1;
    void *dx = a->out;
    const int64_t n = pl->len, s = pl->sr;
    pdnn_ksum k = {0, 0};
    if (p->algo == PDNN_SOFTMAX_LOG) {
        for (int64_t r = 0; r < n; r++) pdnn_ksum_add(&k, ld(dy, f32, base + r * s));
        double sum = pdnn_ksum_get(&k);
        for (int64_t r = 0; r < n; r++) {
            int64_t i = base + r * s;
            put(dx, f32, i, a->alpha, ld(dy, f32, i) - exp(ld(y, f32, i)) * sum, a->beta);
        }
    } else {
        for (int64_t r = 0; r < n; r++) {
            int64_t i = base + r * s;
            pdnn_ksum_add(&k, ld(dy, f32, i) * ld(y, f32, i));
        }
        double sum = pdnn_ksum_get(&k);
        for (int64_t r = 0; r < n; r++) {
            int64_t i = base + r * s;
            put(dx, f32, i, a->alpha, ld(y, f32, i) * (ld(dy, f32, i) - sum), a->beta);
        }
    }
}

/* ------------------------------------------- w <= W unit-stride neighbouring rows */

INLINE void cols_fwd(const pdnn_softmax_problem *p, const pdnn_softmax_args *a,
                     const plan_t *pl, int64_t base, int w, bool f32)
{
    const void *x = a->in0;
    void *y = a->out;
    const int64_t n = pl->len, s = pl->sr;
    double m[W], sum[W];
    pdnn_ksum k[W];
    for (int j = 0; j < w; j++) m[j] = p->algo == PDNN_SOFTMAX_FAST ? 0 : -INFINITY;
    if (p->algo != PDNN_SOFTMAX_FAST)
        for (int64_t r = 0; r < n; r++)
            for (int j = 0; j < w; j++) {
                double v = ld(x, f32, base + r * s + j);
                if (v > m[j]) m[j] = v;
            }
    for (int j = 0; j < w; j++) k[j].s = k[j].c = 0;
    for (int64_t r = 0; r < n; r++)
        for (int j = 0; j < w; j++)
            pdnn_ksum_add(&k[j], exp(ld(x, f32, base + r * s + j) - m[j]));
    for (int j = 0; j < w; j++) sum[j] = pdnn_ksum_get(&k[j]);
    if (p->algo == PDNN_SOFTMAX_LOG) {
        for (int j = 0; j < w; j++) sum[j] = pdnn_ksum_log(&k[j]);
        for (int64_t r = 0; r < n; r++)
            for (int j = 0; j < w; j++) {
                int64_t i = base + r * s + j;
                put(y, f32, i, a->alpha, (ld(x, f32, i) - m[j]) - sum[j], a->beta);
            }
    } else {
        for (int64_t r = 0; r < n; r++)
            for (int j = 0; j < w; j++) {
                int64_t i = base + r * s + j;
                put(y, f32, i, a->alpha, exp(ld(x, f32, i) - m[j]) / sum[j], a->beta);
            }
    }
}

INLINE void cols_bwd(const pdnn_softmax_problem *p, const pdnn_softmax_args *a,
                     const plan_t *pl, int64_t base, int w, bool f32)
{
    const void *y = a->in0, *dy = a->in1;
    void *dx = a->out;
    const int64_t n = pl->len, s = pl->sr;
    const bool lg = p->algo == PDNN_SOFTMAX_LOG;
    double sum[W];
    pdnn_ksum k[W];
    for (int j = 0; j < w; j++) k[j].s = k[j].c = 0;
    for (int64_t r = 0; r < n; r++)
        for (int j = 0; j < w; j++) {
            int64_t i = base + r * s + j;
            double g = ld(dy, f32, i);
            pdnn_ksum_add(&k[j], lg ? g : g * ld(y, f32, i));
        }
    for (int j = 0; j < w; j++) sum[j] = pdnn_ksum_get(&k[j]);
    for (int64_t r = 0; r < n; r++)
        for (int j = 0; j < w; j++) {
            int64_t i = base + r * s + j;
            double yv = ld(y, f32, i), g = ld(dy, f32, i);
            double v = lg ? g - exp(yv) * sum[j] : yv * (g - sum[j]);
            put(dx, f32, i, a->alpha, v, a->beta);
        }
}

static void run_row(const pdnn_softmax_problem *p, const pdnn_softmax_args *a,
                    const plan_t *pl, int64_t base)
{
    bool f32 = p->dtype == PDNN_DATA_FLOAT;
    if (p->bwd) {
        if (f32)
            row_bwd(p, a, pl, base, true);
        else
            row_bwd(p, a, pl, base, false);
    } else {
        if (f32)
            row_fwd(p, a, pl, base, true);
        else
            row_fwd(p, a, pl, base, false);
    }
}

static void run_cols(const pdnn_softmax_problem *p, const pdnn_softmax_args *a,
                     const plan_t *pl, int64_t base, int w)
{
    bool f32 = p->dtype == PDNN_DATA_FLOAT;
    if (p->bwd) {
        if (f32)
            cols_bwd(p, a, pl, base, w, true);
        else
            cols_bwd(p, a, pl, base, w, false);
    } else {
        if (f32)
            cols_fwd(p, a, pl, base, w, true);
        else
            cols_fwd(p, a, pl, base, w, false);
    }
}

static pdnnStatus_t strided_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_softmax_problem *p = prob;
    const pdnn_softmax_args *a = args;
    plan_t pl;
    const char *why;
    if (!make_plan(p, &pl, &why)) return PDNN_STATUS_INTERNAL_ERROR;
    const int64_t nblk = pl.cols ? (pl.nb + W - 1) / W : pl.nb;
    const int64_t units = pl.na * nblk;
    const int nth = pdnn_par_threads(ctx->nthreads, units,
                                     (double)pl.na * (double)pl.nb * (double)pl.len, 4096);

#pragma omp parallel for num_threads(nth) schedule(static)
    for (int64_t u = 0; u < units; u++) {
        int64_t ia = u / nblk, ib = u % nblk;
        if (pl.cols) {
            int64_t b0 = ib * W;
            int w = (int)(pl.nb - b0 < W ? pl.nb - b0 : W);
            run_cols(p, a, &pl, ia * pl.sa + b0, w);
        } else {
            run_row(p, a, &pl, ia * pl.sa + ib * pl.sb);
        }
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_softmax_cpu_strided = {
    .name = "cpu:softmax:strided",
    .algo = -1,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = strided_supports,
    .workspace = NULL,
    .exec = strided_exec,
};
