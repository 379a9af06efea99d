/* Pooling reference: plain loops over any strides, 1-d to 3-d, FLOAT and DOUBLE,
 * every mode, accumulation in double. Forward partitions over y elements; backward is
 * a gather over dx elements (each dx element sums, in a fixed order, the outputs whose
 * windows contain it), except max pooling with non-overlapping windows, which
 * partitions over the windows (each dx element belongs to at most one). */
#include <math.h>

#include "core/dtype.h"
#include "core/registry.h"
#include "ops/pool/pool_impls.h"
#include "ops/pool/pool_problem.h"

typedef pdnn_pool_problem prob_t;

#define SP PDNN_POOL_SP_MAX

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Taps of window o along spatial dim d: real input positions for k in [*lo, *hi);
 * positions inside the padded extent (begin padding .. in + end padding) for k in
 * [0, *inc). */
static void window_taps(const prob_t *p, int d, int64_t o, int64_t *lo, int64_t *hi,
                        int64_t *inc)
{
    int64_t base = o * p->stride[d] - p->pad_b[d], dl = p->dil[d], w = p->win[d];
    int64_t l = base >= 0 ? 0 : ceil_div(-base, dl);
    int64_t h = p->in[d] > base ? ceil_div(p->in[d] - base, dl) : 0;
    int64_t e = p->in[d] + p->pad_e[d] > base ? ceil_div(p->in[d] + p->pad_e[d] - base, dl) : 0;
    if (h > w) h = w;
    if (l > h) l = h;
    if (e > w) e = w;
    *lo = l, *hi = h, *inc = e;
}

/* Averaging divisor of window o: positions inside the padded extent (INCLUDE_PADDING,
 * which is the full window unless ceil mode clips it, PyTorch's rule) or real
 * positions (EXCLUDE_PADDING). */
static int64_t window_count(const prob_t *p, const int64_t *o)
{
    int64_t cnt = 1;
    for (int d = 0; d < SP; d++) {
        int64_t lo, hi, inc;
        window_taps(p, d, o[d], &lo, &hi, &inc);
        cnt *= p->mode == PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING ? inc : hi - lo;
    }
    return cnt;
}

/* Pooled value of window o of the plane at x + xb; *sel gets the selected tap (max:
 * row-major index in the window, -1 when the window has no real position). */
static double window_value(const prob_t *p, const void *x, int64_t xb, const int64_t *o,
                           int64_t *sel)
{
    int64_t lo[SP], hi[SP], inc[SP], base[SP];
    for (int d = 0; d < SP; d++) {
        window_taps(p, d, o[d], &lo[d], &hi[d], &inc[d]);
        base[d] = o[d] * p->stride[d] - p->pad_b[d];
    }
    pdnnDataType_t t = p->dtype;
    bool is_max = pdnn_pool_is_max(p->mode);
    double acc = is_max ? -INFINITY : 0.0;
    int64_t best = -1;
    for (int64_t k0 = lo[0]; k0 < hi[0]; k0++) {
        int64_t o0 = xb + (base[0] + k0 * p->dil[0]) * p->xs[2];
        for (int64_t k1 = lo[1]; k1 < hi[1]; k1++) {
            int64_t o1 = o0 + (base[1] + k1 * p->dil[1]) * p->xs[3];
            for (int64_t k2 = lo[2]; k2 < hi[2]; k2++) {
                double v = pdnn_ld(x, t, o1 + (base[2] + k2 * p->dil[2]) * p->xs[4]);
                if (!is_max) {
                    acc += v;
                } else if (best < 0 || pdnn_pool_takes(v, acc, p->nan_prop)) {
                    acc = v;
                    best = (k0 * p->win[1] + k1) * p->win[2] + k2;
                }
            }
        }
    }
    *sel = best;
    if (is_max) return acc;
    int64_t cnt = window_count(p, o);
    return cnt > 0 ? acc / (double)cnt : 0.0;
}

