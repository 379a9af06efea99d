/* f32 dot-tile micro-kernel, 4 x 4 pairs, AVX-512F: 16 zmm accumulators (one 16-lane
 * vector per pair), per 16 steps of k four A and four B loads and 16 fused multiply-adds;
 * the tail through masked loads. The tile is instantiated per (mr, nr) so that narrow
 * tiles run only their pairs. Contract in dot_ukernels.h. */
#include <immintrin.h>

#include "cpu/ukernels/gemm/dot_ukernels.h"

#define UNROLL _Pragma("GCC unroll 16")

static inline __attribute__((always_inline)) void
dot_body(const int mr, const int nr, size_t kc, const float *restrict a, ptrdiff_t lda,
         const float *restrict b, ptrdiff_t ldb, float *restrict acc)
{
    __m512 s[4][4];
    UNROLL for (int i = 0; i < 4; i++) UNROLL for (int j = 0; j < 4; j++) if (i < mr && j < nr)
        s[i][j] = _mm512_loadu_ps(acc + (i * 4 + j) * 16);
    size_t k = 0;
    for (; k + 16 <= kc; k += 16) {
        __m512 bv[4];
        UNROLL for (int j = 0; j < 4; j++) if (j < nr) bv[j] = _mm512_loadu_ps(b + j * ldb + k);
        UNROLL for (int i = 0; i < 4; i++) {
            if (i >= mr) break;
            const __m512 av = _mm512_loadu_ps(a + i * lda + k);
            UNROLL for (int j = 0; j < 4; j++) if (j < nr) s[i][j] = _mm512_fmadd_ps(av, bv[j], s[i][j]);
        }
    }
    if (k < kc) {
        const __mmask16 m = (__mmask16)((1u << (kc - k)) - 1u);
        __m512 bv[4];
        UNROLL for (int j = 0; j < 4; j++) if (j < nr) bv[j] = _mm512_maskz_loadu_ps(m, b + j * ldb + k);
        UNROLL for (int i = 0; i < 4; i++) {
            if (i >= mr) break;
            const __m512 av = _mm512_maskz_loadu_ps(m, a + i * lda + k);
            UNROLL for (int j = 0; j < 4; j++) if (j < nr) s[i][j] = _mm512_fmadd_ps(av, bv[j], s[i][j]);
        }
    }
    UNROLL for (int i = 0; i < 4; i++) UNROLL for (int j = 0; j < 4; j++) if (i < mr && j < nr)
        _mm512_storeu_ps(acc + (i * 4 + j) * 16, s[i][j]);
}

#define CASE(m, n)                                                                        \
    case (m) * 8 + (n):                                                                   \
        dot_body(m, n, kc, a, lda, b, ldb, acc);                                          \
        break

PDNN_F32_DOT_UKERNEL(pdnn_f32_dot_ukernel_4x4__avx512)
{
    if (mr > 4) mr = 4;
    if (nr > 4) nr = 4;
    switch (mr * 8 + nr) {
        CASE(4, 4); CASE(4, 3); CASE(4, 2); CASE(4, 1);
        CASE(3, 4); CASE(3, 3); CASE(3, 2); CASE(3, 1);
        CASE(2, 4); CASE(2, 3); CASE(2, 2); CASE(2, 1);
        CASE(1, 4); CASE(1, 3); CASE(1, 2); CASE(1, 1);
    default: break;
    }
}
