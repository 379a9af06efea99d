/* 2x2 windows with stride 2 on packed NCHW FLOAT tensors, no begin padding and no
 * partial window (2 OH <= H, 2 OW <= W): the pooling of LeNet-style networks. Every
 * input element lies in at most one window, so each output row pair is one flat loop
 * the compiler vectorizes (plain C, no intrinsics), forward and backward, instead of
 * the general NCHW path's per-row window search.
 *
 * Arithmetic is the reference's, bit for bit: the max selection visits the taps in
 * window order (row-major) with the same NaN rule (SEL_P, SEL_N), the average sums in
 * double in that order and divides by 4; the backward value of an element is
 * 0.0 + its window's gradient (double), or 0.0 when its window passes it nothing;
 * blending alpha * v + beta * out in double, out never read when beta == 0. With
 * alpha 1 and beta 0 the loops stay in float, where these operations give the same
 * bits (max: the selected value itself; backward: dy + 0.0f turns -0 into +0 as
 * 0.0 + dy does). Rows and columns beyond the last window get a zero gradient. */
#include "core/registry.h"
#include "ops/pool/cpu/pool_cpu_common.h"
#include "ops/pool/pool_impls.h"
#include "ops/pool/pool_problem.h"

typedef pdnn_pool_problem prob_t;

static bool supports(const void *prob, const char **why)
{
    const prob_t *p = prob;
    if (p->dtype != PDNN_DATA_FLOAT || p->nsp != 2) {
        *why = "not 2-d FLOAT";
        return false;
    }
    if (p->win[1] != 2 || p->win[2] != 2 || p->stride[1] != 2 || p->stride[2] != 2 ||
        p->dil[1] != 1 || p->dil[2] != 1 || p->pad_b[1] != 0 || p->pad_b[2] != 0) {
        *why = "not a 2x2 window, stride 2, undilated, without begin padding";
        return false;
    }
    if (2 * p->out[1] > p->in[1] || 2 * p->out[2] > p->in[2]) {
        *why = "a window is partial (ceil mode or end padding)";
        return false;
    }
    const bool fwd = p->dir == PDNN_POOL_FWD;
    const int64_t *dst = fwd ? p->ys : p->dxs;
    const int64_t *dsz = fwd ? p->out : p->in;
    if (!pool_packed_nchw(p->xs, p->n, p->c, p->in[1], p->in[2]) ||
        !pool_packed_nchw(dst, p->n, p->c, dsz[1], dsz[2]) ||
        (!fwd && !pool_packed_nchw(p->ys, p->n, p->c, p->out[1], p->out[2]))) {
        *why = "a tensor is not packed NCHW";
        return false;
    }
    return true;
}

/* pdnn_pool_takes_f32 (v replaces the selection m) for PROPAGATE (P: m is not NaN and v
 * is NaN or above it) and NOT_PROPAGATE (N: v is not NaN and m is NaN or below it),
 * written with && and !(v <= m) so that gcc if-converts the selects below into vector
 * blends (the bitwise forms of pool_cpu_common.h do not vectorize in these loops). */
#define SEL_P(v, m) ((m) == (m) && !((v) <= (m)))
#define SEL_N(v, m) ((v) == (v) && !((v) <= (m)))

/* Selection of the window (a, b / c, d): index 0..3 of the selected tap and its value,
 * the taps visited in window order as the reference does (the first tap is the start,
 * it cannot replace itself). TAKE is SEL_P or SEL_N. */
#define SELECT4(TAKE, a, b, c, d, m, s)                                                \
    do {                                                                               \
        m = (a), s = 0;                                                                \
        if (TAKE((b), m)) m = (b), s = 1;                                              \
        if (TAKE((c), m)) m = (c), s = 2;                                              \
        if (TAKE((d), m)) m = (d), s = 3;                                              \
    } while (0)

