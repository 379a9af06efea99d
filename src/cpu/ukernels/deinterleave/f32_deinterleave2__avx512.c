/* Two-way deinterleave and interleave (deinterleave.h), AVX-512: 32 elements per step,
 * two loads, two cross-lane permutes and two stores; the last step masked. */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/ukernels/deinterleave/deinterleave.h"

static inline __mmask16 first(size_t k) /* the first k lanes, k <= 16 */
{
    return (__mmask16)(k >= 16 ? 0xFFFFu : ((1u << k) - 1u));
}

void pdnn_f32_deinterleave2__avx512(const float *src, size_t n, float *even, float *odd)
{
    const __m512i ie = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26,
                                         28, 30);
    const __m512i io = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27,
                                         29, 31);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512 a = _mm512_loadu_ps(src + i), b = _mm512_loadu_ps(src + i + 16);
        _mm512_storeu_ps(even + i / 2, _mm512_permutex2var_ps(a, ie, b));
        _mm512_storeu_ps(odd + i / 2, _mm512_permutex2var_ps(a, io, b));
    }
    if (i < n) {
        const size_t r = n - i; /* 1 .. 31 */
        const __m512 a = _mm512_maskz_loadu_ps(first(r), src + i);
        const __m512 b = _mm512_maskz_loadu_ps(first(r > 16 ? r - 16 : 0), src + i + 16);
        _mm512_mask_storeu_ps(even + i / 2, first((r + 1) / 2), _mm512_permutex2var_ps(a, ie, b));
        _mm512_mask_storeu_ps(odd + i / 2, first(r / 2), _mm512_permutex2var_ps(a, io, b));
    }
}

void pdnn_f32_interleave2__avx512(const float *even, const float *odd, size_t n, float *dst)
{
    /* lanes of (even, odd) as indices 0-15 and 16-31: the low and high halves */
    const __m512i il = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const __m512i ih = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30,
                                         15, 31);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512 e = _mm512_loadu_ps(even + i / 2), o = _mm512_loadu_ps(odd + i / 2);
        _mm512_storeu_ps(dst + i, _mm512_permutex2var_ps(e, il, o));
        _mm512_storeu_ps(dst + i + 16, _mm512_permutex2var_ps(e, ih, o));
    }
    if (i < n) {
        const size_t r = n - i; /* 1 .. 31 */
        const __m512 e = _mm512_maskz_loadu_ps(first((r + 1) / 2), even + i / 2);
        const __m512 o = _mm512_maskz_loadu_ps(first(r / 2), odd + i / 2);
        _mm512_mask_storeu_ps(dst + i, first(r), _mm512_permutex2var_ps(e, il, o));
        _mm512_mask_storeu_ps(dst + i + 16, first(r > 16 ? r - 16 : 0),
                              _mm512_permutex2var_ps(e, ih, o));
    }
}
