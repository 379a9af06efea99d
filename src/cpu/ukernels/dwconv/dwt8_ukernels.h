/* AVX2 channel-interleaved 3 x 3 depthwise micro-kernels (internal), f32: blocks of 8
 * channels turned channels-minor (pixel p of a block at 8 p, lane c = channel c) so that
 * every tap of every output pixel is one 8-lane fused multiply-add with that tap's 8
 * weights, no broadcasts and every lane busy whatever the plane width (7 x 7 planes).
 * Used by src/ops/conv/cpu/conv_cpu_direct_dw_t8.c for NCHW planes:
 * pack (planes -> a zero-padded channels-minor buffer), conv (buffer -> the output
 * planes, with alpha and beta, by transposes of the sums).
 *
 * Sums (conv): every output lane is one chain of fused multiply-adds from +0 in tap order
 * (r, then c), the same for every position (the padding a zero of the buffer: w * 0 is
 * added there, so an Inf or NaN weight reaches border outputs as NaN), so results
 * depend only on the inputs; for finite weights the same chains (so the same bits) as
 * pdnn_f32_dwa2_s1__avx2 / pdnn_f32_dws2a2_fwd__avx2 (dwa2_ukernels.h) on the same taps.
 * Pitches in floats (plane rows rs, channel planes cs) or pixels (buffer rows prs);
 * sizes may be 0. */
#ifndef PDNN_UKERNELS_DWT8_H
#define PDNN_UKERNELS_DWT8_H

#include <stddef.h>

/* buf[8 (i prs + j) + c] = x[c cs + i rs + j] for i < H, j < W, c < nc (<= 8), lane c of
 * those pixels 0 for c >= nc; nothing else of buf written. pfo != 0: the planes at
 * x + pfo (the next block's; any address, never read) are prefetched as these are read. */
void pdnn_f32_dwt8_pack__avx2(size_t nc, size_t H, size_t W, const float *x, ptrdiff_t rs,
                              ptrdiff_t cs, float *buf, ptrdiff_t prs, ptrdiff_t pfo);

/* The same as one flat run of P pixels whose pixel f goes to buf + 8 idx[f]:
 * buf[8 idx[f] + c] = x[c cs + f], f < P, c < nc (lanes >= nc 0); pfo as above. */
void pdnn_f32_dwt8_packt__avx2(size_t nc, size_t P, const float *x, ptrdiff_t cs,
                               const unsigned *idx, float *buf, ptrdiff_t pfo);

/* Stride s (1 or 2), 3 x 3 taps w[8 (3 r + c) + l] (lane l = channel l): for o < OH,
 * q < OW, l < nc (<= 8): y[l cs + o rs + q] = alpha * sum_{r, c < 3} w[8 (3 r + c) + l] *
 * buf[8 ((s o + r) prs + s q + c) + l] (+ beta * y[..] when beta != 0, a rounded product
 * then an addition; y unread when beta == 0); buf holds every pixel read (a zero-padded
 * plane: buffer row = source row + 1, column = source column + 1). Output rows in
 * pieces of at most 8 pixels (balanced), each buffer vector loaded once a filter row for
 * the outputs that read it, the piece's sums 8 x 8-transposed into the planes; with
 * beta == 0 a piece's stores may also write (lanes past it) the plane's pixels that the
 * next pieces or rows then write: y must not be read by others during the call. */
void pdnn_f32_dwt8_conv3__avx2(size_t nc, size_t s, size_t OH, size_t OW, const float *buf,
                               ptrdiff_t prs, const float *w, float *y, ptrdiff_t rs,
                               ptrdiff_t cs, float alpha, float beta);

#endif
