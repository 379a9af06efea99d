/* f64 GEMM micro-kernel, 6 x 32 tile, AVX-512F: 24 zmm accumulators (6 rows of four
 * 8-double vectors); per k four B vectors are loaded and each A element is broadcast
 * into four FMAs. Column remainders use masked loads/stores. Contract in
 * gemm_ukernels.h. */
#include "cpu/ukernels/gemm/gemm_ukernels.h"

#define UK_FN pdnn_f64_gemm_ukernel_6x32__avx512
#define UK_T double
#define UK_MR 6
#define UK_NV 4
#include "cpu/ukernels/gemm/vec_f64_avx512.h"
#include "cpu/ukernels/gemm/gemm_ukernel_tmpl.h"