/* Splits a row-major index over (n, c, s[0], s[1], s[2]) into its coordinates. */
static void decode(int64_t i, const prob_t *p, const int64_t *s, int64_t *nc, int64_t *sp)
{
    for (int d = SP - 1; d >= 0; d--) {
        sp[d] = i % s[d];
        i /= s[d];
    }
    nc[1] = i % p->c;
    nc[0] = i / p->c;
}

static int64_t offset(const int64_t *st, const int64_t *nc, const int64_t *sp)
{
    int64_t off = nc[0] * st[0] + nc[1] * st[1];
    for (int d = 0; d < SP; d++) off += sp[d] * st[2 + d];
    return off;
}

static int64_t count(const prob_t *p, const int64_t *s)
{
    return p->n * p->c * s[0] * s[1] * s[2];
}

static bool ref_supports(const void *prob, const char **why)
{
    const prob_t *p = prob;
    if (p->dtype != PDNN_DATA_FLOAT && p->dtype != PDNN_DATA_DOUBLE) {
        *why = "data type is not FLOAT or DOUBLE";
        return false;
    }
    return true;
}

static pdnnStatus_t ref_fwd(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const prob_t *p = prob;
    const pdnn_pool_args *a = args;
    int64_t total = count(p, p->out);
    const int nt = pdnn_pool_threads(p, total, ctx->nthreads);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t i = 0; i < total; i++) {
        int64_t nc[2], o[SP], sel;
        decode(i, p, p->out, nc, o);
        double v = window_value(p, a->x, nc[0] * p->xs[0] + nc[1] * p->xs[1], o, &sel);
        pdnn_blend(a->dst, p->dtype, offset(p->ys, nc, o), a->alpha, v, a->beta);
    }
    return PDNN_STATUS_SUCCESS;
}

/* Outputs o along dim d whose windows hold position i as a tap: o in [*olo, *ohi],
 * keeping those with (i + pad - o * stride) divisible by the dilation. */
static void candidates(const prob_t *p, int d, int64_t i, int64_t *olo, int64_t *ohi)
{
    int64_t r = i + p->pad_b[d], reach = (p->win[d] - 1) * p->dil[d];
    *olo = r > reach ? ceil_div(r - reach, p->stride[d]) : 0;
    *ohi = r / p->stride[d];
    if (*ohi > p->out[d] - 1) *ohi = p->out[d] - 1;
}

/* Gradient reaching dx element (nc, i): the sum over the windows holding it, in a
 * fixed order. */
static double gather(const prob_t *p, const pdnn_pool_args *a, const int64_t *nc,
                     const int64_t *i)
{
    int64_t lo[SP], hi[SP], o[SP], k[SP];
    for (int d = 0; d < SP; d++) candidates(p, d, i[d], &lo[d], &hi[d]);
    bool is_max = pdnn_pool_is_max(p->mode);
    int64_t xb = nc[0] * p->xs[0] + nc[1] * p->xs[1];
    double g = 0.0;
    for (o[0] = lo[0]; o[0] <= hi[0]; o[0]++) {
        int64_t r0 = i[0] + p->pad_b[0] - o[0] * p->stride[0];
        if (r0 % p->dil[0]) continue;
        k[0] = r0 / p->dil[0];
        for (o[1] = lo[1]; o[1] <= hi[1]; o[1]++) {
            int64_t r1 = i[1] + p->pad_b[1] - o[1] * p->stride[1];
            if (r1 % p->dil[1]) continue;
            k[1] = r1 / p->dil[1];
            for (o[2] = lo[2]; o[2] <= hi[2]; o[2]++) {
                int64_t r2 = i[2] + p->pad_b[2] - o[2] * p->stride[2];
                if (r2 % p->dil[2]) continue;
                k[2] = r2 / p->dil[2];
                double dy = pdnn_ld(a->dy, p->dtype, offset(p->ys, nc, o));
                if (is_max) {
                    int64_t sel;
                    window_value(p, a->x, xb, o, &sel);
                    if (sel == (k[0] * p->win[1] + k[1]) * p->win[2] + k[2]) g += dy;
                } else {
                    g += dy / (double)window_count(p, o);
                }
            }
        }
    }
    return g;
}

