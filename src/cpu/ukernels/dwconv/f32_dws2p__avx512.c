/* Stride-2 depthwise micro-kernels for small planes, two output rows a vector
 * (dws2p_ukernels.h), AVX-512. 3x3 taps are compiled with constant sizes (weights held in
 * registers across a plane), others (up to 7 x 7) with run-time loops. */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/ukernels/dwconv/dws2p_ukernels.h"

#define AI static inline __attribute__((always_inline))
enum { L = 16, KMAX = PDNN_DWS2P_KMAX, NKMAX = (PDNN_DWS2P_KMAX + 1) / 2 };

/* p + o floats as an integer: a masked-off lane's address may lie outside p's buffer. */
AI const float *at(const float *p, ptrdiff_t o)
{
    return (const float *)((uintptr_t)p + (uintptr_t)(o * (ptrdiff_t)sizeof(float)));
}

AI float *atw(float *p, ptrdiff_t o)
{
    return (float *)((uintptr_t)p + (uintptr_t)(o * (ptrdiff_t)sizeof(float)));
}

/* Floor of a / 2. */
AI int64_t fdiv2(int64_t a) { return a >= 0 ? a / 2 : -((-a + 1) / 2); }

int pdnn_f32_dws2p_plan__avx512(const pdnn_dws2_geom *g, pdnn_dws2p_plan *pl)
{
    const int64_t OW = g->OW, W = g->W, kw = g->kw;
    if (OW < 1 || OW > 8 || 2 * (OW - 1) + kw > L || W > L || W < 1 || g->kh > KMAX ||
        kw > KMAX || g->kh < 1 || kw < 1 || g->p1 < 0 || g->p2 < 0)
        return 0;
    pl->g = *g;
    pl->la = pl->lo = pl->hi = pl->ld = pl->st = 0;
    for (int64_t l = 0; l < L; l++) {
        if (l - g->p2 >= 0 && l - g->p2 < W) pl->la |= (uint16_t)(1u << l);
        if (l < OW) pl->lo |= (uint16_t)(1u << l);
        if (l >= OW && l < 2 * OW) pl->hi |= (uint16_t)(1u << l);
        if (l < OW) pl->ld |= (uint16_t)(1u << l);
        if (l < W) pl->st |= (uint16_t)(1u << l);
    }
    for (int64_t c = 0; c < KMAX; c++) {
        pl->km[c] = 0;
        for (int64_t l = 0; l < L; l++) {
            const int64_t j = l < OW ? l : l - OW, col = 2 * j + c - g->p2;
            pl->fidx[c][l] = (int32_t)(l < OW ? 2 * l + c : l < 2 * OW ? L + 2 * j + c : 0);
            if (c < kw && l < 2 * OW && col >= 0 && col < W) pl->km[c] |= (uint16_t)(1u << l);
        }
    }
    pl->nk = (int)((kw + 1) / 2);
    for (int64_t k = 0; k < NKMAX; k++) {
        pl->dm[k] = pl->dpar[k] = 0;
        for (int64_t j = 0; j < L; j++) {
            const int64_t e = j + g->p2 - 2 * k, q = fdiv2(e), c = 2 * k + (e & 1);
            pl->didx[k][j] = (int32_t)(q & (L - 1));
            if (j < W && c < kw && q >= 0 && q < OW) pl->dm[k] |= (uint16_t)(1u << j);
            if ((e & 1) == 0) pl->dpar[k] |= (uint16_t)(1u << j);
        }
    }
    return 1;
}

/* x rows 2 o + r - p1 (A) and that + 2 (B, when the pair has a second row) from column
 * -p2; *kr: the lanes of the rows inside x. */
