/* Row-vector 3 x 3 depthwise micro-kernels (dwrow_ukernels.h), AVX-512. conv: a source
 * row's three column-shifted vectors (per 16 columns: one load, two valignd; three
 * shifted loads, each a cache-line split, measured 6% slower on 14x14 planes forward,
 * 13% backward filter at minibatch 1) made once and added into the
 * three output rows they reach (rows i + 1, i, i - 1 through tap rows 0, 1, 2), three
 * rolling accumulators a row; two planes at a time for one-vector rows (rows of up to 8:
 * the two planes in one vector, conv_dual); rows past 32 columns in strips of up to 4
 * vectors (conv_strip, the strip's neighbour vectors loaded for its edge shifts). bwdf: the nine
 * tap sums of one or two planes in registers over the images and rows, the dy rows
 * y + 1, y, y - 1 of source row y kept rolling; the planes' tap vectors then summed 16
 * at a time in one transposing tree (tree16x16: the same tree as one at a time, ~3
 * shuffles and adds a sum instead of 8), put in order by one permute (two-plane vectors:
 * a pair's taps 0-7 in one tree, the tap-8 vectors of 8 pairs in another; against
 * scattering every sum by its index, 7x7 x 960 minibatch 1 23.0 -> 17.7 us, one thread,
 * Intel Xeon 6/207). The column masks (per vector and column tap)
 * are computed once a plane and stay in mask registers. */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/ukernels/dwconv/dwrow_ukernels.h"
#include "cpu/ukernels/dwconv/dwtree_avx512.h"

#define AI static inline __attribute__((always_inline))
enum { L = 16 };

/* p + o floats, as an integer: a masked-off lane's address may lie outside p's buffer
 * (the load never touches it). */
AI const float *at(const float *p, ptrdiff_t o)
{
    return (const float *)((uintptr_t)p + (uintptr_t)(o * (ptrdiff_t)sizeof(float)));
}

/* Lanes l < n, n may be <= 0 or above 16. */
AI __mmask16 below(ptrdiff_t n)
{
    return n >= L ? (__mmask16)0xFFFF : n <= 0 ? (__mmask16)0 : (__mmask16)((1u << n) - 1u);
}

/* The masks of vector u of a row of W: *kv (columns 16 u + l < W) and kc[c] (also 0 <=
 * 16 u + l + c - 1 < W). */
AI void vec_masks(size_t W, size_t u, __mmask16 *kv, __mmask16 kc[3])
{
    const ptrdiff_t n = (ptrdiff_t)W - 16 * (ptrdiff_t)u;
    *kv = below(n);
    kc[0] = (__mmask16)(u == 0 ? *kv & 0xFFFE : *kv);
    kc[1] = *kv;
    kc[2] = below(n - 1);
}

/* The masks of a row's first two vectors (vec_masks). */
AI void row_masks(size_t W, __mmask16 kv[2], __mmask16 kc[2][3])
{
    for (int u = 0; u < 2; u++) vec_masks(W, (size_t)u, &kv[u], kc[u]);
}

/* d (lanes k) = alpha a (+ beta d); MODE 0: alpha 1, beta 0 (a stored as it is); MODE 3
 * and 4: MODE 0 and 1 with whole aligned vectors stored non-temporally. */
AI void store_out(const int MODE, float *d, __m512 a, __mmask16 k, __m512 va, __m512 vb)
{
    const __m512 e = MODE == 0 || MODE == 3 ? a
                     : MODE == 2 ? _mm512_add_ps(_mm512_mul_ps(va, a),
                                                 _mm512_mul_ps(vb, _mm512_maskz_loadu_ps(k, d)))
                                 : _mm512_mul_ps(va, a);
    if (MODE >= 3 && k == 0xFFFF && ((uintptr_t)d & 63) == 0)
        _mm512_stream_ps(d, e);
    else
        _mm512_mask_storeu_ps(d, k, e);
}

/* A row's NV vectors (lanes past W zero) and their column shifts: xs[u][c] lane l =
 * column 16 u + l + c - 1 of the row (zero outside it): one load a vector and two lane
 * shifts (valignd) instead of three unaligned loads. */
