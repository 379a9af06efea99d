/* f32 outer-product rows, plain C: the reference of the AVX-512 kernel. Contract in
 * conv1x1_ukernels.h. */
#include <math.h>

#include "cpu/ukernels/conv1x1/conv1x1_ukernels.h"

PDNN_F32_OUTER_UKERNEL(pdnn_f32_outer_ukernel__scalar)
{
    for (size_t i = 0; i < m; i++) {
        const float ai = a[(ptrdiff_t)i * as];
        float *ci = c + (ptrdiff_t)i * ldc;
        for (size_t j = 0; j < n; j++) {
            const float p = fmaf(ai, b[j], 0.0f); /* the ldb kernels' sum of one step */
            const float v = alpha * p;
            ci[j] = beta != 0.0f ? v + beta * ci[j] : v;
        }
    }
}
