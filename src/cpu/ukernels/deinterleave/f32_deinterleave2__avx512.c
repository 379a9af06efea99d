/* Two-way deinterleave (deinterleave.h), AVX-512: 32 elements per step, two loads and
 * two cross-lane permutes; the last step's loads and stores masked. */
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