AI void row_shifts(const int NV, const float *r, const __mmask16 kv[2], __m512 xs[2][3])
{
    const __m512i z = _mm512_setzero_si512();
    __m512i v[2];
#pragma GCC unroll 2
    for (int u = 0; u < NV; u++)
        v[u] = _mm512_castps_si512(_mm512_maskz_loadu_ps(kv[u], r + 16 * u));
#pragma GCC unroll 2
    for (int u = 0; u < NV; u++) {
        const __m512i lo = u > 0 ? v[u - 1] : z, hi = u + 1 < NV ? v[u + 1] : z;
        xs[u][0] = _mm512_castsi512_ps(_mm512_alignr_epi32(v[u], lo, 15));
        xs[u][1] = _mm512_castsi512_ps(v[u]);
        xs[u][2] = _mm512_castsi512_ps(_mm512_alignr_epi32(hi, v[u], 1));
    }
}

/* NP planes (<= 2, s[p], w[p], d[p]) of NV vectors a row (<= 2). */
AI void conv_planes(const int NP, const int NV, const int MODE, const float *const *s,
                    const float *const *w, float *const *d, size_t H, size_t W, __m512 va,
                    __m512 vb)
{
    __mmask16 kv[2], kc[2][3];
    row_masks(W, kv, kc);
    __m512 wv[2][9];
#pragma GCC unroll 2
    for (int p = 0; p < NP; p++)
#pragma GCC unroll 9
        for (int t = 0; t < 9; t++) wv[p][t] = _mm512_set1_ps(w[p][t]);
    /* a0: output row y - 1 (tap row 2 left), a1: row y (tap rows 1, 2), a2: row y + 1 */
    __m512 a0[2][2], a1[2][2], a2[2][2];
#pragma GCC unroll 2
    for (int p = 0; p < NP; p++)
#pragma GCC unroll 2
        for (int u = 0; u < NV; u++) a1[p][u] = a2[p][u] = _mm512_setzero_ps();
    for (size_t y = 0; y < H; y++) {
        const ptrdiff_t ro = (ptrdiff_t)(y * W);
#pragma GCC unroll 2
        for (int p = 0; p < NP; p++) {
            __m512 xs[2][3];
            row_shifts(NV, s[p] + ro, kv, xs);
#pragma GCC unroll 2
            for (int u = 0; u < NV; u++) {
                const __m512 x[3] = {xs[u][0], xs[u][1], xs[u][2]};
                a0[p][u] = a1[p][u];
                a1[p][u] = a2[p][u];
                if (y > 0) {
#pragma GCC unroll 3
                    for (int c = 0; c < 3; c++)
                        a0[p][u] = _mm512_mask3_fmadd_ps(wv[p][6 + c], x[c], a0[p][u], kc[u][c]);
                    store_out(MODE, d[p] + ro - (ptrdiff_t)W + 16 * u, a0[p][u], kv[u], va, vb);
                }
                /* a1: row y's tap row 0 (zero at y == 0) */
#pragma GCC unroll 3
                for (int c = 0; c < 3; c++)
                    a1[p][u] = _mm512_mask3_fmadd_ps(wv[p][3 + c], x[c], a1[p][u], kc[u][c]);
                a2[p][u] = _mm512_setzero_ps();
                if (y + 1 < H)
#pragma GCC unroll 3
                    for (int c = 0; c < 3; c++)
                        a2[p][u] = _mm512_mask3_fmadd_ps(wv[p][c], x[c], a2[p][u], kc[u][c]);
            }
        }
    }
#pragma GCC unroll 2
    for (int p = 0; p < NP; p++)
#pragma GCC unroll 2
        for (int u = 0; u < NV; u++)
            store_out(MODE, d[p] + (ptrdiff_t)((H - 1) * W) + 16 * u, a1[p][u], kv[u], va, vb);
}

/* Rows of W <= 8: two planes a vector, plane A's row in lanes 0..7, plane B's in lanes
 * 8..15 (B loaded merged, stored from its lanes 8 below its row); the column shifts by
 * lane shifts of the loaded row (valignd: a shifted lane from outside the row, or from
 * the other plane, sits under a masked-off tap), so a row of two planes costs one
 * zeroing and one merging load, two shifts and 9 multiply-adds. */
