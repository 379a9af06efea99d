/* AVX2 3 x 3 depthwise planes (internal part of "cpu:direct_dw", conv_cpu_direct_dw.c;
 * conv_cpu_direct_dw_a2.c): forward and backward data, f32 at AVX2 (not at AVX-512, whose
 * paths keep their own dispatch), multiplier 1, 2-d NCHW planes (unit column strides,
 * rows and planes at any pitch), 3 x 3 filters at unit dilation, padding 1, stride 1 x 1
 * with the output size = the input size or stride 2 x 2 with the output (H - 1) / 2 + 1
 * x (W - 1) / 2 + 1. Each returns false, touching nothing, when the problem is outside
 * that set (the caller then runs its other paths). */
#ifndef PDNN_CONV_CPU_DIRECT_DW_A2_H
#define PDNN_CONV_CPU_DIRECT_DW_A2_H

#include <stdbool.h>

#include "ops/conv/conv_problem.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_path.h"

/* Whether the direction p->dir runs here (what the calls below would do; for tests). */
bool pdnn_dwa2_applies(const pdnn_conv_problem *p);
bool pdnn_dwa2_fwd(const pdnn_conv_problem *p, const float *x, const float *w, float *y,
                   float alpha, float beta, int nthreads);
bool pdnn_dwa2_bwd_data(const pdnn_conv_problem *p, const float *dy, const float *w,
                        float *dx, float alpha, float beta, int nthreads);
/* The two above as a pdnn_dw_path (backward filter not served). */
extern const pdnn_dw_path pdnn_dwa2_path;

#endif
