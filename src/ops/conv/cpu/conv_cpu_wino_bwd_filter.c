/* Backward filter by Winograd F(4x4, 3x3) ("cpu:winograd_nonfused_f4x3") and F(4x4, 5x5)
 * ("cpu:winograd_nonfused_f4x5"), PDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED;
 * conv_cpu_wino.h.
 *
 * The 4x4 tiles of dy (every image) and the alpha x alpha windows of x they read: per group and
 * transformed element xi,
 *   W[xi] (Cg x Kg) = sum_tiles V[xi] Z[xi]^T,   V = B^T d B (x windows), Z = A dY A^T,
 *   dw[k][c] = alpha * G^T W[.][c][k] G + beta * dw[k][c]   (dw unread when beta == 0).
 * The sum over tiles runs in chunks of a fixed number of tiles (from the problem alone),
 * in increasing order: per chunk the threads transform the x windows (by channel and
 * panel) and the dy tiles (by tile and panel of output channels), then each thread adds
 * the chunk's products to its own MR x NR tiles of W with the GEMM micro-kernel (depth =
 * the chunk's tiles, summed in order). So every W element is one fixed sequence of
 * operations: results are bitwise independent of the thread count.
 * Layouts: Z always has the output channels as lanes (GEMM B panels). Tile lanes (x and
 * dy NCHW-like): V rows are channels (tiles contiguous, dealt from x's rows as in the
 * forward), and dy's 4x4 tiles are gathered into channel lanes 4 tiles at a time (the
 * next tiles' lines prefetched). Channel lanes (x and dy channels contiguous, NHWC): V
 * rows are tiles (channels contiguous; the micro-kernel reads V column-major) and dy is
 * read in place.
 * Supports: as the forward entries (3x3 or 5x5, stride 1, dilation 1, 2-d, any padding,
 * groups, both modes, any strides, FLOAT and DOUBLE). Error bound: PDNN_WINO_TOL_F32 /
 * _F64 (3x3), PDNN_WINO5_TOL_F32 / _F64 (5x5) (relative to the exact gradient,
 * uniform(-1, 1) data).
 *
 * Workspace: W (alpha^2 K C/g elements), one chunk of V and Z (~8 MiB unless one panel of
 * tiles is larger; at most 256 tiles, 64 for F(4x4, 5x5)) and, for tile lanes, the
 * chunk's dy tiles (16/alpha^2 of Z). */
#include <string.h>

#include "core/par.h"
#include "ops/conv/cpu/conv_cpu_gemm.h" /* scratch arena */
#include "ops/conv/cpu/conv_cpu_wino.h"
#include "cpu/ukernels/transpose/transpose.h"

#define CHUNK_BYTES ((size_t)8 << 20) /* V + Z of one chunk */
#define CHUNK_MAX 256                 /* tiles of one chunk, at most */
#define CHUNK_MAX_A8 64 /* F(4x4, 5x5): V + Z of the main job's 32 -> 64 layer in L2 */
#define DY_TILES 4                    /* tiles of one dy transpose (4 x 16 x NR in L1) */

typedef struct {
    bool cl;     /* channel lanes (x and dy channels contiguous): V rows are tiles */
    int64_t ct;  /* tiles per chunk, a multiple of nr */
    int64_t nkp; /* panels of nr output channels per group */
    int64_t kgp; /* nkp * nr */
    int64_t vxs; /* V per xi: [C][ct] (tile lanes) or [ct][C] (channel lanes) */
    int64_t zxs; /* Z per xi: B panels, [group][panel][ct][nr] */
    int64_t wxs; /* W per (group, xi): [Cg][kgp] */
    char *v, *z, *w;
    char *s;     /* the chunk's dy tiles, channels as lanes: [group][panel][ct][16][nr]
                  * (tile lanes only) */
} bwdf_bufs;

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

