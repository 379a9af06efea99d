/* Body of the SIMD ldb GEMM micro-kernels (internal), included by each
 * f32_gemm_ldb_<MR>x<NR>__<isa>.c file after the same macros as gemm_ukernel_tmpl.h
 * (UK_FN UK_T UK_MR UK_NV UK_W V VZERO VSET1 VLOADU VSTOREU VFMA VMUL VADD VMASK
 * VMASK_FIRST VMLOADZ VMSTORE; UK_KUNROLL: the sum's loop unrolled by 2 or 4; UK_FN_COPY:
 * also the copying form; UK_FN_NT and UK_FN_COPY_NT, with VSTREAM: both forms again with
 * non-temporal stores). Contract in gemm_ldb_ukernels.h. The body is
 * instantiated per count of B vectors (1 .. UK_NV, the last one masked or not) so that a
 * narrow tile runs only the multiply-adds of its columns, and once more for a single row
 * of A (a matrix-vector product: a fully connected layer's backward data at batch 1,
 * where the full tile's rows past the first, computed for nothing, made it UK_MR times
 * slower); the accumulators stay in registers. */

#include <stdint.h>

#define UK_NR (UK_NV * UK_W)
#define UK_UNROLL _Pragma("GCC unroll 16")
#define UK_LINES ((int)(UK_NR * sizeof(UK_T) / 64))

static inline __attribute__((always_inline)) void
uk_body(const int MR, const int nv, const int masked, const VMASK mk, size_t mr, size_t kc,
        const UK_T *restrict a, ptrdiff_t rs_a, ptrdiff_t cs_a, const UK_T *restrict b,
        ptrdiff_t ldb, UK_T *restrict c, ptrdiff_t rs_c, UK_T alpha, UK_T beta, const UK_T *pf,
        size_t pfn, const int cp, UK_T *restrict bc, const int nt)
{
    if (!pf) pfn = 0;
    /* one prefetched row every pfe steps, the first at step 0 */
    const size_t pfe = pfn && kc / pfn > 1 ? kc / pfn : 1;
    size_t cnt = 0;
    ptrdiff_t ao[UK_MR]; /* row offsets in A; rows past mr repeat row mr - 1 */
    UK_UNROLL for (int i = 0; i < MR; i++)
        ao[i] = (ptrdiff_t)((size_t)i < mr ? (size_t)i : mr - 1) * rs_a;
    V acc[UK_MR][UK_NV];
    UK_UNROLL for (int i = 0; i < MR; i++) UK_UNROLL for (int j = 0; j < UK_NV; j++)
        acc[i][j] = VZERO();
#ifdef UK_KUNROLL /* UK_KUNROLL (2 or 4) steps a loop: the 6 x 64 kernel alone on rows of
                   * B not 64 bytes apart 160 -> 170 GFLOP/s by two (167-168 by four), the
                   * same on aligned rows; the 8 x 32 kernel 1-3% faster by four */
#if UK_KUNROLL == 4
    _Pragma("GCC unroll 4")
#else
    _Pragma("GCC unroll 2")
#endif
#endif
    for (size_t k = 0; k < kc; k++) {
        V bv[UK_NV];
        UK_UNROLL for (int j = 0; j < UK_NV; j++) {
            if (j >= nv) break;
            bv[j] = masked && j == nv - 1 ? VMLOADZ(mk, b + UK_W * j) : VLOADU(b + UK_W * j);
            if (cp) { /* the copy's row k (UK_NR apart), the tile's columns only */
                if (masked && j == nv - 1)
                    VMSTORE(bc + UK_W * j, mk, bv[j]);
                else
                    VSTOREU(bc + UK_W * j, bv[j]);
            }
        }
        if (cp) bc += UK_NR;
        if (pfn && cnt-- == 0) {
            UK_UNROLL for (int l = 0; l < (UK_LINES > 0 ? UK_LINES : 1); l++)
                _mm_prefetch((const char *)pf + 64 * l, _MM_HINT_T1);
            pf += ldb;
            pfn--;
            cnt = pfe - 1;
        }
        UK_UNROLL for (int i = 0; i < MR; i++) {
            const V ai = VSET1(a[ao[i]]);
            UK_UNROLL for (int j = 0; j < UK_NV; j++) {
                if (j >= nv) break;
                acc[i][j] = VFMA(ai, bv[j], acc[i][j]);
            }
        }
        a += cs_a;
        b += ldb;
    }
    const V va = VSET1(alpha), vb = VSET1(beta);
    const int rd = beta != (UK_T)0; /* C is read */
    UK_UNROLL for (int i = 0; i < MR; i++) {
        if ((size_t)i >= mr) break;
        UK_T *ci = c + i * rs_c;
        UK_UNROLL for (int j = 0; j < UK_NV; j++) {
            if (j >= nv) break;
            V v = VMUL(va, acc[i][j]);
            if (masked && j == nv - 1) {
                if (rd) v = VADD(v, VMUL(vb, VMLOADZ(mk, ci + UK_W * j)));
                VMSTORE(ci + UK_W * j, mk, v);
            } else {
                if (rd) v = VADD(v, VMUL(vb, VLOADU(ci + UK_W * j)));
#ifdef VSTREAM
                if (nt && !rd && ((uintptr_t)(ci + UK_W * j) & (UK_W * sizeof(UK_T) - 1)) == 0)
                    VSTREAM(ci + UK_W * j, v);
                else
#endif
                    VSTOREU(ci + UK_W * j, v);
            }
        }
    }
}

