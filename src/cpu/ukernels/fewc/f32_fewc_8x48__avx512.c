/* The few-input-channel forward micro-kernels (fewc_ukernels.h), AVX-512: 8 output
 * channels x NV (1-3) grid vectors in 24 (8 NV) accumulators; per tap, NV loads, 8
 * broadcast weights from the packed filter (one 32-byte group a tap), 8 NV fused
 * multiply-adds; masked loads and multiply-adds on the in-place planes (tile), plain
 * ones on the zero-padded planes, stored through each vector's row segments (tile_pad:
 * ~1.3x the masked kernel's multiply-adds a cycle, measured on L1-resident data; whole
 * aligned vectors by non-temporal stores on request). */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/ukernels/fewc/fewc_ukernels.h"

#define AI static inline __attribute__((always_inline))
enum { L = 16, MR = PDNN_FEWC_MR };

/* p + o floats, as an integer: the address of a masked-off lane may lie outside p's
 * buffer, where C pointer arithmetic is not defined (the load never touches it). */
AI const float *at(const float *p, ptrdiff_t o)
{
    return (const float *)((uintptr_t)p + (uintptr_t)(o * (ptrdiff_t)sizeof(float)));
}

/* The lanes kk of alpha * acc (+ beta * p's when beta != 0: a rounded product, then an
 * addition) to p. */
AI void put(float *p, __mmask16 kk, __m512 acc, float alpha, float beta)
{
    __m512 e = alpha == 1.0f ? acc : _mm512_mul_ps(_mm512_set1_ps(alpha), acc);
    if (beta != 0)
        e = _mm512_add_ps(e, _mm512_mul_ps(_mm512_set1_ps(beta), _mm512_maskz_loadu_ps(kk, p)));
    _mm512_mask_storeu_ps(p, kk, e);
}

AI void tile(const int NV, size_t mr, size_t nc, size_t ntap, const float *src, ptrdiff_t scs,
             const ptrdiff_t *toff, const uint16_t *masks, const float *wp, float *dst,
             ptrdiff_t drs, __mmask16 klast, float alpha, float beta)
{
    __m512 acc[MR][3];
#pragma GCC unroll 8
    for (int i = 0; i < MR; i++)
#pragma GCC unroll 3
        for (int v = 0; v < NV; v++) acc[i][v] = _mm512_setzero_ps();
    for (size_t c = 0; c < nc; c++) {
        const float *s = at(src, (ptrdiff_t)c * scs);
        const float *w = wp + c * ntap * MR;
        for (size_t j = 0; j < ntap; j++) {
            __mmask16 k[3];
            __m512 x[3];
            const float *sj = at(s, toff[j]);
#pragma GCC unroll 3
            for (int v = 0; v < NV; v++) {
                k[v] = masks[(size_t)v * ntap + j];
                x[v] = _mm512_maskz_loadu_ps(k[v], at(sj, v * L));
            }
#pragma GCC unroll 8
            for (int i = 0; i < MR; i++) {
                const __m512 wv = _mm512_set1_ps(w[j * MR + (size_t)i]);
#pragma GCC unroll 3
                for (int v = 0; v < NV; v++)
                    acc[i][v] = _mm512_mask3_fmadd_ps(wv, x[v], acc[i][v], k[v]);
            }
        }
    }
    /* constant trip counts keep the accumulators in registers (a loop to mr made gcc
     * keep them in memory) */
#pragma GCC unroll 8
    for (int i = 0; i < MR; i++) {
        if ((size_t)i >= mr) break;
        float *d = dst + (ptrdiff_t)i * drs;
#pragma GCC unroll 3
        for (int v = 0; v < NV; v++)
            put(d + v * L, v == NV - 1 ? klast : (__mmask16)0xFFFF, acc[i][v], alpha, beta);
    }
}