static void bwdf_layout(const pdnn_wino_geom *g, pdnn_conv_gemm_arena *a, bwdf_bufs *b)
{
    const int nr = g->uk->nr;
    const int64_t C = g->g * g->cg;
    b->nkp = cdiv(g->kg, nr);
    b->kgp = b->nkp * nr;
    const int64_t col = pdnn_conv_gemm_mul3(g->xi, C + g->g * b->kgp, (int64_t)g->es);
    int64_t ct = col > 0 ? (int64_t)(CHUNK_BYTES / (size_t)col) / nr * nr : nr;
    const int64_t cmax = g->alpha == 8 ? CHUNK_MAX_A8 : CHUNK_MAX;
    if (ct > cmax) ct = cmax / nr * nr;
    if (ct > cdiv(g->ntiles, nr) * nr) ct = cdiv(g->ntiles, nr) * nr;
    if (ct < nr) ct = nr;
    b->ct = ct;
    b->vxs = pdnn_wino_xi_stride(pdnn_conv_gemm_mul3(C, ct, 1), g->es);
    b->zxs = pdnn_wino_xi_stride(pdnn_conv_gemm_mul3(g->g * b->nkp, ct, nr), g->es);
    b->wxs = pdnn_wino_xi_stride(pdnn_conv_gemm_mul3(g->cg, b->kgp, 1), g->es);
    b->v = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->xi, b->vxs, 1), g->es);
    b->z = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->xi, b->zxs, 1), g->es);
    b->w = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->g * g->xi, b->wxs, 1), g->es);
    b->cl = pdnn_wino_channel_lanes(g);
    b->s = b->cl ? NULL : pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(16, b->zxs, 1), g->es);
}

static size_t bwdf_workspace(const void *prob)
{
    pdnn_wino_geom g;
    pdnn_wino_geom_init(prob, &g);
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    bwdf_bufs b;
    bwdf_layout(&g, &a, &b);
    return pdnn_conv_gemm_arena_bytes(&a);
}

static bool bwdf_supports_r(const void *prob, int r, const char **why)
{
    if (!pdnn_wino_supports(prob, PDNN_CONV_BWD_FILTER, r, why)) return false;
    if (bwdf_workspace(prob) == SIZE_MAX) {
        *why = "workspace size overflows";
        return false;
    }
    return true;
}

static bool bwdf_supports(const void *prob, const char **why)
{
    return bwdf_supports_r(prob, 3, why);
}

static bool bwdf5_supports(const void *prob, const char **why)
{
    return bwdf_supports_r(prob, 5, why);
}

#define PDNN_INLINE static inline __attribute__((always_inline))

/* Scratch of one transform call: alpha^2 rows of the widest panel. */
typedef union {
    double d[PDNN_WINO_XI_MAX * PDNN_GEMM_NR_MAX];
    float f[PDNN_WINO_XI_MAX * PDNN_GEMM_NR_MAX];
} lanes_buf;

/* Tiles t .. t + nt - 1 of the chunk (global t0 + t ..), group grp, channel panel kp:
 * gathered from dy into the stage (channels as lanes; lanes past Kg stay zero), then
 * Z = A dY A^T. The dy lines of the next unit's tiles are prefetched (one line per
 * channel and row serves 4 tiles). */
