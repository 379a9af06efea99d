/*
 * pdnn/cnn.h - the layer operations of a convolutional network: activation,
 * softmax, pooling and convolution, forward and backward (cuDNN's legacy API).
 *
 * Tensor conventions are those of pdnn/tensor.h: alpha/beta blending, any strides,
 * FLOAT and DOUBLE computed, zero-sized dimensions are no-ops.
 */
#ifndef PDNN_CNN_H
#define PDNN_CNN_H

#include "pdnn/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ================================================================ activation */

typedef struct pdnnActivationStruct *pdnnActivationDescriptor_t;

typedef enum {
    PDNN_ACTIVATION_SIGMOID = 0,
    PDNN_ACTIVATION_RELU = 1,
    PDNN_ACTIVATION_TANH = 2,
    PDNN_ACTIVATION_CLIPPED_RELU = 3, /**< min(max(x, 0), coef) */
    PDNN_ACTIVATION_ELU = 4,          /**< x > 0 ? x : coef * (exp(x) - 1) */
    PDNN_ACTIVATION_IDENTITY = 5,
    PDNN_ACTIVATION_SWISH = 6,        /**< x * sigmoid(beta * x), beta from SwishBeta */
    /** Extension: GELU, x * Phi(x) with the exact erf form (PyTorch approximate='none'). */
    PDNN_ACTIVATION_GELU_ERF = 100,
    /** Extension: GELU, tanh form (PyTorch approximate='tanh'). */
    PDNN_ACTIVATION_GELU_TANH = 101
} pdnnActivationMode_t;

PDNN_API pdnnStatus_t pdnnCreateActivationDescriptor(pdnnActivationDescriptor_t *activationDesc);
/** coef: the clipping threshold for CLIPPED_RELU, alpha for ELU, unused otherwise.
 *  reluNanOpt: with PROPAGATE_NAN a NaN input gives NaN; with NOT_PROPAGATE_NAN the
 *  piecewise modes (RELU, CLIPPED_RELU) map NaN to 0. */
PDNN_API pdnnStatus_t pdnnSetActivationDescriptor(pdnnActivationDescriptor_t activationDesc,
                                                  pdnnActivationMode_t mode,
                                                  pdnnNanPropagation_t reluNanOpt,
                                                  double coef);
PDNN_API pdnnStatus_t pdnnGetActivationDescriptor(const pdnnActivationDescriptor_t activationDesc,
                                                  pdnnActivationMode_t *mode,
                                                  pdnnNanPropagation_t *reluNanOpt,
                                                  double *coef);
/** beta of SWISH: y = x * sigmoid(swish_beta * x); default 1. */
PDNN_API pdnnStatus_t pdnnSetActivationDescriptorSwishBeta(pdnnActivationDescriptor_t activationDesc,
                                                           double swish_beta);
PDNN_API pdnnStatus_t pdnnGetActivationDescriptorSwishBeta(pdnnActivationDescriptor_t activationDesc,
                                                           double *swish_beta);
PDNN_API pdnnStatus_t pdnnDestroyActivationDescriptor(pdnnActivationDescriptor_t activationDesc);

/** y = alpha * act(x) + beta * y, elementwise; x and y have equal dims, any strides;
 *  in place (x == y with equal descriptors) allowed. */
PDNN_API pdnnStatus_t pdnnActivationForward(pdnnHandle_t handle,
                                            pdnnActivationDescriptor_t activationDesc,
                                            const void *alpha,
                                            const pdnnTensorDescriptor_t xDesc,
                                            const void *x, const void *beta,
                                            const pdnnTensorDescriptor_t yDesc, void *y);
/** dx = alpha * act'(x) * dy + beta * dx. y is the forward output; x the forward input
 *  (cuDNN's argument order: y, dy, x). */
PDNN_API pdnnStatus_t pdnnActivationBackward(pdnnHandle_t handle,
                                             pdnnActivationDescriptor_t activationDesc,
                                             const void *alpha,
                                             const pdnnTensorDescriptor_t yDesc,
                                             const void *y,
                                             const pdnnTensorDescriptor_t dyDesc,
                                             const void *dy,
                                             const pdnnTensorDescriptor_t xDesc,
                                             const void *x, const void *beta,
                                             const pdnnTensorDescriptor_t dxDesc, void *dx);

/* ================================================================ softmax */

