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
#include "cpu/ukernels/transpose/transpose.h"
#include "ops/conv/cpu/conv_cpu_gemm.h" /* scratch arena */
#include "ops/conv/cpu/conv_cpu_wino.h"

#define LB 64 /* channel lanes of one transform call */
#define PDNN_INLINE static inline __attribute__((always_inline))

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

typedef struct {
    int64_t nbt; /* tiles per block */
    int64_t nkp; /* B panels of Kg output channels */
    int64_t ups; /* U per (group, xi): B panels, [panel][Cg][nr] */
    int64_t vxs; /* V per xi: [group][nbt][Cg] */
    int64_t mxs; /* M per xi: [group][nbt][Kg] */
    int64_t kb;  /* > 0: the panel schedule (cl_panels_t), input channels per block */
    char *u, *v, *m;
} cl_bufs;

/* The panel schedule: one block of tiles (one image of a few tiles) and a transformed
 * filter U larger than L2, which the GEMMs would read back from memory (ResNet-50's
 * res4b_branch2b at minibatch 1: 9.4 MiB for 16 tiles, each U element used 16 times).
 * Each output-channel panel of U is made in blocks of kb input channels that stay in L2
 * (a quarter of it) and are used at once: per block, the products of every xi are added
 * to the panel's M columns (the first block blends over them); after the last block, the
 * panel's output transform. Threads split the panels, so a panel's U, M and outputs stay
 * in one core's cache. The block size comes from the L2 size alone. */
static int64_t cl_panel_kb(const pdnn_wino_geom *g, int64_t nbt)
{
    const int nr = g->uk->nr;
    const double u =
        (double)g->xi * (double)g->cg * (double)(cdiv(g->kg, nr) * nr) * (double)g->es;
    const size_t l2 = pdnn_cpu_cache_sizes()->l2;
    if (g->g != 1 || nbt < g->ntiles || u <= (double)l2) return 0;
    int64_t kb = (int64_t)(l2 / 4 / ((size_t)g->xi * (size_t)nr * g->es));
    const int64_t step = 64 / nr; /* whole 64-lane filter units per block */
    kb = kb / step * step;
    if (kb < step) kb = step;
    return kb > g->cg ? g->cg : kb;
}

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
    b->kb = cl_panel_kb(g, nbt);
    if (b->kb) /* a block of U per panel: [xi][kb][nr] */
        b->u = pdnn_conv_gemm_take(
            a, pdnn_conv_gemm_mul3(b->nkp, g->xi, pdnn_conv_gemm_mul3(b->kb, nr, 1)), g->es);
    else
        b->u = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->g, g->xi, b->ups), g->es);
    b->v = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->xi, b->vxs, 1), g->es);
    b->m = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->xi, b->mxs, 1), g->es);
}

/* g with the GEMM micro-kernel of this form: its columns are the output channels, and
 * with at most half a panel of them a narrower tile (AVX-512 f32: 12 x 32) computes
 * fewer empty lanes (backward data of LeNet's conv2, 64 -> 32 channels). */
static pdnn_wino_geom cl_geom(const pdnn_wino_geom *g)
{
    pdnn_wino_geom c = *g;
    if (g->kg <= g->uk->nr / 2)
        c.uk = pdnn_gemm_ukernel_select_nr(
            g->es == sizeof(float) ? PDNN_DATA_FLOAT : PDNN_DATA_DOUBLE, g->uk->nr / 2);
    return c;
}

static pdnn_wino_geom clt_geom(const pdnn_wino_geom *g);

int64_t pdnn_wino_cl_panel_block(const pdnn_wino_geom *g0, bool fused)
{
    const pdnn_wino_geom c = pdnn_wino_cl_transposed(g0) ? clt_geom(g0) : cl_geom(g0);
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    cl_bufs b;
    cl_layout(&c, fused, &a, &b);
    return b.kb;
}

