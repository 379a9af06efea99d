/* The optimizer-step and gradient-clipping problems (internal): plain data built by
 * optim_api.c and read by the implementations. */
#ifndef PDNN_OPTIM_PROBLEM_H
#define PDNN_OPTIM_PROBLEM_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/desc.h"
#include "core/train_desc.h"

/* One fused step over parameter tensor w with gradient dw. The state holds
 * pdnn_optimizer_nbufs(&opt) buffers of n elements of dtype, one after another, each in
 * w's row-major logical order. */
typedef struct {
    struct pdnnOptimizerStruct opt;
    pdnnDataType_t dtype;
    int64_t n;
    struct pdnnTensorStruct w, dw;
    double lr;
    int64_t step;                 /* t >= 1; t == 1 initialises the state */
} pdnn_optim_problem;

typedef struct {
    void *w;
    const void *dw;
    void *state;
} pdnn_optim_args;

/* Per-step scalars of the update formulas of pdnn/train.h, in double. */
typedef struct {
    bool first;                   /* t == 1: the state is written, not read */
    double lr, wd;                /* wd: L2 term added to the gradient (0 for AdamW) */
    double decay;                 /* AdamW: w *= decay = 1 - lr * weight_decay; else 1 */
    double mu, damp1;             /* SGD / RMSprop momentum, SGD 1 - dampening */
    double b1, c1, b2, c2;        /* Adam: beta1, 1 - beta1, beta2, 1 - beta2 */
    double step_size, bc2_sqrt;   /* Adam: lr / (1 - beta1^t), sqrt(1 - beta2^t) */
    double a, ca;                 /* RMSprop: alpha, 1 - alpha */
    double eps, clr, init;        /* Adagrad: lr / (1 + (t - 1) * lr_decay), initial sum */
    int ib, iga;                  /* RMSprop: state index of b and of ga */
} pdnn_optim_coefs;

static inline pdnn_optim_coefs pdnn_optim_coefs_of(const pdnn_optim_problem *p)
{
    const struct pdnnOptimizerStruct *o = &p->opt;
    double t = (double)p->step;
    pdnn_optim_coefs c = {0};
    c.first = p->step == 1;
    c.lr = p->lr;
    c.wd = o->type == PDNN_OPTIMIZER_ADAMW ? 0.0 : o->weight_decay;
    c.decay = o->type == PDNN_OPTIMIZER_ADAMW ? 1.0 - p->lr * o->weight_decay : 1.0;
    c.mu = o->momentum;
    c.damp1 = 1.0 - o->dampening;
    c.b1 = o->beta1, c.c1 = 1.0 - o->beta1;
    c.b2 = o->beta2, c.c2 = 1.0 - o->beta2;
    if (o->type == PDNN_OPTIMIZER_ADAM || o->type == PDNN_OPTIMIZER_ADAMW) {
        c.step_size = p->lr / (1.0 - pow(o->beta1, t));
        c.bc2_sqrt = sqrt(1.0 - pow(o->beta2, t));
    }
    c.a = o->alpha, c.ca = 1.0 - o->alpha;
    c.eps = o->eps;
    c.clr = p->lr / (1.0 + (t - 1.0) * o->lr_decay);
    c.init = o->init_acc;
    c.ib = 1;
    c.iga = o->momentum > 0.0 ? 2 : 1;
    return c;
}

/* Gradient clipping works tensor by tensor: MEASURE adds sum |g|^p (p = +inf: takes
 * the max |g|, NaN-propagating) of one tensor into *acc; SCALE multiplies it by coef. */
typedef enum { PDNN_CLIP_MEASURE = 0, PDNN_CLIP_SCALE = 1 } pdnn_clip_op;

typedef struct {
    pdnn_clip_op op;
    struct pdnnTensorStruct g;
    int64_t n;
    double norm_type;
} pdnn_clip_problem;

typedef struct {
    void *g;
    double coef;                  /* SCALE */
    double *acc;                  /* MEASURE: sum (or max) updated in place */
} pdnn_clip_args;

/* |v|^p for the measure, with the usual special cases. */
static inline double pdnn_clip_term(double v, double p)
{
    double a = fabs(v);
    return p == 2.0 ? a * a : p == 1.0 ? a : pow(a, p);
}

/* NaN-propagating max (torch.maximum): NaN when either is NaN. */
static inline double pdnn_nanmax(double m, double v)
{
    return (v > m || v != v) ? v : m;
}

#endif
