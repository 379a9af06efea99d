/* Stride-2 depthwise micro-kernels on planes read in place (dws2_ukernels.h), AVX-512.
 * A chunk's x row: vectors A (columns base .. base + 15) and B (base + 16 .. base + 31),
 * base = 2 c - p2, zero outside the row (masked loads); tap column r2 of output lane l
 * is column base + r2 + 2 l, lane r2 + 2 l of (A, B): one permutex2var a tap, lanes
 * l < nl = 16 - (kw - 1) / 2 (so that r2 + 2 l <= 31). The per-chunk lane masks (the
 * outputs of the chunk, each tap's columns inside x, the loads' columns inside the row)
 * are built once a plane. 3x3 and 5x5 taps are compiled with constant sizes, others
 * (up to 7 x 7) with run-time loops. */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/ukernels/dwconv/dws2_ukernels.h"

#define AI static inline __attribute__((always_inline))
enum { L = 16, KMAX = PDNN_DWS2_KMAX, CHMAX = 64 };

/* p + o floats as an integer: a masked-off lane's address may lie outside p's buffer. */
AI const float *at(const float *p, ptrdiff_t o)
{
    return (const float *)((uintptr_t)p + (uintptr_t)(o * (ptrdiff_t)sizeof(float)));
}

AI __mmask16 mask16(int64_t n)
{
    return n <= 0 ? 0 : n >= L ? (__mmask16)0xFFFF : (__mmask16)((1u << n) - 1u);
}

/* Lanes l with lo <= b + l < hi. */
AI __mmask16 range16(int64_t lo, int64_t hi, int64_t b)
{
    return (__mmask16)(mask16(hi - b) & ~mask16(lo - b));
}

AI int64_t fdiv2(int64_t a) { return a >= 0 ? a / 2 : -((-a + 1) / 2); }

/* Output lanes a chunk (the taps' columns within 32 loaded ones). */
AI int64_t chunk_lanes(int64_t kw) { return L - (kw - 1) / 2; }

int pdnn_f32_dws2_plan__avx512(const pdnn_dws2_geom *g, pdnn_dws2_plan *pl)
{
    pl->g = *g;
    const int64_t nl = chunk_lanes(g->kw), n = (g->OW + nl - 1) / nl, nd = (g->W + 2 * L - 1) / (2 * L);
    if (n > CHMAX || nd > CHMAX || g->kh > KMAX || g->kw > KMAX) return 0;
    pl->nl = nl;
    pl->nch = n;
    for (int64_t q = 0; q < n; q++) {
        const int64_t c = q * nl, base = 2 * c - g->p2;
        pl->ch[q].la = range16(0, g->W, base);
        pl->ch[q].lb = range16(0, g->W, base + L);
        pl->ch[q].ko = (uint16_t)(range16(0, g->OW, c) & mask16(nl));
        for (int64_t r2 = 0; r2 < g->kw; r2++) {
            /* outputs o2 with 0 <= 2 o2 + r2 - p2 < W */
            const int64_t lo = -fdiv2(r2 - g->p2), hi = fdiv2(g->W - 1 + g->p2 - r2) + 1;
            pl->ch[q].km[r2] = (uint16_t)(pl->ch[q].ko & range16(lo, hi, c));
        }
    }
    pl->nchd = nd;
    for (int64_t q = 0; q < nd; q++) {
        for (int64_t d = -3; d <= 1; d++) pl->md[q][d + 3] = range16(0, g->OW, q * L + g->p2 / 2 + d);
        pl->st[q][0] = range16(0, g->W, 2 * q * L);
        pl->st[q][1] = range16(0, g->W, 2 * q * L + L);
    }
    return 1;
}

static void tap_index(int64_t kw, __m512i *idx)
{
    const __m512i two_l = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26,
                                            28, 30);
    const __m512i m31 = _mm512_set1_epi32(31);
    for (int64_t r2 = 0; r2 < kw; r2++)
        idx[r2] = _mm512_and_si512(_mm512_add_epi32(two_l, _mm512_set1_epi32((int)r2)), m31);
}

/* The n floats at p into L1. */
AI void prefetch_row(const float *p, int64_t n)
{
    for (int64_t o = 0; o < n * (int64_t)sizeof(float); o += 64)
        _mm_prefetch((const char *)p + o, _MM_HINT_T0);
}

