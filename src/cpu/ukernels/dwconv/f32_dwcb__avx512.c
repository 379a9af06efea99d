/* Channel-blocked depthwise micro-kernels (dwcb_ukernels.h), AVX-512: one zmm per pixel
 * of 16 channels. conv: blocks of up to 8 outputs of a row in registers, one fused
 * multiply-add per tap and output; bwdf: up to 12 taps' accumulators in registers over
 * the pixels; pack / unpack: 4 pixels at a time, 128-bit row pieces placed in the four
 * lanes of 4 vectors and transposed within the lanes (8 shuffles per 4 pixels); flat:
 * 3x3 taps on rows of a multiple of 16 floats by aligned loads and permutes shared by
 * the 3 output rows that read a buffer row, other taps by unaligned loads; flat2: none
 * (stride 2 runs in conv_cpu_direct_dw_s2.c at AVX-512; the table holds the AVX2 one,
 * never reached); flatw: the backward filter's 9 tap sums in registers, each buffer
 * row's shifted vectors times the last 3 dy rows. */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "cpu/ukernels/dwconv/dwcb_ukernels.h"

#define AI static inline __attribute__((always_inline))
enum { L = PDNN_DWCB_LANES };

AI void conv_blk(const int B, size_t ntap, const ptrdiff_t *toff, const float *w,
                 const float *x, ptrdiff_t xs2, float *y, ptrdiff_t ys2)
{
    __m512 a[8];
#pragma GCC unroll 8
    for (int b = 0; b < B; b++) a[b] = _mm512_setzero_ps();
    for (size_t t = 0; t < ntap; t++) {
        const __m512 wv = _mm512_loadu_ps(w + t * L);
        const float *xt = x + toff[t];
#pragma GCC unroll 8
        for (int b = 0; b < B; b++)
            a[b] = _mm512_fmadd_ps(wv, _mm512_loadu_ps(xt + (ptrdiff_t)b * xs2), a[b]);
    }
#pragma GCC unroll 8
    for (int b = 0; b < B; b++) _mm512_storeu_ps(y + (ptrdiff_t)b * ys2, a[b]);
}

void pdnn_f32_dwcb_conv__avx512(size_t n1, size_t n2, size_t ntap, const ptrdiff_t *toff,
                                const float *w, const float *x, ptrdiff_t xs1, ptrdiff_t xs2,
                                float *y, ptrdiff_t ys1, ptrdiff_t ys2)
{
    for (size_t o1 = 0; o1 < n1; o1++) {
        const float *xr = x + (ptrdiff_t)o1 * xs1;
        float *yr = y + (ptrdiff_t)o1 * ys1;
        size_t o = 0;
        for (; o + 8 <= n2; o += 8)
            conv_blk(8, ntap, toff, w, xr + (ptrdiff_t)o * xs2, xs2, yr + (ptrdiff_t)o * ys2, ys2);
        const float *xo = xr + (ptrdiff_t)o * xs2;
        float *yo = yr + (ptrdiff_t)o * ys2;
        switch (n2 - o) {
        case 7: conv_blk(7, ntap, toff, w, xo, xs2, yo, ys2); break;
        case 6: conv_blk(6, ntap, toff, w, xo, xs2, yo, ys2); break;
        case 5: conv_blk(5, ntap, toff, w, xo, xs2, yo, ys2); break;
        case 4: conv_blk(4, ntap, toff, w, xo, xs2, yo, ys2); break;
        case 3: conv_blk(3, ntap, toff, w, xo, xs2, yo, ys2); break;
        case 2: conv_blk(2, ntap, toff, w, xo, xs2, yo, ys2); break;
        case 1: conv_blk(1, ntap, toff, w, xo, xs2, yo, ys2); break;
        default: break;
        }
    }
}

