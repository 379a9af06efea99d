/* f32 GEMV micro-kernel, 6 rows, AVX2 + FMA3: 12 ymm accumulators (two per row), lanes
 * reduced in a fixed tree. Contract in gemv_ukernels.h. */
#include "cpu/ukernels/gemm/gemv_ukernels.h"
#include "cpu/ukernels/gemm/vec_f32_avx2.h"

static inline float hsum256(__m256 v)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
    return _mm_cvtss_f32(s);
}

#define UK_FN pdnn_f32_gemv_ukernel_6__avx2_fma
#define UK_T float
#define UK_MR 6
#define VHSUM(v) hsum256(v)
#include "cpu/ukernels/gemm/gemv_ukernel_tmpl.h"
