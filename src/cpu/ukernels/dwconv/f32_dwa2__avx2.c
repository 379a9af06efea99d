/* AVX2 3 x 3 depthwise plane micro-kernels (dwa2_ukernels.h). Vectors of 8 outputs along
 * a row; a vector whose source (or destination) columns reach past the plane's edges uses
 * masked loads (zeros outside, never read) and a partial store; the others plain unaligned
 * loads. Source rows outside the plane are skipped (their taps add nothing). */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "cpu/ukernels/dwconv/dwa2_ukernels.h"

#define AI static inline __attribute__((always_inline))

/* p + o floats, as an integer: a masked load's address may lie before or past p's buffer,
 * where C pointer arithmetic is not defined (masked-off lanes are never touched). */
AI const float *at(const float *p, ptrdiff_t o)
{
    return (const float *)((uintptr_t)p + (uintptr_t)(o * (ptrdiff_t)sizeof(float)));
}

/* Lanes l with 0 <= a + l < n (all ones or zero a lane). */
AI __m256i lanes_in(ptrdiff_t a, ptrdiff_t n)
{
    const __m256i i = _mm256_add_epi32(_mm256_set1_epi32((int)a),
                                       _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    return _mm256_and_si256(_mm256_cmpgt_epi32(i, _mm256_set1_epi32(-1)),
                            _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), i));
}

/* Vector kinds along a row: the first (only its left source columns reach outside),
 * interior ones, and the last ones (any source column may lie outside, the store is
 * partial when the vector passes the row's end). */
enum { LEFT, MID, TAIL };

/* The 8 floats at columns a .. a + 7 of a row of n columns (zero outside; MASK: masked). */
AI __m256 ld(const bool MASK, const float *row, ptrdiff_t a, ptrdiff_t n)
{
    if (MASK) return _mm256_maskload_ps(at(row, a), lanes_in(a, n));
    return _mm256_loadu_ps(row + a);
}

/* The first n (0 < n < 8) lanes of v at p, by 4-, 2- and 1-lane stores (a masked store
 * costs many more micro-ops). */
AI void st_part(float *p, ptrdiff_t n, __m256 v)
{
    __m128 h = _mm256_castps256_ps128(v);
    if (n & 4) {
        _mm_storeu_ps(p, h);
        h = _mm256_extractf128_ps(v, 1);
        p += 4;
    }
    if (n & 2) {
        _mm_storel_pi((__m64 *)(void *)p, h);
        h = _mm_movehl_ps(h, h);
        p += 2;
    }
    if (n & 1) _mm_store_ss(p, h);
}

/* The same with the mask k of ld's lanes_in(a, n) computed by the caller (MASK). */
AI __m256 ldk(const bool MASK, const float *row, ptrdiff_t a, __m256i k)
{
    if (MASK) return _mm256_maskload_ps(at(row, a), k);
    return _mm256_loadu_ps(row + a);
}

/* Columns a .. a + 7 of a row of n columns = alpha v (+ beta * old, when !BZ); for TAIL
 * only those inside (a partial store where the vector passes the end). */
AI void st(const int KIND, const bool BZ, float *row, ptrdiff_t a, ptrdiff_t n, __m256 v,
           __m256 va, __m256 vb)
{
    if (KIND == TAIL && a >= n) return;
    v = _mm256_mul_ps(va, v);
    if (KIND == TAIL && a + 8 > n) {
        const __m256i k = lanes_in(a, n);
        float *p = (float *)at(row, a);
        if (!BZ) v = _mm256_add_ps(v, _mm256_mul_ps(vb, _mm256_maskload_ps(p, k)));
        st_part(row + a, n - a, v);
        return;
    }
    if (!BZ) v = _mm256_add_ps(v, _mm256_mul_ps(vb, _mm256_loadu_ps(row + a)));
    _mm256_storeu_ps(row + a, v);
}

/* ---- stride 1 */

/* R output rows (y rows yr[0 .. R)), source rows xr[0 .. R + 2) (row q feeds output
 * rows q - 2 .. q; rows outside [qlo, qhi) are padding; FULL: none), the 8 columns from
 * j0 (LEFT: j0 == 0 and W >= 9; MID: 1 <= j0, j0 + 9 <= W). */
