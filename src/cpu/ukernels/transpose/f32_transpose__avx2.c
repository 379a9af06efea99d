/* f32 transpose, AVX2: 8 x 8 blocks in registers (unpack, shuffle, 128-bit lane
 * permutes), edge blocks through masked loads and stores (transpose.h). */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/ukernels/transpose/transpose.h"
#include "cpu/ukernels/transpose/transpose8_avx2.h"

void pdnn_f32_transpose__avx2(size_t rows, size_t cols, const float *src, ptrdiff_t lds,
                              float *dst, ptrdiff_t ldd)
{
    for (size_t i0 = 0; i0 < rows; i0 += 8)
        for (size_t j0 = 0; j0 < cols; j0 += 8) {
            const size_t ni = rows - i0 < 8 ? rows - i0 : 8, nj = cols - j0 < 8 ? cols - j0 : 8;
            const float *s = src + (ptrdiff_t)i0 * lds + (ptrdiff_t)j0;
            float *d = dst + (ptrdiff_t)j0 * ldd + (ptrdiff_t)i0;
            const __m256i mj = pdnn_lane_mask8__avx2(nj);
            __m256 r[8];
            for (size_t i = 0; i < 8; i++)
                r[i] = i < ni ? (nj == 8 ? _mm256_loadu_ps(s + (ptrdiff_t)i * lds)
                                         : _mm256_maskload_ps(s + (ptrdiff_t)i * lds, mj))
                              : _mm256_setzero_ps();
            pdnn_transpose8x8__avx2(r); /* r[k]: column k */
            const __m256i mi = pdnn_lane_mask8__avx2(ni);
            for (size_t k = 0; k < nj; k++) {
                if (ni == 8) _mm256_storeu_ps(d + (ptrdiff_t)k * ldd, r[k]);
                else _mm256_maskstore_ps(d + (ptrdiff_t)k * ldd, mi, r[k]);
            }
        }
}
