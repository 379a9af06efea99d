/* Channel-blocked depthwise micro-kernels (dwcb_ukernels.h), AVX2 + FMA: two ymm per
 * pixel of 16 channels. conv: blocks of up to 4 outputs of a row in registers; bwdf: up
 * to 6 taps' accumulators in registers over the pixels; pack / unpack in plain C. */
#include <immintrin.h>

#include "cpu/ukernels/dwconv/dwcb_ukernels.h"

#define AI static inline __attribute__((always_inline))
#define DWCB_NAME(op) pdnn_f32_dwcb_##op##__avx2
#include "cpu/ukernels/dwconv/dwcb_plain.h"

enum { LN = PDNN_DWCB_LANES };

AI void conv_blk(const int B, size_t ntap, const ptrdiff_t *toff, const float *w,
                 const float *x, ptrdiff_t xs2, float *y, ptrdiff_t ys2)
{
    __m256 a[4], b[4];
#pragma GCC unroll 4
    for (int k = 0; k < B; k++) a[k] = b[k] = _mm256_setzero_ps();
    for (size_t t = 0; t < ntap; t++) {
        const __m256 w0 = _mm256_loadu_ps(w + t * LN), w1 = _mm256_loadu_ps(w + t * LN + 8);
        const float *xt = x + toff[t];
#pragma GCC unroll 4
        for (int k = 0; k < B; k++) {
            a[k] = _mm256_fmadd_ps(w0, _mm256_loadu_ps(xt + (ptrdiff_t)k * xs2), a[k]);
            b[k] = _mm256_fmadd_ps(w1, _mm256_loadu_ps(xt + (ptrdiff_t)k * xs2 + 8), b[k]);
        }
    }
#pragma GCC unroll 4
    for (int k = 0; k < B; k++) {
        _mm256_storeu_ps(y + (ptrdiff_t)k * ys2, a[k]);
        _mm256_storeu_ps(y + (ptrdiff_t)k * ys2 + 8, b[k]);
    }
}

void pdnn_f32_dwcb_conv__avx2(size_t n1, size_t n2, size_t ntap, const ptrdiff_t *toff,
                              const float *w, const float *x, ptrdiff_t xs1, ptrdiff_t xs2,
                              float *y, ptrdiff_t ys1, ptrdiff_t ys2)
{
    for (size_t o1 = 0; o1 < n1; o1++) {
        const float *xr = x + (ptrdiff_t)o1 * xs1;
        float *yr = y + (ptrdiff_t)o1 * ys1;
        size_t o = 0;
        for (; o + 4 <= n2; o += 4)
            conv_blk(4, ntap, toff, w, xr + (ptrdiff_t)o * xs2, xs2, yr + (ptrdiff_t)o * ys2, ys2);
        const float *xo = xr + (ptrdiff_t)o * xs2;
        float *yo = yr + (ptrdiff_t)o * ys2;
        switch (n2 - o) {
        case 3: conv_blk(3, ntap, toff, w, xo, xs2, yo, ys2); break;
        case 2: conv_blk(2, ntap, toff, w, xo, xs2, yo, ys2); break;
        case 1: conv_blk(1, ntap, toff, w, xo, xs2, yo, ys2); break;
        default: break;
        }
    }
}

/* NT taps (NT <= 6) over every pixel. */
AI void bwdf_grp(const int NT, size_t n1, size_t n2, const ptrdiff_t *toff, const float *x,
                 ptrdiff_t xs1, ptrdiff_t xs2, const float *dy, ptrdiff_t ds1, float *acc)
{
    __m256 a[6], b[6];
    ptrdiff_t off[6];
#pragma GCC unroll 6
    for (int t = 0; t < NT; t++) {
        a[t] = _mm256_loadu_ps(acc + t * LN);
        b[t] = _mm256_loadu_ps(acc + t * LN + 8);
        off[t] = toff[t];
    }
    for (size_t o1 = 0; o1 < n1; o1++) {
        const float *xr = x + (ptrdiff_t)o1 * xs1, *dr = dy + (ptrdiff_t)o1 * ds1;
        for (size_t o2 = 0; o2 < n2; o2++) {
            const __m256 d0 = _mm256_loadu_ps(dr + o2 * LN), d1 = _mm256_loadu_ps(dr + o2 * LN + 8);
            const float *xo = xr + (ptrdiff_t)o2 * xs2;
#pragma GCC unroll 6
            for (int t = 0; t < NT; t++) {
                a[t] = _mm256_fmadd_ps(d0, _mm256_loadu_ps(xo + off[t]), a[t]);
                b[t] = _mm256_fmadd_ps(d1, _mm256_loadu_ps(xo + off[t] + 8), b[t]);
            }
        }
    }
#pragma GCC unroll 6
    for (int t = 0; t < NT; t++) {
        _mm256_storeu_ps(acc + t * LN, a[t]);
        _mm256_storeu_ps(acc + t * LN + 8, b[t]);
    }
}

void pdnn_f32_dwcb_bwdf__avx2(size_t n1, size_t n2, size_t ntap, const ptrdiff_t *toff,
                              const float *x, ptrdiff_t xs1, ptrdiff_t xs2, const float *dy,
                              ptrdiff_t ds1, float *acc)
{
    for (size_t t0 = 0; t0 < ntap;) {
        const size_t left = ntap - t0, ng = (left + 5) / 6, nt = (left + ng - 1) / ng;
        const ptrdiff_t *to = toff + t0;
        float *ac = acc + t0 * LN;
        switch (nt) {
#define G(k) case k: bwdf_grp(k, n1, n2, to, x, xs1, xs2, dy, ds1, ac); break;
        G(6) G(5) G(4) G(3) G(2) G(1)
#undef G
        default: break;
        }
        t0 += nt;
    }
}
