/* f32 outer-product rows, AVX-512F: 4 vectors a step along each row, the last ones
 * masked. Contract in conv1x1_ukernels.h. */
#include <immintrin.h>

#include "cpu/ukernels/conv1x1/conv1x1_ukernels.h"

PDNN_F32_OUTER_UKERNEL(pdnn_f32_outer_ukernel__avx512)
{
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta), z = _mm512_setzero_ps();
    const int rd = beta != 0.0f; /* c is read */
    for (size_t i = 0; i < m; i++) {
        const __m512 ai = _mm512_set1_ps(a[(ptrdiff_t)i * as]);
        float *ci = c + (ptrdiff_t)i * ldc;
        size_t j = 0;
        for (; j + 64 <= n; j += 64)
            for (int v = 0; v < 4; v++) {
                const __m512 bv = _mm512_loadu_ps(b + j + 16 * v);
                __m512 r = _mm512_mul_ps(va, _mm512_fmadd_ps(ai, bv, z));
                if (rd) r = _mm512_add_ps(r, _mm512_mul_ps(vb, _mm512_loadu_ps(ci + j + 16 * v)));
                _mm512_storeu_ps(ci + j + 16 * v, r);
            }
        for (; j < n; j += 16) {
            const __mmask16 mk =
                n - j >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - j)) - 1u);
            __m512 r = _mm512_mul_ps(va, _mm512_fmadd_ps(ai, _mm512_maskz_loadu_ps(mk, b + j), z));
            if (rd) r = _mm512_add_ps(r, _mm512_mul_ps(vb, _mm512_maskz_loadu_ps(mk, ci + j)));
            _mm512_mask_storeu_ps(ci + j, mk, r);
        }
    }
}