AI void conv_dual(const int MODE, const float *sa, const float *sb, const float *wa,
                  const float *wb, float *da, float *db, size_t H, size_t W, __m512 va,
                  __m512 vb)
{
    const __mmask16 kA = below((ptrdiff_t)W), kB = (__mmask16)(kA << 8), kv = kA | kB;
    const __mmask16 kA2 = below((ptrdiff_t)W - 1);
    const __mmask16 kc[3] = {(__mmask16)(kv & 0xFEFE), kv, (__mmask16)(kA2 | (kA2 << 8))};
    __m512 wv[9];
#pragma GCC unroll 9
    for (int t = 0; t < 9; t++)
        wv[t] = _mm512_mask_blend_ps((__mmask16)0xFF00, _mm512_set1_ps(wa[t]), _mm512_set1_ps(wb[t]));
    const __m512i z = _mm512_setzero_si512();
    __m512 a0, a1 = _mm512_setzero_ps(), a2 = _mm512_setzero_ps();
    for (size_t y = 0; y < H; y++) {
        const ptrdiff_t ro = (ptrdiff_t)(y * W);
        __m512 v = _mm512_maskz_loadu_ps(kA, sa + ro);
        v = _mm512_mask_loadu_ps(v, kB, at(sb, ro - 8));
        const __m512i vi = _mm512_castps_si512(v);
        const __m512 x[3] = {_mm512_castsi512_ps(_mm512_alignr_epi32(vi, z, 15)), v,
                             _mm512_castsi512_ps(_mm512_alignr_epi32(z, vi, 1))};
        a0 = a1;
        a1 = a2;
        if (y > 0) {
#pragma GCC unroll 3
            for (int c = 0; c < 3; c++) a0 = _mm512_mask3_fmadd_ps(wv[6 + c], x[c], a0, kc[c]);
            __m512 e = a0;
            if (MODE >= 1) e = _mm512_mul_ps(va, e);
            if (MODE == 2) {
                __m512 o = _mm512_maskz_loadu_ps(kA, da + ro - (ptrdiff_t)W);
                o = _mm512_mask_loadu_ps(o, kB, (float *)at(db, ro - (ptrdiff_t)W - 8));
                e = _mm512_add_ps(e, _mm512_mul_ps(vb, o));
            }
            _mm512_mask_storeu_ps(da + ro - (ptrdiff_t)W, kA, e);
            _mm512_mask_storeu_ps((float *)at(db, ro - (ptrdiff_t)W - 8), kB, e);
        }
#pragma GCC unroll 3
        for (int c = 0; c < 3; c++) a1 = _mm512_mask3_fmadd_ps(wv[3 + c], x[c], a1, kc[c]);
        a2 = _mm512_setzero_ps();
        if (y + 1 < H)
#pragma GCC unroll 3
            for (int c = 0; c < 3; c++) a2 = _mm512_mask3_fmadd_ps(wv[c], x[c], a2, kc[c]);
    }
    {
        const ptrdiff_t ro = (ptrdiff_t)((H - 1) * W);
        __m512 e = a1;
        if (MODE >= 1) e = _mm512_mul_ps(va, e);
        if (MODE == 2) {
            __m512 o = _mm512_maskz_loadu_ps(kA, da + ro);
            o = _mm512_mask_loadu_ps(o, kB, (float *)at(db, ro - 8));
            e = _mm512_add_ps(e, _mm512_mul_ps(vb, o));
        }
        _mm512_mask_storeu_ps(da + ro, kA, e);
        _mm512_mask_storeu_ps((float *)at(db, ro - 8), kB, e);
    }
}


/* Rows of more than 32 columns (conv_wide): one plane, a strip of NV vectors (<= 4) from
 * vector u0 down all the rows, as conv_planes (three rolling accumulators a vector, each
 * source row's vectors loaded once and shifted by valignd), the strip's neighbours
 * (vector u0 - 1 and u0 + NV, zero outside the row) loaded for the shifts across its
 * edges. */
