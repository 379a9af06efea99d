/* f32 ldb GEMM micro-kernel, 8 x 32 tile, AVX-512F, for the 1x1 convolutions' ldb path
 * (conv_cpu_direct_1x1_ldb.c): the body of the 6 x 64 ldb kernel (gemm_ldb_ukernel_tmpl.h,
 * the same arithmetic per element) on 8 rows of 2 vectors, for filters whose rows are a
 * multiple of 8 but not of 6 (16 and 32 output channels: no empty rows summed).
 * Contract in cpu/ukernels/gemm/gemm_ldb_ukernels.h. */
#include "cpu/ukernels/conv1x1/conv1x1_ukernels.h"

#define UK_FN pdnn_f32_gemm_ldb_ukernel_8x32__avx512
#define UK_KUNROLL 4
#define UK_T float
#define UK_MR 8
#define UK_NV 2
#include "cpu/ukernels/gemm/vec_f32_avx512.h"
#include "cpu/ukernels/gemm/gemm_ldb_ukernel_tmpl.h"
