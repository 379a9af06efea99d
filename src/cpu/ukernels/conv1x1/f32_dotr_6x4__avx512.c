/* f32 dot-tile kernel with the lane sums in registers, 6 x 4 pairs, AVX-512F: 24 zmm
 * accumulators (one 16-lane vector per pair), per 16 steps of k four B loads, six A loads
 * and 24 fused multiply-adds (A's six rows stay in L1 while a caller walks the B rows);
 * the tails through masked loads. The end reduces the 24 accumulators together: each
 * level of the tree adds the halves of two registers side by side (shuffles of 256-bit,
 * then 128-bit, then in-lane halves), so every pair's lanes are added in the tree of the
 * contract. Instantiated per (mr, nr) so that edge tiles run only their pairs. Contract in
 * conv1x1_ukernels.h. */
#include <immintrin.h>

#include "cpu/ukernels/conv1x1/conv1x1_ukernels.h"

#define UNROLL _Pragma("GCC unroll 24")
#define L PDNN_DOTR_LANES
#define MR PDNN_DOTR_MR
#define NR PDNN_DOTR_NR

/* Level 1: lanes l and l + 8 of a (result lanes 0-7) and of b (lanes 8-15). */
static inline __attribute__((always_inline)) __m512 lv1(__m512 a, __m512 b)
{
    return _mm512_add_ps(_mm512_shuffle_f32x4(a, b, 0x44), _mm512_shuffle_f32x4(a, b, 0xEE));
}
/* Level 2 on two level-1 results: 128-bit quarter q holds the 4 partials of pair q of
 * (ab, cd) = (a, b, c, d). */
static inline __attribute__((always_inline)) __m512 lv2(__m512 ab, __m512 cd)
{
    return _mm512_add_ps(_mm512_shuffle_f32x4(ab, cd, 0x88), _mm512_shuffle_f32x4(ab, cd, 0xDD));
}
/* Level 3: in each quarter, [u0 + u2, u1 + u3, w0 + w2, w1 + w3]. */
static inline __attribute__((always_inline)) __m512 lv3(__m512 u, __m512 w)
{
    return _mm512_add_ps(_mm512_shuffle_ps(u, w, 0x44), _mm512_shuffle_ps(u, w, 0xEE));
}
/* Level 4: in each quarter, [v0 + v1, v2 + v3, z0 + z1, z2 + z3]. */
static inline __attribute__((always_inline)) __m512 lv4(__m512 v, __m512 z)
{
    return _mm512_add_ps(_mm512_shuffle_ps(v, z, 0x88), _mm512_shuffle_ps(v, z, 0xDD));
}

/* 16 accumulators s[0..15] -> one vector whose lane 4 q + r is the sum of s[4 r + q]. */
static inline __attribute__((always_inline)) __m512 reduce16(const __m512 *s)
{
    const __m512 t0 = lv1(s[0], s[1]), t1 = lv1(s[2], s[3]), t2 = lv1(s[4], s[5]),
                 t3 = lv1(s[6], s[7]), t4 = lv1(s[8], s[9]), t5 = lv1(s[10], s[11]),
                 t6 = lv1(s[12], s[13]), t7 = lv1(s[14], s[15]);
    const __m512 u0 = lv2(t0, t1), u1 = lv2(t2, t3), u2 = lv2(t4, t5), u3 = lv2(t6, t7);
    return lv4(lv3(u0, u1), lv3(u2, u3));
}
/* 8 accumulators s[0..7] -> lanes 4 q + r (r < 2) the sum of s[4 r + q]. */
static inline __attribute__((always_inline)) __m512 reduce8(const __m512 *s)
{
    const __m512 t0 = lv1(s[0], s[1]), t1 = lv1(s[2], s[3]), t2 = lv1(s[4], s[5]),
                 t3 = lv1(s[6], s[7]);
    const __m512 v = lv3(lv2(t0, t1), lv2(t2, t3));
    return lv4(v, v);
}

/* Rows r0.. of the tile from w (lane 4 j + (i - r0) the sum of pair (i, j)): blended into
 * c, nr columns. */