typedef enum {
    PDNN_SOFTMAX_FAST = 0,     /**< exp(x) / sum exp(x), no max subtraction */
    PDNN_SOFTMAX_ACCURATE = 1, /**< max subtracted first: never overflows */
    PDNN_SOFTMAX_LOG = 2       /**< log-softmax, x - max - log(sum exp(x - max)) */
} pdnnSoftmaxAlgorithm_t;

typedef enum {
    PDNN_SOFTMAX_MODE_INSTANCE = 0, /**< over C*H*W for each n */
    PDNN_SOFTMAX_MODE_CHANNEL = 1   /**< over C for each n, h, w */
} pdnnSoftmaxMode_t;

/** y = alpha * softmax(x) + beta * y on 4-d (or N-d, >= 2) tensors. */
PDNN_API pdnnStatus_t pdnnSoftmaxForward(pdnnHandle_t handle, pdnnSoftmaxAlgorithm_t algo,
                                         pdnnSoftmaxMode_t mode, const void *alpha,
                                         const pdnnTensorDescriptor_t xDesc,
                                         const void *x, const void *beta,
                                         const pdnnTensorDescriptor_t yDesc, void *y);
/** dx = alpha * J^T dy + beta * dx where y is the forward output: for FAST/ACCURATE
 *  dx = y * (dy - sum(dy * y)); for LOG dx = dy - exp(y) * sum(dy). */
PDNN_API pdnnStatus_t pdnnSoftmaxBackward(pdnnHandle_t handle, pdnnSoftmaxAlgorithm_t algo,
                                          pdnnSoftmaxMode_t mode, const void *alpha,
                                          const pdnnTensorDescriptor_t yDesc,
                                          const void *y,
                                          const pdnnTensorDescriptor_t dyDesc,
                                          const void *dy, const void *beta,
                                          const pdnnTensorDescriptor_t dxDesc, void *dx);

/* ================================================================ pooling */

typedef struct pdnnPoolingStruct *pdnnPoolingDescriptor_t;

typedef enum {
    PDNN_POOLING_MAX = 0,
    PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING = 1,
    PDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING = 2,
    PDNN_POOLING_MAX_DETERMINISTIC = 3
} pdnnPoolingMode_t;

PDNN_API pdnnStatus_t pdnnCreatePoolingDescriptor(pdnnPoolingDescriptor_t *poolingDesc);
PDNN_API pdnnStatus_t pdnnSetPooling2dDescriptor(pdnnPoolingDescriptor_t poolingDesc,
                                                 pdnnPoolingMode_t mode,
                                                 pdnnNanPropagation_t maxpoolingNanOpt,
                                                 int windowHeight, int windowWidth,
                                                 int verticalPadding, int horizontalPadding,
                                                 int verticalStride, int horizontalStride);
PDNN_API pdnnStatus_t pdnnGetPooling2dDescriptor(const pdnnPoolingDescriptor_t poolingDesc,
                                                 pdnnPoolingMode_t *mode,
                                                 pdnnNanPropagation_t *maxpoolingNanOpt,
                                                 int *windowHeight, int *windowWidth,
                                                 int *verticalPadding, int *horizontalPadding,
                                                 int *verticalStride, int *horizontalStride);
/** nbDims spatial dims (1 to 6). */
PDNN_API pdnnStatus_t pdnnSetPoolingNdDescriptor(pdnnPoolingDescriptor_t poolingDesc,
                                                 pdnnPoolingMode_t mode,
                                                 pdnnNanPropagation_t maxpoolingNanOpt,
                                                 int nbDims, const int windowDimA[],
                                                 const int paddingA[], const int strideA[]);
PDNN_API pdnnStatus_t pdnnGetPoolingNdDescriptor(const pdnnPoolingDescriptor_t poolingDesc,
                                                 int nbDimsRequested, pdnnPoolingMode_t *mode,
                                                 pdnnNanPropagation_t *maxpoolingNanOpt,
                                                 int *nbDims, int windowDimA[],
                                                 int paddingA[], int strideA[]);
/** Extension: asymmetric padding (begin/end per spatial dim, as ONNX pads and TF SAME
 *  need), dilation of the window and ceil mode (output size rounded up, never a window
 *  that starts inside the end padding). dilationA may be NULL (all 1). */
