/* Two-way deinterleave and interleave (deinterleave.h), AVX2: 16 elements per step (two
 * loads, in-lane shuffles or unpacks and 64/128-bit lane permutes); the tail in plain
 * C. */
#include <immintrin.h>

#include "cpu/ukernels/deinterleave/deinterleave.h"

void pdnn_f32_deinterleave2__avx2(const float *src, size_t n, float *even, float *odd)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256 a = _mm256_loadu_ps(src + i), b = _mm256_loadu_ps(src + i + 8);
        /* per 128-bit lane: a0 a2 b0 b2 | a4 a6 b4 b6, then the 64-bit pieces reordered */
        const __m256 e = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
        const __m256 o = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
        _mm256_storeu_ps(even + i / 2,
                         _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(e), 0xD8)));
        _mm256_storeu_ps(odd + i / 2,
                         _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(o), 0xD8)));
    }
    if (i < n) pdnn_f32_deinterleave2__scalar(src + i, n - i, even + i / 2, odd + i / 2);
}

void pdnn_f32_interleave2__avx2(const float *even, const float *odd, size_t n, float *dst)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256 e = _mm256_loadu_ps(even + i / 2), o = _mm256_loadu_ps(odd + i / 2);
        /* per 128-bit lane: e0 o0 e1 o1 | e4 o4 e5 o5 and e2 o2 e3 o3 | e6 o6 e7 o7 */
        const __m256 lo = _mm256_unpacklo_ps(e, o), hi = _mm256_unpackhi_ps(e, o);
        _mm256_storeu_ps(dst + i, _mm256_permute2f128_ps(lo, hi, 0x20));
        _mm256_storeu_ps(dst + i + 8, _mm256_permute2f128_ps(lo, hi, 0x31));
    }
    if (i < n) pdnn_f32_interleave2__scalar(even + i / 2, odd + i / 2, n - i, dst + i);
}
