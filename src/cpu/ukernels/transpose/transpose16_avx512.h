/* The AVX-512 16 x 16 register transpose (internal), shared by the AVX-512 transpose
 * kernel (f32_transpose__avx512.c) and the output stores of the channel-vector direct
 * convolution (cpu/ukernels/kvec/f32_kvec__avx512.c). Include only from files
 * compiled for AVX-512. */
#ifndef PDNN_UKERNELS_TRANSPOSE16_AVX512_H
#define PDNN_UKERNELS_TRANSPOSE16_AVX512_H

#include <immintrin.h>
#include <stddef.h>

/* The first n of 16 lanes (all of them for n >= 16). */
static inline __attribute__((always_inline)) __mmask16 pdnn_lane_mask16__avx512(size_t n)
{
    return n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1u);
}

/* r[0..15] (16 rows of 16) transposed into c: c[j] lane i = r[i] lane j (unpacks,
 * shuffles, then two rounds of 128-bit lane shuffles; values moved unchanged). */
static inline __attribute__((always_inline)) void pdnn_transpose16x16__avx512(const __m512 r[16],
                                                                             __m512 c[16])
{
    __m512 t[16], u[16];
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
        c[k] = _mm512_shuffle_f32x4(v, x, 0x88);      /* column k */
        c[k + 4] = _mm512_shuffle_f32x4(w, y, 0x88);  /* k + 4 */
        c[k + 8] = _mm512_shuffle_f32x4(v, x, 0xDD);  /* k + 8 */
        c[k + 12] = _mm512_shuffle_f32x4(w, y, 0xDD); /* k + 12 */
    }
}

/* The block of ni rows (<= 16) x nj columns (<= 16) at s (rows lds apart) transposed
 * into c: c[j] lane i = s[i lds + j]; lanes and columns past the block are zeros (masked
 * loads: nothing outside the block is read). */
static inline __attribute__((always_inline)) void
pdnn_transpose16x16_load__avx512(const float *s, ptrdiff_t lds, size_t ni, size_t nj, __m512 c[16])
{
    const __mmask16 mj = pdnn_lane_mask16__avx512(nj);
    __m512 r[16];
    for (size_t i = 0; i < 16; i++)
        r[i] = i < ni ? _mm512_maskz_loadu_ps(mj, s + (ptrdiff_t)i * lds) : _mm512_setzero_ps();
    pdnn_transpose16x16__avx512(r, c);
}

#endif
