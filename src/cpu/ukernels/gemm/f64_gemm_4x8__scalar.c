/* f64 GEMM micro-kernel, 4 x 8 tile, plain C (gcc vectorizes it for SSE2: sixteen
 * 2-wide accumulators). Contract in gemm_ukernels.h. */
#include "cpu/ukernels/gemm/gemm_ukernels.h"

#define MR 4
#define NR 8

PDNN_F64_GEMM_UKERNEL(pdnn_f64_gemm_ukernel_4x8__scalar)
{
    if (mr == 0 || nr == 0) return;
    ptrdiff_t ao[MR]; /* row offsets in A; rows past mr repeat row mr - 1 */
    for (int i = 0; i < MR; i++) ao[i] = (ptrdiff_t)((size_t)i < mr ? (size_t)i : mr - 1) * rs_a;
    double acc[MR][NR];
    for (int i = 0; i < MR; i++)
        for (int j = 0; j < NR; j++) acc[i][j] = 0.0;
    for (size_t k = 0; k < kc; k++) {
        double bk[NR];
        for (int j = 0; j < NR; j++) bk[j] = b[j];
        for (int i = 0; i < MR; i++) {
            const double ai = a[ao[i]];
            for (int j = 0; j < NR; j++) acc[i][j] += ai * bk[j];
        }
        a += cs_a;
        b += NR;
    }
    if (mr == MR && nr == NR && cs_c == 1) {
        if (beta == 0.0) {
            for (int i = 0; i < MR; i++)
                for (int j = 0; j < NR; j++) c[i * rs_c + j] = alpha * acc[i][j];
        } else {
            for (int i = 0; i < MR; i++)
                for (int j = 0; j < NR; j++)
                    c[i * rs_c + j] = alpha * acc[i][j] + beta * c[i * rs_c + j];
        }
        return;
    }
    for (size_t i = 0; i < mr; i++) {
        for (size_t j = 0; j < nr; j++) {
            double *p = c + (ptrdiff_t)i * rs_c + (ptrdiff_t)j * cs_c;
            double v = alpha * acc[i][j];
            if (beta != 0.0) v += beta * *p;
            *p = v;
        }
    }
}