/* The column taps of x row `row` (at the chunk's base). */
#define S2_TAPS(row, h, idx, kw_, T)                                                       \
    do {                                                                                   \
        const __m512 A_ = _mm512_maskz_loadu_ps((h)->la, (row));                           \
        const __m512 B_ = _mm512_maskz_loadu_ps((h)->lb, at((row), L));                    \
        _Pragma("GCC unroll 7") for (int r2_ = 0; r2_ < (kw_); r2_++) T[r2_] =             \
            _mm512_permutex2var_ps(A_, (idx)[r2_], B_);                                    \
    } while (0)

/* fwd: B output rows from o0, one chunk (KH, KW: 0 = run-time sizes). */
AI void fwd_blk(const int KH, const int KW, const int B, const pdnn_dws2_geom *g,
                const float *x, const float *w, const __m512i *idx, const pdnn_dws2_chunk *h,
                int64_t o0, int64_t c, float *y, __m512 va, __m512 vb, float beta,
                ptrdiff_t pfo)
{
    const int kh = KH ? KH : (int)g->kh, kw = KW ? KW : (int)g->kw;
    __m512 a[4];
#pragma GCC unroll 4
    for (int b = 0; b < B; b++) a[b] = _mm512_setzero_ps();
    const int64_t i0 = 2 * o0 - g->p1, base = 2 * c - g->p2;
    const int nk = 2 * (B - 1) + kh;
#pragma GCC unroll 13
    for (int k = 0; k < nk; k++) {
        const int64_t i = i0 + k;
        if (i < 0 || i >= g->H) continue;
        const float *row = at(x, i * g->xs1 + base);
        if (pfo) prefetch_row(at(row, pfo), 2 * L);
        __m512 T[KMAX] = {0};
        S2_TAPS(row, h, idx, kw, T);
#pragma GCC unroll 4
        for (int b = 0; b < B; b++) {
            const int r1 = k - 2 * b;
            if (r1 < 0 || r1 >= kh) continue;
            const float *wr = w + r1 * kw;
#pragma GCC unroll 7
            for (int r2 = 0; r2 < kw; r2++)
                a[b] = _mm512_mask3_fmadd_ps(_mm512_set1_ps(wr[r2]), T[r2], a[b], h->km[r2]);
        }
    }
#pragma GCC unroll 4
    for (int b = 0; b < B; b++) {
        float *d = y + (o0 + b) * g->ys1 + c;
        __m512 e = _mm512_mul_ps(va, a[b]);
        if (beta != 0) e = _mm512_add_ps(e, _mm512_mul_ps(vb, _mm512_maskz_loadu_ps(h->ko, d)));
        _mm512_mask_storeu_ps(d, h->ko, e);
    }
}

AI void fwd_plane(const int KH, const int KW, const pdnn_dws2_plan *pl, const float *x,
                  const float *w, float *y, float alpha, float beta, ptrdiff_t pfo)
{
    const pdnn_dws2_geom g = pl->g;
    const int64_t nch = pl->nch, nl = pl->nl;
    __m512i idx[KMAX];
    tap_index(g.kw, idx);
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    for (int64_t o0 = 0; o0 < g.OH; o0 += 4) {
        const int64_t nb = g.OH - o0 < 4 ? g.OH - o0 : 4;
        for (int64_t q = 0; q < nch; q++) {
            const pdnn_dws2_chunk h = pl->ch[q];
            const int64_t c = q * nl;
            switch (nb) {
#define F(b_)                                                                              \
    case b_: fwd_blk(KH, KW, b_, &g, x, w, idx, &h, o0, c, y, va, vb, beta, pfo); break;
                F(4) F(3) F(2) F(1)
#undef F
            default: break;
            }
        }
    }
}

void pdnn_f32_dws2_fwd__avx512(const pdnn_dws2_plan *pl, const float *x, const float *w,
                               float *y, float alpha, float beta, ptrdiff_t pfo)
{
    if (pl->g.kh == 3 && pl->g.kw == 3)
        fwd_plane(3, 3, pl, x, w, y, alpha, beta, pfo);
    else if (pl->g.kh == 5 && pl->g.kw == 5)
        fwd_plane(5, 5, pl, x, w, y, alpha, beta, pfo);
    else
        fwd_plane(0, 0, pl, x, w, y, alpha, beta, pfo);
}

