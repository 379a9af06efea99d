/* Direct convolution micro-kernel on zero-padded planes (internal), f32, AVX2 + FMA.
 * Used by src/ops/conv/cpu/conv_cpu_direct_phase.c (forward and backward data by stride
 * phases).
 *
 * The operands are planes that a caller copied with their zero padding, so that every
 * tap of 8 consecutive outputs reads 8 consecutive source elements at a fixed offset:
 * no masks, no bounds. A register tile of 4 output rows (channels) x 3 vectors of 8
 * outputs: per tap, 3 unaligned loads, 4 broadcast weights, 12 fused multiply-adds. */
#ifndef PDNN_UKERNELS_PPLANE_H
#define PDNN_UKERNELS_PPLANE_H

#include <stddef.h>

#define PDNN_PPLANE_MR 4 /* output rows of the register tile */
#define PDNN_PPLANE_NV 3 /* vectors of 8 outputs of the register tile, at most */

/* For rows i < mr (1..4), vectors v < n (any; computed 3 at a time) and lanes
 * l < nval[v] (1..8):
 *   dst[v][i drs + l] = alpha * sum_{g < ng} sum_{j < nt}
 *                         w[i wrs + g wgs + woff[j]] * src[v][g sgs + toff[j] + l]
 *                       (+ beta * dst[v][i drs + l] when beta != 0: a rounded product,
 *                       then an addition; dst unread when beta == 0).
 * Each sum is one chain of fused multiply-adds over g (outer) and j (inner) in
 * increasing order (a zero source element adds w * 0). Every vector v has its own
 * source base src[v] and output base dst[v] (row i at dst[v] + i drs); lanes >= nval[v]
 * are neither read nor written in dst. Rows >= mr of w are not read. ng == 0 or nt == 0:
 * alpha * 0. woff NULL: woff[j] = j (the taps in the filter's order: one load less a
 * tap; the stems 0-3% faster, one thread). Offsets and strides in floats, may be
 * negative. */
void pdnn_f32_pplane_4x24__avx2(size_t mr, size_t n, size_t ng, size_t nt,
                                const float *const *src, ptrdiff_t sgs, const ptrdiff_t *toff,
                                const float *w, ptrdiff_t wrs, ptrdiff_t wgs,
                                const ptrdiff_t *woff, float *const *dst, ptrdiff_t drs,
                                const size_t *nval, float alpha, float beta);

#endif
