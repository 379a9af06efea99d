/* f32 GEMM micro-kernel, 6 x 8 tile, plain C (gcc vectorizes it for SSE2: twelve
 * 4-wide accumulators). Contract in gemm_ukernels.h. */
#include "cpu/ukernels/gemm/gemm_ukernels.h"

#define UK_FN pdnn_f32_gemm_ukernel_6x8__scalar
#define UK_T float
#define UK_MR 6
#define UK_NR 8
#include "cpu/ukernels/gemm/gemm_ukernel_scalar_tmpl.h"
