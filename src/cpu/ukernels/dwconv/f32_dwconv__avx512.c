/* f32 depthwise micro-kernels, plain C compiled for AVX-512; blocks of 32 outputs
 * (two vectors of 16). Contract in dwconv_ukernels.h, body in dwconv_tmpl.h. */
#include "cpu/ukernels/dwconv/dwconv_ukernels.h"

#define UK_T float
#define UK_S f32
#define UK_ISA avx512
#define UK_W 16
#include "cpu/ukernels/dwconv/dwconv_tmpl.h"
