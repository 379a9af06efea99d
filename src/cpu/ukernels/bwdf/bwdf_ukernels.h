/* Backward filter micro-kernel by broadcast sums (internal), f32, AVX-512 only, used by
 * src/ops/conv/cpu/conv_cpu_direct_bcast.c: NT taps (1 to PDNN_BWDF_BCAST_TAPS) x 32
 * output channels in 2 NT accumulators; per output pixel, the two 16-channel vectors of
 * its transposed dy row and NT broadcast source values, 2 NT fused multiply-adds. The
 * sums run along the output channels, so nothing is reduced across lanes and no pixel
 * is masked: the caller's source rows carry their zero padding. */
#ifndef PDNN_UKERNELS_BWDF_H
#define PDNN_UKERNELS_BWDF_H

#include <stddef.h>

#define PDNN_BWDF_BCAST_TAPS 14  /* taps of one call at most */
#define PDNN_BWDF_BCAST_LANES 32 /* output channels of one call */

/* For taps t < nt and output channel lanes l < 32,
 *   acc[32 t + l] += src[t][off + i rs + o sw] * dyt[32 (i q + o) + l]
 * for rows i < nrows and pixels o < q, one fused multiply-add each, in increasing
 * (i, o) (each lane one chain, continued from the values in acc). dyt: nrows q rows of
 * 32 floats (the pixels' dy, channel-minor); src: a source pointer a tap. Every source
 * element read must exist. Offsets and strides in floats. */
void pdnn_f32_bwdf_bcast__avx512(size_t nt, size_t nrows, size_t q, ptrdiff_t sw, ptrdiff_t rs,
                                 const float *const *src, ptrdiff_t off, const float *dyt,
                                 float *acc);

#endif
