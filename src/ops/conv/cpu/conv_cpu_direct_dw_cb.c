/* Depthwise convolution in channel blocks (conv_cpu_direct_dw_cb.h): NCHW planes cost
 * more per plane on the plane-at-a-time paths (small planes: few outputs per row; big
 * ones: strided phases, cache traffic) than their outputs, so blocks of
 * 16 channels are turned channels-minor (pixel p of the block at p * 16, one lane a
 * channel) by the pack micro-kernel, each tap of each pixel is then one 16-lane
 * multiply-add with that tap's 16 weights, and the outputs are turned back by the
 * unpack kernel, which blends them into y.
 *  - forward: the block's x planes packed zero-padded (buffer row = x row + pad), every
 *    output one sum over the taps in (r1, r2) order;
 *  - backward data: dy packed, padded so that every dx pixel reads it in place; dx by
 *    phases (a, b) of its rows and columns modulo the stride, phase (a, b) the sum over
 *    the taps with (a + pad - r dil) divisible by the stride, in (r1, r2) order, of
 *    w * dy at row j1 + (a + pad1 - r1 dil1) / s1, column j2 + (b + pad2 - r2 dil2) / s2;
 *  - backward filter: per block, every image's x (padded) and dy (packed) in turn, each
 *    tap's 16 sums accumulated over the images and pixels in order, blended at the end.
 * Threads split (image, block) pairs (forward, backward data) or blocks (backward
 * filter); every output is one chain of multiply-adds in an order fixed by the problem.
 * Planes whose buffers exceed CB_BAND_BYTES run in bands of output rows (backward data:
 * of dy rows, stride dx rows each), in order: a band's first rows, the halo the previous
 * band also read, are moved from that band's end, then its new rows packed; rows above
 * or below the source are zeroed per band. The buffer's column padding is zeroed once
 * per thread: every band writes the same columns. Sums keep their order (bands split
 * outputs; backward filter adds the bands' pixels in row order).
 * Stride-1 forward and backward data, stride-2 3x3 forward (below AVX-512: there
 * conv_cpu_direct_dw_s2.c takes every plane cb_flat would), on planes whose rows fill
 * 16-lane vectors well (widths 14, 28, 56: MobileNet-v2) skip the transposes: cb_flat,
 * one plane at a time; so does the stride-1 backward filter of such planes up to 8 KiB
 * padded (cb_flatw). */
#include <stdint.h>
#include <string.h>

#include "core/par.h"
#include "cpu/ukernels/dwconv/dwcb_ukernels.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_cb.h"

#define L PDNN_DWCB_LANES
#define CB_BYTES ((size_t)128 << 10) /* per-thread buffer (stack) */
/* Band buffers (input rows + output rows) at most: planes whose buffers exceed it run in
 * bands of rows that stay in L1 (MobileNet-v2 56x56 and 112x112 mb32: 1.2-1.7x faster
 * than whole planes in L2 or plane at a time). */
#define CB_BAND_BYTES ((size_t)32 << 10)
/* The flat path's padded plane at most (L1: larger planes run faster in channel blocks,
 * whose bands stay there). */
#define CB_FLAT_FLOATS ((int64_t)(32 << 10) / (int64_t)sizeof(float))
/* The same for the backward filter (MobileNet-v2 56x56: the channel blocks are faster). */
#define CB_FLATW_FLOATS ((int64_t)(8 << 10) / (int64_t)sizeof(float))
/* Output pixels per channel (all images) from which the stride-2 forward and the
 * backward filter run flat: below it their per-plane costs (channel sums, row splits)
 * exceed the channel blocks' transposes (MobileNet-v2 14x14 at minibatch 1). */
#define CB_FLAT_MIN 784
#define CB_TAPS 64                    /* filter taps at most */
#define CB_SMAX 8                     /* strides at most (backward data phases) */
#define CB_FLOATS ((int64_t)(CB_BYTES / sizeof(float)))

/* Source planes of a block and their zero-padded copy. */
typedef struct {
    int64_t H, W, rs, cs;   /* rows, columns, row and channel strides */
    int64_t P1, P2;         /* buffer row = source row + P1, column = column + P2 */
    int64_t PH, PW;         /* buffer rows and columns */
} cb_src;

