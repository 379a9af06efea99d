/* f32 GEMM micro-kernel, 6 x 16 tile, AVX-512F: 6 zmm accumulators (one 16-float vector
 * a row); per k one B vector is loaded and each A element broadcast into one FMA. Not a
 * general choice (loads bound it at ~6/7 of the FMA peak); picked for the last panel of
 * a product whose columns leave at most 32 for it (pdnn_gemm_ukernel_select_nr), where
 * the 6 x 64 tile would compute 48 or more empty lanes, with A packed for the same 6
 * rows. Column remainders use masked loads/stores. Contract in gemm_ukernels.h. */
#include "cpu/ukernels/gemm/gemm_ukernels.h"

#define UK_FN pdnn_f32_gemm_ukernel_6x16__avx512
#define UK_T float
#define UK_MR 6
#define UK_NV 1
#include "cpu/ukernels/gemm/vec_f32_avx512.h"
#include "cpu/ukernels/gemm/gemm_ukernel_tmpl.h"
