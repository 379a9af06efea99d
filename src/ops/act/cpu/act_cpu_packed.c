/* Activation on dense tensors whose views all share one layout: element i of every
 * tensor sits at offset i (NCHW, NHWC or any permutation, without gaps), so the op is a
 * flat loop. The mode is fixed outside the loop so that each loop inlines one formula;
 * values are computed in double exactly as the reference does (bitwise equal results). */
#include "core/par.h"
#include "core/registry.h"
#include "ops/act/act_problem.h"

#define CHUNK 4096 /* elements per scheduling unit */

/* Same strides for every dim of size > 1. */
static bool same_layout(const pdnn_act_problem *p, const int64_t *a, const int64_t *b)
{
    for (int i = 0; i < p->nb; i++)
        if (p->dim[i] > 1 && a[i] != b[i]) return false;
    return true;
}

/* The strides cover exactly numel consecutive elements (no gaps, no overlap). */
static bool dense(const pdnn_act_problem *p, const int64_t *s)
{
    int64_t last = 0;
    for (int i = 0; i < p->nb; i++) last += (p->dim[i] - 1) * s[i];
    return last + 1 == p->numel;
}

static bool packed_supports(const void *prob, const char **why)
{
    const pdnn_act_problem *p = prob;
    const int64_t *out = p->bwd ? p->dxs : p->ys;
    if (!dense(p, out)) {
        *why = "the output has gaps between elements";
        return false;
    }
    bool same = same_layout(p, p->xs, out) && (!p->bwd || (same_layout(p, p->ys, out) &&
                                                            same_layout(p, p->dys, out)));
    if (!same) {
        *why = "the tensors have different strides";
        return false;
    }
    return true;
}

/* One mode, known at compile time after inlining. */
static inline __attribute__((always_inline)) double fwd_m(pdnnActivationMode_t m,
                                                          const pdnn_act_params *p, double x)
{
    pdnn_act_params q = *p;
    q.mode = m;
    return pdnn_act_fwd(&q, x);
}

static inline __attribute__((always_inline)) double bwd_m(pdnnActivationMode_t m,
                                                          const pdnn_act_params *p, double x,
                                                          double y, double dy)
{
    pdnn_act_params q = *p;
    q.mode = m;
    return pdnn_act_bwd(&q, x, y, dy);
}

#define FWD_LOOP(T, M)                                                                  \
    do {                                                                                \
        if (beta == 0.0)                                                                \
            for (int64_t i = lo; i < hi; i++)                                           \
                y[i] = (T)(alpha * fwd_m(M, p, (double)x[i]));                          \
        else                                                                            \
            for (int64_t i = lo; i < hi; i++)                                           \
                y[i] = (T)(alpha * fwd_m(M, p, (double)x[i]) + beta * (double)y[i]);    \
    } while (0)

#define BWD_LOOP(T, M)                                                                  \
    do {                                                                                \
        if (beta == 0.0)                                                                \
            for (int64_t i = lo; i < hi; i++)                                           \
                dx[i] = (T)(alpha * bwd_m(M, p, (double)x[i], (double)y[i],             \
                                          (double)dy[i]));                              \
        else                                                                            \
            for (int64_t i = lo; i < hi; i++)                                           \
                dx[i] = (T)(alpha * bwd_m(M, p, (double)x[i], (double)y[i],             \
                                          (double)dy[i]) + beta * (double)dx[i]);       \
    } while (0)

#define MODE_SWITCH(LOOP, T)                                                            \
    switch (p->mode) {                                                                  \
    case PDNN_ACTIVATION_SIGMOID: LOOP(T, PDNN_ACTIVATION_SIGMOID); break;              \
    case PDNN_ACTIVATION_RELU: LOOP(T, PDNN_ACTIVATION_RELU); break;                    \
    case PDNN_ACTIVATION_TANH: LOOP(T, PDNN_ACTIVATION_TANH); break;                    \
    case PDNN_ACTIVATION_CLIPPED_RELU: LOOP(T, PDNN_ACTIVATION_CLIPPED_RELU); break;    \
    case PDNN_ACTIVATION_ELU: LOOP(T, PDNN_ACTIVATION_ELU); break;                      \
    case PDNN_ACTIVATION_IDENTITY: LOOP(T, PDNN_ACTIVATION_IDENTITY); break;            \
    case PDNN_ACTIVATION_SWISH: LOOP(T, PDNN_ACTIVATION_SWISH); break;                  \
    case PDNN_ACTIVATION_GELU_ERF: LOOP(T, PDNN_ACTIVATION_GELU_ERF); break;            \
    case PDNN_ACTIVATION_GELU_TANH: LOOP(T, PDNN_ACTIVATION_GELU_TANH); break;          \
    }