PDNN_INLINE void dy_unit(const pdnn_wino_geom *g, const bwdf_bufs *b, const char *dy,
                         int64_t grp, int64_t kp, int64_t t0, int64_t t, int64_t nt, int64_t nc,
                         size_t es)
{
    const int nr = g->uk->nr;
    const int64_t k0 = kp * nr, nl = g->kg - k0 < nr ? g->kg - k0 : nr;
    const int64_t hs = g->ys[2], ws = g->ys[3], cs = g->ys[1];
    char *st = b->s + (((grp * b->nkp + kp) * b->ct + t) * 16 * nr) * (int64_t)es;
    const pdnn_f32_transpose_fn tr = pdnn_f32_transpose_select();
    if (t + nt < nc) { /* the next unit's first tile */
        const int64_t tile = t0 + t + nt, rem = tile % g->tpi, ty = rem / g->tw;
        const int64_t tx = rem % g->tw, rows = g->oh - 4 * ty < 4 ? g->oh - 4 * ty : 4;
        const char *p = dy + ((tile / g->tpi) * g->ys[0] + (grp * g->kg + k0) * cs +
                              4 * ty * hs + 4 * tx * ws) * (int64_t)es;
        for (int64_t l = 0; l < nl; l++)
            for (int64_t i = 0; i < rows; i++) __builtin_prefetch(p + (l * cs + i * hs) * (int64_t)es);
    }
    for (int64_t u = 0; u < nt; u++) {
        const int64_t tile = t0 + t + u, rem = tile % g->tpi, ty = rem / g->tw, tx = rem % g->tw;
        const int64_t oi = g->oh - 4 * ty, oj = g->ow - 4 * tx; /* rows, columns inside dy */
        const int64_t base = (tile / g->tpi) * g->ys[0] + (grp * g->kg + k0) * cs +
                             4 * ty * hs + 4 * tx * ws;
        for (int i = 0; i < 4; i++) {
            int j = 0;
            if (es == sizeof(float) && ws == 1 && i < oi) {
                /* a row of the tile: nl channels x up to 4 columns, transposed by SIMD
                 * blocks into the channel lanes */
                const int64_t nj = oj < 4 ? oj : 4;
                tr((size_t)nl, (size_t)nj, (const float *)dy + base + i * hs, cs,
                   (float *)st + (u * 16 + 4 * i) * nr, nr);
                j = (int)nj;
            }
            for (; j < 4; j++) {
                const int64_t d0 = (u * 16 + 4 * i + j) * nr, off = base + i * hs + j * ws;
                if (i < oi && j < oj)
                    for (int64_t l = 0; l < nl; l++)
                        pdnn_wino_copy_el(st, d0 + l, dy, off + l * cs, es);
                else
                    for (int64_t l = 0; l < nl; l++) pdnn_wino_zero_el(st, d0 + l, es);
            }
        }
    }
    for (int64_t u = 0; u < nt; u++)
        pdnn_wino_transform(g, PDNN_WINO_DYT, (size_t)nr, st + u * 16 * nr * (int64_t)es, nr,
                            b->z + (((grp * b->nkp + kp) * b->ct + t + u) * nr) * (int64_t)es,
                            b->zxs);
}

/* Z of dy tile t0 + t, group grp, output channels kp * nr .. (lanes; channels past Kg
 * are zeros), read straight from dy: channel lanes, dy's channels contiguous. */
PDNN_INLINE void dy_direct_unit(const pdnn_wino_geom *g, const bwdf_bufs *b, const char *dy,
                                int64_t grp, int64_t t0, int64_t t, int64_t kp, size_t es)
{
    lanes_buf D;
    char *dp = (char *)&D;
    const int nr = g->uk->nr;
    const int64_t tile = t0 + t, rem = tile % g->tpi, ty = rem / g->tw, tx = rem % g->tw;
    const int64_t oi = g->oh - 4 * ty, oj = g->ow - 4 * tx; /* rows, columns inside dy */
    const int64_t k0 = kp * nr, nl = g->kg - k0 < nr ? g->kg - k0 : nr;
    const int64_t base = (tile / g->tpi) * g->ys[0] + grp * g->kg + k0 + 4 * ty * g->ys[2] +
                         4 * tx * g->ys[3];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            const int64_t d0 = (4 * i + j) * nr, off = base + i * g->ys[2] + j * g->ys[3];
            int64_t l = 0;
            if (i < oi && j < oj)
                for (; l < nl; l++) pdnn_wino_copy_el(dp, d0 + l, dy, off + l, es);
            for (; l < nr; l++) pdnn_wino_zero_el(dp, d0 + l, es);
        }
    pdnn_wino_transform(g, PDNN_WINO_DYT, (size_t)nr, dp, nr,
                        b->z + (((grp * b->nkp + kp) * b->ct + t) * nr) * (int64_t)es, b->zxs);
}

/* W tile: rows rp * mr .. of group grp, element xi, output channels kp * nr .., plus
 * the chunk's nc tiles (first chunk: W = the chunk's sum). */
