/* Depthwise convolution on masked flat planes (internal part of "cpu:direct_dw",
 * conv_cpu_direct_dw.c; conv_cpu_direct_dw_flat.c): f32 at AVX-512, multiplier 1, 1-d and
 * 2-d flat planes (rows back to back), stride 1, output width = input width, up to
 * PDNN_DWMF_TAPS taps, destination planes of at most MF_GRID_MAX elements, where the other
 * paths do not measure faster (conv_cpu_direct_dw_flat.c). Each returns
 * false, touching nothing, when the problem is outside that set (the caller then runs its
 * other paths). */
#ifndef PDNN_CONV_CPU_DIRECT_DW_FLAT_H
#define PDNN_CONV_CPU_DIRECT_DW_FLAT_H

#include <stdbool.h>

#include "ops/conv/conv_problem.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_path.h"

/* Whether the direction p->dir runs here (what the calls below would do; for tests). */
bool pdnn_dwmf_applies(const pdnn_conv_problem *p);
bool pdnn_dwmf_fwd(const pdnn_conv_problem *p, const float *x, const float *w, float *y,
                   float alpha, float beta, int nthreads);
bool pdnn_dwmf_bwd_data(const pdnn_conv_problem *p, const float *dy, const float *w, float *dx,
                        float alpha, float beta, int nthreads);
bool pdnn_dwmf_bwd_filter(const pdnn_conv_problem *p, const float *x, const float *dy,
                          float *dw, float alpha, float beta, int nthreads);

/* The three above as a pdnn_dw_path. */
extern const pdnn_dw_path pdnn_dwmf_path;

#endif
