/* Row-vector 3 x 3 depthwise convolution (internal part of "cpu:direct_dw",
 * conv_cpu_direct_dw.c; conv_cpu_direct_dw_row.c): f32 at AVX-512, multiplier 1, 2-d flat
 * NCHW planes (rows back to back), 3 x 3 filters at stride 1, unit dilation, padding 1
 * (output = input size), rows of at least 7 columns, where it measures
 * faster than the other paths (conv_cpu_direct_dw_row.c). Each returns false, touching
 * nothing, when the problem is outside that set (the caller then runs its other paths). */
#ifndef PDNN_CONV_CPU_DIRECT_DW_ROW_H
#define PDNN_CONV_CPU_DIRECT_DW_ROW_H

#include <stdbool.h>

#include "ops/conv/conv_problem.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_path.h"

/* Whether the direction p->dir runs here (what the calls below would do; for tests). */
bool pdnn_dwrow_applies(const pdnn_conv_problem *p);
bool pdnn_dwrow_fwd(const pdnn_conv_problem *p, const float *x, const float *w, float *y,
                    float alpha, float beta, int nthreads);
bool pdnn_dwrow_bwd_data(const pdnn_conv_problem *p, const float *dy, const float *w,
                         float *dx, float alpha, float beta, int nthreads);
bool pdnn_dwrow_bwd_filter(const pdnn_conv_problem *p, const float *x, const float *dy,
                           float *dw, float alpha, float beta, int nthreads);

/* The three above as a pdnn_dw_path. */
extern const pdnn_dw_path pdnn_dwrow_path;

#endif
