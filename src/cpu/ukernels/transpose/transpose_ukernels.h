/* 32-bit transpose micro-kernels (internal): a block of up to 16 x 16 elements,
 *   dst[j * ldd + i] = src[i * lds + j]   for i < ni, j < nj   (ni, nj <= 16)
 * (src: ni rows of nj contiguous elements; dst: nj rows of ni). Nothing outside the
 * block is read or written. Pure data movement: the bits are copied. Named
 * pdnn_x32_transpose_ukernel_16x16__<isa>. */
#ifndef PDNN_UKERNELS_TRANSPOSE_H
#define PDNN_UKERNELS_TRANSPOSE_H

#include <stddef.h>

typedef void (*pdnn_x32_transpose_ukernel_fn)(size_t ni, size_t nj, const float *src,
                                              ptrdiff_t lds, float *dst, ptrdiff_t ldd);

#define PDNN_X32_TRANSPOSE_UKERNEL(name)                                                   \
    void name(size_t ni, size_t nj, const float *restrict src, ptrdiff_t lds,              \
              float *restrict dst, ptrdiff_t ldd)

PDNN_X32_TRANSPOSE_UKERNEL(pdnn_x32_transpose_ukernel_16x16__scalar);
PDNN_X32_TRANSPOSE_UKERNEL(pdnn_x32_transpose_ukernel_16x16__avx512);

#endif