AI void s1_blk(const int R, const int KIND, const bool FULL, const bool BZ,
               const float *const *xr, int qlo, int qhi, const __m256 *wv, float *const *yr,
               ptrdiff_t j0, ptrdiff_t W, __m256 va, __m256 vb)
{
    __m256 acc[8];
    __m256i mk[3]; /* the column masks, once for the rows */
#pragma GCC unroll 3
    for (int c = 0; c < 3; c++)
        mk[c] = KIND == TAIL || (KIND == LEFT && c == 0) ? lanes_in(j0 + c - 1, W)
                                                         : _mm256_setzero_si256();
#pragma GCC unroll 8
    for (int o = 0; o < R; o++) acc[o] = _mm256_setzero_ps();
#pragma GCC unroll 10
    for (int q = 0; q < R + 2; q++) {
        if (!FULL && (q < qlo || q >= qhi)) continue;
#pragma GCC unroll 3
        for (int c = 0; c < 3; c++) {
            const __m256 v = ldk(KIND == TAIL || (KIND == LEFT && c == 0), xr[q], j0 + c - 1, mk[c]);
#pragma GCC unroll 8
            for (int o = 0; o < R; o++) {
                const int r = q - o;
                if (r >= 0 && r < 3) acc[o] = _mm256_fmadd_ps(wv[3 * r + c], v, acc[o]);
            }
        }
    }
#pragma GCC unroll 8
    for (int o = 0; o < R; o++) st(KIND, BZ, yr[o], j0, W, acc[o], va, vb);
}

AI void s1_rows(const int R, const bool FULL, const bool BZ, const float *const *xr, int qlo,
                int qhi, const __m256 *wv, float *const *yr, ptrdiff_t W, __m256 va, __m256 vb)
{
    ptrdiff_t j0 = 0;
    if (W >= 9) {
        s1_blk(R, LEFT, FULL, BZ, xr, qlo, qhi, wv, yr, 0, W, va, vb);
        for (j0 = 8; j0 + 9 <= W; j0 += 8)
            s1_blk(R, MID, FULL, BZ, xr, qlo, qhi, wv, yr, j0, W, va, vb);
    }
    for (; j0 < W; j0 += 8) s1_blk(R, TAIL, FULL, BZ, xr, qlo, qhi, wv, yr, j0, W, va, vb);
}

AI void s1_plane(const bool BZ, ptrdiff_t h, ptrdiff_t w, const float *x, ptrdiff_t xrs,
                 const __m256 *wv, float *y, ptrdiff_t yrs, __m256 va, __m256 vb)
{
    for (ptrdiff_t i0 = 0; i0 < h; i0 += 4) {
        const int R = h - i0 < 4 ? (int)(h - i0) : 4;
        const float *xr[6];
        float *yr[4];
        int qlo = 6, qhi = 0;
        for (int q = 0; q < R + 2; q++) {
            const ptrdiff_t i = i0 + q - 1;
            const bool in = i >= 0 && i < h;
            xr[q] = in ? x + i * xrs : x;
            if (in && q < qlo) qlo = q;
            if (in) qhi = q + 1;
        }
        for (int o = 0; o < R; o++) yr[o] = y + (i0 + o) * yrs;
        if (R == 4 && qlo == 0 && qhi == 6) {
            s1_rows(4, true, BZ, xr, 0, 6, wv, yr, w, va, vb);
            continue;
        }
        switch (R) {
        case 4: s1_rows(4, false, BZ, xr, qlo, qhi, wv, yr, w, va, vb); break;
        case 3: s1_rows(3, false, BZ, xr, qlo, qhi, wv, yr, w, va, vb); break;
        case 2: s1_rows(2, false, BZ, xr, qlo, qhi, wv, yr, w, va, vb); break;
        default: s1_rows(1, false, BZ, xr, qlo, qhi, wv, yr, w, va, vb); break;
        }
    }
}

/* Rows of at most 8 columns (one vector): groups of up to 8 output rows, more
 * independent sums in flight on small planes. */
