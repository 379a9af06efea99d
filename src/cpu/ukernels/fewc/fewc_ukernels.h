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

/* Column stride 2 with x read in place (no phase planes, no padded copy), the tap
 * vectors of a tile for the _pad kernel: the grid of the output planes is each output
 * row's qv = ceil(Q / 16) vectors, grid vector v (of the image) output row oh = v / qv,
 * columns ow0 + l (ow0 = 16 (v % qv), l < 16). For grid vectors v0 + v (v < nv, 1..3),
 * input channels c, filter taps (r, s) and lanes l:
 *   buf[(((c R + r) S + s) 3 + v) 16 + l] = x[c xcs + (oh sr + r - pt) xrs + 2 (ow0 + l)
 *                                             + s - pl]
 * (0 outside x's H rows and W columns): per vector and filter row, the columns 2 ow0 +
 * [-16, 48) in up to four masked loads, their even and odd lanes split by two permutes
 * and shifted by one lane for the column offsets s - pl = -1 and 2. buf: 64-byte
 * aligned, nc R S 48 floats. Filters with s - pl in [-1, 2] for every column (padding
 * before the columns 0 or 1, at most 4 columns: PDNN_FEWC_S2_FITS; else nothing). The
 * _pad kernel then runs on buf with scs = R S 48, toff[j] = 48 j, soff[v] = 16 v. */
#define PDNN_FEWC_S2_FITS(S, pl) ((pl) >= 0 && (pl) <= 1 && (S) >= 1 && (S) - 1 - (pl) <= 2)
typedef struct {
    const float *x;     /* the image's first input channel */
    ptrdiff_t xcs, xrs; /* x's channel and row strides */
    int64_t H, W;       /* x's rows and columns */
    int64_t sr, pt, pl; /* row stride; padding before the rows and the columns */
    size_t nc, R, S;    /* input channels, filter rows, filter columns */
    size_t qv;          /* grid vectors an output row */
} pdnn_fewc_s2;

void pdnn_f32_fewc_s2_taps__avx512(const pdnn_fewc_s2 *g, size_t v0, size_t nv, float *buf);

#endif
