/* Channel-blocked depthwise micro-kernels (internal), f32: blocks of PDNN_DWCB_LANES
 * channels stored channels-minor (pixel p of the block at p * 16, lane c = channel
 * c), so that every tap of every pixel is one 16-lane multiply-add with that tap's 16
 * weights. Used by src/ops/conv/cpu/conv_cpu_direct_dw_cb.c for NCHW planes; its
 * stride-1 planes take the flat kernel (one channel, 16 positions a vector) instead.
 * One ISA a file (f32_dwcb__<isa>.c), chosen at run time.
 *
 * Sums: each output lane is one chain in the order written (taps t increasing for
 * conv; pixels (o1, o2) in increasing order for bwdf), fused multiply-adds on AVX2 and
 * AVX-512, a rounded product then an addition in the scalar kernels (the bits differ
 * between those ISAs, never between runs or thread counts; exact on small integers).
 * Offsets and strides are in floats and may be negative; n1, n2, ntap may be 0. */
#ifndef PDNN_UKERNELS_DWCB_H
#define PDNN_UKERNELS_DWCB_H

#include <stddef.h>

#define PDNN_DWCB_LANES 16

#define PDNN_DWCB_DECLARE(isa)                                                              \
    /* y[o1 ys1 + o2 ys2 + c] = sum_{t < ntap} w[16 t + c] * x[o1 xs1 + o2 xs2 + toff[t] + c] \
     * for o1 < n1, o2 < n2, c < 16 (ntap == 0: zeros) */                                   \
    void pdnn_f32_dwcb_conv__##isa(size_t n1, size_t n2, size_t ntap, const ptrdiff_t *toff, \
                                   const float *w, const float *x, ptrdiff_t xs1,           \
                                   ptrdiff_t xs2, float *y, ptrdiff_t ys1, ptrdiff_t ys2);  \
    /* acc[16 t + c] += dy[o1 ds1 + o2 16 + c] * x[o1 xs1 + o2 xs2 + toff[t] + c],           \
     * t < ntap, over o1 < n1, o2 < n2 in increasing order */                               \
    void pdnn_f32_dwcb_bwdf__##isa(size_t n1, size_t n2, size_t ntap, const ptrdiff_t *toff, \
                                   const float *x, ptrdiff_t xs1, ptrdiff_t xs2,            \
                                   const float *dy, ptrdiff_t ds1, float *acc);             \
    /* dst[i ds1 + 16 p + c] = src[c lds + i ss1 + p] for i < n1, p < n2, c < nc (<= 16);  \
     * lanes nc..15 = 0 */                                                                  \
    void pdnn_f32_dwcb_pack__##isa(size_t nc, size_t n1, size_t n2, const float *src,        \
                                   ptrdiff_t ss1, ptrdiff_t lds, float *dst, ptrdiff_t ds1); \
    /* dst[c ldd + i ds1 + p] = alpha * src[i ss1 + 16 p + c] (+ beta * dst[...] when        \
     * beta != 0, a rounded product then an addition; dst unread when beta == 0), i < n1,   \
     * p < n2, c < nc */                                                                    \
    void pdnn_f32_dwcb_unpack__##isa(size_t nc, size_t n1, size_t n2, const float *src,      \
                                     ptrdiff_t ss1, float *dst, ptrdiff_t ds1, ptrdiff_t ldd, \
                                     float alpha, float beta);                            \
    /* One plane flat (stride 1): x's n1 x n2 plane (rows at xs1) copied into xp (rows of  \
     * pw, zero outside the copy, written at row p1, column p2, clipped to ph x pw);       \
     * yf[f] = sum_{t < ntap} w[t] xp[f + toff[t]] for f < (m1 - 1) pw + m2 (taps t         \
     * increasing), y[o1 ys1 + o2] = alpha yf[o1 pw + o2] (+ beta y, as unpack) for         \
     * o1 < m1, o2 < m2 <= pw. xp holds ph pw + 16 floats, yf m1 pw + 16. pfo != 0: the      \
     * plane at x + pfo (the next one) is prefetched row by row. */                \
    void pdnn_f32_dwcb_flat__##isa(size_t n1, size_t n2, const float *x, ptrdiff_t xs1,      \
                                   ptrdiff_t pfo, float *xp, size_t ph, size_t pw, size_t p1, size_t p2,    \
                                   size_t ntap, const ptrdiff_t *toff, const float *w,       \
                                   float *yf, size_t m1, size_t m2, float *y, ptrdiff_t ys1, \
                                   float alpha, float beta);                            \
    /* One plane, 3 x 3 taps w[3 r1 + r2], stride 2, unit dilation: y[o1 ys1 + o2] =        \
     * alpha sum w[3 r1 + r2] P(2 o1 + r1, 2 o2 + r2) (+ beta y) for o1 < m1, o2 < m2,      \
     * where P is x's n1 x n2 plane (rows at xs1) zero-padded by p1 rows and p2 columns,  \
     * read in ph x pw (pw a multiple of 32, >= 2 m2 + 2); taps in (r1, r2) order. xp:     \
     * scratch of ph pw + 2 pw + 32 floats, zero on the first call of a geometry and left  \
     * by each call as the next one needs it; pfo as flat. */                                           \
    void pdnn_f32_dwcb_flat2__##isa(size_t n1, size_t n2, const float *x, ptrdiff_t xs1,     \
                                    ptrdiff_t pfo, float *xp, size_t ph, size_t pw, size_t p1, size_t p2,   \
                                    const float *w, size_t m1, size_t m2, float *y,          \
                                    ptrdiff_t ys1, float alpha, float beta);                \
    /* Backward filter of one plane flat (stride 1): xp as flat (x copied, pfo likewise);   \
     * acc[16 t + l] += dy[o1 ds1 + c + l] xp[o1 pw + c + l + toff[t]] for o1 < m1, pieces   \
     * c = 0, 16, .. < m2, lanes with c + l < m2 (the others unchanged), in the order       \
     * (c, o1) increasing for each t. */                                                    \
    void pdnn_f32_dwcb_flatw__##isa(size_t n1, size_t n2, const float *x, ptrdiff_t xs1,     \
                                    ptrdiff_t pfo, float *xp, size_t ph, size_t pw,          \
                                    size_t p1, size_t p2, size_t ntap, const ptrdiff_t *toff, \
                                    const float *dy, ptrdiff_t ds1, size_t m1, size_t m2,    \
                                    float *acc);

