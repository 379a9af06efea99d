/* f32 depthwise micro-kernels, plain C compiled for AVX2; blocks of 16 outputs
 * (two vectors of 8). Contract in dwconv_ukernels.h, body in dwconv_tmpl.h. */
#include "cpu/ukernels/dwconv/dwconv_ukernels.h"

#define UK_T float
#define UK_S f32
#define UK_ISA avx2
#define UK_W 8
#include "cpu/ukernels/dwconv/dwconv_tmpl.h"
