/* f32 ldb GEMM micro-kernel, 6 x 64 tile, AVX-512F: the arithmetic and register use of
 * pdnn_f32_gemm_ukernel_6x64__avx512 with B rows read in place (masked last vector); its
 * copying form (pdnn_f32_gemm_ldb_copy_ukernel_6x64__avx512); both with non-temporal
 * stores of C (the _nt_ names).
 * Contract in gemm_ldb_ukernels.h. */
#include <stdint.h>

#include "cpu/ukernels/gemm/gemm_ldb_ukernels.h"

#define UK_FN pdnn_f32_gemm_ldb_ukernel_6x64__avx512
#define UK_FN_COPY pdnn_f32_gemm_ldb_copy_ukernel_6x64__avx512
#define UK_FN_NT pdnn_f32_gemm_ldb_nt_ukernel_6x64__avx512
#define UK_FN_COPY_NT pdnn_f32_gemm_ldb_copy_nt_ukernel_6x64__avx512
#define UK_KUNROLL 2
#define UK_T float
#define UK_MR 6
#define UK_NV 4
#include "cpu/ukernels/gemm/vec_f32_avx512.h"
#include "cpu/ukernels/gemm/gemm_ldb_ukernel_tmpl.h"
