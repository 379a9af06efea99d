/* Pooling on FLOAT tensors whose channels are contiguous (stride 1: NHWC, NDHWC, NWC,
 * any other strides), 1-d to 3-d, any window, stride, padding, dilation and ceil mode.
 * Every loop runs over a chunk of channels (plain C the compiler vectorizes).
 *
 * Forward: one task per output pixel. Backward: one task per dx pixel, a gather over
 * the windows that hold it in the reference's order; for max each such window's
 * selection is recomputed per channel from x.
 *
 * Arithmetic matches the reference bit for bit: values compared in float (exact),
 * sums in double in the same order, blending in double. */
#include <math.h>

#include "core/registry.h"
#include "ops/pool/cpu/pool_cpu_common.h"
#include "ops/pool/pool_impls.h"
#include "ops/pool/pool_problem.h"

typedef pdnn_pool_problem prob_t;

#define SP PDNN_POOL_SP_MAX
#define CCH 256 /* channels per inner pass */

static bool supports(const void *prob, const char **why)
{
    const prob_t *p = prob;
    if (p->dtype != PDNN_DATA_FLOAT) {
        *why = "data type is not FLOAT";
        return false;
    }
    bool bwd = p->dir == PDNN_POOL_BWD;
    if (p->c > 1 && (p->xs[1] != 1 || p->ys[1] != 1 || (bwd && p->dxs[1] != 1))) {
        *why = "channels are not contiguous";
        return false;
    }
    if ((double)p->win[0] * (double)p->win[1] * (double)p->win[2] > 2147483647.0) {
        *why = "window of more than 2^31 positions";
        return false;
    }
    return true;
}

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Real taps of window o along dim d: k in [*lo, *hi); taps inside the padded extent:
 * k in [0, *inc). */
static void taps(const prob_t *p, int d, int64_t o, int64_t *lo, int64_t *hi, int64_t *inc)
{
    int64_t base = o * p->stride[d] - p->pad_b[d], dl = p->dil[d], w = p->win[d];
    int64_t l = base >= 0 ? 0 : ceil_div(-base, dl);
    int64_t h = p->in[d] > base ? ceil_div(p->in[d] - base, dl) : 0;
    int64_t e = p->in[d] + p->pad_e[d] > base ? ceil_div(p->in[d] + p->pad_e[d] - base, dl) : 0;
    *hi = h > w ? w : h;
    *lo = l > *hi ? *hi : l;
    *inc = e > w ? w : e;
}

/* Averaging divisor from the tap ranges of the window in each dim. */
static int64_t divisor(const prob_t *p, const int64_t *lo, const int64_t *hi,
                       const int64_t *inc)
{
    int64_t cnt = 1;
    for (int d = 0; d < SP; d++)
        cnt *= p->mode == PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING ? inc[d] : hi[d] - lo[d];
    return cnt;
}

static void decode(int64_t i, const int64_t *s, int64_t *n, int64_t *sp)
{
    for (int d = SP - 1; d >= 0; d--) {
        sp[d] = i % s[d];
        i /= s[d];
    }
    *n = i;
}

/* Window of output o (pixel), channels [c0, c0 + nc): the max of each channel in m and
 * the selected tap's row-major index in sel (sel may be NULL); the sum in s for average
 * modes. Returns the averaging divisor (0 for max). */
static int64_t window(const prob_t *p, const float *x, int64_t xb, const int64_t *o,
                      int64_t nc, float *m, int32_t *sel, double *s)
{
    int64_t lo[SP], hi[SP], inc[SP], base[SP];
    for (int d = 0; d < SP; d++) {
        taps(p, d, o[d], &lo[d], &hi[d], &inc[d]);
        base[d] = o[d] * p->stride[d] - p->pad_b[d];
    }
    bool is_max = pdnn_pool_is_max(p->mode), prop = p->nan_prop;
    bool empty = lo[0] >= hi[0] || lo[1] >= hi[1] || lo[2] >= hi[2];
    if (is_max) {
        if (empty) {
            for (int64_t c = 0; c < nc; c++) m[c] = -INFINITY;
            if (sel)
                for (int64_t c = 0; c < nc; c++) sel[c] = -1;
            return 0;
        }
        const float *f = x + xb + (base[0] + lo[0] * p->dil[0]) * p->xs[2] +
                         (base[1] + lo[1] * p->dil[1]) * p->xs[3] +
                         (base[2] + lo[2] * p->dil[2]) * p->xs[4];
        int32_t t0 = (int32_t)((lo[0] * p->win[1] + lo[1]) * p->win[2] + lo[2]);
        for (int64_t c = 0; c < nc; c++) m[c] = f[c];
        if (sel)
            for (int64_t c = 0; c < nc; c++) sel[c] = t0;
    } else {
        for (int64_t c = 0; c < nc; c++) s[c] = 0.0;
    }
    for (int64_t k0 = lo[0]; k0 < hi[0]; k0++) {
        const float *r0 = x + xb + (base[0] + k0 * p->dil[0]) * p->xs[2];
        for (int64_t k1 = lo[1]; k1 < hi[1]; k1++) {
            const float *r1 = r0 + (base[1] + k1 * p->dil[1]) * p->xs[3];
            for (int64_t k2 = lo[2]; k2 < hi[2]; k2++) {
                const float *v = r1 + (base[2] + k2 * p->dil[2]) * p->xs[4];
                int32_t t = (int32_t)((k0 * p->win[1] + k1) * p->win[2] + k2);
#define ARG_STEP(TAKE)                                                                 \
    for (int64_t c = 0; c < nc; c++) {                                                 \
        bool tk = TAKE(v[c], m[c]);                                                    \
        int32_t mk = -(int32_t)tk; /* all ones when taken */                           \
        m[c] = tk ? v[c] : m[c];                                                       \
        sel[c] = (sel[c] & ~mk) | (t & mk);                                            \
    }
                if (!is_max) {
                    for (int64_t c = 0; c < nc; c++) s[c] += (double)v[c];
                } else if (sel) {
                    if (prop)
                        ARG_STEP(POOL_TAKE_P)
                    else
                        ARG_STEP(POOL_TAKE_N)
                } else if (prop) {
                    for (int64_t c = 0; c < nc; c++)
                        m[c] = POOL_TAKE_P(v[c], m[c]) ? v[c] : m[c];
                } else {
                    for (int64_t c = 0; c < nc; c++)
                        m[c] = POOL_TAKE_N(v[c], m[c]) ? v[c] : m[c];
                }
            }
        }
    }
#undef ARG_STEP
    return is_max ? 0 : divisor(p, lo, hi, inc);
}

