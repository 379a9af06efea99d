/* The few-input-channel forward micro-kernel on zero-padded planes (fewc_ukernels.h),
 * AVX2 + FMA: 4 output channels x NV (1-3) vectors of 8 outputs in 4 NV accumulators,
 * the vectors of a call 3 at a time;
 * per tap, NV unaligned loads of the padded planes (no masks: the padding is zeros),
 * 4 broadcast weights from the packed filter (one 16-byte group a tap), 4 NV fused
 * multiply-adds. With 3 vectors: 12 accumulators, 3 sources and a broadcast in the 16
 * registers, 7 loads for 12 multiply-adds. */
#include <immintrin.h>
#include <stdbool.h>

#include "cpu/ukernels/fewc/fewc_ukernels.h"

#define AI static inline __attribute__((always_inline))
enum { L = 8, MR = PDNN_FEWP_MR };

/* The first n lanes (0..8) set. */
AI __m256i lanes(size_t n)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

AI void tile(const int NV, size_t mr, size_t nt, const float *const *src, const ptrdiff_t *toff,
             const float *wp, float *const *dst, ptrdiff_t drs, const size_t *nval, float alpha,
             float beta)
{
    __m256 acc[MR][3];
#pragma GCC unroll 4
    for (int i = 0; i < MR; i++)
#pragma GCC unroll 3
        for (int v = 0; v < NV; v++) acc[i][v] = _mm256_setzero_ps();
    const float *s0 = src[0], *s1 = NV > 1 ? src[1] : src[0], *s2 = NV > 2 ? src[2] : src[0];
    for (size_t t = 0; t < nt; t++) {
        const ptrdiff_t o = toff[t];
        __m256 x[3];
        x[0] = _mm256_loadu_ps(s0 + o);
        if (NV > 1) x[1] = _mm256_loadu_ps(s1 + o);
        if (NV > 2) x[2] = _mm256_loadu_ps(s2 + o);
        const float *w = wp + t * MR;
#pragma GCC unroll 4
        for (int i = 0; i < MR; i++) {
            const __m256 wv = _mm256_broadcast_ss(w + i);
#pragma GCC unroll 3
            for (int v = 0; v < NV; v++) acc[i][v] = _mm256_fmadd_ps(wv, x[v], acc[i][v]);
        }
    }
    const __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
    /* constant trip counts keep the accumulators in registers */
#pragma GCC unroll 3
    for (int v = 0; v < NV; v++) {
        const bool full = nval[v] >= L;
        const __m256i k = lanes(nval[v]);
#pragma GCC unroll 4
        for (int i = 0; i < MR; i++) {
            if ((size_t)i >= mr) break;
            float *d = dst[v] + (ptrdiff_t)i * drs;
            __m256 e = alpha == 1.0f ? acc[i][v] : _mm256_mul_ps(va, acc[i][v]);
            if (full) {
                if (beta != 0) e = _mm256_add_ps(e, _mm256_mul_ps(vb, _mm256_loadu_ps(d)));
                _mm256_storeu_ps(d, e);
            } else {
                if (beta != 0) e = _mm256_add_ps(e, _mm256_mul_ps(vb, _mm256_maskload_ps(d, k)));
                _mm256_maskstore_ps(d, k, e);
            }
        }
    }
}

void pdnn_f32_fewp_4x24__avx2(size_t mr, size_t n, size_t nt, const float *const *src,
                              const ptrdiff_t *toff, const float *wp, float *const *dst,
                              ptrdiff_t drs, const size_t *nval, float alpha, float beta)
{
    if (mr == 0) return;
    if (mr > MR) mr = MR;
    /* the vectors 3 at a time, then the last 1 or 2 */
    size_t v = 0;
    for (; v + 3 <= n; v += 3)
        tile(3, mr, nt, src + v, toff, wp, dst + v, drs, nval + v, alpha, beta);
    if (n - v == 2) tile(2, mr, nt, src + v, toff, wp, dst + v, drs, nval + v, alpha, beta);
    if (n - v == 1) tile(1, mr, nt, src + v, toff, wp, dst + v, drs, nval + v, alpha, beta);
}
