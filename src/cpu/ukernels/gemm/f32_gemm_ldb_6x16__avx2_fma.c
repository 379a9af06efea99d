/* f32 ldb GEMM micro-kernel, 6 x 16 tile, AVX2 + FMA3: the arithmetic and register use
 * of pdnn_f32_gemm_ukernel_6x16__avx2_fma with B rows read in place (vmaskmov for the
 * last vector); and its copying form (pdnn_f32_gemm_ldb_copy_ukernel_6x16__avx2_fma).
 * Contract in gemm_ldb_ukernels.h. */
#include "cpu/ukernels/gemm/gemm_ldb_ukernels.h"

#define UK_FN pdnn_f32_gemm_ldb_ukernel_6x16__avx2_fma
#define UK_FN_COPY pdnn_f32_gemm_ldb_copy_ukernel_6x16__avx2_fma
#define UK_T float
#define UK_MR 6
#define UK_NV 2
#include "cpu/ukernels/gemm/vec_f32_avx2.h"
#include "cpu/ukernels/gemm/gemm_ldb_ukernel_tmpl.h"
