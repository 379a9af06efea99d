/* Stride-2 3 x 3 depthwise forward through phase rows (dws2f_ukernels.h), AVX-512. */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/ukernels/dwconv/dws2f_ukernels.h"
#include "cpu/ukernels/dwconv/dwtree_avx512.h"

#define AI static inline __attribute__((always_inline))
enum { L = 16 };

/* p + o floats as an integer: a masked-off lane's address may lie outside p's buffer. */
AI const float *at(const float *p, ptrdiff_t o)
{
    return (const float *)((uintptr_t)p + (uintptr_t)(o * (ptrdiff_t)sizeof(float)));
}

AI float *atw(float *p, ptrdiff_t o)
{
    return (float *)((uintptr_t)p + (uintptr_t)(o * (ptrdiff_t)sizeof(float)));
}

int pdnn_f32_dws2f_plan__avx512(const pdnn_dws2_geom *g, pdnn_dws2f_plan *pl)
{
    if (g->kh != 3 || g->kw != 3 || g->OW < 1 || g->OW > 15 || g->OH < 1 || g->H < 1 ||
        g->W < 1 || g->p1 < 0 || g->p2 < 0)
        return 0;
    pl->g = *g;
    pl->np = g->OW <= 7 ? 2 : 1;
    pl->nv = 1;
    if ((g->OH + 1) * pl->nv > PDNN_DWS2F_ROWS) return 0;
    pl->eh = g->OH + 1;
    pl->i1 = 2 * pl->eh - g->p1 < g->H ? 2 * pl->eh - g->p1 : g->H;
    pl->ps = (ptrdiff_t)pl->eh * L * pl->nv;
    const int hw = pl->np == 2 ? 8 : L; /* lanes a plane */
    for (int q = 0; q < 4; q++) {
        pl->la[q] = 0;
        for (int l = 0; l < L; l++) {
            const int64_t col = q * L + l - g->p2;
            if (col >= 0 && col < g->W) pl->la[q] |= (uint16_t)(1u << l);
        }
    }
    for (int k = 0; k < 2; k++)
        for (int r2 = 0; r2 < 3; r2++) {
            pl->km[k][r2] = 0;
            for (int l = 0; l < L; l++) {
                const int64_t j = k * L + l % hw, c = 2 * j + r2 - g->p2;
                if (j < g->OW && c >= 0 && c < g->W) pl->km[k][r2] |= (uint16_t)(1u << l);
            }
        }
    pl->st[0] = pl->st[1] = 0;
    for (int l = 0; l < L; l++) {
        if (pl->np == 2) {
            if (l < g->OW) pl->st[0] |= (uint16_t)(1u << l);
            if (l < g->OW) pl->st[1] |= (uint16_t)(1u << (l + 8));
        } else {
            if (l < g->OW) pl->st[0] |= (uint16_t)(1u << l);
            if (L + l < g->OW) pl->st[1] |= (uint16_t)(1u << l);
        }
    }
    return 1;
}

/* Planes x0, x1 (NP 2; x1 == x0 past the last plane) into the phase rows of b: per 32
 * padded columns (NP 2: 16 of each plane) the even and odd columns by two permutes,
 * the even ones from column 2 by a lane shift (element j + 1 of the even row). */
