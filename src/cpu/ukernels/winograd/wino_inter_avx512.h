/* AVX-512 f32 inter (wino_ukernels.h: the columns of a run's 4x4 output tiles, four
 * rows of lanes per output row, back into rows of y, blended), 16 tiles (64 columns) a
 * block, masks and constants once per block for all rows, with
 * masked loads and stores, so the short rows of small maps and the cut last tile need
 * no scalar tail. Included by f32_wino4x{3,5}__avx512.c before the transform template
 * (which calls it when UK_INTER_F32_AVX512 is defined). Per block: the four rows scaled
 * by alpha, pairs of rows interleaved (lanes 0-7 and 8-15 of rows e and e + 1), then
 * pairs of those interleaved by 2-element groups: tiles 4 j .. 4 j + 3 in vector j.
 * y = alpha * s + beta * y as two roundings (mul, then add), like the plain C version. */
#include <immintrin.h>

static inline __mmask16 pdnn_wino_inter_mask(int64_t k)
{
    return k >= 16 ? (__mmask16)0xffff : k <= 0 ? (__mmask16)0 : (__mmask16)((1u << k) - 1);
}

static inline void pdnn_wino_inter_f32_avx512(size_t n, size_t nrow, const float *s,
                                              ptrdiff_t ss, float *d, ptrdiff_t drs,
                                              float alpha, float beta)
{
    const __m512i lo1 = _mm512_set_epi32(23, 7, 22, 6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
    const __m512i hi1 = _mm512_set_epi32(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9,
                                         24, 8);
    const __m512i lo2 = _mm512_set_epi32(23, 22, 7, 6, 21, 20, 5, 4, 19, 18, 3, 2, 17, 16, 1, 0);
    const __m512i hi2 = _mm512_set_epi32(31, 30, 15, 14, 29, 28, 13, 12, 27, 26, 11, 10, 25, 24,
                                         9, 8);
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    for (size_t k0 = 0, l0 = 0; k0 < n; k0 += 64, l0 += 16) {
        const int64_t m = n - k0 < 64 ? (int64_t)(n - k0) : 64; /* columns of the block */
        const __mmask16 kl = pdnn_wino_inter_mask((m + 3) / 4);
        __mmask16 km[4];
        for (int j = 0; j < 4; j++) km[j] = pdnn_wino_inter_mask(m - 16 * j);
        for (size_t i = 0; i < nrow; i++) {
            const float *b = s + 4 * (ptrdiff_t)i * ss + l0;
            const __m512 r0 = _mm512_mul_ps(va, _mm512_maskz_loadu_ps(kl, b));
            const __m512 r1 = _mm512_mul_ps(va, _mm512_maskz_loadu_ps(kl, b + ss));
            const __m512 r2 = _mm512_mul_ps(va, _mm512_maskz_loadu_ps(kl, b + 2 * ss));
            const __m512 r3 = _mm512_mul_ps(va, _mm512_maskz_loadu_ps(kl, b + 3 * ss));
            const __m512 a0 = _mm512_permutex2var_ps(r0, lo1, r1);
            const __m512 a1 = _mm512_permutex2var_ps(r0, hi1, r1);
            const __m512 b0 = _mm512_permutex2var_ps(r2, lo1, r3);
            const __m512 b1 = _mm512_permutex2var_ps(r2, hi1, r3);
            __m512 o[4];
            o[0] = _mm512_permutex2var_ps(a0, lo2, b0);
            o[1] = _mm512_permutex2var_ps(a0, hi2, b0);
            o[2] = _mm512_permutex2var_ps(a1, lo2, b1);
            o[3] = _mm512_permutex2var_ps(a1, hi2, b1);
            float *y = d + (ptrdiff_t)i * drs + k0;
            for (int j = 0; j < 4 && km[j]; j++) {
                __m512 v = o[j];
                if (beta != 0.0f)
                    v = _mm512_add_ps(v, _mm512_mul_ps(vb, _mm512_maskz_loadu_ps(km[j], y + 16 * j)));
                _mm512_mask_storeu_ps(y + 16 * j, km[j], v);
            }
        }
    }
}
