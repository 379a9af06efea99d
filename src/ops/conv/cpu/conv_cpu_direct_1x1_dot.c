/* Backward filter of NCHW-like 1x1 convolutions with a small filter, by dot products
 * along the pixels (part of "cpu:direct_1x1", conv_cpu_direct_1x1_bwd_filter.c):
 *   dW[k][c] = alpha * sum_n sum_p dy[n][k][p] * x[n][c][p] + beta * dW[k][c]
 * dy's and x's channel rows are read in place, contiguous along the pixels; the 6 x 4
 * dot-tile kernel (cpu/ukernels/conv1x1/conv1x1_ukernels.h) keeps 16 lane sums per filter
 * element in registers, the lanes cut at fixed places from each image's first pixel.
 * Where dy and x fit in half of L2 (one image of 28 x 28 with 224 channels) each tile
 * runs every image and pixel in one call and writes its dW elements once, the lanes
 * added in the kernel's fixed tree: no workspace. Larger ones run pixel blocks of
 * DOT_KC from each image's start, tile by tile within a block (the block's rows stay in
 * cache), the lanes kept in the workspace between blocks. Threads split the filter's
 * tiles (each thread a run of whole tile rows where there are enough), so nothing
 * depends on the thread count; exact on small integers. Against the GEMM form it needs
 * no transposed copy of either operand, which dominates when one side has few channels. */
#include "ops/conv/cpu/conv_cpu_direct_1x1.h"

#include "core/par.h"
#include "cpu/cache.h"
#include "cpu/ukernels/conv1x1/conv1x1_ukernels.h"

/* Pixels per kernel call (a multiple of PDNN_DOT_LANES): long calls amortize the lane
 * sums' loads and stores (measured: 1024 ahead of 256 and 4096). */
#define DOT_KC 1024
/* Largest filter (elements, all groups) served: the lane sums take 64 bytes each, and
 * from 64 x 256 on the GEMM form is faster (ResNet-50 res2b_branch2a minibatch 32, one
 * thread: 35.8 -> 29.3 ms; 64 x 64 and 32 x 192 stay faster here: 7.2 against 8.5,
 * 2.6 against 3.2). */
#define DOT_MAX_ELEMS (8 * 1024)
/* Most channels on the smaller side: above it the GEMM form's copies are amortized.
 * Fewest pixels per image: with short rows the GEMM form is faster (14 x 14: 2x). */
#define DOT_MIN_PIX 512
#define DOT_MAX_SMALL 64

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

bool pdnn_conv_1x1_dot_applies(const pdnn_conv_gemm_geom *g)
{
    const pdnn_conv_geom3 *G = &g->geo;
    if (g->t != PDNN_DATA_FLOAT || pdnn_cpu_isa() < PDNN_ISA_AVX512) return false;
    if (g->npix < DOT_MIN_PIX || G->kg == 0 || G->cg == 0) return false;
    if (g->g * G->kg * G->cg > DOT_MAX_ELEMS || min64(G->kg, G->cg) > DOT_MAX_SMALL) return false;
    int64_t xst[3], yst[3], sx, sy;
    for (int d = 0; d < 3; d++) {
        xst[d] = G->str[d] * G->xs[2 + d];
        yst[d] = G->ys[2 + d];
    }
    return pdnn_conv_1x1_pixel_step(G, xst, &sx) && sx == 1 &&
           pdnn_conv_1x1_pixel_step(G, yst, &sy) && sy == 1;
}

#define MR PDNN_DOTR_MR
#define NR PDNN_DOTR_NR
/* floats of lane sums per tile */
#define SLOT (MR * NR * PDNN_DOTR_LANES)

/* One pass over dy and x per tile (lanes in registers): both fit in half of L2. */
static bool dot_one_pass(const pdnn_conv_gemm_geom *g)
{
    const size_t bytes = (size_t)(g->n * g->npix) * (size_t)(g->g * (g->geo.kg + g->geo.cg)) * sizeof(float);
    return bytes <= pdnn_cpu_cache_sizes()->l2 / 2;
}