static int64_t cb_min(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t cb_max(int64_t a, int64_t b) { return a > b ? a : b; }

/* The 2-d, multiplier-1, unit-column-stride problems this file serves. */
static bool cb_applies(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G)
{
    if (p->dtype != PDNN_DATA_FLOAT || p->c != p->g || p->k != p->g || p->g == 0) return false;
    if (G->kern[0] != 1 || G->in[0] != 1 || G->out[0] != 1 || G->pad[0] != 0) return false;
    if (G->xs[4] != 1 || G->ys[4] != 1 || (G->xs[1] == 1 && G->ys[1] == 1)) return false;
    return G->kern[1] * G->kern[2] <= CB_TAPS;
}

static int cb_threads(int nthreads, int64_t units, double work)
{
    return pdnn_par_threads(nthreads, units, work, 32768.0);
}

/* Filter offsets within a channel of the taps (r1[t], r2[t]); true when they are 0, 1, ... */
static bool cb_woffs(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G, int64_t nt,
                     const int *r1, const int *r2, int64_t *wo)
{
    bool seq = true;
    for (int64_t t = 0; t < nt; t++) {
        wo[t] = pdnn_dw_tap_off(p, G, r1[t], r2[t]);
        seq = seq && wo[t] == t;
    }
    return seq;
}

/* wb[16 t + j] = w of channel c0 + j at offset wo[t]; lanes past nc zero. */
static void cb_weights(const pdnn_f32_dwcb_ukernels *uk, const pdnn_conv_geom3 *G,
                       const float *w, int64_t c0, int64_t nc, int64_t nt, const int64_t *wo,
                       bool seq, float *wb)
{
    if (seq) { /* the taps of a channel back to back: a pack */
        uk->pack((size_t)nc, 1, (size_t)nt, w + c0 * G->ws[0], 0, G->ws[0], wb, 0);
        return;
    }
    for (int64_t j = 0; j < L; j++) {
        const float *wc = w + (c0 + j) * G->ws[0];
        for (int64_t t = 0; t < nt; t++) wb[t * L + j] = j < nc ? wc[wo[t]] : 0.0f;
    }
}

/* The block's nc source planes at src into buffer rows r0.. of buf (only the data; the
 * padding stays). */
static void cb_pack(const pdnn_f32_dwcb_ukernels *uk, const cb_src *S, int64_t nc,
                    const float *src, float *buf, int64_t r0)
{
    const int64_t j0 = cb_max(0, -S->P2), j1 = cb_min(S->W, S->PW - S->P2);
    const int64_t i0 = cb_max(r0 - S->P1, cb_max(0, -S->P1)), i1 = cb_min(S->H, S->PH - S->P1);
    if (j1 <= j0 || i1 <= i0) return;
    float *d = buf + ((i0 + S->P1) * S->PW + j0 + S->P2) * L;
    const float *s = src + i0 * S->rs + j0;
    if (j0 == 0 && j1 == S->W && S->W == S->PW && S->rs == S->W) /* rows back to back */
        uk->pack((size_t)nc, 1, (size_t)((i1 - i0) * S->W), s, 0, S->cs, d, 0);
    else
        uk->pack((size_t)nc, (size_t)(i1 - i0), (size_t)(j1 - j0), s, S->rs, S->cs, d,
                 S->PW * L);
}

/* Rows [ov, PH) of a band of S's buffer whose row 0 is padded source row R0 (buffer row
 * r holds source row R0 + r - P1): source rows packed, the rows outside the source
 * zeroed (every column); rows [0, ov) are the previous band's last rows, moved there. */
static void cb_pack_band(const pdnn_f32_dwcb_ukernels *uk, const cb_src *S, int64_t nc,
                         const float *src, float *buf, int64_t R0, int64_t PH, int64_t ov)
{
    const int64_t rowf = S->PW * L, s0 = S->P1 - R0, s1 = S->H + S->P1 - R0;
    const int64_t z0 = cb_min(PH, cb_max(ov, s0)), z1 = cb_max(z0, cb_max(ov, s1));
    if (z0 > ov) memset(buf + ov * rowf, 0, (size_t)((z0 - ov) * rowf) * sizeof(float));
    if (PH > z1) memset(buf + z1 * rowf, 0, (size_t)((PH - z1) * rowf) * sizeof(float));
    cb_src B = *S;
    B.P1 = S->P1 - R0;
    B.PH = PH;
    cb_pack(uk, &B, nc, src, buf, ov);
}

/* Rows a band of rows at most: bands of nb rows cost fix + nb * per floats; the largest
 * nb (<= all) within the band budget, at least 1 when the 1-row band fits the buffer,
 * 0 when it does not. */
#define CB_BAND_FLOATS ((int64_t)(CB_BAND_BYTES / sizeof(float)))
static int64_t cb_band_rows(int64_t all, int64_t fix, int64_t per)
{
    if (fix + per > CB_FLOATS) return 0;
    const int64_t nb = (CB_BAND_FLOATS - fix) / per;
    return nb < 1 ? 1 : nb > all ? all : nb;
}

/* Moves the last ov rows of the previous band (which began ad rows earlier) to the top. */
static void cb_halo(float *buf, int64_t PW, int64_t ad, int64_t ov)
{
    if (ov > 0) memmove(buf, buf + ad * PW * L, (size_t)(ov * PW * L) * sizeof(float));
}

/* An OH x OW block of outputs ob (pixel-major) blended into the planes at dst. */
static void cb_unpack(const pdnn_f32_dwcb_ukernels *uk, int64_t nc, int64_t OH, int64_t OW,
                      const float *ob, float *dst, int64_t rs, int64_t cs, float alpha,
                      float beta)
{
    if (rs == OW)
        uk->unpack((size_t)nc, 1, (size_t)(OH * OW), ob, 0, dst, 0, cs, alpha, beta);
    else
        uk->unpack((size_t)nc, (size_t)OH, (size_t)OW, ob, OW * L, dst, rs, cs, alpha, beta);
}

/* Software prefetch of nc planes of rows x cols (row stride rs, channel stride cs) at p,
 * for writing when w: the next unit's planes, while this one computes. */
static void cb_prefetch(const float *p, int64_t nc, int64_t rows, int64_t cols, int64_t rs,
                        int64_t cs, int w)
{
    if (rs == cols && cs == rows * cols) { /* one range */
        cols = nc * cs;
        rows = nc = 1;
    }
    for (int64_t c = 0; c < nc; c++)
        for (int64_t i = 0; i < rows; i++) {
            const char *r = (const char *)(p + c * cs + i * rs);
            for (int64_t o = 0; o < cols * (int64_t)sizeof(float); o += 64) {
                if (w)
                    __builtin_prefetch(r + o, 1, 3);
                else
                    __builtin_prefetch(r + o, 0, 3);
            }
        }
}

/* Stride 1, forward (bwd false: src x, dst y) or backward data (src dy, dst dx), one plane
 * at a time, flat: the source plane copied into a zero-padded buffer of rows of pw
 * floats (m2 + e2 rounded up to 16; m2: destination columns), every destination pixel
 * (o1, o2) the sum over the taps, in (r1, r2) order, of w * buffer[o1 pw + o2 + tap
 * offset] (the micro-kernel's flat sums; the positions past each row's m2 are dropped):
 * no channel transposes, one 16-lane multiply-add per tap and 16 positions. Backward
 * data reads dy padded by e - pad with the taps reversed. Forward 3x3 at stride 2: the
 * buffer rows split into even and odd columns (pe each, pe >= m2 + 1 a multiple of 16),
 * pixel (o1, o2) = sum over r1 of w(r1, 0) even(2 o1 + r1, o2) + w(r1, 1) odd(.., o2) +
 * w(r1, 2) even(.., o2 + 1) (the micro-kernel flat2). Threads split the (image, channel)
 * planes; each plane's kernel prefetches the next one's rows. False, touching nothing,
 * when the problem is outside that set, the padded plane exceeds CB_FLAT_FLOATS or the
 * rows waste more than 1/8 of the lanes. */
static bool cb_flat(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G, bool bwd,
                    const float *src, const float *w, float *dst, float alpha, float beta,
                    int nthreads)
{
    const int64_t kh = G->kern[1], kw = G->kern[2];
    const int64_t e1 = (kh - 1) * G->dil[1], e2 = (kw - 1) * G->dil[2];
    const int64_t n1 = bwd ? G->out[1] : G->in[1], n2 = bwd ? G->out[2] : G->in[2];
    const int64_t m1 = bwd ? G->in[1] : G->out[1], m2 = bwd ? G->in[2] : G->out[2];
    const int64_t p1 = bwd ? e1 - G->pad[1] : G->pad[1], p2 = bwd ? e2 - G->pad[2] : G->pad[2];
    /* stride 2 (forward 3x3): rows of pw = 2 pe, pe >= m2 + 1 even and odd columns */
    const bool s2 = !bwd && G->str[1] == 2 && G->str[2] == 2 && kh == 3 && kw == 3 &&
                    G->dil[1] == 1 && G->dil[2] == 1;
    if (!s2 && (G->str[1] != 1 || G->str[2] != 1)) return false;
    const int64_t pe = (m2 + 1 + L - 1) / L * L;
    const int64_t ph = s2 ? 2 * m1 + 1 : m1 + e1, pw = s2 ? 2 * pe : (m2 + e2 + L - 1) / L * L;
    const int64_t nxp = s2 ? ph * pw + 2 * pw + 2 * L : ph * pw + L;
    if (p1 < 0 || p2 < 0 || 8 * m2 < 7 * (s2 ? pe : pw) || nxp > CB_FLAT_FLOATS) return false;
    if (s2 && p->n * m1 * m2 < CB_FLAT_MIN) return false;
    const int64_t *ss = bwd ? G->ys : G->xs, *ds = bwd ? G->xs : G->ys;
    const int64_t T = kh * kw, C = p->g, units = p->n * C;
    ptrdiff_t toff[CB_TAPS];
    int64_t wo[CB_TAPS];
    for (int64_t r1 = 0, t = 0; r1 < kh; r1++)
        for (int64_t r2 = 0; r2 < kw; r2++, t++) {
            toff[t] = (ptrdiff_t)(r1 * G->dil[1] * pw + r2 * G->dil[2]);
            wo[t] = bwd ? pdnn_dw_tap_off(p, G, kh - 1 - r1, kw - 1 - r2)
                        : pdnn_dw_tap_off(p, G, r1, r2);
        }
    const pdnn_f32_dwcb_ukernels *uk = pdnn_f32_dwcb_select();
    const int nt = cb_threads(nthreads, units, (double)units * m1 * m2 * T);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        _Alignas(64) float buf[CB_FLOATS];
        for (int64_t j = 0; j < nxp; j++) buf[j] = 0;
        float wt[CB_TAPS];
        int64_t u0, u1;
        pdnn_par_share(units, &u0, &u1);
        for (int64_t u = u0; u < u1; u++) {
            const int64_t n = u / C, c = u % C;
            for (int64_t t = 0; t < T; t++) wt[t] = w[c * G->ws[0] + wo[t]];
            const int64_t un = (u + 1) / C, uc = (u + 1) % C;
            const ptrdiff_t pfo = (ptrdiff_t)(u + 1 < u1
                                                  ? (un - n) * ss[0] + (uc - c) * ss[1] : 0);
            if (s2) {
                uk->flat2((size_t)n1, (size_t)n2, src + n * ss[0] + c * ss[1], (ptrdiff_t)ss[3],
                          pfo, buf, (size_t)ph, (size_t)pw, (size_t)p1, (size_t)p2, wt, (size_t)m1,
                          (size_t)m2, dst + n * ds[0] + c * ds[1], (ptrdiff_t)ds[3], alpha, beta);
                continue;
            }
            uk->flat((size_t)n1, (size_t)n2, src + n * ss[0] + c * ss[1], (ptrdiff_t)ss[3], pfo, buf,
                     (size_t)ph, (size_t)pw, (size_t)p1, (size_t)p2, (size_t)T, toff, wt,
                     buf + nxp, (size_t)m1, (size_t)m2, dst + n * ds[0] + c * ds[1],
                     (ptrdiff_t)ds[3], alpha, beta);
        }
    }
    return true;
}

