/* f32 Winograd F(4x4, 3x3) transform micro-kernels, plain C compiled for
 * AVX-512 (no FMA contraction under -std=c11).
 * Contract in wino_ukernels.h, arithmetic in wino4x3_tmpl.h. */
#include "cpu/ukernels/winograd/wino_ukernels.h"
#include "cpu/ukernels/winograd/wino_deint_avx512.h"
#include "cpu/ukernels/winograd/wino_inter_avx512.h"

#define UK_DEINT_F32_AVX512
#define UK_INTER_F32_AVX512

#define UK_T float
#define UK_NAME(op) pdnn_f32_wino4x3_##op##__avx512
#include "cpu/ukernels/winograd/wino4x3_tmpl.h"
