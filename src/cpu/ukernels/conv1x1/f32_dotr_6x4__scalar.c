/* f32 dot-tile kernel with the lane sums in one pass, 6 x 4 pairs of 16 lanes, plain C
 * (a multiply and an add per step): the reference of the AVX-512 kernel. Contract in
 * conv1x1_ukernels.h. */
#include "cpu/ukernels/conv1x1/conv1x1_ukernels.h"

#define L PDNN_DOTR_LANES
#define NR PDNN_DOTR_NR

PDNN_F32_DOTR_UKERNEL(pdnn_f32_dotr_ukernel_6x4__scalar)
{
    if (mr > PDNN_DOTR_MR) mr = PDNN_DOTR_MR;
    if (nr > NR) nr = NR;
    for (size_t i = 0; i < mr; i++)
        for (size_t j = 0; j < nr; j++) {
            float s[L];
            for (int l = 0; l < L; l++)
                s[l] = (mode & PDNN_DOTR_LOAD) ? acc[(i * NR + j) * L + (size_t)l] : 0.0f;
            for (size_t m = 0; m < nimg; m++) {
                const float *ai = a + (ptrdiff_t)m * as + (ptrdiff_t)i * lda;
                const float *bj = b + (ptrdiff_t)m * bs + (ptrdiff_t)j * ldb;
                for (size_t k = 0; k < kc; k++) {
                    const float p = ai[k] * bj[k];
                    s[k % L] = s[k % L] + p;
                }
            }
            if (mode & PDNN_DOTR_STORE) {
                for (int l = 0; l < L; l++) acc[(i * NR + j) * L + (size_t)l] = s[l];
                continue;
            }
            for (int h = L / 2; h >= 1; h /= 2)
                for (int l = 0; l < h; l++) s[l] = s[l] + s[l + h];
            float *e = c + (ptrdiff_t)i * ldc + (ptrdiff_t)j;
            float v = alpha * s[0];
            if (beta != 0) {
                const float w = beta * *e;
                v = v + w;
            }
            *e = v;
        }
}
