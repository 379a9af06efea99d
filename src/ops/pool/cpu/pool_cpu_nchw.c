/* 2-d pooling on packed NCHW FLOAT tensors with undilated windows (plain C loops the
 * compiler vectorizes; no intrinsics).
 *
 * Forward: one task per output row. The windows that lie wholly inside the row's
 * columns are computed a chunk of outputs at a time, tap by tap (row-major window
 * order), so that the inner loop runs over outputs; windows clipped by the padding take
 * a per-window loop.
 * Backward: one task per dx row (partition over dx elements). A chunk of the row
 * accumulates in double, in the reference's order (output rows ascending, then output
 * columns), the gradients of the windows that hold it: for max the window's selected
 * element is recomputed from x, for average the share dy / count.
 *
 * Arithmetic matches the reference bit for bit: values compared in float (exact),
 * sums in double in the same order, blending in double. */
#include <math.h>

#include "core/registry.h"
#include "ops/pool/pool_impls.h"
#include "ops/pool/cpu/pool_cpu_common.h"
#include "ops/pool/pool_problem.h"

typedef pdnn_pool_problem prob_t;

#define CHUNK 256 /* outputs (forward) or dx columns (backward) per inner pass */

static bool supports(const void *prob, const char **why)
{
    const prob_t *p = prob;
    if (p->dtype != PDNN_DATA_FLOAT) {
        *why = "data type is not FLOAT";
        return false;
    }
    if (p->nsp != 2) {
        *why = "not 2-d pooling";
        return false;
    }
    if (p->dil[1] != 1 || p->dil[2] != 1) {
        *why = "dilated window";
        return false;
    }
    const int64_t *dst = p->dir == PDNN_POOL_FWD ? p->ys : p->dxs;
    const int64_t *dsz = p->dir == PDNN_POOL_FWD ? p->out : p->in;
    if (!pool_packed_nchw(p->xs, p->n, p->c, p->in[1], p->in[2]) ||
        !pool_packed_nchw(dst, p->n, p->c, dsz[1], dsz[2]) ||
        (p->dir == PDNN_POOL_BWD &&
         !pool_packed_nchw(p->ys, p->n, p->c, p->out[1], p->out[2]))) {
        *why = "a tensor is not packed NCHW";
        return false;
    }
    return true;
}

/* Window extent along one dim: real positions [*lo, *hi) and the count of positions
 * inside the padded extent *inc. */
static void extent(int64_t o, int64_t s, int64_t pb, int64_t pe, int64_t k, int64_t in,
                   int64_t *lo, int64_t *hi, int64_t *inc)
{
    int64_t b = o * s - pb, e = b + k, pad_end = in + pe;
    *lo = b > 0 ? b : 0;
    *hi = e < in ? e : in;
    *inc = (e < pad_end ? e : pad_end) - b;
}

/* One window tap for n windows: m[j] = selection after visiting r[j * S]. */
#define MAX_STEP(TAKE, S)                                                              \
    for (int64_t j = 0; j < n; j++) {                                                  \
        float v_ = r[j * (S)];                                                         \
        m[j] = TAKE(v_, m[j]) ? v_ : m[j];                                             \
    }

static void max_step(float *m, const float *r, int64_t n, int64_t sw, bool nan_prop)
{
    if (nan_prop) {
        if (sw == 1)
            MAX_STEP(POOL_TAKE_P, 1)
        else if (sw == 2)
            MAX_STEP(POOL_TAKE_P, 2)
        else
            MAX_STEP(POOL_TAKE_P, sw)
    } else {
        if (sw == 1)
            MAX_STEP(POOL_TAKE_N, 1)
        else if (sw == 2)
            MAX_STEP(POOL_TAKE_N, 2)
        else
            MAX_STEP(POOL_TAKE_N, sw)
    }
}

/* As max_step, also recording the selected tap's row h and column offset k. */
#define ARG_STEP(TAKE, S)                                                              \
    for (int64_t j = 0; j < n; j++) {                                                  \
        float v_ = r[j * (S)];                                                         \
        bool t_ = TAKE(v_, m[j]);                                                      \
        int32_t k_ = -(int32_t)t_; /* all ones when taken */                           \
        m[j] = t_ ? v_ : m[j];                                                         \
        sr[j] = (sr[j] & ~k_) | (h & k_);                                              \
        sc[j] = (sc[j] & ~k_) | (k & k_);                                              \
    }