AI void conv_strip(const int NV, const int MODE, const float *s, const float *w, float *d,
                   size_t H, size_t W, size_t u0, __m512 va, __m512 vb)
{
    __mmask16 kv[4], kc[4][3];
#pragma GCC unroll 4
    for (int u = 0; u < NV; u++) vec_masks(W, u0 + (size_t)u, &kv[u], kc[u]);
    const __mmask16 khi = below((ptrdiff_t)W - 16 * (ptrdiff_t)(u0 + (size_t)NV));
    __m512 wv[9];
#pragma GCC unroll 9
    for (int t = 0; t < 9; t++) wv[t] = _mm512_set1_ps(w[t]);
    const __m512i z = _mm512_setzero_si512();
    __m512 a0[4], a1[4], a2[4];
#pragma GCC unroll 4
    for (int u = 0; u < NV; u++) a1[u] = a2[u] = _mm512_setzero_ps();
    const ptrdiff_t c0 = 16 * (ptrdiff_t)u0;
    for (size_t y = 0; y < H; y++) {
        const ptrdiff_t ro = (ptrdiff_t)(y * W) + c0;
        const float *r = s + ro;
        if (u0 == 0 && y + 8 < H) /* the whole row 8 on, for the strips to come */
            for (size_t o = 0; o < W; o += 16) _mm_prefetch((const char *)(r + 8 * (ptrdiff_t)W + o), _MM_HINT_T0);
        __m512i v[4];
#pragma GCC unroll 4
        for (int u = 0; u < NV; u++) v[u] = _mm512_castps_si512(_mm512_maskz_loadu_ps(kv[u], r + 16 * u));
        const __m512i lo = u0 > 0 ? _mm512_castps_si512(_mm512_loadu_ps(r - 16)) : z;
        const __m512i hi = khi ? _mm512_castps_si512(_mm512_maskz_loadu_ps(khi, r + 16 * NV)) : z;
#pragma GCC unroll 4
        for (int u = 0; u < NV; u++) {
            const __m512 x[3] = {
                _mm512_castsi512_ps(_mm512_alignr_epi32(v[u], u > 0 ? v[u - 1] : lo, 15)),
                _mm512_castsi512_ps(v[u]),
                _mm512_castsi512_ps(_mm512_alignr_epi32(u + 1 < NV ? v[u + 1] : hi, v[u], 1))};
            a0[u] = a1[u];
            a1[u] = a2[u];
            if (y > 0) {
#pragma GCC unroll 3
                for (int c = 0; c < 3; c++)
                    a0[u] = _mm512_mask3_fmadd_ps(wv[6 + c], x[c], a0[u], kc[u][c]);
                store_out(MODE, d + ro - (ptrdiff_t)W + 16 * u, a0[u], kv[u], va, vb);
            }
#pragma GCC unroll 3
            for (int c = 0; c < 3; c++) a1[u] = _mm512_mask3_fmadd_ps(wv[3 + c], x[c], a1[u], kc[u][c]);
            a2[u] = _mm512_setzero_ps();
            if (y + 1 < H)
#pragma GCC unroll 3
                for (int c = 0; c < 3; c++)
                    a2[u] = _mm512_mask3_fmadd_ps(wv[c], x[c], a2[u], kc[u][c]);
        }
    }
#pragma GCC unroll 4
    for (int u = 0; u < NV; u++)
        store_out(MODE, d + (ptrdiff_t)((H - 1) * W) + c0 + 16 * u, a1[u], kv[u], va, vb);
}

/* A plane of rows of more than 32 columns: strips of 4 vectors, the last of 1-4. */
AI void conv_wide(const int MODE, const float *s, const float *w, float *d, size_t H, size_t W,
                  __m512 va, __m512 vb)
{
    const size_t nv = (W + L - 1) / L;
    for (size_t u0 = 0; u0 < nv; u0 += 4) {
        switch (nv - u0 >= 4 ? 4 : (int)(nv - u0)) {
        case 4: conv_strip(4, MODE, s, w, d, H, W, u0, va, vb); break;
        case 3: conv_strip(3, MODE, s, w, d, H, W, u0, va, vb); break;
        case 2: conv_strip(2, MODE, s, w, d, H, W, u0, va, vb); break;
        default: conv_strip(1, MODE, s, w, d, H, W, u0, va, vb); break;
        }
    }
}


