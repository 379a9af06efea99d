/* AVX2 channel-interleaved 3 x 3 depthwise kernels (dwt8_ukernels.h): 8 x 8 transposes
 * in registers (unpack, shuffle, 128-bit lane permutes) for pack and unpack; conv with
 * the accumulators of up to 8 output pixels and one filter row's 3 weight vectors in
 * registers, each buffer vector of that row loaded once. */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/ukernels/dwconv/dwt8_ukernels.h"
#include "cpu/ukernels/transpose/transpose8_avx2.h"

#define T8_INLINE static inline __attribute__((always_inline))

/* Pixels f .. f + n - 1 (n <= 8) of a run of the nc planes (x + c cs + f) transposed;
 * pixel f + k then stored at buf + 8 idx[k]. */
T8_INLINE void t8_pack8(size_t nc, size_t n, const float *x, ptrdiff_t cs, float *buf,
                        const ptrdiff_t *idx, ptrdiff_t pfo)
{
    __m256 r[8];
    if (pfo) /* the same pixels of the next planes (an integer address: never faults) */
        for (size_t c = 0; c < nc; c++)
            _mm_prefetch((const char *)((uintptr_t)(x + (ptrdiff_t)c * cs) +
                                        (uintptr_t)(pfo * (ptrdiff_t)sizeof(float))),
                         _MM_HINT_T0);
    if (n == 8) {
        for (size_t c = 0; c < 8; c++)
            r[c] = c < nc ? _mm256_loadu_ps(x + (ptrdiff_t)c * cs) : _mm256_setzero_ps();
    } else {
        const __m256i m = pdnn_lane_mask8__avx2(n);
        for (size_t c = 0; c < 8; c++)
            r[c] = c < nc ? _mm256_maskload_ps(x + (ptrdiff_t)c * cs, m) : _mm256_setzero_ps();
    }
    pdnn_transpose8x8__avx2(r);
    for (size_t k = 0; k < n; k++) _mm256_storeu_ps(buf + 8 * idx[k], r[k]);
}

void pdnn_f32_dwt8_pack__avx2(size_t nc, size_t H, size_t W, const float *x, ptrdiff_t rs,
                              ptrdiff_t cs, float *buf, ptrdiff_t prs, ptrdiff_t pfo)
{
    if (H == 0 || W == 0) return;
    ptrdiff_t idx[8];
    if (rs == (ptrdiff_t)W) { /* rows back to back: one flat run, 8 pixels a transpose */
        const size_t P = H * W;
        size_t i = 0, j = 0;
        for (size_t f = 0; f < P; f += 8) {
            const size_t n = P - f < 8 ? P - f : 8;
            for (size_t k = 0; k < n; k++) {
                idx[k] = (ptrdiff_t)i * prs + (ptrdiff_t)j;
                if (++j == W) j = 0, i++;
            }
            if (nc == 8) t8_pack8(8, n, x + f, cs, buf, idx, pfo);
            else t8_pack8(nc, n, x + f, cs, buf, idx, pfo);
        }
        return;
    }
    for (size_t i = 0; i < H; i++)
        for (size_t j = 0; j < W; j += 8) {
            const size_t n = W - j < 8 ? W - j : 8;
            for (size_t k = 0; k < n; k++) idx[k] = (ptrdiff_t)i * prs + (ptrdiff_t)(j + k);
            t8_pack8(nc, n, x + (ptrdiff_t)i * rs + (ptrdiff_t)j, cs, buf, idx, pfo);
        }
}

void pdnn_f32_dwt8_packt__avx2(size_t nc, size_t P, const float *x, ptrdiff_t cs,
                               const unsigned *idx, float *buf, ptrdiff_t pfo)
{
    for (size_t f = 0; f < P; f += 8) {
        ptrdiff_t id[8];
        const size_t n = P - f < 8 ? P - f : 8;
        if (n == 8 && nc == 8) {
            for (int k = 0; k < 8; k++) id[k] = (ptrdiff_t)idx[f + k];
            t8_pack8(8, 8, x + f, cs, buf, id, pfo);
        } else {
            for (size_t k = 0; k < n; k++) id[k] = (ptrdiff_t)idx[f + k];
            t8_pack8(nc, n, x + f, cs, buf, id, pfo);
        }
    }
}

/* Outputs q0 .. q0 + N - 1 of output row o (N <= 8): for each filter row r, the buffer
 * vectors of that row the outputs read, in column order, each multiply-added into the
 * outputs that read it (so every output takes its taps in (r, c) order); then the sums
 * 8 x 8-transposed and the N pixels of each of the nc channels stored at y + c cs,
 * blended. */