AI void load_pair(const pdnn_dws2p_plan *pl, const float *x, int64_t o, int r, int two,
                  __m512 *A, __m512 *B, __mmask16 *kr)
{
    const pdnn_dws2_geom *g = &pl->g;
    const int64_t ia = 2 * o + r - g->p1, ib = ia + 2;
    const int va = (uint64_t)ia < (uint64_t)g->H, vb = two && (uint64_t)ib < (uint64_t)g->H;
    *A = _mm512_maskz_loadu_ps(va ? pl->la : 0, at(x, ia * g->xs1 - g->p2));
    *B = _mm512_maskz_loadu_ps(vb ? pl->la : 0, at(x, ib * g->xs1 - g->p2));
    *kr = (__mmask16)((va ? pl->lo : 0) | (vb ? pl->hi : 0));
}

/* Whether the output pair o, o + 1 exists and reads x rows inside x only. */
AI int inner_pair(const pdnn_dws2_geom *g, int kh, int64_t o)
{
    return o + 1 < g->OH && 2 * o - g->p1 >= 0 && 2 * o + 1 + kh - g->p1 < g->H;
}

/* fwd: the output rows o, o + 1 of NP planes (NP <= 2: two independent chains; plane q
 * at x + q xcs, y + q ycs, taps wv[q KH KW] (constant sizes) or w + q wcs); IN: both rows
 * exist and read x rows inside x only. */
AI void fwd_pair(const int KH, const int KW, const int NP, const int IN, const pdnn_dws2p_plan *pl,
                 const __m512i *idx, const __mmask16 *km, const float *x, ptrdiff_t xcs,
                 const __m512 *wv, const float *w, ptrdiff_t wcs, float *y, ptrdiff_t ycs,
                 int64_t o, __m512 va, __m512 vb, float beta)
{
    const pdnn_dws2_geom *g = &pl->g;
    const int kh = KH ? KH : (int)g->kh, kw = KW ? KW : (int)g->kw;
    const int64_t OW = g->OW;
    const ptrdiff_t ys1 = g->ys1, xs1 = g->xs1;
    const int two = IN || o + 1 < g->OH;
    __m512 acc[2] = {_mm512_setzero_ps(), _mm512_setzero_ps()};
#pragma GCC unroll 7
    for (int r = 0; r < kh; r++) {
        __m512 A[2], B[2];
        __mmask16 kr = (__mmask16)(pl->lo | pl->hi);
#pragma GCC unroll 2
        for (int q = 0; q < NP; q++) {
            if (IN) {
                const float *xa = x + q * xcs + (2 * o + r - g->p1) * xs1 - g->p2;
                A[q] = _mm512_maskz_loadu_ps(pl->la, xa);
                B[q] = _mm512_maskz_loadu_ps(pl->la, xa + 2 * xs1);
            } else {
                load_pair(pl, x + q * xcs, o, r, two, &A[q], &B[q], &kr);
            }
        }
#pragma GCC unroll 7
        for (int c = 0; c < kw; c++) {
            const __mmask16 k = IN ? km[c] : (__mmask16)(km[c] & kr);
#pragma GCC unroll 2
            for (int q = 0; q < NP; q++) {
                const __m512 wt = KH && KW ? wv[q * KH * KW + r * kw + c]
                                           : _mm512_set1_ps(w[q * wcs + r * kw + c]);
                acc[q] = _mm512_mask3_fmadd_ps(wt, _mm512_permutex2var_ps(A[q], idx[c], B[q]),
                                               acc[q], k);
            }
        }
    }
#pragma GCC unroll 2
    for (int q = 0; q < NP; q++) {
        float *d = y + q * ycs + o * ys1;
        __m512 e = _mm512_mul_ps(va, acc[q]);
        if (ys1 == OW) {
            const __mmask16 k = (__mmask16)(pl->lo | (two ? pl->hi : 0));
            if (beta != 0) e = _mm512_add_ps(e, _mm512_mul_ps(vb, _mm512_maskz_loadu_ps(k, d)));
            _mm512_mask_storeu_ps(d, k, e);
        } else {
            float *d1 = atw(d, ys1 - OW);
            if (beta != 0) {
                __m512 b = _mm512_maskz_loadu_ps(pl->lo, d);
                if (two) b = _mm512_mask_loadu_ps(b, pl->hi, d1);
                e = _mm512_add_ps(e, _mm512_mul_ps(vb, b));
            }
            _mm512_mask_storeu_ps(d, pl->lo, e);
            if (two) _mm512_mask_storeu_ps(d1, pl->hi, e);
        }
    }
}

