/* Stride-2 3 x 3 depthwise, column phases in registers (dws2r_ukernels.h), AVX-512. */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/ukernels/dwconv/dws2r_ukernels.h"
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

AI __mmask16 below(int64_t n)
{
    return n >= L ? (__mmask16)0xFFFF : n <= 0 ? (__mmask16)0 : (__mmask16)((1u << n) - 1u);
}

/* A unit's constants: the row loads' masks, the phase permutes' indices. */
typedef struct {
    __mmask16 ld[2];
    __m512i ix[3];
} ph_consts;

/* One plane, two vectors an output row (outputs 16 k + l, k < 2): vector k's x columns
 * 32 k - p2 + [0, 32) loaded as two vectors (masks ld[k][h]), its even and odd ones by
 * two permutes (phases r2 - p2 = 0, 1), phase 2 the even ones one lane on (valignd with
 * the next vector's even ones, or for the last with column 64 - p2 alone, mask ldh). */
typedef struct {
    __mmask16 ld[2][2], ldh;
    __m512i ie, io;
} ph2_consts;

AI void ph2_init(const pdnn_dws2f_plan *pl, ph2_consts *k)
{
    const int64_t W = pl->g.W, p2 = pl->g.p2;
    for (int v = 0; v < 2; v++)
        for (int h = 0; h < 2; h++) {
            k->ld[v][h] = 0;
            for (int l = 0; l < L; l++) {
                const int64_t c = 32 * v - p2 + L * h + l;
                if (c >= 0 && c < W) k->ld[v][h] |= (__mmask16)(1u << l);
            }
        }
    k->ldh = (__mmask16)(64 - p2 >= 0 && 64 - p2 < W ? 1 : 0);
    k->ie = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    k->io = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
}

/* The column phases ph[v][r2] of x row ro of plane a (two vectors). */
AI void phases2(const ph2_consts *k, const float *a, ptrdiff_t ro, ptrdiff_t p2, __m512 ph[2][3])
{
#pragma GCC unroll 2
    for (int v = 0; v < 2; v++) {
        const ptrdiff_t c0 = ro + 32 * v - p2;
        const __m512 v0 = _mm512_maskz_loadu_ps(k->ld[v][0], at(a, c0));
        const __m512 v1 = _mm512_maskz_loadu_ps(k->ld[v][1], at(a, c0 + L));
        ph[v][0] = _mm512_permutex2var_ps(v0, k->ie, v1);
        ph[v][1] = _mm512_permutex2var_ps(v0, k->io, v1);
    }
    const __m512i hi = _mm512_castps_si512(_mm512_maskz_loadu_ps(k->ldh, at(a, ro + 64 - p2)));
    ph[0][2] = _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(ph[1][0]),
                                                       _mm512_castps_si512(ph[0][0]), 1));
    ph[1][2] = _mm512_castsi512_ps(_mm512_alignr_epi32(hi, _mm512_castps_si512(ph[1][0]), 1));
}

AI void ph_init(const int NP, const pdnn_dws2f_plan *pl, ph_consts *k)
{
    const int64_t W = pl->g.W, p2 = pl->g.p2;
    k->ld[0] = below(W);
    k->ld[1] = below(W - L);
    for (int r2 = 0; r2 < 3; r2++) {
        _Alignas(64) int32_t ix[L];
        for (int l = 0; l < L; l++) {
            const int64_t j = NP == 2 ? l % 8 : l, h = NP == 2 ? l / 8 : 0;
            int64_t c = 2 * j + r2 - p2; /* outside x: any lane (masked by km) */
            const int64_t cmax = NP == 2 ? L - 1 : 2 * L - 1;
            c = c < 0 ? 0 : c > cmax ? cmax : c;
            ix[l] = (int32_t)(c + L * h);
        }
        k->ix[r2] = _mm512_load_si512(ix);
    }
}

/* The column phases of x row i of the unit (NP 2: planes a, b; NP 1: plane a). */
AI void phases(const int NP, const ph_consts *k, const float *a, const float *b, ptrdiff_t ro,
               __m512 ph[3])
{
    __m512 v0, v1;
    if (NP == 2) {
        v0 = _mm512_maskz_loadu_ps(k->ld[0], at(a, ro));
        v1 = _mm512_maskz_loadu_ps(k->ld[0], at(b, ro));
    } else {
        v0 = _mm512_maskz_loadu_ps(k->ld[0], at(a, ro));
        v1 = _mm512_maskz_loadu_ps(k->ld[1], at(a, ro + L));
    }
#pragma GCC unroll 3
    for (int r2 = 0; r2 < 3; r2++) ph[r2] = _mm512_permutex2var_ps(v0, k->ix[r2], v1);
}

