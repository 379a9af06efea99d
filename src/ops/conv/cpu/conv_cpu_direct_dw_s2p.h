/* Stride-2 depthwise convolution of small planes, two output rows a vector (internal
 * part of "cpu:direct_dw", conv_cpu_direct_dw.c; conv_cpu_direct_dw_s2p.c): f32 at
 * AVX-512, multiplier 1, 2-d, stride 2 x 2, unit dilation, filters up to 7 x 7, unit
 * column strides, not channels-last, output rows of S2P_OW_MIN to 8 columns with
 * 2 (OW - 1) + kw <= 16, input rows of at most 16 columns. Each returns false, touching
 * nothing, when the problem is outside that set (the caller then runs its other paths). */
#ifndef PDNN_CONV_CPU_DIRECT_DW_S2P_H
#define PDNN_CONV_CPU_DIRECT_DW_S2P_H

#include <stdbool.h>

#include "ops/conv/conv_problem.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_path.h"

/* Whether the direction p->dir runs here (what the calls below would do; for tests). */
bool pdnn_dws2p_applies(const pdnn_conv_problem *p);
bool pdnn_dws2p_fwd(const pdnn_conv_problem *p, const float *x, const float *w, float *y,
                    float alpha, float beta, int nthreads);
bool pdnn_dws2p_bwd_data(const pdnn_conv_problem *p, const float *dy, const float *w,
                         float *dx, float alpha, float beta, int nthreads);
bool pdnn_dws2p_bwd_filter(const pdnn_conv_problem *p, const float *x, const float *dy,
                           float *dw, float alpha, float beta, int nthreads);

/* The three above as a pdnn_dw_path. */
extern const pdnn_dw_path pdnn_dws2p_path;

#endif
