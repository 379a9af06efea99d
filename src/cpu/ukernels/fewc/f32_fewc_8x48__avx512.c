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