PDNN_API pdnnStatus_t pdnnSetPoolingNdDescriptorEx(pdnnPoolingDescriptor_t poolingDesc,
                                                   pdnnPoolingMode_t mode,
                                                   pdnnNanPropagation_t maxpoolingNanOpt,
                                                   int nbDims, const int windowDimA[],
                                                   const int padBeginA[], const int padEndA[],
                                                   const int strideA[], const int dilationA[],
                                                   int ceilMode);
PDNN_API pdnnStatus_t pdnnGetPoolingNdDescriptorEx(const pdnnPoolingDescriptor_t poolingDesc,
                                                   int nbDimsRequested, pdnnPoolingMode_t *mode,
                                                   pdnnNanPropagation_t *maxpoolingNanOpt,
                                                   int *nbDims, int windowDimA[],
                                                   int padBeginA[], int padEndA[],
                                                   int strideA[], int dilationA[],
                                                   int *ceilMode);
PDNN_API pdnnStatus_t pdnnGetPooling2dForwardOutputDim(const pdnnPoolingDescriptor_t poolingDesc,
                                                       const pdnnTensorDescriptor_t inputTensorDesc,
                                                       int *n, int *c, int *h, int *w);
PDNN_API pdnnStatus_t pdnnGetPoolingNdForwardOutputDim(const pdnnPoolingDescriptor_t poolingDesc,
                                                       const pdnnTensorDescriptor_t inputTensorDesc,
                                                       int nbDims, int outputTensorDimA[]);
PDNN_API pdnnStatus_t pdnnDestroyPoolingDescriptor(pdnnPoolingDescriptor_t poolingDesc);

PDNN_API pdnnStatus_t pdnnPoolingForward(pdnnHandle_t handle,
                                         const pdnnPoolingDescriptor_t poolingDesc,
                                         const void *alpha,
                                         const pdnnTensorDescriptor_t xDesc, const void *x,
                                         const void *beta,
                                         const pdnnTensorDescriptor_t yDesc, void *y);
PDNN_API pdnnStatus_t pdnnPoolingBackward(pdnnHandle_t handle,
                                          const pdnnPoolingDescriptor_t poolingDesc,
                                          const void *alpha,
                                          const pdnnTensorDescriptor_t yDesc, const void *y,
                                          const pdnnTensorDescriptor_t dyDesc, const void *dy,
                                          const pdnnTensorDescriptor_t xDesc, const void *x,
                                          const void *beta,
                                          const pdnnTensorDescriptor_t dxDesc, void *dx);

/* ================================================================ convolution */

typedef struct pdnnConvolutionStruct *pdnnConvolutionDescriptor_t;

typedef enum {
    PDNN_CONVOLUTION = 0,       /**< true convolution: the filter is flipped */
    PDNN_CROSS_CORRELATION = 1  /**< what deep-learning frameworks call convolution */
} pdnnConvolutionMode_t;

typedef enum {
    PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM = 0,
    PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM = 1,
    PDNN_CONVOLUTION_FWD_ALGO_GEMM = 2,
    PDNN_CONVOLUTION_FWD_ALGO_DIRECT = 3,
    PDNN_CONVOLUTION_FWD_ALGO_FFT = 4,
    PDNN_CONVOLUTION_FWD_ALGO_FFT_TILING = 5,
    PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD = 6,
    PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED = 7,
    PDNN_CONVOLUTION_FWD_ALGO_COUNT = 8
} pdnnConvolutionFwdAlgo_t;

typedef enum {
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_0 = 0,
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_1 = 1,
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT = 2,
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_3 = 3,
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD = 4,
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED = 5,
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT_TILING = 6,
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT = 7
} pdnnConvolutionBwdFilterAlgo_t;

typedef enum {
    PDNN_CONVOLUTION_BWD_DATA_ALGO_0 = 0,
    PDNN_CONVOLUTION_BWD_DATA_ALGO_1 = 1,
    PDNN_CONVOLUTION_BWD_DATA_ALGO_FFT = 2,
    PDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING = 3,
    PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD = 4,
    PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED = 5,
    PDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT = 6
} pdnnConvolutionBwdDataAlgo_t;

typedef struct {
    pdnnConvolutionFwdAlgo_t algo;
    pdnnStatus_t status;       /**< SUCCESS, or why the algorithm cannot run */
    float time;                /**< milliseconds (Find); -1 from Get (not run) */
    size_t memory;             /**< workspace bytes */
    pdnnDeterminism_t determinism;
    pdnnMathType_t mathType;
    int reserved[3];
} pdnnConvolutionFwdAlgoPerf_t;