static pdnnStatus_t fwd_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const prob_t *p = prob;
    const pdnn_pool_args *a = args;
    const float *x = a->x;
    float *y = a->dst;
    const bool is_max = pdnn_pool_is_max(p->mode);
    const int64_t pixels = p->n * p->out[0] * p->out[1] * p->out[2];
    const int nt = pdnn_pool_threads(p, pixels, ctx->nthreads);

#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t t = 0; t < pixels; t++) {
        int64_t n, o[SP];
        decode(t, p->out, &n, o);
        float *yp = y + n * p->ys[0] + o[0] * p->ys[2] + o[1] * p->ys[3] + o[2] * p->ys[4];
        for (int64_t c0 = 0; c0 < p->c; c0 += CCH) {
            int64_t nc = p->c - c0 < CCH ? p->c - c0 : CCH;
            float m[CCH];
            double v[CCH];
            int64_t cnt = window(p, x, n * p->xs[0] + c0, o, nc, m, NULL, v);
            if (is_max)
                for (int64_t c = 0; c < nc; c++) v[c] = (double)m[c];
            else
                for (int64_t c = 0; c < nc; c++) v[c] = cnt > 0 ? v[c] / (double)cnt : 0.0;
            pool_store_f32(yp + c0, v, nc, a->alpha, a->beta);
        }
    }
    return PDNN_STATUS_SUCCESS;
}

/* Outputs along dim d whose windows hold position i: [*olo, *ohi] (those with
 * (i + pad - o * stride) divisible by the dilation). */
static void candidates(const prob_t *p, int d, int64_t i, int64_t *olo, int64_t *ohi)
{
    int64_t r = i + p->pad_b[d], reach = (p->win[d] - 1) * p->dil[d];
    *olo = r > reach ? ceil_div(r - reach, p->stride[d]) : 0;
    *ohi = r / p->stride[d];
    if (*ohi > p->out[d] - 1) *ohi = p->out[d] - 1;
}

static pdnnStatus_t bwd_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const prob_t *p = prob;
    const pdnn_pool_args *a = args;
    const float *x = a->x, *dy = a->dy;
    float *dx = a->dst;
    const bool is_max = pdnn_pool_is_max(p->mode);
    const int64_t pixels = p->n * p->in[0] * p->in[1] * p->in[2];
    const int nt = pdnn_pool_threads(p, pixels, ctx->nthreads);

#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t t = 0; t < pixels; t++) {
        int64_t n, i[SP], lo[SP], hi[SP], o[SP], k[SP];
        decode(t, p->in, &n, i);
        for (int d = 0; d < SP; d++) candidates(p, d, i[d], &lo[d], &hi[d]);
        float *dxp = dx + n * p->dxs[0] + i[0] * p->dxs[2] + i[1] * p->dxs[3] + i[2] * p->dxs[4];
        for (int64_t c0 = 0; c0 < p->c; c0 += CCH) {
            int64_t nc = p->c - c0 < CCH ? p->c - c0 : CCH;
            double acc[CCH];
            float m[CCH];
            int32_t sel[CCH];
            for (int64_t c = 0; c < nc; c++) acc[c] = 0.0;
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
                        const float *g = dy + n * p->ys[0] + o[0] * p->ys[2] +
                                         o[1] * p->ys[3] + o[2] * p->ys[4] + c0;
                        if (is_max) {
                            window(p, x, n * p->xs[0] + c0, o, nc, m, sel, NULL);
                            int32_t me = (int32_t)((k[0] * p->win[1] + k[1]) * p->win[2] + k[2]);
                            for (int64_t c = 0; c < nc; c++)
                                acc[c] += pool_keep_if((double)g[c], sel[c] == me);
                        } else {
                            int64_t wl[SP], wh[SP], wi[SP];
                            for (int d = 0; d < SP; d++) taps(p, d, o[d], &wl[d], &wh[d], &wi[d]);
                            int64_t cnt = divisor(p, wl, wh, wi);
                            for (int64_t c = 0; c < nc; c++)
                                acc[c] += cnt > 0 ? (double)g[c] / (double)cnt : 0.0;
                        }
                    }
                }
            }
            pool_store_f32(dxp + c0, acc, nc, a->alpha, a->beta);
        }
    }
    return PDNN_STATUS_SUCCESS;
}

POOL_CPU_ENTRY(pdnn_pool_fwd_cpu_cinner_f32, "cpu:pool_cinner_f32", supports, fwd_exec);
POOL_CPU_ENTRY(pdnn_pool_bwd_cpu_cinner_f32, "cpu:pool_cinner_f32", supports, bwd_exec);
