/* f32 dot-tile micro-kernel, 4 x 4 pairs of 16 lanes, plain C (a multiply and an add per
 * step). Contract in dot_ukernels.h. */
#include "cpu/ukernels/gemm/dot_ukernels.h"

PDNN_F32_DOT_UKERNEL(pdnn_f32_dot_ukernel_4x4__scalar)
{
    if (mr > 4) mr = 4;
    if (nr > 4) nr = 4;
    for (size_t i = 0; i < mr; i++)
        for (size_t j = 0; j < nr; j++) {
            float *s = acc + (i * 4 + j) * PDNN_DOT_LANES;
            const float *ai = a + (ptrdiff_t)i * lda, *bj = b + (ptrdiff_t)j * ldb;
            for (size_t k = 0; k < kc; k++) s[k % PDNN_DOT_LANES] += ai[k] * bj[k];
        }
}
