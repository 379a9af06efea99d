/* f32 GEMM micro-kernel, 12 x 32 tile, AVX-512F: 24 zmm accumulators (12 rows of two
 * 16-float vectors); per k two B vectors are loaded and each A element is broadcast
 * into two FMAs. Not the general choice (6 x 64 is: docs/PERF.md); picked where the
 * product has at most 32 columns (pdnn_gemm_ukernel_select_nr). Column remainders use
 * masked loads/stores. Contract in gemm_ukernels.h. */
#include <immintrin.h>

#include "cpu/ukernels/gemm/gemm_ukernels.h"

#define UK_FN pdnn_f32_gemm_ukernel_12x32__avx512
#define UK_T float
#define UK_MR 12
#define UK_NV 2
#define UK_W 16
#define V __m512
#define VZERO() _mm512_setzero_ps()
#define VSET1(x) _mm512_set1_ps(x)
#define VLOADU(p) _mm512_loadu_ps(p)
#define VSTOREU(p, v) _mm512_storeu_ps(p, v)
#define VFMA(a, b, acc) _mm512_fmadd_ps(a, b, acc)
#define VMUL(a, b) _mm512_mul_ps(a, b)
#define VADD(a, b) _mm512_add_ps(a, b)
#define VMASK __mmask16
#define VMASK_FIRST(n) ((__mmask16)((1u << (n)) - 1u))
#define VMLOADZ(m, p) _mm512_maskz_loadu_ps(m, p)
#define VMSTORE(p, m, v) _mm512_mask_storeu_ps(p, m, v)
#include "cpu/ukernels/gemm/gemm_ukernel_tmpl.h"
