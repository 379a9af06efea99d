/* Forward convolution by im2col + GEMM ("cpu:gemm", PDNN_CONVOLUTION_FWD_ALGO_GEMM).
 *
 * Per group g: Y_g[Kg x N*P] = W_g[Kg x T] * col_g[T x N*P] (conv_cpu_gemm.h). The
 * filter rows of every group are packed once into GEMM A panels; the columns (n, p) of
 * a group are processed in chunks of at most ~4 MiB of im2col data, gathered from x
 * (any strides, padding as zeros) straight into GEMM B panels. Threads split the
 * packing by panel and the product by output tile; each y element is one sum over T in
 * a fixed order (PDNN_GEMM_KC blocks), so results do not depend on the thread count.
 * y is written once per K block, never read when beta == 0 (later blocks add to the
 * partial sums already stored).
 *
 * Workspace: the tap table, the packed filter (~ K * T elements) and one chunk of
 * packed columns (<= ~4 MiB unless a single panel is larger). */
#include "ops/conv/cpu/conv_cpu_gemm.h"
#include "core/registry.h"

typedef struct {
    pdnn_conv_gemm_tap *tab;
    char *wp; /* packed W, group g at wp + g * apg elements */
    char *bp; /* one chunk of packed columns */
} fwd_bufs;

static int64_t fwd_chunk(const pdnn_conv_gemm_geom *g)
{
    return pdnn_conv_gemm_chunk_cols(g->taps, g->es, g->ncols);
}

static void fwd_layout(const pdnn_conv_gemm_geom *g, pdnn_conv_gemm_arena *a, fwd_bufs *b)
{
    b->tab = pdnn_conv_gemm_take(a, g->taps, sizeof(pdnn_conv_gemm_tap));
    b->wp = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->g, g->geo.kg + PDNN_GEMM_MR_MAX, g->taps),
                                g->es);
    b->bp = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(1, fwd_chunk(g) + PDNN_GEMM_NR_MAX,
                                                       g->taps),
                                g->es);
}

static size_t fwd_workspace(const void *prob)
{
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(prob, &g);
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    fwd_bufs b;
    fwd_layout(&g, &a, &b);
    return pdnn_conv_gemm_arena_bytes(&a);
}

static bool fwd_supports(const void *prob, const char **why)
{
    if (!pdnn_conv_gemm_supports(prob, PDNN_CONV_FWD, why)) return false;
    if (fwd_workspace(prob) == SIZE_MAX) {
        *why = "workspace size overflows";
        return false;
    }
    return true;
}

static pdnnStatus_t fwd_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *arg = args;
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(p, &g);
    if (g.ncols == 0 || g.geo.kg == 0) return PDNN_STATUS_SUCCESS; /* y has no elements */

    pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ctx->ws);
    fwd_bufs b;
    fwd_layout(&g, &ar, &b);
    pdnn_conv_gemm_taps(p, &g, b.tab);

    const pdnn_gemm_ukernel *uk = g.uk;
    const int mr = uk->mr, nr = uk->nr;
    const size_t es = g.es;
    const int64_t T = g.taps, kg = g.geo.kg, mp = (kg + mr - 1) / mr, apg = mp * mr * T;
    const int64_t chunk = fwd_chunk(&g), nch = (g.ncols + chunk - 1) / chunk;
    const pdnn_conv_gemm_tiles tl = pdnn_conv_gemm_tiling(uk, kg, chunk, 1, ctx->nthreads);
    const char *x = arg->src, *w = arg->wei;
    char *y = arg->dst;
    const double alpha = arg->alpha, beta = arg->beta;
    const int nt = ctx->nthreads;

#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        if (T > 0) {
#pragma omp for schedule(static)
            for (int64_t i = 0; i < g.g * mp; i++) {
                const int64_t grp = i / mp, q = i % mp;
                const int64_t rows = kg - q * mr < mr ? kg - q * mr : mr;
                pdnn_gemm_pack_a(uk, rows, T, w + (grp * kg + q * mr) * T * (int64_t)es, T, 1,
                                 b.wp + (grp * apg + q * mr * T) * (int64_t)es);
            }
        }
        for (int64_t ch = 0; ch < g.g * nch; ch++) {
            const int64_t grp = ch / nch, col0 = (ch % nch) * chunk;
            const int64_t ncol = g.ncols - col0 < chunk ? g.ncols - col0 : chunk;
            if (T > 0) {
#pragma omp for schedule(static)
                for (int64_t q = 0; q < (ncol + nr - 1) / nr; q++) {
                    const int64_t n = ncol - q * nr < nr ? ncol - q * nr : nr;
                    pdnn_conv_gemm_im2col_panel(&g, b.tab, x, grp, col0 + q * nr, n,
                                                b.bp + q * T * nr * (int64_t)es);
                }
            }
#pragma omp for schedule(static)
            for (int64_t task = 0; task < tl.ntasks; task++) {
                const int64_t i0 = (task % tl.mb) * tl.mcp * mr;
                const int64_t j0 = (task / tl.mb) * tl.ncp * nr;
                if (i0 >= kg || j0 >= ncol) continue;
                const int64_t mm = kg - i0 < tl.mcp * mr ? kg - i0 : tl.mcp * mr;
                const int64_t nn = ncol - j0 < tl.ncp * nr ? ncol - j0 : tl.ncp * nr;
                const char *ap = b.wp + (grp * apg + i0 * T) * (int64_t)es;
                const char *bpp = b.bp + j0 * T * (int64_t)es;
                char *c = y + (grp * kg + i0) * g.geo.ys[1] * (int64_t)es;
                if (g.ycol_affine) {
                    c += (col0 + j0) * g.ycs * (int64_t)es;
                    pdnn_gemm_macro(uk, mm, nn, T, ap, T * mr, bpp, T * nr, c, g.geo.ys[1], g.ycs,
                                    NULL, alpha, beta);
                } else {
                    int64_t coff[PDNN_CONV_GEMM_NC_MAX];
                    for (int64_t j = 0; j < nn; j++)
                        coff[j] = pdnn_conv_gemm_ycol_off(&g, col0 + j0 + j);
                    pdnn_gemm_macro(uk, mm, nn, T, ap, T * mr, bpp, T * nr, c, g.geo.ys[1], 0,
                                    coff, alpha, beta);
                }
            }
        }
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_fwd_cpu_gemm = {
    "cpu:gemm", PDNN_CONVOLUTION_FWD_ALGO_GEMM, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, fwd_supports, fwd_workspace, fwd_exec,
};