AI void s1_narrow(const bool BZ, ptrdiff_t h, ptrdiff_t w, const float *x, ptrdiff_t xrs,
                  const __m256 *wv, float *y, ptrdiff_t yrs, __m256 va, __m256 vb)
{
    for (ptrdiff_t i0 = 0; i0 < h; i0 += 8) {
        const int R = h - i0 < 8 ? (int)(h - i0) : 8;
        const float *xr[10];
        float *yr[8];
        int qlo = 10, qhi = 0;
        for (int q = 0; q < R + 2; q++) {
            const ptrdiff_t i = i0 + q - 1;
            const bool in = i >= 0 && i < h;
            xr[q] = in ? x + i * xrs : x;
            if (in && q < qlo) qlo = q;
            if (in) qhi = q + 1;
        }
        for (int o = 0; o < R; o++) yr[o] = y + (i0 + o) * yrs;
        switch (R) {
        case 8: s1_blk(8, TAIL, false, BZ, xr, qlo, qhi, wv, yr, 0, w, va, vb); break;
        case 7: s1_blk(7, TAIL, false, BZ, xr, qlo, qhi, wv, yr, 0, w, va, vb); break;
        case 6: s1_blk(6, TAIL, false, BZ, xr, qlo, qhi, wv, yr, 0, w, va, vb); break;
        case 5: s1_blk(5, TAIL, false, BZ, xr, qlo, qhi, wv, yr, 0, w, va, vb); break;
        case 4: s1_blk(4, TAIL, false, BZ, xr, qlo, qhi, wv, yr, 0, w, va, vb); break;
        case 3: s1_blk(3, TAIL, false, BZ, xr, qlo, qhi, wv, yr, 0, w, va, vb); break;
        case 2: s1_blk(2, TAIL, false, BZ, xr, qlo, qhi, wv, yr, 0, w, va, vb); break;
        default: s1_blk(1, TAIL, false, BZ, xr, qlo, qhi, wv, yr, 0, w, va, vb); break;
        }
    }
}

void pdnn_f32_dwa2_s1__avx2(size_t H, size_t W, const float *x, ptrdiff_t xrs,
                            const float *w9, float *y, ptrdiff_t yrs, float alpha, float beta)
{
    __m256 wv[9];
    for (int t = 0; t < 9; t++) wv[t] = _mm256_set1_ps(w9[t]);
    const __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
    if (W <= 8 && beta == 0)
        s1_narrow(true, (ptrdiff_t)H, (ptrdiff_t)W, x, xrs, wv, y, yrs, va, vb);
    else if (W <= 8)
        s1_narrow(false, (ptrdiff_t)H, (ptrdiff_t)W, x, xrs, wv, y, yrs, va, vb);
    else if (beta == 0)
        s1_plane(true, (ptrdiff_t)H, (ptrdiff_t)W, x, xrs, wv, y, yrs, va, vb);
    else
        s1_plane(false, (ptrdiff_t)H, (ptrdiff_t)W, x, xrs, wv, y, yrs, va, vb);
}

/* ---- stride 2 forward */

/* Lane order of the even / odd split below: lane l holds output column perm(l) =
 * 0 1 4 5 2 3 6 7 of the vector; put back by swapping the middle 64-bit pairs. */
AI __m256 unperm(__m256 v)
{
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(v), 0xD8));
}

/* R output rows (R <= 2) from source rows xr[0 .. 2 R + 1) (row q feeds output rows with
 * q - 2 o in [0, 3); rows outside [qlo, qhi) padding; FULL: none), the 8 output columns
 * from q0 (source columns 2 q0 - 1 .. 2 q0 + 16; LEFT: q0 == 0, only the first source
 * column outside; MID: all inside and 8 outputs). */
AI void s2_blk(const int R, const int KIND, const bool FULL, const bool BZ,
               const float *const *xr, int qlo, int qhi, const __m256 *wv, float *const *yr,
               ptrdiff_t q0, ptrdiff_t W, ptrdiff_t OW, __m256 va, __m256 vb)
{
    __m256 acc[2];
#pragma GCC unroll 2
    for (int o = 0; o < R; o++) acc[o] = _mm256_setzero_ps();
    const ptrdiff_t a = 2 * q0 - 1;
    const bool M = KIND == TAIL;
    const __m256i z = _mm256_setzero_si256();
    const __m256i k0 = M || KIND == LEFT ? lanes_in(a, W) : z, k1 = M ? lanes_in(a + 8, W) : z;
    const __m256i k2 = M ? lanes_in(a + 2, W) : z, k3 = M ? lanes_in(a + 10, W) : z;
#pragma GCC unroll 5
    for (int q = 0; q < 2 * R + 1; q++) {
        if (!FULL && (q < qlo || q >= qhi)) continue;
        const __m256 a0 = ldk(M || KIND == LEFT, xr[q], a, k0), a1 = ldk(M, xr[q], a + 8, k1);
        const __m256 b0 = ldk(M, xr[q], a + 2, k2), b1 = ldk(M, xr[q], a + 10, k3);
        __m256 t[3];
        t[0] = _mm256_shuffle_ps(a0, a1, 0x88); /* columns a + 2 l (lane order perm) */
        t[1] = _mm256_shuffle_ps(a0, a1, 0xDD); /* a + 1 + 2 l */
        t[2] = _mm256_shuffle_ps(b0, b1, 0x88); /* a + 2 + 2 l */
#pragma GCC unroll 3
        for (int c = 0; c < 3; c++)
#pragma GCC unroll 2
            for (int o = 0; o < R; o++) {
                const int r = q - 2 * o;
                if (r >= 0 && r < 3) acc[o] = _mm256_fmadd_ps(wv[3 * r + c], t[c], acc[o]);
            }
    }
#pragma GCC unroll 2
    for (int o = 0; o < R; o++) st(KIND, BZ, yr[o], q0, OW, unperm(acc[o]), va, vb);
}

