/* Masked flat-plane depthwise micro-kernels (dwmf_ukernels.h), AVX-512. conv: two planes
 * at a time sharing each (vector, tap) mask, blocks of up to 4 grid vectors (8
 * independent sums); bwdf: two planes' tap sums (up to 12 taps each) in registers over
 * the images and the grid; masks: lane rows and columns advanced by vector compares. */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/ukernels/dwconv/dwmf_ukernels.h"

#define AI static inline __attribute__((always_inline))
enum { L = PDNN_DWMF_LANES };

/* p + o floats, as an integer: the address of a masked-off lane may lie outside p's
 * buffer, where C pointer arithmetic is not defined (the load never touches it). */
AI const float *at(const float *p, ptrdiff_t o)
{
    return (const float *)((uintptr_t)p + (uintptr_t)(o * (ptrdiff_t)sizeof(float)));
}

/* Lanes below n (n may exceed 16). */
AI __mmask16 first(size_t n)
{
    return n >= L ? (__mmask16)0xFFFF : (__mmask16)((1u << n) - 1u);
}

AI size_t sub0(size_t a, size_t b) { return a > b ? a - b : 0; }

/* d (lanes k) = alpha a (+ beta d). */
AI void blend_st(float *d, __m512 a, __mmask16 k, __m512 va, __m512 vb, float beta)
{
    __m512 e = _mm512_mul_ps(va, a);
    if (beta != 0) e = _mm512_add_ps(e, _mm512_mul_ps(vb, _mm512_maskz_loadu_ps(k, d)));
    _mm512_mask_storeu_ps(d, k, e);
}

/* NP planes (NP <= 2) x B grid vectors (B <= 4) from s (plane 0's vector 0 of the block);
 * m: the block's masks, w: plane 0's taps (plane p at w + p ntap). */
AI void conv_blk(const int NP, const int B, const float *s, ptrdiff_t scs, size_t ntap,
                 const ptrdiff_t *toff, const uint16_t *m, const float *w, ptrdiff_t wcs, float *d,
                 ptrdiff_t dcs, __mmask16 klast, __m512 va, __m512 vb, float beta)
{
    __m512 a[2][4];
#pragma GCC unroll 2
    for (int p = 0; p < NP; p++)
#pragma GCC unroll 4
        for (int b = 0; b < B; b++) a[p][b] = _mm512_setzero_ps();
    const float *s1 = at(s, NP > 1 ? scs : 0);
    const float *w1 = w + (NP > 1 ? wcs : 0);
    for (size_t t = 0; t < ntap; t++) {
        const __m512 wv[2] = {_mm512_set1_ps(w[t]), _mm512_set1_ps(w1[t])};
        const float *xt[2] = {at(s, toff[t]), at(s1, toff[t])};
#pragma GCC unroll 4
        for (int b = 0; b < B; b++) {
            const __mmask16 k = m[(size_t)b * ntap + t];
#pragma GCC unroll 2
            for (int p = 0; p < NP; p++) {
                const __m512 xv = _mm512_maskz_loadu_ps(k, at(xt[p], b * L));
                a[p][b] = _mm512_mask3_fmadd_ps(wv[p], xv, a[p][b], k);
            }
        }
    }
#pragma GCC unroll 2
    for (int p = 0; p < NP; p++)
#pragma GCC unroll 4
        for (int b = 0; b < B; b++)
            blend_st(d + p * dcs + b * L, a[p][b], b == B - 1 ? klast : (__mmask16)0xFFFF, va,
                     vb, beta);
}

void pdnn_f32_dwmf_conv__avx512(size_t np, const float *src, ptrdiff_t scs, size_t ntap,
                                const ptrdiff_t *toff, const uint16_t *masks, const float *w,
                                ptrdiff_t wcs, size_t nout, float *dst, ptrdiff_t dcs, float alpha,
                                float beta)
{
    const size_t nv = (nout + L - 1) / L;
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    for (size_t p = 0; p < np; p += 2) {
        const int two = np - p >= 2;
        const float *s = src + (ptrdiff_t)p * scs;
        float *d = dst + (ptrdiff_t)p * dcs;
        const float *wp = w + (ptrdiff_t)p * wcs;
        for (size_t v = 0; v < nv; v += 4) {
            const size_t nb = nv - v < 4 ? nv - v : 4;
            const __mmask16 kl = v + nb == nv ? first(nout - (nv - 1) * L) : (__mmask16)0xFFFF;
            const float *sv = s + v * L;
            float *dv = d + v * L;
            const uint16_t *mv = masks + v * ntap;
            switch ((two ? 4 : 0) + (int)nb) {
#define C(np_, b_)                                                                            \
    case (np_ == 2 ? 4 : 0) + b_:                                                             \
        conv_blk(np_, b_, sv, scs, ntap, toff, mv, wp, wcs, dv, dcs, kl, va, vb, beta);           \
        break;
            C(2, 4) C(2, 3) C(2, 2) C(2, 1) C(1, 4) C(1, 3) C(1, 2) C(1, 1)
#undef C
            default: break;
            }
        }
    }
}

