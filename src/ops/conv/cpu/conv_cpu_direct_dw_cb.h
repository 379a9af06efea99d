/* Depthwise convolution in channel blocks (internal part of "cpu:direct_dw",
 * conv_cpu_direct_dw.c): f32, multiplier 1, 1-d and 2-d NCHW-like planes (unit column
 * strides, not channels-last) whose rows fit a per-thread buffer (planes in bands of
 * rows; at most 64 taps; stride-1 forward and backward data on well-filled rows one
 * plane at a time, unblocked). Each returns false,
 * touching nothing, when the problem is outside that set (the caller then runs its
 * other paths). */
#ifndef PDNN_CONV_CPU_DIRECT_DW_CB_H
#define PDNN_CONV_CPU_DIRECT_DW_CB_H

#include <stdbool.h>

#include "ops/conv/conv_problem.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_path.h"

bool pdnn_dwcb_fwd(const pdnn_conv_problem *p, const float *x, const float *w, float *y,
                   float alpha, float beta, int nthreads);
bool pdnn_dwcb_bwd_data(const pdnn_conv_problem *p, const float *dy, const float *w, float *dx,
                        float alpha, float beta, int nthreads);
bool pdnn_dwcb_bwd_filter(const pdnn_conv_problem *p, const float *x, const float *dy,
                          float *dw, float alpha, float beta, int nthreads);

/* The three above as a pdnn_dw_path. */
extern const pdnn_dw_path pdnn_dwcb_path;

#endif
