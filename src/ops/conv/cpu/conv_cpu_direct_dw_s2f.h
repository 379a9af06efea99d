/* Stride-2 3 x 3 depthwise forward and backward filter with the x rows' column phases in
 * registers (internal part of "cpu:direct_dw", conv_cpu_direct_dw.c;
 * conv_cpu_direct_dw_s2f.c): f32 at AVX-512, multiplier 1, 2-d, stride 2 x 2, unit
 * dilation, 3 x 3 filters, non-negative padding, unit column strides, not channels-last,
 * output rows of at most 15 columns at any minibatch, 16 to 32 up to 3136 output pixels
 * a channel (all images), at most 64 rows (backward data returns false). Each returns false, touching nothing, when the problem is outside that set
 * (the caller then runs its other paths). */
#ifndef PDNN_CONV_CPU_DIRECT_DW_S2F_H
#define PDNN_CONV_CPU_DIRECT_DW_S2F_H

#include <stdbool.h>

#include "ops/conv/conv_problem.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_path.h"

/* Whether the direction p->dir runs here (what the calls below would do; for tests). */
bool pdnn_dws2f_applies(const pdnn_conv_problem *p);
bool pdnn_dws2f_fwd(const pdnn_conv_problem *p, const float *x, const float *w, float *y,
                    float alpha, float beta, int nthreads);
bool pdnn_dws2f_bwd_filter(const pdnn_conv_problem *p, const float *x, const float *dy,
                           float *dw, float alpha, float beta, int nthreads);

/* The two above as a pdnn_dw_path (backward data: false). */
extern const pdnn_dw_path pdnn_dws2f_path;

#endif
