/* "ldb" GEMM micro-kernels (internal): the GEMM micro-kernel with B read in place, rows
 * ldb elements apart, instead of from a packed panel. Named like the others:
 * pdnn_f32_gemm_ldb_ukernel_<MR>x<NR>__<isa>, one ISA per file.
 *
 * One MR x NR tile of C:
 *   acc[i][j] = sum_{k < kc} A(i, k) * b[k * ldb + j]   (k in increasing order)
 *   C[i][j]   = alpha * acc[i][j] + beta * C[i][j]   for i < mr, j < nr
 * with A(i, k) at a[i * rs_a + k * cs_a] and C[i][j] at c[i * rs_c + j] (unit column
 * stride). Only columns j < nr of B are read (masked loads for the last vector), so B
 * needs no padding; rows i >= mr of A are never read. When beta == 0, C is never read.
 * mr or nr may be 0 (nothing is read or written); kc may be 0 (acc = 0).
 * pf, when not NULL, names pfn rows of NR elements, pf[r * ldb .. r * ldb + NR) for
 * r < pfn, prefetched into L2 while the tile is summed, one row every max(1, kc / pfn)
 * steps from step 0 (rows past the kc-th are not fetched): the caller spreads the fetch of the next
 * block of B over the calls that compute this one, so that it arrives from memory while
 * they run. Never dereferenced; pfn == 0 prefetches nothing.
 * Arithmetic per element is that of the packed kernels of gemm_ukernels.h of the same
 * ISA (one fused multiply-add per k for SIMD, a separate multiply and add in the
 * epilogue), so the result depends only on kc and the data, never on the tile's place,
 * nr, mr or the thread count. */
#ifndef PDNN_UKERNELS_GEMM_LDB_H
#define PDNN_UKERNELS_GEMM_LDB_H

#include <stddef.h>

typedef void (*pdnn_f32_gemm_ldb_ukernel_fn)(size_t mr, size_t nr, size_t kc, const float *a,
                                             ptrdiff_t rs_a, ptrdiff_t cs_a, const float *b,
                                             ptrdiff_t ldb, float *c, ptrdiff_t rs_c,
                                             float alpha, float beta, const float *pf,
                                             size_t pfn);

#define PDNN_F32_GEMM_LDB_UKERNEL(name)                                                    \
    void name(size_t mr, size_t nr, size_t kc, const float *restrict a, ptrdiff_t rs_a,    \
              ptrdiff_t cs_a, const float *restrict b, ptrdiff_t ldb, float *restrict c,   \
              ptrdiff_t rs_c, float alpha, float beta, const float *pf, size_t pfn)

PDNN_F32_GEMM_LDB_UKERNEL(pdnn_f32_gemm_ldb_ukernel_6x8__scalar);
PDNN_F32_GEMM_LDB_UKERNEL(pdnn_f32_gemm_ldb_ukernel_6x16__avx2_fma);
PDNN_F32_GEMM_LDB_UKERNEL(pdnn_f32_gemm_ldb_ukernel_6x64__avx512);

/* The copying form of an ldb kernel: the same tile and arithmetic, and the B it reads
 * (rows k < kc, columns j < nr) also written to bc[k * NR + j], a contiguous panel that
 * later tiles read with ldb = NR (aligned, contiguous rows: no loads across cache
 * lines or pages). bc must not overlap a, b, c; it is written only where B is read. */
typedef void (*pdnn_f32_gemm_ldb_copy_ukernel_fn)(size_t mr, size_t nr, size_t kc,
                                                  const float *a, ptrdiff_t rs_a,
                                                  ptrdiff_t cs_a, const float *b,
                                                  ptrdiff_t ldb, float *c, ptrdiff_t rs_c,
                                                  float alpha, float beta, const float *pf,
                                                  size_t pfn, float *bc);
#define PDNN_F32_GEMM_LDB_COPY_UKERNEL(name)                                               \
    void name(size_t mr, size_t nr, size_t kc, const float *restrict a, ptrdiff_t rs_a,    \
              ptrdiff_t cs_a, const float *restrict b, ptrdiff_t ldb, float *restrict c,   \
              ptrdiff_t rs_c, float alpha, float beta, const float *pf, size_t pfn,        \
              float *restrict bc)
PDNN_F32_GEMM_LDB_COPY_UKERNEL(pdnn_f32_gemm_ldb_copy_ukernel_6x64__avx512);

/* Non-temporal forms (AVX-512's 6 x 64): the same tile, arithmetic and bits, with
 * beta == 0 each whole vector of C at a 64-byte aligned address written by a
 * non-temporal store (past the caches: for outputs larger than the last-level cache,
 * written once; the caller fences, e.g. atomic_thread_fence, before C is read by another
 * thread); other vectors, and every vector when beta != 0, stored as by the plain forms. */
PDNN_F32_GEMM_LDB_UKERNEL(pdnn_f32_gemm_ldb_nt_ukernel_6x64__avx512);
PDNN_F32_GEMM_LDB_COPY_UKERNEL(pdnn_f32_gemm_ldb_copy_nt_ukernel_6x64__avx512);

PDNN_F32_GEMM_LDB_COPY_UKERNEL(pdnn_f32_gemm_ldb_copy_ukernel_6x16__avx2_fma);

/* One ldb micro-kernel and its tile. */
typedef struct {
    const char *name;
    int mr, nr;
    pdnn_f32_gemm_ldb_ukernel_fn f32;
} pdnn_gemm_ldb_ukernel;

/* The ldb kernel of the same ISA as pdnn_gemm_ukernel_select(PDNN_DATA_FLOAT) (same
 * arithmetic); defined in src/gemm/gemm_ldb.c. */
const pdnn_gemm_ldb_ukernel *pdnn_gemm_ldb_ukernel_select_f32(void);

#endif