typedef struct {
    pdnnConvolutionBwdFilterAlgo_t algo;
    pdnnStatus_t status;
    float time;
    size_t memory;
    pdnnDeterminism_t determinism;
    pdnnMathType_t mathType;
    int reserved[3];
} pdnnConvolutionBwdFilterAlgoPerf_t;

typedef struct {
    pdnnConvolutionBwdDataAlgo_t algo;
    pdnnStatus_t status;
    float time;
    size_t memory;
    pdnnDeterminism_t determinism;
    pdnnMathType_t mathType;
    int reserved[3];
} pdnnConvolutionBwdDataAlgoPerf_t;

PDNN_API pdnnStatus_t pdnnCreateConvolutionDescriptor(pdnnConvolutionDescriptor_t *convDesc);
PDNN_API pdnnStatus_t pdnnDestroyConvolutionDescriptor(pdnnConvolutionDescriptor_t convDesc);
/** 2-d convolution: pads (>= 0), strides u (vertical), v (horizontal) and dilations
 *  (>= 1); computeType FLOAT or DOUBLE (accumulation type). Group count 1 and
 *  DEFAULT_MATH until set. */
PDNN_API pdnnStatus_t pdnnSetConvolution2dDescriptor(pdnnConvolutionDescriptor_t convDesc,
                                                     int pad_h, int pad_w, int u, int v,
                                                     int dilation_h, int dilation_w,
                                                     pdnnConvolutionMode_t mode,
                                                     pdnnDataType_t computeType);
PDNN_API pdnnStatus_t pdnnGetConvolution2dDescriptor(const pdnnConvolutionDescriptor_t convDesc,
                                                     int *pad_h, int *pad_w, int *u, int *v,
                                                     int *dilation_h, int *dilation_w,
                                                     pdnnConvolutionMode_t *mode,
                                                     pdnnDataType_t *computeType);
/** arrayLength spatial dims (1 to 6): padA, filterStrideA, dilationA per dim. */
PDNN_API pdnnStatus_t pdnnSetConvolutionNdDescriptor(pdnnConvolutionDescriptor_t convDesc,
                                                     int arrayLength, const int padA[],
                                                     const int filterStrideA[],
                                                     const int dilationA[],
                                                     pdnnConvolutionMode_t mode,
                                                     pdnnDataType_t computeType);
PDNN_API pdnnStatus_t pdnnGetConvolutionNdDescriptor(const pdnnConvolutionDescriptor_t convDesc,
                                                     int arrayLengthRequested, int *arrayLength,
                                                     int padA[], int strideA[], int dilationA[],
                                                     pdnnConvolutionMode_t *mode,
                                                     pdnnDataType_t *computeType);
/** Extension: asymmetric padding, begin and end per spatial dim (ONNX pads, TF SAME).
 *  The symmetric Get functions report padBeginA. */
PDNN_API pdnnStatus_t pdnnSetConvolutionNdDescriptorEx(pdnnConvolutionDescriptor_t convDesc,
                                                       int arrayLength, const int padBeginA[],
                                                       const int padEndA[],
                                                       const int filterStrideA[],
                                                       const int dilationA[],
                                                       pdnnConvolutionMode_t mode,
                                                       pdnnDataType_t computeType);
PDNN_API pdnnStatus_t pdnnGetConvolutionNdDescriptorEx(const pdnnConvolutionDescriptor_t convDesc,
                                                       int arrayLengthRequested, int *arrayLength,
                                                       int padBeginA[], int padEndA[],
                                                       int strideA[], int dilationA[],
                                                       pdnnConvolutionMode_t *mode,
                                                       pdnnDataType_t *computeType);
PDNN_API pdnnStatus_t pdnnSetConvolutionGroupCount(pdnnConvolutionDescriptor_t convDesc,
                                                   int groupCount);
PDNN_API pdnnStatus_t pdnnGetConvolutionGroupCount(pdnnConvolutionDescriptor_t convDesc,
                                                   int *groupCount);
PDNN_API pdnnStatus_t pdnnSetConvolutionMathType(pdnnConvolutionDescriptor_t convDesc,
                                                 pdnnMathType_t mathType);
