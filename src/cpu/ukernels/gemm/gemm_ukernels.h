/* GEMM micro-kernels (internal), named as in XNNPACK:
 * pdnn_<type>_gemm_ukernel_<MR>x<NR>__<isa>, one ISA per file.
 *
 * A micro-kernel computes one MR x NR tile of C:
 *   acc[i][j] = sum_{k < kc} A(i, k) * b[k * NR + j]   (k in increasing order)
 *   C[i][j]   = alpha * acc[i][j] + beta * C[i][j]   for i < mr, j < nr
 * with A(i, k) at a[i * rs_a + k * cs_a] (a packed panel: rs_a = 1, cs_a = MR; a plain
 * row-major matrix: rs_a = lda, cs_a = 1) and C[i][j] at c[i * rs_c + j * cs_c]. Only
 * rows i < mr of A are read (the kernel repeats row mr - 1 in the rows it does not
 * store); B is a packed panel of kc rows of NR elements, all readable (columns j >= nr
 * are computed, never stored: the packers fill them with zeros). When beta == 0, C is
 * never read. mr or nr may be 0 (nothing is read or written); kc may be 0 (acc = 0).
 * The epilogue multiplies and adds separately (no fused multiply-add), so a tile stored
 * through a scratch tile with alpha = 1, beta = 0 and blended afterwards gives the same
 * bits as a direct store. (The library is built with -std=c11, so gcc contracts no
 * a * b + c into an FMA behind the code's back.) Every element's sum is the same
 * sequence of operations wherever the tile lies and whatever A's strides, so results
 * never depend on the blocking or the thread count; they do differ between kernels
 * (the SIMD kernels fuse each multiply-add, the scalar ones do not).
 *
 * Each kernel has two more entry points for A read in place: <name>_ao, rows at
 * arbitrary offsets, A(i, k) at a[ao[i] + k] (ao holds mr offsets; unit step along k),
 * and <name>_ak, columns at arbitrary offsets, A(i, k) at a[i * rs_a + ko[k]] (ko holds
 * kc offsets), and <name>_bo, B read in place with rows at arbitrary offsets,
 * B(k, j) at b[bo[k] + j] (bo holds kc offsets; all NR elements of each row readable,
 * columns j >= nr computed and never stored), A as in the main entry; everything else as
 * above: one body, so the same bits for the same values.
 *
 * The SIMD kernels share one body, gemm_ukernel_tmpl.h; nothing needs alignment. */
#ifndef PDNN_UKERNELS_GEMM_H
#define PDNN_UKERNELS_GEMM_H

#include <stddef.h>

typedef void (*pdnn_f32_gemm_ukernel_fn)(size_t mr, size_t nr, size_t kc, const float *a,
                                         ptrdiff_t rs_a, ptrdiff_t cs_a, const float *b,
                                         float *c, ptrdiff_t rs_c, ptrdiff_t cs_c,
                                         float alpha, float beta);
typedef void (*pdnn_f64_gemm_ukernel_fn)(size_t mr, size_t nr, size_t kc, const double *a,
                                         ptrdiff_t rs_a, ptrdiff_t cs_a, const double *b,
                                         double *c, ptrdiff_t rs_c, ptrdiff_t cs_c,
                                         double alpha, double beta);

typedef void (*pdnn_f32_gemm_ukernel_ao_fn)(size_t mr, size_t nr, size_t kc, const float *a,
                                            const ptrdiff_t *ao, const float *b, float *c,
                                            ptrdiff_t rs_c, ptrdiff_t cs_c, float alpha,
                                            float beta);
typedef void (*pdnn_f64_gemm_ukernel_ao_fn)(size_t mr, size_t nr, size_t kc, const double *a,
                                            const ptrdiff_t *ao, const double *b, double *c,
                                            ptrdiff_t rs_c, ptrdiff_t cs_c, double alpha,
                                            double beta);

typedef void (*pdnn_f32_gemm_ukernel_ak_fn)(size_t mr, size_t nr, size_t kc, const float *a,
                                            ptrdiff_t rs_a, const ptrdiff_t *ko, const float *b,
                                            float *c, ptrdiff_t rs_c, ptrdiff_t cs_c,
                                            float alpha, float beta);
typedef void (*pdnn_f64_gemm_ukernel_ak_fn)(size_t mr, size_t nr, size_t kc, const double *a,
                                            ptrdiff_t rs_a, const ptrdiff_t *ko,
                                            const double *b, double *c, ptrdiff_t rs_c,
                                            ptrdiff_t cs_c, double alpha, double beta);

typedef void (*pdnn_f32_gemm_ukernel_bo_fn)(size_t mr, size_t nr, size_t kc, const float *a,
                                            ptrdiff_t rs_a, ptrdiff_t cs_a, const ptrdiff_t *bo,
                                            const float *b, float *c, ptrdiff_t rs_c,
                                            ptrdiff_t cs_c, float alpha, float beta);
typedef void (*pdnn_f64_gemm_ukernel_bo_fn)(size_t mr, size_t nr, size_t kc, const double *a,
                                            ptrdiff_t rs_a, ptrdiff_t cs_a, const ptrdiff_t *bo,
                                            const double *b, double *c, ptrdiff_t rs_c,
                                            ptrdiff_t cs_c, double alpha, double beta);

