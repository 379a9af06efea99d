/* Row-vector 3 x 3 depthwise micro-kernels (internal), f32, AVX-512 only: stride 1,
 * unit dilation, padding 1, the output plane the input's size (H x W, rows back to back,
 * any W; rows past PDNN_DWROW_WMAX in strips (conv) or vector by vector (bwdf)). A plane
 * row is ceil(W / 16) vectors read in place by masked
 * loads (the lanes past the row never read), its columns j - 1 and j + 1 made by lane
 * shifts (the lanes outside the row masked off in every multiply-add: never added), each
 * row's three vectors used by the three output rows they reach; no copies, no mask
 * tables. conv: rows of up to 8 columns of two
 * planes share a vector. Used by
 * src/ops/conv/cpu/conv_cpu_direct_dw_row.c.
 *
 * Taps: w[t], t = 3 r + c, is the weight of source pixel (i + r - 1, j + c - 1) for
 * output (i, j) (the caller turns convolution, KRSC and backward data's rotated filter
 * into this order). Offsets and strides in floats. */
#ifndef PDNN_UKERNELS_DWROW_H
#define PDNN_UKERNELS_DWROW_H

#include <stddef.h>

#define PDNN_DWROW_WMAX 32 /* rows of at most two vectors, kept whole in registers */

/* conv: for planes p < np: dst[p dcs + i W + j] = alpha * sum_{t valid} w[p wcs + t] *
 * src[p scs + (i + r - 1) W + j + c - 1] (+ beta * dst, a rounded product then an
 * addition; dst unread when beta == 0), each output one chain of fused multiply-adds in
 * tap order over the taps whose source pixel lies in the plane. stream (beta == 0 only):
 * whole 64-byte aligned vectors of dst stored non-temporally (the caller fences after the
 * last call); the same values either way. */
void pdnn_f32_dwrow_conv__avx512(size_t np, const float *src, ptrdiff_t scs, const float *w,
                                 ptrdiff_t wcs, size_t H, size_t W, float *dst, ptrdiff_t dcs,
                                 float alpha, float beta, int stream);

/* bwdf: for planes p < np (any number), taps t < 9: sum[9 p + t] = sum over the images n < nimg and
 * outputs (i, j) whose source pixel lies in the plane of dy[n dns + p dcs + i W + j] *
 * src[n sns + p scs + (i + r - 1) W + j + c - 1]: 16 lanes (column j % 16), each a
 * chain over the images, the source rows, and the row's vectors in increasing order,
 * then summed in the fixed tree of dwmf_ukernels.h (lanes l and l + 8, then l and l + 4,
 * then (0 + 2) + (1 + 3)). */
void pdnn_f32_dwrow_bwdf__avx512(size_t np, const float *src, ptrdiff_t scs, ptrdiff_t sns,
                                 const float *dy, ptrdiff_t dcs, ptrdiff_t dns, size_t nimg,
                                 size_t H, size_t W, float *sum);

#endif