T8_INLINE void t8_piece(const size_t s, const size_t N, const size_t nc, const float *b,
                        ptrdiff_t prs, const float *w, float *y, ptrdiff_t cs, __m256 va,
                        __m256 vb, int blend, int full, const int scale)
{
    __m256 acc[8];
    for (size_t k = 0; k < 8; k++) acc[k] = _mm256_setzero_ps();
    const size_t M = s * (N - 1) + 3; /* buffer vectors of a row read */
#pragma GCC unroll 3
    for (size_t r = 0; r < 3; r++) {
        const __m256 w0 = _mm256_loadu_ps(w + 8 * (3 * r)), w1 = _mm256_loadu_ps(w + 8 * (3 * r + 1)),
                     w2 = _mm256_loadu_ps(w + 8 * (3 * r + 2));
        const float *br = b + 8 * (ptrdiff_t)r * prs;
#pragma GCC unroll 32
        for (size_t m = 0; m < M; m++) {
            const __m256 v = _mm256_loadu_ps(br + 8 * m);
            /* output k reads column s k + c */
#pragma GCC unroll 3
            for (size_t c = 0; c < 3; c++) {
                if (m < c || (m - c) % s != 0) continue;
                const size_t k = (m - c) / s;
                if (k >= N) continue;
                acc[k] = _mm256_fmadd_ps(c == 0 ? w0 : c == 1 ? w1 : w2, v, acc[k]);
            }
        }
    }
    pdnn_transpose8x8__avx2(acc);
    const __m256i mk = pdnn_lane_mask8__avx2(N);
#pragma GCC unroll 8
    for (size_t c = 0; c < nc; c++) {
        float *d = y + (ptrdiff_t)c * cs;
        __m256 v = scale ? _mm256_mul_ps(va, acc[c]) : acc[c];
        if (N == 8) {
            if (blend) v = _mm256_add_ps(v, _mm256_mul_ps(vb, _mm256_loadu_ps(d)));
            _mm256_storeu_ps(d, v);
        } else if (full) { /* lanes N.. land where a later piece stores (beta == 0) */
            _mm256_storeu_ps(d, v);
        } else {
            if (blend) v = _mm256_add_ps(v, _mm256_mul_ps(vb, _mm256_maskload_ps(d, mk)));
            _mm256_maskstore_ps(d, mk, v);
        }
    }
}

#define T8_PIECE(S, NC, scale)                                                                  \
    switch (n) {                                                                           \
    case 1: t8_piece(S, 1, NC, b, prs, w, d, cs, va, vb, blend, full, scale); break;                   \
    case 2: t8_piece(S, 2, NC, b, prs, w, d, cs, va, vb, blend, full, scale); break;                   \
    case 3: t8_piece(S, 3, NC, b, prs, w, d, cs, va, vb, blend, full, scale); break;                   \
    case 4: t8_piece(S, 4, NC, b, prs, w, d, cs, va, vb, blend, full, scale); break;                   \
    case 5: t8_piece(S, 5, NC, b, prs, w, d, cs, va, vb, blend, full, scale); break;                   \
    case 6: t8_piece(S, 6, NC, b, prs, w, d, cs, va, vb, blend, full, scale); break;                   \
    case 7: t8_piece(S, 7, NC, b, prs, w, d, cs, va, vb, blend, full, scale); break;                   \
    default: t8_piece(S, 8, NC, b, prs, w, d, cs, va, vb, blend, full, scale); break;                  \
    }

void pdnn_f32_dwt8_conv3__avx2(size_t nc, size_t s, size_t OH, size_t OW, const float *buf,
                               ptrdiff_t prs, const float *w, float *y, ptrdiff_t rs,
                               ptrdiff_t cs, float alpha, float beta)
{
    if (OH == 0 || OW == 0) return;
    const __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
    const int blend = beta != 0.0f;
    /* pieces of at most 8, balanced: OW = np pieces, the first `big` of them one longer */
    const size_t np = (OW + 7) / 8, base = OW / np, big = OW % np;
    for (size_t o = 0; o < OH; o++) {
        size_t q = 0;
        for (size_t pc = 0; pc < np; pc++) {
            const size_t n = base + (pc < big);
            const float *b = buf + 8 * ((ptrdiff_t)(s * o) * prs + (ptrdiff_t)(s * q));
            float *d = y + (ptrdiff_t)o * rs + (ptrdiff_t)q;
            /* whole-vector stores (masked ones are slow) where the 8 lanes end within the
             * plane (beta == 0): the pixels past the piece are the later pieces' (within
             * the row; or, rows back to back, the plane's later rows) */
            const int full = !blend && (rs == (ptrdiff_t)OW ? o * OW + q + 8 <= OH * OW
                                                            : q + 8 <= OW);
            if (s == 1) {
                if (nc == 8 && alpha == 1.0f) {
                    T8_PIECE(1, 8, 0) /* alpha * sum == sum */
                } else {
                    T8_PIECE(1, nc, 1)
                }
            } else {
                if (nc == 8 && alpha == 1.0f) {
                    T8_PIECE(2, 8, 0)
                } else {
                    T8_PIECE(2, nc, 1)
                }
            }
            q += n;
        }
    }
}