static void arg_step(float *m, int32_t *sr, int32_t *sc, const float *r, int64_t n,
                     int64_t sw, int32_t h, int32_t k, bool nan_prop)
{
    if (nan_prop) {
        if (sw == 1)
            ARG_STEP(POOL_TAKE_P, 1)
        else if (sw == 2)
            ARG_STEP(POOL_TAKE_P, 2)
        else
            ARG_STEP(POOL_TAKE_P, sw)
    } else {
        if (sw == 1)
            ARG_STEP(POOL_TAKE_N, 1)
        else if (sw == 2)
            ARG_STEP(POOL_TAKE_N, 2)
        else
            ARG_STEP(POOL_TAKE_N, sw)
    }
}

/* One window tap for n averages: s[j] += r[j * sw]. */
static void sum_step(double *sum, const float *r, int64_t n, int64_t sw)
{
    if (sw == 1)
        for (int64_t j = 0; j < n; j++) sum[j] += (double)r[j];
    else if (sw == 2)
        for (int64_t j = 0; j < n; j++) sum[j] += (double)r[2 * j];
    else
        for (int64_t j = 0; j < n; j++) sum[j] += (double)r[j * sw];
}

/* Selected (max) element of the window rows [hlo, hhi) x cols [wlo, whi) of plane x
 * (row length W), visited in row-major order; *pos gets its plane offset (-1 when the
 * window is empty). */
static float window_max(const float *x, int64_t W, int64_t hlo, int64_t hhi, int64_t wlo,
                        int64_t whi, bool nan_prop, int64_t *pos)
{
    if (hlo >= hhi || wlo >= whi) {
        *pos = -1;
        return -INFINITY;
    }
    float m = x[hlo * W + wlo];
    int64_t best = hlo * W + wlo;
    for (int64_t h = hlo; h < hhi; h++)
        for (int64_t w = wlo; w < whi; w++)
            if (pdnn_pool_takes_f32(x[h * W + w], m, nan_prop)) {
                m = x[h * W + w];
                best = h * W + w;
            }
    *pos = best;
    return m;
}

/* Output columns whose windows lie wholly inside [0, W): [*a, *b). */
static void interior(int64_t OW, int64_t W, int64_t k, int64_t s, int64_t pb, int64_t *a,
                     int64_t *b)
{
    int64_t lo = (pb + s - 1) / s, hi = W + pb >= k ? (W + pb - k) / s + 1 : 0;
    if (hi > OW) hi = OW;
    if (lo > hi) lo = hi;
    *a = lo, *b = hi;
}

static pdnnStatus_t fwd_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const prob_t *p = prob;
    const pdnn_pool_args *a = args;
    const float *x = a->x;
    float *y = a->dst;
    const int64_t H = p->in[1], W = p->in[2], OH = p->out[1], OW = p->out[2];
    const int64_t kh = p->win[1], kw = p->win[2], sh = p->stride[1], sw = p->stride[2];
    const int64_t ph = p->pad_b[1], pw = p->pad_b[2];
    const bool is_max = pdnn_pool_is_max(p->mode), nan_prop = p->nan_prop;
    const bool include = p->mode == PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING;
    const double alpha = a->alpha, beta = a->beta;
    const int64_t tasks = p->n * p->c * OH;
    const int nt = pdnn_pool_threads(p, tasks, ctx->nthreads);
    int64_t owa, owb;
    interior(OW, W, kw, sw, pw, &owa, &owb);

