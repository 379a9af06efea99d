/* Depthwise 3 x 3 backward filter on AVX2 (conv_cpu_direct_dw_bw2.h): NCHW planes read in
 * place, one channel at a time, by the micro-kernel of dwbw_ukernels.h (per tap 8 lanes
 * of sums in a register over the channel's images and rows, stride 2 by even and odd
 * column shuffles), the lanes summed in a fixed tree, then blended into dw. Threads split the channels: every tap's sum is one
 * chain in an order fixed by the problem, so results do not depend on the thread count;
 * exact on small integers. */
#include <stdint.h>

#include "core/par.h"
#include "cpu/isa.h"
#include "cpu/ukernels/dwconv/dwbw_ukernels.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_bw2.h"

/* The geometry this file serves (see the header). */
static bool bw2_geom(const pdnn_conv_problem *p, pdnn_conv_geom3 *G)
{
    if (p->dir != PDNN_CONV_BWD_FILTER || p->dtype != PDNN_DATA_FLOAT) return false;
    if (p->c != p->g || p->k != p->g || p->g == 0) return false;
    if (pdnn_cpu_isa() != PDNN_ISA_AVX2) return false;
    pdnn_conv_widen(p, G);
    if (G->kern[0] != 1 || G->in[0] != 1 || G->out[0] != 1 || G->pad[0] != 0) return false;
    if (G->kern[1] != 3 || G->kern[2] != 3 || G->dil[1] != 1 || G->dil[2] != 1) return false;
    if (G->str[1] != G->str[2] || (G->str[1] != 1 && G->str[1] != 2)) return false;
    if (G->pad[1] < 0 || G->pad[2] < 0) return false;
    if (G->xs[4] != 1 || G->ys[4] != 1 || (G->xs[1] == 1 && G->ys[1] == 1)) return false;
    return G->out[2] <= PDNN_DWBW2_MAXW && G->in[2] <= 2 * PDNN_DWBW2_MAXW;
}

bool pdnn_dwbw2_applies(const pdnn_conv_problem *p)
{
    pdnn_conv_geom3 G;
    return bw2_geom(p, &G);
}

bool pdnn_dwbw2_bwd_filter(const pdnn_conv_problem *p, const float *x, const float *dy,
                           float *dw, float alpha, float beta, int nthreads)
{
    pdnn_conv_geom3 G;
    if (!bw2_geom(p, &G)) return false;
    const int64_t C = p->g, m1 = G.out[1], m2 = G.out[2];
    int64_t wo[9];
    for (int64_t r1 = 0; r1 < 3; r1++)
        for (int64_t r2 = 0; r2 < 3; r2++) wo[3 * r1 + r2] = pdnn_dw_tap_off(p, &G, r1, r2);
    const int nt = pdnn_par_threads(nthreads, C, (double)p->n * C * m1 * m2 * 9, 32768.0);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        int64_t c0, c1;
        pdnn_par_share(C, &c0, &c1);
        for (int64_t c = c0; c < c1; c++) {
            float sum[9];
            pdnn_f32_dwbw3_plane__avx2((size_t)G.str[1], (size_t)p->n, x + c * G.xs[1],
                                       (ptrdiff_t)G.xs[0], (ptrdiff_t)G.xs[3], (size_t)G.in[1],
                                       (size_t)G.in[2], (size_t)G.pad[1], (size_t)G.pad[2],
                                       dy + c * G.ys[1], (ptrdiff_t)G.ys[0], (ptrdiff_t)G.ys[3],
                                       (size_t)m1, (size_t)m2, sum);
            pdnn_dw_blend_taps(dw + c * G.ws[0], wo, 9, sum, 1, alpha, beta);
        }
    }
    return true;
}

static bool bw2_none(const pdnn_conv_problem *p, const float *src, const float *wei, float *dst,
                     float alpha, float beta, int nthreads)
{
    return false;
}

const pdnn_dw_path pdnn_dwbw2_path = {pdnn_dwbw2_applies,
                                      {bw2_none, bw2_none, pdnn_dwbw2_bwd_filter}};