void pdnn_f32_fewc_8x48__avx512(size_t mr, size_t nv, size_t nc, size_t ntap, const float *src,
                                ptrdiff_t scs, const ptrdiff_t *toff, const uint16_t *masks,
                                const float *wp, float *dst, ptrdiff_t drs, size_t nlast,
                                float alpha, float beta)
{
    const __mmask16 klast = (__mmask16)(nlast >= L ? 0xFFFFu : (1u << nlast) - 1u);
    if (mr == 0) return;
    if (mr > MR) mr = MR;
    switch (nv) {
    case 1: tile(1, mr, nc, ntap, src, scs, toff, masks, wp, dst, drs, klast, alpha, beta); break;
    case 2: tile(2, mr, nc, ntap, src, scs, toff, masks, wp, dst, drs, klast, alpha, beta); break;
    case 3: tile(3, mr, nc, ntap, src, scs, toff, masks, wp, dst, drs, klast, alpha, beta); break;
    default: break;
    }
}

AI void tile_pad(const int NV, size_t mr, size_t nc, size_t ntap, const float *src, ptrdiff_t scs,
                 const ptrdiff_t *toff, const float *wp, float *dst, ptrdiff_t drs,
                 const ptrdiff_t *soff, const ptrdiff_t *doff, const uint16_t *dmask,
                 float alpha, float beta, int stream)
{
    __m512 acc[MR][3];
#pragma GCC unroll 8
    for (int i = 0; i < MR; i++)
#pragma GCC unroll 3
        for (int v = 0; v < NV; v++) acc[i][v] = _mm512_setzero_ps();
    const float *sv[3];
#pragma GCC unroll 3
    for (int v = 0; v < NV; v++) sv[v] = src + soff[v];
    for (size_t c = 0; c < nc; c++) {
        const float *w = wp + c * ntap * MR;
        for (size_t j = 0; j < ntap; j++) {
            __m512 x[3];
#pragma GCC unroll 3
            for (int v = 0; v < NV; v++) x[v] = _mm512_loadu_ps(sv[v] + toff[j]);
#pragma GCC unroll 8
            for (int i = 0; i < MR; i++) {
                const __m512 wv = _mm512_set1_ps(w[j * MR + (size_t)i]);
#pragma GCC unroll 3
                for (int v = 0; v < NV; v++) acc[i][v] = _mm512_fmadd_ps(wv, x[v], acc[i][v]);
            }
        }
#pragma GCC unroll 3
        for (int v = 0; v < NV; v++) sv[v] += scs;
    }
#pragma GCC unroll 8
    for (int i = 0; i < MR; i++) {
        if ((size_t)i >= mr) break;
        float *d = dst + (ptrdiff_t)i * drs;
#pragma GCC unroll 3
        for (int v = 0; v < NV; v++) {
            float *pv = d + doff[v];
            if (stream && dmask[v] == 0xFFFF && ((uintptr_t)pv & 63) == 0)
                _mm512_stream_ps(pv, alpha == 1.0f ? acc[i][v]
                                                   : _mm512_mul_ps(_mm512_set1_ps(alpha), acc[i][v]));
            else
                put(pv, dmask[v], acc[i][v], alpha, beta);
        }
    }
}

void pdnn_f32_fewc_8x48_pad__avx512(size_t mr, size_t nv, size_t nc, size_t ntap,
                                    const float *src, ptrdiff_t scs, const ptrdiff_t *toff,
                                    const float *wp, float *dst, ptrdiff_t drs,
                                    const ptrdiff_t *soff, const ptrdiff_t *doff,
                                    const uint16_t *dmask, float alpha, float beta, int stream)
{
    stream = stream && beta == 0.0f;
    if (mr == 0) return;
    if (mr > MR) mr = MR;
    switch (nv) {
    case 1: tile_pad(1, mr, nc, ntap, src, scs, toff, wp, dst, drs, soff, doff, dmask, alpha, beta, stream); break;
    case 2: tile_pad(2, mr, nc, ntap, src, scs, toff, wp, dst, drs, soff, doff, dmask, alpha, beta, stream); break;
    case 3: tile_pad(3, mr, nc, ntap, src, scs, toff, wp, dst, drs, soff, doff, dmask, alpha, beta, stream); break;
    default: break;
    }
}

/* Lanes l of a 16-column load at column lo with 0 <= lo + l < W. */
AI __mmask16 cols_in(int64_t lo, int64_t W)
{
    const int64_t a = lo < 0 ? -lo : 0, b = W - lo; /* lanes [a, b) */
    if (a >= L || b <= 0 || a >= b) return 0;
    const uint32_t hi = b >= L ? 0xFFFFu : (1u << b) - 1u;
    return (__mmask16)(hi & (0xFFFFu << a));
}

