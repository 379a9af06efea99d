/* f32 ldb GEMM micro-kernel, 6 x 64 tile, AVX-512F: the arithmetic and register use of
 * pdnn_f32_gemm_ukernel_6x64__avx512 with B rows read in place (masked last vector).
 * Contract in gemm_ldb_ukernels.h. */
#include <immintrin.h>

#include "cpu/ukernels/gemm/gemm_ldb_ukernels.h"

#define UK_FN pdnn_f32_gemm_ldb_ukernel_6x64__avx512
#define UK_T float
#define UK_MR 6
#define UK_NV 4
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
#include "cpu/ukernels/gemm/gemm_ldb_ukernel_tmpl.h"
