/* f32 ldb strip kernel, 6 x 16 tiles, AVX2 + FMA3, for the 1x1 convolutions' ldb path
 * (conv_cpu_direct_1x1_ldb.c): the tiles of one row panel of A across a strip of B's
 * columns in one call, each tile the body of the 6 x 16 ldb kernel
 * (gemm_ldb_ukernel_tmpl.h, the same arithmetic per element as
 * pdnn_f32_gemm_ldb_ukernel_6x16__avx2_fma, so the same bits). Its point is the calls it
 * saves: with B's rows read in place, a tile of a 64-channel sum is ~400 cycles of
 * multiply-adds and the kernel's call, dispatch on the tile's width and prefetch set-up
 * cost ~15% beside them (ResNet-50 res2a_branch2c, one thread: 13.5% of the kernel's
 * samples outside its loop). Contract in conv1x1_ukernels.h. */
#include "cpu/ukernels/conv1x1/conv1x1_ukernels.h"

/* the template's kernel (internal linkage: declared static first), for the last,
 * partial tile */
static PDNN_F32_GEMM_LDB_UKERNEL(strip_last);

#define UK_FN strip_last
#define UK_T float
#define UK_MR 6
#define UK_NV 2
#include "cpu/ukernels/gemm/vec_f32_avx2.h"
#include "cpu/ukernels/gemm/gemm_ldb_ukernel_tmpl.h"

PDNN_F32_LDB_STRIP_UKERNEL(pdnn_f32_ldb_strip_6x16__avx2_fma)
{
    if (mr == 0 || n == 0) return;
    if (mr > 6) mr = 6;
    const VMASK mk = VMASK_FIRST(1); /* unused: whole tiles are unmasked */
    size_t j = 0;
    for (; j + 16 <= n; j += 16, b += b_ts)
        uk_body(UK_MR, 2, 0, mk, mr, kc, a, rs_a, cs_a, b, ldb, c + j, rs_c, alpha, beta,
                pf ? pf + j : NULL, pf ? pfn : 0, 0, NULL, 0);
    if (j < n)
        strip_last(mr, n - j, kc, a, rs_a, cs_a, b, ldb, c + j, rs_c, alpha, beta, pf ? pf + j : NULL,
                   pf ? pfn : 0);
}
