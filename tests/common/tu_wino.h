/* Harness shared by the Winograd F(4x4, kxk) tests (tests/ops/test_conv_winograd*.c):
 * the five registry entries of one filter size (forward fused / non-fused, backward
 * data fused / non-fused, backward filter non-fused) checked with tu_conv_check against
 * the oracle of tu_conv.h within the variant's relative error bound, on uniform(-1, 1)
 * data.
 *
 * tu_wino_run runs, in this order: a case worked by hand (x and w all ones, padding
 * (k-1)/2, image (k+1)x(k+1)); refusals with a reason (the other filter size, stride 2,
 * dilation 2, a k x (k-2) filter, FLOAT data with DOUBLE accumulation, HALF data, 1-d
 * and 3-d, an entry asked for another direction); then for FLOAT and DOUBLE the shared
 * edges (1x1 image, 70 -> 67 channels channels-last KRSC convolution, depthwise with
 * multiplier 2, zero output channels), the test's own edges and 40 random kxk stride-1
 * shapes (padding 0..k-1 on each side, any layouts, groups, both modes); last 10 random
 * shapes through the public API. */
#ifndef PDNN_TU_WINO_H
#define PDNN_TU_WINO_H

#include <stdbool.h>
#include <stdint.h>

#include "tu_conv.h"

/* Index of an entry in tu_wino.im (the public algorithm each serves is fixed). */
enum {
    TU_WINO_FWD,                 /* PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD */
    TU_WINO_FWD_NONFUSED,        /* PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED */
    TU_WINO_BWD_DATA,            /* PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD */
    TU_WINO_BWD_DATA_NONFUSED,   /* PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED */
    TU_WINO_BWD_FILTER_NONFUSED, /* PDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED */
    TU_WINO_NENTRIES
};

/* One Winograd variant under test. hand_n: the k+1 counts of the filter taps of a row
 * that fall inside the (k+1)-wide image at padding (k-1)/2, so y = hand_n (x) hand_n in
 * the case by hand; hand_m: the k counts of the output rows whose tap r falls inside the
 * image, so dw = hand_m (x) hand_m (both worked out by hand in the test). */
typedef struct {
    const char *label;       /* summary line: "<label>: N direction cases" */
    int k;                   /* filter k x k, stride 1 */
    double tol_f32, tol_f64; /* the variant's documented relative error bound */
    bool channel_lanes;      /* every third random shape has channels-last x and y */
    const pdnn_impl *im[TU_WINO_NENTRIES];
    const int *hand_n, *hand_m;
} tu_wino;

double tu_wino_tol(const tu_wino *w, pdnnDataType_t t);
/* Checks entry e on s (random data, must support) with the given alpha and beta. */
void tu_wino_check(const tu_wino *w, int e, const tu_conv_shape *s, double alpha, double beta);
/* Checks every entry on s, each with alpha from {1, 2, -0.5}, beta from {0, 0, 1, -1.5,
 * 0.5}. */
void tu_wino_check_all(const tu_wino *w, const tu_conv_shape *s);
/* The form pdnn_wino_conv_exec (conv_cpu_wino.h) takes for s in direction dir (forward
 * or backward data): 'c' channel lanes on x and y, 't' channel lanes on a channel-minor
 * copy of x, 'l' tile lanes. */
char tu_wino_route(const tu_conv_shape *s, pdnn_conv_dir dir);
/* The input channels per block of the channel-lane forms' panel schedule for s in
 * direction dir (pdnn_wino_cl_panel_block, fused entries), 0 for the stage-by-stage one.
 * Depends on the L2 size: call after tu_wino_run has set it. */
int64_t tu_wino_panel_block(const tu_conv_shape *s, pdnn_conv_dir dir);
/* Sets the fused blocks to a few tiles (PDNN_CACHE_L2), seeds, runs everything described
 * above with edges(w, t) as the test's own edges, prints the summary line and returns
 * tu_finish(name). */
int tu_wino_run(const tu_wino *w, uint64_t seed,
                void (*edges)(const tu_wino *w, pdnnDataType_t t), const char *name);

#endif
