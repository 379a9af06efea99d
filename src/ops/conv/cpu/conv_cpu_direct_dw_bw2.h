/* Depthwise 3 x 3 backward filter on AVX2 (internal part of "cpu:direct_dw",
 * conv_cpu_direct_dw.c; conv_cpu_direct_dw_bw2.c): f32 at AVX2 exactly (AVX-512 machines
 * keep their paths), backward filter only, multiplier 1, 2-d, 3 x 3 filters at unit
 * dilation, stride 1 x 1 or 2 x 2, non-negative padding, unit column strides, not
 * channels-last, output rows of at most PDNN_DWBW2_MAXW columns (input rows twice that). Each returns false,
 * touching nothing, when the problem is outside that set (the caller then runs its other
 * paths). */
#ifndef PDNN_CONV_CPU_DIRECT_DW_BW2_H
#define PDNN_CONV_CPU_DIRECT_DW_BW2_H

#include <stdbool.h>

#include "ops/conv/conv_problem.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_path.h"

#include "cpu/ukernels/dwconv/dwbw_ukernels.h"

/* Output columns at most (input columns: twice that). */
#define PDNN_DWBW2_MAXW PDNN_DWBW_MAXW

/* Whether the direction p->dir runs here (what the calls below would do; for tests). */
bool pdnn_dwbw2_applies(const pdnn_conv_problem *p);
bool pdnn_dwbw2_bwd_filter(const pdnn_conv_problem *p, const float *x, const float *dy,
                           float *dw, float alpha, float beta, int nthreads);

/* The above as a pdnn_dw_path (forward, backward data: false). */
extern const pdnn_dw_path pdnn_dwbw2_path;

#endif