PDNN_API pdnnStatus_t pdnnGetConvolutionMathType(pdnnConvolutionDescriptor_t convDesc,
                                                 pdnnMathType_t *mathType);
/** Output dims of the forward convolution of inputTensorDesc by filterDesc:
 *  out = 1 + (in + padBegin + padEnd - ((k - 1) * dilation + 1)) / stride (floor).
 *  BAD_PARAM if channels disagree (C != filter C * groups, K % groups != 0) or the
 *  dilated filter is larger than the padded input. */
PDNN_API pdnnStatus_t pdnnGetConvolution2dForwardOutputDim(const pdnnConvolutionDescriptor_t convDesc,
                                                           const pdnnTensorDescriptor_t inputTensorDesc,
                                                           const pdnnFilterDescriptor_t filterDesc,
                                                           int *n, int *c, int *h, int *w);
PDNN_API pdnnStatus_t pdnnGetConvolutionNdForwardOutputDim(const pdnnConvolutionDescriptor_t convDesc,
                                                           const pdnnTensorDescriptor_t inputTensorDesc,
                                                           const pdnnFilterDescriptor_t filterDesc,
                                                           int nbDims, int tensorOuputDimA[]);

/* ---- forward */
PDNN_API pdnnStatus_t pdnnGetConvolutionForwardAlgorithmMaxCount(pdnnHandle_t handle, int *count);
/** Ranking by a cost model; never runs a kernel. time = -1 in each result. */
PDNN_API pdnnStatus_t pdnnGetConvolutionForwardAlgorithm_v7(pdnnHandle_t handle,
                                                            const pdnnTensorDescriptor_t srcDesc,
                                                            const pdnnFilterDescriptor_t filterDesc,
                                                            const pdnnConvolutionDescriptor_t convDesc,
                                                            const pdnnTensorDescriptor_t destDesc,
                                                            int requestedAlgoCount,
                                                            int *returnedAlgoCount,
                                                            pdnnConvolutionFwdAlgoPerf_t *perfResults);
/** Times every supporting algorithm (allocating its own buffers) and sorts by time. */
PDNN_API pdnnStatus_t pdnnFindConvolutionForwardAlgorithm(pdnnHandle_t handle,
                                                          const pdnnTensorDescriptor_t xDesc,
                                                          const pdnnFilterDescriptor_t wDesc,
                                                          const pdnnConvolutionDescriptor_t convDesc,
                                                          const pdnnTensorDescriptor_t yDesc,
                                                          int requestedAlgoCount,
                                                          int *returnedAlgoCount,
                                                          pdnnConvolutionFwdAlgoPerf_t *perfResults);
/** As Find, on the caller's buffers and within the caller's workspace; y is
 *  overwritten with scratch results. */
PDNN_API pdnnStatus_t pdnnFindConvolutionForwardAlgorithmEx(pdnnHandle_t handle,
                                                            const pdnnTensorDescriptor_t xDesc,
                                                            const void *x,
                                                            const pdnnFilterDescriptor_t wDesc,
                                                            const void *w,
                                                            const pdnnConvolutionDescriptor_t convDesc,
                                                            const pdnnTensorDescriptor_t yDesc,
                                                            void *y, int requestedAlgoCount,
                                                            int *returnedAlgoCount,
                                                            pdnnConvolutionFwdAlgoPerf_t *perfResults,
                                                            void *workSpace,
                                                            size_t workSpaceSizeInBytes);
PDNN_API pdnnStatus_t pdnnGetConvolutionForwardWorkspaceSize(pdnnHandle_t handle,
                                                             const pdnnTensorDescriptor_t xDesc,
                                                             const pdnnFilterDescriptor_t wDesc,
                                                             const pdnnConvolutionDescriptor_t convDesc,
                                                             const pdnnTensorDescriptor_t yDesc,
                                                             pdnnConvolutionFwdAlgo_t algo,
                                                             size_t *sizeInBytes);
/** y = alpha * conv(x, w) + beta * y. x: N x C x spatial, w: K x C/groups x filter,
 *  y: N x K x output spatial (GetConvolutionNdForwardOutputDim). */