#define CB_BUFFER(name, zero)                                                              \
    _Alignas(64) float name[CB_FLOATS];                                                    \
    for (int64_t j_ = 0; j_ < (zero); j_++) name[j_] = 0

bool pdnn_dwcb_fwd(const pdnn_conv_problem *p, const float *x, const float *w, float *y,
                   float alpha, float beta, int nthreads)
{
    pdnn_conv_geom3 G;
    pdnn_conv_widen(p, &G);
    if (!cb_applies(p, &G)) return false;
    if (cb_flat(p, &G, false, x, w, y, alpha, beta, nthreads)) return true;
    const int64_t OH = G.out[1], OW = G.out[2], kh = G.kern[1], kw = G.kern[2];
    const int64_t s1 = G.str[1], ext = (kh - 1) * G.dil[1] + 1;
    const cb_src S = {G.in[1], G.in[2], G.xs[3], G.xs[1], G.pad[1], G.pad[2],
                      (OH - 1) * s1 + ext, (OW - 1) * G.str[2] + (kw - 1) * G.dil[2] + 1};
    /* bands of NB output rows: (NB - 1) s1 + ext buffer rows */
    const int64_t NB = cb_band_rows(OH, (ext - s1) * S.PW * L, (s1 * S.PW + OW) * L);
    if (NB == 0) return false;
    const int64_t nin = ((NB - 1) * s1 + ext) * S.PW * L, whole = NB == OH;
    const pdnn_f32_dwcb_ukernels *uk = pdnn_f32_dwcb_select();
    const int64_t T = kh * kw, C = p->g, nblk = (C + L - 1) / L, units = p->n * nblk;
    ptrdiff_t toff[CB_TAPS];
    int tr1[CB_TAPS], tr2[CB_TAPS];
    for (int64_t r1 = 0, t = 0; r1 < kh; r1++)
        for (int64_t r2 = 0; r2 < kw; r2++, t++) {
            toff[t] = (ptrdiff_t)((r1 * G.dil[1] * S.PW + r2 * G.dil[2]) * L);
            tr1[t] = (int)r1;
            tr2[t] = (int)r2;
        }
    int64_t wo[CB_TAPS];
    const bool seq = cb_woffs(p, &G, T, tr1, tr2, wo);
    const int nt = cb_threads(nthreads, units, (double)p->n * C * OH * OW * T);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        CB_BUFFER(buf, nin);
        float wb[CB_TAPS * L];
        int64_t u0, u1, cur = -1;
        pdnn_par_share(units, &u0, &u1);
        for (int64_t u = u0; u < u1; u++) { /* block-major: the weights change rarely */
            const int64_t blk = u / p->n, n = u % p->n, c0 = blk * L, nc = cb_min(L, C - c0);
            if (blk != cur) {
                cb_weights(uk, &G, w, c0, nc, T, wo, seq, wb);
                cur = blk;
            }
            if (u + 1 < u1 && whole) {
                const int64_t b2 = (u + 1) / p->n, n2 = (u + 1) % p->n, c2 = b2 * L;
                cb_prefetch(x + n2 * G.xs[0] + c2 * G.xs[1], cb_min(L, C - c2), S.H, S.W, S.rs,
                            S.cs, 0);
                cb_prefetch(y + n2 * G.ys[0] + c2 * G.ys[1], cb_min(L, C - c2), OH, OW, G.ys[3],
                            G.ys[1], 1);
            }
            for (int64_t o0 = 0; o0 < OH; o0 += NB) {
                const int64_t nb = cb_min(NB, OH - o0), ov = o0 ? cb_max(0, ext - s1) : 0;
                cb_halo(buf, S.PW, NB * s1, ov);
                cb_pack_band(uk, &S, nc, x + n * G.xs[0] + c0 * G.xs[1], buf, o0 * s1,
                             (nb - 1) * s1 + ext, ov);
                uk->conv((size_t)nb, (size_t)OW, (size_t)T, toff, wb, buf,
                         (ptrdiff_t)(s1 * S.PW * L), (ptrdiff_t)(G.str[2] * L), buf + nin,
                         (ptrdiff_t)(OW * L), L);
                cb_unpack(uk, nc, nb, OW, buf + nin,
                          y + n * G.ys[0] + c0 * G.ys[1] + o0 * G.ys[3], G.ys[3], G.ys[1],
                          alpha, beta);
            }
        }
    }
    return true;
}

