/* Stride-2 depthwise convolution on NCHW planes read in place (internal part of
 * "cpu:direct_dw", conv_cpu_direct_dw.c; conv_cpu_direct_dw_s2.c): f32 at AVX-512,
 * multiplier 1, 2-d, stride 2 x 2, unit dilation, filters up to 7 x 7, unit column
 * strides, not channels-last. Each returns false, touching nothing, when the problem
 * is outside that set (the caller then runs its other paths). */
#ifndef PDNN_CONV_CPU_DIRECT_DW_S2_H
#define PDNN_CONV_CPU_DIRECT_DW_S2_H

#include <stdbool.h>

#include "cpu/ukernels/dwconv/dws2_ukernels.h"
#include "ops/conv/conv_problem.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_path.h"

/* The set both stride-2 paths (this one and conv_cpu_direct_dw_s2p.c) share: the above,
 * non-negative padding, and for backward filter at least PDNN_DWS2_W_MIN output pixels a
 * channel (all images; below it the channel blocks of conv_cpu_direct_dw_cb.c measure
 * faster, their per-channel cost spread over 16 channels: MobileNet-v2 at minibatch 1, 1
 * thread, 14x14 -> 7x7 15 against 26 us, 28x28 -> 14x14 16-21 against 25-33 us; at 784
 * pixels, 56x56 -> 28x28, 72 against 89 us here). g: the planes' geometry when true. */
#define PDNN_DWS2_W_MIN 392
bool pdnn_dws2_shape(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G, pdnn_dws2_geom *g);

/* Whether the direction p->dir runs here (what the calls below would do; for tests). */
bool pdnn_dws2_applies(const pdnn_conv_problem *p);
bool pdnn_dws2_fwd(const pdnn_conv_problem *p, const float *x, const float *w, float *y,
                   float alpha, float beta, int nthreads);
bool pdnn_dws2_bwd_data(const pdnn_conv_problem *p, const float *dy, const float *w, float *dx,
                        float alpha, float beta, int nthreads);
bool pdnn_dws2_bwd_filter(const pdnn_conv_problem *p, const float *x, const float *dy,
                          float *dw, float alpha, float beta, int nthreads);

/* The three above as a pdnn_dw_path. */
extern const pdnn_dw_path pdnn_dws2_path;

#endif
