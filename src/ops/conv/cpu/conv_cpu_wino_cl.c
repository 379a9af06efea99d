/* Winograd F(4x4, 3x3) / F(4x4, 5x5), channel-lane form (conv_cpu_wino.h), for x and y whose channels
 * are contiguous (NHWC): the transforms run across channels instead of across tiles, so
 * nothing is shuffled: the alpha^2 positions of a tile's window are alpha^2 contiguous channel
 * vectors of x, the 16 outputs 16 contiguous channel vectors of y. The GEMMs take the
 * transposed orientation, per group and xi,
 *   M^T[xi] (T x Kg) = V^T[xi] (T x Cg) * U^T[xi] (Cg x Kg),
 * V^T read in place by the micro-kernel (rows: the block's tiles, channels contiguous),
 * U^T in GEMM B panels. Blocks, thread split (tiles and xi instead of channels) and
 * determinism as in the tile-lane form: each output element is one fixed sequence of
 * operations whatever the block or the thread count. */
#include "cpu/cache.h"
#include "ops/conv/cpu/conv_cpu_gemm.h" /* scratch arena */
#include "ops/conv/cpu/conv_cpu_wino.h"

#define LB 64 /* channel lanes of one transform call */
#define PDNN_INLINE static inline __attribute__((always_inline))

typedef struct {
    int64_t nbt; /* tiles per block */
    int64_t nkp; /* B panels of Kg output channels */
    int64_t ups; /* U per (group, xi): B panels, [panel][Cg][nr] */
    int64_t vxs; /* V per xi: [group][nbt][Cg] */
    int64_t mxs; /* M per xi: [group][nbt][Kg] */
    char *u, *v, *m;
} cl_bufs;

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

static void cl_layout(const pdnn_wino_geom *g, bool fused, pdnn_conv_gemm_arena *a,
                      cl_bufs *b)
{
    const int mr = g->uk->mr, nr = g->uk->nr;
    const int64_t C = g->g * g->cg, K = g->g * g->kg;
    const int64_t col = pdnn_conv_gemm_mul3(g->xi, C + K, (int64_t)g->es); /* bytes per tile */
    const size_t budget = fused ? pdnn_cpu_cache_sizes()->l2 : PDNN_WINO_NONFUSED_BYTES;
    int64_t nbt = col > 0 ? (int64_t)(budget / (size_t)col) : 1;
    /* at least 16 row tiles per block, so that each B panel of U^T (from L3 when U is
     * large) serves 16 micro-kernel calls */
    if (nbt < 16 * mr) nbt = 16 * mr;
    nbt = nbt / mr * mr;
    if (nbt > g->ntiles) nbt = g->ntiles;
    if (nbt < 1) nbt = 1;
    b->nbt = nbt;
    b->nkp = cdiv(g->kg, nr);
    b->ups = pdnn_wino_xi_stride(pdnn_conv_gemm_mul3(b->nkp, nr, g->cg), g->es);
    b->vxs = pdnn_wino_xi_stride(pdnn_conv_gemm_mul3(g->g, nbt, g->cg), g->es);
    b->mxs = pdnn_wino_xi_stride(pdnn_conv_gemm_mul3(g->g, nbt, g->kg), g->es);
    b->u = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->g, g->xi, b->ups), g->es);
    b->v = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->xi, b->vxs, 1), g->es);
    b->m = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->xi, b->mxs, 1), g->es);
}

size_t pdnn_wino_cl_workspace(const pdnn_wino_geom *g, bool fused)
{
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    cl_bufs b;
    cl_layout(g, fused, &a, &b);
    return pdnn_conv_gemm_arena_bytes(&a);
}

typedef union {
    double d[PDNN_WINO_XI_MAX * LB];
    float f[PDNN_WINO_XI_MAX * LB];
} cl_lanes;

/* Input transform of channels c0 .. c0 + nc - 1 (all groups' numbering) of tile `tile`:
 * element xi of channel c0 + l at dst[xi * dxs + l]. */
