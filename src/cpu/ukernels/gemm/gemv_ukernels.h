/* GEMV micro-kernels (internal): rows of A dotted with one vector, for matrix-vector
 * products whose matrix rows are contiguous (a fully connected layer at batch 1).
 * Named pdnn_f32_gemv_ukernel_<MR>__<isa>, one ISA per file.
 *
 *   y[i * incy] = alpha * sum_{k < kc} a[i * lda + k] * x[k] + beta * y[i * incy]
 *   for i < mr (mr <= MR; rows past mr are never read)
 *
 * The SIMD kernels sum each row in two vectors of lanes (k steps of 2 W alternate
 * between them, one fused multiply-add each, the tail through masked loads), then add
 * the two and reduce the lanes in a fixed tree; the scalar kernel sums in increasing k.
 * The epilogue multiplies and adds separately; with beta == 0, y is never read. The
 * order of every sum depends only on kc and the kernel, so results are exact on small
 * integers and never depend on the tiling or the thread count. */
#ifndef PDNN_UKERNELS_GEMV_H
#define PDNN_UKERNELS_GEMV_H

#include <stddef.h>

typedef void (*pdnn_f32_gemv_ukernel_fn)(size_t mr, size_t kc, const float *a, ptrdiff_t lda,
                                         const float *x, float *y, ptrdiff_t incy, float alpha,
                                         float beta);

#define PDNN_F32_GEMV_UKERNEL(name)                                                        \
    void name(size_t mr, size_t kc, const float *restrict a, ptrdiff_t lda,                \
              const float *restrict x, float *restrict y, ptrdiff_t incy, float alpha,     \
              float beta)

PDNN_F32_GEMV_UKERNEL(pdnn_f32_gemv_ukernel_4__scalar);
PDNN_F32_GEMV_UKERNEL(pdnn_f32_gemv_ukernel_6__avx2_fma);
PDNN_F32_GEMV_UKERNEL(pdnn_f32_gemv_ukernel_6__avx512);

/* Several vectors at once (the SIMD kernels' _x4 entry, nc <= 4 columns x + j * ldx):
 *   y[i * incy + yoff[j]] = alpha * sum_{k < kc} a[i * lda + k] * x[j * ldx + k]
 *                           + beta * y[i * incy + yoff[j]]      for i < mr, j < nc
 * A's rows are read once for all the columns; each row and column's sum is one vector
 * of lanes (k steps of W, the tail through masked loads) reduced in a fixed tree, so
 * its bits depend only on kc and the kernel (not the bits of the one-vector entry,
 * which alternates two vectors). */
typedef void (*pdnn_f32_gemv_x4_ukernel_fn)(size_t mr, size_t nc, size_t kc, const float *a,
                                            ptrdiff_t lda, const float *x, ptrdiff_t ldx,
                                            float *y, ptrdiff_t incy, const ptrdiff_t *yoff,
                                            float alpha, float beta);
#define PDNN_F32_GEMV_X4_UKERNEL(name)                                                     \
    void name(size_t mr, size_t nc, size_t kc, const float *restrict a, ptrdiff_t lda,     \
              const float *restrict x, ptrdiff_t ldx, float *restrict y, ptrdiff_t incy,    \
              const ptrdiff_t *yoff, float alpha, float beta)
PDNN_F32_GEMV_X4_UKERNEL(pdnn_f32_gemv_ukernel_6__avx2_fma_x4);
PDNN_F32_GEMV_X4_UKERNEL(pdnn_f32_gemv_ukernel_6__avx512_x4);

typedef struct {
    const char *name;
    int mr;
    pdnn_f32_gemv_ukernel_fn f32;
    pdnn_f32_gemv_x4_ukernel_fn f32_x4; /* NULL: none (scalar) */
} pdnn_gemv_ukernel;

/* The GEMV kernel of the current ISA (src/gemm/gemm_ldb.c). */
const pdnn_gemv_ukernel *pdnn_gemv_ukernel_select_f32(void);

#endif
