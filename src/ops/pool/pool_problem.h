/* The pooling problem: plain data built by pool_api.c from the descriptors, read by
 * every pooling implementation (internal).
 *
 * Spatial dims are normalised to three, right-aligned: a 2-d problem has
 * in = {1, H, W}, a 1-d problem {1, 1, W}; the unused leading dims have size 1,
 * window 1, stride 1, dilation 1, no padding and memory stride 0, so that every
 * implementation may loop over three spatial dims. */
#ifndef PDNN_POOL_PROBLEM_H
#define PDNN_POOL_PROBLEM_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/desc.h"
#include "core/par.h"

typedef enum {
    PDNN_POOL_FWD = 0, /* y = pool(x) */
    PDNN_POOL_BWD = 1  /* dx = pool^T(dy), with the argmax recomputed from x */
} pdnn_pool_dir;

#define PDNN_POOL_SP_MAX 3 /* spatial dims the implementations compute */

typedef struct {
    pdnn_pool_dir dir;
    pdnnDataType_t dtype;   /* every tensor */
    pdnnPoolingMode_t mode;
    bool nan_prop;          /* max: a NaN in the window wins */
    int nsp;                /* real spatial dims, 1..PDNN_POOL_SP_MAX */
    int64_t n, c;
    int64_t in[PDNN_POOL_SP_MAX];     /* input sizes (D, H, W) */
    int64_t out[PDNN_POOL_SP_MAX];    /* output sizes */
    int64_t win[PDNN_POOL_SP_MAX];
    int64_t stride[PDNN_POOL_SP_MAX];
    int64_t dil[PDNN_POOL_SP_MAX];
    int64_t pad_b[PDNN_POOL_SP_MAX];  /* padding before */
    int64_t pad_e[PDNN_POOL_SP_MAX];  /* padding after (asymmetric extension) */
    /* strides in elements: index 0 = N, 1 = C, 2.. = D, H, W */
    int64_t xs[2 + PDNN_POOL_SP_MAX];  /* x */
    int64_t ys[2 + PDNN_POOL_SP_MAX];  /* FWD: y; BWD: dy */
    int64_t dxs[2 + PDNN_POOL_SP_MAX]; /* BWD: dx */
} pdnn_pool_problem;

/* Arguments of one run. FWD: dst = y. BWD: dy read, dst = dx.
 * dst = alpha * result + beta * dst, dst never read when beta == 0. */
typedef struct {
    const void *x;
    const void *dy;
    void *dst;
    double alpha;
    double beta;
} pdnn_pool_args;

static inline bool pdnn_pool_is_max(pdnnPoolingMode_t m)
{
    return m == PDNN_POOLING_MAX || m == PDNN_POOLING_MAX_DETERMINISTIC;
}

/* Max selection, taps visited in window order (row-major over the window): true when
 * v replaces the current selection cur. PROPAGATE: the first NaN wins and stays;
 * NOT_PROPAGATE: NaNs are skipped (a window of NaNs only selects its first element).
 * Ties keep the earlier element. */
static inline bool pdnn_pool_takes(double v, double cur, bool nan_prop)
{
    if (nan_prop) return !isnan(cur) && (isnan(v) || v > cur);
    return !isnan(v) && (isnan(cur) || v > cur);
}

static inline bool pdnn_pool_takes_f32(float v, float cur, bool nan_prop)
{
    if (nan_prop) return !isnan(cur) && (isnan(v) || v > cur);
    return !isnan(v) && (isnan(cur) || v > cur);
}

/* Threads worth using for a loop over `units` pieces of the problem (pdnn_par_threads):
 * the work counted is the input elements plus the window taps, 1 thread below 32k. */
static inline int pdnn_pool_threads(const pdnn_pool_problem *p, int64_t units, int nthreads)
{
    double in = 1, taps = 1;
    for (int d = 0; d < PDNN_POOL_SP_MAX; d++) {
        in *= (double)p->in[d];
        taps *= (double)p->out[d] * (double)p->win[d];
    }
    return pdnn_par_threads(nthreads, units, (double)p->n * (double)p->c * (in + taps), 32768);
}

/* benchdnn-style key: "mb2ic3ih9iw9oh5ow5kh2kw2sh2sw2ph0pw0dh0dw0_max_f32_fwd" (dilation
 * written as benchdnn's d = dilation - 1; end padding as "peh" only where it differs
 * from the begin padding; "_nanprop" when NaNs propagate; ceil mode shows in the output
 * sizes). */
void pdnn_pool_problem_key(const pdnn_pool_problem *p, char *buf, size_t n);

#endif
