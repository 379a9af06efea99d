/* f32 transpose, AVX2: 8 x 8 blocks in registers (unpack, shuffle, 128-bit lane
 * permutes), edge blocks through masked loads and stores (transpose.h). */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/ukernels/transpose/transpose.h"

static inline __m256i lane_mask(size_t n) /* the first n of 8 lanes */
{
    const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), idx);
}

void pdnn_f32_transpose__avx2(size_t rows, size_t cols, const float *src, ptrdiff_t lds,
                              float *dst, ptrdiff_t ldd)
{
    for (size_t i0 = 0; i0 < rows; i0 += 8)
        for (size_t j0 = 0; j0 < cols; j0 += 8) {
            const size_t ni = rows - i0 < 8 ? rows - i0 : 8, nj = cols - j0 < 8 ? cols - j0 : 8;
            const float *s = src + (ptrdiff_t)i0 * lds + (ptrdiff_t)j0;
            float *d = dst + (ptrdiff_t)j0 * ldd + (ptrdiff_t)i0;
            const __m256i mj = lane_mask(nj);
            __m256 r[8];
            for (size_t i = 0; i < 8; i++)
                r[i] = i < ni ? (nj == 8 ? _mm256_loadu_ps(s + (ptrdiff_t)i * lds)
                                         : _mm256_maskload_ps(s + (ptrdiff_t)i * lds, mj))
                              : _mm256_setzero_ps();
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
            const __m256i mi = lane_mask(ni);
            for (int k = 0; k < 4; k++) {
                const __m256 lo = _mm256_permute2f128_ps(u[k], u[4 + k], 0x20);
                const __m256 hi = _mm256_permute2f128_ps(u[k], u[4 + k], 0x31);
                if ((size_t)k < nj) {
                    if (ni == 8) _mm256_storeu_ps(d + k * ldd, lo);
                    else _mm256_maskstore_ps(d + k * ldd, mi, lo);
                }
                if ((size_t)k + 4 < nj) {
                    if (ni == 8) _mm256_storeu_ps(d + (k + 4) * ldd, hi);
                    else _mm256_maskstore_ps(d + (k + 4) * ldd, mi, hi);
                }
            }
        }
}