AI void s2_rows(const int R, const bool FULL, const bool BZ, const float *const *xr, int qlo,
                int qhi, const __m256 *wv, float *const *yr, ptrdiff_t W, ptrdiff_t OW,
                __m256 va, __m256 vb)
{
    ptrdiff_t q0 = 0;
    if (W >= 17 && OW >= 8) {
        s2_blk(R, LEFT, FULL, BZ, xr, qlo, qhi, wv, yr, 0, W, OW, va, vb);
        for (q0 = 8; 2 * q0 + 17 <= W && q0 + 8 <= OW; q0 += 8)
            s2_blk(R, MID, FULL, BZ, xr, qlo, qhi, wv, yr, q0, W, OW, va, vb);
    }
    for (; q0 < OW; q0 += 8) s2_blk(R, TAIL, FULL, BZ, xr, qlo, qhi, wv, yr, q0, W, OW, va, vb);
}

AI void s2_plane(const bool BZ, ptrdiff_t h, ptrdiff_t w, const float *x, ptrdiff_t xrs,
                 const __m256 *wv, ptrdiff_t oh, ptrdiff_t ow, float *y, ptrdiff_t yrs,
                 __m256 va, __m256 vb)
{
    for (ptrdiff_t o0 = 0; o0 < oh; o0 += 2) {
        const int R = oh - o0 < 2 ? 1 : 2;
        const float *xr[5];
        float *yr[2];
        int qlo = 5, qhi = 0;
        for (int q = 0; q < 2 * R + 1; q++) {
            const ptrdiff_t i = 2 * o0 - 1 + q;
            const bool in = i >= 0 && i < h;
            xr[q] = in ? x + i * xrs : x;
            if (in && q < qlo) qlo = q;
            if (in) qhi = q + 1;
        }
        for (int o = 0; o < R; o++) yr[o] = y + (o0 + o) * yrs;
        if (R == 2 && qlo == 0 && qhi == 5)
            s2_rows(2, true, BZ, xr, 0, 5, wv, yr, w, ow, va, vb);
        else if (R == 2)
            s2_rows(2, false, BZ, xr, qlo, qhi, wv, yr, w, ow, va, vb);
        else
            s2_rows(1, false, BZ, xr, qlo, qhi, wv, yr, w, ow, va, vb);
    }
}

void pdnn_f32_dws2a2_fwd__avx2(size_t H, size_t W, const float *x, ptrdiff_t xrs,
                               const float *w9, size_t OH, size_t OW, float *y, ptrdiff_t yrs,
                               float alpha, float beta)
{
    __m256 wv[9];
    for (int t = 0; t < 9; t++) wv[t] = _mm256_set1_ps(w9[t]);
    const __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
    if (beta == 0)
        s2_plane(true, (ptrdiff_t)H, (ptrdiff_t)W, x, xrs, wv, (ptrdiff_t)OH, (ptrdiff_t)OW, y,
                 yrs, va, vb);
    else
        s2_plane(false, (ptrdiff_t)H, (ptrdiff_t)W, x, xrs, wv, (ptrdiff_t)OH, (ptrdiff_t)OW, y,
                 yrs, va, vb);
}

/* ---- stride 2 backward data */

/* dx rows 2 o (e) and 2 o + 1 (d, when ODD) from dy rows o (y0) and o + 1 (y1, when Y1),
 * the 8 dy columns from m0 (dx columns 2 m0 .. 2 m0 + 15; MID: dy columns m0 .. m0 + 8
 * and those dx columns inside). */
