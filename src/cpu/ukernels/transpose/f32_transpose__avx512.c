/* f32 transpose, AVX-512F: 16 x 16 blocks in registers (transpose16_avx512.h), edge
 * blocks through masked loads and stores (transpose.h). */
#include <stdint.h>

#include "cpu/ukernels/transpose/transpose.h"
#include "cpu/ukernels/transpose/transpose16_avx512.h"

void pdnn_f32_transpose__avx512(size_t rows, size_t cols, const float *src, ptrdiff_t lds,
                                float *dst, ptrdiff_t ldd)
{
    for (size_t i0 = 0; i0 < rows; i0 += 16)
        for (size_t j0 = 0; j0 < cols; j0 += 16) {
            const size_t ni = rows - i0 < 16 ? rows - i0 : 16;
            const size_t nj = cols - j0 < 16 ? cols - j0 : 16;
            const float *s = src + (ptrdiff_t)i0 * lds + (ptrdiff_t)j0;
            float *d = dst + (ptrdiff_t)j0 * ldd + (ptrdiff_t)i0;
            const __mmask16 mi = pdnn_lane_mask16__avx512(ni);
            __m512 c[16];
            pdnn_transpose16x16_load__avx512(s, lds, ni, nj, c);
            for (size_t j = 0; j < nj; j++) _mm512_mask_storeu_ps(d + (ptrdiff_t)j * ldd, mi, c[j]);
        }
}
