/* f32 GEMM micro-kernel, 6 x 64 tile, AVX-512F: 24 zmm accumulators (6 rows of four
 * 16-float vectors); per k four B vectors are loaded and each A element is broadcast
 * into four FMAs. Chosen by measurement over 14x32, 12x32, 8x32, 8x48, 4x96 (docs/PERF.md).
 * Column remainders use masked loads/stores. Contract in gemm_ukernels.h. */
#include "cpu/ukernels/gemm/gemm_ukernels.h"

#define UK_FN pdnn_f32_gemm_ukernel_6x64__avx512
#define UK_T float
#define UK_MR 6
#define UK_NV 4
#include "cpu/ukernels/gemm/vec_f32_avx512.h"
#include "cpu/ukernels/gemm/gemm_ukernel_tmpl.h"
