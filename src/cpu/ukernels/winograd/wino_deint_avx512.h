/* AVX-512 f32 deint for the window step 4 (wino_ukernels.h), 16 lanes a block with
 * masked loads and stores, so the short runs of tiles that small maps give (7 or 14
 * tiles a tile row) are vectorized too. Included by f32_wino4x{3,5}__avx512.c before
 * the transform template (which calls it when UK_DEINT_F32_AVX512 is defined).
 * Lanes l < m of a block read s[4 l + e], e < alpha: 4 m + alpha - 4 elements. Rows
 * e < 4 come from two rounds of two-source permutes (elements e and e + 1 of 8 lanes
 * from each pair of vectors, then the halves joined); row e + 4 is row e moved down by
 * one lane with element 4 m + e brought in at the top. */
#include <immintrin.h>
#include <stdint.h>

static inline __mmask16 pdnn_wino_deint_mask(int64_t k)
{
    return k >= 16 ? (__mmask16)0xffff : k <= 0 ? (__mmask16)0 : (__mmask16)((1u << k) - 1);
}

static inline void pdnn_wino_deint_f32_avx512(size_t n, const float *s, float *d, ptrdiff_t ds,
                                              int alpha)
{
    /* stage 1: lanes 0-7 element 4l + e, lanes 8-15 element 4l + e + 1 (l < 8) of a
     * 32-element pair; stage 2: lanes 0-7 of the first pair's and of the second's */
    const __m512i i01 = _mm512_set_epi32(29, 25, 21, 17, 13, 9, 5, 1, 28, 24, 20, 16, 12, 8, 4, 0);
    const __m512i i23 = _mm512_set_epi32(31, 27, 23, 19, 15, 11, 7, 3, 30, 26, 22, 18, 14, 10, 6, 2);
    const __m512i ilo = _mm512_set_epi32(23, 22, 21, 20, 19, 18, 17, 16, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i ihi = _mm512_set_epi32(31, 30, 29, 28, 27, 26, 25, 24, 15, 14, 13, 12, 11, 10, 9, 8);
    for (size_t l0 = 0; l0 < n; l0 += 16) {
        const int64_t m = n - l0 < 16 ? (int64_t)(n - l0) : 16;
        const int64_t need = 4 * m + alpha - 4; /* elements read */
        const float *b = s + 4 * l0;
        const __m512 v0 = _mm512_maskz_loadu_ps(pdnn_wino_deint_mask(need), b);
        const __m512 v1 = _mm512_maskz_loadu_ps(pdnn_wino_deint_mask(need - 16), b + 16);
        const __m512 v2 = _mm512_maskz_loadu_ps(pdnn_wino_deint_mask(need - 32), b + 32);
        const __m512 v3 = _mm512_maskz_loadu_ps(pdnn_wino_deint_mask(need - 48), b + 48);
        const __m512 v4 = _mm512_maskz_loadu_ps(pdnn_wino_deint_mask(need - 64), b + 64);
        const __m512 a01 = _mm512_permutex2var_ps(v0, i01, v1);
        const __m512 a23 = _mm512_permutex2var_ps(v0, i23, v1);
        const __m512 b01 = _mm512_permutex2var_ps(v2, i01, v3);
        const __m512 b23 = _mm512_permutex2var_ps(v2, i23, v3);
        __m512 r[4];
        r[0] = _mm512_permutex2var_ps(a01, ilo, b01);
        r[1] = _mm512_permutex2var_ps(a01, ihi, b01);
        r[2] = _mm512_permutex2var_ps(a23, ilo, b23);
        r[3] = _mm512_permutex2var_ps(a23, ihi, b23);
        const __mmask16 km = pdnn_wino_deint_mask(m);
        float *o = d + l0;
        for (int e = 0; e < 4; e++) _mm512_mask_storeu_ps(o + e * ds, km, r[e]);
        /* element 4 m + e of the block (the top lane of row e + 4): lane 4 m + e - 64 of
         * v4 when m == 16, else already in r[e] at lane m (shifted out below) */
        for (int e = 0; e + 4 < alpha; e++) {
            const __m512i top = _mm512_castps_si512(
                m == 16 ? _mm512_permutexvar_ps(_mm512_set1_epi32(e), v4) : r[e]);
            const __m512 sh = _mm512_castsi512_ps(
                _mm512_alignr_epi32(top, _mm512_castps_si512(r[e]), 1));
            _mm512_mask_storeu_ps(o + (e + 4) * ds, km, sh);
        }
    }
}

/* deintz (wino_ukernels.h), window step 4: the alpha rows of the run, each as above
 * with the loads masked to the elements j in [lo, hi) (zeros elsewhere, and zero rows
 * outside [r0, r1); nothing else is touched: masked-off lanes of a masked load never
 * fault). Masks and constants once per 16-lane block for all rows. Block base addresses
 * are formed as integers (they may lie before s). */
static inline __mmask16 pdnn_wino_deintz_mask(int64_t j0, int64_t lo, int64_t hi)
{
    return (__mmask16)(pdnn_wino_deint_mask(hi - j0) & ~pdnn_wino_deint_mask(lo - j0));
}

static inline __attribute__((always_inline)) void
pdnn_wino_deintz_f32_avx512_t(size_t n, const float *s, ptrdiff_t rs, ptrdiff_t r0, ptrdiff_t r1,
                              ptrdiff_t lo, ptrdiff_t hi, float *d, ptrdiff_t ds, int alpha,
                              int bt)
{
    const __m512i i01 = _mm512_set_epi32(29, 25, 21, 17, 13, 9, 5, 1, 28, 24, 20, 16, 12, 8, 4, 0);
    const __m512i i23 = _mm512_set_epi32(31, 27, 23, 19, 15, 11, 7, 3, 30, 26, 22, 18, 14, 10, 6, 2);
    const __m512i ilo = _mm512_set_epi32(23, 22, 21, 20, 19, 18, 17, 16, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i ihi = _mm512_set_epi32(31, 30, 29, 28, 27, 26, 25, 24, 15, 14, 13, 12, 11, 10, 9, 8);
    /* element j = 0 of row r0 */
    const uintptr_t base = (uintptr_t)s - (uintptr_t)lo * sizeof(float);
    for (size_t l0 = 0; l0 < n; l0 += 16) {
        const int64_t m = n - l0 < 16 ? (int64_t)(n - l0) : 16;
        const int64_t j0 = 4 * (int64_t)l0, need = j0 + 4 * m + alpha - 4;
        const int64_t h = hi < need ? hi : need; /* elements j0 .. h - 1 may be read */
        const __mmask16 k0 = pdnn_wino_deintz_mask(j0, lo, h);
        const __mmask16 k1 = pdnn_wino_deintz_mask(j0 + 16, lo, h);
        const __mmask16 k2 = pdnn_wino_deintz_mask(j0 + 32, lo, h);
        const __mmask16 k3 = pdnn_wino_deintz_mask(j0 + 48, lo, h);
        const __mmask16 k4 = pdnn_wino_deintz_mask(j0 + 64, lo, h);
        const __mmask16 km = pdnn_wino_deint_mask(m);
        for (ptrdiff_t i = 0; i < alpha; i++) {
            float *o = d + alpha * i * ds + l0;
            if (i < r0 || i >= r1) {
                for (int e = 0; e < alpha; e++) _mm512_mask_storeu_ps(o + e * ds, km, _mm512_setzero_ps());
                continue;
            }
            const float *b = (const float *)(base + (uintptr_t)((i - r0) * rs + j0) * sizeof(float));
            const __m512 v0 = _mm512_maskz_loadu_ps(k0, b);
            const __m512 v1 = _mm512_maskz_loadu_ps(k1, b + 16);
            const __m512 v2 = _mm512_maskz_loadu_ps(k2, b + 32);
            const __m512 v3 = _mm512_maskz_loadu_ps(k3, b + 48);
            const __m512 a01 = _mm512_permutex2var_ps(v0, i01, v1);
            const __m512 a23 = _mm512_permutex2var_ps(v0, i23, v1);
            const __m512 b01 = _mm512_permutex2var_ps(v2, i01, v3);
            const __m512 b23 = _mm512_permutex2var_ps(v2, i23, v3);
            __m512 r[4];
            r[0] = _mm512_permutex2var_ps(a01, ilo, b01);
            r[1] = _mm512_permutex2var_ps(a01, ihi, b01);
            r[2] = _mm512_permutex2var_ps(a23, ilo, b23);
            r[3] = _mm512_permutex2var_ps(a23, ihi, b23);
            __m512 x[8];
            for (int e = 0; e < 4; e++) x[e] = r[e];
            const __m512 v4 = m == 16 ? _mm512_maskz_loadu_ps(k4, b + 64) : _mm512_setzero_ps();
            for (int e = 0; e + 4 < alpha; e++) {
                const __m512i top = _mm512_castps_si512(
                    m == 16 ? _mm512_permutexvar_ps(_mm512_set1_epi32(e), v4) : r[e]);
                x[e + 4] = _mm512_castsi512_ps(
                    _mm512_alignr_epi32(top, _mm512_castps_si512(r[e]), 1));
            }
            if (bt) { /* the window row times B (F(4x4, 3x3), wino4x3_tmpl.h's bt6) */
                const __m512 c2 = _mm512_set1_ps(2.0f), c4 = _mm512_set1_ps(4.0f);
                const __m512 a42 = _mm512_sub_ps(x[4], x[2]), a31 = _mm512_sub_ps(x[3], x[1]);
                __m512 y[6];
                y[0] = _mm512_add_ps(a42, _mm512_mul_ps(c4, _mm512_sub_ps(x[0], x[2])));
                y[1] = _mm512_sub_ps(_mm512_add_ps(x[3], x[4]),
                                     _mm512_mul_ps(c4, _mm512_add_ps(x[1], x[2])));
                y[2] = _mm512_add_ps(_mm512_sub_ps(x[4], x[3]),
                                     _mm512_mul_ps(c4, _mm512_sub_ps(x[1], x[2])));
                y[3] = _mm512_add_ps(a42, _mm512_mul_ps(c2, a31));
                y[4] = _mm512_sub_ps(a42, _mm512_mul_ps(c2, a31));
                y[5] = _mm512_add_ps(_mm512_sub_ps(x[5], x[3]),
                                     _mm512_mul_ps(c4, _mm512_sub_ps(x[1], x[3])));
                for (int e = 0; e < 6; e++) _mm512_mask_storeu_ps(o + e * ds, km, y[e]);
            } else {
                for (int e = 0; e < alpha; e++) _mm512_mask_storeu_ps(o + e * ds, km, x[e]);
            }
        }
    }
}

static inline void pdnn_wino_deintz_f32_avx512(size_t n, const float *s, ptrdiff_t rs,
                                               ptrdiff_t r0, ptrdiff_t r1, ptrdiff_t lo,
                                               ptrdiff_t hi, float *d, ptrdiff_t ds, int alpha)
{
    pdnn_wino_deintz_f32_avx512_t(n, s, rs, r0, r1, lo, hi, d, ds, alpha, 0);
}
