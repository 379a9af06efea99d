/* Backward filter of NCHW-like 1x1 convolutions with a small filter, by dot products
 * along the pixels (part of "cpu:direct_1x1", conv_cpu_direct_1x1_bwd_filter.c):
 *   dW[k][c] = alpha * sum_n sum_p dy[n][k][p] * x[n][c][p] + beta * dW[k][c]
 * dy's and x's channel rows are read in place, contiguous along the pixels; the dot-tile
 * kernel (cpu/ukernels/gemm/dot_ukernels.h) keeps 16 lane sums per filter element in the
 * workspace across images and pixel blocks (blocks start at multiples of DOT_KC from
 * each image's first pixel), and each element's 16 lanes are added in lane order at the
 * end. Threads split the filter's 4 x 4 tiles, so nothing depends on the thread count;
 * exact on small integers. Against the GEMM form it needs no transposed copy of either
 * operand, which dominates when one side has few channels. */
#include "ops/conv/cpu/conv_cpu_direct_1x1.h"

#include "cpu/ukernels/gemm/dot_ukernels.h"

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

size_t pdnn_conv_1x1_dot_workspace(const pdnn_conv_gemm_geom *g)
{
    const int64_t tiles = g->g * cdiv(g->geo.kg, 4) * cdiv(g->geo.cg, 4);
    return (size_t)tiles * 16 * PDNN_DOT_LANES * sizeof(float) + 64;
}

void pdnn_conv_1x1_dot_run(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                           const pdnn_conv_args *arg, void *ws, int nt)
{
    const pdnn_conv_geom3 *G = &g->geo;
    const int64_t kg = G->kg, cg = G->cg, ws0 = p->ws[0], ws1 = p->ws[1], np = g->npix;
    const int64_t mt = cdiv(kg, 4), ct = cdiv(cg, 4), tiles = g->g * mt * ct;
    const int64_t slot = 16 * PDNN_DOT_LANES; /* floats per tile */
    float *part = (float *)(((uintptr_t)ws + 63) & ~(uintptr_t)63);
    const float *x = arg->src, *dy = arg->wei;
    float *dw = arg->dst;
    const float alpha = (float)arg->alpha, beta = (float)arg->beta;
    const int64_t ntasks = min64(tiles, nt > 1 ? (int64_t)nt : 1);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t t = 0; t < ntasks; t++) {
        const int64_t t0 = tiles * t / ntasks, t1 = tiles * (t + 1) / ntasks;
        for (int64_t i = t0 * slot; i < t1 * slot; i++) part[i] = 0;
        for (int64_t n = 0; n < g->n; n++)
            for (int64_t p0 = 0; p0 < np; p0 += DOT_KC) {
                const int64_t kc = min64(DOT_KC, np - p0);
                for (int64_t u = t0; u < t1; u++) {
                    const int64_t grp = u / (mt * ct), ti = (u / ct) % mt, tj = u % ct;
                    const int64_t k0 = ti * 4, c0 = tj * 4;
                    pdnn_f32_dot_ukernel_4x4__avx512(
                        (size_t)min64(4, kg - k0), (size_t)min64(4, cg - c0), (size_t)kc,
                        dy + n * G->ys[0] + (grp * kg + k0) * G->ys[1] + p0, G->ys[1],
                        x + n * G->xs[0] + (grp * cg + c0) * G->xs[1] + p0, G->xs[1],
                        part + u * slot);
                }
            }
        for (int64_t u = t0; u < t1; u++) {
            const int64_t grp = u / (mt * ct), ti = (u / ct) % mt, tj = u % ct;
            for (int64_t i = 0; i < min64(4, kg - ti * 4); i++)
                for (int64_t j = 0; j < min64(4, cg - tj * 4); j++) {
                    const float *l = part + u * slot + (i * 4 + j) * PDNN_DOT_LANES;
                    float s = 0;
                    for (int q = 0; q < PDNN_DOT_LANES; q++) s += l[q];
                    float *e = dw + (grp * kg + ti * 4 + i) * ws0 + (tj * 4 + j) * ws1;
                    float v = alpha * s;
                    if (beta != 0) {
                        const float w = beta * *e;
                        v = v + w;
                    }
                    *e = v;
                }
        }
    }
}
