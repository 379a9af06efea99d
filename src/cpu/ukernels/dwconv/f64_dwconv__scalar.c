/* f64 depthwise micro-kernels, plain C compiled for baseline x86-64 (SSE2); blocks of 4 outputs
 * (two vectors of 2). Contract in dwconv_ukernels.h, body in dwconv_tmpl.h. */
#include "cpu/ukernels/dwconv/dwconv_ukernels.h"

#define UK_T double
#define UK_S f64
#define UK_ISA scalar
#define UK_W 2
#include "cpu/ukernels/dwconv/dwconv_tmpl.h"
