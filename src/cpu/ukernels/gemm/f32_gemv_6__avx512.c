/* f32 GEMV micro-kernel, 6 rows, AVX-512F: 12 zmm accumulators (two per row), lanes
 * reduced by _mm512_reduce_add_ps. Contract in gemv_ukernels.h. */
#include <immintrin.h>

#include "cpu/ukernels/gemm/gemv_ukernels.h"

#define UK_FN pdnn_f32_gemv_ukernel_6__avx512
#define UK_T float
#define UK_MR 6
#define UK_W 16
#define V __m512
#define VZERO() _mm512_setzero_ps()
#define VLOADU(p) _mm512_loadu_ps(p)
#define VFMA(a, b, acc) _mm512_fmadd_ps(a, b, acc)
#define VADD(a, b) _mm512_add_ps(a, b)
#define VMASK __mmask16
#define VMASK_FIRST(n) ((__mmask16)((1u << (n)) - 1u))
#define VMLOADZ(m, p) _mm512_maskz_loadu_ps(m, p)
#define VHSUM(v) _mm512_reduce_add_ps(v)
#include "cpu/ukernels/gemm/gemv_ukernel_tmpl.h"
