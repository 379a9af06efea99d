/* AVX2 3 x 3 depthwise planes in channel-interleaved blocks (conv_cpu_direct_dw_t8.h):
 * the plane kernels of conv_cpu_direct_dw_a2.c run 8 outputs of a row a vector, so on
 * small planes (7, 14 columns) their per-row and per-plane costs dominate. Here blocks
 * of 8 channels of an image are turned channels-minor into a zero-padded per-thread
 * buffer by 8 x 8 transposes (pdnn_f32_dwt8_packt: one flat run of the planes, pixel f
 * to the buffer position in a per-thread table; pdnn_f32_dwt8_pack row by row for
 * gapped rows), every tap of every output pixel is then one 8-lane multiply-add with
 * that tap's 8 weights, and the sums of each output row piece are transposed back and
 * blended into the destination planes (pdnn_f32_dwt8_conv3):
 *  - forward, stride 1 or 2: x packed, the channels' correlation taps;
 *  - backward data, stride 1: dy packed, the taps rotated by 180 degrees (dx is the
 *    correlation of dy with the rotated filter at padding 1).
 * Every output is one chain in tap order fixed by the problem (dwt8_ukernels.h; for
 * finite weights the same chains as conv_cpu_direct_dw_a2.c), so results do not depend on the
 * thread count; threads split the (image, channel block) units in contiguous shares,
 * blocks inner (the sources read in memory order: MobileNet-v2 14 x 14 at minibatch 32
 * ran 4x slower with the images inner). Exact on small integers.
 * The buffer lives on the stack (T8_XPIX pixels of 8 floats a thread): its padding is
 * zeroed once per call and thread, the packs write the plane only. */
#include <stdint.h>
#include <string.h>

#include "core/par.h"
#include "cpu/isa.h"
#include "cpu/ukernels/dwconv/dwt8_ukernels.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_t8.h"

/* Padded source pixels at most ((H + 2) (W + 2): 16 columns up to 54 rows): the
 * per-thread buffer of 8 floats a pixel (32 KiB) and its position table (4 KiB). */
#define T8_XPIX 1024
/* Source columns at most: wider rows fill the plane kernels' vectors well (MobileNet-v2
 * 28 x 28, stride 1 and 2: the plane kernels measured 1.1-1.2x faster; 14 x 14 and
 * 7 x 7: this path 1.1-1.6x faster). */
#define T8_W_MAX 16
/* Source and destination bytes together from which stride-1 planes of more than 8
 * columns go to the plane kernels: where the tensors stream from memory, the 8
 * interleaved plane streams of a block (read and written) run slower than the plane
 * kernels' one stream (MobileNet-v2 14 x 14 at minibatch 32, 19-29 MB: this path
 * 0.55-0.75x of them; at minibatch 1, 0.6-0.9 MB: 1.1-1.2x faster; 7 x 7 at minibatch 32,
 * 12 MB: 1.8-1.9x faster). */
#define T8_BIG_BYTES (8.0 * 1024 * 1024)

/* Whether p (widened to G) is in this file's set; *s: stride. */
static bool t8_geom(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G, int64_t *s)
{
    if (p->dtype != PDNN_DATA_FLOAT || p->c != p->g || p->k != p->g || p->g == 0) return false;
    if (p->dir != PDNN_CONV_FWD && p->dir != PDNN_CONV_BWD_DATA) return false;
    if (pdnn_cpu_isa() != PDNN_ISA_AVX2) return false;
    if (G->kern[0] != 1 || G->in[0] != 1 || G->out[0] != 1 || G->pad[0] != 0) return false;
    if (G->xs[4] != 1 || G->ys[4] != 1 || (G->xs[1] == 1 && G->ys[1] == 1)) return false;
    if (G->kern[1] != 3 || G->kern[2] != 3 || G->dil[1] != 1 || G->dil[2] != 1) return false;
    if (G->pad[1] != 1 || G->pad[2] != 1 || G->str[1] != G->str[2]) return false;
    const int64_t H = G->in[1], W = G->in[2], OH = G->out[1], OW = G->out[2];
    if (H < 1 || W < 1 || W > T8_W_MAX) return false;
    if ((H + 2) * (W + 2) > T8_XPIX) return false;
    *s = G->str[1];
    /* stride 1 on rows of more than 8 columns, tensors past T8_BIG_BYTES: the plane
     * kernels */
    if (*s == 1 && W > 8 && (double)p->n * (double)p->g * (double)(H * W) * 8.0 > T8_BIG_BYTES)
        return false;
    if (*s == 1) return OH == H && OW == W;
    if (*s == 2 && p->dir == PDNN_CONV_FWD) return OH == (H - 1) / 2 + 1 && OW == (W - 1) / 2 + 1;
    return false;
}

bool pdnn_dwt8_applies(const pdnn_conv_problem *p)
{
    pdnn_conv_geom3 G;
    pdnn_conv_widen(p, &G);
    int64_t s;
    return t8_geom(p, &G, &s);
}

/* Prefetches for writing the rows of planes c < nc of DH x DW at d (row, plane strides
 * ds[3], ds[1]): each unit writes 8 planes at once in short row pieces, streams too
 * short for the hardware prefetcher (MobileNet-v2 14 x 14 at minibatch 32, with the
 * source prefetch of pdnn_f32_dwt8_packt: 4.5 -> 3.9-4.4 ms, 1 thread). A prefetch never
 * faults. */
