/* The convolution problem: plain data built by conv_api.c from the descriptors, read
 * by every convolution implementation (internal). */
#ifndef PDNN_CONV_PROBLEM_H
#define PDNN_CONV_PROBLEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/desc.h"

typedef enum {
    PDNN_CONV_FWD = 0,        /* y = conv(x, w) */
    PDNN_CONV_BWD_DATA = 1,   /* dx = conv^T(dy, w) */
    PDNN_CONV_BWD_FILTER = 2  /* dw = corr(x, dy) */
} pdnn_conv_dir;

#define PDNN_CONV_SP_MAX 3 /* spatial dims the implementations compute (1-d, 2-d, 3-d) */

/* Built by conv_api.c after full validation: dims and strides are consistent, y's
 * dims are the output dims, C % g == 0 and K % g == 0. n may be 0 in queries (Get_v7,
 * workspace size), so supports() and workspace() must accept it; exec is never called
 * on a zero-sized problem (the API handles it). */
typedef struct {
    pdnn_conv_dir dir;
    pdnnDataType_t dtype;   /* x, w, y */
    pdnnDataType_t compute; /* accumulation type from the convolution descriptor */
    int nsp;                /* spatial dims, 1..PDNN_CONV_SP_MAX */
    int64_t n;              /* batch */
    int64_t g;              /* groups */
    int64_t c;              /* input channels, all groups (C = g * filter C) */
    int64_t k;              /* output channels, all groups (K = g * K/g) */
    int64_t in[PDNN_CONV_SP_MAX];    /* input spatial sizes (D,) H, W */
    int64_t kern[PDNN_CONV_SP_MAX];  /* filter spatial sizes (T,) R, S */
    int64_t out[PDNN_CONV_SP_MAX];   /* output spatial sizes (O,) P, Q */
    int64_t stride[PDNN_CONV_SP_MAX];
    int64_t dil[PDNN_CONV_SP_MAX];
    int64_t pad_b[PDNN_CONV_SP_MAX]; /* padding before */
    int64_t pad_e[PDNN_CONV_SP_MAX]; /* padding after (asymmetric extension) */
    bool flip;              /* PDNN_CONVOLUTION: filter flipped spatially */
    /* strides in elements, index 0 = N (or K for w), 1 = C, 2.. = spatial */
    int64_t xs[2 + PDNN_CONV_SP_MAX];
    int64_t ys[2 + PDNN_CONV_SP_MAX];
    int64_t ws[2 + PDNN_CONV_SP_MAX]; /* K, C/g, spatial: KCRS or KRSC packed */
    pdnnTensorFormat_t wfmt;
} pdnn_conv_problem;

/* Arguments of one run. FWD: src = x, wei = w, dst = y.
 * BWD_DATA: src = dy, wei = w, dst = dx. BWD_FILTER: src = x, wei = dy, dst = dw.
 * dst = alpha * result + beta * dst, dst never read when beta == 0. */
typedef struct {
    const void *src;
    const void *wei;
    void *dst;
    double alpha;
    double beta;
} pdnn_conv_args;

/* The problem widened to 3 spatial dims, so that 1-d and 2-d problems run through 3-d
 * loops: a missing leading spatial dim has size 1, stride and dilation 1, padding 0 and
 * tensor stride 0. */
typedef struct {
    int64_t in[3], kern[3], out[3], str[3], dil[3], pad[3]; /* pad: before */
    int64_t xs[5], ys[5], ws[5]; /* N (K for w), C, D, H, W strides of x, y and w */
    int64_t cg, kg;              /* channels per group: input, output */
} pdnn_conv_geom3;

void pdnn_conv_widen(const pdnn_conv_problem *p, pdnn_conv_geom3 *g);

/* benchdnn-style key: "mb2ic4ih9iw9oc8oh9ow9kh3kw3sh1sw1ph1pw1dh0dw0g1_f32_fwd" (dilation
 * written as benchdnn's d = dilation - 1; 1-d problems name only w, 3-d ones d, h, w;
 * direction fwd | bwd_d | bwd_w). Used by logs, the Find cache and pdnn-bench.
 * pdnn tags follow, each only where the problem differs from the canonical one
 * (cross-correlation, accumulation in the data type, KCRS filter, packed NCHW x and y):
 * "_accf64" (compute type), "_flip" (PDNN_CONVOLUTION), "_wkrsc" (KRSC filter),
 * "_xnhwc" / "_ynhwc" (packed channels-last), "_xs<N:C:spatial strides>" / "_ys..."
 * (any other strides). The end padding is not written: with the output sizes fixed it
 * changes nothing computed. The key is truncated to n - 1 characters (n >= 192 holds
 * any 3-d problem). */
void pdnn_conv_problem_key(const pdnn_conv_problem *p, char *buf, size_t n);

#endif
