/* Reference of pdnnReduceTensor: every op, data type, stride and reduced-dimension set
 * the API accepts.
 *
 * Each output element is reduced by one thread, in double, in a fixed order: row-major
 * over the reduced dimensions (the order of the flattened indices). Threads split the
 * outputs into contiguous ranges, so results are bitwise identical whatever the thread
 * count. */
#include <math.h>

#include "core/par.h"
#include "core/registry.h"
#include "ops/tensor/tensor_impls.h"

enum { RED_PAR_MIN = 1 << 15 };

typedef struct {
    double v;      /* running sum / product / extreme */
    int64_t idx;   /* flattened index of the extreme (MIN, MAX, AMAX) */
    bool have;     /* an extreme has been seen (MIN, MAX, AMAX) */
    bool nan;      /* a NaN was taken with PROPAGATE_NAN (MIN, MAX, AMAX) */
} acc_t;

static void acc_init(acc_t *s, pdnnReduceTensorOp_t op)
{
    s->v = (op == PDNN_REDUCE_TENSOR_MUL || op == PDNN_REDUCE_TENSOR_MUL_NO_ZEROS) ? 1.0 : 0.0;
    s->idx = 0;
    s->have = false;
    s->nan = false;
}

/* Folds x (element r of the reduced sub-space) into an extreme; lt(x, v) true when x
 * should replace v. The first occurrence wins ties. */
#define EXTREME(x, r, better)                                                               \
    do {                                                                                    \
        if ((x) != (x)) {                                                                   \
            if (prop && !s->nan) s->nan = true, s->v = (x), s->idx = (r);                   \
        } else if (!s->nan && (!s->have || (better))) {                                     \
            s->v = (x), s->idx = (r), s->have = true;                                       \
        }                                                                                   \
    } while (0)

/* Folds n elements a[0], a[as], ... whose flattened indices start at r0. */
#define DEFINE_FOLD(T, SFX)                                                                 \
    static void fold_##SFX(acc_t *s, pdnnReduceTensorOp_t op, bool prop, const T *a,        \
                           int64_t n, int64_t as, int64_t r0)                               \
    {                                                                                       \
        double v = s->v;                                                                    \
        switch (op) {                                                                       \
        case PDNN_REDUCE_TENSOR_ADD:                                                        \
        case PDNN_REDUCE_TENSOR_AVG:                                                        \
            for (int64_t i = 0; i < n; i++) v += (double)a[i * as];                         \
            break;                                                                          \
        case PDNN_REDUCE_TENSOR_NORM1:                                                      \
            for (int64_t i = 0; i < n; i++) v += fabs((double)a[i * as]);                   \
            break;                                                                          \
        case PDNN_REDUCE_TENSOR_NORM2:                                                      \
            for (int64_t i = 0; i < n; i++) {                                               \
                double x = (double)a[i * as];                                               \
                v += x * x;                                                                 \
            }                                                                               \
            break;                                                                          \
        case PDNN_REDUCE_TENSOR_MUL:                                                        \
            for (int64_t i = 0; i < n; i++) v *= (double)a[i * as];                         \
            break;                                                                          \
        case PDNN_REDUCE_TENSOR_MUL_NO_ZEROS:                                               \
            for (int64_t i = 0; i < n; i++) {                                               \
                double x = (double)a[i * as];                                               \
                if (x != 0.0) v *= x;                                                       \
            }                                                                               \
            break;                                                                          \
        case PDNN_REDUCE_TENSOR_MIN:                                                        \
            for (int64_t i = 0; i < n; i++) {                                               \
                double x = (double)a[i * as];                                               \
                EXTREME(x, r0 + i, x < s->v);                                               \
            }                                                                               \
            return;                                                                         \
        case PDNN_REDUCE_TENSOR_MAX:                                                        \
            for (int64_t i = 0; i < n; i++) {                                               \
                double x = (double)a[i * as];                                               \
                EXTREME(x, r0 + i, x > s->v);                                               \
            }                                                                               \
            return;                                                                         \
        case PDNN_REDUCE_TENSOR_AMAX:                                                       \
            for (int64_t i = 0; i < n; i++) {                                               \
                double x = fabs((double)a[i * as]);                                         \
                EXTREME(x, r0 + i, x > s->v);                                               \
            }                                                                               \
            return;                                                                         \
        }                                                                                   \
        s->v = v;                                                                           \
    }

DEFINE_FOLD(float, f32)
DEFINE_FOLD(double, f64)

