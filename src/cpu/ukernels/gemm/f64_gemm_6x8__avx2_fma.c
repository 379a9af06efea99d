/* f64 GEMM micro-kernel, 6 x 8 tile, AVX2 + FMA3: 12 ymm accumulators (6 rows of two
 * 4-double vectors), two B vectors and one broadcast. Column remainders use vmaskmov
 * loads/stores. Contract in gemm_ukernels.h. */
#include "cpu/ukernels/gemm/gemm_ukernels.h"

#define UK_FN pdnn_f64_gemm_ukernel_6x8__avx2_fma
#define UK_T double
#define UK_MR 6
#define UK_NV 2
#include "cpu/ukernels/gemm/vec_f64_avx2.h"
#include "cpu/ukernels/gemm/gemm_ukernel_tmpl.h"
