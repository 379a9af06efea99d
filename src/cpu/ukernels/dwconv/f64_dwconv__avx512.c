/* f64 depthwise micro-kernels, plain C compiled for AVX-512; blocks of 16 outputs
 * (two vectors of 8). Contract in dwconv_ukernels.h, body in dwconv_tmpl.h. */
#include "cpu/ukernels/dwconv/dwconv_ukernels.h"

#define UK_T double
#define UK_S f64
#define UK_ISA avx512
#define UK_W 8
#include "cpu/ukernels/dwconv/dwconv_tmpl.h"