#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t t = 0; t < tasks; t++) {
        int64_t plane = t / OH, oh = t % OH;
        const float *xp = x + plane * H * W;
        float *yr = y + plane * OH * OW + oh * OW;
        int64_t hlo, hhi, hinc;
        extent(oh, sh, ph, p->pad_e[1], kh, H, &hlo, &hhi, &hinc);
        /* interior windows, CHUNK outputs at a time, tap by tap */
        for (int64_t o0 = owa; o0 < owb; o0 += CHUNK) {
            int64_t n = owb - o0 < CHUNK ? owb - o0 : CHUNK;
            const float *base = xp + o0 * sw - pw;
            double v[CHUNK];
            if (is_max) {
                float m[CHUNK];
                for (int64_t j = 0; j < n; j++) m[j] = base[hlo * W + j * sw];
                for (int64_t h = hlo; h < hhi; h++)
                    for (int64_t k = 0; k < kw; k++)
                        max_step(m, base + h * W + k, n, sw, nan_prop);
                for (int64_t j = 0; j < n; j++) v[j] = (double)m[j];
            } else {
                for (int64_t j = 0; j < n; j++) v[j] = 0.0;
                for (int64_t h = hlo; h < hhi; h++)
                    for (int64_t k = 0; k < kw; k++) sum_step(v, base + h * W + k, n, sw);
                int64_t cnt = include ? hinc * kw : (hhi - hlo) * kw;
                double dc = (double)cnt;
                for (int64_t j = 0; j < n; j++) v[j] = cnt > 0 ? v[j] / dc : 0.0;
            }
            pool_store_f32(yr + o0, v, n, alpha, beta);
        }
        /* windows clipped by the padding (and everything when none is interior) */
        for (int64_t ow = 0; ow < OW; ow++) {
            if (ow == owa && owb > owa) ow = owb;
            if (ow >= OW) break;
            int64_t wlo, whi, winc, pos;
            extent(ow, sw, pw, p->pad_e[2], kw, W, &wlo, &whi, &winc);
            double v;
            if (is_max) {
                v = window_max(xp, W, hlo, hhi, wlo, whi, nan_prop, &pos);
            } else {
                double s = 0.0;
                for (int64_t h = hlo; h < hhi; h++)
                    for (int64_t w = wlo; w < whi; w++) s += xp[h * W + w];
                int64_t cnt = include ? hinc * winc : (hhi - hlo) * (whi - wlo);
                v = cnt > 0 ? s / (double)cnt : 0.0;
            }
            yr[ow] = pool_blend_f32(alpha, v, beta, &yr[ow]);
        }
    }
    return PDNN_STATUS_SUCCESS;
}

/* Selected elements of the windows (rows [hlo, hhi)) of output columns s0 .. s0+n-1:
 * hc[j] = the selected column when it lies in row r, else -1. Windows wholly inside
 * the columns are searched together, tap by tap, without branches. */
static void selections(const float *xp, int64_t W, int64_t hlo, int64_t hhi, int64_t kw,
                       int64_t sw, int64_t pw, int64_t pe, int64_t owa, int64_t owb,
                       int64_t s0, int64_t n, bool nan_prop, int64_t r, int32_t *hc)
{
    int32_t srow[CHUNK], scol[CHUNK];
    int64_t ja = owa - s0 > 0 ? owa - s0 : 0, jb = owb - s0 < n ? owb - s0 : n;
    if (jb < ja) jb = ja;
    if (jb > ja) {
        float m[CHUNK];
        const float *base = xp + (s0 + ja) * sw - pw;
        int64_t len = jb - ja;
        for (int64_t j = 0; j < len; j++) {
            m[j] = base[hlo * W + j * sw];
            srow[ja + j] = (int32_t)hlo;
            scol[ja + j] = 0;
        }
        for (int64_t h = hlo; h < hhi; h++)
            for (int64_t k = 0; k < kw; k++)
                arg_step(m, srow + ja, scol + ja, base + h * W + k, len, sw, (int32_t)h,
                         (int32_t)k, nan_prop);
        for (int64_t j = ja; j < jb; j++) scol[j] += (int32_t)((s0 + j) * sw - pw);
    }
    for (int64_t j = 0; j < n; j++) {
        if (j == ja && jb > ja) j = jb;
        if (j >= n) break;
        int64_t wlo, whi, winc, pos;
        extent(s0 + j, sw, pw, pe, kw, W, &wlo, &whi, &winc);
        window_max(xp, W, hlo, hhi, wlo, whi, nan_prop, &pos);
        srow[j] = pos < 0 ? -1 : (int32_t)(pos / W);
        scol[j] = pos < 0 ? -1 : (int32_t)(pos % W);
    }
    for (int64_t j = 0; j < n; j++) hc[j] = scol[j] | -(int32_t)(srow[j] != r); /* or -1 */
}

static pdnnStatus_t bwd_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const prob_t *p = prob;
    const pdnn_pool_args *a = args;
    const float *x = a->x, *dy = a->dy;
    float *dx = a->dst;
    const int64_t H = p->in[1], W = p->in[2], OH = p->out[1], OW = p->out[2];
    const int64_t kh = p->win[1], kw = p->win[2], sh = p->stride[1], sw = p->stride[2];
    const int64_t ph = p->pad_b[1], pw = p->pad_b[2], pe = p->pad_e[2];
    const bool is_max = pdnn_pool_is_max(p->mode), nan_prop = p->nan_prop;
    const bool include = p->mode == PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING;
    const double alpha = a->alpha, beta = a->beta;
    const int64_t tasks = p->n * p->c * H;
    const int nt = pdnn_pool_threads(p, tasks, ctx->nthreads);
    int64_t owa, owb;
    interior(OW, W, kw, sw, pw, &owa, &owb);

