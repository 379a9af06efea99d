/* Lane-sum trees of AVX-512 accumulators shared by the depthwise backward-filter
 * kernels (internal; include only from files compiled for AVX-512): many vectors summed
 * at once by transposing shuffles, each vector's (or half's) lanes in one fixed tree
 * that does not depend on the other vectors of the call; and the queues that gather the
 * tap vectors of consecutive planes (or plane pairs) for those trees and put the sums in
 * order by permutes. */
#ifndef PDNN_UKERNELS_DWTREE_AVX512_H
#define PDNN_UKERNELS_DWTREE_AVX512_H

#include <immintrin.h>
#include <stddef.h>

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

/* Tap sums of single planes waiting for their tree (v[0 .. n)), the next one's place in
 * sum (a plane's sums one after another). */
typedef struct {
    __m512 v[34];
    size_t n;
    float *sum;
} pdnn_dwsum_q;

/* Sums the first 16 waiting (all when last; n < 16 then) into their places: lane i of
 * tree16x16's result is v[4 (i % 4) + i / 4]'s sum, one permute puts them in order. */
static inline void pdnn_dwsum_flush(pdnn_dwsum_q *q, int last)
{
    const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    while (q->n >= 16 || (last && q->n > 0)) {
        const size_t k = q->n < 16 ? q->n : 16;
        for (size_t i = k; i < 16; i++) q->v[i] = _mm512_setzero_ps();
        _mm512_mask_storeu_ps(q->sum, (__mmask16)((1u << k) - 1),
                              _mm512_permutexvar_ps(order, tree16x16(q->v)));
        q->sum += k;
        for (size_t i = 16; i < q->n; i++) q->v[i - 16] = q->v[i];
        q->n -= k;
    }
}

/* The nine tap sums of plane pairs (one vector a tap, the first plane's partial sums in
 * lanes 0-7, the second's in 8-15) on their way into sum (18 floats a pair: the first
 * plane's nine, then the second's): taps 0-7 of a pair in one tree (pdnn_dwsum_pair), the
 * tap-8 vectors of up to 8 pairs in another (v8, n8 of them waiting, the first of their
 * pairs' sums at s8). */
typedef struct {
    __m512 v8[8];
    size_t n8;
    float *s8;
} pdnn_dwsum_pairs;

/* A pair's taps 0-7 summed into sum[0 .. 8) and sum[9 .. 17) (tree8x16's lane 4 k + m
 * holds half (4 m + k) % 2 of out[(4 m + k) / 2]; one permute puts the first plane's
 * sums in lanes 0-7, the second's in 8-15); its tap 8 left waiting in q. */
static inline __attribute__((always_inline)) void pdnn_dwsum_pair(const __m512 out[9], float *sum,
                                                                  pdnn_dwsum_pairs *q)
{
    const __m512i order = _mm512_setr_epi32(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
    const __m512 r = _mm512_permutexvar_ps(order, tree8x16(out));
    _mm512_mask_storeu_ps(sum, 0x00FF, r);
    _mm512_mask_storeu_ps(sum + 1, 0xFF00, r); /* lanes 8-15 to sum[9 .. 17) */
    if (q->n8 == 0) q->s8 = sum;
    q->v8[q->n8++] = out[8];
}

/* The waiting tap-8 sums into their places: a full tree, or all when last. */
static inline void pdnn_dwsum_pairs_flush(pdnn_dwsum_pairs *q, int last)
{
    if (q->n8 == 0 || (q->n8 < 8 && !last)) return;
    for (size_t i = q->n8; i < 8; i++) q->v8[i] = _mm512_setzero_ps();
    float r[16];
    _mm512_storeu_ps(r, tree8x16(q->v8));
    for (size_t i = 0; i < 2 * q->n8; i++) /* half i % 2 of pair i / 2 */
        q->s8[18 * (i / 2) + 9 * (i % 2) + 8] = r[4 * (i % 4) + i / 4];
    q->n8 = 0;
}

#endif