PDNN_INLINE void cl_input_t(const pdnn_wino_geom *g, const char *x, int64_t tile, int64_t c0,
                            int64_t nc, char *dst, int64_t dxs, size_t es)
{
    cl_lanes D;
    char *dp = (char *)&D;
    const int64_t rem = tile % g->tpi, ty = rem / g->tw, tx = rem % g->tw;
    const int64_t h0 = 4 * ty - g->ph, w0 = 4 * tx - g->pw;
    const int64_t base = (tile / g->tpi) * g->xs[0] + c0;
    for (int64_t l0 = 0; l0 < nc; l0 += LB) {
        const int64_t nl = nc - l0 < LB ? nc - l0 : LB;
        for (int i = 0; i < g->alpha; i++) {
            const bool hin = h0 + i >= 0 && h0 + i < g->ih;
            for (int j = 0; j < g->alpha; j++) {
                const int64_t d0 = (g->alpha * i + j) * LB;
                if (hin && w0 + j >= 0 && w0 + j < g->iw) {
                    const int64_t s0 = base + l0 + (h0 + i) * g->xs[2] + (w0 + j) * g->xs[3];
                    for (int64_t l = 0; l < nl; l++) pdnn_wino_copy_el(dp, d0 + l, x, s0 + l, es);
                } else {
                    for (int64_t l = 0; l < nl; l++) pdnn_wino_zero_el(dp, d0 + l, es);
                }
            }
        }
        pdnn_wino_transform(g, PDNN_WINO_IN, (size_t)nl, dp, LB, dst + l0 * (int64_t)es, dxs);
    }
}

void pdnn_wino_cl_input(const pdnn_wino_geom *g, const void *x, int64_t tile, int64_t c0,
                        int64_t nc, void *dst, int64_t dxs)
{
    if (g->es == sizeof(float))
        cl_input_t(g, x, tile, c0, nc, dst, dxs, sizeof(float));
    else
        cl_input_t(g, x, tile, c0, nc, dst, dxs, sizeof(double));
}

/* M rows rb * RB .. of group grp, element xi: the block's tiles times U^T. */
#define RB 48
static void cl_gemm_unit(const pdnn_wino_geom *g, const cl_bufs *b, int64_t xi, int64_t grp,
                         int64_t r0, int64_t r1)
{
    const pdnn_gemm_ukernel *uk = g->uk;
    const int mr = uk->mr, nr = uk->nr;
    const int64_t es = (int64_t)g->es;
    for (int64_t kp = 0; kp < b->nkp; kp++) {
        const size_t nn = (size_t)(g->kg - kp * nr < nr ? g->kg - kp * nr : nr);
        const char *bp = b->u + ((grp * g->xi + xi) * b->ups + kp * g->cg * nr) * es;
        for (int64_t i0 = r0; i0 < r1; i0 += mr) {
            const size_t mm = (size_t)(r1 - i0 < mr ? r1 - i0 : mr);
            const char *a = b->v + (xi * b->vxs + (grp * b->nbt + i0) * g->cg) * es;
            char *c = b->m + (xi * b->mxs + (grp * b->nbt + i0) * g->kg + kp * nr) * es;
            if (g->es == sizeof(float))
                uk->f32(mm, nn, (size_t)g->cg, (const float *)a, (ptrdiff_t)g->cg, 1,
                        (const float *)bp, (float *)c, (ptrdiff_t)g->kg, 1, 1.0f, 0.0f);
            else
                uk->f64(mm, nn, (size_t)g->cg, (const double *)a, (ptrdiff_t)g->cg, 1,
                        (const double *)bp, (double *)c, (ptrdiff_t)g->kg, 1, 1.0, 0.0);
        }
    }
}

