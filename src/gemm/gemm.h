/* Internal cache-blocked GEMM for FLOAT and DOUBLE (no public API).
 *
 *   C[M x N] = alpha * op(A)[M x K] * op(B)[K x N] + beta * C
 *
 * Row-major matrices with leading dimensions; op(X) = X or X^T. When beta == 0, C is
 * never read. B is packed into panels of NR columns (stored k-major) in scratch memory
 * the caller provides; A is read in place (or packed MR rows at a time when transposed);
 * a register-tiled micro-kernel (src/cpu/ukernels/gemm/) computes MR x NR tiles. The
 * micro-kernel is chosen at run time by ISA (AVX-512, AVX2+FMA, scalar), block sizes
 * from the cache sizes (src/cpu/cache.h).
 *
 * Determinism: K is always cut into PDNN_GEMM_KC blocks at the same places and each
 * block is summed in increasing k; threads split only the output (rectangles of whole
 * tiles), so every element of C gets the same arithmetic whatever the thread count, the
 * M/N blocking or the cache sizes. Results can differ between micro-kernels (ISA
 * levels), never between runs.
 *
 * Two levels of interface:
 *  - pdnn_gemm(): the complete operation on plain matrices, threads included;
 *  - pack + macro-kernel: for callers that build packed panels themselves (the
 *    convolutions pack im2col columns straight into B panels and reuse packed
 *    weights across images). */
#ifndef PDNN_GEMM_H
#define PDNN_GEMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu/isa.h"
#include "cpu/ukernels/gemm/gemm_ukernels.h"
#include "pdnn/core.h"

/* Bounds of every micro-kernel's tile, for sizing buffers before a kernel is chosen. */
#define PDNN_GEMM_MR_MAX 16
#define PDNN_GEMM_NR_MAX 64
/* K block: fixed (not derived from the cache sizes), so the summation order never
 * depends on anything but K and the micro-kernel: not on the thread count, the M/N
 * blocking or the machine's caches. */
#define PDNN_GEMM_KC 256
/* Alignment (bytes) of every packed buffer carved from scratch. */
#define PDNN_GEMM_ALIGN 64

/* One micro-kernel: exactly one of f32/f64 is set. */
typedef struct {
    const char *name;
    pdnnDataType_t dtype;
    pdnn_isa isa;
    int mr, nr;
    pdnn_f32_gemm_ukernel_fn f32;
    pdnn_f64_gemm_ukernel_fn f64;
    pdnn_f32_gemm_ukernel_ao_fn f32_ao; /* the same kernels, A rows at offsets */
    pdnn_f64_gemm_ukernel_ao_fn f64_ao;
    pdnn_f32_gemm_ukernel_ak_fn f32_ak; /* the same kernels, A columns at offsets */
    pdnn_f64_gemm_ukernel_ak_fn f64_ak;
    pdnn_f32_gemm_ukernel_bo_fn f32_bo; /* the same kernels, B rows read in place */
    pdnn_f64_gemm_ukernel_bo_fn f64_bo;
} pdnn_gemm_ukernel;

/* Best micro-kernel for dtype (FLOAT or DOUBLE) on pdnn_cpu_isa(); NULL for other
 * types. */
const pdnn_gemm_ukernel *pdnn_gemm_ukernel_select(pdnnDataType_t t);
/* The best micro-kernel whose tile is at most max_nr columns wide when there is one for
 * the ISA (AVX-512 f32: 12 x 32 for max_nr >= 32, 6 x 16 for 16 <= max_nr < 32), else
 * pdnn_gemm_ukernel_select's. For products with few columns, where a wider tile would
 * compute empty lanes. */
const pdnn_gemm_ukernel *pdnn_gemm_ukernel_select_nr(pdnnDataType_t t, int max_nr);

/* ---- complete GEMM */

/* Scratch bytes pdnn_gemm() needs for these sizes and at most nthreads threads, with
 * any micro-kernel (bounded by PDNN_GEMM_MR_MAX/NR_MAX): per thread one KC x NC block
 * of B (NC from the L2 size: about half of L2) and one MR x KC panel of A. Bounded
 * whatever M, N, K (~1.1 MiB per thread with a 2 MiB L2). 0 when m, n or k is 0.
 * Returns SIZE_MAX on overflow. */
size_t pdnn_gemm_scratch_size(pdnnDataType_t t, int64_t m, int64_t n, int64_t k,
                              int nthreads);

