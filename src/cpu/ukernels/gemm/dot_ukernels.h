/* Dot-tile micro-kernels (internal): partial dot products of MR rows of A with NR rows of
 * B, both contiguous along the sum, kept as 16 lanes per pair. For sums whose operands
 * both run along the reduction (a 1x1 convolution's backward filter in NCHW: dy and x
 * rows of pixels). Named pdnn_f32_dot_ukernel_<MR>x<NR>__<isa>.
 *
 *   acc[(i * NR + j) * 16 + l] += sum_{k < kc, k % 16 == l} a[i * lda + k] * b[j * ldb + k]
 *   for i < mr, j < nr (other slots untouched; rows past mr / nr never read)
 *
 * Each lane sums its k in increasing order (the AVX-512 kernel with one fused
 * multiply-add per step, the scalar one with a multiply and an add); columns k >= kc are
 * never read (masked tail). A caller that starts every call at a fixed k (a multiple of
 * 16 from its sum's start) gets lanes that depend only on the data; reducing the 16
 * lanes in a fixed order then gives sums independent of the tiling and thread count. */
#ifndef PDNN_UKERNELS_DOT_H
#define PDNN_UKERNELS_DOT_H

#include <stddef.h>

#define PDNN_DOT_LANES 16

typedef void (*pdnn_f32_dot_ukernel_fn)(size_t mr, size_t nr, size_t kc, const float *a,
                                        ptrdiff_t lda, const float *b, ptrdiff_t ldb,
                                        float *acc);

#define PDNN_F32_DOT_UKERNEL(name)                                                         \
    void name(size_t mr, size_t nr, size_t kc, const float *restrict a, ptrdiff_t lda,     \
              const float *restrict b, ptrdiff_t ldb, float *restrict acc)

PDNN_F32_DOT_UKERNEL(pdnn_f32_dot_ukernel_4x4__scalar);
PDNN_F32_DOT_UKERNEL(pdnn_f32_dot_ukernel_4x4__avx512);

#endif
