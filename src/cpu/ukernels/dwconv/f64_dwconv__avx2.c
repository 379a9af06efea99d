/* f64 depthwise micro-kernels, plain C compiled for AVX2; blocks of 8 outputs
 * (two vectors of 4). Contract in dwconv_ukernels.h, body in dwconv_tmpl.h. */
#include "cpu/ukernels/dwconv/dwconv_ukernels.h"

#define UK_T double
#define UK_S f64
#define UK_ISA avx2
#define UK_W 4
#include "cpu/ukernels/dwconv/dwconv_tmpl.h"