/* y[l] = alpha * o[l] + beta * y[l], l < n (y unread when beta == 0) */
#define CL_BLEND(T, sfx)                                                                   \
    static void cl_blend_##sfx(int64_t n, const T *restrict o, T *restrict y, T alpha,      \
                               T beta)                                                     \
    {                                                                                      \
        if (beta == 0)                                                                     \
            for (int64_t l = 0; l < n; l++) y[l] = alpha * o[l];                           \
        else                                                                               \
            for (int64_t l = 0; l < n; l++) y[l] = alpha * o[l] + beta * y[l];             \
    }
CL_BLEND(float, f32)
CL_BLEND(double, f64)

/* Output transform of tile tb0 + t, group grp, blended into y. */
PDNN_INLINE void cl_output_unit(const pdnn_wino_geom *g, const cl_bufs *b, char *y,
                                int64_t grp, int64_t tb0, int64_t t, double alpha,
                                double beta, size_t es)
{
    cl_lanes O;
    const int64_t tile = tb0 + t, rem = tile % g->tpi, ty = rem / g->tw, tx = rem % g->tw;
    const int64_t base = (tile / g->tpi) * g->ys[0] + grp * g->kg;
    for (int64_t k0 = 0; k0 < g->kg; k0 += LB) {
        const int64_t nl = g->kg - k0 < LB ? g->kg - k0 : LB;
        pdnn_wino_transform(g, PDNN_WINO_OUT, (size_t)nl,
                            b->m + ((grp * b->nbt + t) * g->kg + k0) * (int64_t)es, b->mxs, &O,
                            LB);
        for (int i = 0; i < 4 && 4 * ty + i < g->oh; i++)
            for (int j = 0; j < 4 && 4 * tx + j < g->ow; j++) {
                const int64_t d0 = base + k0 + (4 * ty + i) * g->ys[2] + (4 * tx + j) * g->ys[3];
                if (es == sizeof(float))
                    cl_blend_f32(nl, O.f + (4 * i + j) * LB, (float *)y + d0, (float)alpha,
                                 (float)beta);
                else
                    cl_blend_f64(nl, O.d + (4 * i + j) * LB, (double *)y + d0, alpha, beta);
            }
    }
}

PDNN_INLINE void cl_run_t(const pdnn_wino_geom *g, const cl_bufs *b, const char *x,
                          const char *w, char *y, double alpha, double beta, size_t es)
{
    const int64_t G = g->g;
    pdnn_wino_filter(g, w, g->uk->nr, b->u, b->ups);
    for (int64_t tb0 = 0; tb0 < g->ntiles; tb0 += b->nbt) {
        const int64_t nb = g->ntiles - tb0 < b->nbt ? g->ntiles - tb0 : b->nbt;
        const int64_t nrb = cdiv(nb, RB);
#pragma omp for schedule(static)
        for (int64_t i = 0; i < nb * G; i++) { /* V rows (group, tile) */
            const int64_t grp = i % G, t = i / G;
            cl_input_t(g, x, tb0 + t, grp * g->cg, g->cg,
                       b->v + (grp * b->nbt + t) * g->cg * (int64_t)es, b->vxs, es);
        }
#pragma omp for schedule(static)
        for (int64_t i = 0; i < g->xi * G * nrb; i++) {
            const int64_t r0 = (i % nrb) * RB, r1 = r0 + RB < nb ? r0 + RB : nb;
            cl_gemm_unit(g, b, i / (G * nrb), (i / nrb) % G, r0, r1);
        }
#pragma omp for schedule(static)
        for (int64_t i = 0; i < nb * G; i++)
            cl_output_unit(g, b, y, i % G, tb0, i / G, alpha, beta, es);
    }
}

void pdnn_wino_cl_run(const pdnn_wino_geom *g, bool fused, const pdnn_conv_args *a, int nt,
                      void *ws)
{
    pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ws);
    cl_bufs b;
    cl_layout(g, fused, &ar, &b);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        if (g->es == sizeof(float))
            cl_run_t(g, &b, a->src, a->wei, a->dst, a->alpha, a->beta, sizeof(float));
        else
            cl_run_t(g, &b, a->src, a->wei, a->dst, a->alpha, a->beta, sizeof(double));
    }
}