/* NT taps (NT <= 12) over every pixel. */
AI void bwdf_grp(const int NT, size_t n1, size_t n2, const ptrdiff_t *toff, const float *x,
                 ptrdiff_t xs1, ptrdiff_t xs2, const float *dy, ptrdiff_t ds1, float *acc)
{
    __m512 a[12];
    ptrdiff_t off[12];
#pragma GCC unroll 12
    for (int t = 0; t < NT; t++) {
        a[t] = _mm512_loadu_ps(acc + t * L);
        off[t] = toff[t];
    }
    for (size_t o1 = 0; o1 < n1; o1++) {
        const float *xr = x + (ptrdiff_t)o1 * xs1, *dr = dy + (ptrdiff_t)o1 * ds1;
        for (size_t o2 = 0; o2 < n2; o2++) {
            const __m512 d = _mm512_loadu_ps(dr + o2 * L);
            const float *xo = xr + (ptrdiff_t)o2 * xs2;
#pragma GCC unroll 12
            for (int t = 0; t < NT; t++) a[t] = _mm512_fmadd_ps(d, _mm512_loadu_ps(xo + off[t]), a[t]);
        }
    }
#pragma GCC unroll 12
    for (int t = 0; t < NT; t++) _mm512_storeu_ps(acc + t * L, a[t]);
}

void pdnn_f32_dwcb_bwdf__avx512(size_t n1, size_t n2, size_t ntap, const ptrdiff_t *toff,
                                const float *x, ptrdiff_t xs1, ptrdiff_t xs2, const float *dy,
                                ptrdiff_t ds1, float *acc)
{
    for (size_t t0 = 0; t0 < ntap;) {
        /* groups of at most 12, as even as possible */
        const size_t left = ntap - t0, ng = (left + 11) / 12, nt = (left + ng - 1) / ng;
        const ptrdiff_t *to = toff + t0;
        float *ac = acc + t0 * L;
        switch (nt) {
#define G(k) case k: bwdf_grp(k, n1, n2, to, x, xs1, xs2, dy, ds1, ac); break;
        G(12) G(11) G(10) G(9) G(8) G(7) G(6) G(5) G(4) G(3) G(2) G(1)
#undef G
        default: break;
        }
        t0 += nt;
    }
}

static inline __m128 ld4(const float *p, size_t m)
{
    return m >= 4 ? _mm_loadu_ps(p) : _mm_maskz_loadu_ps((__mmask8)((1u << m) - 1u), p);
}

AI void st4(float *p, __m128 v, size_t m)
{
    if (m >= 4)
        _mm_storeu_ps(p, v);
    else
        _mm_mask_storeu_ps(p, (__mmask8)((1u << m) - 1u), v);
}

/* The 4 x 4 transpose within each 128-bit lane of (v0, v1, v2, v3). */
AI void tr4(__m512 *v)
{
    const __m512 t0 = _mm512_unpacklo_ps(v[0], v[1]), t1 = _mm512_unpackhi_ps(v[0], v[1]);
    const __m512 t2 = _mm512_unpacklo_ps(v[2], v[3]), t3 = _mm512_unpackhi_ps(v[2], v[3]);
    v[0] = _mm512_shuffle_ps(t0, t2, 0x44);
    v[1] = _mm512_shuffle_ps(t0, t2, 0xEE);
    v[2] = _mm512_shuffle_ps(t1, t3, 0x44);
    v[3] = _mm512_shuffle_ps(t1, t3, 0xEE);
}

/* The 4 x 4 transpose of the 128-bit lanes of (s0, s1, s2, s3): lane l of v[q] = lane q
 * of s[l]. */
AI void tr4x128(__m512 *v)
{
    const __m512 t0 = _mm512_shuffle_f32x4(v[0], v[1], 0x44), t1 = _mm512_shuffle_f32x4(v[0], v[1], 0xEE);
    const __m512 t2 = _mm512_shuffle_f32x4(v[2], v[3], 0x44), t3 = _mm512_shuffle_f32x4(v[2], v[3], 0xEE);
    v[0] = _mm512_shuffle_f32x4(t0, t2, 0x88);
    v[1] = _mm512_shuffle_f32x4(t0, t2, 0xDD);
    v[2] = _mm512_shuffle_f32x4(t1, t3, 0x88);
    v[3] = _mm512_shuffle_f32x4(t1, t3, 0xDD);
}