/* Forward of one unit: planes x0 (and x1, NP 2; == x0 past the last plane, st1 0). */
AI void fwd_unit(const int NP, const pdnn_dws2f_plan *pl, const ph_consts *k, const float *x0,
                 const float *x1, const __m512 *wv, float *y0, float *y1, __mmask16 st1,
                 __m512 va, __m512 vb, float beta)
{
    const pdnn_dws2_geom *g = &pl->g;
    const int64_t H = g->H, OH = g->OH, p1 = g->p1;
    const ptrdiff_t xs1 = g->xs1, ys1 = g->ys1;
    const __mmask16 km[3] = {pl->km[0][0], pl->km[0][1], pl->km[0][2]}, st0 = pl->st[0];
    /* phases of x row 2 o - p1 (carried from the previous output row) */
    __m512 pc[3] = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps()};
    int64_t i0 = -p1;
    if (i0 >= 0 && i0 < H) phases(NP, k, x0, x1, (ptrdiff_t)i0 * xs1, pc);
    for (int64_t o = 0; o < OH; o++, i0 += 2) {
        __m512 acc = _mm512_setzero_ps();
        if (i0 >= 0 && i0 < H)
#pragma GCC unroll 3
            for (int r2 = 0; r2 < 3; r2++)
                acc = _mm512_mask3_fmadd_ps(wv[r2], pc[r2], acc, km[r2]);
        if (i0 + 1 >= 0 && i0 + 1 < H) {
            __m512 ph[3];
            phases(NP, k, x0, x1, (ptrdiff_t)(i0 + 1) * xs1, ph);
#pragma GCC unroll 3
            for (int r2 = 0; r2 < 3; r2++)
                acc = _mm512_mask3_fmadd_ps(wv[3 + r2], ph[r2], acc, km[r2]);
        }
        if (i0 + 2 >= 0 && i0 + 2 < H) {
            phases(NP, k, x0, x1, (ptrdiff_t)(i0 + 2) * xs1, pc);
#pragma GCC unroll 3
            for (int r2 = 0; r2 < 3; r2++)
                acc = _mm512_mask3_fmadd_ps(wv[6 + r2], pc[r2], acc, km[r2]);
        }
        __m512 e = _mm512_mul_ps(va, acc);
        float *d0 = y0 + o * ys1, *d1 = NP == 2 ? atw(y1, o * ys1 - 8) : d0;
        if (beta != 0) {
            __m512 u = _mm512_maskz_loadu_ps(st0, d0);
            if (NP == 2) u = _mm512_mask_loadu_ps(u, st1, d1);
            e = _mm512_add_ps(e, _mm512_mul_ps(vb, u));
        }
        _mm512_mask_storeu_ps(d0, st0, e);
        if (NP == 2) _mm512_mask_storeu_ps(d1, st1, e);
    }
}