AI void split(const int NP, const int NV, const pdnn_dws2f_plan *pl, const float *x0,
              const float *x1, float *b)
{
    const ptrdiff_t ps = pl->ps, xs1 = pl->g.xs1, p1 = pl->g.p1, p2 = pl->g.p2;
    const int64_t i1 = pl->i1;
    const __m512i ie = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i io = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
    __mmask16 la[4];
#pragma GCC unroll 4
    for (int q = 0; q < 4; q++) la[q] = pl->la[q];
    for (int64_t i = 0; i < i1; i++) {
        const int64_t pr = i + p1;
        float *d = b + (pr & 1) * 3 * ps + (pr >> 1) * L * NV;
        __m512 e[2], od[2];
#pragma GCC unroll 2
        for (int k = 0; k < NV; k++) {
            __m512 v0, v1;
            if (NP == 2) {
                v0 = _mm512_maskz_loadu_ps(la[0], at(x0, i * xs1 - p2));
                v1 = _mm512_maskz_loadu_ps(la[0], at(x1, i * xs1 - p2));
            } else {
                v0 = _mm512_maskz_loadu_ps(la[2 * k], at(x0, i * xs1 - p2 + 2 * k * L));
                v1 = _mm512_maskz_loadu_ps(la[2 * k + 1], at(x0, i * xs1 - p2 + 2 * k * L + L));
            }
            e[k] = _mm512_permutex2var_ps(v0, ie, v1);
            od[k] = _mm512_permutex2var_ps(v0, io, v1);
        }
#pragma GCC unroll 2
        for (int k = 0; k < NV; k++) {
            const __m512i hi = _mm512_castps_si512(k + 1 < NV ? e[k + 1] : e[k]);
            _mm512_store_ps(d + k * L, e[k]);
            _mm512_store_ps(d + ps + k * L, od[k]);
            _mm512_store_ps(d + 2 * ps + k * L,
                            _mm512_castsi512_ps(_mm512_alignr_epi32(hi, _mm512_castps_si512(e[k]), 1)));
        }
    }
}

/* Vector k of output row o from the phase rows of b: taps (r1, r2) in order, tap rows
 * outside x skipped (EDGE: checked), columns by km. */
AI __m512 row(const int EDGE, const int NV, const pdnn_dws2f_plan *pl, const float *b,
              int64_t o, int k, const __m512 *wv, const __mmask16 *km)
{
    const ptrdiff_t ps = pl->ps;
    const int64_t i0 = 2 * o - pl->g.p1;
    __m512 acc = _mm512_setzero_ps();
#pragma GCC unroll 3
    for (int r1 = 0; r1 < 3; r1++) {
        if (EDGE && (i0 + r1 < 0 || i0 + r1 >= pl->g.H)) continue;
        const float *s = b + (r1 & 1) * 3 * ps + (o + (r1 >> 1)) * L * NV + k * L;
#pragma GCC unroll 3
        for (int r2 = 0; r2 < 3; r2++)
            acc = _mm512_mask3_fmadd_ps(wv[3 * r1 + r2], _mm512_load_ps(s + r2 * ps), acc,
                                        km[r2]);
    }
    return acc;
}

/* The outputs of plane(s) y0 (y1: NP 2, st1 its lanes, 0 past the last plane). */
AI void conv(const int NP, const int NV, const pdnn_dws2f_plan *pl, const float *b,
             const __m512 *wv, float *y0, float *y1, __mmask16 st1, __m512 va, __m512 vb,
             float beta)
{
    const pdnn_dws2_geom *g = &pl->g;
    const ptrdiff_t ys1 = g->ys1;
    __mmask16 km[2][3], st[2];
#pragma GCC unroll 2
    for (int k = 0; k < NV; k++) {
        st[k] = NP == 2 ? pl->st[0] : pl->st[k];
#pragma GCC unroll 3
        for (int r2 = 0; r2 < 3; r2++) km[k][r2] = pl->km[k][r2];
    }
    for (int64_t o = 0; o < g->OH; o++) {
        const int64_t i0 = 2 * o - g->p1;
        const int in = i0 >= 0 && i0 + 2 < g->H;
#pragma GCC unroll 2
        for (int k = 0; k < NV; k++) {
            const __m512 acc = in ? row(0, NV, pl, b, o, k, wv, km[k])
                                  : row(1, NV, pl, b, o, k, wv, km[k]);
            __m512 e = _mm512_mul_ps(va, acc);
            float *d0 = y0 + o * ys1 + k * L, *d1 = NP == 2 ? atw(y1, o * ys1 - 8) : d0;
            if (beta != 0) {
                __m512 u = _mm512_maskz_loadu_ps(st[k], d0);
                if (NP == 2) u = _mm512_mask_loadu_ps(u, st1, d1);
                e = _mm512_add_ps(e, _mm512_mul_ps(vb, u));
            }
            _mm512_mask_storeu_ps(d0, st[k], e);
            if (NP == 2) _mm512_mask_storeu_ps(d1, st1, e);
        }
    }
}

