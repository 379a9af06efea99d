/* Backward filter by im2col + GEMM ("cpu:gemm", PDNN_CONVOLUTION_BWD_FILTER_ALGO_1).
 *
 * Per group g: dW_g[Kg x T] = alpha * dY_g[Kg x N*P] * col_g^T[N*P x T] + beta * dW_g
 * (conv_cpu_gemm.h). The reduction over the batch and the pixels is one GEMM K
 * dimension, the columns (n, p) in increasing order, cut into PDNN_GEMM_KC blocks at
 * fixed places: for each block every group's dY rows and im2col^T columns are packed
 * (threads split panels), then threads split the dW tiles and add the block's
 * products to dW (the first block blends with beta; dW unread when beta == 0). So the
 * sum runs in one fixed order whatever the thread count.
 *
 * Workspace: the tap table and one K block of packed dY and im2col^T for every group
 * (~ (K + C * prod(kern)) * 256 elements). */
#include "ops/conv/cpu/conv_cpu_gemm.h"
#include "core/registry.h"

typedef struct {
    pdnn_conv_gemm_tap *tab;
    char *ap; /* packed dY block, group g at ap + g * apg */
    char *bp; /* packed im2col^T block, group g at bp + g * bpg */
} bwdf_bufs;

static void bwdf_layout(const pdnn_conv_gemm_geom *g, pdnn_conv_gemm_arena *a, bwdf_bufs *b)
{
    b->tab = pdnn_conv_gemm_take(a, g->taps, sizeof(pdnn_conv_gemm_tap));
    b->ap = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->g, g->geo.kg + PDNN_GEMM_MR_MAX,
                                                       PDNN_GEMM_KC),
                                g->es);
    b->bp = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->g, g->taps + PDNN_GEMM_NR_MAX,
                                                       PDNN_GEMM_KC),
                                g->es);
}

static size_t bwdf_workspace(const void *prob)
{
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(prob, &g);
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    bwdf_bufs b;
    bwdf_layout(&g, &a, &b);
    return pdnn_conv_gemm_arena_bytes(&a);
}

static bool bwdf_supports(const void *prob, const char **why)
{
    if (!pdnn_conv_gemm_supports(prob, PDNN_CONV_BWD_FILTER, why)) return false;
    if (bwdf_workspace(prob) == SIZE_MAX) {
        *why = "workspace size overflows";
        return false;
    }
    return true;
}

static pdnnStatus_t bwdf_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *arg = args;
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(p, &g);
    if (g.geo.kg == 0 || g.taps == 0) return PDNN_STATUS_SUCCESS; /* dw has no elements */

    pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ctx->ws);
    bwdf_bufs b;
    bwdf_layout(&g, &ar, &b);
    pdnn_conv_gemm_taps(p, &g, b.tab);

    const pdnn_gemm_ukernel *uk = g.uk;
    const int mr = uk->mr, nr = uk->nr;
    const size_t es = g.es;
    const int64_t T = g.taps, kg = g.geo.kg, K = g.ncols;
    const int64_t mp = (kg + mr - 1) / mr, np = (T + nr - 1) / nr;
    const int64_t apg = mp * mr * PDNN_GEMM_KC, bpg = np * nr * PDNN_GEMM_KC;
    const pdnn_conv_gemm_tiles tl = pdnn_conv_gemm_tiling(uk, kg, T, g.g, ctx->nthreads);
    const char *x = arg->src, *dy = arg->wei;
    char *dw = arg->dst;
    const double alpha = arg->alpha, beta = arg->beta;
    const int nt = ctx->nthreads;

#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        int64_t pc = 0;
        do {
            const int64_t kc = K - pc < PDNN_GEMM_KC ? K - pc : PDNN_GEMM_KC;
            if (kc > 0) {
                pdnn_conv_gemm_origin org[PDNN_GEMM_KC]; /* each thread its own copy */
                pdnn_conv_gemm_origins(&g, pc, kc, org);
#pragma omp for schedule(static)
                for (int64_t i = 0; i < g.g * (mp + np); i++) {
                    const int64_t grp = i / (mp + np), q = i % (mp + np);
                    if (q < mp) { /* A = dY_g block: rows k, columns (n, p) */
                        const int64_t rows = kg - q * mr < mr ? kg - q * mr : mr;
                        const char *src = dy + (grp * kg + q * mr) * g.geo.ys[1] * (int64_t)es;
                        char *dst = b.ap + (grp * apg + q * mr * kc) * (int64_t)es;
                        if (g.ycol_affine) {
                            pdnn_conv_gemm_pack_panel(es, mr, rows, kc,
                                                      src + pc * g.ycs * (int64_t)es, g.geo.ys[1],
                                                      NULL, g.ycs, NULL, dst);
                        } else {
                            int64_t soff[PDNN_GEMM_KC];
                            for (int64_t s = 0; s < kc; s++)
                                soff[s] = pdnn_conv_gemm_ycol_off(&g, pc + s);
                            pdnn_conv_gemm_pack_panel(es, mr, rows, kc, src, g.geo.ys[1], NULL, 0,
                                                      soff, dst);
                        }
                    } else { /* B = col_g^T block: rows (n, p), columns taps */
                        const int64_t t0 = (q - mp) * nr;
                        const int64_t ntap = T - t0 < nr ? T - t0 : nr;
                        pdnn_conv_gemm_im2col_panel_t(&g, b.tab, x, grp, org, kc, t0, ntap,
                                                      b.bp + (grp * bpg + t0 * kc) * (int64_t)es);
                    }
                }
            }
#pragma omp for schedule(static)
            for (int64_t task = 0; task < tl.ntasks; task++) {
                const int64_t per = tl.mb * tl.nb, grp = task / per, r = task % per;
                const int64_t i0 = (r % tl.mb) * tl.mcp * mr, j0 = (r / tl.mb) * tl.ncp * nr;
                const int64_t mm = kg - i0 < tl.mcp * mr ? kg - i0 : tl.mcp * mr;
                const int64_t nn = T - j0 < tl.ncp * nr ? T - j0 : tl.ncp * nr;
                pdnn_gemm_macro(uk, mm, nn, kc, b.ap + (grp * apg + i0 * kc) * (int64_t)es,
                                kc * mr, b.bp + (grp * bpg + j0 * kc) * (int64_t)es, kc * nr,
                                dw + ((grp * kg + i0) * T + j0) * (int64_t)es, T, 1, NULL, alpha,
                                pc == 0 ? beta : 1.0);
            }
            pc += kc;
        } while (pc < K);
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_bwd_filter_cpu_gemm = {
    "cpu:gemm", PDNN_CONVOLUTION_BWD_FILTER_ALGO_1, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, bwdf_supports, bwdf_workspace, bwdf_exec,
};