PDNN_DWCB_DECLARE(scalar)
PDNN_DWCB_DECLARE(avx2)
PDNN_DWCB_DECLARE(avx512)

typedef struct {
    void (*conv)(size_t, size_t, size_t, const ptrdiff_t *, const float *, const float *,
                 ptrdiff_t, ptrdiff_t, float *, ptrdiff_t, ptrdiff_t);
    void (*bwdf)(size_t, size_t, size_t, const ptrdiff_t *, const float *, ptrdiff_t,
                 ptrdiff_t, const float *, ptrdiff_t, float *);
    void (*pack)(size_t, size_t, size_t, const float *, ptrdiff_t, ptrdiff_t, float *,
                 ptrdiff_t);
    void (*unpack)(size_t, size_t, size_t, const float *, ptrdiff_t, float *, ptrdiff_t,
                   ptrdiff_t, float, float);
    void (*flat)(size_t, size_t, const float *, ptrdiff_t, ptrdiff_t, float *, size_t, size_t, size_t,
                 size_t, size_t, const ptrdiff_t *, const float *, float *, size_t, size_t,
                 float *, ptrdiff_t, float, float);
    void (*flat2)(size_t, size_t, const float *, ptrdiff_t, ptrdiff_t, float *, size_t, size_t, size_t,
                  size_t, const float *, size_t, size_t, float *, ptrdiff_t, float, float);
    void (*flatw)(size_t, size_t, const float *, ptrdiff_t, ptrdiff_t, float *, size_t, size_t,
                  size_t, size_t, size_t, const ptrdiff_t *, const float *, ptrdiff_t, size_t,
                  size_t, float *);
} pdnn_f32_dwcb_ukernels;

/* The kernels for pdnn_cpu_isa(). */
const pdnn_f32_dwcb_ukernels *pdnn_f32_dwcb_select(void);

#endif