AI void conv_mode(const int MODE, size_t np, const float *src, ptrdiff_t scs, const float *w,
                  ptrdiff_t wcs, size_t H, size_t W, float *dst, ptrdiff_t dcs, __m512 va,
                  __m512 vb)
{
    size_t p = 0;
    if (W <= 8) {
        for (; p + 2 <= np; p += 2)
            conv_dual(MODE, src + (ptrdiff_t)p * scs, src + (ptrdiff_t)(p + 1) * scs,
                      w + (ptrdiff_t)p * wcs, w + (ptrdiff_t)(p + 1) * wcs,
                      dst + (ptrdiff_t)p * dcs, dst + (ptrdiff_t)(p + 1) * dcs, H, W, va, vb);
    }
    if (W <= L) {
        for (; p + 2 <= np; p += 2) {
            const float *s[2] = {src + (ptrdiff_t)p * scs, src + (ptrdiff_t)(p + 1) * scs};
            const float *wp[2] = {w + (ptrdiff_t)p * wcs, w + (ptrdiff_t)(p + 1) * wcs};
            float *d[2] = {dst + (ptrdiff_t)p * dcs, dst + (ptrdiff_t)(p + 1) * dcs};
            conv_planes(2, 1, MODE, s, wp, d, H, W, va, vb);
        }
    }
    for (; p < np && W > PDNN_DWROW_WMAX; p++)
        conv_wide(MODE, src + (ptrdiff_t)p * scs, w + (ptrdiff_t)p * wcs, dst + (ptrdiff_t)p * dcs,
                  H, W, va, vb);
    for (; p < np; p++) {
        const float *s[1] = {src + (ptrdiff_t)p * scs};
        const float *wp[1] = {w + (ptrdiff_t)p * wcs};
        float *d[1] = {dst + (ptrdiff_t)p * dcs};
        if (W <= L)
            conv_planes(1, 1, MODE, s, wp, d, H, W, va, vb);
        else
            conv_planes(1, 2, MODE, s, wp, d, H, W, va, vb);
    }
}

void pdnn_f32_dwrow_conv__avx512(size_t np, const float *src, ptrdiff_t scs, const float *w,
                                 ptrdiff_t wcs, size_t H, size_t W, float *dst, ptrdiff_t dcs,
                                 float alpha, float beta, int stream)
{
    if (H == 0 || W == 0) return;
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    if (beta != 0)
        conv_mode(2, np, src, scs, w, wcs, H, W, dst, dcs, va, vb);
    else if (stream && alpha != 1)
        conv_mode(4, np, src, scs, w, wcs, H, W, dst, dcs, va, vb);
    else if (stream)
        conv_mode(3, np, src, scs, w, wcs, H, W, dst, dcs, va, vb);
    else if (alpha != 1)
        conv_mode(1, np, src, scs, w, wcs, H, W, dst, dcs, va, vb);
    else
        conv_mode(0, np, src, scs, w, wcs, H, W, dst, dcs, va, vb);
}

/* The 16 lanes of a summed in the fixed tree of dwrow_ukernels.h. */
AI float tree16(__m512 a)
{
    const __m256 b = _mm256_add_ps(_mm512_castps512_ps256(a), _mm512_extractf32x8_ps(a, 1));
    const __m128 c = _mm_add_ps(_mm256_castps256_ps128(b), _mm256_extractf128_ps(b, 1));
    const __m128 d = _mm_add_ps(c, _mm_movehl_ps(c, c)); /* (c0 + c2, c1 + c3) */
    return _mm_cvtss_f32(_mm_add_ss(d, _mm_shuffle_ps(d, d, 1)));
}

/* bwdf of source row y (ro = y W) of NP planes: g1 holds dy row y on entry, g0 row y - 1
 * (T2: taps of tap row 2); dy row y + 1 loaded into g2 (T0: taps of tap row 0), then the
 * rows moved on (g0 = g1, g1 = g2). */
AI void bwdf_row(const int NP, const int NV, const int T0, const int T2, const float *sn,
                 ptrdiff_t scs, const float *dn, ptrdiff_t dcs, ptrdiff_t ro, size_t W,
                 const __mmask16 kv[2], const __mmask16 kc[2][3], __m512 g0[2][2],
                 __m512 g1[2][2], __m512 g2[2][2], __m512 a[2][9])
{
#pragma GCC unroll 2
    for (int p = 0; p < NP; p++) {
        __m512 xs[2][3];
        row_shifts(NV, sn + p * scs + ro, kv, xs);
#pragma GCC unroll 2
        for (int u = 0; u < NV; u++) {
            if (T0)
                g2[p][u] = _mm512_maskz_loadu_ps(kv[u], dn + p * dcs + ro + (ptrdiff_t)W + 16 * u);
            const __m512 x[3] = {xs[u][0], xs[u][1], xs[u][2]};
#pragma GCC unroll 3
            for (int c = 0; c < 3; c++) {
                if (T0) a[p][c] = _mm512_mask3_fmadd_ps(g2[p][u], x[c], a[p][c], kc[u][c]);
                a[p][3 + c] = _mm512_mask3_fmadd_ps(g1[p][u], x[c], a[p][3 + c], kc[u][c]);
                if (T2)
                    a[p][6 + c] = _mm512_mask3_fmadd_ps(g0[p][u], x[c], a[p][6 + c], kc[u][c]);
            }
            g0[p][u] = g1[p][u];
            g1[p][u] = g2[p][u];
        }
    }
}