size_t pdnn_wino_cl_workspace(const pdnn_wino_geom *g0, bool fused)
{
    const pdnn_wino_geom c = cl_geom(g0), *g = &c;
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

/* The same for n <= 4 elements (one output tile's row), inlined: the same expressions */
#define CL_BLEND4(T, sfx)                                                                  \
    PDNN_INLINE void cl_blend4_##sfx(int64_t n, const T *restrict o, T *restrict y,        \
                                     T alpha, T beta)                                      \
    {                                                                                      \
        if (n == 4 && beta == 0) {                                                         \
            y[0] = alpha * o[0], y[1] = alpha * o[1];                                      \
            y[2] = alpha * o[2], y[3] = alpha * o[3];                                      \
        } else if (beta == 0) {                                                            \
            for (int64_t l = 0; l < n; l++) y[l] = alpha * o[l];                           \
        } else {                                                                           \
            for (int64_t l = 0; l < n; l++) y[l] = alpha * o[l] + beta * y[l];             \
        }                                                                                  \
    }
CL_BLEND4(float, f32)
CL_BLEND4(double, f64)

/* Output transform of tile tb0 + t, group grp, output channels ka .. kz - 1 of the
 * group, blended into y. y's channels contiguous: each of the 16 outputs a run of
 * channels; else (columns contiguous, NCHW-like: the transposed route) the tile's
 * 16 x nl block transposed first, then each channel's 4 rows of up to 4 columns. */