/* Forward of one plane at two vectors an output row (fwd_unit's chains per vector). */
AI void fwd_unit2(const pdnn_dws2f_plan *pl, const ph2_consts *k, const float *x0,
                  const __m512 *wv, float *y0, __m512 va, __m512 vb, float beta)
{
    const pdnn_dws2_geom *g = &pl->g;
    const int64_t H = g->H, OH = g->OH, p1 = g->p1;
    const ptrdiff_t xs1 = g->xs1, ys1 = g->ys1, p2 = (ptrdiff_t)g->p2;
    __mmask16 km[2][3];
#pragma GCC unroll 2
    for (int v = 0; v < 2; v++)
#pragma GCC unroll 3
        for (int r2 = 0; r2 < 3; r2++) km[v][r2] = pl->km[v][r2];
    const __mmask16 st[2] = {pl->st[0], pl->st[1]};
    __m512 pc[2][3];
#pragma GCC unroll 2
    for (int v = 0; v < 2; v++) pc[v][0] = pc[v][1] = pc[v][2] = _mm512_setzero_ps();
    int64_t i0 = -p1;
    if (i0 >= 0 && i0 < H) phases2(k, x0, (ptrdiff_t)i0 * xs1, p2, pc);
    for (int64_t o = 0; o < OH; o++, i0 += 2) {
        __m512 acc[2] = {_mm512_setzero_ps(), _mm512_setzero_ps()};
        if (i0 >= 0 && i0 < H)
#pragma GCC unroll 2
            for (int v = 0; v < 2; v++)
#pragma GCC unroll 3
                for (int r2 = 0; r2 < 3; r2++)
                    acc[v] = _mm512_mask3_fmadd_ps(wv[r2], pc[v][r2], acc[v], km[v][r2]);
        if (i0 + 1 >= 0 && i0 + 1 < H) {
            __m512 ph[2][3];
            phases2(k, x0, (ptrdiff_t)(i0 + 1) * xs1, p2, ph);
#pragma GCC unroll 2
            for (int v = 0; v < 2; v++)
#pragma GCC unroll 3
                for (int r2 = 0; r2 < 3; r2++)
                    acc[v] = _mm512_mask3_fmadd_ps(wv[3 + r2], ph[v][r2], acc[v], km[v][r2]);
        }
        if (i0 + 2 >= 0 && i0 + 2 < H) {
            phases2(k, x0, (ptrdiff_t)(i0 + 2) * xs1, p2, pc);
#pragma GCC unroll 2
            for (int v = 0; v < 2; v++)
#pragma GCC unroll 3
                for (int r2 = 0; r2 < 3; r2++)
                    acc[v] = _mm512_mask3_fmadd_ps(wv[6 + r2], pc[v][r2], acc[v], km[v][r2]);
        }
#pragma GCC unroll 2
        for (int v = 0; v < 2; v++) {
            __m512 e = _mm512_mul_ps(va, acc[v]);
            float *d = y0 + o * ys1 + L * v;
            if (beta != 0) e = _mm512_add_ps(e, _mm512_mul_ps(vb, _mm512_maskz_loadu_ps(st[v], d)));
            _mm512_mask_storeu_ps(d, st[v], e);
        }
    }
}

AI void fwd_planes2(const pdnn_dws2f_plan *pl, size_t np, const float *x, ptrdiff_t xcs,
                    const float *w, ptrdiff_t wcs, float *y, ptrdiff_t ycs, float alpha,
                    float beta)
{
    ph2_consts k;
    ph2_init(pl, &k);
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    for (size_t p = 0; p < np; p++) {
        const float *w0 = w + (ptrdiff_t)p * wcs;
        __m512 wv[9];
#pragma GCC unroll 9
        for (int t = 0; t < 9; t++) wv[t] = _mm512_set1_ps(w0[t]);
        fwd_unit2(pl, &k, x + (ptrdiff_t)p * xcs, wv, y + (ptrdiff_t)p * ycs, va, vb, beta);
    }
}

AI void fwd_planes(const int NP, const pdnn_dws2f_plan *pl, size_t np, const float *x,
                   ptrdiff_t xcs, const float *w, ptrdiff_t wcs, float *y, ptrdiff_t ycs,
                   float alpha, float beta)
{
    ph_consts k;
    ph_init(NP, pl, &k);
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    for (size_t p = 0; p < np; p += (size_t)NP) {
        const int two = NP == 2 && p + 1 < np;
        const float *w0 = w + (ptrdiff_t)p * wcs;
        __m512 wv[9];
#pragma GCC unroll 9
        for (int t = 0; t < 9; t++) {
            wv[t] = _mm512_set1_ps(w0[t]);
            if (two) wv[t] = _mm512_mask_blend_ps(0xFF00, wv[t], _mm512_set1_ps(w0[wcs + t]));
        }
        const float *x0 = x + (ptrdiff_t)p * xcs;
        float *y0 = y + (ptrdiff_t)p * ycs;
        fwd_unit(NP, pl, &k, x0, two ? x0 + xcs : x0, wv, y0, two ? y0 + ycs : y0,
                 two ? pl->st[1] : 0, va, vb, beta);
    }
}

