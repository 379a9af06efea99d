/* f32 GEMV micro-kernel, 6 rows, AVX-512F: 12 zmm accumulators (two per row), lanes
 * reduced by _mm512_reduce_add_ps. Contract in gemv_ukernels.h. */
#include "cpu/ukernels/gemm/gemv_ukernels.h"

#define UK_FN pdnn_f32_gemv_ukernel_6__avx512
#define UK_T float
#define UK_MR 6
#include "cpu/ukernels/gemm/vec_f32_avx512.h"
#define VHSUM(v) _mm512_reduce_add_ps(v)
#include "cpu/ukernels/gemm/gemv_ukernel_tmpl.h"