/* The 16 lanes of a summed in the fixed tree of dwmf_ukernels.h. */
AI float tree16(__m512 a)
{
    const __m256 b = _mm256_add_ps(_mm512_castps512_ps256(a), _mm512_extractf32x8_ps(a, 1));
    const __m128 c = _mm_add_ps(_mm256_castps256_ps128(b), _mm256_extractf128_ps(b, 1));
    const __m128 d = _mm_add_ps(c, _mm_movehl_ps(c, c)); /* (c0 + c2, c1 + c3) */
    return _mm_cvtss_f32(_mm_add_ss(d, _mm_shuffle_ps(d, d, 1)));
}

/* NP planes (NP <= 2), NT taps (NT <= 12) from t0 over the images and the grid. */
AI void bwdf_grp(const int NP, const int NT, const float *s, ptrdiff_t scs, ptrdiff_t sns,
                 size_t ntap, const ptrdiff_t *toff, const uint16_t *m, const float *dy,
                 ptrdiff_t dcs, ptrdiff_t dns, size_t nimg, size_t nout, float *sum)
{
    __m512 a[2][12];
    ptrdiff_t off[12];
    const size_t nv = (nout + L - 1) / L;
#pragma GCC unroll 12
    for (int t = 0; t < NT; t++) {
        off[t] = toff[t];
#pragma GCC unroll 2
        for (int p = 0; p < NP; p++) a[p][t] = _mm512_setzero_ps();
    }
    for (size_t n = 0; n < nimg; n++) {
        /* small planes: the planes two images on (a stride apart, no hardware stream) */
        if (n + 2 < nimg && nout <= 256)
#pragma GCC unroll 2
            for (int p = 0; p < NP; p++) {
                const char *xs = (const char *)at(s, (ptrdiff_t)(n + 2) * sns + p * scs);
                const char *ds = (const char *)at(dy, (ptrdiff_t)(n + 2) * dns + p * dcs);
                for (size_t o = 0; o < nout * sizeof(float); o += 64) {
                    __builtin_prefetch(xs + o, 0, 3);
                    __builtin_prefetch(ds + o, 0, 3);
                }
            }
        for (size_t v = 0; v < nv; v++) {
            const __mmask16 kd = v + 1 == nv ? first(nout - v * L) : (__mmask16)0xFFFF;
            const float *dn = dy + (ptrdiff_t)n * dns, *sv = s + (ptrdiff_t)n * sns + v * L;
            __m512 dv[2];
#pragma GCC unroll 2
            for (int p = 0; p < NP; p++) dv[p] = _mm512_maskz_loadu_ps(kd, dn + p * dcs + v * L);
            const uint16_t *mv = m + v * ntap;
#pragma GCC unroll 12
            for (int t = 0; t < NT; t++) {
                const __mmask16 k = mv[t];
#pragma GCC unroll 2
                for (int p = 0; p < NP; p++) {
                    const __m512 xv = _mm512_maskz_loadu_ps(k, at(sv, p * scs + off[t]));
                    a[p][t] = _mm512_mask3_fmadd_ps(dv[p], xv, a[p][t], k);
                }
            }
        }
    }
#pragma GCC unroll 12
    for (int t = 0; t < NT; t++)
#pragma GCC unroll 2
        for (int p = 0; p < NP; p++) sum[(size_t)p * ntap + (size_t)t] = tree16(a[p][t]);
}