static inline __attribute__((always_inline)) void
put_rows(const int r0, const int rows, const int nr, __m512 w, float *restrict c,
         ptrdiff_t ldc, float alpha, float beta)
{
    /* row-major: lane 4 r + j <- lane 4 j + r */
    const __m512i perm = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    const __m512 v = _mm512_mul_ps(_mm512_set1_ps(alpha), _mm512_permutexvar_ps(perm, w));
    const __mmask8 m = (__mmask8)((1u << nr) - 1u);
    float t[16];
    _mm512_storeu_ps(t, v);
    const __m128 bv = _mm_set1_ps(beta);
    UNROLL for (int r = 0; r < rows; r++) {
        float *e = c + (ptrdiff_t)(r0 + r) * ldc;
        __m128 x = _mm_loadu_ps(t + 4 * r);
        if (beta != 0) x = _mm_add_ps(x, _mm_mul_ps(bv, _mm_maskz_loadu_ps(m, e)));
        _mm_mask_storeu_ps(e, m, x);
    }
}

static inline __attribute__((always_inline)) void
dotr_body(const int mr, const int nr, size_t nimg, size_t kc, const float *restrict a,
          ptrdiff_t lda, ptrdiff_t as, const float *restrict b, ptrdiff_t ldb, ptrdiff_t bs,
          float *restrict acc, int mode, float *restrict c, ptrdiff_t ldc, float alpha,
          float beta)
{
    __m512 s[MR * NR];
    UNROLL for (int e = 0; e < MR * NR; e++) s[e] = _mm512_setzero_ps();
    if (mode & PDNN_DOTR_LOAD)
        UNROLL for (int i = 0; i < mr; i++) UNROLL for (int j = 0; j < nr; j++)
            s[i * NR + j] = _mm512_loadu_ps(acc + (i * NR + j) * L);
    const __mmask16 tm = (__mmask16)((1u << (kc % L)) - 1u);
    for (size_t im = 0; im < nimg; im++) {
        const float *ai = a + (ptrdiff_t)im * as, *bi = b + (ptrdiff_t)im * bs;
        size_t k = 0;
        for (; k + L <= kc; k += L) {
            __m512 bv[NR];
            UNROLL for (int j = 0; j < nr; j++) bv[j] = _mm512_loadu_ps(bi + j * ldb + k);
            UNROLL for (int i = 0; i < mr; i++) {
                const __m512 av = _mm512_loadu_ps(ai + i * lda + k);
                UNROLL for (int j = 0; j < nr; j++)
                    s[i * NR + j] = _mm512_fmadd_ps(av, bv[j], s[i * NR + j]);
            }
        }
        if (k < kc) {
            __m512 bv[NR];
            UNROLL for (int j = 0; j < nr; j++) bv[j] = _mm512_maskz_loadu_ps(tm, bi + j * ldb + k);
            UNROLL for (int i = 0; i < mr; i++) {
                const __m512 av = _mm512_maskz_loadu_ps(tm, ai + i * lda + k);
                UNROLL for (int j = 0; j < nr; j++)
                    s[i * NR + j] = _mm512_fmadd_ps(av, bv[j], s[i * NR + j]);
            }
        }
    }
    if (mode & PDNN_DOTR_STORE) {
        UNROLL for (int i = 0; i < mr; i++) UNROLL for (int j = 0; j < nr; j++)
            _mm512_storeu_ps(acc + (i * NR + j) * L, s[i * NR + j]);
        return;
    }
    put_rows(0, mr < 4 ? mr : 4, nr, reduce16(s), c, ldc, alpha, beta);
    if (mr > 4) put_rows(4, mr - 4, nr, reduce8(s + 16), c, ldc, alpha, beta);
}

#define CASE(m, n)                                                                        \
    case (m) * 8 + (n):                                                                   \
        dotr_body(m, n, nimg, kc, a, lda, as, b, ldb, bs, acc, mode, c, ldc, alpha, beta); \
        break

PDNN_F32_DOTR_UKERNEL(pdnn_f32_dotr_ukernel_6x4__avx512)
{
    if (mr > MR) mr = MR;
    if (nr > NR) nr = NR;
    switch (mr * 8 + nr) {
        CASE(6, 4); CASE(6, 3); CASE(6, 2); CASE(6, 1);
        CASE(5, 4); CASE(5, 3); CASE(5, 2); CASE(5, 1);
        CASE(4, 4); CASE(4, 3); CASE(4, 2); CASE(4, 1);
        CASE(3, 4); CASE(3, 3); CASE(3, 2); CASE(3, 1);
        CASE(2, 4); CASE(2, 3); CASE(2, 2); CASE(2, 1);
        CASE(1, 4); CASE(1, 3); CASE(1, 2); CASE(1, 1);
    default: break;
    }
}