static void gemm_unit(const pdnn_wino_geom *g, const bwdf_bufs *b, int64_t grp, int64_t xi,
                      int64_t kp, int64_t rp, int64_t nc, bool first)
{
    const pdnn_gemm_ukernel *uk = g->uk;
    const int mr = uk->mr, nr = uk->nr;
    const int64_t c0 = rp * mr, k0 = kp * nr;
    const size_t mm = (size_t)(g->cg - c0 < mr ? g->cg - c0 : mr);
    const size_t nn = (size_t)(g->kg - k0 < nr ? g->kg - k0 : nr);
    const int64_t es = (int64_t)g->es;
    /* A(c, t) = V[c][t] (tile lanes) or V[t][c] (channel lanes) */
    const int64_t C = g->g * g->cg;
    const char *a = b->v + (xi * b->vxs + (grp * g->cg + c0) * (b->cl ? 1 : b->ct)) * es;
    const ptrdiff_t rs_a = b->cl ? 1 : (ptrdiff_t)b->ct, cs_a = b->cl ? (ptrdiff_t)C : 1;
    const char *bp = b->z + (xi * b->zxs + (grp * b->nkp + kp) * b->ct * nr) * es;
    char *c = b->w + ((grp * g->xi + xi) * b->wxs + c0 * b->kgp + k0) * es;
    if (g->es == sizeof(float))
        uk->f32(mm, nn, (size_t)nc, (const float *)a, rs_a, cs_a, (const float *)bp, (float *)c,
                (ptrdiff_t)b->kgp, 1, 1.0f, first ? 0.0f : 1.0f);
    else
        uk->f64(mm, nn, (size_t)nc, (const double *)a, rs_a, cs_a, (const double *)bp,
                (double *)c, (ptrdiff_t)b->kgp, 1, 1.0, first ? 0.0 : 1.0);
}

/* dw of input channel c of group grp, output channels kp * nr .. (lanes). */
PDNN_INLINE void final_unit(const pdnn_wino_geom *g, const bwdf_bufs *b, char *dw, int64_t grp,
                            int64_t c, int64_t kp, double alpha, double beta, size_t es)
{
    lanes_buf O;
    char *op = (char *)&O;
    const int nr = g->uk->nr;
    const int64_t k0 = kp * nr, nl = g->kg - k0 < nr ? g->kg - k0 : nr;
    const char *w = b->w + ((grp * g->xi) * b->wxs + c * b->kgp + k0) * (int64_t)es;
    pdnn_wino_transform(g, PDNN_WINO_FLTINV, (size_t)nl, w, b->wxs, op, nr);
    const int R = g->r;
    for (int r = 0; r < R; r++)
        for (int s = 0; s < R; s++) {
            const int64_t off = grp * g->wgs + k0 * g->wos + c * g->wis +
                                (g->rot ? R - 1 - r : r) * g->wrs +
                                (g->rot ? R - 1 - s : s) * g->wss;
            const int64_t si = (R * r + s) * nr;
            for (int64_t l = 0; l < nl; l++) {
                const int64_t di = off + l * g->wos;
                if (es == sizeof(float)) {
                    float v = (float)alpha * O.f[si + l];
                    if (beta != 0.0) v += (float)beta * ((float *)dw)[di];
                    ((float *)dw)[di] = v;
                } else {
                    double v = alpha * O.d[si + l];
                    if (beta != 0.0) v += beta * ((double *)dw)[di];
                    ((double *)dw)[di] = v;
                }
            }
        }
}

