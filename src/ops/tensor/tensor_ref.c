/* Reference of the elementwise tensor operations (SetTensor, ScaleTensor, AddTensor,
 * OpTensor, TransformTensor): every data type, stride and broadcast the API accepts.
 *
 * Each output element is computed in double from its own operands and rounded once on
 * store, so results do not depend on the thread count or on the order of traversal.
 * Threads split C's elements into contiguous ranges of (row, block) work items; the
 * inner loop runs along the innermost simplified dimension, with unit-stride copies of
 * the loop that the compiler vectorizes. */
#include <math.h>

#include "core/par.h"
#include "core/registry.h"
#include "ops/tensor/tensor_impls.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

enum { ELT_BLOCK = 4096, ELT_PAR_MIN = 1 << 15 };

ALWAYS_INLINE double elt_min(double x, double y, bool prop)
{
    if (x != x) return prop ? x : y;
    if (y != y) return prop ? y : x;
    return y < x ? y : x;
}

ALWAYS_INLINE double elt_max(double x, double y, bool prop)
{
    if (x != x) return prop ? x : y;
    if (y != y) return prop ? y : x;
    return y > x ? y : x;
}

/* The value of one element before blending. */
ALWAYS_INLINE double elt_value(pdnn_elt_kind k, bool prop, double a, double b, double c,
                               double al1, double al2)
{
    switch (k) {
    case PDNN_ELT_SET: return al1;
    case PDNN_ELT_SCALE: return al1 * c;
    case PDNN_ELT_BLEND: return al1 * a;
    case PDNN_ELT_ADD: return al1 * a + al2 * b;
    case PDNN_ELT_MUL: return (al1 * a) * (al2 * b);
    case PDNN_ELT_MIN: return elt_min(al1 * a, al2 * b, prop);
    case PDNN_ELT_MAX: return elt_max(al1 * a, al2 * b, prop);
    case PDNN_ELT_SQRT: return sqrt(al1 * a);
    case PDNN_ELT_NOT: return 1.0 - al1 * a;
    }
    return 0.0;
}

/* One run of n elements; K is a constant in every expansion so the switch folds. */
#define DEFINE_RUN(T, SFX)                                                                  \
    ALWAYS_INLINE void run_##SFX(pdnn_elt_kind K, bool prop, int64_t n, T *c, int64_t cs,   \
                                 const T *a, int64_t as, const T *b, int64_t bs,            \
                                 double al1, double al2, double beta)                       \
    {                                                                                       \
        bool uses_a = K != PDNN_ELT_SET && K != PDNN_ELT_SCALE;                             \
        bool uses_b = K >= PDNN_ELT_ADD && K <= PDNN_ELT_MAX;                               \
        bool blends = K != PDNN_ELT_SET && K != PDNN_ELT_SCALE && beta != 0.0;              \
        if (!blends) {                                                                      \
            for (int64_t i = 0; i < n; i++) {                                               \
                double av = uses_a ? (double)a[i * as] : 0.0;                               \
                double bv = uses_b ? (double)b[i * bs] : 0.0;                               \
                double cv = K == PDNN_ELT_SCALE ? (double)c[i * cs] : 0.0;                  \
                c[i * cs] = (T)elt_value(K, prop, av, bv, cv, al1, al2);                    \
            }                                                                               \
        } else {                                                                            \
            for (int64_t i = 0; i < n; i++) {                                               \
                double av = (double)a[i * as];                                              \
                double bv = uses_b ? (double)b[i * bs] : 0.0;                               \
                double v = elt_value(K, prop, av, bv, 0.0, al1, al2);                       \
                c[i * cs] = (T)(v + beta * (double)c[i * cs]);                              \
            }                                                                               \
        }                                                                                   \
    }                                                                                       \
    /* Picks a unit-stride copy of the loop when the strides allow one. */                  \
    ALWAYS_INLINE void strided_##SFX(pdnn_elt_kind K, bool prop, int64_t n, T *c,           \
                                     int64_t cs, const T *a, int64_t as, const T *b,        \
                                     int64_t bs, double al1, double al2, double beta)       \
    {                                                                                       \
        if (cs == 1 && as == 1 && bs == 1)                                                  \
            run_##SFX(K, prop, n, c, 1, a, 1, b, 1, al1, al2, beta);                        \
        else if (cs == 1 && as == 1 && bs == 0)                                             \
            run_##SFX(K, prop, n, c, 1, a, 1, b, 0, al1, al2, beta);                        \
        else if (cs == 1 && as == 0 && bs == 0)                                             \
            run_##SFX(K, prop, n, c, 1, a, 0, b, 0, al1, al2, beta);                        \
        else                                                                                \
            run_##SFX(K, prop, n, c, cs, a, as, b, bs, al1, al2, beta);                     \
    }                                                                                       \
    static void row_##SFX(pdnn_elt_kind k, bool prop, int64_t n, T *c, int64_t cs,          \
                          const T *a, int64_t as, const T *b, int64_t bs, double al1,       \
                          double al2, double beta)                                          \
    {                                                                                       \
        switch (k) {                                                                        \
        case PDNN_ELT_SET:                                                                  \
            strided_##SFX(PDNN_ELT_SET, prop, n, c, cs, a, as, b, bs, al1, al2, beta);      \
            break;                                                                          \
        case PDNN_ELT_SCALE:                                                                \
            strided_##SFX(PDNN_ELT_SCALE, prop, n, c, cs, a, as, b, bs, al1, al2, beta);    \
            break;                                                                          \
        case PDNN_ELT_BLEND:                                                                \
            strided_##SFX(PDNN_ELT_BLEND, prop, n, c, cs, a, as, b, bs, al1, al2, beta);    \
            break;                                                                          \
        case PDNN_ELT_ADD:                                                                  \
            strided_##SFX(PDNN_ELT_ADD, prop, n, c, cs, a, as, b, bs, al1, al2, beta);      \
            break;                                                                          \
        case PDNN_ELT_MUL:                                                                  \
            strided_##SFX(PDNN_ELT_MUL, prop, n, c, cs, a, as, b, bs, al1, al2, beta);      \
            break;                                                                          \
        case PDNN_ELT_MIN:                                                                  \
            strided_##SFX(PDNN_ELT_MIN, prop, n, c, cs, a, as, b, bs, al1, al2, beta);      \
            break;                                                                          \
        case PDNN_ELT_MAX:                                                                  \
            strided_##SFX(PDNN_ELT_MAX, prop, n, c, cs, a, as, b, bs, al1, al2, beta);      \
            break;                                                                          \
        case PDNN_ELT_SQRT:                                                                 \
            strided_##SFX(PDNN_ELT_SQRT, prop, n, c, cs, a, as, b, bs, al1, al2, beta);     \
            break;                                                                          \
        case PDNN_ELT_NOT:                                                                  \
            strided_##SFX(PDNN_ELT_NOT, prop, n, c, cs, a, as, b, bs, al1, al2, beta);      \
            break;                                                                          \
        }                                                                                   \
    }