/* 16 channels x 16 pixels: rows c of the channel-major side (at s + c ls) to pixel
 * vectors (at d + k 16) when !back, the reverse when back (alpha applied). */
AI void tr16(const int back, const float *s, ptrdiff_t ls, float *d, float alpha)
{
    __m512 v[4][4]; /* [r][q] */
    if (!back) {
        for (int r = 0; r < 4; r++) {
            for (int l = 0; l < 4; l++) v[r][l] = _mm512_loadu_ps(s + (ptrdiff_t)(4 * l + r) * ls);
            tr4x128(v[r]); /* v[r][q], lane l: channel 4 l + r, pixels 4 q .. 4 q + 3 */
        }
        for (int q = 0; q < 4; q++) {
            __m512 u[4] = {v[0][q], v[1][q], v[2][q], v[3][q]};
            tr4(u);
            for (int k = 0; k < 4; k++) _mm512_storeu_ps(d + (4 * q + k) * L, u[k]);
        }
        return;
    }
    const __m512 va = _mm512_set1_ps(alpha);
    for (int q = 0; q < 4; q++) {
        __m512 u[4];
        for (int k = 0; k < 4; k++) {
            u[k] = _mm512_loadu_ps(d + (4 * q + k) * L);
            if (alpha != 1) u[k] = _mm512_mul_ps(va, u[k]);
        }
        tr4(u);
        for (int r = 0; r < 4; r++) v[r][q] = u[r];
    }
    for (int r = 0; r < 4; r++) {
        tr4x128(v[r]); /* v[r][l]: channel 4 l + r, 16 pixels */
        for (int l = 0; l < 4; l++) _mm512_storeu_ps((float *)s + (ptrdiff_t)(4 * l + r) * ls, v[r][l]);
    }
}

/* v[r], lane l: channel 4 l + r (zero past nc), m pixels at s (FULL: nc == 16, m == 4). */
AI void pack_ld(const int FULL, size_t nc, size_t m, const float *s, ptrdiff_t lds, __m512 *v)
{
    const __m128 z = _mm_setzero_ps();
    for (int r = 0; r < 4; r++) {
        const size_t c = (size_t)r;
        __m512 u;
        if (FULL) {
            u = _mm512_castps128_ps512(_mm_loadu_ps(s + (ptrdiff_t)c * lds));
            u = _mm512_insertf32x4(u, _mm_loadu_ps(s + (ptrdiff_t)(c + 4) * lds), 1);
            u = _mm512_insertf32x4(u, _mm_loadu_ps(s + (ptrdiff_t)(c + 8) * lds), 2);
            u = _mm512_insertf32x4(u, _mm_loadu_ps(s + (ptrdiff_t)(c + 12) * lds), 3);
        } else {
            u = _mm512_castps128_ps512(c < nc ? ld4(s + (ptrdiff_t)c * lds, m) : z);
            u = _mm512_insertf32x4(u, c + 4 < nc ? ld4(s + (ptrdiff_t)(c + 4) * lds, m) : z, 1);
            u = _mm512_insertf32x4(u, c + 8 < nc ? ld4(s + (ptrdiff_t)(c + 8) * lds, m) : z, 2);
            u = _mm512_insertf32x4(u, c + 12 < nc ? ld4(s + (ptrdiff_t)(c + 12) * lds, m) : z, 3);
        }
        v[r] = u;
    }
    tr4(v); /* v[k]: pixel k, channels 0 .. 15 */
}

/* 16 channels x 16 pixels: rows c at s + c ls to pixel vectors o[k] (tr16's transpose,
 * kept in registers). */