/* bwdd: dx row i, every chunk of 32 columns; KW taps a row, P = p2 % 2, the rows' taps
 * r1 = PAR, PAR + 2, .. (PAR = (i + p1) % 2). Tap r2 feeds the dx columns of parity
 * ph = (r2 + P) % 2 from dy column m + l + (ph + p2 - r2) / 2 = m + l + e + dr,
 * e = p2 / 2, dr = (ph + P - r2) / 2 in [-3, 1] (mask md[dr + 3]). */
AI void bwdd_row(const int KW, const int P, const int PAR, const pdnn_dws2_geom *g,
                 const pdnn_dws2_plan *pl, const float *dy, const float *w, float *dx,
                 int64_t i, __m512i il, __m512i ih, __m512 va, __m512 vb, float beta)
{
    const int64_t kh = g->kh, e = g->p2 / 2, nchd = pl->nchd;
    float *dr = dx + i * g->xs1;
    for (int64_t q = 0; q < nchd; q++) {
        const int64_t j0 = 2 * L * q;
        const uint16_t *md = pl->md[q];
        __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();
        for (int64_t r1 = PAR; r1 < kh; r1 += 2) {
            const int64_t v = i + g->p1 - r1;
            if (v < 0 || v >= 2 * g->OH) continue;
            const float *row = at(dy, (v / 2) * g->ys1 + L * q + e);
            const float *wr = w + r1 * KW;
#pragma GCC unroll 7
            for (int r2 = 0; r2 < KW; r2++) {
                const int ph = (r2 + P) & 1, d = (ph + P - r2) / 2;
                const __mmask16 k = md[d + 3];
                const __m512 s = _mm512_maskz_loadu_ps(k, at(row, d));
                if (ph)
                    a1 = _mm512_mask3_fmadd_ps(_mm512_set1_ps(wr[r2]), s, a1, k);
                else
                    a0 = _mm512_mask3_fmadd_ps(_mm512_set1_ps(wr[r2]), s, a0, k);
            }
        }
        const __m512 lo = _mm512_permutex2var_ps(a0, il, a1), hi = _mm512_permutex2var_ps(a0, ih, a1);
        const __mmask16 kl = pl->st[q][0], kh2 = pl->st[q][1];
        __m512 o = _mm512_mul_ps(va, lo);
        if (beta != 0) o = _mm512_add_ps(o, _mm512_mul_ps(vb, _mm512_maskz_loadu_ps(kl, dr + j0)));
        _mm512_mask_storeu_ps(dr + j0, kl, o);
        if (kh2) {
            o = _mm512_mul_ps(va, hi);
            if (beta != 0)
                o = _mm512_add_ps(o, _mm512_mul_ps(vb, _mm512_maskz_loadu_ps(kh2, dr + j0 + L)));
            _mm512_mask_storeu_ps(dr + j0 + L, kh2, o);
        }
    }
}

AI void bwdd_plane(const int KW, const int P, const pdnn_dws2_plan *pl, const float *dy,
                   const float *w, float *dx, float alpha, float beta, ptrdiff_t pfo)
{
    const pdnn_dws2_geom g = pl->g;
    const __m512i il = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const __m512i ih = _mm512_add_epi32(il, _mm512_set1_epi32(8));
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    for (int64_t i = 0; i < g.H; i++) {
        if (pfo && (i & 1) == 0 && i / 2 < g.OH) prefetch_row(at(dy, (i / 2) * g.ys1 + pfo), g.OW);
        if ((i + g.p1) & 1)
            bwdd_row(KW, P, 1, &g, pl, dy, w, dx, i, il, ih, va, vb, beta);
        else
            bwdd_row(KW, P, 0, &g, pl, dy, w, dx, i, il, ih, va, vb, beta);
    }
}

