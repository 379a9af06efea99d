/* Softmax reference: any rank and strides, rows walked in logical order, exp and sums in
 * double (sums compensated), one row at a time. */
#include <math.h>

#include "core/dtype.h"
#include "core/par.h"
#include "core/registry.h"
#include "ops/softmax/softmax_problem.h"

/* The row's dims (reduced) or the outer dims, in descriptor order. */
typedef struct {
    int n;
    int64_t dim[PDNN_DIM_MAX];
    int64_t s[3][PDNN_DIM_MAX];
} dimset;

static void split(const pdnn_softmax_problem *p, bool reduced, dimset *d)
{
    d->n = 0;
    for (int i = 0; i < p->nb; i++) {
        if (pdnn_softmax_reduces(p, i) != reduced) continue;
        d->dim[d->n] = p->dim[i];
        for (int t = 0; t < 3; t++) d->s[t][d->n] = p->s[t][i];
        d->n++;
    }
}

static int64_t count(const dimset *d)
{
    int64_t n = 1;
    for (int i = 0; i < d->n; i++) n *= d->dim[i];
    return n;
}

/* Offsets of the three tensors for row-major index `linear` over the set. */
static void offsets(const dimset *d, int64_t linear, int64_t off[3])
{
    off[0] = off[1] = off[2] = 0;
    for (int i = d->n - 1; i >= 0; i--) {
        int64_t k = linear % d->dim[i];
        linear /= d->dim[i];
        for (int t = 0; t < 3; t++) off[t] += k * d->s[t][i];
    }
}

static void row_fwd(const pdnn_softmax_problem *p, const pdnn_softmax_args *a,
                    const dimset *red, int64_t len, const int64_t base[3])
{
    const pdnnDataType_t t = p->dtype;
    int64_t o[3];
    double m = 0;
    if (p->algo != PDNN_SOFTMAX_FAST) {
        m = -INFINITY;
        for (int64_t r = 0; r < len; r++) {
            offsets(red, r, o);
            double v = pdnn_ld(a->in0, t, base[0] + o[0]);
            if (v > m) m = v; /* a NaN is skipped here and propagates through exp below */
        }
    }
    pdnn_ksum k = {0, 0};
    for (int64_t r = 0; r < len; r++) {
        offsets(red, r, o);
        pdnn_ksum_add(&k, exp(pdnn_ld(a->in0, t, base[0] + o[0]) - m));
    }
    double s = pdnn_ksum_get(&k), ls = p->algo == PDNN_SOFTMAX_LOG ? pdnn_ksum_log(&k) : 0;
    for (int64_t r = 0; r < len; r++) {
        offsets(red, r, o);
        double d = pdnn_ld(a->in0, t, base[0] + o[0]) - m;
        double v = p->algo == PDNN_SOFTMAX_LOG ? d - ls : exp(d) / s;
        pdnn_blend(a->out, t, base[2] + o[2], a->alpha, v, a->beta);
    }
}

static void row_bwd(const pdnn_softmax_problem *p, const pdnn_softmax_args *a,
                    const dimset *red, int64_t len, const int64_t base[3])
{
    const pdnnDataType_t t = p->dtype;
    const bool lg = p->algo == PDNN_SOFTMAX_LOG;
    int64_t o[3];
    pdnn_ksum k = {0, 0};
    for (int64_t r = 0; r < len; r++) {
        offsets(red, r, o);
        double dy = pdnn_ld(a->in1, t, base[1] + o[1]);
        pdnn_ksum_add(&k, lg ? dy : dy * pdnn_ld(a->in0, t, base[0] + o[0]));
    }
    double sum = pdnn_ksum_get(&k);
    for (int64_t r = 0; r < len; r++) {
        offsets(red, r, o);
        double y = pdnn_ld(a->in0, t, base[0] + o[0]);
        double dy = pdnn_ld(a->in1, t, base[1] + o[1]);
        double v = lg ? dy - exp(y) * sum : y * (dy - sum);
        pdnn_blend(a->out, t, base[2] + o[2], a->alpha, v, a->beta);
    }
}

static pdnnStatus_t ref_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_softmax_problem *p = prob;
    const pdnn_softmax_args *a = args;
    dimset outer, red;
    split(p, false, &outer);
    split(p, true, &red);
    const int64_t rows = count(&outer), len = count(&red);
    const int nth = pdnn_par_threads(ctx->nthreads, rows, (double)rows * (double)len, 4096);

#pragma omp parallel for num_threads(nth) schedule(static)
    for (int64_t i = 0; i < rows; i++) {
        int64_t base[3];
        offsets(&outer, i, base);
        if (p->bwd)
            row_bwd(p, a, &red, len, base);
        else
            row_fwd(p, a, &red, len, base);
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_softmax_ref = {
    .name = "ref:softmax",
    .algo = -1,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = pdnn_supports_any,
    .workspace = NULL,
    .exec = ref_exec,
};