void pdnn_f32_dws2r_fwd__avx512(const pdnn_dws2f_plan *pl, size_t np, const float *x,
                                ptrdiff_t xcs, const float *w, ptrdiff_t wcs, float *y,
                                ptrdiff_t ycs, float alpha, float beta)
{
    if (pl->np == 2)
        fwd_planes(2, pl, np, x, xcs, w, wcs, y, ycs, alpha, beta);
    else if (pl->nv == 2)
        fwd_planes2(pl, np, x, xcs, w, wcs, y, ycs, alpha, beta);
    else
        fwd_planes(1, pl, np, x, xcs, w, wcs, y, ycs, alpha, beta);
}

/* bwdf of one image of one unit into its 9 tap accumulators a: per output row the dy
 * row (both planes' rows in the halves at NP 2) times the 9 taps' phases. */
AI void bwdf_img(const int NP, const pdnn_dws2f_plan *pl, const ph_consts *k, const float *x0,
                 const float *x1, const float *d0, const float *d1, __mmask16 st1, __m512 *a)
{
    const pdnn_dws2_geom *g = &pl->g;
    const int64_t H = g->H, OH = g->OH, p1 = g->p1;
    const ptrdiff_t xs1 = g->xs1, ys1 = g->ys1;
    const __mmask16 km[3] = {pl->km[0][0], pl->km[0][1], pl->km[0][2]}, st0 = pl->st[0];
    __m512 pc[3] = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps()};
    int64_t i0 = -p1;
    if (i0 >= 0 && i0 < H) phases(NP, k, x0, x1, (ptrdiff_t)i0 * xs1, pc);
    for (int64_t o = 0; o < OH; o++, i0 += 2) {
        __m512 dv = _mm512_maskz_loadu_ps(st0, at(d0, o * ys1));
        if (NP == 2) dv = _mm512_mask_loadu_ps(dv, st1, at(d1, o * ys1 - 8));
        if (i0 >= 0 && i0 < H)
#pragma GCC unroll 3
            for (int r2 = 0; r2 < 3; r2++)
                a[r2] = _mm512_mask3_fmadd_ps(dv, pc[r2], a[r2], km[r2]);
        if (i0 + 1 >= 0 && i0 + 1 < H) {
            __m512 ph[3];
            phases(NP, k, x0, x1, (ptrdiff_t)(i0 + 1) * xs1, ph);
#pragma GCC unroll 3
            for (int r2 = 0; r2 < 3; r2++)
                a[3 + r2] = _mm512_mask3_fmadd_ps(dv, ph[r2], a[3 + r2], km[r2]);
        }
        if (i0 + 2 >= 0 && i0 + 2 < H) {
            phases(NP, k, x0, x1, (ptrdiff_t)(i0 + 2) * xs1, pc);
#pragma GCC unroll 3
            for (int r2 = 0; r2 < 3; r2++)
                a[6 + r2] = _mm512_mask3_fmadd_ps(dv, pc[r2], a[6 + r2], km[r2]);
        }
    }
}

/* bwdf of one image of one plane at two vectors an output row: both vectors' products
 * into the same 9 accumulators (per row, vector 0 then 1). */
AI void bwdf_img2(const pdnn_dws2f_plan *pl, const ph2_consts *k, const float *x0,
                  const float *d0, __m512 *a)
{
    const pdnn_dws2_geom *g = &pl->g;
    const int64_t H = g->H, OH = g->OH, p1 = g->p1;
    const ptrdiff_t xs1 = g->xs1, ys1 = g->ys1, p2 = (ptrdiff_t)g->p2;
    __mmask16 km[2][3];
#pragma GCC unroll 2
    for (int v = 0; v < 2; v++)
#pragma GCC unroll 3
        for (int r2 = 0; r2 < 3; r2++) km[v][r2] = pl->km[v][r2];
    const __mmask16 st[2] = {pl->st[0], pl->st[1]};
    __m512 pc[2][3];
#pragma GCC unroll 2
    for (int v = 0; v < 2; v++) pc[v][0] = pc[v][1] = pc[v][2] = _mm512_setzero_ps();
    int64_t i0 = -p1;
    if (i0 >= 0 && i0 < H) phases2(k, x0, (ptrdiff_t)i0 * xs1, p2, pc);
    for (int64_t o = 0; o < OH; o++, i0 += 2) {
        __m512 dv[2];
#pragma GCC unroll 2
        for (int v = 0; v < 2; v++) dv[v] = _mm512_maskz_loadu_ps(st[v], at(d0, o * ys1 + L * v));
        if (i0 >= 0 && i0 < H)
#pragma GCC unroll 3
            for (int r2 = 0; r2 < 3; r2++)
#pragma GCC unroll 2
                for (int v = 0; v < 2; v++)
                    a[r2] = _mm512_mask3_fmadd_ps(dv[v], pc[v][r2], a[r2], km[v][r2]);
        if (i0 + 1 >= 0 && i0 + 1 < H) {
            __m512 ph[2][3];
            phases2(k, x0, (ptrdiff_t)(i0 + 1) * xs1, p2, ph);
#pragma GCC unroll 3
            for (int r2 = 0; r2 < 3; r2++)
#pragma GCC unroll 2
                for (int v = 0; v < 2; v++)
                    a[3 + r2] = _mm512_mask3_fmadd_ps(dv[v], ph[v][r2], a[3 + r2], km[v][r2]);
        }
        if (i0 + 2 >= 0 && i0 + 2 < H) {
            phases2(k, x0, (ptrdiff_t)(i0 + 2) * xs1, p2, pc);
#pragma GCC unroll 3
            for (int r2 = 0; r2 < 3; r2++)
#pragma GCC unroll 2
                for (int v = 0; v < 2; v++)
                    a[6 + r2] = _mm512_mask3_fmadd_ps(dv[v], pc[v][r2], a[6 + r2], km[v][r2]);
        }
    }
}