AI void tr16r(const float *s, ptrdiff_t ls, __m512 *o)
{
    __m512 v[4][4]; /* [r][q] */
    for (int r = 0; r < 4; r++) {
        for (int l = 0; l < 4; l++) v[r][l] = _mm512_loadu_ps(s + (ptrdiff_t)(4 * l + r) * ls);
        tr4x128(v[r]);
    }
    for (int q = 0; q < 4; q++) {
        __m512 u[4] = {v[0][q], v[1][q], v[2][q], v[3][q]};
        tr4(u);
        for (int k = 0; k < 4; k++) o[4 * q + k] = u[k];
    }
}

/* pack of 16 channels whose rows lie back to back (ss1 == n2) into rows of ds1: the
 * plane transposed flat, 16 pixels at a time (short rows would take a 4-pixel piece or
 * a partial one each), each pixel vector stored at its row and column. */
static void pack_rows_flat(size_t n1, size_t n2, const float *src, ptrdiff_t lds, float *dst,
                           ptrdiff_t ds1)
{
    const size_t n = n1 * n2;
    size_t f = 0, i = 0, j = 0; /* pixel f at row i, column j */
    __m512 o[16];
    for (; f + 16 <= n; f += 16) {
        tr16r(src + f, lds, o);
        for (int k = 0; k < 16; k++) {
            _mm512_storeu_ps(dst + (ptrdiff_t)i * ds1 + (ptrdiff_t)(j * L), o[k]);
            if (++j == n2) {
                j = 0;
                i++;
            }
        }
    }
    for (; f < n; f += 4) {
        const size_t m = n - f < 4 ? n - f : 4;
        pack_ld(0, L, m, src + f, lds, o);
        for (size_t k = 0; k < m; k++) {
            _mm512_storeu_ps(dst + (ptrdiff_t)i * ds1 + (ptrdiff_t)(j * L), o[k]);
            if (++j == n2) {
                j = 0;
                i++;
            }
        }
    }
}

void pdnn_f32_dwcb_pack__avx512(size_t nc, size_t n1, size_t n2, const float *src,
                                ptrdiff_t ss1, ptrdiff_t lds, float *dst, ptrdiff_t ds1)
{
    if (nc == PDNN_DWCB_LANES && n1 > 1 && n2 < 16 && ss1 == (ptrdiff_t)n2) {
        pack_rows_flat(n1, n2, src, lds, dst, ds1);
        return;
    }
    for (size_t i = 0; i < n1; i++) {
        const float *s = src + (ptrdiff_t)i * ss1;
        float *d = dst + (ptrdiff_t)i * ds1;
        size_t q = 0;
        __m512 v[4];
        if (nc == PDNN_DWCB_LANES)
            for (; q + 16 <= n2; q += 16) tr16(0, s + q, lds, d + q * L, 1);
        if (nc == PDNN_DWCB_LANES)
            for (; q + 4 <= n2; q += 4) {
                pack_ld(1, nc, 4, s + q, lds, v);
                for (int k = 0; k < 4; k++) _mm512_storeu_ps(d + (q + (size_t)k) * L, v[k]);
            }
        for (; q < n2; q += 4) {
            const size_t m = n2 - q < 4 ? n2 - q : 4;
            pack_ld(0, nc, m, s + q, lds, v);
            float *dq = d + q * L; /* explicit stores: a loop becomes a memcpy */
            _mm512_storeu_ps(dq, v[0]);
            if (m > 1) _mm512_storeu_ps(dq + L, v[1]);
            if (m > 2) _mm512_storeu_ps(dq + 2 * L, v[2]);
            if (m > 3) _mm512_storeu_ps(dq + 3 * L, v[3]);
        }
    }
}

/* m pixels at s, channel 4 l + r into lane l of v[r] (alpha applied when beta == 0). */
AI void unpack_ld(size_t m, const float *s, float alpha, float beta, __m512 *v)
{
    const __m512 z = _mm512_setzero_ps();
    v[0] = _mm512_loadu_ps(s);
    v[1] = m > 1 ? _mm512_loadu_ps(s + L) : z;
    v[2] = m > 2 ? _mm512_loadu_ps(s + 2 * L) : z;
    v[3] = m > 3 ? _mm512_loadu_ps(s + 3 * L) : z;
    if (beta == 0 && alpha != 1) {
        const __m512 va = _mm512_set1_ps(alpha);
        for (int k = 0; k < 4; k++) v[k] = _mm512_mul_ps(va, v[k]);
    }
    tr4(v);
}

