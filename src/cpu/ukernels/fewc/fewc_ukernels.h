/* Few-input-channel convolution micro-kernel (internal), f32, AVX-512 only: the forward
 * of a stride-1 convolution whose output rows are as wide as its input rows, on masked
 * flat planes (as the depthwise dwmf kernels, cpu/ukernels/dwconv/dwmf_ukernels.h): the
 * output plane of an image is one flat grid, 16 outputs a vector; tap j of input channel
 * c reads the channel's plane in place at the fixed flat offset toff[j] from the output
 * element, under a 16-bit mask of the lanes whose source pixel lies inside the plane
 * (never read, never added). A register tile of 8 output channels x up to 3 vectors:
 * per tap, one masked load a vector, one broadcast weight a channel, one masked fused
 * multiply-add each. Used by src/ops/conv/cpu/conv_cpu_direct_fewc.c (the backward
 * filter of these problems: cpu/ukernels/bwdf).
 *
 * Sums: every output lane is one chain of fused multiply-adds over c (outer) and j
 * (inner) in increasing order; a masked-off lane adds nothing (not w * 0). Offsets and
 * strides in floats, may be negative; a masked-off lane's address may lie outside every
 * buffer. */
#ifndef PDNN_UKERNELS_FEWC_H
#define PDNN_UKERNELS_FEWC_H

#include <stddef.h>
#include <stdint.h>

#define PDNN_FEWC_MR 8 /* output channels of the register tile */
#define PDNN_FEWC_NV 3 /* grid vectors of 16 outputs of the register tile, at most */

/* For rows i < mr (<= 8), vectors v < nv (1..3) and lanes l with f = 16 v + l (and, in
 * the last vector, l < nlast, 1..16):
 *   dst[i drs + f] = alpha * sum_{c < nc} sum_{j < ntap, bit l of masks[v ntap + j]}
 *                      wp[(c ntap + j) 8 + i] * src[c scs + f + toff[j]]
 *                    (+ beta * dst[i drs + f] when beta != 0: a rounded product, then an
 *                    addition; dst unread when beta == 0).
 * wp: the tile's packed filter, 8 weights (rows i) a tap, rows >= mr ignored (any
 * values). ntap == 0 or nc == 0: alpha * 0. */
void pdnn_f32_fewc_8x48__avx512(size_t mr, size_t nv, size_t nc, size_t ntap, const float *src,
                                ptrdiff_t scs, const ptrdiff_t *toff, const uint16_t *masks,
                                const float *wp, float *dst, ptrdiff_t drs, size_t nlast,
                                float alpha, float beta);

/* The same tile on zero-padded planes, without masks: vector v's 16 lanes read at
 * src + soff[v] (+ c scs + toff[j] + l, every lane of every tap read and multiplied,
 * inside one buffer) and go to dst + doff[v] (+ i drs + l), the lanes of dmask[v] only:
 *   dst[i drs + doff[v] + l] = alpha * sum_{c < nc} sum_{j < ntap}
 *                                wp[(c ntap + j) 8 + i] * src[soff[v] + c scs + toff[j] + l]
 *                              (+ beta * dst[..] when beta != 0, as above)
 * for the lanes l of dmask[v] (dst unread and unwritten elsewhere). Every lane is one
 * chain of fused multiply-adds in the order above; with finite weights, a padding tap
 * (a zero) adds a zero of either sign, which leaves a sum as the masked kernel's but for
 * the sign of a zero. stream (with beta == 0): vectors of all 16 lanes at 64-byte
 * aligned addresses are written by non-temporal stores (the caller fences before the
 * values are read). */
void pdnn_f32_fewc_8x48_pad__avx512(size_t mr, size_t nv, size_t nc, size_t ntap,
                                    const float *src, ptrdiff_t scs, const ptrdiff_t *toff,
                                    const float *wp, float *dst, ptrdiff_t drs,
                                    const ptrdiff_t *soff, const ptrdiff_t *doff,
                                    const uint16_t *dmask, float alpha, float beta, int stream);

#endif
