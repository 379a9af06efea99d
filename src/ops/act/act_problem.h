/* The activation problem: plain data built by act_api.c, read by every activation
 * implementation (internal). */
#ifndef PDNN_ACT_PROBLEM_H
#define PDNN_ACT_PROBLEM_H

#include <stdbool.h>
#include <stdint.h>

#include "core/desc.h"
#include "ops/act/act_math.h"

typedef struct {
    bool bwd;                      /* false: y = act(x); true: dx = act'(x) * dy */
    pdnnDataType_t dtype;          /* every tensor's type (FLOAT or DOUBLE) */
    int nb;                        /* rank, 1..PDNN_DIM_MAX */
    int64_t dim[PDNN_DIM_MAX];
    int64_t numel;                 /* > 0: the API returns before building empty problems */
    int64_t xs[PDNN_DIM_MAX];      /* strides of x (both directions) */
    int64_t ys[PDNN_DIM_MAX];      /* y: the output (fwd) or an input (bwd) */
    int64_t dys[PDNN_DIM_MAX];     /* bwd only */
    int64_t dxs[PDNN_DIM_MAX];     /* bwd only: the output */
    pdnn_act_params act;
} pdnn_act_problem;

/* Arguments of one run: fwd reads x and writes out (= y); bwd reads y, dy, x and writes
 * out (= dx). out = alpha * result + beta * out, out never read when beta == 0. Inputs
 * may be the very same view as out (in place), never a partial overlap. */
typedef struct {
    const void *x;
    const void *y;
    const void *dy;
    void *out;
    double alpha;
    double beta;
} pdnn_act_args;

#endif