bool pdnn_dwcb_bwd_data(const pdnn_conv_problem *p, const float *dy, const float *w, float *dx,
                        float alpha, float beta, int nthreads)
{
    pdnn_conv_geom3 G;
    pdnn_conv_widen(p, &G);
    if (!cb_applies(p, &G)) return false;
    const int64_t H = G.in[1], W = G.in[2], kh = G.kern[1], kw = G.kern[2];
    const int64_t sh = G.str[1], sw = G.str[2];
    if (sh > CB_SMAX || sw > CB_SMAX) return false;
    if (cb_flat(p, &G, true, dy, w, dx, alpha, beta, nthreads)) return true;
    /* dy row offsets D = (a + pad - r dil) / s of the taps: their range pads dy */
    int64_t lo1 = 0, hi1 = 0, lo2 = 0, hi2 = 0;
    for (int64_t r = 0; r < kh; r++) {
        const int64_t v = G.pad[1] - r * G.dil[1], D = v >= 0 ? v / sh : -((-v + sh - 1) / sh);
        lo1 = cb_min(lo1, D);
        hi1 = cb_max(hi1, (v + sh - 1 >= 0 ? (v + sh - 1) / sh : 0));
    }
    for (int64_t r = 0; r < kw; r++) {
        const int64_t v = G.pad[2] - r * G.dil[2], D = v >= 0 ? v / sw : -((-v + sw - 1) / sw);
        lo2 = cb_min(lo2, D);
        hi2 = cb_max(hi2, (v + sw - 1 >= 0 ? (v + sw - 1) / sw : 0));
    }
    const int64_t J1 = (H + sh - 1) / sh, J2 = (W + sw - 1) / sw;
    const cb_src S = {G.out[1], G.out[2], G.ys[3], G.ys[1], -lo1, -lo2,
                      J1 + hi1 - lo1, J2 + hi2 - lo2};
    /* bands of NJ dy rows (NJ sh dx rows): NJ + hi1 - lo1 buffer rows */
    const int64_t NJ = cb_band_rows(J1, (hi1 - lo1) * S.PW * L, (S.PW + sh * W) * L);
    if (NJ == 0) return false;
    const int64_t nin = (NJ + hi1 - lo1) * S.PW * L, whole = NJ == J1;
    /* taps by phase (a, b), (r1, r2) increasing within each */
    ptrdiff_t toff[CB_TAPS];
    int tr1[CB_TAPS], tr2[CB_TAPS], t0[CB_SMAX * CB_SMAX + 1], ntap = 0;
    for (int64_t a = 0; a < sh; a++)
        for (int64_t b = 0; b < sw; b++) {
            t0[a * sw + b] = ntap;
            for (int64_t r1 = 0; r1 < kh; r1++) {
                const int64_t v1 = a + G.pad[1] - r1 * G.dil[1];
                if (v1 % sh) continue;
                for (int64_t r2 = 0; r2 < kw; r2++) {
                    const int64_t v2 = b + G.pad[2] - r2 * G.dil[2];
                    if (v2 % sw) continue;
                    toff[ntap] = (ptrdiff_t)(((v1 / sh - lo1) * S.PW + (v2 / sw - lo2)) * L);
                    tr1[ntap] = (int)r1;
                    tr2[ntap] = (int)r2;
                    ntap++;
                }
            }
        }
    t0[sh * sw] = ntap;
    const pdnn_f32_dwcb_ukernels *uk = pdnn_f32_dwcb_select();
    const int64_t C = p->g, nblk = (C + L - 1) / L, units = p->n * nblk;
    int64_t wo[CB_TAPS];
    const bool seq = cb_woffs(p, &G, ntap, tr1, tr2, wo);
    const int nt = cb_threads(nthreads, units, (double)p->n * C * H * W * kh * kw / (sh * sw));
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        CB_BUFFER(buf, nin);
        float wb[CB_TAPS * L];
        int64_t u0, u1, cur = -1;
        pdnn_par_share(units, &u0, &u1);
        for (int64_t u = u0; u < u1; u++) {
            const int64_t blk = u / p->n, n = u % p->n, c0 = blk * L, nc = cb_min(L, C - c0);
            if (blk != cur) {
                cb_weights(uk, &G, w, c0, nc, ntap, wo, seq, wb);
                cur = blk;
            }
            if (u + 1 < u1 && whole) {
                const int64_t b2 = (u + 1) / p->n, n2 = (u + 1) % p->n, c2 = b2 * L;
                cb_prefetch(dy + n2 * G.ys[0] + c2 * G.ys[1], cb_min(L, C - c2), S.H, S.W, S.rs,
                            S.cs, 0);
                cb_prefetch(dx + n2 * G.xs[0] + c2 * G.xs[1], cb_min(L, C - c2), H, W, G.xs[3],
                            G.xs[1], 1);
            }
            float *ob = buf + nin;
            for (int64_t j0 = 0; j0 < J1; j0 += NJ) { /* dx rows a0 .. a0 + hb - 1 */
                const int64_t a0 = j0 * sh, hb = cb_min(NJ * sh, H - a0), ov = j0 ? hi1 - lo1 : 0;
                cb_halo(buf, S.PW, NJ, ov);
                cb_pack_band(uk, &S, nc, dy + n * G.ys[0] + c0 * G.ys[1], buf, j0,
                             (hb + sh - 1) / sh + hi1 - lo1, ov);
                for (int64_t a = 0; a < sh && a < hb; a++)
                    for (int64_t b = 0; b < sw && b < W; b++) {
                        const int ph = (int)(a * sw + b);
                        uk->conv((size_t)((hb - a + sh - 1) / sh), (size_t)((W - b + sw - 1) / sw),
                                 (size_t)(t0[ph + 1] - t0[ph]), toff + t0[ph], wb + t0[ph] * L,
                                 buf, (ptrdiff_t)(S.PW * L), L, ob + (a * W + b) * L,
                                 (ptrdiff_t)(sh * W * L), (ptrdiff_t)(sw * L));
                    }
                cb_unpack(uk, nc, hb, W, ob, dx + n * G.xs[0] + c0 * G.xs[1] + a0 * G.xs[3],
                          G.xs[3], G.xs[1], alpha, beta);
            }
        }
    }
    return true;
}