/* One output row: y[j] from x rows r0, r1. */
static void fwd_row(const float *r0, const float *r1, float *y, int64_t ow, int mode,
                    double alpha, double beta)
{
    const bool plain = alpha == 1.0 && beta == 0.0;
    if (mode == 2) { /* average: count 4 (no window meets the padding) */
        for (int64_t j = 0; j < ow; j++) {
            double s = 0.0 + (double)r0[2 * j];
            s += (double)r0[2 * j + 1];
            s += (double)r1[2 * j];
            s += (double)r1[2 * j + 1];
            y[j] = pool_blend_f32(alpha, s / 4.0, beta, &y[j]);
        }
        return;
    }
#define FWD_MAX(TAKE)                                                                  \
    do {                                                                               \
        if (plain)                                                                     \
            for (int64_t j = 0; j < ow; j++) {                                         \
                float m = r0[2 * j], b = r0[2 * j + 1], c = r1[2 * j], d = r1[2 * j + 1]; \
                m = TAKE(b, m) ? b : m;                                                \
                m = TAKE(c, m) ? c : m;                                                \
                m = TAKE(d, m) ? d : m;                                                \
                y[j] = m;                                                              \
            }                                                                          \
        else                                                                           \
            for (int64_t j = 0; j < ow; j++) {                                         \
                float m;                                                               \
                int s;                                                                 \
                SELECT4(TAKE, r0[2 * j], r0[2 * j + 1], r1[2 * j], r1[2 * j + 1], m, s); \
                (void)s;                                                               \
                y[j] = pool_blend_f32(alpha, (double)m, beta, &y[j]);                  \
            }                                                                          \
    } while (0)
    if (mode == 1)
        FWD_MAX(SEL_P);
    else
        FWD_MAX(SEL_N);
#undef FWD_MAX
}

/* mode: 0 max without NaN propagation, 1 max propagating NaN, 2 average. */
static int mode_of(const prob_t *p)
{
    if (!pdnn_pool_is_max(p->mode)) return 2;
    return p->nan_prop ? 1 : 0;
}

/* out[0 .. n) = alpha * 0.0 + beta * out: the gradient of elements no window holds. */
static void zero_fill(float *out, int64_t n, double alpha, double beta)
{
    for (int64_t j = 0; j < n; j++) out[j] = pool_blend_f32(alpha, 0.0, beta, &out[j]);
}

static pdnnStatus_t fwd_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const prob_t *p = prob;
    const pdnn_pool_args *a = args;
    const float *x = a->x;
    float *y = a->dst;
    const int64_t H = p->in[1], W = p->in[2], OH = p->out[1], OW = p->out[2];
    const int64_t tasks = p->n * p->c * OH;
    const int nt = pdnn_pool_threads(p, tasks, ctx->nthreads), mode = mode_of(p);
    const double alpha = a->alpha, beta = a->beta;

#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t t = 0; t < tasks; t++) {
        const int64_t plane = t / OH, oh = t % OH;
        const float *r0 = x + plane * H * W + 2 * oh * W;
        fwd_row(r0, r0 + W, y + t * OW, OW, mode, alpha, beta);
    }
    return PDNN_STATUS_SUCCESS;
}

