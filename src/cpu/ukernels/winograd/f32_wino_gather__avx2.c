/* f32 tap gather of the Winograd filter transform (wino_ukernels.h), AVX2: one 8-lane
 * hardware gather per tap and 8 lanes; the last lanes (fewer than 8) one by one. */
#include <immintrin.h>

#include "cpu/ukernels/winograd/wino_ukernels.h"

void pdnn_f32_wino_gather__avx2(size_t n, const float *restrict s, const int32_t *restrict off,
                                const int32_t *restrict toff, size_t ntap, float *restrict d,
                                ptrdiff_t ds)
{
    size_t l = 0;
    for (; l + 8 <= n; l += 8) {
        const __m256i ix = _mm256_loadu_si256((const __m256i *)(off + l));
        /* lanes with a negative offset get zeros (the mask is the sign bit) */
        const __m256 m = _mm256_castsi256_ps(
            _mm256_cmpgt_epi32(ix, _mm256_set1_epi32(-1)));
        for (size_t k = 0; k < ntap; k++)
            _mm256_storeu_ps(d + (ptrdiff_t)k * ds + (ptrdiff_t)l,
                             _mm256_mask_i32gather_ps(_mm256_setzero_ps(), s + toff[k], ix, m, 4));
    }
    for (; l < n; l++)
        for (size_t k = 0; k < ntap; k++)
            d[(ptrdiff_t)k * ds + (ptrdiff_t)l] = off[l] < 0 ? 0.0f : s[off[l] + toff[k]];
}
