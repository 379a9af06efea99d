/* f32 GEMV micro-kernel, 4 rows, plain C: each row summed in increasing k (a multiply
 * and an add, not fused). Contract in gemv_ukernels.h. */
#include "cpu/ukernels/gemm/gemv_ukernels.h"

PDNN_F32_GEMV_UKERNEL(pdnn_f32_gemv_ukernel_4__scalar)
{
    if (mr > 4) mr = 4;
    for (size_t i = 0; i < mr; i++) {
        const float *ai = a + (ptrdiff_t)i * lda;
        float s = 0;
        for (size_t k = 0; k < kc; k++) s += ai[k] * x[k];
        float v = alpha * s;
        if (beta != 0) v += beta * y[(ptrdiff_t)i * incy];
        y[(ptrdiff_t)i * incy] = v;
    }
}