/* dws2f's sums of a unit's 9 accumulators (the same trees and lanes). */
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

AI void bwdf_planes(const int NP, const pdnn_dws2f_plan *pl, size_t np, size_t nimg,
                    const float *x, ptrdiff_t xcs, ptrdiff_t xns, const float *dy,
                    ptrdiff_t ycs, ptrdiff_t yns, float *sum)
{
    ph_consts k;
    ph_init(NP, pl, &k);
    for (size_t p = 0; p < np; p += (size_t)NP) {
        const int two = NP == 2 && p + 1 < np;
        __m512 a[9];
#pragma GCC unroll 9
        for (int t = 0; t < 9; t++) a[t] = _mm512_setzero_ps();
        for (size_t n = 0; n < nimg; n++) {
            const float *x0 = at(x, (ptrdiff_t)n * xns + (ptrdiff_t)p * xcs);
            const float *d0 = at(dy, (ptrdiff_t)n * yns + (ptrdiff_t)p * ycs);
            bwdf_img(NP, pl, &k, x0, two ? x0 + xcs : x0, d0, two ? d0 + ycs : d0,
                     two ? pl->st[1] : 0, a);
        }
        float s1[9];
        bwdf_sums(NP, a, sum + 9 * p, two ? sum + 9 * (p + 1) : s1);
    }
}

AI void bwdf_planes2(const pdnn_dws2f_plan *pl, size_t np, size_t nimg, const float *x,
                     ptrdiff_t xcs, ptrdiff_t xns, const float *dy, ptrdiff_t ycs,
                     ptrdiff_t yns, float *sum)
{
    ph2_consts k;
    ph2_init(pl, &k);
    for (size_t p = 0; p < np; p++) {
        __m512 a[9];
#pragma GCC unroll 9
        for (int t = 0; t < 9; t++) a[t] = _mm512_setzero_ps();
        for (size_t n = 0; n < nimg; n++)
            bwdf_img2(pl, &k, at(x, (ptrdiff_t)n * xns + (ptrdiff_t)p * xcs),
                      at(dy, (ptrdiff_t)n * yns + (ptrdiff_t)p * ycs), a);
        bwdf_sums(1, a, sum + 9 * p, NULL);
    }
}

void pdnn_f32_dws2r_bwdf__avx512(const pdnn_dws2f_plan *pl, size_t np, size_t nimg,
                                 const float *x, ptrdiff_t xcs, ptrdiff_t xns, const float *dy,
                                 ptrdiff_t ycs, ptrdiff_t yns, float *sum)
{
    if (pl->np == 2)
        bwdf_planes(2, pl, np, nimg, x, xcs, xns, dy, ycs, yns, sum);
    else if (pl->nv == 2)
        bwdf_planes2(pl, np, nimg, x, xcs, xns, dy, ycs, yns, sum);
    else
        bwdf_planes(1, pl, np, nimg, x, xcs, xns, dy, ycs, yns, sum);
}
