/* AVX2 3 x 3 depthwise planes (conv_cpu_direct_dw_a2.h): each (image, channel) plane one
 * call of a plane micro-kernel reading the source in place and writing the destination
 * in place (dwa2_ukernels.h: no copies, no workspace):
 *  - forward, stride 1: pdnn_f32_dwa2_s1 on x with the channel's correlation taps;
 *  - backward data, stride 1: the same kernel on dy with the taps rotated by 180 degrees
 *    (dx is the correlation of dy with the rotated filter at padding 1);
 *  - forward, stride 2: pdnn_f32_dws2a2_fwd;
 *  - backward data, stride 2: pdnn_f32_dws2a2_bwdd (dx rows and columns by parity).
 * Every output is one chain in tap order fixed by the problem (the kernels' header), so
 * results do not depend on the thread count; threads split the (image, channel) planes
 * in contiguous shares. Exact on small integers. */
#include <stdint.h>

#include "core/par.h"
#include "cpu/isa.h"
#include "cpu/ukernels/dwconv/dwa2_ukernels.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_a2.h"

/* Plane sizes at most (the kernels' lane masks are 32-bit). */
#define A2_DIM_MAX ((int64_t)1 << 28)

/* Whether p (widened to G) is in this file's set (conv_cpu_direct_dw_a2.h); *s: stride. */
static bool a2_geom(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G, int64_t *s)
{
    if (p->dtype != PDNN_DATA_FLOAT || p->c != p->g || p->k != p->g || p->g == 0) return false;
    if (p->dir != PDNN_CONV_FWD && p->dir != PDNN_CONV_BWD_DATA) return false;
    if (pdnn_cpu_isa() != PDNN_ISA_AVX2) return false;
    if (G->kern[0] != 1 || G->in[0] != 1 || G->out[0] != 1 || G->pad[0] != 0) return false;
    if (G->xs[4] != 1 || G->ys[4] != 1 || (G->xs[1] == 1 && G->ys[1] == 1)) return false;
    if (G->kern[1] != 3 || G->kern[2] != 3 || G->dil[1] != 1 || G->dil[2] != 1) return false;
    if (G->pad[1] != 1 || G->pad[2] != 1 || G->str[1] != G->str[2]) return false;
    const int64_t H = G->in[1], W = G->in[2], OH = G->out[1], OW = G->out[2];
    if (H < 1 || W < 1 || H > A2_DIM_MAX || W > A2_DIM_MAX) return false;
    *s = G->str[1];
    if (*s == 1) return OH == H && OW == W;
    if (*s == 2) return OH == (H - 1) / 2 + 1 && OW == (W - 1) / 2 + 1;
    return false;
}

bool pdnn_dwa2_applies(const pdnn_conv_problem *p)
{
    pdnn_conv_geom3 G;
    pdnn_conv_widen(p, &G);
    int64_t s;
    return a2_geom(p, &G, &s);
}

/* Forward (src x, dst y) or backward data (src dy, dst dx). */
static bool a2_conv(const pdnn_conv_problem *p, bool bwd, const float *src, const float *w,
                    float *dst, float alpha, float beta, int nthreads)
{
    if (p->dir != (bwd ? PDNN_CONV_BWD_DATA : PDNN_CONV_FWD)) return false;
    pdnn_conv_geom3 G;
    pdnn_conv_widen(p, &G);
    int64_t s;
    if (!a2_geom(p, &G, &s)) return false;
    const int64_t *ss = bwd ? G.ys : G.xs, *ds = bwd ? G.xs : G.ys;
    const int64_t H = G.in[1], W = G.in[2], OH = G.out[1], OW = G.out[2];
    int64_t wo[9]; /* filter offsets of the kernel's taps t = 3 r + c */
    for (int64_t r = 0; r < 3; r++)
        for (int64_t c = 0; c < 3; c++)
            wo[3 * r + c] = bwd && s == 1 ? pdnn_dw_tap_off(p, &G, 2 - r, 2 - c)
                                          : pdnn_dw_tap_off(p, &G, r, c);
    const int64_t C = p->g, units = p->n * C;
    const int nt = pdnn_par_threads(nthreads, units, (double)units * OH * OW * 9, 32768.0);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        int64_t u0, u1;
        pdnn_par_share(units, &u0, &u1);
        for (int64_t u = u0; u < u1; u++) {
            const int64_t n = u / C, c = u % C;
            float w9[9];
            for (int t = 0; t < 9; t++) w9[t] = w[c * G.ws[0] + wo[t]];
            const float *sp = src + n * ss[0] + c * ss[1];
            float *dp = dst + n * ds[0] + c * ds[1];
            if (s == 1)
                pdnn_f32_dwa2_s1__avx2((size_t)H, (size_t)W, sp, (ptrdiff_t)ss[3], w9, dp,
                                       (ptrdiff_t)ds[3], alpha, beta);
            else if (!bwd)
                pdnn_f32_dws2a2_fwd__avx2((size_t)H, (size_t)W, sp, (ptrdiff_t)ss[3], w9,
                                          (size_t)OH, (size_t)OW, dp, (ptrdiff_t)ds[3], alpha,
                                          beta);
            else
                pdnn_f32_dws2a2_bwdd__avx2((size_t)OH, (size_t)OW, sp, (ptrdiff_t)ss[3], w9,
                                           (size_t)H, (size_t)W, dp, (ptrdiff_t)ds[3], alpha,
                                           beta);
        }
    }
    return true;
}

bool pdnn_dwa2_fwd(const pdnn_conv_problem *p, const float *x, const float *w, float *y,
                   float alpha, float beta, int nthreads)
{
    return a2_conv(p, false, x, w, y, alpha, beta, nthreads);
}

bool pdnn_dwa2_bwd_data(const pdnn_conv_problem *p, const float *dy, const float *w,
                        float *dx, float alpha, float beta, int nthreads)
{
    return a2_conv(p, true, dy, w, dx, alpha, beta, nthreads);
}

const pdnn_dw_path pdnn_dwa2_path = {pdnn_dwa2_applies,
                                     {pdnn_dwa2_fwd, pdnn_dwa2_bwd_data, NULL}};
