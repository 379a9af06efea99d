/* f64 GEMM micro-kernel, 6 x 32 tile, AVX-512F: 24 zmm accumulators (6 rows of four
 * 8-double vectors); per k four B vectors are loaded and each A element is broadcast
 * into four FMAs. Column remainders use masked loads/stores. Contract in
 * gemm_ukernels.h. */
#include <immintrin.h>

#include "cpu/ukernels/gemm/gemm_ukernels.h"

#define UK_FN pdnn_f64_gemm_ukernel_6x32__avx512
#define UK_T double
#define UK_MR 6
#define UK_NV 4
#define UK_W 8
#define V __m512d
#define VZERO() _mm512_setzero_pd()
#define VSET1(x) _mm512_set1_pd(x)
#define VLOADU(p) _mm512_loadu_pd(p)
#define VSTOREU(p, v) _mm512_storeu_pd(p, v)
#define VFMA(a, b, acc) _mm512_fmadd_pd(a, b, acc)
#define VMUL(a, b) _mm512_mul_pd(a, b)
#define VADD(a, b) _mm512_add_pd(a, b)
#define VMASK __mmask8
#define VMASK_FIRST(n) ((__mmask8)((1u << (n)) - 1u))
#define VMLOADZ(m, p) _mm512_maskz_loadu_pd(m, p)
#define VMSTORE(p, m, v) _mm512_mask_storeu_pd(p, m, v)
#include "cpu/ukernels/gemm/gemm_ukernel_tmpl.h"
