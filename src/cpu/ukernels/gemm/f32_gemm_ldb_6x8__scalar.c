/* f32 ldb GEMM micro-kernel, 6 x 8 tile, plain C: the arithmetic of
 * pdnn_f32_gemm_ukernel_6x8__scalar (a multiply and an add per k, not fused) with B rows
 * read in place; only columns j < nr are read. Contract in gemm_ldb_ukernels.h. */
#include "cpu/ukernels/gemm/gemm_ldb_ukernels.h"

#define MR 6
#define NR 8

PDNN_F32_GEMM_LDB_UKERNEL(pdnn_f32_gemm_ldb_ukernel_6x8__scalar)
{
    (void)pf;
    (void)pfn;
    if (mr == 0 || nr == 0) return;
    if (mr > MR) mr = MR;
    if (nr > NR) nr = NR;
    float acc[MR][NR] = {{0}};
    for (size_t k = 0; k < kc; k++) {
        const float *bk = b + (ptrdiff_t)k * ldb;
        for (size_t i = 0; i < mr; i++) {
            const float ai = a[(ptrdiff_t)i * rs_a + (ptrdiff_t)k * cs_a];
            for (size_t j = 0; j < nr; j++) acc[i][j] += ai * bk[j];
        }
    }
    for (size_t i = 0; i < mr; i++)
        for (size_t j = 0; j < nr; j++) {
            float *p = c + (ptrdiff_t)i * rs_c + (ptrdiff_t)j;
            float v = alpha * acc[i][j];
            if (beta != 0) v += beta * *p;
            *p = v;
        }
}
