/* f32 depthwise micro-kernels, plain C compiled for baseline x86-64 (SSE2); blocks of 8 outputs
 * (two vectors of 4). Contract in dwconv_ukernels.h, body in dwconv_tmpl.h. */
#include "cpu/ukernels/dwconv/dwconv_ukernels.h"

#define UK_T float
#define UK_S f32
#define UK_ISA scalar
#define UK_W 4
#include "cpu/ukernels/dwconv/dwconv_tmpl.h"
