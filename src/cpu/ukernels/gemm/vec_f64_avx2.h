/* The vector operations of the f64 AVX2 + FMA3 micro-kernels, under the names the kernel
 * templates use (gemm_ukernel_tmpl.h, gemm_ldb_ukernel_tmpl.h, gemv_ukernel_tmpl.h). */
#ifndef PDNN_UKERNELS_GEMM_VEC_F64_AVX2_H
#define PDNN_UKERNELS_GEMM_VEC_F64_AVX2_H

#include <immintrin.h>

#define UK_W 4
#define V __m256d
#define VZERO() _mm256_setzero_pd()
#define VSET1(x) _mm256_set1_pd(x)
#define VLOADU(p) _mm256_loadu_pd(p)
#define VSTOREU(p, v) _mm256_storeu_pd(p, v)
#define VFMA(a, b, acc) _mm256_fmadd_pd(a, b, acc)
#define VMUL(a, b) _mm256_mul_pd(a, b)
#define VADD(a, b) _mm256_add_pd(a, b)
#define VMASK __m256i
#define VMASK_FIRST(n) \
    _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)(n)), _mm256_setr_epi64x(0, 1, 2, 3))
#define VMLOADZ(m, p) _mm256_maskload_pd(p, m)
#define VMSTORE(p, m, v) _mm256_maskstore_pd(p, m, v)

#endif