static void t8_prefetchw(const float *d, int64_t nc, int64_t DH, int64_t DW, const int64_t *ds)
{
    const bool flat = ds[3] == DW;
    const int64_t rows = flat ? 1 : DH, len = flat ? DH * DW : DW;
    for (int64_t c = 0; c < nc; c++)
        for (int64_t i = 0; i < rows; i++) {
            const float *r = d + c * ds[1] + i * ds[3];
            for (int64_t j = 0; j < len; j += 16) __builtin_prefetch(r + j, 1, 3);
            __builtin_prefetch(r + len - 1, 1, 3);
        }
}

/* Forward (src x, dst y) or backward data (src dy, dst dx). */
static bool t8_conv(const pdnn_conv_problem *p, bool bwd, const float *src, const float *w,
                    float *dst, float alpha, float beta, int nthreads)
{
    if (p->dir != (bwd ? PDNN_CONV_BWD_DATA : PDNN_CONV_FWD)) return false;
    pdnn_conv_geom3 G;
    pdnn_conv_widen(p, &G);
    int64_t s;
    if (!t8_geom(p, &G, &s)) return false;
    const int64_t *ss = bwd ? G.ys : G.xs, *ds = bwd ? G.xs : G.ys;
    /* source SH x SW, destination DH x DW */
    const int64_t SH = bwd ? G.out[1] : G.in[1], SW = bwd ? G.out[2] : G.in[2];
    const int64_t DH = bwd ? G.in[1] : G.out[1], DW = bwd ? G.in[2] : G.out[2];
    const int64_t prs = SW + 2, PH = SH + 2;
    int64_t wo[9]; /* filter offsets of the kernel's taps t = 3 r + c */
    bool seq = true;
    for (int64_t r = 0; r < 3; r++)
        for (int64_t c = 0; c < 3; c++) {
            const int64_t t = 3 * r + c;
            wo[t] = bwd ? pdnn_dw_tap_off(p, &G, 2 - r, 2 - c) : pdnn_dw_tap_off(p, &G, r, c);
            seq = seq && wo[t] == t;
        }
    const int64_t C = p->g, N = p->n, nb = (C + 7) / 8, units = nb * N;
    const int nt = pdnn_par_threads(nthreads, units, (double)units * 8 * DH * DW * 9, 32768.0);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        int64_t u0, u1;
        pdnn_par_share(units, &u0, &u1);
        _Alignas(32) float xb[T8_XPIX * 8];
        _Alignas(32) float wb[72];
        unsigned sidx[T8_XPIX];
        if (u1 > u0) {
            memset(xb, 0, (size_t)(PH * prs * 8) * sizeof(float));
            for (int64_t f = 0; f < SH * SW; f++)
                sidx[f] = (unsigned)((f / SW + 1) * prs + f % SW + 1);
        }
        int64_t cb = -1;
        for (int64_t u = u0; u < u1; u++) {
            const int64_t n = u / nb, b = u % nb, c0 = 8 * b, nc = C - c0 < 8 ? C - c0 : 8;
            if (b != cb) {
                cb = b;
                if (seq)
                    pdnn_f32_dwt8_pack__avx2((size_t)nc, 1, 9, w + c0 * G.ws[0], 9,
                                             (ptrdiff_t)G.ws[0], wb, 9, 0);
                else
                    for (int64_t l = 0; l < nc; l++)
                        for (int t = 0; t < 9; t++) wb[8 * t + l] = w[(c0 + l) * G.ws[0] + wo[t]];
                for (int64_t l = nc; l < 8; l++)
                    for (int t = 0; t < 9; t++) wb[8 * t + l] = 0.0f;
            }
            /* the next unit's source, relative to this one's (0: none) */
            const int64_t un = u + 1, pfo = un < u1 ? (un / nb - n) * ss[0] + 8 * (un % nb - b) * ss[1] : 0;
            if (un < u1) /* the next unit's destination rows, for writing */
                t8_prefetchw(dst + (un / nb) * ds[0] + 8 * (un % nb) * ds[1],
                             C - 8 * (un % nb) < 8 ? C - 8 * (un % nb) : 8, DH, DW, ds);
            const float *sp = src + n * ss[0] + c0 * ss[1];
            if (ss[3] == SW) /* source planes one run each */
                pdnn_f32_dwt8_packt__avx2((size_t)nc, (size_t)(SH * SW), sp, (ptrdiff_t)ss[1],
                                          sidx, xb, (ptrdiff_t)pfo);
            else
                pdnn_f32_dwt8_pack__avx2((size_t)nc, (size_t)SH, (size_t)SW, sp,
                                         (ptrdiff_t)ss[3], (ptrdiff_t)ss[1], xb + 8 * (prs + 1),
                                         (ptrdiff_t)prs, (ptrdiff_t)pfo);
            pdnn_f32_dwt8_conv3__avx2((size_t)nc, (size_t)s, (size_t)DH, (size_t)DW, xb,
                                      (ptrdiff_t)prs, wb, dst + n * ds[0] + c0 * ds[1],
                                      (ptrdiff_t)ds[3], (ptrdiff_t)ds[1], alpha, beta);
        }
    }
    return true;
}

bool pdnn_dwt8_fwd(const pdnn_conv_problem *p, const float *x, const float *w, float *y,
                   float alpha, float beta, int nthreads)
{
    return t8_conv(p, false, x, w, y, alpha, beta, nthreads);
}

bool pdnn_dwt8_bwd_data(const pdnn_conv_problem *p, const float *dy, const float *w,
                        float *dx, float alpha, float beta, int nthreads)
{
    return t8_conv(p, true, dy, w, dx, alpha, beta, nthreads);
}

const pdnn_dw_path pdnn_dwt8_path = {pdnn_dwt8_applies,
                                     {pdnn_dwt8_fwd, pdnn_dwt8_bwd_data, NULL}};