/* Stride-1 backward filter, flat (as cb_flat's forward): threads split blocks of 16
 * channels; for each image in order, each channel's x plane copied padded and its dy
 * plane read in place by the micro-kernel flatw, which adds 16 lanes a tap (lane l: the
 * positions l modulo 16 of each row piece) into that channel's sums; the lanes then
 * summed in a fixed tree. Every sum: images, then pixels, in one order fixed by the problem. */
static bool cb_flatw(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G, const float *x,
                     const float *dy, float *dw, float alpha, float beta, int nthreads)
{
    if (G->str[1] != 1 || G->str[2] != 1) return false;
    const int64_t kh = G->kern[1], kw = G->kern[2];
    const int64_t e1 = (kh - 1) * G->dil[1], e2 = (kw - 1) * G->dil[2];
    const int64_t m1 = G->out[1], m2 = G->out[2], p1 = G->pad[1], p2 = G->pad[2];
    const int64_t ph = m1 + e1, pw = (m2 + e2 + L - 1) / L * L, nxp = ph * pw + L;
    if (8 * m2 < 7 * pw || nxp > CB_FLATW_FLOATS || p->n * m1 * m2 < CB_FLAT_MIN) return false;
    const int64_t T = kh * kw, C = p->g;
    ptrdiff_t toff[CB_TAPS];
    int64_t wo[CB_TAPS];
    for (int64_t r1 = 0, t = 0; r1 < kh; r1++)
        for (int64_t r2 = 0; r2 < kw; r2++, t++) {
            toff[t] = (ptrdiff_t)(r1 * G->dil[1] * pw + r2 * G->dil[2]);
            wo[t] = pdnn_dw_tap_off(p, G, r1, r2);
        }
    const pdnn_f32_dwcb_ukernels *uk = pdnn_f32_dwcb_select();
    const int64_t nblk = (C + L - 1) / L;
    const int nt = cb_threads(nthreads, nblk, (double)p->n * C * m1 * m2 * T);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        _Alignas(64) float buf[CB_FLOATS]; /* padded plane, then 16 channels' sums */
        for (int64_t j = 0; j < nxp; j++) buf[j] = 0;
        float *acc = buf + (nxp + L - 1) / L * L;
        int64_t b0, b1;
        pdnn_par_share(nblk, &b0, &b1);
        for (int64_t blk = b0; blk < b1; blk++) {
            const int64_t c0 = blk * L, nc = cb_min(L, C - c0);
            for (int64_t j = 0; j < nc * T * L; j++) acc[j] = 0;
            for (int64_t n = 0; n < p->n; n++) /* channels contiguous in memory */
                for (int64_t c = c0; c < c0 + nc; c++) {
                    const ptrdiff_t pfo = (ptrdiff_t)(c + 1 < c0 + nc ? G->xs[1] : 0);
                    uk->flatw((size_t)G->in[1], (size_t)G->in[2], x + n * G->xs[0] + c * G->xs[1],
                              (ptrdiff_t)G->xs[3], pfo, buf, (size_t)ph, (size_t)pw, (size_t)p1,
                              (size_t)p2, (size_t)T, toff, dy + n * G->ys[0] + c * G->ys[1],
                              (ptrdiff_t)G->ys[3], (size_t)m1, (size_t)m2, acc + (c - c0) * T * L);
                }
            for (int64_t c = c0; c < c0 + nc; c++) {
                float sum[CB_TAPS];
                for (int64_t t = 0; t < T; t++)
                    sum[t] = pdnn_dw_lanesum16(acc + ((c - c0) * T + t) * L);
                pdnn_dw_blend_taps(dw + c * G->ws[0], wo, T, sum, 1, alpha, beta);
            }
        }
    }
    return true;
}

