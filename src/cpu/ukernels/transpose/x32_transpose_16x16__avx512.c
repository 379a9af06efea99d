/* 32-bit 16 x 16 transpose, AVX-512F: 16 masked row loads, four shuffle stages
 * (unpack pairs, 4 x 4 within 128-bit lanes, then 128-bit lanes twice), 16 masked row
 * stores. Contract in transpose_ukernels.h. */
#include <immintrin.h>

#include "cpu/ukernels/transpose/transpose_ukernels.h"

#define UNROLL _Pragma("GCC unroll 16")

PDNN_X32_TRANSPOSE_UKERNEL(pdnn_x32_transpose_ukernel_16x16__avx512)
{
    if (ni > 16) ni = 16;
    if (nj > 16) nj = 16;
    if (ni == 0 || nj == 0) return;
    const __mmask16 mj = (__mmask16)((1u << nj) - 1u), mi = (__mmask16)((1u << ni) - 1u);
    __m512 r[16], t[16], u[16], v[16];
    UNROLL for (int i = 0; i < 16; i++)
        r[i] = (size_t)i < ni ? _mm512_maskz_loadu_ps(mj, src + (ptrdiff_t)i * lds) : _mm512_setzero_ps();
    UNROLL for (int p = 0; p < 8; p++) { /* rows 2p, 2p + 1 */
        t[2 * p] = _mm512_unpacklo_ps(r[2 * p], r[2 * p + 1]);
        t[2 * p + 1] = _mm512_unpackhi_ps(r[2 * p], r[2 * p + 1]);
    }
    /* u[4g + m], lane L: rows 4g .. 4g + 3 of column 4L + m */
    UNROLL for (int g = 0; g < 4; g++) {
        u[4 * g + 0] = _mm512_shuffle_ps(t[4 * g], t[4 * g + 2], 0x44);
        u[4 * g + 1] = _mm512_shuffle_ps(t[4 * g], t[4 * g + 2], 0xEE);
        u[4 * g + 2] = _mm512_shuffle_ps(t[4 * g + 1], t[4 * g + 3], 0x44);
        u[4 * g + 3] = _mm512_shuffle_ps(t[4 * g + 1], t[4 * g + 3], 0xEE);
    }
    /* v[m] = (u[m] L0, L2, u[4+m] L0, L2), v[4+m] = (L1, L3 ...); v[8..15] from u[8..15] */
    UNROLL for (int h = 0; h < 2; h++) UNROLL for (int m = 0; m < 4; m++) {
        v[8 * h + m] = _mm512_shuffle_f32x4(u[8 * h + m], u[8 * h + 4 + m], 0x88);
        v[8 * h + 4 + m] = _mm512_shuffle_f32x4(u[8 * h + m], u[8 * h + 4 + m], 0xDD);
    }
    /* column 4L + m of the block (row 4L + m of dst) */
    UNROLL for (int m = 0; m < 4; m++) {
        const __m512 o0 = _mm512_shuffle_f32x4(v[m], v[8 + m], 0x88);      /* L = 0 */
        const __m512 o2 = _mm512_shuffle_f32x4(v[m], v[8 + m], 0xDD);      /* L = 2 */
        const __m512 o1 = _mm512_shuffle_f32x4(v[4 + m], v[12 + m], 0x88); /* L = 1 */
        const __m512 o3 = _mm512_shuffle_f32x4(v[4 + m], v[12 + m], 0xDD); /* L = 3 */
        if ((size_t)m < nj) _mm512_mask_storeu_ps(dst + (ptrdiff_t)m * ldd, mi, o0);
        if ((size_t)(4 + m) < nj) _mm512_mask_storeu_ps(dst + (ptrdiff_t)(4 + m) * ldd, mi, o1);
        if ((size_t)(8 + m) < nj) _mm512_mask_storeu_ps(dst + (ptrdiff_t)(8 + m) * ldd, mi, o2);
        if ((size_t)(12 + m) < nj) _mm512_mask_storeu_ps(dst + (ptrdiff_t)(12 + m) * ldd, mi, o3);
    }
}