PDNN_INLINE void bwdf_run_t(const pdnn_wino_geom *g, const bwdf_bufs *b, const char *x,
                            const char *dy, char *dw, double alpha, double beta, size_t es)
{
    const int nr = g->uk->nr, mr = g->uk->mr;
    const int64_t C = g->g * g->cg, mp = cdiv(g->cg, mr), nkp = b->nkp;
    const int64_t kl = g->kg - (nkp - 1) * nr, rows = b->ct * 16; /* last panel's lanes */
    if (!b->cl && kl < nr) { /* the stage's lanes past Kg stay zero */
#pragma omp for schedule(static)
        for (int64_t i = 0; i < g->g * rows; i++) {
            char *st = b->s + (((i / rows * nkp + nkp - 1) * rows + i % rows) * nr) * (int64_t)es;
            for (int64_t l = kl; l < nr; l++) pdnn_wino_zero_el(st, l, es);
        }
    }
    for (int64_t t0 = 0; t0 < g->ntiles; t0 += b->ct) {
        const int64_t nc = g->ntiles - t0 < b->ct ? g->ntiles - t0 : b->ct;
        const int64_t npan = cdiv(nc, nr);
        if (b->cl) { /* V rows: tiles, channels contiguous; dy read in place */
#pragma omp for schedule(static) nowait
            for (int64_t t = 0; t < nc; t++)
                pdnn_wino_cl_input(g, x, t0 + t, 0, C, b->v + t * C * (int64_t)es, b->vxs);
#pragma omp for schedule(static)
            for (int64_t i = 0; i < g->g * nc * nkp; i++)
                dy_direct_unit(g, b, dy, i / (nc * nkp), t0, (i / nkp) % nc, i % nkp, es);
        } else { /* V rows: channels, tiles contiguous; dy through planes */
#pragma omp for schedule(static) nowait
            for (int64_t i = 0; i < C * npan; i++) {
                const int64_t cc = i / npan, q = i % npan;
                pdnn_wino_input_unit(g, x, cc, t0 + q * nr,
                                     b->v + (cc * b->ct + q * nr) * (int64_t)es, b->vxs);
            }
            const int64_t tq = cdiv(nc, DY_TILES);
#pragma omp for schedule(static)
            for (int64_t i = 0; i < g->g * nkp * tq; i++) {
                const int64_t t = (i % tq) * DY_TILES, gp = i / tq; /* gp = grp * nkp + kp */
                dy_unit(g, b, dy, gp / nkp, gp % nkp, t0, t, nc - t < DY_TILES ? nc - t : DY_TILES,
                        nc, es);
            }
        }
#pragma omp for schedule(static)
        for (int64_t i = 0; i < g->g * g->xi * nkp * mp; i++)
            gemm_unit(g, b, i / (g->xi * nkp * mp), (i / (nkp * mp)) % g->xi, (i / mp) % nkp,
                      i % mp,
                      nc, t0 == 0);
    }
    if (g->ntiles == 0) { /* an empty sum */
#pragma omp single
        memset(b->w, 0, (size_t)(g->g * g->xi * b->wxs) * es);
    }
#pragma omp for schedule(static)
    for (int64_t i = 0; i < C * nkp; i++)
        final_unit(g, b, dw, i / (g->cg * nkp), (i / nkp) % g->cg, i % nkp, alpha, beta, es);
}

static pdnnStatus_t bwdf_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_args *a = args;
    pdnn_wino_geom g;
    pdnn_wino_geom_init(prob, &g);
    if (g.kg == 0 || g.cg == 0) return PDNN_STATUS_SUCCESS; /* dw is empty */
    pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ctx->ws);
    bwdf_bufs b;
    bwdf_layout(&g, &ar, &b);
    const double work = (double)g.xi * (double)(g.g * g.cg) * (double)g.kg * (double)(g.ntiles + 1);
    const int nt = pdnn_par_threads(ctx->nthreads, g.g * g.cg * g.kg, work, PDNN_WINO_MIN_WORK);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        if (g.es == sizeof(float))
            bwdf_run_t(&g, &b, a->src, a->wei, a->dst, a->alpha, a->beta, sizeof(float));
        else
            bwdf_run_t(&g, &b, a->src, a->wei, a->dst, a->alpha, a->beta, sizeof(double));
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_bwd_filter_cpu_wino_nonfused = {
    "cpu:winograd_nonfused_f4x3", PDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED,
    PDNN_ISA_SCALAR, PDNN_IMPL_DETERMINISTIC, bwdf_supports, bwdf_workspace, bwdf_exec,
};

const pdnn_impl pdnn_conv_bwd_filter_cpu_wino5_nonfused = {
    "cpu:winograd_nonfused_f4x5", PDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED,
    PDNN_ISA_SCALAR, PDNN_IMPL_DETERMINISTIC, bwdf5_supports, bwdf_workspace, bwdf_exec,
};
