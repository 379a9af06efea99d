/* Activation reference: any rank and strides, double arithmetic, element by element. */
#include "core/dtype.h"
#include "core/par.h"
#include "core/registry.h"
#include "ops/act/act_problem.h"

/* Offset of element `linear` (row-major over dims) for the given strides. */
static int64_t off_of(const pdnn_act_problem *p, const int64_t *stride, int64_t linear)
{
    int64_t off = 0;
    for (int i = p->nb - 1; i >= 0; i--) {
        off += (linear % p->dim[i]) * stride[i];
        linear /= p->dim[i];
    }
    return off;
}

static pdnnStatus_t ref_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_act_problem *p = prob;
    const pdnn_act_args *a = args;
    const pdnnDataType_t t = p->dtype;
    const int64_t n = p->numel;
    const int nth = pdnn_par_threads(ctx->nthreads, n, (double)n, 4096);

    if (!p->bwd) {
#pragma omp parallel for num_threads(nth) schedule(static)
        for (int64_t i = 0; i < n; i++) {
            double x = pdnn_ld(a->x, t, off_of(p, p->xs, i));
            pdnn_blend(a->out, t, off_of(p, p->ys, i), a->alpha, pdnn_act_fwd(&p->act, x),
                       a->beta);
        }
    } else {
#pragma omp parallel for num_threads(nth) schedule(static)
        for (int64_t i = 0; i < n; i++) {
            double x = pdnn_ld(a->x, t, off_of(p, p->xs, i));
            double y = pdnn_ld(a->y, t, off_of(p, p->ys, i));
            double dy = pdnn_ld(a->dy, t, off_of(p, p->dys, i));
            pdnn_blend(a->out, t, off_of(p, p->dxs, i), a->alpha,
                       pdnn_act_bwd(&p->act, x, y, dy), a->beta);
        }
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_act_ref = {
    .name = "ref:act",
    .algo = -1,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = pdnn_supports_any,
    .workspace = NULL,
    .exec = ref_exec,
};
