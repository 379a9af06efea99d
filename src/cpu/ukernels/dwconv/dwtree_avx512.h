/* Lane-sum trees of AVX-512 accumulators shared by the depthwise backward-filter
 * kernels (internal; include only from files compiled for AVX-512): many vectors summed
 * at once by transposing shuffles, each vector's (or half's) lanes in one fixed tree
 * that does not depend on the other vectors of the call. */
#ifndef PDNN_UKERNELS_DWTREE_AVX512_H
#define PDNN_UKERNELS_DWTREE_AVX512_H

#include <immintrin.h>

/* Levels 2-4 of tree16x16 on u[i] = the 8-lane partial sums of V[2 i] (lanes 0-7) and
 * V[2 i + 1] (lanes 8-15): lane 4 k + m of the result is V[4 m + k]'s sum. */
static inline __attribute__((always_inline)) __m512 tree8x16(const __m512 u[8])
{
    __m512 w[4], x[2];
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++)
        w[i] = _mm512_add_ps(_mm512_shuffle_f32x4(u[2 * i], u[2 * i + 1], 0x88),
                             _mm512_shuffle_f32x4(u[2 * i], u[2 * i + 1], 0xDD));
#pragma GCC unroll 2
    for (int i = 0; i < 2; i++)
        x[i] = _mm512_add_ps(_mm512_shuffle_ps(w[2 * i], w[2 * i + 1], 0x44),
                             _mm512_shuffle_ps(w[2 * i], w[2 * i + 1], 0xEE));
    return _mm512_add_ps(_mm512_shuffle_ps(x[0], x[1], 0x88), _mm512_shuffle_ps(x[0], x[1], 0xDD));
}

/* The 16 vectors v[i] each summed in the tree of tree16, all at once: lane 4 k + m of
 * the result is v[4 m + k]'s sum. Level by level: lanes l + l + 8 (v[2i], v[2i + 1]
 * halves side by side), l + l + 4 (quarters), l + l + 2, l + l + 1. */
static inline __attribute__((always_inline)) __m512 tree16x16(const __m512 v[16])
{
    __m512 u[8];
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++)
        u[i] = _mm512_add_ps(_mm512_shuffle_f32x4(v[2 * i], v[2 * i + 1], 0x44),
                             _mm512_shuffle_f32x4(v[2 * i], v[2 * i + 1], 0xEE));
    return tree8x16(u);
}

#endif
