/* Channel-vector direct convolution micro-kernels (internal), f32, AVX-512 only: the
 * forward of a convolution of column stride 1 or 2 with the output channels along the
 * vector lanes (as oneDNN's direct kernels on its blocked layouts, and Georganas et al.,
 * "Anatomy of High-Performance Deep Learning Convolutions on SIMD Architectures", SC18),
 * here on NCHW data: a register tile of np consecutive output pixels of one output row x
 * nv vectors of 16 output channels; per filter tap, nv vector loads of the packed
 * transposed filter and one broadcast input value a pixel (the pixels 1 or 2 input
 * columns apart: the _s1 and _s2 kernels), np x nv fused multiply-adds. Nothing of x is
 * packed: the broadcasts read a zero-padded copy of x's planes in place. The sums go to
 * a pixel-major scratch tile, which kvec_store transposes into y's channel planes. Used
 * by src/ops/conv/cpu/conv_cpu_direct_kvec.c.
 *
 * Offsets and strides in floats. Nothing needs alignment. */
#ifndef PDNN_UKERNELS_KVEC_H
#define PDNN_UKERNELS_KVEC_H

#include <stddef.h>

#define PDNN_KVEC_PX2 14 /* pixels of the 2-vector (32-channel) tile at most */
#define PDNN_KVEC_PX4 7  /* pixels of the 4-vector (64-channel) tile at most */
#define PDNN_KVEC_PFD 2  /* channels ahead of the one summed whose rows are prefetched */

/* Tap classes (tcls[j], bits): what tap j leaves out. The callers mark the products
 * that would read the zero padding, which add nothing (w * 0): a filter row outside x
 * for the tile's output row, the tile's first or last pixel left or right of x. */
#define PDNN_KVEC_SKIP_FIRST 1u /* pixel 0 */
#define PDNN_KVEC_SKIP_LAST 2u  /* pixel np - 1 */
#define PDNN_KVEC_SKIP_TAP 4u   /* every pixel */

/* For pixels i < np, vectors v < nv (nv 2 with np 1..14, or nv 4 with np 1..7) and lanes
 * l, with a = acc[i as + v 16 + l] (as >= 16 nv: pixels as floats apart in the scratch)
 * and S the kernel's column stride (1 or 2):
 *   a = (first ? 0 : a) + the fused multiply-adds, in this order,
 *       for c < nc, for j < ntap, unless tcls[j] leaves pixel i out:
 *           x[c cs + toff[j] + S i] * w[((c ntap + j) nv + v) 16 + l]
 * (one chain of fused multiply-adds a lane; acc unread when first). Before channel c's
 * taps, the lines at x + (c + PDNN_KVEC_PFD) cs + pfo[0 .. npf) are prefetched (hints
 * only: the addresses may lie outside every buffer). nc == 0 or ntap == 0 leaves the
 * start value. */
void pdnn_f32_kvec_s1__avx512(size_t np, size_t nv, size_t nc, size_t ntap, const float *x,
                              ptrdiff_t cs, const ptrdiff_t *toff, const unsigned char *tcls,
                              const float *w, float *acc, ptrdiff_t as, int first,
                              const ptrdiff_t *pfo, size_t npf);
void pdnn_f32_kvec_s2__avx512(size_t np, size_t nv, size_t nc, size_t ntap, const float *x,
                              ptrdiff_t cs, const ptrdiff_t *toff, const unsigned char *tcls,
                              const float *w, float *acc, ptrdiff_t as, int first,
                              const ptrdiff_t *pfo, size_t npf);

/* The kernels' type. */
typedef void (*pdnn_f32_kvec_fn)(size_t np, size_t nv, size_t nc, size_t ntap, const float *x,
                                 ptrdiff_t cs, const ptrdiff_t *toff, const unsigned char *tcls,
                                 const float *w, float *acc, ptrdiff_t as, int first,
                                 const ptrdiff_t *pfo, size_t npf);

/* The scratch tiles into y: for i < np, k < nk,
 *   y[k ldy + i] = alpha * t[i ldt + k]  (+ beta * y[k ldy + i] when beta != 0: a rounded
 *                                          product, then an addition; y unread when
 *                                          beta == 0)
 * through 16 x 16 register transposes (edges masked). Nothing else of y is written.
 * stream (with beta == 0): runs of 16 pixels at 64-byte aligned addresses are written by
 * non-temporal stores (the caller fences before the values are read). */
void pdnn_f32_kvec_store__avx512(size_t np, size_t nk, const float *t, ptrdiff_t ldt, float *y,
                                 ptrdiff_t ldy, float alpha, float beta, int stream);

#endif
