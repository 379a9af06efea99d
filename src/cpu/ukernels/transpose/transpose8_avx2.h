/* The AVX2 8 x 8 register transpose and lane mask (internal), shared by the AVX2
 * transpose kernel (f32_transpose__avx2.c) and the channel-interleaved depthwise kernels
 * (cpu/ukernels/dwconv/f32_dwt8__avx2.c). Include only from files compiled for AVX2. */
#ifndef PDNN_UKERNELS_TRANSPOSE8_AVX2_H
#define PDNN_UKERNELS_TRANSPOSE8_AVX2_H

#include <immintrin.h>
#include <stddef.h>

/* The first n of 8 lanes (n <= 8). */
static inline __attribute__((always_inline)) __m256i pdnn_lane_mask8__avx2(size_t n)
{
    const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), idx);
}

/* r[0..7] (8 rows of 8) transposed in place: r[k] lane i = old r[i] lane k (unpacks,
 * shuffles, 128-bit lane permutes; values moved unchanged). */
static inline __attribute__((always_inline)) void pdnn_transpose8x8__avx2(__m256 r[8])
{
    __m256 t[8], u[8];
    for (int p = 0; p < 4; p++) {
        t[2 * p] = _mm256_unpacklo_ps(r[2 * p], r[2 * p + 1]);
        t[2 * p + 1] = _mm256_unpackhi_ps(r[2 * p], r[2 * p + 1]);
    }
    for (int h = 0; h < 2; h++) { /* rows 4h .. 4h + 3 */
        u[4 * h] = _mm256_shuffle_ps(t[4 * h], t[4 * h + 2], 0x44);
        u[4 * h + 1] = _mm256_shuffle_ps(t[4 * h], t[4 * h + 2], 0xEE);
        u[4 * h + 2] = _mm256_shuffle_ps(t[4 * h + 1], t[4 * h + 3], 0x44);
        u[4 * h + 3] = _mm256_shuffle_ps(t[4 * h + 1], t[4 * h + 3], 0xEE);
    }
    /* u[k] (rows 0-3) and u[4 + k] (rows 4-7) hold columns k and k + 4 */
    for (int k = 0; k < 4; k++) {
        r[k] = _mm256_permute2f128_ps(u[k], u[4 + k], 0x20);
        r[k + 4] = _mm256_permute2f128_ps(u[k], u[4 + k], 0x31);
    }
}

#endif
