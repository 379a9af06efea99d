/* f64 GEMM micro-kernel, 4 x 8 tile, plain C (gcc vectorizes it for SSE2: sixteen
 * 2-wide accumulators). Contract in gemm_ukernels.h. */
#include "cpu/ukernels/gemm/gemm_ukernels.h"

#define UK_FN pdnn_f64_gemm_ukernel_4x8__scalar
#define UK_T double
#define UK_MR 4
#define UK_NR 8
#include "cpu/ukernels/gemm/gemm_ukernel_scalar_tmpl.h"
