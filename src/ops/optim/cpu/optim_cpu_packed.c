/* Optimizer step on packed parameter and gradient tensors: one loop per algorithm,
 * OpenMP over elements, arithmetic in the tensor's type. */
#include <math.h>

#include "core/par.h"
#include "core/registry.h"
#include "ops/optim/optim_problem.h"

#define PAR_MIN_ELEMS 32768 /* below this one thread runs */

#define OPT_T float
#define OPT_SQRT sqrtf
#define OPT_FN step_f32
#include "ops/optim/cpu/optim_step_body.h"
#undef OPT_T
#undef OPT_SQRT
#undef OPT_FN

#define OPT_T double
#define OPT_SQRT sqrt
#define OPT_FN step_f64
#include "ops/optim/cpu/optim_step_body.h"
#undef OPT_T
#undef OPT_SQRT
#undef OPT_FN

static bool supports(const void *prob, const char **why)
{
    const pdnn_optim_problem *p = prob;
    if (!pdnn_tensor_is_packed(&p->w) || !pdnn_tensor_is_packed(&p->dw)) {
        *why = "needs packed (row-major) w and dw";
        return false;
    }
    return true;
}

static pdnnStatus_t exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_optim_problem *p = prob;
    const pdnn_optim_args *a = args;
    pdnn_optim_coefs c = pdnn_optim_coefs_of(p);
    if (p->dtype == PDNN_DATA_DOUBLE)
        step_f64(p, &c, a->w, a->dw, a->state, ctx->nthreads);
    else
        step_f32(p, &c, a->w, a->dw, a->state, ctx->nthreads);
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_optim_cpu_packed = {
    .name = "cpu:packed",
    .algo = -1,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = supports,
    .workspace = NULL,
    .exec = exec,
};
