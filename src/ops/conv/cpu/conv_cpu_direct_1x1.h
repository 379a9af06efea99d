/* Shared pieces of the direct 1x1 convolutions (conv_cpu_direct_1x1*.c, internal). */
#ifndef PDNN_CONV_CPU_DIRECT_1X1_H
#define PDNN_CONV_CPU_DIRECT_1X1_H

#include "ops/conv/cpu/conv_cpu_gemm.h"

/* The 1x1 family in direction dir: pdnn_conv_gemm_supports, every filter dim 1, no
 * padding before, and no output pixel reading the padding after. */
bool pdnn_conv_1x1_family(const pdnn_conv_problem *p, pdnn_conv_dir dir, const char **why);

/* x and y both have unit channel stride (channels-last): the pixel-major engine. */
bool pdnn_conv_1x1_pixel_major(const pdnn_conv_gemm_geom *g);

#endif
