/* The vector operations of the f32 AVX2 + FMA3 micro-kernels, under the names the kernel
 * templates use (gemm_ukernel_tmpl.h, gemm_ldb_ukernel_tmpl.h, gemv_ukernel_tmpl.h). */
#ifndef PDNN_UKERNELS_GEMM_VEC_F32_AVX2_H
#define PDNN_UKERNELS_GEMM_VEC_F32_AVX2_H

#include <immintrin.h>

#define UK_W 8
#define V __m256
#define VZERO() _mm256_setzero_ps()
#define VSET1(x) _mm256_set1_ps(x)
#define VLOADU(p) _mm256_loadu_ps(p)
#define VSTOREU(p, v) _mm256_storeu_ps(p, v)
#define VFMA(a, b, acc) _mm256_fmadd_ps(a, b, acc)
#define VMUL(a, b) _mm256_mul_ps(a, b)
#define VADD(a, b) _mm256_add_ps(a, b)
#define VMASK __m256i
#define VMASK_FIRST(n) \
    _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(n)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))
#define VMLOADZ(m, p) _mm256_maskload_ps(p, m)
#define VMSTORE(p, m, v) _mm256_maskstore_ps(p, m, v)

#endif