PDNN_API pdnnStatus_t pdnnConvolutionForward(pdnnHandle_t handle, const void *alpha,
                                             const pdnnTensorDescriptor_t xDesc, const void *x,
                                             const pdnnFilterDescriptor_t wDesc, const void *w,
                                             const pdnnConvolutionDescriptor_t convDesc,
                                             pdnnConvolutionFwdAlgo_t algo, void *workSpace,
                                             size_t workSpaceSizeInBytes, const void *beta,
                                             const pdnnTensorDescriptor_t yDesc, void *y);
/** y = act(alpha1 * conv(x, w) + alpha2 * z + bias). bias is 1 x K x 1 x 1; z has y's
 *  dims (z may be y). activationDesc mode RELU or IDENTITY as in cuDNN, and in pdnn
 *  any mode of pdnnActivationForward. */
PDNN_API pdnnStatus_t pdnnConvolutionBiasActivationForward(pdnnHandle_t handle, const void *alpha1,
                                                           const pdnnTensorDescriptor_t xDesc,
                                                           const void *x,
                                                           const pdnnFilterDescriptor_t wDesc,
                                                           const void *w,
                                                           const pdnnConvolutionDescriptor_t convDesc,
                                                           pdnnConvolutionFwdAlgo_t algo,
                                                           void *workSpace,
                                                           size_t workSpaceSizeInBytes,
                                                           const void *alpha2,
                                                           const pdnnTensorDescriptor_t zDesc,
                                                           const void *z,
                                                           const pdnnTensorDescriptor_t biasDesc,
                                                           const void *bias,
                                                           const pdnnActivationDescriptor_t activationDesc,
                                                           const pdnnTensorDescriptor_t yDesc,
                                                           void *y);
/** db = alpha * sum over n and spatial of dy + beta * db; db is 1 x K x 1 x 1. */
PDNN_API pdnnStatus_t pdnnConvolutionBackwardBias(pdnnHandle_t handle, const void *alpha,
                                                  const pdnnTensorDescriptor_t dyDesc,
                                                  const void *dy, const void *beta,
                                                  const pdnnTensorDescriptor_t dbDesc, void *db);

/* ---- backward filter */
PDNN_API pdnnStatus_t pdnnGetConvolutionBackwardFilterAlgorithmMaxCount(pdnnHandle_t handle,
                                                                        int *count);
PDNN_API pdnnStatus_t pdnnFindConvolutionBackwardFilterAlgorithm(pdnnHandle_t handle,
                                                                 const pdnnTensorDescriptor_t xDesc,
                                                                 const pdnnTensorDescriptor_t dyDesc,
                                                                 const pdnnConvolutionDescriptor_t convDesc,
                                                                 const pdnnFilterDescriptor_t dwDesc,
                                                                 int requestedAlgoCount,
                                                                 int *returnedAlgoCount,
                                                                 pdnnConvolutionBwdFilterAlgoPerf_t *perfResults);
PDNN_API pdnnStatus_t pdnnFindConvolutionBackwardFilterAlgorithmEx(pdnnHandle_t handle,
                                                                   const pdnnTensorDescriptor_t xDesc,
                                                                   const void *x,
                                                                   const pdnnTensorDescriptor_t dyDesc,
                                                                   const void *y,
                                                                   const pdnnConvolutionDescriptor_t convDesc,
                                                                   const pdnnFilterDescriptor_t dwDesc,
                                                                   void *dw, int requestedAlgoCount,
                                                                   int *returnedAlgoCount,
                                                                   pdnnConvolutionBwdFilterAlgoPerf_t *perfResults,
                                                                   void *workSpace,
                                                                   size_t workSpaceSizeInBytes);
PDNN_API pdnnStatus_t pdnnGetConvolutionBackwardFilterAlgorithm_v7(pdnnHandle_t handle,
                                                                   const pdnnTensorDescriptor_t srcDesc,
                                                                   const pdnnTensorDescriptor_t diffDesc,
                                                                   const pdnnConvolutionDescriptor_t convDesc,
                                                                   const pdnnFilterDescriptor_t gradDesc,
                                                                   int requestedAlgoCount,
                                                                   int *returnedAlgoCount,
                                                                   pdnnConvolutionBwdFilterAlgoPerf_t *perfResults);
PDNN_API pdnnStatus_t pdnnGetConvolutionBackwardFilterWorkspaceSize(pdnnHandle_t handle,
                                                                    const pdnnTensorDescriptor_t xDesc,
                                                                    const pdnnTensorDescriptor_t dyDesc,
                                                                    const pdnnConvolutionDescriptor_t convDesc,
                                                                    const pdnnFilterDescriptor_t gradDesc,
                                                                    pdnnConvolutionBwdFilterAlgo_t algo,
                                                                    size_t *sizeInBytes);