void pdnn_f32_dwcb_unpack__avx512(size_t nc, size_t n1, size_t n2, const float *src,
                                  ptrdiff_t ss1, float *dst, ptrdiff_t ds1, ptrdiff_t ldd,
                                  float alpha, float beta)
{
    const __m128 a4 = _mm_set1_ps(alpha), b4 = _mm_set1_ps(beta);
    for (size_t i = 0; i < n1; i++) {
        const float *s = src + (ptrdiff_t)i * ss1;
        float *d = dst + (ptrdiff_t)i * ds1;
        size_t q = 0;
        __m512 v[4];
        if (nc == PDNN_DWCB_LANES && beta == 0)
            for (; q + 16 <= n2; q += 16) tr16(1, d + q, ldd, (float *)s + q * L, alpha);
        if (nc == PDNN_DWCB_LANES && beta == 0)
            for (; q + 4 <= n2; q += 4) {
                unpack_ld(4, s + q * L, alpha, beta, v);
                float *dq = d + q;
                for (int r = 0; r < 4; r++) {
                    _mm_storeu_ps(dq + (ptrdiff_t)r * ldd, _mm512_castps512_ps128(v[r]));
                    _mm_storeu_ps(dq + (ptrdiff_t)(r + 4) * ldd, _mm512_extractf32x4_ps(v[r], 1));
                    _mm_storeu_ps(dq + (ptrdiff_t)(r + 8) * ldd, _mm512_extractf32x4_ps(v[r], 2));
                    _mm_storeu_ps(dq + (ptrdiff_t)(r + 12) * ldd, _mm512_extractf32x4_ps(v[r], 3));
                }
            }
        for (; q < n2; q += 4) {
            const size_t m = n2 - q < 4 ? n2 - q : 4;
            unpack_ld(m, s + q * L, alpha, beta, v);
            float *dq = d + q;
#define LANE(l, get)                                                                       \
    for (size_t r = 0; r < 4 && 4 * (l) + r < nc; r++) {                                 \
        __m128 e = get;                                                                    \
        float *dc = dq + (ptrdiff_t)(4 * (l) + r) * ldd;                                   \
        if (beta != 0) e = _mm_add_ps(_mm_mul_ps(a4, e), _mm_mul_ps(b4, ld4(dc, m)));       \
        st4(dc, e, m);                                                                     \
    }
            LANE(0, _mm512_castps512_ps128(v[r]))
            LANE(1, _mm512_extractf32x4_ps(v[r], 1))
            LANE(2, _mm512_extractf32x4_ps(v[r], 2))
            LANE(3, _mm512_extractf32x4_ps(v[r], 3))
#undef LANE
        }
    }
}

/* The n floats at p into L1 (the next plane's row, while this one computes). */
static inline void prefetch_row(const float *p, size_t n)
{
    for (size_t o = 0; o < n * sizeof(float); o += 64) _mm_prefetch((const char *)p + o, _MM_HINT_T0);
}

/* B vectors of the flat sums at f (B <= 8). */
AI void flat_blk(const int B, size_t ntap, const ptrdiff_t *toff, const float *w,
                 const float *xp, float *yf)
{
    __m512 a[8];
#pragma GCC unroll 8
    for (int b = 0; b < B; b++) a[b] = _mm512_setzero_ps();
    for (size_t t = 0; t < ntap; t++) {
        const __m512 wv = _mm512_set1_ps(w[t]);
        const float *xt = xp + toff[t];
#pragma GCC unroll 8
        for (int b = 0; b < B; b++) a[b] = _mm512_fmadd_ps(wv, _mm512_loadu_ps(xt + b * L), a[b]);
    }
#pragma GCC unroll 8
    for (int b = 0; b < B; b++) _mm512_storeu_ps(yf + b * L, a[b]);
}

