/* Activation descriptor and pdnnActivationForward/Backward misuse: NULL pointers,
 * destroyed and wrong-kind descriptors, unset descriptors, bad enums and coefficients,
 * mismatched shapes and types, HALF, overlapping buffers -> the documented status, a
 * message, and the output untouched. */
#include <math.h>
#include <string.h>

#include "testutil.h"

static float out[24], saved[24];

/* Runs a call that must fail with `st` and leave `out` bitwise unchanged. */
#define FAILS(st, call)                                                                 \
    do {                                                                                \
        for (int i_ = 0; i_ < 24; i_++) out[i_] = 100.0f + i_;                          \
        memcpy(saved, out, sizeof out);                                                 \
        TU_STATUS(st, call);                                                            \
        TU_CHECK(!memcmp(saved, out, sizeof out), "%s wrote its output", #call);        \
    } while (0)

static void descriptor(void)
{
    pdnnActivationDescriptor_t a, b;
    pdnnActivationMode_t m;
    pdnnNanPropagation_t n;
    double c, sb;
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnCreateActivationDescriptor(NULL));
    TU_OK(pdnnCreateActivationDescriptor(&a));
    /* unset: Get refuses, swish beta has its default */
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetActivationDescriptor(a, &m, &n, &c));
    TU_OK(pdnnGetActivationDescriptorSwishBeta(a, &sb));
    TU_CHECK(sb == 1.0, "default swish beta %g", sb);
    TU_OK(pdnnSetActivationDescriptorSwishBeta(a, -0.5)); /* allowed before Set */
    TU_OK(pdnnSetActivationDescriptor(a, PDNN_ACTIVATION_ELU, PDNN_PROPAGATE_NAN, 0.25));
    TU_OK(pdnnGetActivationDescriptor(a, &m, &n, &c));
    TU_CHECK(m == PDNN_ACTIVATION_ELU && n == PDNN_PROPAGATE_NAN && c == 0.25, "get");
    TU_OK(pdnnGetActivationDescriptorSwishBeta(a, &sb));
    TU_CHECK(sb == -0.5, "Set keeps swish beta: %g", sb);
    /* bad values, the descriptor unchanged */
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetActivationDescriptor(a, (pdnnActivationMode_t)7, PDNN_PROPAGATE_NAN, 1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetActivationDescriptor(a, (pdnnActivationMode_t)-1, PDNN_PROPAGATE_NAN, 1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetActivationDescriptor(a, (pdnnActivationMode_t)102, PDNN_PROPAGATE_NAN, 1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetActivationDescriptor(a, PDNN_ACTIVATION_RELU, (pdnnNanPropagation_t)2, 1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetActivationDescriptor(a, PDNN_ACTIVATION_RELU, PDNN_PROPAGATE_NAN, NAN));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetActivationDescriptor(a, PDNN_ACTIVATION_CLIPPED_RELU,
                                                                 PDNN_PROPAGATE_NAN, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetActivationDescriptor(a, PDNN_ACTIVATION_CLIPPED_RELU,
                                                                 PDNN_PROPAGATE_NAN, -1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetActivationDescriptor(a, PDNN_ACTIVATION_ELU, PDNN_PROPAGATE_NAN, INFINITY));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetActivationDescriptorSwishBeta(a, INFINITY));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetActivationDescriptorSwishBeta(a, NAN));
    TU_OK(pdnnGetActivationDescriptor(a, &m, &n, &c));
    TU_OK(pdnnGetActivationDescriptorSwishBeta(a, &sb));
    TU_CHECK(m == PDNN_ACTIVATION_ELU && n == PDNN_PROPAGATE_NAN && c == 0.25 && sb == -0.5,
             "unchanged after errors");
    /* accepted: CLIPPED_RELU without a ceiling, any coef for modes that ignore it, GELU */
    TU_OK(pdnnSetActivationDescriptor(a, PDNN_ACTIVATION_CLIPPED_RELU, PDNN_NOT_PROPAGATE_NAN,
                                      INFINITY));
    TU_OK(pdnnSetActivationDescriptor(a, PDNN_ACTIVATION_RELU, PDNN_NOT_PROPAGATE_NAN, -INFINITY));
    TU_OK(pdnnSetActivationDescriptor(a, PDNN_ACTIVATION_GELU_TANH, PDNN_NOT_PROPAGATE_NAN, 0));
    /* NULL outputs of Get */
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetActivationDescriptor(a, NULL, &n, &c));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetActivationDescriptor(a, &m, NULL, &c));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetActivationDescriptor(a, &m, &n, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetActivationDescriptorSwishBeta(a, NULL));
    /* NULL, wrong-kind and destroyed descriptors */
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnSetActivationDescriptor(NULL, PDNN_ACTIVATION_RELU, PDNN_PROPAGATE_NAN, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetActivationDescriptor(NULL, &m, &n, &c));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnSetActivationDescriptorSwishBeta(NULL, 1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetActivationDescriptorSwishBeta(NULL, &sb));
    pdnnTensorDescriptor_t t = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 1, 1, 1);
    pdnnActivationDescriptor_t wrong = (pdnnActivationDescriptor_t)(void *)t;
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetActivationDescriptor(wrong, PDNN_ACTIVATION_RELU, PDNN_PROPAGATE_NAN, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetActivationDescriptorSwishBeta(wrong, &sb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnDestroyActivationDescriptor(wrong));
    size_t bytes;
    TU_OK(pdnnGetTensorSizeInBytes(t, &bytes)); /* still alive */
    pdnnDestroyTensorDescriptor(t);
    TU_OK(pdnnCreateActivationDescriptor(&b));
    TU_OK(pdnnDestroyActivationDescriptor(b));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetActivationDescriptor(b, PDNN_ACTIVATION_RELU, PDNN_PROPAGATE_NAN, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnDestroyActivationDescriptor(b));
    TU_OK(pdnnDestroyActivationDescriptor(NULL));
    TU_OK(pdnnDestroyActivationDescriptor(a));
}

