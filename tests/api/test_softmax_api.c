/* pdnnSoftmaxForward/Backward misuse: NULL pointers, destroyed, unset and wrong-kind
 * descriptors, bad algorithm and mode enums, rank 1, mismatched shapes and types, HALF,
 * overlapping buffers -> the documented status, a message, and the output untouched. */
#include <string.h>

#include "testutil.h"

static float out[24], saved[24];

#define FAILS(st, call)                                                                 \
    do {                                                                                \
        for (int i_ = 0; i_ < 24; i_++) out[i_] = 100.0f + i_;                          \
        memcpy(saved, out, sizeof out);                                                 \
        TU_STATUS(st, call);                                                            \
        TU_CHECK(!memcmp(saved, out, sizeof out), "%s wrote its output", #call);        \
    } while (0)

int main(void)
{
    pdnnHandle_t h, dead;
    TU_OK(pdnnCreate(&h));
    TU_OK(pdnnCreate(&dead));
    TU_OK(pdnnDestroy(dead));
    pdnnTensorDescriptor_t d = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 3, 2, 2);
    pdnnTensorDescriptor_t other = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 3, 2, 1);
    int d1[1] = {24}, d5[5] = {2, 3, 2, 2, 1};
    pdnnTensorDescriptor_t rank1 = tu_tensor(PDNN_DATA_FLOAT, 1, d1, NULL);
    pdnnTensorDescriptor_t rank5 = tu_tensor(PDNN_DATA_FLOAT, 5, d5, NULL);
    pdnnTensorDescriptor_t dbl = tu_tensor4d(PDNN_DATA_DOUBLE, PDNN_TENSOR_NCHW, 2, 3, 2, 2);
    pdnnTensorDescriptor_t half = tu_tensor4d(PDNN_DATA_HALF, PDNN_TENSOR_NCHW, 2, 3, 2, 2);
    pdnnTensorDescriptor_t bf16 = tu_tensor4d(PDNN_DATA_BFLOAT16, PDNN_TENSOR_NCHW, 2, 3, 2, 2);
    pdnnTensorDescriptor_t nhwc = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NHWC, 2, 3, 2, 2);
    int od[2] = {2, 12}, os[2] = {1, 1};
    pdnnTensorDescriptor_t overlap = tu_tensor(PDNN_DATA_FLOAT, 2, od, os);
    int sd[2] = {2, 3};
    pdnnTensorDescriptor_t small = tu_tensor(PDNN_DATA_FLOAT, 2, sd, NULL);
    pdnnTensorDescriptor_t unset_t, gone_t;
    TU_OK(pdnnCreateTensorDescriptor(&unset_t));
    TU_OK(pdnnCreateTensorDescriptor(&gone_t));
    TU_OK(pdnnDestroyTensorDescriptor(gone_t));
    pdnnActivationDescriptor_t act;
    TU_OK(pdnnCreateActivationDescriptor(&act));
    pdnnTensorDescriptor_t wrong = (pdnnTensorDescriptor_t)(void *)act;
    float x[24] = {0}, g[24] = {0}, one = 1, zero = 0;
    const pdnnStatus_t NUL = PDNN_STATUS_BAD_PARAM_NULL_POINTER, BAD = PDNN_STATUS_BAD_PARAM;
    const pdnnSoftmaxAlgorithm_t A = PDNN_SOFTMAX_ACCURATE;
    const pdnnSoftmaxMode_t M = PDNN_SOFTMAX_MODE_CHANNEL;

    /* forward */
    FAILS(PDNN_STATUS_NOT_INITIALIZED, pdnnSoftmaxForward(NULL, A, M, &one, d, x, &zero, d, out));
    FAILS(PDNN_STATUS_NOT_INITIALIZED, pdnnSoftmaxForward(dead, A, M, &one, d, x, &zero, d, out));
    FAILS(BAD, pdnnSoftmaxForward(h, (pdnnSoftmaxAlgorithm_t)3, M, &one, d, x, &zero, d, out));
    FAILS(BAD, pdnnSoftmaxForward(h, (pdnnSoftmaxAlgorithm_t)-1, M, &one, d, x, &zero, d, out));
    FAILS(BAD, pdnnSoftmaxForward(h, A, (pdnnSoftmaxMode_t)2, &one, d, x, &zero, d, out));
    FAILS(NUL, pdnnSoftmaxForward(h, A, M, NULL, d, x, &zero, d, out));
    FAILS(NUL, pdnnSoftmaxForward(h, A, M, &one, d, x, NULL, d, out));
    FAILS(NUL, pdnnSoftmaxForward(h, A, M, &one, NULL, x, &zero, d, out));
    FAILS(NUL, pdnnSoftmaxForward(h, A, M, &one, d, x, &zero, NULL, out));
    FAILS(BAD, pdnnSoftmaxForward(h, A, M, &one, unset_t, x, &zero, d, out));
    FAILS(BAD, pdnnSoftmaxForward(h, A, M, &one, d, x, &zero, gone_t, out));
    FAILS(BAD, pdnnSoftmaxForward(h, A, M, &one, wrong, x, &zero, d, out));
    FAILS(BAD, pdnnSoftmaxForward(h, A, M, &one, rank1, x, &zero, rank1, out));
    FAILS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
          pdnnSoftmaxForward(h, A, M, &one, d, x, &zero, other, out));
    FAILS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
          pdnnSoftmaxForward(h, A, M, &one, rank5, x, &zero, d, out));
    FAILS(BAD, pdnnSoftmaxForward(h, A, M, &one, dbl, x, &zero, d, out));
    FAILS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
          pdnnSoftmaxForward(h, A, M, &one, half, x, &zero, half, out));
    FAILS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
          pdnnSoftmaxForward(h, A, M, &one, bf16, x, &zero, bf16, out));
    FAILS(NUL, pdnnSoftmaxForward(h, A, M, &one, d, NULL, &zero, d, out));
    FAILS(NUL, pdnnSoftmaxForward(h, A, M, &one, d, x, &zero, d, NULL));
    FAILS(BAD, pdnnSoftmaxForward(h, A, M, &one, overlap, x, &zero, overlap, out));
    FAILS(BAD, pdnnSoftmaxForward(h, A, M, &one, small, out + 1, &zero, small, out));
    FAILS(BAD, pdnnSoftmaxForward(h, A, M, &one, nhwc, out, &zero, d, out));
    TU_OK(pdnnSoftmaxForward(h, A, M, &one, d, out, &zero, d, out)); /* in place */
    TU_OK(pdnnSoftmaxForward(h, PDNN_SOFTMAX_LOG, PDNN_SOFTMAX_MODE_INSTANCE, &one, small,
                             out + 6, &zero, small, out)); /* disjoint halves */

    /* backward: (y, dy) -> dx */
    FAILS(PDNN_STATUS_NOT_INITIALIZED,
          pdnnSoftmaxBackward(NULL, A, M, &one, d, x, d, g, &zero, d, out));
    FAILS(BAD, pdnnSoftmaxBackward(h, (pdnnSoftmaxAlgorithm_t)9, M, &one, d, x, d, g, &zero, d,
                                   out));
    FAILS(BAD, pdnnSoftmaxBackward(h, A, (pdnnSoftmaxMode_t)-3, &one, d, x, d, g, &zero, d, out));
    FAILS(NUL, pdnnSoftmaxBackward(h, A, M, NULL, d, x, d, g, &zero, d, out));
    FAILS(NUL, pdnnSoftmaxBackward(h, A, M, &one, d, x, d, g, NULL, d, out));
    FAILS(NUL, pdnnSoftmaxBackward(h, A, M, &one, NULL, x, d, g, &zero, d, out));
    FAILS(NUL, pdnnSoftmaxBackward(h, A, M, &one, d, x, NULL, g, &zero, d, out));
    FAILS(NUL, pdnnSoftmaxBackward(h, A, M, &one, d, x, d, g, &zero, NULL, out));
    FAILS(BAD, pdnnSoftmaxBackward(h, A, M, &one, gone_t, x, d, g, &zero, d, out));
    FAILS(BAD, pdnnSoftmaxBackward(h, A, M, &one, d, x, unset_t, g, &zero, d, out));
    FAILS(BAD, pdnnSoftmaxBackward(h, A, M, &one, d, x, d, g, &zero, wrong, out));
    FAILS(BAD, pdnnSoftmaxBackward(h, A, M, &one, rank1, x, rank1, g, &zero, rank1, out));
    FAILS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
          pdnnSoftmaxBackward(h, A, M, &one, other, x, d, g, &zero, d, out));
    FAILS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
          pdnnSoftmaxBackward(h, A, M, &one, d, x, other, g, &zero, d, out));
    FAILS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
          pdnnSoftmaxBackward(h, A, M, &one, d, x, d, g, &zero, rank5, out));
    FAILS(BAD, pdnnSoftmaxBackward(h, A, M, &one, d, x, dbl, g, &zero, d, out));
    FAILS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
          pdnnSoftmaxBackward(h, A, M, &one, half, x, half, g, &zero, half, out));
    FAILS(NUL, pdnnSoftmaxBackward(h, A, M, &one, d, NULL, d, g, &zero, d, out));
    FAILS(NUL, pdnnSoftmaxBackward(h, A, M, &one, d, x, d, NULL, &zero, d, out));
    FAILS(NUL, pdnnSoftmaxBackward(h, A, M, &one, d, x, d, g, &zero, d, NULL));
    FAILS(BAD, pdnnSoftmaxBackward(h, A, M, &one, d, x, d, g, &zero, overlap, out));
    FAILS(BAD, pdnnSoftmaxBackward(h, A, M, &one, small, out + 4, small, g, &zero, small, out));
    FAILS(BAD, pdnnSoftmaxBackward(h, A, M, &one, d, x, nhwc, out, &zero, d, out));
    TU_OK(pdnnSoftmaxBackward(h, A, M, &one, d, x, d, out, &zero, d, out)); /* dx = dy */
    TU_OK(pdnnSoftmaxBackward(h, A, M, &one, d, out, d, g, &zero, d, out)); /* dx = y */

    pdnnDestroyTensorDescriptor(d);
    pdnnDestroyTensorDescriptor(other);
    pdnnDestroyTensorDescriptor(rank1);
    pdnnDestroyTensorDescriptor(rank5);
    pdnnDestroyTensorDescriptor(dbl);
    pdnnDestroyTensorDescriptor(half);
    pdnnDestroyTensorDescriptor(bf16);
    pdnnDestroyTensorDescriptor(nhwc);
    pdnnDestroyTensorDescriptor(overlap);
    pdnnDestroyTensorDescriptor(small);
    pdnnDestroyTensorDescriptor(unset_t);
    pdnnDestroyActivationDescriptor(act);
    pdnnDestroy(h);
    return tu_finish("api/softmax");
}