static inline __mmask16 mask16(size_t m) { return m >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << m) - 1u); }

/* 3 x 3 taps, unit dilation, rows of pw (a multiple of 16) floats: B output rows of one
 * 16-column piece (at xc in the buffer, yc in y); each buffer row's 3 shifted vectors
 * (two aligned loads, two two-source permutes) serve the up to 3 outputs that read it,
 * added in tap order (rows r1 increasing, then r2). */
AI void r33_blk(const int B, const __m512 *w9, __m512i i1, __m512i i2, const float *xc,
                size_t pw, float *yc, ptrdiff_t ys1, __mmask16 km, __m512 va, __m512 vb,
                float beta)
{
    __m512 a[8];
#pragma GCC unroll 8
    for (int b = 0; b < B; b++) a[b] = _mm512_setzero_ps();
#pragma GCC unroll 10
    for (int k = 0; k < B + 2; k++) {
        const float *r = xc + (size_t)k * pw;
        const __m512 v0 = _mm512_load_ps(r), vn = _mm512_load_ps(r + L);
        const __m512 v1 = _mm512_permutex2var_ps(v0, i1, vn);
        const __m512 v2 = _mm512_permutex2var_ps(v0, i2, vn);
#pragma GCC unroll 3
        for (int r1 = 2; r1 >= 0; r1--) { /* output k - r1: its taps in row order */
            const int o = k - r1;
            if (o < 0 || o >= B) continue;
            a[o] = _mm512_fmadd_ps(w9[3 * r1], v0, a[o]);
            a[o] = _mm512_fmadd_ps(w9[3 * r1 + 1], v1, a[o]);
            a[o] = _mm512_fmadd_ps(w9[3 * r1 + 2], v2, a[o]);
        }
    }
#pragma GCC unroll 8
    for (int b = 0; b < B; b++) {
        float *d = yc + (ptrdiff_t)b * ys1;
        __m512 e = _mm512_mul_ps(va, a[b]);
        if (beta != 0) e = _mm512_add_ps(e, _mm512_mul_ps(vb, _mm512_maskz_loadu_ps(km, d)));
        _mm512_mask_storeu_ps(d, km, e);
    }
}

static bool is_r33(size_t ntap, const ptrdiff_t *toff, size_t pw)
{
    if (ntap != 9 || pw % L) return false;
    for (size_t t = 0; t < 9; t++)
        if (toff[t] != (ptrdiff_t)((t / 3) * pw + t % 3)) return false;
    return true;
}