/* NP planes (<= 2) of NV vectors a row (<= 2): their tap sums over the images. */
AI void bwdf_planes(const int NP, const int NV, const float *s, ptrdiff_t scs, ptrdiff_t sns,
                    const float *dy, ptrdiff_t dcs, ptrdiff_t dns, size_t nimg, size_t H,
                    size_t W, __m512 *out)
{
    __mmask16 kv[2], kc[2][3];
    row_masks(W, kv, kc);
    __m512 a[2][9];
#pragma GCC unroll 2
    for (int p = 0; p < NP; p++)
#pragma GCC unroll 9
        for (int t = 0; t < 9; t++) a[p][t] = _mm512_setzero_ps();
    const size_t plane = H * W;
    for (size_t n = 0; n < nimg; n++) {
        /* small planes: the planes two images on (a batch stride apart: no hardware
         * stream) */
        if (n + 2 < nimg && plane <= 256)
#pragma GCC unroll 2
            for (int p = 0; p < NP; p++) {
                const char *xs = (const char *)at(s, (ptrdiff_t)(n + 2) * sns + p * scs);
                const char *ds = (const char *)at(dy, (ptrdiff_t)(n + 2) * dns + p * dcs);
                for (size_t o = 0; o < plane * sizeof(float); o += 64) {
                    __builtin_prefetch(xs + o, 0, 3);
                    __builtin_prefetch(ds + o, 0, 3);
                }
            }
        const float *sn = at(s, (ptrdiff_t)n * sns), *dn = at(dy, (ptrdiff_t)n * dns);
        /* g0: dy row y - 1, g1: row y, g2: row y + 1 */
        __m512 g0[2][2], g1[2][2], g2[2][2];
#pragma GCC unroll 2
        for (int p = 0; p < NP; p++)
#pragma GCC unroll 2
            for (int u = 0; u < NV; u++) {
                g0[p][u] = g2[p][u] = _mm512_setzero_ps();
                g1[p][u] = _mm512_maskz_loadu_ps(kv[u], dn + p * dcs + 16 * u);
            }
        /* the first row (no tap row 2), the middle rows, the last (no tap row 0) */
        bwdf_row(NP, NV, H > 1, 0, sn, scs, dn, dcs, 0, W, kv, kc, g0, g1, g2, a);
        size_t y = 1;
        for (; y + 1 < H; y++)
            bwdf_row(NP, NV, 1, 1, sn, scs, dn, dcs, (ptrdiff_t)(y * W), W, kv, kc, g0, g1, g2,
                     a);
        if (y < H)
            bwdf_row(NP, NV, 0, 1, sn, scs, dn, dcs, (ptrdiff_t)(y * W), W, kv, kc, g0, g1, g2,
                     a);
    }
#pragma GCC unroll 2
    for (int p = 0; p < NP; p++)
#pragma GCC unroll 9
        for (int t = 0; t < 9; t++) out[9 * p + t] = a[p][t];
}

/* Two planes of rows W <= 8 in one vector (conv_dual's layout) over the images: their tap
 * sums as the halves of out[t] (plane A lanes 0-7, B lanes 8-15). */
