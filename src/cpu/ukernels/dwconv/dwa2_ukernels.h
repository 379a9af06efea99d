/* AVX2 3 x 3 depthwise plane micro-kernels (internal), f32, padding 1, unit dilation, one
 * NCHW plane a call read in place (rows at any pitch, unit column stride), 8 outputs of a
 * row a vector. Used by src/ops/conv/cpu/conv_cpu_direct_dw_a2.c.
 *
 * w9 holds the 9 taps of the cross-correlation, w9[3 r + c] for filter row r and column
 * c (the caller flips or rotates). Source elements outside the plane are zero padding:
 * a tap whose source row lies outside adds nothing; a tap whose source column lies
 * outside (its row inside) adds w * 0 (a masked load's zero): no change for a finite
 * weight, but for a sum of -0 becoming +0.
 *
 * Sums: every output is one chain of fused multiply-adds from +0 in tap order (r, then
 * c), the same for every output position (interior vectors, border vectors, first and
 * last rows), so the result depends only on the inputs. Epilogue: v = alpha * acc, then
 * v + beta * d (a rounded product, then an addition) when beta != 0; d is never read
 * when beta == 0. Pitches in floats; planes of any size >= 1 x 1. */
#ifndef PDNN_UKERNELS_DWA2_H
#define PDNN_UKERNELS_DWA2_H

#include <stddef.h>

/* Stride 1, "same" size: for i < H, j < W:
 * y[i yrs + j] = alpha * sum_{r, c < 3} w9[3 r + c] * x[(i + r - 1) xrs + j + c - 1]
 * (+ beta * y[i yrs + j]). Output rows four at a time (eight on rows of at most 8
 * columns), each source vector loaded once for the up to three output rows that read
 * it. */
void pdnn_f32_dwa2_s1__avx2(size_t H, size_t W, const float *x, ptrdiff_t xrs,
                            const float *w9, float *y, ptrdiff_t yrs, float alpha, float beta);

/* Stride 2, source H x W, output OH x OW with OH = (H - 1) / 2 + 1, OW = (W - 1) / 2 + 1:
 * y[o yrs + q] = alpha * sum_{r, c} w9[3 r + c] * x[(2 o + r - 1) xrs + 2 q + c - 1]
 * (+ beta * y). Output rows two at a time (the source row between them loaded once);
 * each source row's 16 columns split into their even and odd columns by in-lane
 * shuffles, the sums kept in the shuffles' lane order and put back in order once before
 * the store. */
void pdnn_f32_dws2a2_fwd__avx2(size_t H, size_t W, const float *x, ptrdiff_t xrs,
                               const float *w9, size_t OH, size_t OW, float *y, ptrdiff_t yrs,
                               float alpha, float beta);

/* Stride 2 backward data (the transpose of the above): dy OH x OW, dx H x W (the same
 * size relation): dx[i dxrs + j] = alpha * sum over the taps (r, c) in order with
 * i + 1 - r = 2 o, j + 1 - c = 2 q, 0 <= o < OH, 0 <= q < OW of w9[3 r + c] *
 * dy[o dyrs + q] (+ beta * dx). Pairs of dx rows (2 o, 2 o + 1) from dy rows o and
 * o + 1, 8 dy columns a vector giving the even and the odd dx columns, interleaved on
 * the store. */
void pdnn_f32_dws2a2_bwdd__avx2(size_t OH, size_t OW, const float *dy, ptrdiff_t dyrs,
                                const float *w9, size_t H, size_t W, float *dx, ptrdiff_t dxrs,
                                float alpha, float beta);

#endif
