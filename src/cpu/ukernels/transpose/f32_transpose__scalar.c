/* f32 transpose in plain C, blocks of 8 x 8 (transpose.h); also the f64 transpose and
 * the run-time choice of the f32 kernel. */
#include "cpu/isa.h"
#include "cpu/ukernels/transpose/transpose.h"

#define BLK 8

#define TRANSPOSE_BODY                                                                     \
    for (size_t i0 = 0; i0 < rows; i0 += BLK)                                              \
        for (size_t j0 = 0; j0 < cols; j0 += BLK) {                                        \
            const size_t i1 = rows - i0 < BLK ? rows : i0 + BLK;                           \
            const size_t j1 = cols - j0 < BLK ? cols : j0 + BLK;                           \
            for (size_t j = j0; j < j1; j++)                                               \
                for (size_t i = i0; i < i1; i++)                                           \
                    dst[(ptrdiff_t)j * ldd + (ptrdiff_t)i] = src[(ptrdiff_t)i * lds + (ptrdiff_t)j]; \
        }

void pdnn_f32_transpose__scalar(size_t rows, size_t cols, const float *src, ptrdiff_t lds,
                                float *dst, ptrdiff_t ldd)
{
    TRANSPOSE_BODY
}

void pdnn_f64_transpose(size_t rows, size_t cols, const double *src, ptrdiff_t lds,
                        double *dst, ptrdiff_t ldd)
{
    TRANSPOSE_BODY
}

pdnn_f32_transpose_fn pdnn_f32_transpose_select(void)
{
    switch (pdnn_cpu_isa()) {
    case PDNN_ISA_AVX512: return pdnn_f32_transpose__avx512;
    case PDNN_ISA_AVX2: return pdnn_f32_transpose__avx2;
    default: return pdnn_f32_transpose__scalar;
    }
}