static double acc_final(const acc_t *s, pdnnReduceTensorOp_t op, int64_t nred)
{
    switch (op) {
    case PDNN_REDUCE_TENSOR_AVG: return s->v / (double)nred;
    case PDNN_REDUCE_TENSOR_NORM2: return sqrt(s->v);
    case PDNN_REDUCE_TENSOR_MIN:
    case PDNN_REDUCE_TENSOR_MAX:
    case PDNN_REDUCE_TENSOR_AMAX:
        return s->nan || s->have ? s->v : NAN; /* every element NaN, NOT_PROPAGATE: NaN */
    default: return s->v;
    }
}

static void store_index(void *ind, pdnnIndicesType_t t, int64_t o, int64_t v)
{
    switch (t) {
    case PDNN_32BIT_INDICES: ((uint32_t *)ind)[o] = (uint32_t)v; break;
    case PDNN_64BIT_INDICES: ((uint64_t *)ind)[o] = (uint64_t)v; break;
    case PDNN_16BIT_INDICES: ((uint16_t *)ind)[o] = (uint16_t)v; break;
    case PDNN_8BIT_INDICES: ((uint8_t *)ind)[o] = (uint8_t)v; break;
    }
}

/* Reduces outputs [lo, hi) (row-major over C's dims). */
static void reduce_range(const pdnn_reduce_problem *p, const pdnn_reduce_args *x, int64_t lo,
                         int64_t hi)
{
    int kd[PDNN_DIM_MAX], rd[PDNN_DIM_MAX], nk = 0, nr = 0;
    for (int i = 0; i < p->nd; i++) {
        if (p->red[i])
            rd[nr++] = i;
        else
            kd[nk++] = i;
    }
    /* Kept-dims odometer, started at output lo. */
    int64_t kidx[PDNN_DIM_MAX] = {0}, ao = 0, co = 0, rem = lo;
    for (int j = nk - 1; j >= 0; j--) {
        int d = kd[j];
        kidx[j] = rem % p->dim[d];
        rem /= p->dim[d];
        ao += kidx[j] * p->as[d], co += kidx[j] * p->cs[d];
    }
    /* Innermost reduced dim is the fold's run; a single element when none is reduced. */
    int64_t run = nr ? p->dim[rd[nr - 1]] : 1, rs = nr ? p->as[rd[nr - 1]] : 1;
    bool dbl = p->dtype == PDNN_DATA_DOUBLE;
    for (int64_t o = lo; o < hi; o++) {
        acc_t s;
        acc_init(&s, p->op);
        int64_t ridx[PDNN_DIM_MAX] = {0}, ro = 0;
        for (int64_t r0 = 0; r0 < p->nred; r0 += run) {
            if (dbl)
                fold_f64(&s, p->op, p->nan_prop, (const double *)x->a + ao + ro, run, rs, r0);
            else
                fold_f32(&s, p->op, p->nan_prop, (const float *)x->a + ao + ro, run, rs, r0);
            for (int j = nr - 2; j >= 0; j--) { /* odometer over the outer reduced dims */
                int d = rd[j];
                ro += p->as[d];
                if (++ridx[j] < p->dim[d]) break;
                ro -= ridx[j] * p->as[d];
                ridx[j] = 0;
            }
        }
        double v = x->alpha * acc_final(&s, p->op, p->nred);
        if (dbl) {
            double *c = (double *)x->c + co;
            *c = x->beta != 0.0 ? v + x->beta * *c : v;
        } else {
            float *c = (float *)x->c + co;
            *c = (float)(x->beta != 0.0 ? v + x->beta * (double)*c : v);
        }
        if (x->indices) store_index(x->indices, p->idx_type, o, s.idx);
        for (int j = nk - 1; j >= 0; j--) {
            int d = kd[j];
            ao += p->as[d], co += p->cs[d];
            if (++kidx[j] < p->dim[d]) break;
            ao -= kidx[j] * p->as[d], co -= kidx[j] * p->cs[d];
            kidx[j] = 0;
        }
    }
}

static pdnnStatus_t reduce_ref_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_reduce_problem *p = prob;
    const pdnn_reduce_args *x = args;
    int64_t nout = p->nout;
    const int nt = pdnn_par_threads(ctx->nthreads, nout, (double)nout * (double)p->nred,
                                    RED_PAR_MIN);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        int64_t lo, hi;
        pdnn_par_share(nout, &lo, &hi);
        if (lo < hi) reduce_range(p, x, lo, hi);
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_reduce_ref = {
    .name = "cpu:ref",
    .algo = -1,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = pdnn_supports_any,
    .workspace = NULL,
    .exec = reduce_ref_exec,
};