PDNN_INLINE void cl_output_unit(const pdnn_wino_geom *g, const cl_bufs *b, char *y,
                                int64_t grp, int64_t tb0, int64_t t, double alpha,
                                double beta, size_t es, int64_t ka, int64_t kz)
{
    cl_lanes O;
    union {
        double d[16 * LB];
        float f[16 * LB];
    } OT; /* O transposed: channel-major */
    const int64_t tile = tb0 + t, rem = tile % g->tpi, ty = rem / g->tw, tx = rem % g->tw;
    const bool cmaj = g->ys[1] != 1 && g->ys[3] == 1;
    const int64_t base = (tile / g->tpi) * g->ys[0] + grp * g->kg * g->ys[1];
    const int64_t nrow = g->oh - 4 * ty < 4 ? g->oh - 4 * ty : 4;
    const int64_t ncol = g->ow - 4 * tx < 4 ? g->ow - 4 * tx : 4;
    for (int64_t k0 = ka; k0 < kz; k0 += LB) {
        const int64_t nl = kz - k0 < LB ? kz - k0 : LB;
        pdnn_wino_transform(g, PDNN_WINO_OUT, (size_t)nl,
                            b->m + ((grp * b->nbt + t) * g->kg + k0) * (int64_t)es, b->mxs, &O,
                            LB);
        if (cmaj) {
            if (es == sizeof(float))
                pdnn_f32_transpose_select()(16, (size_t)nl, O.f, LB, OT.f, 16);
            else
                pdnn_f64_transpose(16, (size_t)nl, O.d, LB, OT.d, 16);
            for (int64_t k = 0; k < nl; k++)
                for (int64_t i = 0; i < nrow; i++) {
                    const int64_t d0 =
                        base + (k0 + k) * g->ys[1] + (4 * ty + i) * g->ys[2] + 4 * tx;
                    if (es == sizeof(float))
                        cl_blend4_f32(ncol, OT.f + k * 16 + 4 * i, (float *)y + d0,
                                      (float)alpha, (float)beta);
                    else
                        cl_blend4_f64(ncol, OT.d + k * 16 + 4 * i, (double *)y + d0, alpha,
                                      beta);
                }
            continue;
        }
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

/* The panel schedule (cl_panel_kb): one group, all tiles in one block. */
PDNN_INLINE void cl_panels_t(const pdnn_wino_geom *g, const cl_bufs *b, const char *x,
                             const char *w, char *y, double alpha, double beta, size_t es)
{
    const pdnn_gemm_ukernel *uk = g->uk;
    const int mr = uk->mr, nr = uk->nr;
    const int64_t nb = g->ntiles, e = (int64_t)es;
#pragma omp for schedule(static)
    for (int64_t t = 0; t < nb; t++)
        cl_input_t(g, x, t, 0, g->cg, b->v + t * g->cg * e, b->vxs, es);
#pragma omp for schedule(static)
    for (int64_t p = 0; p < b->nkp; p++) {
        const int64_t ka = p * nr, nn = g->kg - ka < nr ? g->kg - ka : nr;
        char *ub = b->u + p * g->xi * b->kb * nr * e;
        for (int64_t i0 = 0; i0 < g->cg; i0 += b->kb) {
            const int64_t ni = g->cg - i0 < b->kb ? g->cg - i0 : b->kb;
            for (int64_t e0 = i0 * nr; e0 < (i0 + ni) * nr; e0 += 64)
                pdnn_wino_filter_unit_at(g, w, 0, p, e0 / 64, nr, ub + (e0 - i0 * nr) * e,
                                         ni * nr);
            for (int64_t xi = 0; xi < g->xi; xi++)
                for (int64_t r0 = 0; r0 < nb; r0 += mr) {
                    const size_t mm = (size_t)(nb - r0 < mr ? nb - r0 : mr);
                    const char *a = b->v + (xi * b->vxs + r0 * g->cg + i0) * e;
                    const char *bp = ub + xi * ni * nr * e;
                    char *c = b->m + (xi * b->mxs + r0 * g->kg + ka) * e;
                    if (es == sizeof(float))
                        uk->f32(mm, (size_t)nn, (size_t)ni, (const float *)a, (ptrdiff_t)g->cg,
                                1, (const float *)bp, (float *)c, (ptrdiff_t)g->kg, 1, 1.0f,
                                i0 ? 1.0f : 0.0f);
                    else
                        uk->f64(mm, (size_t)nn, (size_t)ni, (const double *)a,
                                (ptrdiff_t)g->cg, 1, (const double *)bp, (double *)c,
                                (ptrdiff_t)g->kg, 1, 1.0, i0 ? 1.0 : 0.0);
                }
        }
        for (int64_t t = 0; t < nb; t++)
            cl_output_unit(g, b, y, 0, 0, t, alpha, beta, es, ka, ka + nn);
    }
}

PDNN_INLINE void cl_run_t(const pdnn_wino_geom *g, const cl_bufs *b, const char *x,
                          const char *w, char *y, double alpha, double beta, size_t es)
{
    const int64_t G = g->g;
    if (b->kb) {
        cl_panels_t(g, b, x, w, y, alpha, beta, es);
        return;
    }
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
            cl_output_unit(g, b, y, i % G, tb0, i / G, alpha, beta, es, 0, g->kg);
    }
}

void pdnn_wino_cl_run(const pdnn_wino_geom *g0, bool fused, const pdnn_conv_args *a, int nt,
                      void *ws)
{
    const pdnn_wino_geom c = cl_geom(g0), *g = &c;
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

/* ---- NCHW-like x and y: the channel-lane form on a channel-minor copy of x
 *
 * With few tiles (minibatch 1, small images) the tile-lane form computes mostly empty
 * lanes: its GEMM panels and transforms are nr (64) tiles wide, and LeNet's conv2 at
 * minibatch 1 (14 x 14: 16 tiles) fills a quarter of them. The channel-lane form fills
 * mr-row tiles of tiles and nr-wide panels of output channels instead; x is copied
 * channel-minor first (per image row, a C x W transpose), and each tile's outputs are
 * transposed to channel-major before they are blended into y's rows (cl_output_unit).
 * Same arithmetic per element as the channel-lane form, so the same bits for any thread
 * count. */

/* The lanes the GEMMs compute per useful product: tile lanes nr tiles x mr output
 * channels, channel lanes mr tiles x nr output channels. */
static double lane_waste(int64_t t, int64_t kg, int64_t tb, int64_t kb)
{
    return (double)(cdiv(t, tb) * tb) / (double)t * (double)(cdiv(kg, kb) * kb) / (double)kg;
}

bool pdnn_wino_cl_transposed(const pdnn_wino_geom *g)
{
    if (pdnn_wino_channel_lanes(g) || g->xs[3] != 1 || g->ys[3] != 1 || g->ntiles <= 0 ||
        g->kg <= 0)
        return false;
    const pdnn_gemm_ukernel *cu = cl_geom(g).uk;
    /* the copies cost about a quarter of the products they save (LeNet conv2, mb1) */
    return 1.25 * lane_waste(g->ntiles, g->kg, cu->mr, cu->nr) <
           lane_waste(g->ntiles, g->kg, g->uk->nr, g->uk->mr);
}

/* The geometry of the run: x from its channel-minor copy [N][H][W][C]; y written in
 * place (cl_output_unit's channel-major stores). */
static pdnn_wino_geom clt_geom(const pdnn_wino_geom *g)
{
    pdnn_wino_geom c = cl_geom(g);
    const int64_t C = g->g * g->cg;
    c.xs[3] = C, c.xs[2] = g->iw * C, c.xs[1] = 1, c.xs[0] = g->ih * g->iw * C;
    return c;
}

typedef struct {
    char *xc;
    cl_bufs b;
} clt_bufs;

static void clt_layout(const pdnn_wino_geom *c, bool fused, pdnn_conv_gemm_arena *a,
                       clt_bufs *b)
{
    b->xc = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(c->n, c->xs[0], 1), c->es);
    cl_layout(c, fused, a, &b->b);
}

size_t pdnn_wino_clt_workspace(const pdnn_wino_geom *g, bool fused)
{
    const pdnn_wino_geom c = clt_geom(g);
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    clt_bufs b;
    clt_layout(&c, fused, &a, &b);
    return pdnn_conv_gemm_arena_bytes(&a);
}

PDNN_INLINE void clt_run_t(const pdnn_wino_geom *g, const pdnn_wino_geom *c, const clt_bufs *b,
                           const char *x, const char *w, char *y, double alpha, double beta,
                           size_t es)
{
    const pdnn_f32_transpose_fn tr = pdnn_f32_transpose_select();
    const int64_t C = g->g * g->cg;
#pragma omp for schedule(static)
    for (int64_t i = 0; i < g->n * g->ih; i++) { /* x row (n, h): C x W -> W x C */
        const int64_t n = i / g->ih, h = i % g->ih;
        const char *s = x + (n * g->xs[0] + h * g->xs[2]) * (int64_t)es;
        char *d = b->xc + (n * c->xs[0] + h * c->xs[2]) * (int64_t)es;
        if (es == sizeof(float))
            tr((size_t)C, (size_t)g->iw, (const float *)s, (ptrdiff_t)g->xs[1], (float *)d,
               (ptrdiff_t)C);
        else
            pdnn_f64_transpose((size_t)C, (size_t)g->iw, (const double *)s,
                               (ptrdiff_t)g->xs[1], (double *)d, (ptrdiff_t)C);
    }
    cl_run_t(c, &b->b, b->xc, w, y, alpha, beta, es);
}

void pdnn_wino_clt_run(const pdnn_wino_geom *g, bool fused, const pdnn_conv_args *a, int nt,
                       void *ws)
{
    const pdnn_wino_geom c = clt_geom(g);
    pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ws);
    clt_bufs b;
    clt_layout(&c, fused, &ar, &b);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        if (g->es == sizeof(float))
            clt_run_t(g, &c, &b, a->src, a->wei, a->dst, a->alpha, a->beta, sizeof(float));
        else
            clt_run_t(g, &c, &b, a->src, a->wei, a->dst, a->alpha, a->beta, sizeof(double));
    }
}
