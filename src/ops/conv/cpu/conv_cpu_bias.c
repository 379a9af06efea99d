/* Fast paths of the two loops around convolution (conv_internal.h): the bias +
 * activation epilogue of pdnnConvolutionBiasActivationForward and the bias gradient of
 * pdnnConvolutionBackwardBias, for tensors whose spatial dims are packed (one
 * contiguous run of prod(spatial) elements per (n, k): NCHW and its 1-d/3-d forms).
 * Elsewhere the callers fall back to the references in conv_ref.c.
 *
 * Epilogue: y = act(y + bias[k]) for RELU and IDENTITY without a z term, in the data
 * type: the sum of two floats rounded once to float equals the reference's double sum
 * rounded to float (double has more than 2 * 24 + 2 bits), and RELU is exact, so the
 * result is bitwise the reference's.
 *
 * Bias gradient: db[k] = alpha * sum + beta * db[k], each run summed in double by
 * 16 interleaved partial sums combined in a fixed order, runs added in (n) order:
 * results do not depend on the thread count (threads split k); they may differ from
 * the reference's single running sum in the last bits of the double sum. */
#include "core/dtype.h"
#include "ops/act/act_math.h"
#include "ops/conv/conv_internal.h"

/* Spatial dims packed: the run of (n, k) is stride-1 over prod(spatial) elements. */
static bool spatial_packed(const struct pdnnTensorStruct *d, int64_t *sp)
{
    int64_t s = 1;
    for (int i = d->nbDims - 1; i >= 2; i--) {
        if (d->dim[i] > 1 && d->stride[i] != s) return false;
        s *= d->dim[i];
    }
    *sp = s;
    return true;
}

bool pdnn_conv_cpu_bias_act(const struct pdnnTensorStruct *yd, void *y,
                            const struct pdnnTensorStruct *bd, const void *bias,
                            const struct pdnnActivationStruct *act, int nthreads)
{
    const pdnn_act_params ap = pdnn_act_params_of(act);
    int64_t sp;
    if (ap.mode != PDNN_ACTIVATION_RELU && ap.mode != PDNN_ACTIVATION_IDENTITY) return false;
    if (!spatial_packed(yd, &sp)) return false;
    const pdnnDataType_t t = yd->dtype;
    if (t != PDNN_DATA_FLOAT && t != PDNN_DATA_DOUBLE) return false;
    const int64_t nk = yd->dim[0] * yd->dim[1], kk = yd->dim[1];
    const int64_t ys0 = yd->stride[0], ys1 = yd->stride[1], bs = bd->stride[1];
    const bool relu = ap.mode == PDNN_ACTIVATION_RELU, prop = ap.propagate_nan;
#pragma omp parallel for num_threads(nthreads) schedule(static)
    for (int64_t r = 0; r < nk; r++) {
        const int64_t n = r / kk, k = r % kk, off = n * ys0 + k * ys1;
        if (t == PDNN_DATA_FLOAT) {
            float *v = (float *)y + off;
            const float b = ((const float *)bias)[k * bs];
            if (!relu)
                for (int64_t s = 0; s < sp; s++) v[s] = v[s] + b;
            else
                for (int64_t s = 0; s < sp; s++) {
                    const float u = v[s] + b;
                    v[s] = u > 0.0f ? u : (u != u && prop ? u : 0.0f);
                }
        } else {
            double *v = (double *)y + off;
            const double b = ((const double *)bias)[k * bs];
            if (!relu)
                for (int64_t s = 0; s < sp; s++) v[s] = v[s] + b;
            else
                for (int64_t s = 0; s < sp; s++) {
                    const double u = v[s] + b;
                    v[s] = u > 0.0 ? u : (u != u && prop ? u : 0.0);
                }
        }
    }
    return true;
}

/* Sum of a run in double: 16 interleaved partial sums (independent chains the compiler
 * keeps in vector lanes), combined pairwise in a fixed order. */
#define RUN_SUM(T, p, n)                                                                  \
    do {                                                                                  \
        double part[16] = {0};                                                            \
        const T *q = (const T *)(p);                                                      \
        int64_t s = 0;                                                                    \
        for (; s + 16 <= (n); s += 16) {                                                  \
            _Pragma("GCC unroll 16") for (int l = 0; l < 16; l++) part[l] += (double)q[s + l]; \
        }                                                                                 \
        for (int l = 0; s < (n); s++, l++) part[l] += (double)q[s];                        \
        for (int w = 8; w >= 1; w /= 2)                                                   \
            for (int l = 0; l < w; l++) part[l] += part[l + w];                           \
        acc += part[0];                                                                   \
    } while (0)

bool pdnn_conv_cpu_bwd_bias(const struct pdnnTensorStruct *dyd, const void *dy,
                            const struct pdnnTensorStruct *dbd, void *db, double alpha,
                            double beta, int nthreads)
{
    int64_t sp;
    if (!spatial_packed(dyd, &sp)) return false;
    const pdnnDataType_t t = dyd->dtype;
    if (t != PDNN_DATA_FLOAT && t != PDNN_DATA_DOUBLE) return false;
    const int64_t nb = dyd->dim[0], kk = dyd->dim[1], s0 = dyd->stride[0], s1 = dyd->stride[1];
#pragma omp parallel for num_threads(nthreads) schedule(static)
    for (int64_t k = 0; k < kk; k++) {
        double acc = 0.0;
        for (int64_t n = 0; n < nb; n++) {
            const int64_t off = n * s0 + k * s1;
            if (t == PDNN_DATA_FLOAT)
                RUN_SUM(float, (const float *)dy + off, sp);
            else
                RUN_SUM(double, (const double *)dy + off, sp);
        }
        pdnn_blend(db, t, k * dbd->stride[1], alpha, acc, beta);
    }
    return true;
}