DEFINE_RUN(float, f32)
DEFINE_RUN(double, f64)

/* Runs work items [lo, hi): item = row * nblk + block, rows over dims 0..nd-2. */
static void elt_range(const pdnn_elt_problem *p, const pdnn_elt_args *x, int64_t lo,
                      int64_t hi, int64_t nblk)
{
    int nd = p->nd, in = nd - 1;
    int64_t inner = p->dim[in];
    int64_t idx[PDNN_DIM_MAX] = {0};
    int64_t row = lo / nblk, blk = lo % nblk, co = 0, ao = 0, bo = 0;
    for (int d = in - 1; d >= 0; d--) {
        idx[d] = row % p->dim[d];
        row /= p->dim[d];
        co += idx[d] * p->cs[d], ao += idx[d] * p->as[d], bo += idx[d] * p->bs[d];
    }
    bool dbl = p->dtype == PDNN_DATA_DOUBLE;
    for (int64_t it = lo; it < hi; it++) {
        int64_t s = blk * ELT_BLOCK;
        int64_t n = inner - s < ELT_BLOCK ? inner - s : ELT_BLOCK;
        int64_t c0 = co + s * p->cs[in], a0 = ao + s * p->as[in], b0 = bo + s * p->bs[in];
        if (dbl)
            row_f64(p->kind, p->nan_prop, n, (double *)x->c + c0, p->cs[in],
                    x->a ? (const double *)x->a + a0 : NULL, p->as[in],
                    x->b ? (const double *)x->b + b0 : NULL, p->bs[in], x->alpha1, x->alpha2,
                    x->beta);
        else
            row_f32(p->kind, p->nan_prop, n, (float *)x->c + c0, p->cs[in],
                    x->a ? (const float *)x->a + a0 : NULL, p->as[in],
                    x->b ? (const float *)x->b + b0 : NULL, p->bs[in], x->alpha1, x->alpha2,
                    x->beta);
        if (++blk < nblk) continue;
        blk = 0;
        for (int d = in - 1; d >= 0; d--) { /* odometer over the outer dims */
            co += p->cs[d], ao += p->as[d], bo += p->bs[d];
            if (++idx[d] < p->dim[d]) break;
            co -= idx[d] * p->cs[d], ao -= idx[d] * p->as[d], bo -= idx[d] * p->bs[d];
            idx[d] = 0;
        }
    }
}

static pdnnStatus_t elt_ref_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_elt_problem *p = prob;
    const pdnn_elt_args *x = args;
    int64_t inner = p->dim[p->nd - 1];
    int64_t nblk = (inner + ELT_BLOCK - 1) / ELT_BLOCK;
    int64_t items = p->numel / inner * nblk;
    const int nt = pdnn_par_threads(ctx->nthreads, items, (double)p->numel, ELT_PAR_MIN);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        int64_t lo, hi;
        pdnn_par_share(items, &lo, &hi);
        if (lo < hi) elt_range(p, x, lo, hi, nblk);
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_elt_ref = {
    .name = "cpu:ref",
    .algo = -1,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = pdnn_supports_any,
    .workspace = NULL,
    .exec = elt_ref_exec,
};