/* fwd: NP planes (NP <= 2). */
AI void fwd_planes(const int KH, const int KW, const int NP, const pdnn_dws2p_plan *pl,
                   const __m512i *idx, const float *x, ptrdiff_t xcs, const float *w,
                   ptrdiff_t wcs, float *y, ptrdiff_t ycs, __m512 va, __m512 vb, float beta)
{
    const pdnn_dws2_geom *g = &pl->g;
    __m512 wv[KH && KW ? 2 * KH * KW : 1];
    __mmask16 km[KMAX];
#pragma GCC unroll 7
    for (int c = 0; c < KMAX; c++) km[c] = pl->km[c];
    if (KH && KW) {
#pragma GCC unroll 2
        for (int q = 0; q < NP; q++)
#pragma GCC unroll 9
            for (int t = 0; t < KH * KW; t++) wv[q * KH * KW + t] = _mm512_set1_ps(w[q * wcs + t]);
    }
    const int kh = KH ? KH : (int)g->kh;
    for (int64_t o = 0; o < g->OH; o += 2) {
        if (inner_pair(g, kh, o))
            fwd_pair(KH, KW, NP, 1, pl, idx, km, x, xcs, wv, w, wcs, y, ycs, o, va, vb, beta);
        else
            fwd_pair(KH, KW, NP, 0, pl, idx, km, x, xcs, wv, w, wcs, y, ycs, o, va, vb, beta);
    }
}

AI void load_idx(const pdnn_dws2p_plan *pl, __m512i *idx)
{
    for (int c = 0; c < KMAX; c++) idx[c] = _mm512_loadu_si512(pl->fidx[c]);
}

void pdnn_f32_dws2p_fwd__avx512(const pdnn_dws2p_plan *pl, size_t np, const float *x,
                                ptrdiff_t xcs, const float *w, ptrdiff_t wcs, float *y,
                                ptrdiff_t ycs, float alpha, float beta)
{
    __m512i idx[KMAX];
    load_idx(pl, idx);
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    const int k3 = pl->g.kh == 3 && pl->g.kw == 3;
    for (size_t p = 0; p < np; p += 2) {
        const float *xp = x + (ptrdiff_t)p * xcs, *wp = w + (ptrdiff_t)p * wcs;
        float *yp = y + (ptrdiff_t)p * ycs;
        if (k3 && p + 1 < np)
            fwd_planes(3, 3, 2, pl, idx, xp, xcs, wp, wcs, yp, ycs, va, vb, beta);
        else if (k3)
            fwd_planes(3, 3, 1, pl, idx, xp, xcs, wp, wcs, yp, ycs, va, vb, beta);
        else if (p + 1 < np)
            fwd_planes(0, 0, 2, pl, idx, xp, xcs, wp, wcs, yp, ycs, va, vb, beta);
        else
            fwd_planes(0, 0, 1, pl, idx, xp, xcs, wp, wcs, yp, ycs, va, vb, beta);
    }
}

/* bwdd: dx row i (taps r1 = PAR, PAR + 2, ..., PAR = (i + p1) % 2); wv[r1 nk + k]: tap
 * row r1's column pair k, blended by lane parity. */
