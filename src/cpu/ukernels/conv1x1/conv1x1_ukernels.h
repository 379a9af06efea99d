/* Micro-kernels of the 1x1 convolutions' ldb path beside the GEMM ones (internal). */
#ifndef PDNN_UKERNELS_CONV1X1_H
#define PDNN_UKERNELS_CONV1X1_H

#include <stddef.h>

#include "cpu/ukernels/gemm/gemm_ldb_ukernels.h"

/* The ldb kernel (contract of gemm_ldb_ukernels.h) on an 8 x 32 tile, AVX-512F. */
PDNN_F32_GEMM_LDB_UKERNEL(pdnn_f32_gemm_ldb_ukernel_8x32__avx512);

/* Strip kernels: the MR x NR tiles of one row panel of A (mr <= MR rows) across n
 * columns of B and C, in one call: tile t (columns [t NR, min(n, (t + 1) NR))) is the ldb
 * kernel's call (contract of gemm_ldb_ukernels.h, its arithmetic, so its bits) with
 * b + t b_ts (b_ts = NR for B's rows read in place, kc NR for contiguous kc x NR panels
 * with ldb = NR), c + t NR and, when pf is not NULL, the prefetch of pfn rows at
 * pf + t NR (pf[r * ldb + t NR ..) for r < pfn, spread over the tile's steps, as the ldb
 * kernel's). mr or n may be 0 (nothing read or written). */
#define PDNN_F32_LDB_STRIP_UKERNEL(name)                                                     \
    void name(size_t mr, size_t n, size_t kc, const float *restrict a, ptrdiff_t rs_a,        \
              ptrdiff_t cs_a, const float *restrict b, ptrdiff_t ldb, ptrdiff_t b_ts,         \
              float *restrict c, ptrdiff_t rs_c, float alpha, float beta, const float *pf,    \
              size_t pfn)

/* 6 x 16 tiles, AVX2 + FMA3 (the body of pdnn_f32_gemm_ldb_ukernel_6x16__avx2_fma). */
PDNN_F32_LDB_STRIP_UKERNEL(pdnn_f32_ldb_strip_6x16__avx2_fma);

/* Dot-tile kernels that keep the lane sums in registers (the backward filter of NCHW 1x1
 * convolutions, conv_cpu_direct_1x1_dot.c): MR x NR pairs of rows of A (dy's channels)
 * and B (x's channels), both contiguous along the sum (the pixels), over nimg images:
 *   lane l of pair (i, j) = sum over images m < nimg (in order), k < kc with k % 16 == l
 *   (in increasing order) of a[m * as + i * lda + k] * b[m * bs + j * ldb + k]
 * for i < mr, j < nr; columns k >= kc never read (masked tails). The lanes start at 0, or
 * from acc[(i * NR + j) * 16 + l] with PDNN_DOTR_LOAD; with PDNN_DOTR_STORE they are
 * stored there (nothing else written); otherwise each pair's 16 lanes are added in a
 * fixed tree ((l, l + 8), then (l, l + 4), (l, l + 2), (l, l + 1)) into s and
 *   c[i * ldc + j] = alpha * s + beta * c[i * ldc + j]   (c unread when beta == 0)
 * (a product, then a sum: no fused multiply-add). A sum starting every call at a fixed k
 * gets lanes that depend only on the data, so the results do not depend on the tiling
 * or on the thread count. The scalar kernel is the reference (a multiply and an add per
 * step where the AVX-512 one fuses them: equal on small integers). */
#define PDNN_DOTR_MR 6
#define PDNN_DOTR_NR 4
#define PDNN_DOTR_LANES 16
#define PDNN_DOTR_LOAD 1
#define PDNN_DOTR_STORE 2

typedef void (*pdnn_f32_dotr_ukernel_fn)(size_t mr, size_t nr, size_t nimg, size_t kc,
                                         const float *a, ptrdiff_t lda, ptrdiff_t as,
                                         const float *b, ptrdiff_t ldb, ptrdiff_t bs,
                                         float *acc, int mode, float *c, ptrdiff_t ldc,
                                         float alpha, float beta);

#define PDNN_F32_DOTR_UKERNEL(name)                                                          \
    void name(size_t mr, size_t nr, size_t nimg, size_t kc, const float *restrict a,          \
              ptrdiff_t lda, ptrdiff_t as, const float *restrict b, ptrdiff_t ldb,            \
              ptrdiff_t bs, float *restrict acc, int mode, float *restrict c, ptrdiff_t ldc, \
              float alpha, float beta)

PDNN_F32_DOTR_UKERNEL(pdnn_f32_dotr_ukernel_6x4__scalar);
PDNN_F32_DOTR_UKERNEL(pdnn_f32_dotr_ukernel_6x4__avx512);

/* Outer-product rows (the backward filter of a 1x1 convolution with one column in all:
 * a fully connected layer at batch 1, dW = dy x^T), for i < m, j < n:
 *   c[i * ldc + j] = alpha * fma(a[i * as], b[j], 0)   (+ beta * c[i * ldc + j] when
 *                                                      beta != 0; c unread when beta == 0)
 * each operation rounded in this order (the product as a fused multiply-add onto 0, alpha
 * times it, then the sum with beta * c): the ldb kernels' arithmetic at a sum of one
 * step, so their bits. Row by row,
 * each row's stores one run (the ldb kernel's 6-row tiles write 6 runs at a time: 1.3x
 * the time on 128 x 3136, AMD Zen 4). m or n may be 0. The scalar kernel is the
 * reference. */
#define PDNN_F32_OUTER_UKERNEL(name)                                                         \
    void name(size_t m, size_t n, const float *restrict a, ptrdiff_t as,                      \
              const float *restrict b, float *restrict c, ptrdiff_t ldc, float alpha,        \
              float beta)

typedef void (*pdnn_f32_outer_ukernel_fn)(size_t m, size_t n, const float *a, ptrdiff_t as,
                                          const float *b, float *c, ptrdiff_t ldc,
                                          float alpha, float beta);

PDNN_F32_OUTER_UKERNEL(pdnn_f32_outer_ukernel__scalar);
PDNN_F32_OUTER_UKERNEL(pdnn_f32_outer_ukernel__avx512);

#endif
