/* The vector operations of the f32 AVX-512F micro-kernels, under the names the kernel
 * templates use (gemm_ukernel_tmpl.h, gemm_ldb_ukernel_tmpl.h, gemv_ukernel_tmpl.h). */
#ifndef PDNN_UKERNELS_GEMM_VEC_F32_AVX512_H
#define PDNN_UKERNELS_GEMM_VEC_F32_AVX512_H

#include <immintrin.h>

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
#define VSTREAM(p, v) _mm512_stream_ps(p, v) /* p 64-byte aligned */

#endif
