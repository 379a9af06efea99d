/* The softmax problem: plain data built by softmax_api.c, read by every softmax
 * implementation (internal).
 *
 * Dimension 0 is N, dimension 1 is C and the others are spatial. A softmax "row" is the
 * set of elements reduced together: INSTANCE mode reduces dims 1..nb-1 (C and spatial)
 * for each n; CHANNEL mode reduces dim 1 (C) for each n and spatial position. */
#ifndef PDNN_SOFTMAX_PROBLEM_H
#define PDNN_SOFTMAX_PROBLEM_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/desc.h"

enum { PDNN_SM_IN0 = 0, PDNN_SM_IN1 = 1, PDNN_SM_OUT = 2 };

typedef struct {
    bool bwd;
    pdnnSoftmaxAlgorithm_t algo;
    pdnnSoftmaxMode_t mode;
    pdnnDataType_t dtype;         /* every tensor's type (FLOAT or DOUBLE) */
    int nb;                       /* rank, 2..PDNN_DIM_MAX */
    int64_t dim[PDNN_DIM_MAX];    /* every dim > 0: the API returns before empty problems */
    /* strides per tensor: fwd IN0 = x, OUT = y (IN1 unused, a copy of OUT);
     * bwd IN0 = y, IN1 = dy, OUT = dx */
    int64_t s[3][PDNN_DIM_MAX];
} pdnn_softmax_problem;

/* fwd: in0 = x, out = y. bwd: in0 = y, in1 = dy, out = dx. out = alpha * result +
 * beta * out, never read when beta == 0. An input may be the very same view as out. */
typedef struct {
    const void *in0;
    const void *in1;
    void *out;
    double alpha;
    double beta;
} pdnn_softmax_args;

/* True when dim i is reduced (belongs to a row). */
static inline bool pdnn_softmax_reduces(const pdnn_softmax_problem *p, int i)
{
    return p->mode == PDNN_SOFTMAX_MODE_INSTANCE ? i >= 1 : i == 1;
}

/* Compensated (Neumaier) running sum: exact to about one rounding of the total. */
typedef struct {
    double s, c;
} pdnn_ksum;

static inline void pdnn_ksum_add(pdnn_ksum *k, double v)
{
    double t = k->s + v;
    if (fabs(k->s) >= fabs(v))
        k->c += (k->s - t) + v;
    else
        k->c += (v - t) + k->s;
    k->s = t;
}

static inline double pdnn_ksum_get(const pdnn_ksum *k)
{
    return k->s + k->c;
}

/* log of a sum of exp(x - max) terms, one of which is exactly 1 (the max's): computed
 * as log1p(sum - 1), which keeps full relative accuracy when the others are small and
 * log(sum) is close to 0 (s - 1 is exact for s in [1, 2]). */
static inline double pdnn_ksum_log(const pdnn_ksum *k)
{
    return log1p((k->s - 1.0) + k->c);
}

#endif
