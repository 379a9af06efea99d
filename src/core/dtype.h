/* Element access and blending helpers for the reference paths (internal).
 * Optimized kernels specialise per type instead of calling these per element. */
#ifndef PDNN_CORE_DTYPE_H
#define PDNN_CORE_DTYPE_H

#include <stdint.h>
#include "pdnn/core.h"

static inline double pdnn_ld(const void *p, pdnnDataType_t t, int64_t i)
{
    return t == PDNN_DATA_DOUBLE ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

static inline void pdnn_st(void *p, pdnnDataType_t t, int64_t i, double v)
{
    if (t == PDNN_DATA_DOUBLE)
        ((double *)p)[i] = v;
    else
        ((float *)p)[i] = (float)v;
}

/* Scaling factor: *(float*) for FLOAT tensors, *(double*) for DOUBLE (cuDNN rule). */
static inline double pdnn_scalar(const void *s, pdnnDataType_t t)
{
    return t == PDNN_DATA_DOUBLE ? *(const double *)s : (double)*(const float *)s;
}

/* y[i] = alpha * v + beta * y[i]; y is not read when beta == 0. */
static inline void pdnn_blend(void *y, pdnnDataType_t t, int64_t i, double alpha, double v,
                              double beta)
{
    double r = alpha * v;
    if (beta != 0.0) r += beta * pdnn_ld(y, t, i);
    pdnn_st(y, t, i, r);
}

#endif
