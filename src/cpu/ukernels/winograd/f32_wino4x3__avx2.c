/* f32 Winograd F(4x4, 3x3) transform micro-kernels, plain C compiled for
 * AVX2 + FMA3 (no FMA contraction under -std=c11).
 * Contract in wino_ukernels.h, arithmetic in wino4x3_tmpl.h. */
#include "cpu/ukernels/winograd/wino_ukernels.h"

#define UK_T float
#define UK_NAME(op) pdnn_f32_wino4x3_##op##__avx2
#include "cpu/ukernels/winograd/wino4x3_tmpl.h"
