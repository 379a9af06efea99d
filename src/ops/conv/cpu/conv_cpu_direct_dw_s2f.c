/* Stride-2 3 x 3 depthwise forward and backward filter on planes whose output rows fit a
 * vector (conv_cpu_direct_dw_s2f.h), AVX-512 (the plan: dws2f_ukernels.h; the kernels:
 * dws2r_ukernels.h): each x row (of two planes at up to 7 output columns, their halves
 * of a vector) loaded once and split by three permutes into its column phases (even,
 * odd and even-from-2 columns), which stay in registers for the output rows that read
 * that row; every tap of 16 outputs is then one masked multiply-add. Rows of 16 to 32
 * output columns run two vectors a row, up to S2F_WIDE_PIX output pixels a channel
 * (MobileNet-v2 b4 at small minibatches; more run in _s2.c).
 * Backward filter: each output row's dy row (two planes' rows in the halves at up to 7
 * columns) times the 9 taps' phases into 9 accumulators over the images and rows, then
 * lane sums in a fixed tree.
 * History (MobileNet-v2 minibatch 1, 1 thread, CPU clock, loops of calls): session 7
 * split the x rows into phase rows in a per-thread buffer, every tap one aligned load:
 * against the in-register permutes of conv_cpu_direct_dw_s2p.c / _s2.c (one permute and
 * one unaligned x row load per tap and vector) 14x14 -> 7x7 x 576 24.2 -> 18.5 us,
 * 28x28 -> 14x14 x 192 27.2 -> 20.9 us forward (56x56 -> 28x28, two vectors a row: 73 ->
 * 95 us, not offered); backward filter against the channel blocks
 * (conv_cpu_direct_dw_cb.c) 22.7 -> 20.3 us and 29.6 -> 21.6 us, against the pairs
 * (_s2p.c) at minibatch 32, 14x14 -> 7x7 1237 -> 894 us. Session 9 keeps the phases in
 * registers (nothing stored and reloaded; the same sums, the same bits): 14x14 -> 7x7 x
 * 576 forward 19.0 -> 12.7 us, backward filter 20.1 -> 16.8 (minibatch 32: ~1000 -> ~800,
 * ~930 -> ~735); 28x28 -> 14x14 x 192 20.6 -> 13.4, 21.6 -> 15.6; 56x56 -> 28x28 x 144
 * (two vectors a row, against _s2.c) 73-75 -> 57-59, 74-75 -> 57-61.
 * Threads split (image, channel) planes (forward; calls of up to S2F_GROUP consecutive
 * channels) or channel units (backward filter: pairs at up to 7 columns); every output
 * is one chain in (r1, r2) order over the taps inside x (forward: the same bits as the
 * other stride-2 paths) or one fixed order of lanes and tree (backward filter), fixed by
 * the problem, so results do not depend on the thread count; exact on small integers. */
#include <stdint.h>

#include "core/par.h"
#include "cpu/isa.h"
#include "cpu/ukernels/dwconv/dws2f_ukernels.h"
#include "cpu/ukernels/dwconv/dws2r_ukernels.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_s2.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_s2f.h"

#define S2F_GROUP 64 /* planes a kernel call */
#define S2F_WIDE_PIX 3136 /* two-vector rows: output pixels a channel at most */

static bool s2f_geom(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G, pdnn_dws2f_plan *pl)
{
    if (p->dir == PDNN_CONV_BWD_DATA) return false;
    /* the stride-2 set of the forward (the backward filter here at any pixel count) */
    pdnn_conv_problem q = *p;
    q.dir = PDNN_CONV_FWD;
    pdnn_dws2_geom g;
    if (!pdnn_dws2_shape(&q, G, &g) || !pdnn_f32_dws2f_plan__avx512(&g, pl)) return false;
    /* every pixel count: with the phases in registers (session 9) this path measured
     * faster than the in-place permutes of _s2.c at rows of 8 to 15 columns too, where
     * session 7's buffers lost from a few images on (28x28 -> 14x14 x 192, 1 thread, CPU
     * clock: forward minibatch 4 112 -> 95 us, 32 1074 -> 955; backward filter 4 117 ->
     * 86, 32 1031-1053 -> 993-1031); rows of 16 to 32 columns (two vectors) only up to
     * S2F_WIDE_PIX output pixels a channel (56x56 -> 28x28 x 144, 1 thread, CPU clock,
     * against _s2.c: forward minibatch 1 73-75 -> 59-76 us, 2 and 4 equal, 32 3.4-3.5 ->
     * 3.9 ms; backward filter 1 74 -> 59-67 us, 2 230 -> 196, 4 368 -> 349, 8 equal, 32
     * 3.4-3.9 -> 4.8-5.5 ms) */
    return pl->nv == 1 || p->n * g.OH * g.OW <= S2F_WIDE_PIX;
}