#define PDNN_F32_GEMM_UKERNEL(name)                                                        \
    void name(size_t mr, size_t nr, size_t kc, const float *restrict a, ptrdiff_t rs_a,    \
              ptrdiff_t cs_a, const float *restrict b, float *restrict c, ptrdiff_t rs_c,  \
              ptrdiff_t cs_c, float alpha, float beta)
#define PDNN_F64_GEMM_UKERNEL(name)                                                        \
    void name(size_t mr, size_t nr, size_t kc, const double *restrict a, ptrdiff_t rs_a,   \
              ptrdiff_t cs_a, const double *restrict b, double *restrict c, ptrdiff_t rs_c, \
              ptrdiff_t cs_c, double alpha, double beta)

#define PDNN_F32_GEMM_UKERNEL_AO(name)                                                     \
    void name##_ao(size_t mr, size_t nr, size_t kc, const float *restrict a,               \
                   const ptrdiff_t *ao, const float *restrict b, float *restrict c,        \
                   ptrdiff_t rs_c, ptrdiff_t cs_c, float alpha, float beta)
#define PDNN_F64_GEMM_UKERNEL_AO(name)                                                     \
    void name##_ao(size_t mr, size_t nr, size_t kc, const double *restrict a,              \
                   const ptrdiff_t *ao, const double *restrict b, double *restrict c,      \
                   ptrdiff_t rs_c, ptrdiff_t cs_c, double alpha, double beta)
#define PDNN_F32_GEMM_UKERNEL_AK(name)                                                     \
    void name##_ak(size_t mr, size_t nr, size_t kc, const float *restrict a, ptrdiff_t rs_a, \
                   const ptrdiff_t *ko, const float *restrict b, float *restrict c,        \
                   ptrdiff_t rs_c, ptrdiff_t cs_c, float alpha, float beta)
#define PDNN_F32_GEMM_UKERNEL_BO(name)                                                     \
    void name##_bo(size_t mr, size_t nr, size_t kc, const float *restrict a, ptrdiff_t rs_a, \
                   ptrdiff_t cs_a, const ptrdiff_t *bo, const float *restrict b,           \
                   float *restrict c, ptrdiff_t rs_c, ptrdiff_t cs_c, float alpha,         \
                   float beta)
#define PDNN_F64_GEMM_UKERNEL_BO(name)                                                     \
    void name##_bo(size_t mr, size_t nr, size_t kc, const double *restrict a,              \
                   ptrdiff_t rs_a, ptrdiff_t cs_a, const ptrdiff_t *bo,                    \
                   const double *restrict b, double *restrict c, ptrdiff_t rs_c,           \
                   ptrdiff_t cs_c, double alpha, double beta)
#define PDNN_F64_GEMM_UKERNEL_AK(name)                                                     \
    void name##_ak(size_t mr, size_t nr, size_t kc, const double *restrict a,              \
                   ptrdiff_t rs_a, const ptrdiff_t *ko, const double *restrict b,          \
                   double *restrict c, ptrdiff_t rs_c, ptrdiff_t cs_c, double alpha,       \
                   double beta)
/* The four entry points of one kernel. */
#define PDNN_F32_GEMM_UKERNELS(name)                                                       \
    PDNN_F32_GEMM_UKERNEL(name);                                                           \
    PDNN_F32_GEMM_UKERNEL_AO(name);                                                        \
    PDNN_F32_GEMM_UKERNEL_AK(name);                                                        \
    PDNN_F32_GEMM_UKERNEL_BO(name)
#define PDNN_F64_GEMM_UKERNELS(name)                                                       \
    PDNN_F64_GEMM_UKERNEL(name);                                                           \
    PDNN_F64_GEMM_UKERNEL_AO(name);                                                        \
    PDNN_F64_GEMM_UKERNEL_AK(name);                                                        \
    PDNN_F64_GEMM_UKERNEL_BO(name)

/* Plain C, auto-vectorized for baseline x86-64 (SSE2). */
PDNN_F32_GEMM_UKERNELS(pdnn_f32_gemm_ukernel_6x8__scalar);
PDNN_F64_GEMM_UKERNELS(pdnn_f64_gemm_ukernel_4x8__scalar);

/* AVX2 + FMA3 (16 ymm registers): 12 accumulators. */
PDNN_F32_GEMM_UKERNELS(pdnn_f32_gemm_ukernel_6x16__avx2_fma);
PDNN_F64_GEMM_UKERNELS(pdnn_f64_gemm_ukernel_6x8__avx2_fma);

/* AVX-512F (32 zmm registers): 24 accumulators. */
PDNN_F32_GEMM_UKERNELS(pdnn_f32_gemm_ukernel_6x64__avx512);
/* 12 x 32: the same 24 accumulators for narrow products (N <= 32: the backward filter
 * with few output channels). */
PDNN_F32_GEMM_UKERNELS(pdnn_f32_gemm_ukernel_12x32__avx512);
/* 6 x 16: the last panel of a product with a few columns past a multiple of 64 (A
 * packed for 6 rows, as for 6 x 64). */
PDNN_F32_GEMM_UKERNELS(pdnn_f32_gemm_ukernel_6x16__avx512);
PDNN_F64_GEMM_UKERNELS(pdnn_f64_gemm_ukernel_6x32__avx512);

#endif