void pdnn_f32_dwcb_flat__avx512(size_t n1, size_t n2, const float *x, ptrdiff_t xs1, ptrdiff_t pfo, float *xp,
                                size_t ph, size_t pw, size_t p1, size_t p2, size_t ntap,
                                const ptrdiff_t *toff, const float *w, float *yf, size_t m1,
                                size_t m2, float *y, ptrdiff_t ys1, float alpha, float beta)
{
    const size_t r1 = p1 < ph ? (n1 < ph - p1 ? n1 : ph - p1) : 0;
    const size_t c1 = p2 < pw ? (n2 < pw - p2 ? n2 : pw - p2) : 0;
    for (size_t i = 0; i < r1; i++) {
        float *d = xp + (i + p1) * pw + p2;
        const float *s = x + (ptrdiff_t)i * xs1;
        if (pfo) prefetch_row(s + pfo, n2);
        for (size_t j = 0; j < c1; j += L) {
            const __mmask16 k = mask16(c1 - j);
            _mm512_mask_storeu_ps(d + j, k, _mm512_maskz_loadu_ps(k, s + j));
        }
    }
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    if (is_r33(ntap, toff, pw) && ((uintptr_t)xp & 63) == 0) {
        __m512 w9[9];
        for (int t = 0; t < 9; t++) w9[t] = _mm512_set1_ps(w[t]);
        const __m512i i1 = _mm512_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
        const __m512i i2 = _mm512_add_epi32(i1, _mm512_set1_epi32(1));
        for (size_t a = 0; a < m1; a += 8) {
            const size_t nb = m1 - a < 8 ? m1 - a : 8;
            for (size_t c = 0; c < m2; c += L) {
                const __mmask16 km = mask16(m2 - c);
                const float *xc = xp + a * pw + c;
                float *yc = y + (ptrdiff_t)a * ys1 + (ptrdiff_t)c;
                switch (nb) {
#define R(k) case k: r33_blk(k, w9, i1, i2, xc, pw, yc, ys1, km, va, vb, beta); break;
                R(8) R(7) R(6) R(5) R(4) R(3) R(2) R(1)
#undef R
                default: break;
                }
            }
        }
        return;
    }
    const size_t nf = m1 ? (m1 - 1) * pw + m2 : 0, nv = (nf + L - 1) / L;
    size_t v = 0;
    for (; v + 8 <= nv; v += 8) flat_blk(8, ntap, toff, w, xp + v * L, yf + v * L);
    switch (nv - v) {
    case 7: flat_blk(7, ntap, toff, w, xp + v * L, yf + v * L); break;
    case 6: flat_blk(6, ntap, toff, w, xp + v * L, yf + v * L); break;
    case 5: flat_blk(5, ntap, toff, w, xp + v * L, yf + v * L); break;
    case 4: flat_blk(4, ntap, toff, w, xp + v * L, yf + v * L); break;
    case 3: flat_blk(3, ntap, toff, w, xp + v * L, yf + v * L); break;
    case 2: flat_blk(2, ntap, toff, w, xp + v * L, yf + v * L); break;
    case 1: flat_blk(1, ntap, toff, w, xp + v * L, yf + v * L); break;
    default: break;
    }
    for (size_t o1 = 0; o1 < m1; o1++) {
        float *d = y + (ptrdiff_t)o1 * ys1;
        const float *s = yf + o1 * pw;
        for (size_t p = 0; p < m2; p += L) {
            const __mmask16 k = mask16(m2 - p);
            __m512 e = _mm512_mul_ps(va, _mm512_maskz_loadu_ps(k, s + p));
            if (beta != 0) e = _mm512_add_ps(e, _mm512_mul_ps(vb, _mm512_maskz_loadu_ps(k, d + p)));
            _mm512_mask_storeu_ps(d + p, k, e);
        }
    }
}

/* flatw, 3 x 3 taps at unit dilation on rows of a multiple of 16: one 16-column piece, the
 * buffer rows k in order, each row's 3 shifted vectors (as r33_blk) times the dy rows
 * k - r1 (the last 3 kept) into the 9 accumulators (registers). */
#define W33_ROW(k)                                                                          \
    const float *r_ = xc + (k) * pw;                                                        \
    const __m512 v0 = _mm512_load_ps(r_), vn_ = _mm512_load_ps(r_ + L);                     \
    const __m512 v1 = _mm512_permutex2var_ps(v0, i1, vn_);                                  \
    const __m512 v2 = _mm512_permutex2var_ps(v0, i2, vn_)
#define W33_FMA(d, a0, a1, a2)                                                              \
    a0 = _mm512_mask3_fmadd_ps(d, v0, a0, km);                                              \
    a1 = _mm512_mask3_fmadd_ps(d, v1, a1, km);                                              \
    a2 = _mm512_mask3_fmadd_ps(d, v2, a2, km)