AI void planes(const int NP, const int NV, const pdnn_dws2f_plan *pl, size_t np,
               const float *x, ptrdiff_t xcs, const float *w, ptrdiff_t wcs, float *y,
               ptrdiff_t ycs, float alpha, float beta, float *buf)
{
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    const ptrdiff_t bs = 6 * pl->ps; /* floats a buffer; two, alternating */
    const size_t nu = NP == 2 ? (np + 1) / 2 : np; /* vectors' plane units */
    /* unit u + 1 split before unit u's outputs (its rows' stores well before the loads) */
#define S2F_SPLIT(u)                                                                      \
    do {                                                                                  \
        const size_t p_ = (u) * (size_t)NP;                                               \
        const float *x0_ = x + (ptrdiff_t)p_ * xcs;                                       \
        split(NP, NV, pl, x0_, NP == 2 && p_ + 1 < np ? x0_ + xcs : x0_,                  \
              buf + (ptrdiff_t)((u) & 1) * bs);                                           \
    } while (0)
    if (nu) S2F_SPLIT(0);
    for (size_t u = 0; u < nu; u++) {
        if (u + 1 < nu) S2F_SPLIT(u + 1);
        const size_t p = u * (size_t)NP;
        const float *w0 = w + (ptrdiff_t)p * wcs;
        const int two = NP == 2 && p + 1 < np;
        __m512 wv[9];
#pragma GCC unroll 9
        for (int t = 0; t < 9; t++) {
            wv[t] = _mm512_set1_ps(w0[t]);
            if (two) wv[t] = _mm512_mask_blend_ps(0xFF00, wv[t], _mm512_set1_ps(w0[wcs + t]));
        }
        float *y0 = y + (ptrdiff_t)p * ycs;
        conv(NP, NV, pl, buf + (ptrdiff_t)(u & 1) * bs, wv, y0, two ? y0 + ycs : y0,
             two ? pl->st[1] : 0, va, vb, beta);
    }
#undef S2F_SPLIT
}

void pdnn_f32_dws2f_fwd__avx512(const pdnn_dws2f_plan *pl, size_t np, const float *x,
                                ptrdiff_t xcs, const float *w, ptrdiff_t wcs, float *y,
                                ptrdiff_t ycs, float alpha, float beta, float *buf)
{
    if (pl->np == 2)
        planes(2, 1, pl, np, x, xcs, w, wcs, y, ycs, alpha, beta, buf);
    else
        planes(1, 1, pl, np, x, xcs, w, wcs, y, ycs, alpha, beta, buf);
}

/* bwdf of one image of one unit (NP 2: planes q and q + 1, x1 / d1 == x0 / d0 and
 * st1 == 0 past the last plane) into its 9 tap accumulators a: x split, then per output
 * row the dy row (both planes' rows in the vector's halves) times the 9 taps' phase
 * rows. */
AI void bwdf_img(const int NP, const pdnn_dws2f_plan *pl, const float *x0, const float *x1,
                 const float *d0, const float *d1, __mmask16 st1, float *buf, __m512 *a)
{
    const pdnn_dws2_geom *g = &pl->g;
    const ptrdiff_t ps = pl->ps, ys1 = g->ys1;
    const __mmask16 km[3] = {pl->km[0][0], pl->km[0][1], pl->km[0][2]}, st0 = pl->st[0];
    __m512 acc[9];
#pragma GCC unroll 9
    for (int t = 0; t < 9; t++) acc[t] = a[t];
    split(NP, 1, pl, x0, x1, buf);
    for (int64_t o = 0; o < g->OH; o++) {
        __m512 dv = _mm512_maskz_loadu_ps(st0, at(d0, o * ys1));
        if (NP == 2) dv = _mm512_mask_loadu_ps(dv, st1, at(d1, o * ys1 - 8));
        const int64_t i0 = 2 * o - g->p1;
#pragma GCC unroll 3
        for (int r1 = 0; r1 < 3; r1++) {
            if (i0 + r1 < 0 || i0 + r1 >= g->H) continue;
            const float *s = buf + (r1 & 1) * 3 * ps + (o + (r1 >> 1)) * L;
#pragma GCC unroll 3
            for (int r2 = 0; r2 < 3; r2++)
                acc[3 * r1 + r2] = _mm512_mask3_fmadd_ps(dv, _mm512_load_ps(s + r2 * ps),
                                                         acc[3 * r1 + r2], km[r2]);
        }
    }
#pragma GCC unroll 9
    for (int t = 0; t < 9; t++) a[t] = acc[t];
}