#define UK_CASE(n, cp, nt)                                                                \
    case n:                                                                               \
        if (mr == 1) {                                                                    \
            if (rem)                                                                      \
                uk_body(1, n, 1, mk, mr, kc, a, rs_a, cs_a, b, ldb, c, rs_c, alpha, beta, pf, \
                        pfn, cp, bc, nt);                                                 \
            else                                                                          \
                uk_body(1, n, 0, mk, mr, kc, a, rs_a, cs_a, b, ldb, c, rs_c, alpha, beta, pf, \
                        pfn, cp, bc, nt);                                                 \
        } else if (rem) {                                                                 \
            uk_body(UK_MR, n, 1, mk, mr, kc, a, rs_a, cs_a, b, ldb, c, rs_c, alpha, beta, pf, \
                    pfn, cp, bc, nt);                                                     \
        } else {                                                                          \
            uk_body(UK_MR, n, 0, mk, mr, kc, a, rs_a, cs_a, b, ldb, c, rs_c, alpha, beta, pf, \
                    pfn, cp, bc, nt);                                                     \
        }                                                                                 \
        break

#if UK_NV > 4
#error "gemm_ldb_ukernel_tmpl.h: at most 4 B vectors a tile"
#endif
#if UK_NV >= 4
#define UK_CASE4(cp, nt) UK_CASE(4, cp, nt);
#else
#define UK_CASE4(cp, nt)
#endif
#if UK_NV >= 3
#define UK_CASE3(cp, nt) UK_CASE(3, cp, nt);
#else
#define UK_CASE3(cp, nt)
#endif
#if UK_NV >= 2
#define UK_CASE2(cp, nt) UK_CASE(2, cp, nt);
#else
#define UK_CASE2(cp, nt)
#endif
#define UK_SWITCH(cp, nt)                                                                   \
    do {                                                                                  \
        if (mr == 0 || nr == 0) return;                                                   \
        if (nr > UK_NR) nr = UK_NR;                                                       \
        const size_t rem = nr % UK_W, nv = (nr + UK_W - 1) / UK_W;                        \
        const VMASK mk = VMASK_FIRST(rem ? rem : 1);                                      \
        switch (nv) {                                                                     \
            UK_CASE4(cp, nt)                                                              \
            UK_CASE3(cp, nt)                                                              \
            UK_CASE2(cp, nt)                                                              \
        default:                                                                          \
            UK_CASE(1, cp, nt);                                                            \
        }                                                                                 \
    } while (0)

void UK_FN(size_t mr, size_t nr, size_t kc, const UK_T *restrict a, ptrdiff_t rs_a,
           ptrdiff_t cs_a, const UK_T *restrict b, ptrdiff_t ldb, UK_T *restrict c,
           ptrdiff_t rs_c, UK_T alpha, UK_T beta, const UK_T *pf, size_t pfn)
{
    UK_T *bc = NULL;
    UK_SWITCH(0, 0);
}

/* The copying forms' signature. */
#define UK_COPY_SIG(name)                                                                 \
    void name(size_t mr, size_t nr, size_t kc, const UK_T *restrict a, ptrdiff_t rs_a,    \
              ptrdiff_t cs_a, const UK_T *restrict b, ptrdiff_t ldb, UK_T *restrict c,   \
              ptrdiff_t rs_c, UK_T alpha, UK_T beta, const UK_T *pf, size_t pfn,         \
              UK_T *restrict bc)

#ifdef UK_FN_COPY
/* The same tile, also writing the B it reads to bc (row k at bc + k * UK_NR, columns
 * j < nr), a contiguous panel later tiles read with ldb = UK_NR. */
UK_COPY_SIG(UK_FN_COPY)
{
    UK_SWITCH(1, 0);
}
#endif

#ifdef UK_FN_NT
/* The kernel with C's whole aligned vectors stored non-temporally where beta == 0 (the
 * caller fences before another thread reads C). */
void UK_FN_NT(size_t mr, size_t nr, size_t kc, const UK_T *restrict a, ptrdiff_t rs_a,
              ptrdiff_t cs_a, const UK_T *restrict b, ptrdiff_t ldb, UK_T *restrict c,
              ptrdiff_t rs_c, UK_T alpha, UK_T beta, const UK_T *pf, size_t pfn)
{
    UK_T *bc = NULL;
    UK_SWITCH(0, 1);
}
#endif

#ifdef UK_FN_COPY_NT
/* The copying form with non-temporal stores of C, as UK_FN_NT. */
UK_COPY_SIG(UK_FN_COPY_NT)
{
    UK_SWITCH(1, 1);
}
#endif

#undef UK_SWITCH
#undef UK_COPY_SIG
#undef UK_CASE4
#undef UK_CASE3
#undef UK_CASE2
#undef UK_CASE
#undef UK_LINES
#undef UK_NR
#undef UK_UNROLL
