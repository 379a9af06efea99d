/* f32 GEMM micro-kernel, 6 x 16 tile, AVX2 + FMA3: 12 ymm accumulators (6 rows of two
 * 8-float vectors), two B vectors and one broadcast: 15 of the 16 registers. Column
 * remainders use vmaskmov loads/stores. Contract in gemm_ukernels.h. */
#include "cpu/ukernels/gemm/gemm_ukernels.h"

#define UK_FN pdnn_f32_gemm_ukernel_6x16__avx2_fma
#define UK_T float
#define UK_MR 6
#define UK_NV 2
#include "cpu/ukernels/gemm/vec_f32_avx2.h"
#include "cpu/ukernels/gemm/gemm_ukernel_tmpl.h"