AI void bwdd_row(const int KH, const int NK, const int PAR, const pdnn_dws2p_plan *pl,
                 const __m512i *idx, const __m512 *wv, const float *dy, float *dx, int64_t i,
                 __m512 va, __m512 vb, float beta)
{
    const pdnn_dws2_geom *g = &pl->g;
    const int kh = KH ? KH : (int)g->kh, nk = NK ? NK : pl->nk;
    __m512 acc = _mm512_setzero_ps();
#pragma GCC unroll 4
    for (int r = PAR; r < kh; r += 2) {
        const int64_t v = i + g->p1 - r;
        if (v < 0 || v >= 2 * g->OH) continue;
        const __m512 D = _mm512_maskz_loadu_ps(pl->ld, dy + (v / 2) * g->ys1);
#pragma GCC unroll 4
        for (int k = 0; k < nk; k++)
            acc = _mm512_mask3_fmadd_ps(wv[r * nk + k], _mm512_permutexvar_ps(idx[k], D), acc,
                                        pl->dm[k]);
    }
    float *d = dx + i * g->xs1;
    __m512 e = _mm512_mul_ps(va, acc);
    if (beta != 0) e = _mm512_add_ps(e, _mm512_mul_ps(vb, _mm512_maskz_loadu_ps(pl->st, d)));
    _mm512_mask_storeu_ps(d, pl->st, e);
}

AI void bwdd_plane(const int KH, const int NK, const pdnn_dws2p_plan *pl, const __m512i *idx,
                   const float *dy, const float *w, float *dx, __m512 va, __m512 vb,
                   float beta)
{
    const pdnn_dws2_geom *g = &pl->g;
    const int kh = KH ? KH : (int)g->kh, kw = (int)g->kw, nk = NK ? NK : pl->nk;
    __m512 wv[KMAX * NKMAX];
#pragma GCC unroll 6
    for (int r = 0; r < kh; r++)
#pragma GCC unroll 2
        for (int k = 0; k < nk; k++) {
            const float w0 = w[r * kw + 2 * k], w1 = 2 * k + 1 < kw ? w[r * kw + 2 * k + 1] : 0;
            wv[r * nk + k] = _mm512_mask_blend_ps(pl->dpar[k], _mm512_set1_ps(w1), _mm512_set1_ps(w0));
        }
    for (int64_t i = 0; i < g->H; i++) {
        if ((i + g->p1) & 1)
            bwdd_row(KH, NK, 1, pl, idx, wv, dy, dx, i, va, vb, beta);
        else
            bwdd_row(KH, NK, 0, pl, idx, wv, dy, dx, i, va, vb, beta);
    }
}

void pdnn_f32_dws2p_bwdd__avx512(const pdnn_dws2p_plan *pl, size_t np, const float *dy,
                                 ptrdiff_t ycs, const float *w, ptrdiff_t wcs, float *dx,
                                 ptrdiff_t xcs, float alpha, float beta)
{
    __m512i idx[NKMAX];
    for (int k = 0; k < NKMAX; k++) idx[k] = _mm512_loadu_si512(pl->didx[k]);
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    const int k3 = pl->g.kh == 3 && pl->g.kw == 3;
    for (size_t p = 0; p < np; p++) {
        const float *yp = dy + (ptrdiff_t)p * ycs, *wp = w + (ptrdiff_t)p * wcs;
        float *xp = dx + (ptrdiff_t)p * xcs;
        if (k3)
            bwdd_plane(3, 2, pl, idx, yp, wp, xp, va, vb, beta);
        else
            bwdd_plane(0, 0, pl, idx, yp, wp, xp, va, vb, beta);
    }
}

/* The 16 lanes of a summed in the fixed tree of dws2p_ukernels.h. */
AI float tree16(__m512 a)
{
    const __m256 b = _mm256_add_ps(_mm512_castps512_ps256(a), _mm512_extractf32x8_ps(a, 1));
    const __m128 c = _mm_add_ps(_mm256_castps256_ps128(b), _mm256_extractf128_ps(b, 1));
    const __m128 d = _mm_add_ps(c, _mm_movehl_ps(c, c)); /* (c0 + c2, c1 + c3) */
    return _mm_cvtss_f32(_mm_add_ss(d, _mm_shuffle_ps(d, d, 1)));
}

