/* f64 GEMM micro-kernel, 6 x 8 tile, AVX2 + FMA3: 12 ymm accumulators (6 rows of two
 * 4-double vectors), two B vectors and one broadcast. Column remainders use vmaskmov
 * loads/stores. Contract in gemm_ukernels.h. */
#include <immintrin.h>

#include "cpu/ukernels/gemm/gemm_ukernels.h"

#define UK_FN pdnn_f64_gemm_ukernel_6x8__avx2_fma
#define UK_T double
#define UK_MR 6
#define UK_NV 2
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
#include "cpu/ukernels/gemm/gemm_ukernel_tmpl.h"