size_t pdnn_conv_1x1_dot_workspace(const pdnn_conv_gemm_geom *g)
{
    if (dot_one_pass(g)) return 0;
    const int64_t tiles = g->g * cdiv(g->geo.kg, MR) * cdiv(g->geo.cg, NR);
    return (size_t)tiles * SLOT * sizeof(float) + 64;
}

void pdnn_conv_1x1_dot_run(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                           const pdnn_conv_args *arg, void *ws, int nt)
{
    const pdnn_conv_geom3 *G = &g->geo;
    const int64_t kg = G->kg, cg = G->cg, ws0 = p->ws[0], ws1 = p->ws[1], np = g->npix;
    const int64_t mt = cdiv(kg, MR), ct = cdiv(cg, NR), tiles = g->g * mt * ct;
    const bool one = dot_one_pass(g);
    float *part = one ? NULL : (float *)(((uintptr_t)ws + 63) & ~(uintptr_t)63);
    const float *x = arg->src, *dy = arg->wei;
    float *dw = arg->dst;
    const float alpha = (float)arg->alpha, beta = (float)arg->beta;
    const pdnn_f32_dotr_ukernel_fn uk = pdnn_f32_dotr_ukernel_6x4__avx512;
    /* runs of whole tile rows per thread where each thread gets two or more */
    const int64_t rows = g->g * mt;
    const int64_t ntasks = min64(tiles, nt > 1 ? (int64_t)nt : 1);
    PDNN_PAR_FOR(nt, t, ntasks, {
        int64_t t0 = tiles * t / ntasks, t1 = tiles * (t + 1) / ntasks;
        if (rows >= 2 * ntasks) {
            t0 = rows * t / ntasks * ct;
            t1 = rows * (t + 1) / ntasks * ct;
        }
        for (int64_t b0 = 0; b0 < (one ? 1 : g->n * cdiv(np, DOT_KC)); b0++) {
            const int64_t nb = cdiv(np, DOT_KC), n = one ? 0 : b0 / nb;
            const int64_t p0 = one ? 0 : (b0 % nb) * DOT_KC;
            const int64_t kc = one ? np : min64(DOT_KC, np - p0);
            const int mode = one ? 0
                                 : (b0 > 0 ? PDNN_DOTR_LOAD : 0) |
                                       (b0 + 1 < g->n * nb ? PDNN_DOTR_STORE : 0);
            for (int64_t u = t0; u < t1; u++) {
                const int64_t grp = u / (mt * ct), ti = (u / ct) % mt, tj = u % ct;
                const int64_t k0 = ti * MR, c0 = tj * NR;
                const int64_t mm = min64(MR, kg - k0), nn = min64(NR, cg - c0);
                float tile[MR * NR];
                float *c = ws1 == 1 ? dw + (grp * kg + k0) * ws0 + c0 : tile;
                uk((size_t)mm, (size_t)nn, one ? (size_t)g->n : 1, (size_t)kc,
                   dy + n * G->ys[0] + (grp * kg + k0) * G->ys[1] + p0, G->ys[1], G->ys[0],
                   x + n * G->xs[0] + (grp * cg + c0) * G->xs[1] + p0, G->xs[1], G->xs[0],
                   part ? part + u * SLOT : NULL, mode, c, ws1 == 1 ? ws0 : NR,
                   ws1 == 1 ? alpha : 1.0f, ws1 == 1 ? beta : 0.0f);
                if (ws1 != 1 && !(mode & PDNN_DOTR_STORE))
                    for (int64_t i = 0; i < mm; i++)
                        for (int64_t j = 0; j < nn; j++) {
                            float *e = dw + (grp * kg + k0 + i) * ws0 + (c0 + j) * ws1;
                            float v = alpha * tile[i * NR + j];
                            if (beta != 0) {
                                const float w = beta * *e;
                                v = v + w;
                            }
                            *e = v;
                        }
            }
        }
    });
}
