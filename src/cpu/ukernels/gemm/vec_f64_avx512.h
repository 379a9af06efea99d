/* The vector operations of the f64 AVX-512F micro-kernels, under the names the kernel
 * templates use (gemm_ukernel_tmpl.h, gemm_ldb_ukernel_tmpl.h, gemv_ukernel_tmpl.h). */
#ifndef PDNN_UKERNELS_GEMM_VEC_F64_AVX512_H
#define PDNN_UKERNELS_GEMM_VEC_F64_AVX512_H

#include <immintrin.h>

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

#endif