/* C = alpha * op(A) * op(B) + beta * C for dtype FLOAT or DOUBLE (a, b, c point to that
 * type). op(A) is M x K: A[i*lda + k] (ta false) or A[k*lda + i] (ta true); likewise B
 * (K x N) and C[i*ldc + j]. scratch holds pdnn_gemm_scratch_size(t, m, n, k, nthreads)
 * bytes (any alignment). Runs an OpenMP team of nthreads (one thread when called inside
 * a parallel region). m, n or k may be 0; with k == 0, C = beta * C (0 when beta == 0).
 * alpha and beta are applied in the type of the data. */
void pdnn_gemm(pdnnDataType_t t, bool ta, bool tb, int64_t m, int64_t n, int64_t k,
               double alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
               double beta, void *c, int64_t ldc, void *scratch, int nthreads);

/* ---- packed operands */

/* Elements of a packed A of m rows and k columns (ceil(m / mr) panels of k * mr). */
int64_t pdnn_gemm_packed_a_elems(const pdnn_gemm_ukernel *uk, int64_t m, int64_t k);
/* Elements of a packed B of k rows and n columns (ceil(n / nr) panels of k * nr). */
int64_t pdnn_gemm_packed_b_elems(const pdnn_gemm_ukernel *uk, int64_t k, int64_t n);

/* Packs the m x k matrix X[i][j] = src[i * rs + j * cs] (element type uk->dtype) as A
 * panels into dst: panel p holds rows p*mr .. p*mr+mr-1 at dst + p*k*mr, element (i, j)
 * at [j * mr + i % mr]; rows past m are zero. */
void pdnn_gemm_pack_a(const pdnn_gemm_ukernel *uk, int64_t m, int64_t k, const void *src,
                      int64_t rs, int64_t cs, void *dst);
/* Packs the k x n matrix X[i][j] = src[i * rs + j * cs] as B panels into dst: panel p
 * holds columns p*nr .. p*nr+nr-1 at dst + p*k*nr, element (i, j) at [i * nr + j % nr];
 * columns past n are zero. */
void pdnn_gemm_pack_b(const pdnn_gemm_ukernel *uk, int64_t k, int64_t n, const void *src,
                      int64_t rs, int64_t cs, void *dst);

/* Macro-kernel (single thread): C[m x n] = alpha * A * B + beta * C from packed panels.
 * A: panel p (rows p*mr..) at ap + p * a_ps elements, element (i, kk) at
 * [kk * mr + i % mr]; B: panel q at bp + q * b_ps, element (kk, j) at [kk * nr + j % nr]
 * (a_ps >= k * mr, b_ps >= k * nr; the pdnn_gemm_pack_* layouts have a_ps = k * mr).
 * a_ps < 0: A is not packed but a plain row-major matrix, element (i, kk) at
 * ap[i * -a_ps + kk] (only its m rows are read).
 * C element (i, j) is at c[i * rs_c + j * cs_c], or at c[i * rs_c + coff[j]] when coff is
 * not NULL (any column placement). K is cut into PDNN_GEMM_KC blocks; the first block
 * blends with beta (C unread when beta == 0), later blocks add to C. (A tile whose
 * columns are not consecutive runs all its K blocks in a local tile and stores its cells
 * once: the same bits.) */
void pdnn_gemm_macro(const pdnn_gemm_ukernel *uk, int64_t m, int64_t n, int64_t k,
                     const void *ap, int64_t a_ps, const void *bp, int64_t b_ps, void *c,
                     int64_t rs_c, int64_t cs_c, const int64_t *coff, double alpha,
                     double beta);
/* The same with A read in place at column offsets: A(i, kk) at ap[i * rs_a + ako[kk]]
 * (the micro-kernels' _ak entry; e.g. a filter read transposed). */
void pdnn_gemm_macro_ak(const pdnn_gemm_ukernel *uk, int64_t m, int64_t n, int64_t k,
                        const void *ap, int64_t rs_a, const ptrdiff_t *ako, const void *bp,
                        int64_t b_ps, void *c, int64_t rs_c, int64_t cs_c, const int64_t *coff,
                        double alpha, double beta);

/* ---- helpers for carving scratch */

/* p rounded up to PDNN_GEMM_ALIGN. */
static inline void *pdnn_gemm_align_ptr(void *p)
{
    uintptr_t u = (uintptr_t)p;
    return (void *)((u + (PDNN_GEMM_ALIGN - 1)) & ~(uintptr_t)(PDNN_GEMM_ALIGN - 1));
}

#endif