/* The tap vectors of grid vectors v0 .. v0 + NV - 1 (fewc_ukernels.h's _s2_taps). */
AI void taps_s2(const int NV, const pdnn_fewc_s2 *g, size_t v0, float *buf)
{
    static const float zeros[4 * L] = {0};
    const __m512i ie = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i io = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    const size_t R = g->R, S = g->S;
    const int64_t pl = g->pl;
    /* the column offsets d = s - pl of the taps: -1 .. S - 1 - pl (-1 .. 2) */
    const int64_t dmax = (int64_t)S - 1 - pl;
    const int lo = pl > 0, hi = dmax >= 2;
    int64_t xr[PDNN_FEWC_NV];
    ptrdiff_t xc[PDNN_FEWC_NV];
    __mmask16 km[PDNN_FEWC_NV][4]; /* x columns xc - 16, xc, xc + 16, xc + 32 (16 each) in x */
#pragma GCC unroll 3
    for (int v = 0; v < NV; v++) {
        const size_t vi = v0 + (size_t)v;
        const int64_t oh = (int64_t)(vi / g->qv), ow0 = (int64_t)(vi % g->qv) * L;
        xr[v] = oh * g->sr - g->pt;
        xc[v] = (ptrdiff_t)(2 * ow0);
#pragma GCC unroll 4
        for (int h = 0; h < 4; h++) km[v][h] = cols_in(xc[v] + L * (h - 1), g->W);
    }
    for (size_t c = 0; c < g->nc; c++) {
        const float *xp = at(g->x, (ptrdiff_t)c * g->xcs);
        for (size_t r = 0; r < R; r++) {
            float *b = buf + (c * R + r) * S * PDNN_FEWC_NV * L;
#pragma GCC unroll 3
            for (int v = 0; v < NV; v++) {
                const int64_t row = xr[v] + (int64_t)r;
                const float *pv = row >= 0 && row < g->H ? at(xp, (ptrdiff_t)row * g->xrs + xc[v])
                                                         : zeros + L; /* a row outside x */
                const __m512 a = _mm512_maskz_loadu_ps(km[v][1], pv);
                const __m512 bb = _mm512_maskz_loadu_ps(km[v][2], at(pv, L));
                /* x's columns xc + 2 l (e) and xc + 2 l + 1 (o), l < 16 */
                const __m512i e = _mm512_castps_si512(_mm512_permutex2var_ps(a, ie, bb));
                const __m512i o = _mm512_castps_si512(_mm512_permutex2var_ps(a, io, bb));
                __m512i pm = _mm512_setzero_si512(), nx = _mm512_setzero_si512();
                if (lo) pm = _mm512_castps_si512(_mm512_maskz_loadu_ps(km[v][0], at(pv, -L)));
                if (hi) nx = _mm512_castps_si512(_mm512_maskz_loadu_ps(km[v][3], at(pv, 2 * L)));
                /* tap s = d + pl at b + (s 3 + v) 16 */
                float *bv = b + (ptrdiff_t)(pl * PDNN_FEWC_NV + v) * L;
                const ptrdiff_t ts = PDNN_FEWC_NV * L;
                if (lo) /* columns xc + 2 l - 1: the last before, then o's */
                    _mm512_store_si512(bv - ts, _mm512_alignr_epi32(o, pm, 15));
                if (dmax >= 0) _mm512_store_si512(bv, e);
                if (dmax >= 1) _mm512_store_si512(bv + ts, o);
                if (hi) /* columns xc + 2 l + 2: e's from lane 1, then the next one's first */
                    _mm512_store_si512(bv + 2 * ts, _mm512_alignr_epi32(nx, e, 1));
            }
        }
    }
}

void pdnn_f32_fewc_s2_taps__avx512(const pdnn_fewc_s2 *g, size_t v0, size_t nv, float *buf)
{
    if (!PDNN_FEWC_S2_FITS((int64_t)g->S, g->pl)) return;
    switch (nv) {
    case 1: taps_s2(1, g, v0, buf); break;
    case 2: taps_s2(2, g, v0, buf); break;
    case 3: taps_s2(3, g, v0, buf); break;
    default: break;
    }
}
