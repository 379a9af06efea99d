/* Cache-blocked GEMM driver: packing, macro-kernel, threaded pdnn_gemm (see gemm.h).
 *
 * pdnn_gemm: the threads split C into a grid of rectangles of whole tiles (gemm_split;
 * mostly column strips, so no operand is packed twice) and each computes its rectangle
 * alone, with its own buffers and no barrier. Within a rectangle: for each NC-column
 * block, for each KC block of K, pack the KC x NC block of B into NR-column panels (kept
 * in L2; NC from the L2 size detected at run time), then for each MR-row panel of A
 * (kept in L1: MR x KC elements) run the micro-kernel across all the B panels. A is read
 * in place when its rows are contiguous (the kernel takes A's strides; lda can be any
 * size because one panel of MR rows does not collide in L1), else its MR x KC panel is
 * packed first. KC is fixed (gemm.h). */
#include <stdint.h>

#ifdef _OPENMP
#include <omp.h>
#else
static inline int omp_get_thread_num(void) { return 0; }
static inline int omp_get_num_threads(void) { return 1; }
#endif

#include "cpu/cache.h"
#include "cpu/ukernels/transpose/transpose.h"
#include "gemm/gemm.h"

/* Below this many multiply-adds per thread (a few microseconds) a thread does not pay
 * for its start and join. */
#define GEMM_MIN_WORK_PER_THREAD (1 << 18)

/* ---- micro-kernel table: best first within each type */

