/* Matrix transposes (internal), one ISA a file:
 *   dst[j * ldd + i] = src[i * lds + j]   for i < rows, j < cols
 * f32 in square blocks of the vector width (AVX-512: 16 x 16, AVX2: 8 x 8; the blocks at
 * the edges with masked loads and stores), f64 in plain C. Nothing else of dst is
 * written; src and dst must not overlap; rows or cols may be 0; the strides may be
 * negative (a negative ldd writes the rows of dst last first: cpu:direct_kvec reverses a
 * flipped filter's taps so). A pure copy of values,
 * so every ISA gives the same bits. Used where a packer turns a channel-major block into
 * a channel-minor one (the backward filter's dY^T panels). */
#ifndef PDNN_UKERNELS_TRANSPOSE_H
#define PDNN_UKERNELS_TRANSPOSE_H

#include <stddef.h>

typedef void (*pdnn_f32_transpose_fn)(size_t rows, size_t cols, const float *src, ptrdiff_t lds,
                                      float *dst, ptrdiff_t ldd);

void pdnn_f32_transpose__scalar(size_t rows, size_t cols, const float *src, ptrdiff_t lds,
                                float *dst, ptrdiff_t ldd);
void pdnn_f32_transpose__avx2(size_t rows, size_t cols, const float *src, ptrdiff_t lds,
                              float *dst, ptrdiff_t ldd);
void pdnn_f32_transpose__avx512(size_t rows, size_t cols, const float *src, ptrdiff_t lds,
                                float *dst, ptrdiff_t ldd);
void pdnn_f64_transpose(size_t rows, size_t cols, const double *src, ptrdiff_t lds,
                        double *dst, ptrdiff_t ldd);

/* The f32 kernel of pdnn_cpu_isa(). */
pdnn_f32_transpose_fn pdnn_f32_transpose_select(void);

#endif