bool pdnn_dwcb_bwd_filter(const pdnn_conv_problem *p, const float *x, const float *dy,
                          float *dw, float alpha, float beta, int nthreads)
{
    pdnn_conv_geom3 G;
    pdnn_conv_widen(p, &G);
    if (!cb_applies(p, &G)) return false;
    if (cb_flatw(p, &G, x, dy, dw, alpha, beta, nthreads)) return true;
    const int64_t OH = G.out[1], OW = G.out[2], kh = G.kern[1], kw = G.kern[2];
    const int64_t s1 = G.str[1], ext = (kh - 1) * G.dil[1] + 1;
    const cb_src S = {G.in[1], G.in[2], G.xs[3], G.xs[1], G.pad[1], G.pad[2],
                      (OH - 1) * s1 + ext, (OW - 1) * G.str[2] + (kw - 1) * G.dil[2] + 1};
    const int64_t NB = cb_band_rows(OH, (ext - s1) * S.PW * L, (s1 * S.PW + OW) * L);
    if (NB == 0) return false;
    const int64_t nin = ((NB - 1) * s1 + ext) * S.PW * L, whole = NB == OH;
    const pdnn_f32_dwcb_ukernels *uk = pdnn_f32_dwcb_select();
    const int64_t T = kh * kw, C = p->g, nblk = (C + L - 1) / L;
    ptrdiff_t toff[CB_TAPS];
    int tr1[CB_TAPS], tr2[CB_TAPS];
    int64_t wo[CB_TAPS];
    for (int64_t r1 = 0, t = 0; r1 < kh; r1++)
        for (int64_t r2 = 0; r2 < kw; r2++, t++) {
            toff[t] = (ptrdiff_t)((r1 * G.dil[1] * S.PW + r2 * G.dil[2]) * L);
            tr1[t] = (int)r1;
            tr2[t] = (int)r2;
        }
    /* a channel's taps back to back in tap order: the block's sums stored by the unpack
     * kernel (one transpose), else one by one */
    const bool seq = cb_woffs(p, &G, T, tr1, tr2, wo);
    const int nt = cb_threads(nthreads, nblk, (double)p->n * C * OH * OW * T);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        CB_BUFFER(buf, nin);
        _Alignas(64) float acc[CB_TAPS * L];
        int64_t b0, b1;
        pdnn_par_share(nblk, &b0, &b1);
        for (int64_t blk = b0; blk < b1; blk++) {
            const int64_t c0 = blk * L, nc = cb_min(L, C - c0);
            for (int64_t j = 0; j < T * L; j++) acc[j] = 0;
            for (int64_t n = 0; n < p->n; n++) {
                const int64_t n2 = n + 1 < p->n ? n + 1 : 0, c2 = n + 1 < p->n ? c0 : c0 + L;
                if (c2 < C && whole) {
                    cb_prefetch(x + n2 * G.xs[0] + c2 * G.xs[1], cb_min(L, C - c2), S.H, S.W,
                                S.rs, S.cs, 0);
                    cb_prefetch(dy + n2 * G.ys[0] + c2 * G.ys[1], cb_min(L, C - c2), OH, OW,
                                G.ys[3], G.ys[1], 0);
                }
                for (int64_t o0 = 0; o0 < OH; o0 += NB) { /* pixels in order */
                    const int64_t nb = cb_min(NB, OH - o0), ov = o0 ? cb_max(0, ext - s1) : 0;
                    const cb_src D = {OH, OW, G.ys[3], G.ys[1], -o0, 0, nb, OW};
                    cb_halo(buf, S.PW, NB * s1, ov);
                    cb_pack_band(uk, &S, nc, x + n * G.xs[0] + c0 * G.xs[1], buf, o0 * s1,
                                 (nb - 1) * s1 + ext, ov);
                    cb_pack(uk, &D, nc, dy + n * G.ys[0] + c0 * G.ys[1], buf + nin, 0);
                    uk->bwdf((size_t)nb, (size_t)OW, (size_t)T, toff, buf,
                             (ptrdiff_t)(s1 * S.PW * L), (ptrdiff_t)(G.str[2] * L), buf + nin,
                             (ptrdiff_t)(OW * L), acc);
                }
            }
            if (seq) {
                uk->unpack((size_t)nc, 1, (size_t)T, acc, 0, dw + c0 * G.ws[0], 0, G.ws[0],
                           alpha, beta);
                continue;
            }
            for (int64_t j = 0; j < nc; j++)
                pdnn_dw_blend_taps(dw + (c0 + j) * G.ws[0], wo, T, acc + j, L, alpha, beta);
        }
    }
    return true;
}

const pdnn_dw_path pdnn_dwcb_path = {NULL,
                                     {pdnn_dwcb_fwd, pdnn_dwcb_bwd_data, pdnn_dwcb_bwd_filter}};
