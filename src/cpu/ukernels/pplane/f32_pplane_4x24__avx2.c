/* The direct convolution micro-kernel on zero-padded planes (pplane_ukernels.h), AVX2 +
 * FMA: 4 rows x NV (1-3) vectors of 8 outputs in 4 NV accumulators, the vectors of a
 * call 3 at a time; per tap, NV unaligned loads, 4 broadcast weights (one from each
 * row), 4 NV fused multiply-adds. With 3 vectors: 12 accumulators, 3 sources and a
 * broadcast in the 16 registers, 9 loads (with the two offsets) for 12 multiply-adds. */
#include <immintrin.h>
#include <stdbool.h>

#include "cpu/ukernels/pplane/pplane_ukernels.h"

#define AI static inline __attribute__((always_inline))
enum { L = 8, MR = PDNN_PPLANE_MR };

/* The first n lanes (0..8) set. */
AI __m256i lanes(size_t n)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

AI void tile(const int NV, const int NT, const bool FULL, size_t mr, size_t ng, size_t nt, const float *const *src,
             ptrdiff_t sgs, const ptrdiff_t *toff, const float *w, ptrdiff_t wrs, ptrdiff_t wgs,
             const ptrdiff_t *woff, float *const *dst, ptrdiff_t drs, const size_t *nval,
             float alpha, float beta)
{
    __m256 acc[MR][3];
#pragma GCC unroll 4
    for (int i = 0; i < MR; i++)
#pragma GCC unroll 3
        for (int v = 0; v < NV; v++) acc[i][v] = _mm256_setzero_ps();
    /* rows past mr read row 0 (their sums are never stored) */
    const ptrdiff_t r1 = FULL || mr > 1 ? wrs : 0, r2 = FULL || mr > 2 ? 2 * wrs : 0;
    const ptrdiff_t r3 = FULL || mr > 3 ? 3 * wrs : 0;
    const float *s0 = src[0], *s1 = NV > 1 ? src[1] : src[0], *s2 = NV > 2 ? src[2] : src[0];
    for (size_t g = 0; g < ng; g++) {
        const float *wg = w + (ptrdiff_t)g * wgs;
        const size_t ntj = NT > 0 ? (size_t)NT : nt; /* a constant count unrolls the taps */
#pragma GCC unroll 4
        for (size_t j = 0; j < ntj; j++) {
            const ptrdiff_t o = toff[j];
            const float *wj = woff ? wg + woff[j] : wg + j;
            __m256 x[3];
            x[0] = _mm256_loadu_ps(s0 + o);
            if (NV > 1) x[1] = _mm256_loadu_ps(s1 + o);
            if (NV > 2) x[2] = _mm256_loadu_ps(s2 + o);
            const float *wr[MR] = {wj, wj + r1, wj + r2, wj + r3};
#pragma GCC unroll 4
            for (int i = 0; i < MR; i++) {
                const __m256 wv = _mm256_broadcast_ss(wr[i]);
#pragma GCC unroll 3
                for (int v = 0; v < NV; v++) acc[i][v] = _mm256_fmadd_ps(wv, x[v], acc[i][v]);
            }
        }
        s0 += sgs;
        s1 += sgs;
        s2 += sgs;
    }
    const __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
    /* constant trip counts keep the accumulators in registers */
#pragma GCC unroll 3
    for (int v = 0; v < NV; v++) {
        const bool full = nval[v] >= L;
#pragma GCC unroll 4
        for (int i = 0; i < MR; i++) {
            if (!FULL && (size_t)i >= mr) break;
            float *d = dst[v] + (ptrdiff_t)i * drs;
            __m256 e = alpha == 1.0f ? acc[i][v] : _mm256_mul_ps(va, acc[i][v]);
            if (full) {
                if (beta != 0) e = _mm256_add_ps(e, _mm256_mul_ps(vb, _mm256_loadu_ps(d)));
                _mm256_storeu_ps(d, e);
            } else {
                const __m256i k = lanes(nval[v]);
                if (beta != 0) e = _mm256_add_ps(e, _mm256_mul_ps(vb, _mm256_maskload_ps(d, k)));
                _mm256_maskstore_ps(d, k, e);
            }
        }
    }
}

/* The vectors 3 at a time, then the last 1 or 2 (or 2 + 2), with tap count NT (0: nt);
 * FULL: all 4 rows (no row checks in the stores). */
AI void run(const int NT, const bool FULL, size_t mr, size_t n, size_t ng, size_t nt,
            const float *const *src, ptrdiff_t sgs, const ptrdiff_t *toff, const float *w,
            ptrdiff_t wrs, ptrdiff_t wgs, const ptrdiff_t *woff, float *const *dst,
            ptrdiff_t drs, const size_t *nval, float alpha, float beta)
{
    /* 3 k + 1 vectors as 3 (k - 1) + 2 + 2: a lone vector's 4 chains leave half the
     * multiply-add issue idle (latency 4, two pipes) */
    const size_t n3 = n % 3 == 1 && n >= 4 ? n - 4 : n;
    size_t v = 0;
    for (; v + 3 <= n3; v += 3)
        tile(3, NT, FULL, mr, ng, nt, src + v, sgs, toff, w, wrs, wgs, woff, dst + v, drs,
             nval + v, alpha, beta);
    if (n3 != n) {
        tile(2, NT, FULL, mr, ng, nt, src + v, sgs, toff, w, wrs, wgs, woff, dst + v, drs,
             nval + v, alpha, beta);
        v += 2;
    }
    if (n - v == 2)
        tile(2, NT, FULL, mr, ng, nt, src + v, sgs, toff, w, wrs, wgs, woff, dst + v, drs,
             nval + v, alpha, beta);
    if (n - v == 1)
        tile(1, NT, FULL, mr, ng, nt, src + v, sgs, toff, w, wrs, wgs, woff, dst + v, drs,
             nval + v, alpha, beta);
}

/* run with the tap count NT, all rows or fewer. */
#define RUN(NT)                                                                            \
    do {                                                                                   \
        if (mr == MR)                                                                      \
            run(NT, true, mr, n, ng, nt, src, sgs, toff, w, wrs, wgs, woff, dst, drs, nval, \
                alpha, beta);                                                              \
        else                                                                               \
            run(NT, false, mr, n, ng, nt, src, sgs, toff, w, wrs, wgs, woff, dst, drs,     \
                nval, alpha, beta);                                                        \
    } while (0)

void pdnn_f32_pplane_4x24__avx2(size_t mr, size_t n, size_t ng, size_t nt,
                                const float *const *src, ptrdiff_t sgs, const ptrdiff_t *toff,
                                const float *w, ptrdiff_t wrs, ptrdiff_t wgs,
                                const ptrdiff_t *woff, float *const *dst, ptrdiff_t drs,
                                const size_t *nval, float alpha, float beta)
{
    if (mr == 0) return;
    if (mr > MR) mr = MR;
    /* the stride-2 phases of a 3 x 3 filter sum 1, 2 or 4 taps a group: unrolled, so
     * that the group loop is not mostly overhead */
    switch (nt) {
    case 1: RUN(1); break;
    case 2: RUN(2); break;
    case 4: RUN(4); break;
    default: RUN(0); break;
    }
}