/* bwdf: the output rows o, o + 1 of one plane into the tap sums a (IN: as fwd_pair). */
AI void bwdf_pair(const int KH, const int KW, const int IN, const pdnn_dws2p_plan *pl,
                  const __m512i *idx, const __mmask16 *km, const float *x, const float *dy,
                  int64_t o, __m512 *a)
{
    const pdnn_dws2_geom *g = &pl->g;
    const int kh = KH ? KH : (int)g->kh, kw = KW ? KW : (int)g->kw;
    const int64_t OW = g->OW;
    const ptrdiff_t ys1 = g->ys1, xs1 = g->xs1;
    const int two = IN || o + 1 < g->OH;
    const float *d = dy + o * ys1;
    __m512 D;
    if (ys1 == OW) {
        D = _mm512_maskz_loadu_ps((__mmask16)(pl->lo | (two ? pl->hi : 0)), d);
    } else {
        D = _mm512_maskz_loadu_ps(pl->lo, d);
        D = _mm512_mask_loadu_ps(D, two ? pl->hi : 0, at(d, ys1 - OW));
    }
#pragma GCC unroll 7
    for (int r = 0; r < kh; r++) {
        __m512 A, B;
        __mmask16 kr = (__mmask16)(pl->lo | pl->hi);
        if (IN) {
            const float *xa = x + (2 * o + r - g->p1) * xs1 - g->p2;
            A = _mm512_maskz_loadu_ps(pl->la, xa);
            B = _mm512_maskz_loadu_ps(pl->la, xa + 2 * xs1);
        } else {
            load_pair(pl, x, o, r, two, &A, &B, &kr);
        }
#pragma GCC unroll 7
        for (int c = 0; c < kw; c++)
            a[r * kw + c] = _mm512_mask3_fmadd_ps(_mm512_permutex2var_ps(A, idx[c], B), D,
                                                  a[r * kw + c],
                                                  IN ? km[c] : (__mmask16)(km[c] & kr));
    }
}

AI void bwdf_chan(const int KH, const int KW, const pdnn_dws2p_plan *pl, const __m512i *idx,
                  size_t nimg, const float *x, ptrdiff_t xns, const float *dy, ptrdiff_t yns,
                  float *sum)
{
    const pdnn_dws2_geom *g = &pl->g;
    const int kh = KH ? KH : (int)g->kh, kw = KW ? KW : (int)g->kw;
    __mmask16 km[KMAX];
#pragma GCC unroll 7
    for (int c = 0; c < KMAX; c++) km[c] = pl->km[c];
    __m512 a[KMAX * KMAX];
#pragma GCC unroll 9
    for (int t = 0; t < kh * kw; t++) a[t] = _mm512_setzero_ps();
    for (size_t n = 0; n < nimg; n++) {
        const float *xn = x + (ptrdiff_t)n * xns, *dn = dy + (ptrdiff_t)n * yns;
        for (int64_t o = 0; o < g->OH; o += 2) {
            if (inner_pair(g, kh, o))
                bwdf_pair(KH, KW, 1, pl, idx, km, xn, dn, o, a);
            else
                bwdf_pair(KH, KW, 0, pl, idx, km, xn, dn, o, a);
        }
    }
#pragma GCC unroll 9
    for (int t = 0; t < kh * kw; t++) sum[t] = tree16(a[t]);
}

void pdnn_f32_dws2p_bwdf__avx512(const pdnn_dws2p_plan *pl, size_t nimg, const float *x,
                                 ptrdiff_t xns, const float *dy, ptrdiff_t yns, float *sum)
{
    __m512i idx[KMAX];
    load_idx(pl, idx);
    if (pl->g.kh == 3 && pl->g.kw == 3)
        bwdf_chan(3, 3, pl, idx, nimg, x, xns, dy, yns, sum);
    else
        bwdf_chan(0, 0, pl, idx, nimg, x, xns, dy, yns, sum);
}