bool pdnn_dws2f_applies(const pdnn_conv_problem *p)
{
    pdnn_conv_geom3 G;
    pdnn_dws2f_plan pl;
    pdnn_conv_widen(p, &G);
    return s2f_geom(p, &G, &pl);
}

bool pdnn_dws2f_fwd(const pdnn_conv_problem *p, const float *x, const float *w, float *y,
                    float alpha, float beta, int nthreads)
{
    pdnn_conv_geom3 G;
    pdnn_dws2f_plan pl;
    pdnn_conv_widen(p, &G);
    if (p->dir != PDNN_CONV_FWD || !s2f_geom(p, &G, &pl)) return false;
    const int64_t C = p->g, units = p->n * C;
    const int nt = pdnn_par_threads(nthreads, units,
                                    (double)units * G.out[1] * G.out[2] * 9, 32768.0);
    int64_t wo[9];
    bool seq = true;
    for (int64_t t = 0; t < 9; t++) {
        wo[t] = pdnn_dw_tap_off(p, &G, t / 3, t % 3);
        seq = seq && wo[t] == t;
    }
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        float wb[S2F_GROUP * 9];
        int64_t u0, u1;
        pdnn_par_share(units, &u0, &u1);
        for (int64_t u = u0; u < u1;) {
            const int64_t n = u / C, c = u % C;
            int64_t np = C - c < u1 - u ? C - c : u1 - u;
            if (np > S2F_GROUP) np = S2F_GROUP;
            ptrdiff_t wcs;
            const float *wp = pdnn_dw_taps(w, G.ws[0], c, np, wo, 9, seq, wb, &wcs);
            pdnn_f32_dws2r_fwd__avx512(&pl, (size_t)np, x + n * G.xs[0] + c * G.xs[1],
                                       (ptrdiff_t)G.xs[1], wp, wcs,
                                       y + n * G.ys[0] + c * G.ys[1], (ptrdiff_t)G.ys[1],
                                       alpha, beta);
            u += np;
        }
    }
    return true;
}

bool pdnn_dws2f_bwd_filter(const pdnn_conv_problem *p, const float *x, const float *dy,
                           float *dw, float alpha, float beta, int nthreads)
{
    pdnn_conv_geom3 G;
    pdnn_dws2f_plan pl;
    pdnn_conv_widen(p, &G);
    if (p->dir != PDNN_CONV_BWD_FILTER || !s2f_geom(p, &G, &pl)) return false;
    const int64_t C = p->g, np = pl.np, units = (C + np - 1) / np; /* plane pairs at np 2 */
    const int nt = pdnn_par_threads(nthreads, units,
                                    (double)p->n * C * G.out[1] * G.out[2] * 9, 32768.0);
    int64_t wo[9];
    bool seq = true;
    for (int64_t t = 0; t < 9; t++) {
        wo[t] = pdnn_dw_tap_off(p, &G, t / 3, t % 3);
        seq = seq && wo[t] == t;
    }
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        float sum[S2F_GROUP * 9];
        int64_t u0, u1;
        pdnn_par_share(units, &u0, &u1);
        for (int64_t u = u0; u < u1;) {
            const int64_t c = u * np, nu = u1 - u < S2F_GROUP / np ? u1 - u : S2F_GROUP / np;
            const int64_t nc = C - c < nu * np ? C - c : nu * np;
            pdnn_f32_dws2r_bwdf__avx512(&pl, (size_t)nc, (size_t)p->n, x + c * G.xs[1],
                                        (ptrdiff_t)G.xs[1], (ptrdiff_t)G.xs[0],
                                        dy + c * G.ys[1], (ptrdiff_t)G.ys[1],
                                        (ptrdiff_t)G.ys[0], sum);
            pdnn_dw_blend_block(dw + c * G.ws[0], G.ws[0], wo, 9, seq, nc, sum, alpha, beta);
            u += nu;
        }
    }
    return true;
}

static bool s2f_none(const pdnn_conv_problem *p, const float *a, const float *b, float *c,
                     float alpha, float beta, int nthreads)
{
    (void)p, (void)a, (void)b, (void)c, (void)alpha, (void)beta, (void)nthreads;
    return false;
}

const pdnn_dw_path pdnn_dws2f_path = {pdnn_dws2f_applies,
                                      {pdnn_dws2f_fwd, s2f_none, pdnn_dws2f_bwd_filter}};
