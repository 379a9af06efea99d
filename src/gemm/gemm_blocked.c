/* Cache-blocked GEMM driver: packing, macro-kernel, threaded pdnn_gemm (see gemm.h).
 *
 * Blocking: each task owns an MC x NC block of C (MC ~ 144 rows, NC ~ 512 columns, cut
 * smaller when there are fewer blocks than threads) and walks K in PDNN_GEMM_KC steps:
 * pack the MC x KC block of A and the KC x NC block of B into the thread's scratch, then
 * for each NR-column panel of B (kept in L1) run the micro-kernel down the MR-row panels
 * of A (kept in L2). */
#include <stdint.h>

#ifdef _OPENMP
#include <omp.h>
#else
static inline int omp_get_thread_num(void) { return 0; }
#endif

#include "gemm/gemm.h"

#define GEMM_MC_TARGET 144
#define GEMM_NC_TARGET 512

/* ---- micro-kernel table: best first within each type */

static const pdnn_gemm_ukernel ukernels[] = {
    {"pdnn_f32_gemm_ukernel_6x8__scalar", PDNN_DATA_FLOAT, PDNN_ISA_SCALAR, 6, 8,
     pdnn_f32_gemm_ukernel_6x8__scalar, NULL},
    {"pdnn_f64_gemm_ukernel_4x8__scalar", PDNN_DATA_DOUBLE, PDNN_ISA_SCALAR, 4, 8, NULL,
     pdnn_f64_gemm_ukernel_4x8__scalar},
};

const pdnn_gemm_ukernel *pdnn_gemm_ukernel_select(pdnnDataType_t t)
{
    pdnn_isa isa = pdnn_cpu_isa();
    for (size_t i = 0; i < sizeof ukernels / sizeof ukernels[0]; i++)
        if (ukernels[i].dtype == t && ukernels[i].isa <= isa) return &ukernels[i];
    return NULL;
}

/* ---- sizes */

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

static size_t align_up(size_t x)
{
    return (x + (PDNN_GEMM_ALIGN - 1)) & ~(size_t)(PDNN_GEMM_ALIGN - 1);
}

/* Bytes of the A block (<= MC x KC for any micro-kernel) and of one thread's share. */
static size_t gemm_a_bytes(size_t es, int64_t m, int64_t k)
{
    return align_up((size_t)(min64(m, GEMM_MC_TARGET) + PDNN_GEMM_MR_MAX) *
                    (size_t)min64(k, PDNN_GEMM_KC) * es);
}

static size_t gemm_thread_bytes(size_t es, int64_t m, int64_t n, int64_t k)
{
    return gemm_a_bytes(es, m, k) +
           align_up((size_t)(min64(n, GEMM_NC_TARGET) + PDNN_GEMM_NR_MAX) *
                    (size_t)min64(k, PDNN_GEMM_KC) * es);
}

size_t pdnn_gemm_scratch_size(pdnnDataType_t t, int64_t m, int64_t n, int64_t k,
                              int nthreads)
{
    size_t es = t == PDNN_DATA_DOUBLE ? sizeof(double) : sizeof(float);
    if (m <= 0 || n <= 0) return 0;
    if (k < 0) k = 0;
    if (nthreads < 1) nthreads = 1;
    /* per-thread bytes are bounded (< 2 MiB) so only the thread count can overflow */
    size_t per = gemm_thread_bytes(es, m, n, k);
    if (per == 0) return 0; /* k == 0: nothing is packed */
    if ((size_t)nthreads > (SIZE_MAX - PDNN_GEMM_ALIGN) / per) return SIZE_MAX;
    return per * (size_t)nthreads + PDNN_GEMM_ALIGN;
}

typedef struct {
    int64_t mc, nc, mb, nb;
    int nt;
} gemm_blocking;

/* Output blocks for nthreads; the blocking never changes any element's arithmetic. */
static gemm_blocking gemm_block(const pdnn_gemm_ukernel *uk, int64_t m, int64_t n,
                                int nthreads)
{
    gemm_blocking b = {0, 0, 0, 0, 1};
    if (m <= 0 || n <= 0) return b;
    b.mc = min64(ceil_div(m, uk->mr) * uk->mr, GEMM_MC_TARGET / uk->mr * uk->mr);
    b.nc = min64(ceil_div(n, uk->nr) * uk->nr, GEMM_NC_TARGET / uk->nr * uk->nr);
    b.mb = ceil_div(m, b.mc);
    b.nb = ceil_div(n, b.nc);
    while (b.mb * b.nb < nthreads && b.nc > uk->nr) {
        b.nc = ceil_div(ceil_div(b.nc, 2), uk->nr) * uk->nr;
        b.nb = ceil_div(n, b.nc);
    }
    while (b.mb * b.nb < nthreads && b.mc > uk->mr) {
        b.mc = ceil_div(ceil_div(b.mc, 2), uk->mr) * uk->mr;
        b.mb = ceil_div(m, b.mc);
    }
    b.nt = (int)min64(nthreads < 1 ? 1 : nthreads, b.mb * b.nb);
    return b;
}

/* ---- the two element types */

#define GT float
#define GS f32
#define GFN f32
#include "gemm/gemm_tmpl.h"
#undef GT
#undef GS
#undef GFN

#define GT double
#define GS f64
#define GFN f64
#include "gemm/gemm_tmpl.h"
#undef GT
#undef GS
#undef GFN

/* ---- type-erased entry points */

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
    if (uk->dtype == PDNN_DATA_DOUBLE)
        pack_a_f64(uk->mr, m, k, src, rs, cs, dst);
    else
        pack_a_f32(uk->mr, m, k, src, rs, cs, dst);
}

void pdnn_gemm_pack_b(const pdnn_gemm_ukernel *uk, int64_t k, int64_t n, const void *src,
                      int64_t rs, int64_t cs, void *dst)
{
    if (uk->dtype == PDNN_DATA_DOUBLE)
        pack_b_f64(uk->nr, k, n, src, rs, cs, dst);
    else
        pack_b_f32(uk->nr, k, n, src, rs, cs, dst);
}

void pdnn_gemm_macro(const pdnn_gemm_ukernel *uk, int64_t m, int64_t n, int64_t k,
                     const void *ap, int64_t a_ps, const void *bp, int64_t b_ps, void *c,
                     int64_t rs_c, int64_t cs_c, const int64_t *coff, double alpha,
                     double beta)
{
    if (uk->dtype == PDNN_DATA_DOUBLE)
        macro_f64(uk, m, n, k, ap, a_ps, bp, b_ps, c, rs_c, cs_c, coff, alpha, beta);
    else
        macro_f32(uk, m, n, k, ap, a_ps, bp, b_ps, c, rs_c, cs_c, coff, (float)alpha,
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