/* Max backward when no position is a tap of two windows: each window writes its own
 * taps, then the positions no window holds get the beta part. */
static void max_bwd_disjoint(const prob_t *p, const pdnn_pool_args *a, const pdnn_ctx *ctx)
{
    pdnnDataType_t t = p->dtype;
    int64_t nout = count(p, p->out), nin = count(p, p->in);
    const int nt = pdnn_pool_threads(p, nout > nin ? nout : nin, ctx->nthreads);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t j = 0; j < nout; j++) {
        int64_t nc[2], o[SP], sel, lo[SP], hi[SP], inc[SP], base[SP], i[SP];
        decode(j, p, p->out, nc, o);
        window_value(p, a->x, nc[0] * p->xs[0] + nc[1] * p->xs[1], o, &sel);
        double dy = pdnn_ld(a->dy, t, offset(p->ys, nc, o));
        for (int d = 0; d < SP; d++) {
            window_taps(p, d, o[d], &lo[d], &hi[d], &inc[d]);
            base[d] = o[d] * p->stride[d] - p->pad_b[d];
        }
        for (int64_t k0 = lo[0]; k0 < hi[0]; k0++)
            for (int64_t k1 = lo[1]; k1 < hi[1]; k1++)
                for (int64_t k2 = lo[2]; k2 < hi[2]; k2++) {
                    i[0] = base[0] + k0 * p->dil[0];
                    i[1] = base[1] + k1 * p->dil[1];
                    i[2] = base[2] + k2 * p->dil[2];
                    int64_t tap = (k0 * p->win[1] + k1) * p->win[2] + k2;
                    pdnn_blend(a->dst, t, offset(p->dxs, nc, i), a->alpha,
                               tap == sel ? dy : 0.0, a->beta);
                }
    }
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t j = 0; j < nin; j++) {
        int64_t nc[2], i[SP];
        decode(j, p, p->in, nc, i);
        bool held = true;
        for (int d = 0; d < SP && held; d++) {
            int64_t r = i[d] + p->pad_b[d], o = r / p->stride[d], k = r - o * p->stride[d];
            held = o < p->out[d] && k <= (p->win[d] - 1) * p->dil[d] && k % p->dil[d] == 0;
        }
        if (!held) pdnn_blend(a->dst, t, offset(p->dxs, nc, i), a->alpha, 0.0, a->beta);
    }
}

static pdnnStatus_t ref_bwd(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const prob_t *p = prob;
    const pdnn_pool_args *a = args;
    bool disjoint = true;
    for (int d = 0; d < SP; d++) disjoint &= p->stride[d] > (p->win[d] - 1) * p->dil[d];
    if (pdnn_pool_is_max(p->mode) && disjoint) {
        max_bwd_disjoint(p, a, ctx);
        return PDNN_STATUS_SUCCESS;
    }
    int64_t total = count(p, p->in);
    const int nt = pdnn_pool_threads(p, total, ctx->nthreads);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t j = 0; j < total; j++) {
        int64_t nc[2], i[SP];
        decode(j, p, p->in, nc, i);
        double g = gather(p, a, nc, i);
        pdnn_blend(a->dst, p->dtype, offset(p->dxs, nc, i), a->alpha, g, a->beta);
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_pool_fwd_ref = {
    .name = "ref:pool_fwd",
    .algo = -1,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = ref_supports,
    .workspace = NULL,
    .exec = ref_fwd,
};

const pdnn_impl pdnn_pool_bwd_ref = {
    .name = "ref:pool_bwd",
    .algo = -1,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = ref_supports,
    .workspace = NULL,
    .exec = ref_bwd,
};