void pdnn_f32_dws2_bwdd__avx512(const pdnn_dws2_plan *pl, const float *dy, const float *w,
                                float *dx, float alpha, float beta, ptrdiff_t pfo)
{
    switch ((int)pl->g.kw * 2 + (int)(pl->g.p2 & 1)) {
#define K(kw_, p_)                                                                        \
    case kw_ * 2 + p_: bwdd_plane(kw_, p_, pl, dy, w, dx, alpha, beta, pfo); break;
        K(1, 0) K(1, 1) K(2, 0) K(2, 1) K(3, 0) K(3, 1) K(4, 0) K(4, 1) K(5, 0) K(5, 1)
        K(6, 0) K(6, 1) K(7, 0) K(7, 1)
#undef K
    default: break;
    }
}

/* bwdf: B output rows from o0, one chunk; the x rows they read in order, each row's
 * column taps times the dy rows of the block that read it. */
AI void bwdf_blk(const int KH, const int KW, const int B, const pdnn_dws2_geom *g,
                 const float *x, const float *dy, const __m512i *idx, const pdnn_dws2_chunk *h,
                 int64_t o0, int64_t c, ptrdiff_t pfx, ptrdiff_t pfy, __m512 *a)
{
    const int kh = KH ? KH : (int)g->kh, kw = KW ? KW : (int)g->kw;
    __m512 d[4];
#pragma GCC unroll 4
    for (int b = 0; b < B; b++) d[b] = _mm512_maskz_loadu_ps(h->ko, dy + (o0 + b) * g->ys1 + c);
    if (pfy) {
#pragma GCC unroll 4
        for (int b = 0; b < B; b++) prefetch_row(at(dy, (o0 + b) * g->ys1 + c + pfy), L);
    }
    const int64_t i0 = 2 * o0 - g->p1, base = 2 * c - g->p2;
    const int nk = 2 * (B - 1) + kh;
#pragma GCC unroll 13
    for (int k = 0; k < nk; k++) {
        const int64_t i = i0 + k;
        if (i < 0 || i >= g->H) continue;
        const float *row = at(x, i * g->xs1 + base);
        if (pfx) prefetch_row(at(row, pfx), 2 * L);
        __m512 T[KMAX] = {0};
        S2_TAPS(row, h, idx, kw, T);
#pragma GCC unroll 4
        for (int b = 0; b < B; b++) {
            const int r1 = k - 2 * b;
            if (r1 < 0 || r1 >= kh) continue;
#pragma GCC unroll 7
            for (int r2 = 0; r2 < kw; r2++)
                a[r1 * kw + r2] = _mm512_mask3_fmadd_ps(d[b], T[r2], a[r1 * kw + r2], h->km[r2]);
        }
    }
}

AI void bwdf_plane(const int KH, const int KW, const pdnn_dws2_plan *pl, const float *x,
                   const float *dy, ptrdiff_t pfx, ptrdiff_t pfy, float *acc)
{
    const pdnn_dws2_geom g = pl->g;
    const int kh = KH ? KH : (int)g.kh, kw = KW ? KW : (int)g.kw;
    const int64_t nch = pl->nch, nl = pl->nl;
    __m512i idx[KMAX];
    tap_index(g.kw, idx);
    __m512 a[KMAX * KMAX];
#pragma GCC unroll 49
    for (int t = 0; t < kh * kw; t++) a[t] = _mm512_loadu_ps(acc + t * L);
    for (int64_t o0 = 0; o0 < g.OH; o0 += 4) {
        const int64_t nb = g.OH - o0 < 4 ? g.OH - o0 : 4;
        for (int64_t q = 0; q < nch; q++) {
            const pdnn_dws2_chunk h = pl->ch[q];
            const int64_t c = q * nl;
            switch (nb) {
#define F(b_) case b_: bwdf_blk(KH, KW, b_, &g, x, dy, idx, &h, o0, c, pfx, pfy, a); break;
                F(4) F(3) F(2) F(1)
#undef F
            default: break;
            }
        }
    }
#pragma GCC unroll 49
    for (int t = 0; t < kh * kw; t++) _mm512_storeu_ps(acc + t * L, a[t]);
}

void pdnn_f32_dws2_bwdf__avx512(const pdnn_dws2_plan *pl, const float *x, const float *dy,
                                ptrdiff_t pfx, ptrdiff_t pfy, float *acc)
{
    if (pl->g.kh == 3 && pl->g.kw == 3)
        bwdf_plane(3, 3, pl, x, dy, pfx, pfy, acc);
    else
        bwdf_plane(0, 0, pl, x, dy, pfx, pfy, acc);
}
