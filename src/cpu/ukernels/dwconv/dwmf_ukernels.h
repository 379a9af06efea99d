/* Masked flat-plane depthwise micro-kernels (internal), f32, AVX-512 only: a source plane
 * is read in place as a flat 1-d signal, 16 outputs of the
 * flat output grid a vector, every tap one masked load at a fixed flat offset (lanes whose
 * source pixel lies outside the plane masked off: never read, never added) and one fused
 * multiply-add. The masks come precomputed from the caller, one 16-bit mask per (vector,
 * tap). Used by src/ops/conv/cpu/conv_cpu_direct_dw_flat.c.
 *
 * Sums: each output lane is one chain of fused multiply-adds in tap order (conv) or in
 * vector order (bwdf); a masked-off lane adds nothing (not w * 0). Offsets and strides in
 * floats, may be negative; a masked-off lane's address may lie outside every buffer. */
#ifndef PDNN_UKERNELS_DWMF_H
#define PDNN_UKERNELS_DWMF_H

#include <stddef.h>
#include <stdint.h>

#define PDNN_DWMF_LANES 16
#define PDNN_DWMF_TAPS 25 /* taps at most (the masks kernel: rows and columns each) */

/* conv: for planes p < np, grid vectors v < ceil(nout / 16), lanes l with f = 16 v + l <
 * nout: dst[p dcs + f] = alpha * sum_{t < ntap, bit l of masks[v ntap + t]}
 * w[p wcs + t] * src[p scs + f + toff[t]] (+ beta * dst[p dcs + f] when beta != 0, a
 * rounded product then an addition; dst unread when beta == 0). ntap == 0: alpha * 0. */
void pdnn_f32_dwmf_conv__avx512(size_t np, const float *src, ptrdiff_t scs, size_t ntap,
                                const ptrdiff_t *toff, const uint16_t *masks, const float *w,
                                ptrdiff_t wcs, size_t nout, float *dst, ptrdiff_t dcs, float alpha,
                                float beta);

/* bwdf: for planes p < np, taps t < ntap: sum[p ntap + t] = the sum over the images n <
 * nimg and the grid elements f < nout (only where bit f % 16 of masks[(f / 16) ntap + t]
 * is set) of dy[n dns + p dcs + f] * src[n sns + p scs + f + toff[t]]: 16 lanes l (f %
 * 16 == l), each a chain over the images, then the grid vectors, in increasing order,
 * summed in a fixed tree (lanes l and l + 8, then l and l + 4, then (0 + 2) + (1 + 3)). */
void pdnn_f32_dwmf_bwdf__avx512(size_t np, const float *src, ptrdiff_t scs, ptrdiff_t sns,
                                size_t ntap, const ptrdiff_t *toff, const uint16_t *masks,
                                const float *dy, ptrdiff_t dcs, ptrdiff_t dns, size_t nimg,
                                size_t nout, float *sum);

/* masks: the (vector, tap) masks of a grid of nout elements in rows of gw (gwv <= gw of
 * them valid), taps t = r nc + c (r < nr, c < nc <= PDNN_DWMF_TAPS): masks[v nr nc + t] =
 * lanes l whose f = 16 v + l < nout, j = f % gw < gwv, 0 <= f / gw + dr[r] < hr[r] and
 * 0 <= j + dc[c] < wc[c]; every vector v < ceil(nout / 16), or (_range) those of
 * v0 <= v < v1 (at the same places of masks; threads may build disjoint ranges). */
void pdnn_f32_dwmf_masks__avx512(size_t nout, size_t gw, size_t gwv, size_t nr,
                                 const int32_t *dr, const int32_t *hr, size_t nc,
                                 const int32_t *dc, const int32_t *wc, uint16_t *masks);
void pdnn_f32_dwmf_masks_range__avx512(size_t nout, size_t gw, size_t gwv, size_t nr,
                                       const int32_t *dr, const int32_t *hr, size_t nc,
                                       const int32_t *dc, const int32_t *wc, size_t v0,
                                       size_t v1, uint16_t *masks);

#endif
