/* Reference gradient clipping: measure and scale one tensor of any strides, in order,
 * one thread, double accumulation. */
#include <math.h>

#include "core/dtype.h"
#include "core/registry.h"
#include "ops/optim/optim_problem.h"

static pdnnStatus_t exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    (void)ctx;
    const pdnn_clip_problem *p = prob;
    const pdnn_clip_args *a = args;
    pdnnDataType_t t = p->g.dtype;
    if (p->op == PDNN_CLIP_SCALE) {
        for (int64_t i = 0; i < p->n; i++) {
            int64_t o = pdnn_offset_of(&p->g, i);
            pdnn_st(a->g, t, o, pdnn_ld(a->g, t, o) * a->coef);
        }
        return PDNN_STATUS_SUCCESS;
    }
    double acc = *a->acc;
    bool inf = isinf(p->norm_type);
    for (int64_t i = 0; i < p->n; i++) {
        double v = pdnn_ld(a->g, t, pdnn_offset_of(&p->g, i));
        acc = inf ? pdnn_nanmax(acc, fabs(v)) : acc + pdnn_clip_term(v, p->norm_type);
    }
    *a->acc = acc;
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_clip_ref = {
    .name = "cpu:ref",
    .algo = -1,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = pdnn_supports_any,
    .workspace = NULL,
    .exec = exec,
};