void pdnn_f32_dwmf_bwdf__avx512(size_t np, const float *src, ptrdiff_t scs, ptrdiff_t sns,
                                size_t ntap, const ptrdiff_t *toff, const uint16_t *masks,
                                const float *dy, ptrdiff_t dcs, ptrdiff_t dns, size_t nimg,
                                size_t nout, float *sum)
{
    for (size_t p = 0; p < np;) {
        const int two = np - p >= 2 && ntap <= 12;
        const float *s = src + (ptrdiff_t)p * scs, *d = dy + (ptrdiff_t)p * dcs;
        float *su = sum + p * ntap;
        for (size_t t0 = 0; t0 < ntap;) {
            /* groups of at most 12 taps, as even as possible */
            const size_t left = ntap - t0, ng = (left + 11) / 12, nt = (left + ng - 1) / ng;
            const ptrdiff_t *to = toff + t0;
            const uint16_t *m = masks + t0;
            float *st = su + t0;
            switch ((two ? 16 : 0) + (int)nt) {
#define G(np_, k)                                                                            \
    case (np_ == 2 ? 16 : 0) + k:                                                            \
        bwdf_grp(np_, k, s, scs, sns, ntap, to, m, d, dcs, dns, nimg, nout, st);                            \
        break;
                G(2, 12) G(2, 11) G(2, 10) G(2, 9) G(2, 8) G(2, 7) G(2, 6) G(2, 5) G(2, 4)
                G(2, 3) G(2, 2) G(2, 1) G(1, 12) G(1, 11) G(1, 10) G(1, 9) G(1, 8) G(1, 7)
                G(1, 6) G(1, 5) G(1, 4) G(1, 3) G(1, 2) G(1, 1)
#undef G
            default: break;
            }
            t0 += nt;
        }
        p += two ? 2 : 1;
    }
}

void pdnn_f32_dwmf_masks__avx512(size_t nout, size_t gw, size_t gwv, size_t nr,
                                 const int32_t *dr, const int32_t *hr, size_t nc,
                                 const int32_t *dc, const int32_t *wc, uint16_t *masks)
{
    pdnn_f32_dwmf_masks_range__avx512(nout, gw, gwv, nr, dr, hr, nc, dc, wc, 0,
                                      (nout + L - 1) / L, masks);
}

void pdnn_f32_dwmf_masks_range__avx512(size_t nout, size_t gw, size_t gwv, size_t nr,
                                       const int32_t *dr, const int32_t *hr, size_t nc,
                                       const int32_t *dc, const int32_t *wc, size_t v0,
                                       size_t v1, uint16_t *masks)
{
    if (gw == 0) return;
    const size_t nt = nr * nc;
    int32_t i0[L], j0[L], f0[L];
    for (int l = 0; l < L; l++) {
        const size_t f = L * v0 + (size_t)l;
        i0[l] = (int32_t)(f / gw);
        j0[l] = (int32_t)(f % gw);
        f0[l] = (int32_t)f;
    }
    __m512i vi = _mm512_loadu_si512(i0), vj = _mm512_loadu_si512(j0);
    __m512i vf = _mm512_loadu_si512(f0);
    const __m512i vgw = _mm512_set1_epi32((int32_t)gw), vn = _mm512_set1_epi32((int32_t)nout);
    const __m512i vgwv = _mm512_set1_epi32((int32_t)gwv), one = _mm512_set1_epi32(1);
    const __m512i vL = _mm512_set1_epi32(L);
    const int32_t step_i = (int32_t)(L / gw), step_j = (int32_t)(L % gw);
    for (size_t v = v0; v < v1; v++) {
        const __mmask16 kv = _mm512_cmplt_epu32_mask(vf, vn) & _mm512_cmplt_epu32_mask(vj, vgwv);
        __mmask16 kc[PDNN_DWMF_TAPS];
        for (size_t c = 0; c < nc; c++)
            kc[c] = _mm512_cmplt_epu32_mask(_mm512_add_epi32(vj, _mm512_set1_epi32(dc[c])),
                                            _mm512_set1_epi32(wc[c]));
        for (size_t r = 0; r < nr; r++) {
            const __mmask16 kr = kv & _mm512_cmplt_epu32_mask(
                                          _mm512_add_epi32(vi, _mm512_set1_epi32(dr[r])),
                                          _mm512_set1_epi32(hr[r]));
            for (size_t c = 0; c < nc; c++) masks[v * nt + r * nc + c] = (uint16_t)(kr & kc[c]);
        }
        /* next vector: f += 16, (i, j) advanced with the carry of j past gw */
        vf = _mm512_add_epi32(vf, vL);
        vi = _mm512_add_epi32(vi, _mm512_set1_epi32(step_i));
        vj = _mm512_add_epi32(vj, _mm512_set1_epi32(step_j));
        const __mmask16 k = _mm512_cmpge_epi32_mask(vj, vgw);
        vj = _mm512_mask_sub_epi32(vj, k, vj, vgw);
        vi = _mm512_mask_add_epi32(vi, k, vi, one);
    }
}

