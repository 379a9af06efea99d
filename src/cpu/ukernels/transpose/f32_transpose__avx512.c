/* f32 transpose, AVX-512F: 16 x 16 blocks in registers (unpack, shuffle, then two
 * rounds of 128-bit lane shuffles), edge blocks through masked loads and stores
 * (transpose.h). */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/ukernels/transpose/transpose.h"

static inline __mmask16 first(size_t n) /* the first n of 16 lanes */
{
    return n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1u);
}

void pdnn_f32_transpose__avx512(size_t rows, size_t cols, const float *src, ptrdiff_t lds,
                                float *dst, ptrdiff_t ldd)
{
    for (size_t i0 = 0; i0 < rows; i0 += 16)
        for (size_t j0 = 0; j0 < cols; j0 += 16) {
            const size_t ni = rows - i0 < 16 ? rows - i0 : 16;
            const size_t nj = cols - j0 < 16 ? cols - j0 : 16;
            const float *s = src + (ptrdiff_t)i0 * lds + (ptrdiff_t)j0;
            float *d = dst + (ptrdiff_t)j0 * ldd + (ptrdiff_t)i0;
            const __mmask16 mj = first(nj), mi = first(ni);
            __m512 r[16], t[16], u[16];
            for (size_t i = 0; i < 16; i++)
                r[i] = i < ni ? _mm512_maskz_loadu_ps(mj, s + (ptrdiff_t)i * lds)
                              : _mm512_setzero_ps();
            for (int p = 0; p < 8; p++) {
                t[2 * p] = _mm512_unpacklo_ps(r[2 * p], r[2 * p + 1]);
                t[2 * p + 1] = _mm512_unpackhi_ps(r[2 * p], r[2 * p + 1]);
            }
            /* u[4h + k]: in each 128-bit lane L, column 4L + k of rows 4h .. 4h + 3 */
            for (int h = 0; h < 4; h++) {
                u[4 * h] = _mm512_shuffle_ps(t[4 * h], t[4 * h + 2], 0x44);
                u[4 * h + 1] = _mm512_shuffle_ps(t[4 * h], t[4 * h + 2], 0xEE);
                u[4 * h + 2] = _mm512_shuffle_ps(t[4 * h + 1], t[4 * h + 3], 0x44);
                u[4 * h + 3] = _mm512_shuffle_ps(t[4 * h + 1], t[4 * h + 3], 0xEE);
            }
            for (int k = 0; k < 4; k++) {
                /* lanes (0, 2) and (1, 3) of the row quartets, then joined */
                const __m512 v = _mm512_shuffle_f32x4(u[k], u[4 + k], 0x88);
                const __m512 w = _mm512_shuffle_f32x4(u[k], u[4 + k], 0xDD);
                const __m512 x = _mm512_shuffle_f32x4(u[8 + k], u[12 + k], 0x88);
                const __m512 y = _mm512_shuffle_f32x4(u[8 + k], u[12 + k], 0xDD);
                const __m512 c[4] = {_mm512_shuffle_f32x4(v, x, 0x88),  /* column k */
                                     _mm512_shuffle_f32x4(w, y, 0x88),  /* k + 4 */
                                     _mm512_shuffle_f32x4(v, x, 0xDD),  /* k + 8 */
                                     _mm512_shuffle_f32x4(w, y, 0xDD)}; /* k + 12 */
                for (int q = 0; q < 4; q++) {
                    const size_t j = (size_t)(k + 4 * q);
                    if (j < nj) _mm512_mask_storeu_ps(d + (ptrdiff_t)j * ldd, mi, c[q]);
                }
            }
        }
}
