/* Gradient clipping on a packed tensor: OpenMP over elements. The measure sums a fixed
 * number of blocks (depending only on the element count), each in order, then the
 * blocks in order: bitwise identical for any thread count. */
#include <math.h>

#include "core/par.h"
#include "core/registry.h"
#include "ops/optim/optim_problem.h"

#define NBLOCKS 64
#define PAR_MIN_ELEMS 32768

static bool supports(const void *prob, const char **why)
{
    const pdnn_clip_problem *p = prob;
    if (!pdnn_tensor_is_packed(&p->g)) {
        *why = "needs a packed (row-major) tensor";
        return false;
    }
    return true;
}

static inline double ldg(const void *g, bool dbl, int64_t i)
{
    return dbl ? ((const double *)g)[i] : (double)((const float *)g)[i];
}

static pdnnStatus_t exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_clip_problem *p = prob;
    const pdnn_clip_args *a = args;
    const int64_t n = p->n;
    const bool dbl = p->g.dtype == PDNN_DATA_DOUBLE;
    const int nt = pdnn_par_threads(ctx->nthreads, n, (double)n, PAR_MIN_ELEMS);
    if (p->op == PDNN_CLIP_SCALE) {
        if (dbl) {
            double *g = a->g, c = a->coef;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
            for (int64_t i = 0; i < n; i++) g[i] *= c;
        } else {
            float *g = a->g;
            double c = a->coef;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
            for (int64_t i = 0; i < n; i++) g[i] = (float)((double)g[i] * c);
        }
        return PDNN_STATUS_SUCCESS;
    }
    const double q = p->norm_type;
    const bool inf = isinf(q);
    double part[NBLOCKS];
    const int nb = n < NBLOCKS ? (int)n : NBLOCKS;
    const int ntb = pdnn_par_threads(ctx->nthreads, nb, (double)n, PAR_MIN_ELEMS);
#pragma omp parallel for num_threads(ntb) schedule(static) if (ntb > 1)
    for (int b = 0; b < nb; b++) {
        double acc = 0.0;
        for (int64_t i = n * b / nb; i < n * (b + 1) / nb; i++) {
            double v = ldg(a->g, dbl, i);
            acc = inf ? pdnn_nanmax(acc, fabs(v)) : acc + pdnn_clip_term(v, q);
        }
        part[b] = acc;
    }
    double acc = *a->acc;
    for (int b = 0; b < nb; b++) acc = inf ? pdnn_nanmax(acc, part[b]) : acc + part[b];
    *a->acc = acc;
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_clip_cpu_packed = {
    .name = "cpu:packed",
    .algo = -1,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = supports,
    .workspace = NULL,
    .exec = exec,
};
