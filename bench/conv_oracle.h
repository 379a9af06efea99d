/* The bench drivers' own convolution oracle: plain loops accumulating in double, any
 * element strides, cross-correlation (no filter flip), the three directions. Slow and
 * independent of every library it checks (pdnn-bench --ref=loop, the peers' --mode=C). */
#ifndef PDNN_BENCH_CONV_ORACLE_H
#define PDNN_BENCH_CONV_ORACLE_H

#include <stdbool.h>
#include <stdint.h>

#include "conv_desc_parse.h"

/* Element strides of x (N, C, spatial...), y (N, K, spatial...) and w (K, C/g,
 * kernel...), spatial outermost first. */
typedef struct {
    int64_t xs[5], ys[5], ws[5];
} conv_layout;

/* Packed NCHW x/y with a KCRS filter, or (nhwc) packed channels-last x/y with a KRSC
 * filter (NCDHW / NDHWC and their filters for 3-d, NCW / NWC for 1-d). */
void conv_layout_packed(const conv_desc *d, bool nhwc, conv_layout *l);

/* FWD_D: y = conv(x, w); FWD_B: y = conv(x, w) + bias[k]; BWD_D: x = conv^T(y, w)
 * (y holds dy, the result goes to x); BWD_W: w = sum x * y. Only the output of the
 * direction is written; alpha 1, beta 0. dbl: every buffer holds double, else float.
 * Parallel over the output with OpenMP. */
void conv_oracle(const conv_desc *d, const conv_layout *l, bench_dir dir, bool dbl, void *x,
                 void *w, void *y, const void *bias);

#endif
