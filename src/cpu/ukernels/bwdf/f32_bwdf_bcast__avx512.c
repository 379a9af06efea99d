/* The backward filter's broadcast micro-kernel (bwdf_ukernels.h), AVX-512: the 2 NT
 * accumulators in registers over all rows and pixels of a call; per pixel, two dy
 * loads, NT broadcasts from the taps' source rows and 2 NT fused multiply-adds. */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/ukernels/bwdf/bwdf_ukernels.h"

#define AI static inline __attribute__((always_inline))
enum { L = 16, TMAX = PDNN_BWDF_BCAST_TAPS };

AI void bc(const int NT, size_t nrows, size_t q, ptrdiff_t sw, ptrdiff_t rs,
           const float *const *src, ptrdiff_t off, const float *dyt, float *acc)
{
    __m512 a[TMAX][2];
    const float *tp[TMAX];
#pragma GCC unroll 14
    for (int t = 0; t < NT; t++) {
        a[t][0] = _mm512_loadu_ps(acc + 2 * L * t);
        a[t][1] = _mm512_loadu_ps(acc + 2 * L * t + L);
        tp[t] = src[t] + off;
    }
    for (size_t i = 0; i < nrows; i++, dyt += 2 * L * q) {
        const ptrdiff_t ro = (ptrdiff_t)i * rs;
        for (size_t o = 0; o < q; o++) {
            const __m512 d0 = _mm512_loadu_ps(dyt + 2 * L * o);
            const __m512 d1 = _mm512_loadu_ps(dyt + 2 * L * o + L);
            const ptrdiff_t so = ro + (ptrdiff_t)o * sw;
#pragma GCC unroll 14
            for (int t = 0; t < NT; t++) {
                const __m512 b = _mm512_set1_ps(tp[t][so]);
                a[t][0] = _mm512_fmadd_ps(b, d0, a[t][0]);
                a[t][1] = _mm512_fmadd_ps(b, d1, a[t][1]);
            }
        }
    }
#pragma GCC unroll 14
    for (int t = 0; t < NT; t++) {
        _mm512_storeu_ps(acc + 2 * L * t, a[t][0]);
        _mm512_storeu_ps(acc + 2 * L * t + L, a[t][1]);
    }
}

void pdnn_f32_bwdf_bcast__avx512(size_t nt, size_t nrows, size_t q, ptrdiff_t sw, ptrdiff_t rs,
                                 const float *const *src, ptrdiff_t off, const float *dyt,
                                 float *acc)
{
    switch (nt) {
#define BC(n)                                                                                     \
    case n: bc(n, nrows, q, sw, rs, src, off, dyt, acc); break;
        BC(1) BC(2) BC(3) BC(4) BC(5) BC(6) BC(7) BC(8) BC(9) BC(10) BC(11) BC(12) BC(13) BC(14)
#undef BC
    default: break;
    }
}