#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t t = 0; t < tasks; t++) {
        int64_t plane = t / H, r = t % H;
        const float *xp = x + plane * H * W, *dyp = dy + plane * OH * OW;
        float *dxr = dx + plane * H * W + r * W;
        /* output rows whose windows hold row r */
        int64_t oh_lo = r + ph >= kh ? (r + ph - kh + sh) / sh : 0, oh_hi = (r + ph) / sh;
        if (oh_hi > OH - 1) oh_hi = OH - 1;
        double acc[CHUNK], g[CHUNK];
        int32_t hc[CHUNK];
        for (int64_t c0 = 0; c0 < W; c0 += CHUNK) {
            int64_t n = W - c0 < CHUNK ? W - c0 : CHUNK, c1 = c0 + n;
            for (int64_t j = 0; j < n; j++) acc[j] = 0.0;
            /* output columns whose windows meet columns [c0, c1) */
            int64_t ow_lo = c0 + pw >= kw ? (c0 + pw - kw + sw) / sw : 0;
            int64_t ow_hi = (c1 - 1 + pw) / sw;
            if (ow_hi > OW - 1) ow_hi = OW - 1;
            for (int64_t oh = oh_lo; oh <= oh_hi; oh++) {
                int64_t hlo, hhi, hinc;
                extent(oh, sh, ph, p->pad_e[1], kh, H, &hlo, &hhi, &hinc);
                const float *dyr = dyp + oh * OW;
                for (int64_t s0 = ow_lo; s0 <= ow_hi; s0 += CHUNK) {
                    int64_t m = ow_hi + 1 - s0 < CHUNK ? ow_hi + 1 - s0 : CHUNK;
                    /* the gradient each window passes on */
                    if (is_max) {
                        selections(xp, W, hlo, hhi, kw, sw, pw, pe, owa, owb, s0, m, nan_prop,
                                   r, hc);
                        for (int64_t j = 0; j < m; j++) g[j] = (double)dyr[s0 + j];
                    } else {
                        for (int64_t j = 0; j < m; j++) {
                            int64_t wlo, whi, winc;
                            extent(s0 + j, sw, pw, pe, kw, W, &wlo, &whi, &winc);
                            int64_t cnt = include ? hinc * winc : (hhi - hlo) * (whi - wlo);
                            g[j] = cnt > 0 ? (double)dyr[s0 + j] / (double)cnt : 0.0;
                        }
                    }
                    if (is_max) {
                        /* only the selected column of each window receives its gradient
                         * (the others would add +0.0, a no-op: acc starts at +0.0 and so
                         * never holds -0.0); windows in ascending order */
                        for (int64_t j = 0; j < m; j++)
                            if (hc[j] >= c0 && hc[j] < c1) acc[hc[j] - c0] += g[j];
                    } else if (kw <= CHUNK) {
                        /* tap k of window s0 + j is column (s0 + j) * sw - pw + k; going
                         * through the taps last to first, every column receives its
                         * windows in ascending order, as the reference sums them */
                        for (int64_t k = kw - 1; k >= 0; k--) {
                            int64_t lo = c0 + pw - k, hi = c1 - 1 + pw - k; /* (s0+j)*sw */
                            if (hi < 0) continue;
                            int64_t jlo = (lo > 0 ? (lo + sw - 1) / sw : 0) - s0;
                            int64_t jhi = hi / sw - s0 + 1;
                            if (jlo < 0) jlo = 0;
                            if (jhi > m) jhi = m;
                            double *ap = acc + (s0 * sw - pw + k - c0);
                            for (int64_t j = jlo; j < jhi; j++) ap[j * sw] += g[j];
                        }
                    } else {
                        /* wide windows: each window adds to the columns of [c0, c1) it
                         * covers, computed arithmetically (never a walk over the taps in
                         * the padding); windows in ascending order, as above */
                        for (int64_t j = 0; j < m; j++) {
                            int64_t b = (s0 + j) * sw - pw, e = b + kw;
                            int64_t lo = b > c0 ? b : c0, hi = e < c1 ? e : c1;
                            for (int64_t col = lo; col < hi; col++) acc[col - c0] += g[j];
                        }
                    }
                }
            }
            pool_store_f32(dxr + c0, acc, n, alpha, beta);
        }
    }
    return PDNN_STATUS_SUCCESS;
}

POOL_CPU_ENTRY(pdnn_pool_fwd_cpu_nchw_f32, "cpu:pool_nchw_f32", supports, fwd_exec);
POOL_CPU_ENTRY(pdnn_pool_bwd_cpu_nchw_f32, "cpu:pool_nchw_f32", supports, bwd_exec);
