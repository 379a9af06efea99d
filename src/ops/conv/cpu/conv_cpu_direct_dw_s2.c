/* Stride-2 depthwise convolution on NCHW planes read in place (conv_cpu_direct_dw_s2.h),
 * AVX-512: no padded copies, no phase planes, no channel transposes
 * (src/cpu/ukernels/dwconv/dws2_ukernels.h):
 *  - forward: each x row read once per chunk of up to 15 outputs (3x3) and split into
 *    its column taps by permutes in registers, shared by the output rows of a block;
 *  - backward data: dx rows by chunks of 32 columns, even and odd columns summed apart
 *    from shifted loads of the dy rows their taps read, then interleaved;
 *  - backward filter: the forward's column taps times the dy rows, each tap's sum as 16
 *    lanes over the images in order and the plane, then summed in a fixed tree.
 * Threads split (image, channel) planes (forward, backward data; the next plane
 * prefetched row by row when planes are small) or channels (backward filter); every
 * output is one chain in an order fixed by the problem, so results do not depend on the
 * thread count; exact on small integers. Taps outside the input add nothing. */
#include <stdint.h>

#include "core/par.h"
#include "cpu/isa.h"
#include "cpu/ukernels/dwconv/dws2_ukernels.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_s2.h"

#define KMAX PDNN_DWS2_KMAX
/* The next plane is prefetched up to this many floats (x and y; larger ones would evict
 * the current plane from L1). */
#define S2_PF_MAX 4096
/* Backward filter: lane sums of a block of channels (floats, on the stack). */
#define S2_ACC 16384
/* Larger planes: rows this far ahead are prefetched. */
#define S2_PF_ROWS 8

bool pdnn_dws2_shape(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G, pdnn_dws2_geom *g)
{
    if (p->dtype != PDNN_DATA_FLOAT || p->c != p->g || p->k != p->g || p->g == 0) return false;
    if (pdnn_cpu_isa() < PDNN_ISA_AVX512) return false;
    if (G->kern[0] != 1 || G->in[0] != 1 || G->out[0] != 1 || G->pad[0] != 0) return false;
    if (G->xs[4] != 1 || G->ys[4] != 1 || (G->xs[1] == 1 && G->ys[1] == 1)) return false;
    if (G->str[1] != 2 || G->str[2] != 2 || G->dil[1] != 1 || G->dil[2] != 1) return false;
    if (G->kern[1] > KMAX || G->kern[2] > KMAX || G->pad[1] < 0 || G->pad[2] < 0) return false;
    if (p->dir == PDNN_CONV_BWD_FILTER && p->n * G->out[1] * G->out[2] < PDNN_DWS2_W_MIN)
        return false;
    const pdnn_dws2_geom s = {G->in[1],   G->in[2],  G->out[1], G->out[2],
                              G->kern[1], G->kern[2], G->pad[1], G->pad[2],
                              (ptrdiff_t)G->xs[3], (ptrdiff_t)G->ys[3]};
    *g = s;
    return true;
}

static bool s2_geom(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G, pdnn_dws2_plan *pl)
{
    pdnn_dws2_geom g;
    if (!pdnn_dws2_shape(p, G, &g)) return false;
    /* rows of at most half a chunk's lanes: the channel blocks measure faster */
    if (2 * G->out[2] <= 16 - (G->kern[2] - 1) / 2) return false;
    return pdnn_f32_dws2_plan__avx512(&g, pl) != 0;
}

/* The offsets within a channel's filter of its taps in (r1, r2) order as a
 * cross-correlation. */
static void s2_woffs(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G, int64_t *wo)
{
    for (int64_t r1 = 0, t = 0; r1 < G->kern[1]; r1++)
        for (int64_t r2 = 0; r2 < G->kern[2]; r2++, t++) wo[t] = pdnn_dw_tap_off(p, G, r1, r2);
}

static int s2_threads(int nthreads, int64_t units, double work)
{
    return pdnn_par_threads(nthreads, units, work, 32768.0);
}

bool pdnn_dws2_applies(const pdnn_conv_problem *p)
{
    pdnn_conv_geom3 G;
    pdnn_dws2_plan pl;
    pdnn_conv_widen(p, &G);
    return s2_geom(p, &G, &pl);
}