/* A unit's 9 accumulators summed by the trees of dwtree_avx512.h into s0[t] (NP 2: the
 * halves, plane q + 1's into s1[t]). */
AI void bwdf_sums(const int NP, const __m512 *acc, float *s0, float *s1)
{
    float r[32];
    if (NP == 2) { /* V[2 i + h] = half h of acc[i], at lane 4 (V % 4) + V / 4 */
        const __m512 z = _mm512_setzero_ps(), u8[8] = {acc[8], z, z, z, z, z, z, z};
        _mm512_storeu_ps(r, tree8x16(acc));
        _mm512_storeu_ps(r + L, tree8x16(u8));
#pragma GCC unroll 8
        for (int t = 0; t < 8; t++) {
            s0[t] = r[4 * ((2 * t) % 4) + (2 * t) / 4];
            s1[t] = r[4 * ((2 * t + 1) % 4) + (2 * t + 1) / 4];
        }
        s0[8] = r[L];
        s1[8] = r[L + 4];
    } else { /* tap t at lane 4 (t % 4) + t / 4 */
        const __m512 z = _mm512_setzero_ps();
        const __m512 v[16] = {acc[0], acc[1], acc[2], acc[3], acc[4], acc[5], acc[6], acc[7],
                              acc[8], z, z, z, z, z, z, z};
        _mm512_storeu_ps(r, tree16x16(v));
#pragma GCC unroll 9
        for (int t = 0; t < 9; t++) s0[t] = r[4 * (t % 4) + t / 4];
    }
}

/* Units outer, images inner (each unit's accumulators in registers over the images). */
AI void bwdf_planes(const int NP, const pdnn_dws2f_plan *pl, size_t np, size_t nimg,
                    const float *x, ptrdiff_t xcs, ptrdiff_t xns, const float *dy,
                    ptrdiff_t ycs, ptrdiff_t yns, float *buf, float *sum)
{
    for (size_t p = 0; p < np; p += (size_t)NP) {
        const int two = NP == 2 && p + 1 < np;
        __m512 a[9];
#pragma GCC unroll 9
        for (int t = 0; t < 9; t++) a[t] = _mm512_setzero_ps();
        for (size_t n = 0; n < nimg; n++) {
            const float *x0 = at(x, (ptrdiff_t)n * xns + (ptrdiff_t)p * xcs);
            const float *d0 = at(dy, (ptrdiff_t)n * yns + (ptrdiff_t)p * ycs);
            bwdf_img(NP, pl, x0, two ? x0 + xcs : x0, d0, two ? d0 + ycs : d0,
                     two ? pl->st[1] : 0, buf, a);
        }
        float s1[9];
        bwdf_sums(NP, a, sum + 9 * p, two ? sum + 9 * (p + 1) : s1);
    }
}

void pdnn_f32_dws2f_bwdf__avx512(const pdnn_dws2f_plan *pl, size_t np, size_t nimg,
                                 const float *x, ptrdiff_t xcs, ptrdiff_t xns, const float *dy,
                                 ptrdiff_t ycs, ptrdiff_t yns, float *buf, float *sum)
{
    if (pl->np == 2)
        bwdf_planes(2, pl, np, nimg, x, xcs, xns, dy, ycs, yns, buf, sum);
    else
        bwdf_planes(1, pl, np, nimg, x, xcs, xns, dy, ycs, yns, buf, sum);
}