/** dw = alpha * dL/dw + beta * dw. */
PDNN_API pdnnStatus_t pdnnConvolutionBackwardFilter(pdnnHandle_t handle, const void *alpha,
                                                    const pdnnTensorDescriptor_t xDesc,
                                                    const void *x,
                                                    const pdnnTensorDescriptor_t dyDesc,
                                                    const void *dy,
                                                    const pdnnConvolutionDescriptor_t convDesc,
                                                    pdnnConvolutionBwdFilterAlgo_t algo,
                                                    void *workSpace, size_t workSpaceSizeInBytes,
                                                    const void *beta,
                                                    const pdnnFilterDescriptor_t dwDesc, void *dw);

/* ---- backward data */
PDNN_API pdnnStatus_t pdnnGetConvolutionBackwardDataAlgorithmMaxCount(pdnnHandle_t handle,
                                                                      int *count);
PDNN_API pdnnStatus_t pdnnFindConvolutionBackwardDataAlgorithm(pdnnHandle_t handle,
                                                               const pdnnFilterDescriptor_t wDesc,
                                                               const pdnnTensorDescriptor_t dyDesc,
                                                               const pdnnConvolutionDescriptor_t convDesc,
                                                               const pdnnTensorDescriptor_t dxDesc,
                                                               int requestedAlgoCount,
                                                               int *returnedAlgoCount,
                                                               pdnnConvolutionBwdDataAlgoPerf_t *perfResults);
PDNN_API pdnnStatus_t pdnnFindConvolutionBackwardDataAlgorithmEx(pdnnHandle_t handle,
                                                                 const pdnnFilterDescriptor_t wDesc,
                                                                 const void *w,
                                                                 const pdnnTensorDescriptor_t dyDesc,
                                                                 const void *dy,
                                                                 const pdnnConvolutionDescriptor_t convDesc,
                                                                 const pdnnTensorDescriptor_t dxDesc,
                                                                 void *dx, int requestedAlgoCount,
                                                                 int *returnedAlgoCount,
                                                                 pdnnConvolutionBwdDataAlgoPerf_t *perfResults,
                                                                 void *workSpace,
                                                                 size_t workSpaceSizeInBytes);
PDNN_API pdnnStatus_t pdnnGetConvolutionBackwardDataAlgorithm_v7(pdnnHandle_t handle,
                                                                 const pdnnFilterDescriptor_t filterDesc,
                                                                 const pdnnTensorDescriptor_t diffDesc,
                                                                 const pdnnConvolutionDescriptor_t convDesc,
                                                                 const pdnnTensorDescriptor_t gradDesc,
                                                                 int requestedAlgoCount,
                                                                 int *returnedAlgoCount,
                                                                 pdnnConvolutionBwdDataAlgoPerf_t *perfResults);
PDNN_API pdnnStatus_t pdnnGetConvolutionBackwardDataWorkspaceSize(pdnnHandle_t handle,
                                                                  const pdnnFilterDescriptor_t wDesc,
                                                                  const pdnnTensorDescriptor_t dyDesc,
                                                                  const pdnnConvolutionDescriptor_t convDesc,
                                                                  const pdnnTensorDescriptor_t dxDesc,
                                                                  pdnnConvolutionBwdDataAlgo_t algo,
                                                                  size_t *sizeInBytes);
/** dx = alpha * dL/dx + beta * dx (the transposed convolution of dy by w). */
PDNN_API pdnnStatus_t pdnnConvolutionBackwardData(pdnnHandle_t handle, const void *alpha,
                                                  const pdnnFilterDescriptor_t wDesc,
                                                  const void *w,
                                                  const pdnnTensorDescriptor_t dyDesc,
                                                  const void *dy,
                                                  const pdnnConvolutionDescriptor_t convDesc,
                                                  pdnnConvolutionBwdDataAlgo_t algo,
                                                  void *workSpace, size_t workSpaceSizeInBytes,
                                                  const void *beta,
                                                  const pdnnTensorDescriptor_t dxDesc, void *dx);

#ifdef __cplusplus
}
#endif
#endif /* PDNN_CNN_H */