AI void s2t_blk(const int KIND, const bool BZ, const bool ODD, const bool Y1, const float *y0,
                const float *y1, const __m256 *wv, float *e, float *d, ptrdiff_t m0,
                ptrdiff_t OW, ptrdiff_t W, __m256 va, __m256 vb)
{
    const bool M = KIND == TAIL;
    const __m256 z = _mm256_setzero_ps();
    const __m256 p0 = ld(M, y0, m0, OW), p1 = ld(M, y0, m0 + 1, OW);
    /* even dx row: tap row 1; even columns tap (1, 1), odd (1, 0) then (1, 2) */
    const __m256 ee = _mm256_fmadd_ps(wv[4], p0, z);
    const __m256 eo = _mm256_fmadd_ps(wv[5], p0, _mm256_fmadd_ps(wv[3], p1, z));
    __m256 lo = _mm256_unpacklo_ps(ee, eo), hi = _mm256_unpackhi_ps(ee, eo);
    st(KIND, BZ, e, 2 * m0, W, _mm256_permute2f128_ps(lo, hi, 0x20), va, vb);
    st(KIND, BZ, e, 2 * m0 + 8, W, _mm256_permute2f128_ps(lo, hi, 0x31), va, vb);
    if (!ODD) return;
    /* odd dx row: tap row 0 from dy row o + 1, then tap row 2 from row o */
    __m256 oe = z, oo = z;
    if (Y1) {
        const __m256 n0 = ld(M, y1, m0, OW), n1 = ld(M, y1, m0 + 1, OW);
        oe = _mm256_fmadd_ps(wv[1], n0, oe);
        oo = _mm256_fmadd_ps(wv[0], n1, oo);
        oo = _mm256_fmadd_ps(wv[2], n0, oo);
    }
    oe = _mm256_fmadd_ps(wv[7], p0, oe);
    oo = _mm256_fmadd_ps(wv[6], p1, oo);
    oo = _mm256_fmadd_ps(wv[8], p0, oo);
    lo = _mm256_unpacklo_ps(oe, oo);
    hi = _mm256_unpackhi_ps(oe, oo);
    st(KIND, BZ, d, 2 * m0, W, _mm256_permute2f128_ps(lo, hi, 0x20), va, vb);
    st(KIND, BZ, d, 2 * m0 + 8, W, _mm256_permute2f128_ps(lo, hi, 0x31), va, vb);
}

AI void s2t_row(const bool BZ, const bool ODD, const bool Y1, const float *y0, const float *y1,
                const __m256 *wv, float *e, float *d, ptrdiff_t OW, ptrdiff_t W, __m256 va,
                __m256 vb)
{
    ptrdiff_t m0 = 0;
    for (; m0 + 9 <= OW && 2 * m0 + 16 <= W; m0 += 8)
        s2t_blk(MID, BZ, ODD, Y1, y0, y1, wv, e, d, m0, OW, W, va, vb);
    for (; m0 < OW; m0 += 8) s2t_blk(TAIL, BZ, ODD, Y1, y0, y1, wv, e, d, m0, OW, W, va, vb);
}

AI void s2t_plane(const bool BZ, ptrdiff_t oh, ptrdiff_t ow, const float *dy, ptrdiff_t dyrs,
                  const __m256 *wv, ptrdiff_t h, ptrdiff_t w, float *dx, ptrdiff_t dxrs,
                  __m256 va, __m256 vb)
{
    for (ptrdiff_t o = 0; o < oh; o++) {
        const float *y0 = dy + o * dyrs, *y1 = o + 1 < oh ? y0 + dyrs : y0;
        float *e = dx + 2 * o * dxrs, *d = e + dxrs;
        if (2 * o + 1 >= h)
            s2t_row(BZ, false, false, y0, y1, wv, e, d, ow, w, va, vb);
        else if (o + 1 < oh)
            s2t_row(BZ, true, true, y0, y1, wv, e, d, ow, w, va, vb);
        else
            s2t_row(BZ, true, false, y0, y1, wv, e, d, ow, w, va, vb);
    }
}

void pdnn_f32_dws2a2_bwdd__avx2(size_t OH, size_t OW, const float *dy, ptrdiff_t dyrs,
                                const float *w9, size_t H, size_t W, float *dx, ptrdiff_t dxrs,
                                float alpha, float beta)
{
    __m256 wv[9];
    for (int t = 0; t < 9; t++) wv[t] = _mm256_set1_ps(w9[t]);
    const __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
    if (beta == 0)
        s2t_plane(true, (ptrdiff_t)OH, (ptrdiff_t)OW, dy, dyrs, wv, (ptrdiff_t)H, (ptrdiff_t)W,
                  dx, dxrs, va, vb);
    else
        s2t_plane(false, (ptrdiff_t)OH, (ptrdiff_t)OW, dy, dyrs, wv, (ptrdiff_t)H, (ptrdiff_t)W,
                  dx, dxrs, va, vb);
}