/* RELU with alpha 1, beta 0 in the tensor's own type: the same bits as the double path
 * (forward: x itself, +0 or the NaN; backward: dy where x > 0, else +0, or with NaN
 * propagation the NaN product of a NaN x), and loops the compiler vectorizes. */
#define DEFINE_KERNELS(T, S)                                                            \
    static void fwd_##S(const pdnn_act_params *p, const T *x, T *y, int64_t lo,         \
                        int64_t hi, double alpha, double beta)                          \
    {                                                                                   \
        if (p->mode == PDNN_ACTIVATION_RELU && alpha == 1.0 && beta == 0.0) {           \
            if (p->propagate_nan)                                                       \
                for (int64_t i = lo; i < hi; i++) {                                     \
                    T v = x[i];                                                         \
                    y[i] = (v > 0 || v != v) ? v : (T)0;                                \
                }                                                                       \
            else                                                                        \
                for (int64_t i = lo; i < hi; i++) y[i] = x[i] > 0 ? x[i] : (T)0;        \
            return;                                                                     \
        }                                                                               \
        MODE_SWITCH(FWD_LOOP, T)                                                        \
    }                                                                                   \
    static void bwd_##S(const pdnn_act_params *p, const T *x, const T *y, const T *dy,  \
                        T *dx, int64_t lo, int64_t hi, double alpha, double beta)       \
    {                                                                                   \
        if (p->mode == PDNN_ACTIVATION_RELU && alpha == 1.0 && beta == 0.0) {           \
            if (p->propagate_nan)                                                       \
                for (int64_t i = lo; i < hi; i++) {                                     \
                    T v = x[i];                                                         \
                    dx[i] = v > 0 ? dy[i] : v != v ? v * dy[i] : (T)0;                  \
                }                                                                       \
            else                                                                        \
                for (int64_t i = lo; i < hi; i++) dx[i] = x[i] > 0 ? dy[i] : (T)0;      \
            return;                                                                     \
        }                                                                               \
        MODE_SWITCH(BWD_LOOP, T)                                                        \
    }

DEFINE_KERNELS(float, f32)
DEFINE_KERNELS(double, f64)

static pdnnStatus_t packed_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_act_problem *p = prob;
    const pdnn_act_args *a = args;
    const int64_t n = p->numel;
    const int64_t nchunks = (n + CHUNK - 1) / CHUNK;
    const int nth = pdnn_par_threads(ctx->nthreads, nchunks, (double)n, 0);
    const bool f32 = p->dtype == PDNN_DATA_FLOAT;

#pragma omp parallel for num_threads(nth) schedule(static)
    for (int64_t c = 0; c < nchunks; c++) {
        int64_t lo = c * CHUNK, hi = lo + CHUNK < n ? lo + CHUNK : n;
        if (!p->bwd) {
            if (f32)
                fwd_f32(&p->act, a->x, a->out, lo, hi, a->alpha, a->beta);
            else
                fwd_f64(&p->act, a->x, a->out, lo, hi, a->alpha, a->beta);
        } else {
            if (f32)
                bwd_f32(&p->act, a->x, a->y, a->dy, a->out, lo, hi, a->alpha, a->beta);
            else
                bwd_f64(&p->act, a->x, a->y, a->dy, a->out, lo, hi, a->alpha, a->beta);
        }
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_act_cpu_packed = {
    .name = "cpu:act:packed",
    .algo = -1,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = packed_supports,
    .workspace = NULL,
    .exec = packed_exec,
};