AI void bwdf_dual(const float *sa, const float *sb, ptrdiff_t sns, const float *da,
                  const float *db, ptrdiff_t dns, size_t nimg, size_t H, size_t W, __m512 *out)
{
    const __mmask16 kA = below((ptrdiff_t)W), kB = (__mmask16)(kA << 8), kv = kA | kB;
    const __mmask16 kA2 = below((ptrdiff_t)W - 1);
    const __mmask16 kc[3] = {(__mmask16)(kv & 0xFEFE), kv, (__mmask16)(kA2 | (kA2 << 8))};
    const __m512i z = _mm512_setzero_si512();
    __m512 a[9];
#pragma GCC unroll 9
    for (int t = 0; t < 9; t++) a[t] = _mm512_setzero_ps();
    const size_t plane = H * W;
    for (size_t n = 0; n < nimg; n++) {
        const ptrdiff_t no = (ptrdiff_t)n * sns, nd = (ptrdiff_t)n * dns;
        if (n + 2 < nimg) {
            const char *pf[4] = {(const char *)at(sa, no + 2 * sns), (const char *)at(sb, no + 2 * sns),
                                 (const char *)at(da, nd + 2 * dns), (const char *)at(db, nd + 2 * dns)};
            for (size_t o = 0; o < plane * sizeof(float); o += 64)
                for (int i = 0; i < 4; i++) __builtin_prefetch(pf[i] + o, 0, 3);
        }
        const float *xa = at(sa, no), *xb = at(sb, no), *ga = at(da, nd), *gb = at(db, nd);
        __m512 g0 = _mm512_setzero_ps(), g2 = _mm512_setzero_ps();
        __m512 g1 = _mm512_mask_loadu_ps(_mm512_maskz_loadu_ps(kA, ga), kB, at(gb, -8));
        for (size_t y = 0; y < H; y++) {
            const ptrdiff_t ro = (ptrdiff_t)(y * W);
            const int more = y + 1 < H;
            if (more)
                g2 = _mm512_mask_loadu_ps(_mm512_maskz_loadu_ps(kA, ga + ro + (ptrdiff_t)W), kB,
                                          at(gb, ro + (ptrdiff_t)W - 8));
            const __m512 v = _mm512_mask_loadu_ps(_mm512_maskz_loadu_ps(kA, xa + ro), kB,
                                                  at(xb, ro - 8));
            const __m512i vi = _mm512_castps_si512(v);
            const __m512 x[3] = {_mm512_castsi512_ps(_mm512_alignr_epi32(vi, z, 15)), v,
                                 _mm512_castsi512_ps(_mm512_alignr_epi32(z, vi, 1))};
#pragma GCC unroll 3
            for (int c = 0; c < 3; c++) {
                if (more) a[c] = _mm512_mask3_fmadd_ps(g2, x[c], a[c], kc[c]);
                a[3 + c] = _mm512_mask3_fmadd_ps(g1, x[c], a[3 + c], kc[c]);
                if (y > 0) a[6 + c] = _mm512_mask3_fmadd_ps(g0, x[c], a[6 + c], kc[c]);
            }
            g0 = g1;
            g1 = g2;
        }
    }
#pragma GCC unroll 9
    for (int t = 0; t < 9; t++) out[t] = a[t];
}

/* One plane of rows past 32 columns: its nine tap sums over the images, the source rows
 * and the row's vectors in increasing order (bwdf_planes' order), the source row's
 * vectors slid along the row (one load a vector, two valignd) and the three dy rows
 * loaded at each vector (no rolling rows in registers at this width). */