AI void w33_piece(__m512 *a, __m512i i1, __m512i i2, const float *xc, size_t pw,
                  const float *dc, ptrdiff_t ds1, size_t m1, __mmask16 km)
{
    __m512 a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4], a5 = a[5], a6 = a[6],
           a7 = a[7], a8 = a[8];
    __m512 d0 = _mm512_setzero_ps(), d1 = d0, d2 = d0;
    size_t k = 0;
    for (; k < 2 && k < m1; k++) { /* rows 0, 1: dy rows k (r1 0), k - 1 (r1 1) */
        W33_ROW(k);
        d1 = d0;
        d0 = _mm512_maskz_loadu_ps(km, dc + (ptrdiff_t)k * ds1);
        W33_FMA(d0, a0, a1, a2);
        if (k == 1) {
            W33_FMA(d1, a3, a4, a5);
        }
    }
    for (; k < m1; k++) { /* all three */
        W33_ROW(k);
        d2 = d1;
        d1 = d0;
        d0 = _mm512_maskz_loadu_ps(km, dc + (ptrdiff_t)k * ds1);
        W33_FMA(d0, a0, a1, a2);
        W33_FMA(d1, a3, a4, a5);
        W33_FMA(d2, a6, a7, a8);
    }
    for (; k < m1 + 2; k++) { /* past dy's rows: dy rows k - 1 (when < m1), k - 2 */
        W33_ROW(k);
        d2 = d1;
        d1 = d0;
        if (k < m1 + 1) {
            W33_FMA(d1, a3, a4, a5);
        }
        if (k >= 2) {
            W33_FMA(d2, a6, a7, a8);
        }
    }
    a[0] = a0, a[1] = a1, a[2] = a2, a[3] = a3, a[4] = a4, a[5] = a5, a[6] = a6, a[7] = a7;
    a[8] = a8;
}
#undef W33_ROW
#undef W33_FMA

void pdnn_f32_dwcb_flatw__avx512(size_t n1, size_t n2, const float *x, ptrdiff_t xs1,
                                 ptrdiff_t pfo, float *xp, size_t ph, size_t pw, size_t p1,
                                 size_t p2, size_t ntap, const ptrdiff_t *toff, const float *dy,
                                 ptrdiff_t ds1, size_t m1, size_t m2, float *acc)
{
    const size_t r1 = p1 < ph ? (n1 < ph - p1 ? n1 : ph - p1) : 0;
    const size_t c1 = p2 < pw ? (n2 < pw - p2 ? n2 : pw - p2) : 0;
    for (size_t i = 0; i < r1; i++) {
        float *d = xp + (i + p1) * pw + p2;
        const float *s = x + (ptrdiff_t)i * xs1;
        if (pfo) prefetch_row(s + pfo, n2);
        for (size_t j = 0; j < c1; j += L) {
            const __mmask16 k = mask16(c1 - j);
            _mm512_mask_storeu_ps(d + j, k, _mm512_maskz_loadu_ps(k, s + j));
        }
    }
    if (is_r33(ntap, toff, pw) && ((uintptr_t)xp & 63) == 0) {
        __m512 a[9];
        for (int t = 0; t < 9; t++) a[t] = _mm512_loadu_ps(acc + t * L);
        const __m512i i1 = _mm512_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
        const __m512i i2 = _mm512_add_epi32(i1, _mm512_set1_epi32(1));
        for (size_t c = 0; c < m2; c += L)
            w33_piece(a, i1, i2, xp + c, pw, dy + c, ds1, m1, mask16(m2 - c));
        for (int t = 0; t < 9; t++) _mm512_storeu_ps(acc + t * L, a[t]);
        return;
    }
    for (size_t t = 0; t < ntap; t++) {
        __m512 a = _mm512_loadu_ps(acc + t * L);
        for (size_t c = 0; c < m2; c += L) {
            const __mmask16 km = mask16(m2 - c);
            for (size_t o1 = 0; o1 < m1; o1++) {
                const __m512 dv = _mm512_maskz_loadu_ps(km, dy + (ptrdiff_t)o1 * ds1 + c);
                const __m512 xv = _mm512_maskz_loadu_ps(km, xp + o1 * pw + c + toff[t]);
                a = _mm512_mask3_fmadd_ps(dv, xv, a, km);
            }
        }
        _mm512_storeu_ps(acc + t * L, a);
    }
}