#define UK32(name, isa, mr, nr)                                                            \
    {#name, PDNN_DATA_FLOAT, isa, mr, nr, name, NULL, name##_ao, NULL, name##_ak, NULL,        \
     name##_bo, NULL}
#define UK64(name, isa, mr, nr)                                                            \
    {#name, PDNN_DATA_DOUBLE, isa, mr, nr, NULL, name, NULL, name##_ao, NULL, name##_ak,       \
     NULL, name##_bo}
static const pdnn_gemm_ukernel ukernels[] = {
    UK32(pdnn_f32_gemm_ukernel_6x64__avx512, PDNN_ISA_AVX512, 6, 64),
    UK32(pdnn_f32_gemm_ukernel_6x16__avx2_fma, PDNN_ISA_AVX2, 6, 16),
    UK32(pdnn_f32_gemm_ukernel_6x8__scalar, PDNN_ISA_SCALAR, 6, 8),
    UK64(pdnn_f64_gemm_ukernel_6x32__avx512, PDNN_ISA_AVX512, 6, 32),
    UK64(pdnn_f64_gemm_ukernel_6x8__avx2_fma, PDNN_ISA_AVX2, 6, 8),
    UK64(pdnn_f64_gemm_ukernel_4x8__scalar, PDNN_ISA_SCALAR, 4, 8),
};
/* Narrower tiles, for pdnn_gemm_ukernel_select_nr only. */
static const pdnn_gemm_ukernel narrow_ukernels[] = {
    UK32(pdnn_f32_gemm_ukernel_12x32__avx512, PDNN_ISA_AVX512, 12, 32),
    UK32(pdnn_f32_gemm_ukernel_6x16__avx512, PDNN_ISA_AVX512, 6, 16),
};
#undef UK32
#undef UK64

const pdnn_gemm_ukernel *pdnn_gemm_ukernel_select(pdnnDataType_t t)
{
    pdnn_isa isa = pdnn_cpu_isa();
    for (size_t i = 0; i < sizeof ukernels / sizeof ukernels[0]; i++)
        if (ukernels[i].dtype == t && ukernels[i].isa <= isa) return &ukernels[i];
    return NULL;
}

const pdnn_gemm_ukernel *pdnn_gemm_ukernel_select_nr(pdnnDataType_t t, int max_nr)
{
    const pdnn_gemm_ukernel *uk = pdnn_gemm_ukernel_select(t);
    if (!uk || uk->nr <= max_nr) return uk;
    for (size_t i = 0; i < sizeof narrow_ukernels / sizeof narrow_ukernels[0]; i++)
        if (narrow_ukernels[i].dtype == t && narrow_ukernels[i].isa == uk->isa &&
            narrow_ukernels[i].nr <= max_nr)
            return &narrow_ukernels[i];
    return uk;
}

/* ---- sizes */

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

static size_t align_up(size_t x)
{
    return (x + (PDNN_GEMM_ALIGN - 1)) & ~(size_t)(PDNN_GEMM_ALIGN - 1);
}

/* Columns of a B block: KC x NC elements take about half of the L2 cache (the rest
 * holds the A panel and the lines of C being written); a multiple of NR_MAX. The A
 * panel (MR x KC elements: 6 KiB for f32) sits in L1 whatever its size. */
static int64_t gemm_nc_target(size_t es)
{
    const size_t l2 = pdnn_cpu_cache_sizes()->l2;
    const int64_t nc = (int64_t)(l2 / 2 / (PDNN_GEMM_KC * es)) / PDNN_GEMM_NR_MAX;
    return PDNN_GEMM_NR_MAX * (nc < 2 ? 2 : nc > 64 ? 64 : nc);
}

/* One thread's buffers: the B block (any kernel: nc < min(n, NC) + NR) and an A panel. */
static size_t gemm_b_bytes(size_t es, int64_t n, int64_t k)
{
    return align_up((size_t)(min64(n, gemm_nc_target(es)) + PDNN_GEMM_NR_MAX) *
                    (size_t)min64(k, PDNN_GEMM_KC) * es);
}

static size_t gemm_thread_bytes(size_t es, int64_t n, int64_t k)
{
    return gemm_b_bytes(es, n, k) +
           align_up((size_t)PDNN_GEMM_MR_MAX * (size_t)min64(k, PDNN_GEMM_KC) * es);
}

size_t pdnn_gemm_scratch_size(pdnnDataType_t t, int64_t m, int64_t n, int64_t k,
                              int nthreads)
{
    size_t es = t == PDNN_DATA_DOUBLE ? sizeof(double) : sizeof(float);
    if (m <= 0 || n <= 0 || k <= 0) return 0; /* k == 0: nothing is packed */
    if (nthreads < 1) nthreads = 1;
    /* per-thread bytes are bounded (about L2) so only the thread count can overflow */
    size_t per = gemm_thread_bytes(es, n, k);
    if ((size_t)nthreads > (SIZE_MAX - PDNN_GEMM_ALIGN) / per) return SIZE_MAX;
    return per * (size_t)nthreads + PDNN_GEMM_ALIGN;
}

/* Threads for an m x n x k product: at most one per tile, and each with enough work to
 * pay for its start. Never changes any element's arithmetic. */
static int gemm_threads(const pdnn_gemm_ukernel *uk, int64_t m, int64_t n, int64_t k,
                        int nthreads)
{
    const int64_t work = m * n * max64(k, 1) / GEMM_MIN_WORK_PER_THREAD + 1;
    const int64_t tiles = ceil_div(m, uk->mr) * ceil_div(n, uk->nr);
    return (int)min64(nthreads < 1 ? 1 : nthreads, min64(work, tiles));
}

/* Thread tid's rectangle [p0, p1) x [q0, q1) of an mp x np grid of tiles shared by nt
 * threads: a tr x tc grid of rectangles with the smallest largest rectangle (ties: more
 * column strips, which pack no part of B twice). */
static void gemm_split(int64_t mp, int64_t np, int nt, int tid, int64_t *p0, int64_t *p1,
                       int64_t *q0, int64_t *q1)
{
    int tr = 1;
    int64_t best = INT64_MAX;
    for (int r = 1; r <= nt; r++) {
        if (nt % r) continue;
        const int64_t cost = ceil_div(mp, r) * ceil_div(np, nt / r);
        if (cost < best) {
            best = cost;
            tr = r;
        }
    }
    const int tc = nt / tr, ri = tid / tc, ci = tid % tc;
    *p0 = mp * ri / tr;
    *p1 = mp * (ri + 1) / tr;
    *q0 = np * ci / tc;
    *q1 = np * (ci + 1) / tc;
}

/* ---- the two element types */

#define GT float
#define GS f32
#define GFN f32
#define GFNAK f32_ak
#include "gemm/gemm_tmpl.h"
#undef GT
#undef GS
#undef GFN
#undef GFNAK

#define GT double
#define GS f64
#define GFN f64
#define GFNAK f64_ak
#include "gemm/gemm_tmpl.h"
#undef GT
#undef GS
#undef GFN
#undef GFNAK

/* ---- type-erased entry points */

/* Panels of w lanes from n vectors of k contiguous elements, vector i at src + i * ld:
 * panel p holds vectors p*w .. p*w+w-1, element j of vector i at [j * w + i % w] (the
 * transpose of a w x k block: the f32 kernel); lanes past n zero. pack_a with A's rows
 * contiguous, pack_b with B's columns contiguous. */
static void pack_t_f32(int w, int64_t n, int64_t k, const void *src, int64_t ld, void *dst)
{
    const pdnn_f32_transpose_fn tr = pdnn_f32_transpose_select();
    for (int64_t p = 0; p * w < n; p++) {
        const int64_t i0 = p * w, nn = n - i0 < w ? n - i0 : w;
        float *d = (float *)dst + p * k * w;
        tr((size_t)nn, (size_t)k, (const float *)src + i0 * ld, ld, d, w);
        if (nn < w)
            for (int64_t j = 0; j < k; j++)
                for (int64_t i = nn; i < w; i++) d[j * w + i] = 0.0f;
    }
}

int64_t pdnn_gemm_packed_a_elems(const pdnn_gemm_ukernel *uk, int64_t m, int64_t k)
{
    return ceil_div(m, uk->mr) * uk->mr * k;
}

int64_t pdnn_gemm_packed_b_elems(const pdnn_gemm_ukernel *uk, int64_t k, int64_t n)
{
    return ceil_div(n, uk->nr) * uk->nr * k;
}

void pdnn_gemm_pack_a(const pdnn_gemm_ukernel *uk, int64_t m, int64_t k, const void *src,
                      int64_t rs, int64_t cs, void *dst)
{
    if (uk->dtype == PDNN_DATA_DOUBLE) {
        pack_a_f64(uk->mr, m, k, src, rs, cs, dst);
    } else if (cs == 1) {
        /* rows of A contiguous: each panel is the transpose of an mr x k block */
        pack_t_f32(uk->mr, m, k, src, rs, dst);
    } else {
        pack_a_f32(uk->mr, m, k, src, rs, cs, dst);
    }
}

void pdnn_gemm_pack_b(const pdnn_gemm_ukernel *uk, int64_t k, int64_t n, const void *src,
                      int64_t rs, int64_t cs, void *dst)
{
    if (uk->dtype == PDNN_DATA_DOUBLE) {
        pack_b_f64(uk->nr, k, n, src, rs, cs, dst);
    } else if (rs == 1 && cs != 1) {
        /* columns of B contiguous (a transposed operand: the 1x1 path's filter as B, one
         * row per output channel): each panel is the transpose of an nr x k block, not
         * nr strided reads per k (LeNet fc1 at minibatch 32: half its time was here) */
        pack_t_f32(uk->nr, n, k, src, cs, dst);
    } else {
        pack_b_f32(uk->nr, k, n, src, rs, cs, dst);
    }
}

void pdnn_gemm_macro(const pdnn_gemm_ukernel *uk, int64_t m, int64_t n, int64_t k,
                     const void *ap, int64_t a_ps, const void *bp, int64_t b_ps, void *c,
                     int64_t rs_c, int64_t cs_c, const int64_t *coff, double alpha,
                     double beta)
{
    if (uk->dtype == PDNN_DATA_DOUBLE)
        macro_f64(uk, m, n, k, ap, a_ps, NULL, bp, b_ps, c, rs_c, cs_c, coff, alpha, beta);
    else
        macro_f32(uk, m, n, k, ap, a_ps, NULL, bp, b_ps, c, rs_c, cs_c, coff, (float)alpha,
                  (float)beta);
}

void pdnn_gemm_macro_ak(const pdnn_gemm_ukernel *uk, int64_t m, int64_t n, int64_t k,
                        const void *ap, int64_t rs_a, const ptrdiff_t *ako, const void *bp,
                        int64_t b_ps, void *c, int64_t rs_c, int64_t cs_c, const int64_t *coff,
                        double alpha, double beta)
{
    if (uk->dtype == PDNN_DATA_DOUBLE)
        macro_f64(uk, m, n, k, ap, -rs_a, ako, bp, b_ps, c, rs_c, cs_c, coff, alpha, beta);
    else
        macro_f32(uk, m, n, k, ap, -rs_a, ako, bp, b_ps, c, rs_c, cs_c, coff, (float)alpha,
                  (float)beta);
}

void pdnn_gemm(pdnnDataType_t t, bool ta, bool tb, int64_t m, int64_t n, int64_t k,
               double alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
               double beta, void *c, int64_t ldc, void *scratch, int nthreads)
{
    const pdnn_gemm_ukernel *uk = pdnn_gemm_ukernel_select(t);
    if (!uk || m <= 0 || n <= 0) return;
    if (t == PDNN_DATA_DOUBLE)
        gemm_f64(uk, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, scratch,
                 nthreads);
    else
        gemm_f32(uk, ta, tb, m, n, k, (float)alpha, a, lda, b, ldb, (float)beta, c, ldc,
                 scratch, nthreads);
}