/* Forward (src x, dst y) or backward data (src dy, dst dx). */
static bool s2_conv(const pdnn_conv_problem *p, bool bwd, const float *src, const float *w,
                    float *dst, float alpha, float beta, int nthreads)
{
    pdnn_conv_geom3 G;
    pdnn_dws2_plan pl;
    pdnn_conv_widen(p, &G);
    if (!s2_geom(p, &G, &pl)) return false;
    const pdnn_dws2_geom g = pl.g;
    const int64_t *ss = bwd ? G.ys : G.xs, *ds = bwd ? G.xs : G.ys;
    const int64_t C = p->g, units = p->n * C;
    const int64_t splane = bwd ? g.OH * g.OW : g.H * g.W, dplane = bwd ? g.H * g.W : g.OH * g.OW;
    const bool pf = splane + dplane <= S2_PF_MAX;
    const int nt = s2_threads(nthreads, units, (double)units * g.OH * g.OW * g.kh * g.kw);
    int64_t wo[KMAX * KMAX];
    s2_woffs(p, &G, wo);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        float wt[KMAX * KMAX];
        int64_t u0, u1;
        pdnn_par_share(units, &u0, &u1);
        for (int64_t u = u0; u < u1; u++) {
            const int64_t n = u / C, c = u % C;
            for (int64_t t = 0; t < g.kh * g.kw; t++) wt[t] = w[c * G.ws[0] + wo[t]];
            const int64_t un = (u + 1) / C, uc = (u + 1) % C;
            const ptrdiff_t pfo = (ptrdiff_t)(pf ? (u + 1 < u1 ? (un - n) * ss[0] + (uc - c) * ss[1] : 0)
                                                 : S2_PF_ROWS * ss[3]);
            const float *s = src + n * ss[0] + c * ss[1];
            float *d = dst + n * ds[0] + c * ds[1];
            if (bwd)
                pdnn_f32_dws2_bwdd__avx512(&pl, s, wt, d, alpha, beta, pfo);
            else
                pdnn_f32_dws2_fwd__avx512(&pl, s, wt, d, alpha, beta, pfo);
        }
    }
    return true;
}

bool pdnn_dws2_fwd(const pdnn_conv_problem *p, const float *x, const float *w, float *y,
                   float alpha, float beta, int nthreads)
{
    return s2_conv(p, false, x, w, y, alpha, beta, nthreads);
}

bool pdnn_dws2_bwd_data(const pdnn_conv_problem *p, const float *dy, const float *w, float *dx,
                        float alpha, float beta, int nthreads)
{
    return s2_conv(p, true, dy, w, dx, alpha, beta, nthreads);
}

bool pdnn_dws2_bwd_filter(const pdnn_conv_problem *p, const float *x, const float *dy,
                          float *dw, float alpha, float beta, int nthreads)
{
    pdnn_conv_geom3 G;
    pdnn_dws2_plan pl;
    pdnn_conv_widen(p, &G);
    if (!s2_geom(p, &G, &pl)) return false;
    const pdnn_dws2_geom g = pl.g;
    const int64_t C = p->g, kh = g.kh, kw = g.kw, T = kh * kw;
    /* channels a block (their lane sums on the stack), as even a split between the threads
     * as that allows (the sums do not depend on it) */
    const int nt = s2_threads(nthreads, C, (double)p->n * C * g.OH * g.OW * T);
    const int64_t cmax = S2_ACC / (T * 16) < 1 ? 1 : S2_ACC / (T * 16);
    const int64_t ct = (C + nt - 1) / nt, cb = ct < cmax ? ct : cmax, nblk = (C + cb - 1) / cb;
    const bool pf = g.H * g.W + g.OH * g.OW <= S2_PF_MAX;
    int64_t wo[KMAX * KMAX];
    s2_woffs(p, &G, wo);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        _Alignas(64) float acc[S2_ACC];
        int64_t b0, b1;
        pdnn_par_share(nblk, &b0, &b1);
        for (int64_t blk = b0; blk < b1; blk++) {
            const int64_t c0 = blk * cb, nc = C - c0 < cb ? C - c0 : cb;
            for (int64_t j = 0; j < nc * T * 16; j++) acc[j] = 0;
            for (int64_t n = 0; n < p->n; n++) /* a block's planes of an image in a row */
                for (int64_t c = c0; c < c0 + nc; c++) {
                    const bool nx = c + 1 < c0 + nc;
                    const ptrdiff_t pfx = (ptrdiff_t)(pf ? (nx ? G.xs[1] : 0) : S2_PF_ROWS * G.xs[3]);
                    const ptrdiff_t pfy = (ptrdiff_t)(pf && nx ? G.ys[1] : 0);
                    pdnn_f32_dws2_bwdf__avx512(&pl, x + n * G.xs[0] + c * G.xs[1],
                                               dy + n * G.ys[0] + c * G.ys[1], pfx, pfy,
                                               acc + (c - c0) * T * 16);
                }
            for (int64_t c = c0; c < c0 + nc; c++) {
                float sum[KMAX * KMAX];
                for (int64_t t = 0; t < T; t++)
                    sum[t] = pdnn_dw_lanesum16(acc + ((c - c0) * T + t) * 16);
                pdnn_dw_blend_taps(dw + c * G.ws[0], wo, T, sum, 1, alpha, beta);
            }
        }
    }
    return true;
}

const pdnn_dw_path pdnn_dws2_path = {pdnn_dws2_applies,
                                     {pdnn_dws2_fwd, pdnn_dws2_bwd_data, pdnn_dws2_bwd_filter}};
