/* Helpers shared by the optimized CPU pooling implementations (internal). */
#ifndef PDNN_POOL_CPU_COMMON_H
#define PDNN_POOL_CPU_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/registry.h"

/* Branch-free forms of pdnn_pool_takes_f32 for PROPAGATE (P) and NOT_PROPAGATE (N):
 * bitwise & and |, not && and ||, so that loops using them vectorize. */
#define POOL_TAKE_P(v, m) (((m) == (m)) & (((v) != (v)) | ((v) > (m))))
#define POOL_TAKE_N(v, m) (((v) == (v)) & (((m) != (m)) | ((v) > (m))))

/* v when keep, else +0.0, without a branch (a mispredicted one per window costs more
 * than the rest of the backward pass). */
static inline double pool_keep_if(double v, bool keep)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    b &= -(uint64_t)keep;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* Packed NCHW strides (index 0 = N, 1 = C, 3 = H, 4 = W of the problem's stride
 * arrays) for (n, c, h, w), where dims of size 1 may have any stride. */
static inline bool pool_packed_nchw(const int64_t *st, int64_t n, int64_t c, int64_t h,
                                    int64_t w)
{
    int64_t dim[4] = {n, c, h, w}, str[4] = {st[0], st[1], st[3], st[4]}, s = 1;
    for (int i = 3; i >= 0; i--) {
        if (dim[i] != 1 && str[i] != s) return false;
        s *= dim[i];
    }
    return true;
}

/* alpha * v + beta * *out in double, rounded to float; *out is not read when
 * beta == 0 (the reference's blending, bit for bit). */
static inline float pool_blend_f32(double alpha, double v, double beta, const float *out)
{
    double r = alpha * v;
    if (beta != 0.0) r += beta * (double)*out;
    return (float)r;
}

/* y[j] = alpha * v[j] + beta * y[j] for j < n, as pool_blend_f32; y not read when
 * beta == 0. */
static inline void pool_store_f32(float *y, const double *v, int64_t n, double alpha,
                                  double beta)
{
    if (beta == 0.0)
        for (int64_t j = 0; j < n; j++) y[j] = (float)(alpha * v[j]);
    else
        for (int64_t j = 0; j < n; j++) y[j] = (float)(alpha * v[j] + beta * (double)y[j]);
}

/* The registry entry sym of an optimized pooling implementation: serves any algorithm
 * (pooling has none) on every ISA, deterministic, no workspace. */
#define POOL_CPU_ENTRY(sym, entry_name, supports_fn, exec_fn)                            \
    const pdnn_impl sym = {.name = entry_name,                                         \
                           .algo = -1,                                                 \
                           .min_isa = PDNN_ISA_SCALAR,                                 \
                           .props = PDNN_IMPL_DETERMINISTIC,                           \
                           .supports = supports_fn,                                    \
                           .workspace = NULL,                                          \
                           .exec = exec_fn}

#endif