/* One output row's windows: dx rows d0, d1 (columns [0, 2 OW)) from dy row g. */
static void bwd_row(const float *r0, const float *r1, const float *g, float *d0, float *d1,
                    int64_t ow, int mode, double alpha, double beta)
{
    if (mode == 2) {
        for (int64_t j = 0; j < ow; j++) {
            double v = 0.0 + (double)g[j] / 4.0;
            d0[2 * j] = pool_blend_f32(alpha, v, beta, &d0[2 * j]);
            d0[2 * j + 1] = pool_blend_f32(alpha, v, beta, &d0[2 * j + 1]);
            d1[2 * j] = pool_blend_f32(alpha, v, beta, &d1[2 * j]);
            d1[2 * j + 1] = pool_blend_f32(alpha, v, beta, &d1[2 * j + 1]);
        }
        return;
    }
    const bool plain = alpha == 1.0 && beta == 0.0;
#define BWD_MAX(TAKE)                                                                  \
    do {                                                                               \
        if (plain) /* e_k: the gradient of tap k, v at the selection, else +0 */       \
            for (int64_t j = 0; j < ow; j++) {                                         \
                float m = r0[2 * j], b = r0[2 * j + 1], c = r1[2 * j], d = r1[2 * j + 1]; \
                float v = g[j] + 0.0f, e0 = v, e1 = 0.0f, e2 = 0.0f, e3 = 0.0f;         \
                if (TAKE(b, m)) m = b, e1 = v, e0 = 0.0f;                              \
                if (TAKE(c, m)) m = c, e2 = v, e1 = e0 = 0.0f;                         \
                if (TAKE(d, m)) e3 = v, e2 = e1 = e0 = 0.0f;                           \
                d0[2 * j] = e0, d0[2 * j + 1] = e1, d1[2 * j] = e2, d1[2 * j + 1] = e3; \
            }                                                                          \
        else                                                                           \
            for (int64_t j = 0; j < ow; j++) {                                         \
                float m;                                                               \
                int s;                                                                 \
                double v = 0.0 + (double)g[j];                                         \
                SELECT4(TAKE, r0[2 * j], r0[2 * j + 1], r1[2 * j], r1[2 * j + 1], m, s); \
                (void)m;                                                               \
                d0[2 * j] = pool_blend_f32(alpha, s == 0 ? v : 0.0, beta, &d0[2 * j]); \
                d0[2 * j + 1] = pool_blend_f32(alpha, s == 1 ? v : 0.0, beta, &d0[2 * j + 1]); \
                d1[2 * j] = pool_blend_f32(alpha, s == 2 ? v : 0.0, beta, &d1[2 * j]); \
                d1[2 * j + 1] = pool_blend_f32(alpha, s == 3 ? v : 0.0, beta, &d1[2 * j + 1]); \
            }                                                                          \
    } while (0)
    if (mode == 1)
        BWD_MAX(SEL_P);
    else
        BWD_MAX(SEL_N);
#undef BWD_MAX
}

static pdnnStatus_t bwd_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const prob_t *p = prob;
    const pdnn_pool_args *a = args;
    const float *x = a->x, *dy = a->dy;
    float *dx = a->dst;
    const int64_t H = p->in[1], W = p->in[2], OH = p->out[1], OW = p->out[2];
    /* a task: one plane's output row oh < OH (dx rows 2 oh, 2 oh + 1), or its dx rows
     * from 2 OH on (no window holds them) at task oh == OH */
    const int64_t rows = OH + 1, tasks = p->n * p->c * rows;
    const int nt = pdnn_pool_threads(p, tasks, ctx->nthreads), mode = mode_of(p);
    const double alpha = a->alpha, beta = a->beta;

#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t t = 0; t < tasks; t++) {
        const int64_t plane = t / rows, oh = t % rows;
        float *dxp = dx + plane * H * W;
        if (oh == OH) {
            zero_fill(dxp + 2 * OH * W, (H - 2 * OH) * W, alpha, beta);
            continue;
        }
        const float *r0 = x + plane * H * W + 2 * oh * W;
        float *d0 = dxp + 2 * oh * W;
        bwd_row(r0, r0 + W, dy + (plane * OH + oh) * OW, d0, d0 + W, OW, mode, alpha, beta);
        if (W > 2 * OW) {
            zero_fill(d0 + 2 * OW, W - 2 * OW, alpha, beta);
            zero_fill(d0 + W + 2 * OW, W - 2 * OW, alpha, beta);
        }
    }
    return PDNN_STATUS_SUCCESS;
}

POOL_CPU_ENTRY(pdnn_pool_fwd_cpu_2x2s2_f32, "cpu:pool_2x2s2_f32", supports, fwd_exec);
POOL_CPU_ENTRY(pdnn_pool_bwd_cpu_2x2s2_f32, "cpu:pool_2x2s2_f32", supports, bwd_exec);