static void forward_backward(void)
{
    pdnnHandle_t h, dead;
    TU_OK(pdnnCreate(&h));
    TU_OK(pdnnCreate(&dead));
    TU_OK(pdnnDestroy(dead));
    pdnnActivationDescriptor_t a, unset, gone;
    TU_OK(pdnnCreateActivationDescriptor(&a));
    TU_OK(pdnnSetActivationDescriptor(a, PDNN_ACTIVATION_RELU, PDNN_PROPAGATE_NAN, 0));
    TU_OK(pdnnCreateActivationDescriptor(&unset));
    TU_OK(pdnnCreateActivationDescriptor(&gone));
    TU_OK(pdnnDestroyActivationDescriptor(gone));
    pdnnTensorDescriptor_t d = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 3, 2, 2);
    pdnnTensorDescriptor_t other = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 3, 2, 1);
    int d3[3] = {2, 3, 4};
    pdnnTensorDescriptor_t rank3 = tu_tensor(PDNN_DATA_FLOAT, 3, d3, NULL);
    pdnnTensorDescriptor_t dbl = tu_tensor4d(PDNN_DATA_DOUBLE, PDNN_TENSOR_NCHW, 2, 3, 2, 2);
    pdnnTensorDescriptor_t half = tu_tensor4d(PDNN_DATA_HALF, PDNN_TENSOR_NCHW, 2, 3, 2, 2);
    pdnnTensorDescriptor_t nhwc = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NHWC, 2, 3, 2, 2);
    int od[2] = {2, 12}, os[2] = {1, 1}; /* strides that alias elements */
    pdnnTensorDescriptor_t overlap = tu_tensor(PDNN_DATA_FLOAT, 2, od, os);
    int sd[2] = {2, 3}; /* 6 elements, small enough to place inside out[] */
    pdnnTensorDescriptor_t small = tu_tensor(PDNN_DATA_FLOAT, 2, sd, NULL);
    pdnnTensorDescriptor_t unset_t, gone_t;
    TU_OK(pdnnCreateTensorDescriptor(&unset_t));
    TU_OK(pdnnCreateTensorDescriptor(&gone_t));
    TU_OK(pdnnDestroyTensorDescriptor(gone_t));
    float x[24] = {0}, g[24] = {0}, one = 1, zero = 0;
    const pdnnStatus_t NUL = PDNN_STATUS_BAD_PARAM_NULL_POINTER, BAD = PDNN_STATUS_BAD_PARAM;

    /* forward */
    FAILS(PDNN_STATUS_NOT_INITIALIZED, pdnnActivationForward(NULL, a, &one, d, x, &zero, d, out));
    FAILS(PDNN_STATUS_NOT_INITIALIZED, pdnnActivationForward(dead, a, &one, d, x, &zero, d, out));
    FAILS(NUL, pdnnActivationForward(h, NULL, &one, d, x, &zero, d, out));
    FAILS(BAD, pdnnActivationForward(h, unset, &one, d, x, &zero, d, out));
    FAILS(BAD, pdnnActivationForward(h, gone, &one, d, x, &zero, d, out));
    FAILS(BAD, pdnnActivationForward(h, (pdnnActivationDescriptor_t)(void *)d, &one, d, x, &zero,
                                     d, out));
    FAILS(NUL, pdnnActivationForward(h, a, NULL, d, x, &zero, d, out));
    FAILS(NUL, pdnnActivationForward(h, a, &one, d, x, NULL, d, out));
    FAILS(NUL, pdnnActivationForward(h, a, &one, NULL, x, &zero, d, out));
    FAILS(NUL, pdnnActivationForward(h, a, &one, d, x, &zero, NULL, out));
    FAILS(BAD, pdnnActivationForward(h, a, &one, unset_t, x, &zero, d, out));
    FAILS(BAD, pdnnActivationForward(h, a, &one, d, x, &zero, gone_t, out));
    FAILS(BAD, pdnnActivationForward(h, a, &one, d, x, &zero,
                                     (pdnnTensorDescriptor_t)(void *)a, out));
    FAILS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
          pdnnActivationForward(h, a, &one, d, x, &zero, other, out));
    FAILS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
          pdnnActivationForward(h, a, &one, rank3, x, &zero, d, out));
    FAILS(BAD, pdnnActivationForward(h, a, &one, dbl, x, &zero, d, out));
    FAILS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
          pdnnActivationForward(h, a, &one, half, x, &zero, half, out));
    FAILS(NUL, pdnnActivationForward(h, a, &one, d, NULL, &zero, d, out));
    FAILS(NUL, pdnnActivationForward(h, a, &one, d, x, &zero, d, NULL));
    FAILS(BAD, pdnnActivationForward(h, a, &one, overlap, x, &zero, overlap, out));
    /* partial overlap, and in place with different strides */
    FAILS(BAD, pdnnActivationForward(h, a, &one, small, out + 1, &zero, small, out));
    FAILS(BAD, pdnnActivationForward(h, a, &one, nhwc, out, &zero, d, out));
    /* legal: in place with one layout; disjoint halves of one buffer */
    TU_OK(pdnnActivationForward(h, a, &one, d, out, &zero, d, out));
    TU_OK(pdnnActivationForward(h, a, &one, small, out + 6, &zero, small, out));
    /* IDENTITY works in ActivationForward (pdnn extension) */
    TU_OK(pdnnSetActivationDescriptor(unset, PDNN_ACTIVATION_IDENTITY, PDNN_PROPAGATE_NAN, 0));
    TU_OK(pdnnActivationForward(h, unset, &one, d, x, &zero, d, out));

    /* backward: (y, dy, x) -> dx */
    FAILS(PDNN_STATUS_NOT_INITIALIZED,
          pdnnActivationBackward(NULL, a, &one, d, x, d, g, d, x, &zero, d, out));
    FAILS(NUL, pdnnActivationBackward(h, NULL, &one, d, x, d, g, d, x, &zero, d, out));
    FAILS(BAD, pdnnActivationBackward(h, gone, &one, d, x, d, g, d, x, &zero, d, out));
    FAILS(NUL, pdnnActivationBackward(h, a, NULL, d, x, d, g, d, x, &zero, d, out));
    FAILS(NUL, pdnnActivationBackward(h, a, &one, d, x, d, g, d, x, NULL, d, out));
    FAILS(NUL, pdnnActivationBackward(h, a, &one, NULL, x, d, g, d, x, &zero, d, out));
    FAILS(NUL, pdnnActivationBackward(h, a, &one, d, x, NULL, g, d, x, &zero, d, out));
    FAILS(NUL, pdnnActivationBackward(h, a, &one, d, x, d, g, NULL, x, &zero, d, out));
    FAILS(NUL, pdnnActivationBackward(h, a, &one, d, x, d, g, d, x, &zero, NULL, out));
    FAILS(BAD, pdnnActivationBackward(h, a, &one, gone_t, x, d, g, d, x, &zero, d, out));
    FAILS(BAD, pdnnActivationBackward(h, a, &one, d, x, unset_t, g, d, x, &zero, d, out));
    FAILS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
          pdnnActivationBackward(h, a, &one, other, x, d, g, d, x, &zero, d, out));
    FAILS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
          pdnnActivationBackward(h, a, &one, d, x, other, g, d, x, &zero, d, out));
    FAILS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
          pdnnActivationBackward(h, a, &one, d, x, d, g, rank3, x, &zero, d, out));
    FAILS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
          pdnnActivationBackward(h, a, &one, d, x, d, g, d, x, &zero, other, out));
    FAILS(BAD, pdnnActivationBackward(h, a, &one, d, x, dbl, g, d, x, &zero, d, out));
    FAILS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
          pdnnActivationBackward(h, a, &one, half, x, half, g, half, x, &zero, half, out));
    FAILS(NUL, pdnnActivationBackward(h, a, &one, d, NULL, d, g, d, x, &zero, d, out));
    FAILS(NUL, pdnnActivationBackward(h, a, &one, d, x, d, NULL, d, x, &zero, d, out));
    FAILS(NUL, pdnnActivationBackward(h, a, &one, d, x, d, g, d, NULL, &zero, d, out));
    FAILS(NUL, pdnnActivationBackward(h, a, &one, d, x, d, g, d, x, &zero, d, NULL));
    FAILS(BAD, pdnnActivationBackward(h, a, &one, d, x, d, g, d, x, &zero, overlap, out));
    FAILS(BAD, pdnnActivationBackward(h, a, &one, small, out + 2, small, g, small, x, &zero,
                                      small, out));
    FAILS(BAD, pdnnActivationBackward(h, a, &one, d, x, nhwc, out, d, x, &zero, d, out));
    FAILS(BAD, pdnnActivationBackward(h, a, &one, small, x, small, g, small, out + 3, &zero,
                                      small, out));
    TU_OK(pdnnActivationBackward(h, a, &one, d, x, d, out, d, x, &zero, d, out)); /* dx = dy */
    TU_OK(pdnnActivationBackward(h, a, &one, d, out, d, g, d, out, &zero, d, out));

    pdnnDestroyTensorDescriptor(d);
    pdnnDestroyTensorDescriptor(other);
    pdnnDestroyTensorDescriptor(rank3);
    pdnnDestroyTensorDescriptor(dbl);
    pdnnDestroyTensorDescriptor(half);
    pdnnDestroyTensorDescriptor(nhwc);
    pdnnDestroyTensorDescriptor(overlap);
    pdnnDestroyTensorDescriptor(small);
    pdnnDestroyTensorDescriptor(unset_t);
    pdnnDestroyActivationDescriptor(a);
    pdnnDestroyActivationDescriptor(unset);
    pdnnDestroy(h);
}

int main(void)
{
    descriptor();
    forward_backward();
    return tu_finish("api/activation");
}