AI void bwdf_wide(const float *s, ptrdiff_t sns, const float *dy, ptrdiff_t dns, size_t nimg,
                  size_t H, size_t W, __m512 *out)
{
    const size_t nv = (W + L - 1) / L;
    const __m512i z = _mm512_setzero_si512();
    __m512 a[9];
#pragma GCC unroll 9
    for (int t = 0; t < 9; t++) a[t] = _mm512_setzero_ps();
    for (size_t n = 0; n < nimg; n++) {
        const float *xn = at(s, (ptrdiff_t)n * sns), *gn = at(dy, (ptrdiff_t)n * dns);
        for (size_t y = 0; y < H; y++) {
            const ptrdiff_t ro = (ptrdiff_t)(y * W);
            const int up = y > 0, more = y + 1 < H;
            const float *xr = xn + ro, *g1 = gn + ro;
            __m512i prev = z, cur = _mm512_castps_si512(_mm512_maskz_loadu_ps(below((ptrdiff_t)W), xr));
            for (size_t u = 0; u < nv; u++) {
                __mmask16 kv, kc[3];
                vec_masks(W, u, &kv, kc);
                const __mmask16 kn = below((ptrdiff_t)W - 16 * (ptrdiff_t)(u + 1)); /* the next vector's columns */
                const __m512i next = u + 1 < nv ? _mm512_castps_si512(_mm512_maskz_loadu_ps(kn, xr + 16 * (u + 1))) : z;
                const __m512 x[3] = {_mm512_castsi512_ps(_mm512_alignr_epi32(cur, prev, 15)),
                                     _mm512_castsi512_ps(cur),
                                     _mm512_castsi512_ps(_mm512_alignr_epi32(next, cur, 1))};
                const float *gu = g1 + 16 * u;
                const __m512 d1 = _mm512_maskz_loadu_ps(kv, gu);
                const __m512 d2 = more ? _mm512_maskz_loadu_ps(kv, gu + (ptrdiff_t)W) : _mm512_setzero_ps();
                const __m512 d0 = up ? _mm512_maskz_loadu_ps(kv, gu - (ptrdiff_t)W) : _mm512_setzero_ps();
#pragma GCC unroll 3
                for (int c = 0; c < 3; c++) {
                    if (more) a[c] = _mm512_mask3_fmadd_ps(d2, x[c], a[c], kc[c]);
                    a[3 + c] = _mm512_mask3_fmadd_ps(d1, x[c], a[3 + c], kc[c]);
                    if (up) a[6 + c] = _mm512_mask3_fmadd_ps(d0, x[c], a[6 + c], kc[c]);
                }
                prev = cur;
                cur = next;
            }
        }
    }
#pragma GCC unroll 9
    for (int t = 0; t < 9; t++) out[t] = a[t];
}

void pdnn_f32_dwrow_bwdf__avx512(size_t np, const float *src, ptrdiff_t scs, ptrdiff_t sns,
                                 const float *dy, ptrdiff_t dcs, ptrdiff_t dns, size_t nimg,
                                 size_t H, size_t W, float *sum)
{
    if (H == 0 || W == 0) return;
    pdnn_dwsum_q q;
    q.n = 0;
    q.sum = sum;
    size_t p = 0;
    if (W <= 8) {
        pdnn_dwsum_pairs dq;
        dq.n8 = 0;
        for (; p + 2 <= np; p += 2) {
            /* the next pair's planes (each a few lines: too short a stream for the
             * hardware) */
            if (p + 4 <= np)
                for (size_t o = 0; o < H * W * sizeof(float); o += 64)
                    for (size_t i = p + 2; i < p + 4; i++) {
                        __builtin_prefetch((const char *)at(src, (ptrdiff_t)i * scs) + o, 0, 3);
                        __builtin_prefetch((const char *)at(dy, (ptrdiff_t)i * dcs) + o, 0, 3);
                    }
            __m512 out[9];
            bwdf_dual(src + (ptrdiff_t)p * scs, src + (ptrdiff_t)(p + 1) * scs, sns,
                      dy + (ptrdiff_t)p * dcs, dy + (ptrdiff_t)(p + 1) * dcs, dns, nimg, H, W,
                      out);
            pdnn_dwsum_pair(out, sum + 9 * p, &dq);
            pdnn_dwsum_pairs_flush(&dq, 0);
        }
        pdnn_dwsum_pairs_flush(&dq, 1);
        q.sum = sum + 9 * p;
    }
    if (W <= L)
        for (; p + 2 <= np; p += 2) {
            bwdf_planes(2, 1, src + (ptrdiff_t)p * scs, scs, sns, dy + (ptrdiff_t)p * dcs, dcs,
                        dns, nimg, H, W, q.v + q.n);
            q.n += 18;
            pdnn_dwsum_flush(&q, 0);
        }
    for (; p < np; p++) {
        if (W > PDNN_DWROW_WMAX)
            bwdf_wide(src + (ptrdiff_t)p * scs, sns, dy + (ptrdiff_t)p * dcs, dns, nimg, H, W,
                      q.v + q.n);
        else if (W <= L)
            bwdf_planes(1, 1, src + (ptrdiff_t)p * scs, scs, sns, dy + (ptrdiff_t)p * dcs, dcs,
                        dns, nimg, H, W, q.v + q.n);
        else
            bwdf_planes(1, 2, src + (ptrdiff_t)p * scs, scs, sns, dy + (ptrdiff_t)p * dcs, dcs,
                        dns, nimg, H, W, q.v + q.n);
        q.n += 9;
        pdnn_dwsum_flush(&q, 0);
    }
    pdnn_dwsum_flush(&q, 1);
}
