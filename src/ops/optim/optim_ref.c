/* Reference optimizer step: plain loop over any strides, double arithmetic, one thread.
 * Each element follows the formulas of pdnn/train.h (torch.optim's documented
 * algorithms). */
#include <math.h>

#include "core/dtype.h"
#include "core/registry.h"
#include "ops/optim/optim_problem.h"

/* One element: w and g in, w and the state values s[] updated in place. */
static double step_elem(const pdnn_optim_problem *p, const pdnn_optim_coefs *c, double w,
                        double g, double *s)
{
    const struct pdnnOptimizerStruct *o = &p->opt;
    w *= c->decay;                        /* AdamW's decoupled decay (1 otherwise) */
    if (c->wd != 0.0) g += c->wd * w;
    switch (o->type) {
    case PDNN_OPTIMIZER_SGD:
        if (c->mu != 0.0) {
            s[0] = c->first ? g : c->mu * s[0] + c->damp1 * g;
            g = o->nesterov ? g + c->mu * s[0] : s[0];
        }
        return w - c->lr * g;
    case PDNN_OPTIMIZER_ADAM:
    case PDNN_OPTIMIZER_ADAMW: {
        s[0] = c->first ? c->c1 * g : c->b1 * s[0] + c->c1 * g;
        s[1] = c->first ? c->c2 * g * g : c->b2 * s[1] + c->c2 * g * g;
        double v = s[1];
        if (o->amsgrad) {
            s[2] = c->first ? s[1] : pdnn_nanmax(s[2], s[1]);
            v = s[2];
        }
        return w - c->step_size * s[0] / (sqrt(v) / c->bc2_sqrt + c->eps);
    }
    case PDNN_OPTIMIZER_RMSPROP: {
        s[0] = c->first ? c->ca * g * g : c->a * s[0] + c->ca * g * g;
        double v = s[0];
        if (o->centered) {
            double *ga = &s[c->iga];
            *ga = c->first ? c->ca * g : c->a * *ga + c->ca * g;
            v -= *ga * *ga;
        }
        double d = sqrt(v) + c->eps;
        if (c->mu > 0.0) {
            double *b = &s[c->ib];
            *b = c->first ? g / d : c->mu * *b + g / d;
            return w - c->lr * *b;
        }
        return w - c->lr * g / d;
    }
    case PDNN_OPTIMIZER_ADAGRAD:
        s[0] = (c->first ? c->init : s[0]) + g * g;
        return w - c->clr * g / (sqrt(s[0]) + c->eps);
    }
    return w;
}

static pdnnStatus_t exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    (void)ctx;
    const pdnn_optim_problem *p = prob;
    const pdnn_optim_args *a = args;
    pdnn_optim_coefs c = pdnn_optim_coefs_of(p);
    int nbufs = pdnn_optimizer_nbufs(&p->opt);
    pdnnDataType_t t = p->dtype;
    for (int64_t i = 0; i < p->n; i++) {
        double s[3] = {0.0, 0.0, 0.0};
        if (!c.first)
            for (int k = 0; k < nbufs; k++) s[k] = pdnn_ld(a->state, t, k * p->n + i);
        int64_t ow = pdnn_offset_of(&p->w, i);
        double w = step_elem(p, &c, pdnn_ld(a->w, t, ow),
                             pdnn_ld(a->dw, t, pdnn_offset_of(&p->dw, i)), s);
        for (int k = 0; k < nbufs; k++) pdnn_st(a->state, t, k * p->n + i, s[k]);
        pdnn_st(a->w, t, ow, w);
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_optim_ref = {
    .name = "cpu:ref",
    .algo = -1,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = pdnn_supports_any,
    .workspace = NULL,
    .exec = exec,
};
