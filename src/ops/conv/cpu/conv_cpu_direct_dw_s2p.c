/* Stride-2 depthwise convolution of small planes read in place (conv_cpu_direct_dw_s2p.h),
 * AVX-512 (src/cpu/ukernels/dwconv/dws2p_ukernels.h): output rows of at most 8 columns
 * fill half a vector, too few for the stride-2 path's chunks (conv_cpu_direct_dw_s2.c),
 * so two output rows share one:
 *  - forward: for each tap row, the two x rows the pair reads loaded once, every tap
 *    column one two-source permute into the pair's lanes and one masked multiply-add;
 *  - backward data: one dx row a vector, the dy rows its taps read loaded once, two tap
 *    columns (of opposite dx column parities) a permute and a multiply-add;
 *  - backward filter: the forward's permuted x taps times the dy row pair, the taps' sums
 *    as 16 lanes in registers over the images and the plane of a channel, then summed
 *    in a fixed tree.
 * No copies, no transposes, no scratch. Threads split (image, channel) planes (forward,
 * backward data; calls of up to S2P_GROUP consecutive channels) or channels (backward
 * filter); every output is one chain in an order fixed by the problem, so results do not
 * depend on the thread count; exact on small integers. Taps outside the input add
 * nothing. */
#include <stdint.h>

#include "core/par.h"
#include "cpu/isa.h"
#include "cpu/ukernels/dwconv/dws2p_ukernels.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_s2.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_s2p.h"

#define KMAX PDNN_DWS2P_KMAX
#define S2P_GROUP 16 /* planes a kernel call (forward, backward data) */

/* The stride-2 set (pdnn_dws2_shape, backward filter from PDNN_DWS2_W_MIN output pixels a
 * channel: at 14x14 -> 7x7, minibatch 4 101 vs 110 us, 8: 249 vs 208 us against the
 * channel blocks), then the plan's own limits. */
static bool s2p_geom(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G, pdnn_dws2p_plan *pl)
{
    pdnn_dws2_geom g;
    return pdnn_dws2_shape(p, G, &g) && pdnn_f32_dws2p_plan__avx512(&g, pl) != 0;
}

static int s2p_threads(int nthreads, int64_t units, double work)
{
    return pdnn_par_threads(nthreads, units, work, 32768.0);
}

static int64_t s2p_min(int64_t a, int64_t b) { return a < b ? a : b; }

/* The offsets within a channel's filter of its taps in (r1, r2) order as a
 * cross-correlation; true when they are 0, 1, ... (the taps then read in place). */
static bool s2p_woffs(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G, int64_t *wo)
{
    bool seq = true;
    for (int64_t r1 = 0, t = 0; r1 < G->kern[1]; r1++)
        for (int64_t r2 = 0; r2 < G->kern[2]; r2++, t++) {
            wo[t] = pdnn_dw_tap_off(p, G, r1, r2);
            seq = seq && wo[t] == t;
        }
    return seq;
}

bool pdnn_dws2p_applies(const pdnn_conv_problem *p)
{
    pdnn_conv_geom3 G;
    pdnn_dws2p_plan pl;
    pdnn_conv_widen(p, &G);
    return s2p_geom(p, &G, &pl);
}

/* Forward (src x, dst y) or backward data (src dy, dst dx). */
static bool s2p_conv(const pdnn_conv_problem *p, bool bwd, const float *src, const float *w,
                     float *dst, float alpha, float beta, int nthreads)
{
    pdnn_conv_geom3 G;
    pdnn_dws2p_plan pl;
    pdnn_conv_widen(p, &G);
    if (!s2p_geom(p, &G, &pl)) return false;
    const int64_t *ss = bwd ? G.ys : G.xs, *ds = bwd ? G.xs : G.ys;
    const int64_t C = p->g, units = p->n * C;
    const int nt = s2p_threads(nthreads, units,
                               (double)units * G.out[1] * G.out[2] * G.kern[1] * G.kern[2]);
    int64_t wo[KMAX * KMAX];
    const bool seq = s2p_woffs(p, &G, wo);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        float wb[S2P_GROUP * KMAX * KMAX];
        int64_t u0, u1;
        pdnn_par_share(units, &u0, &u1);
        for (int64_t u = u0; u < u1;) {
            const int64_t n = u / C, c = u % C, np = s2p_min(S2P_GROUP, s2p_min(C - c, u1 - u));
            ptrdiff_t wcs;
            const float *wp =
                pdnn_dw_taps(w, G.ws[0], c, np, wo, G.kern[1] * G.kern[2], seq, wb, &wcs);
            const float *s = src + n * ss[0] + c * ss[1];
            float *d = dst + n * ds[0] + c * ds[1];
            if (bwd)
                pdnn_f32_dws2p_bwdd__avx512(&pl, (size_t)np, s, (ptrdiff_t)ss[1], wp, wcs, d,
                                            (ptrdiff_t)ds[1], alpha, beta);
            else
                pdnn_f32_dws2p_fwd__avx512(&pl, (size_t)np, s, (ptrdiff_t)ss[1], wp, wcs, d,
                                           (ptrdiff_t)ds[1], alpha, beta);
            u += np;
        }
    }
    return true;
}

bool pdnn_dws2p_fwd(const pdnn_conv_problem *p, const float *x, const float *w, float *y,
                    float alpha, float beta, int nthreads)
{
    return s2p_conv(p, false, x, w, y, alpha, beta, nthreads);
}

bool pdnn_dws2p_bwd_data(const pdnn_conv_problem *p, const float *dy, const float *w,
                         float *dx, float alpha, float beta, int nthreads)
{
    return s2p_conv(p, true, dy, w, dx, alpha, beta, nthreads);
}

bool pdnn_dws2p_bwd_filter(const pdnn_conv_problem *p, const float *x, const float *dy,
                           float *dw, float alpha, float beta, int nthreads)
{
    pdnn_conv_geom3 G;
    pdnn_dws2p_plan pl;
    pdnn_conv_widen(p, &G);
    if (!s2p_geom(p, &G, &pl)) return false;
    const int64_t C = p->g, kh = G.kern[1], kw = G.kern[2];
    const int nt = s2p_threads(nthreads, C, (double)p->n * C * G.out[1] * G.out[2] * kh * kw);
    int64_t wo[KMAX * KMAX];
    s2p_woffs(p, &G, wo);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        float sum[KMAX * KMAX];
        int64_t c0, c1;
        pdnn_par_share(C, &c0, &c1);
        for (int64_t c = c0; c < c1; c++) {
            pdnn_f32_dws2p_bwdf__avx512(&pl, (size_t)p->n, x + c * G.xs[1], (ptrdiff_t)G.xs[0],
                                        dy + c * G.ys[1], (ptrdiff_t)G.ys[0], sum);
            pdnn_dw_blend_taps(dw + c * G.ws[0], wo, kh * kw, sum, 1, alpha, beta);
        }
    }
    return true;
}

const pdnn_dw_path pdnn_dws2p_path = {pdnn_dws2p_applies,
                                     {pdnn_dws2p_fwd, pdnn_dws2p_bwd_data, pdnn_dws2p_bwd_filter}};
