/* f32 GEMM micro-kernel, 12 x 32 tile, AVX-512F: 24 zmm accumulators (12 rows of two
 * 16-float vectors); per k two B vectors are loaded and each A element is broadcast
 * into two FMAs. Not the general choice (6 x 64 is: docs/PERF.md); picked where the
 * product has at most 32 columns (pdnn_gemm_ukernel_select_nr). Column remainders use
 * masked loads/stores. Contract in gemm_ukernels.h. */
#include "cpu/ukernels/gemm/gemm_ukernels.h"

#define UK_FN pdnn_f32_gemm_ukernel_12x32__avx512
#define UK_T float
#define UK_MR 12
#define UK_NV 2
#include "cpu/ukernels/gemm/vec_f32_avx512.h"
#include "cpu/ukernels/gemm/gemm_ukernel_tmpl.h"
