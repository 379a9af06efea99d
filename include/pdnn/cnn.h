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

/** Activation functions (cuDNN's modes and values, plus two GELU extensions). */
typedef enum {
    PDNN_ACTIVATION_SIGMOID = 0,      /**< 1 / (1 + exp(-x)) */
    PDNN_ACTIVATION_RELU = 1,         /**< max(x, 0); coef is ignored */
    PDNN_ACTIVATION_TANH = 2,
    PDNN_ACTIVATION_CLIPPED_RELU = 3, /**< min(max(x, 0), coef) */
    PDNN_ACTIVATION_ELU = 4,          /**< x > 0 ? x : coef * (exp(x) - 1) */
    /** x. cuDNN accepts it only in ConvolutionBiasActivationForward; pdnn (extension)
     *  also accepts it in ActivationForward/Backward: y = x, dx = dy. */
    PDNN_ACTIVATION_IDENTITY = 5,
    PDNN_ACTIVATION_SWISH = 6,        /**< x * sigmoid(beta * x), beta from SwishBeta */
    /** Extension: GELU, x * Phi(x) with the exact erf form (PyTorch approximate='none'). */
    PDNN_ACTIVATION_GELU_ERF = 100,
    /** Extension: GELU, tanh form (PyTorch approximate='tanh'). */
    PDNN_ACTIVATION_GELU_TANH = 101
} pdnnActivationMode_t;

/** Creates an unset activation descriptor (swish beta 1). Using it in an op before
 *  pdnnSetActivationDescriptor is BAD_PARAM. BAD_PARAM_NULL_POINTER if activationDesc is
 *  NULL, ALLOC_FAILED when memory runs out. */
PDNN_API pdnnStatus_t pdnnCreateActivationDescriptor(pdnnActivationDescriptor_t *activationDesc);
/** coef: the clipping threshold for CLIPPED_RELU, alpha for ELU, unused otherwise.
 *  reluNanOpt: with PROPAGATE_NAN a NaN input gives NaN; with NOT_PROPAGATE_NAN the
 *  piecewise modes (RELU, CLIPPED_RELU) map NaN to 0 (value and gradient). The smooth
 *  modes always propagate NaN. cuDNN gives no range for coef; pdnn follows PyTorch's
 *  Hardtanh (max_val > min_val = 0) and ELU and refuses, with BAD_PARAM: coef NaN in any
 *  mode; CLIPPED_RELU coef <= 0 (+Inf is accepted: no ceiling); ELU coef not finite.
 *  BAD_PARAM also for a mode or reluNanOpt that is not an enumerant, and for a NULL
 *  (BAD_PARAM_NULL_POINTER), destroyed or wrong-kind descriptor. Does not change the
 *  swish beta. On error the descriptor is unchanged. */
PDNN_API pdnnStatus_t pdnnSetActivationDescriptor(pdnnActivationDescriptor_t activationDesc,
                                                  pdnnActivationMode_t mode,
                                                  pdnnNanPropagation_t reluNanOpt,
                                                  double coef);
/** Reads back what Set stored. BAD_PARAM for an unset, destroyed or wrong-kind
 *  descriptor; BAD_PARAM_NULL_POINTER for a NULL descriptor or output pointer. */
PDNN_API pdnnStatus_t pdnnGetActivationDescriptor(const pdnnActivationDescriptor_t activationDesc,
                                                  pdnnActivationMode_t *mode,
                                                  pdnnNanPropagation_t *reluNanOpt,
                                                  double *coef);
/** beta of SWISH: y = x * sigmoid(swish_beta * x); default 1, kept by
 *  pdnnSetActivationDescriptor; may be set before or after it. Any finite value
 *  (BAD_PARAM for NaN or Inf). Get works on an unset descriptor (returns the default). */
PDNN_API pdnnStatus_t pdnnSetActivationDescriptorSwishBeta(pdnnActivationDescriptor_t activationDesc,
                                                           double swish_beta);
PDNN_API pdnnStatus_t pdnnGetActivationDescriptorSwishBeta(pdnnActivationDescriptor_t activationDesc,
                                                           double *swish_beta);
/** Destroys a descriptor; NULL is accepted and ignored. BAD_PARAM for a destroyed or
 *  wrong-kind pointer. */
PDNN_API pdnnStatus_t pdnnDestroyActivationDescriptor(pdnnActivationDescriptor_t activationDesc);

/** y = alpha * act(x) + beta * y, elementwise (cuDNN semantics; GELU as PyTorch).
 *  x and y: equal dims (1 to 8 dims), same type (FLOAT or DOUBLE), any strides; y's
 *  strides must not alias elements. In place: x == y with equal strides, as cuDNN
 *  requires; any other overlap of x and y is BAD_PARAM. A zero-sized tensor is a no-op
 *  (x and y may then be NULL). Every mode, IDENTITY included, is accepted (cuDNN refuses
 *  IDENTITY here). Computed in double, rounded once. Infinite inputs give the limits
 *  (GELU(-inf) = 0).
 *  Statuses: NOT_INITIALIZED (handle); BAD_PARAM_NULL_POINTER (NULL descriptor, alpha,
 *  beta, or data of a non-empty tensor); BAD_PARAM (unset, destroyed or wrong-kind
 *  descriptor, x/y types differ, aliasing y strides, overlap); BAD_PARAM_SHAPE_MISMATCH
 *  (dims differ); NOT_SUPPORTED_DATA_TYPE (HALF, BFLOAT16, INT8, ...). */
PDNN_API pdnnStatus_t pdnnActivationForward(pdnnHandle_t handle,
                                            pdnnActivationDescriptor_t activationDesc,
                                            const void *alpha,
                                            const pdnnTensorDescriptor_t xDesc,
                                            const void *x, const void *beta,
                                            const pdnnTensorDescriptor_t yDesc, void *y);
/** dx = alpha * act'(x) * dy + beta * dx. y is the forward output; x the forward input
 *  (cuDNN's argument order: y, dy, x). SIGMOID and TANH take the derivative from y
 *  (y (1 - y), 1 - y^2: pass the y that ActivationForward gave with alpha 1, beta 0);
 *  the other modes from x. RELU and CLIPPED_RELU select, as PyTorch's threshold_backward
 *  and hardtanh_backward: where the derivative is 0 (x <= 0, x >= coef) dx gets 0 even
 *  when dy is Inf or NaN; at a NaN x they give NaN with PROPAGATE_NAN, else 0.
 *  All four tensors: equal dims, one type, any strides. In place: dx may be the very
 *  same view (pointer and strides) as dy, y or x; any other overlap is BAD_PARAM.
 *  Statuses as pdnnActivationForward. */
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

/** Softmax algorithms (cuDNN's). pdnn evaluates exp and the sums in double (sums
 *  compensated), rounding once to the tensor's type. */
typedef enum {
    /** exp(x) / sum exp(x), no max subtraction: overflows by definition, here once exp
     *  overflows double (x > ~709: Inf/NaN), or gives NaN when every exp underflows. */
    PDNN_SOFTMAX_FAST = 0,
    /** exp(x - max) / sum exp(x - max): never overflows, accurate for any finite
     *  input (e.g. 1e7 + small: x - max is exact). */
    PDNN_SOFTMAX_ACCURATE = 1,
    /** log-softmax, (x - max) - log(sum exp(x - max)), the log taken as log1p of the
     *  terms other than the max's so that it stays accurate near 0. */
    PDNN_SOFTMAX_LOG = 2
} pdnnSoftmaxAlgorithm_t;

/** Which elements a softmax normalises together. Dim 0 is N, dim 1 is C, the rest
 *  spatial (H, W; D, H, W; up to 6). For a 2-d N x C tensor both modes are the same. */
typedef enum {
    PDNN_SOFTMAX_MODE_INSTANCE = 0, /**< over C*H*W (all dims but N) for each n */
    PDNN_SOFTMAX_MODE_CHANNEL = 1   /**< over C for each n and spatial position */
} pdnnSoftmaxMode_t;

/** y = alpha * softmax(x) + beta * y (cuDNN semantics). x and y: equal dims, 2 to 8 of
 *  them (cuDNN documents 4-d and 5-d; pdnn reads any rank as N, C, spatial...), same type
 *  (FLOAT or DOUBLE), any strides (y's must not alias elements). In place: x == y with
 *  equal strides; any other overlap is BAD_PARAM. A zero-sized tensor is a no-op.
 *  NaN in a row makes that row NaN, other rows unaffected (as PyTorch); a row of only
 *  -Inf, or containing +Inf, gives NaN in ACCURATE and LOG. Results do not depend on the
 *  thread count.
 *  Statuses: NOT_INITIALIZED (handle); BAD_PARAM (algo or mode not an enumerant, rank 1,
 *  unset/destroyed/wrong-kind descriptor, types differ, aliasing strides, overlap);
 *  BAD_PARAM_NULL_POINTER (NULL descriptor, alpha, beta, or data of a non-empty tensor);
 *  BAD_PARAM_SHAPE_MISMATCH (dims differ); NOT_SUPPORTED_DATA_TYPE (HALF, BFLOAT16,
 *  ...). */
PDNN_API pdnnStatus_t pdnnSoftmaxForward(pdnnHandle_t handle, pdnnSoftmaxAlgorithm_t algo,
                                         pdnnSoftmaxMode_t mode, const void *alpha,
                                         const pdnnTensorDescriptor_t xDesc,
                                         const void *x, const void *beta,
                                         const pdnnTensorDescriptor_t yDesc, void *y);
/** dx = alpha * J^T dy + beta * dx where y is the forward output: for FAST/ACCURATE
 *  dx = y * (dy - sum(dy * y)); for LOG dx = dy - exp(y) * sum(dy) (sums over the rows
 *  of `mode`, compensated, in double). y, dy, dx: equal dims and type, any strides; dx
 *  may be the very same view as dy or y (in place), no other overlap. Statuses as
 *  pdnnSoftmaxForward. */
PDNN_API pdnnStatus_t pdnnSoftmaxBackward(pdnnHandle_t handle, pdnnSoftmaxAlgorithm_t algo,
                                          pdnnSoftmaxMode_t mode, const void *alpha,
                                          const pdnnTensorDescriptor_t yDesc,
                                          const void *y,
                                          const pdnnTensorDescriptor_t dyDesc,
                                          const void *dy, const void *beta,
                                          const pdnnTensorDescriptor_t dxDesc, void *dx);

/* ================================================================ pooling */

/*
 * Pooling semantics (cuDNN's; PyTorch's where cuDNN is silent, as marked):
 * - Windows are visited in row-major order (depth, then height, then width). Padding
 *   positions are never selected by max pooling (they act as -infinity).
 * - Output size per spatial dim, with pb/pe the begin/end padding and
 *   eff = (window - 1) * dilation + 1: out = 1 + (in + pb + pe - eff) / stride, rounded
 *   down (cuDNN's formula), or up in ceil mode, where a last window that would start at
 *   or after the end of the real input (inside the end padding) is dropped (PyTorch's
 *   rule: if (out - 1) * stride >= in + pb then out--). A zero-sized input dim gives a
 *   zero-sized output dim (pdnn's rule).
 * - MAX and MAX_DETERMINISTIC are the same here and both deterministic. NaN (maxpooling
 *   NanOpt): PROPAGATE gives NaN for a window holding a NaN; NOT_PROPAGATE ignores NaNs
 *   (a window of NaNs only gives NaN: pdnn's rule). Ties select the first element in
 *   window order (PyTorch's).
 * - AVERAGE_COUNT_INCLUDE_PADDING divides by the window positions inside the padded
 *   input (the full window size, except for windows that ceil mode extends past the end
 *   padding: PyTorch's count); AVERAGE_COUNT_EXCLUDE_PADDING divides by the real input
 *   positions in the window.
 * - A dilated window may hold padding only (pdnn's rule): max gives -infinity (as
 *   PyTorch) and passes no gradient, average gives 0.
 */
typedef struct pdnnPoolingStruct *pdnnPoolingDescriptor_t;

typedef enum {
    PDNN_POOLING_MAX = 0,
    PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING = 1,
    PDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING = 2,
    PDNN_POOLING_MAX_DETERMINISTIC = 3
} pdnnPoolingMode_t;

/** Creates an unset pooling descriptor (ops refuse it with BAD_PARAM until a Set call
 *  succeeds). BAD_PARAM_NULL_POINTER if poolingDesc is NULL, ALLOC_FAILED. */
PDNN_API pdnnStatus_t pdnnCreatePoolingDescriptor(pdnnPoolingDescriptor_t *poolingDesc);
/** 2-d pooling: window, symmetric padding and stride per dim (height, width), dilation
 *  1, floor rounding. BAD_PARAM for an unknown mode or NaN option, window < 1,
 *  stride < 1, padding < 0, or padding >= the window (pdnn requires every padding to
 *  be smaller than the dilated window, as ONNX Runtime does; PyTorch is stricter,
 *  padding <= half the window). On failure the descriptor keeps its previous value. */
PDNN_API pdnnStatus_t pdnnSetPooling2dDescriptor(pdnnPoolingDescriptor_t poolingDesc,
                                                 pdnnPoolingMode_t mode,
                                                 pdnnNanPropagation_t maxpoolingNanOpt,
                                                 int windowHeight, int windowWidth,
                                                 int verticalPadding, int horizontalPadding,
                                                 int verticalStride, int horizontalStride);
/** Reads a 2-d descriptor. BAD_PARAM if it is unset, not 2-d, or uses asymmetric
 *  padding, dilation or ceil mode (read those with pdnnGetPoolingNdDescriptorEx);
 *  BAD_PARAM_NULL_POINTER for a NULL output. */
PDNN_API pdnnStatus_t pdnnGetPooling2dDescriptor(const pdnnPoolingDescriptor_t poolingDesc,
                                                 pdnnPoolingMode_t *mode,
                                                 pdnnNanPropagation_t *maxpoolingNanOpt,
                                                 int *windowHeight, int *windowWidth,
                                                 int *verticalPadding, int *horizontalPadding,
                                                 int *verticalStride, int *horizontalStride);
/** nbDims spatial dims (1 to 6 described; the ops compute 1 to 3, i.e. 3-d to 5-d
 *  tensors): window, symmetric padding and stride per spatial dim. Rules and statuses
 *  as pdnnSetPooling2dDescriptor; BAD_PARAM for nbDims outside [1, 6],
 *  BAD_PARAM_NULL_POINTER for a NULL array. */
PDNN_API pdnnStatus_t pdnnSetPoolingNdDescriptor(pdnnPoolingDescriptor_t poolingDesc,
                                                 pdnnPoolingMode_t mode,
                                                 pdnnNanPropagation_t maxpoolingNanOpt,
                                                 int nbDims, const int windowDimA[],
                                                 const int paddingA[], const int strideA[]);
/** Writes min(nbDimsRequested, nbDims) entries of each array and the real count in
 *  *nbDims. BAD_PARAM if unset, nbDimsRequested < 0, or the descriptor uses asymmetric
 *  padding, dilation or ceil mode; BAD_PARAM_NULL_POINTER for a NULL output (arrays may
 *  be NULL when nbDimsRequested is 0). */
PDNN_API pdnnStatus_t pdnnGetPoolingNdDescriptor(const pdnnPoolingDescriptor_t poolingDesc,
                                                 int nbDimsRequested, pdnnPoolingMode_t *mode,
                                                 pdnnNanPropagation_t *maxpoolingNanOpt,
                                                 int *nbDims, int windowDimA[],
                                                 int paddingA[], int strideA[]);
/** Extension: asymmetric padding (begin/end per spatial dim, as ONNX pads and TF SAME
 *  need), dilation of the window and ceil mode (output size rounded up, never a window
 *  that starts inside the end padding). dilationA may be NULL (all 1); ceilMode is 0 or
 *  1. BAD_PARAM for dilation < 1, ceilMode not 0/1, or either padding >= the dilated
 *  window (window - 1) * dilation + 1; otherwise as pdnnSetPoolingNdDescriptor. */
PDNN_API pdnnStatus_t pdnnSetPoolingNdDescriptorEx(pdnnPoolingDescriptor_t poolingDesc,
                                                   pdnnPoolingMode_t mode,
                                                   pdnnNanPropagation_t maxpoolingNanOpt,
                                                   int nbDims, const int windowDimA[],
                                                   const int padBeginA[], const int padEndA[],
                                                   const int strideA[], const int dilationA[],
                                                   int ceilMode);
/** Extension: reads any descriptor (entries as pdnnGetPoolingNdDescriptor; dilationA
 *  may be NULL, ceilMode may not). */
PDNN_API pdnnStatus_t pdnnGetPoolingNdDescriptorEx(const pdnnPoolingDescriptor_t poolingDesc,
                                                   int nbDimsRequested, pdnnPoolingMode_t *mode,
                                                   pdnnNanPropagation_t *maxpoolingNanOpt,
                                                   int *nbDims, int windowDimA[],
                                                   int padBeginA[], int padEndA[],
                                                   int strideA[], int dilationA[],
                                                   int *ceilMode);
/** Output dims of pooling a 4-d input with a 2-d descriptor (formula above): n and c
 *  copied. BAD_PARAM if the descriptor is not 2-d or a dilated window is larger than its
 *  padded input; SHAPE_MISMATCH if inputTensorDesc is not 4-d; BAD_PARAM_OUT_OF_BOUND if
 *  a size does not fit an int. */
PDNN_API pdnnStatus_t pdnnGetPooling2dForwardOutputDim(const pdnnPoolingDescriptor_t poolingDesc,
                                                       const pdnnTensorDescriptor_t inputTensorDesc,
                                                       int *n, int *c, int *h, int *w);
/** Output dims (N, C, spatial...) of pooling inputTensorDesc, whose rank must be the
 *  descriptor's spatial dims + 2 (SHAPE_MISMATCH otherwise); nbDims must equal that rank
 *  (BAD_PARAM otherwise). Other statuses as pdnnGetPooling2dForwardOutputDim. */
PDNN_API pdnnStatus_t pdnnGetPoolingNdForwardOutputDim(const pdnnPoolingDescriptor_t poolingDesc,
                                                       const pdnnTensorDescriptor_t inputTensorDesc,
                                                       int nbDims, int outputTensorDimA[]);
/** Releases a descriptor; NULL is a no-op. BAD_PARAM if not a live pooling
 *  descriptor. */
PDNN_API pdnnStatus_t pdnnDestroyPoolingDescriptor(pdnnPoolingDescriptor_t poolingDesc);

/** y = alpha * pool(x) + beta * y (y not read when beta == 0), semantics above.
 *  x: N x C x (D x) H x W or N x C x W (1-d to 3-d pooling), any strides (NCHW, NHWC,
 *  gapped, permuted); y: the dims pdnnGetPoolingNdForwardOutputDim gives, any
 *  non-overlapping strides, not sharing memory with x (pooling is never in place).
 *  Statuses: NOT_INITIALIZED (handle); BAD_PARAM_NULL_POINTER (descriptor, alpha, beta,
 *  or a data pointer of a non-empty tensor); BAD_PARAM (unset or destroyed descriptor,
 *  data types differ, window larger than the padded input, overlapping y strides, x and
 *  y overlap); SHAPE_MISMATCH (x's rank is not spatial dims + 2, y's dims differ from
 *  the output dims); NOT_SUPPORTED_SHAPE (more than 3 spatial dims);
 *  NOT_SUPPORTED_DATA_TYPE (other than FLOAT and DOUBLE). Zero-sized tensors: SUCCESS,
 *  nothing touched. Deterministic and independent of the thread count. */
PDNN_API pdnnStatus_t pdnnPoolingForward(pdnnHandle_t handle,
                                         const pdnnPoolingDescriptor_t poolingDesc,
                                         const void *alpha,
                                         const pdnnTensorDescriptor_t xDesc, const void *x,
                                         const void *beta,
                                         const pdnnTensorDescriptor_t yDesc, void *y);
/** dx = alpha * dL/dx + beta * dx (dx not read when beta == 0), cuDNN's argument order:
 *  y and dy have the output dims, x and dx the input dims; all one data type. Max: each
 *  window's gradient dy goes to its selected element (the first maximum in window order,
 *  recomputed from x; y is validated but not read); average: dy / divisor to each real
 *  position of the window. Computed as a gather over dx elements in a fixed order, so
 *  deterministic and independent of the thread count. dx may not share memory with y,
 *  dy or x. Statuses as pdnnPoolingForward, for every tensor. */
PDNN_API pdnnStatus_t pdnnPoolingBackward(pdnnHandle_t handle,
                                          const pdnnPoolingDescriptor_t poolingDesc,
                                          const void *alpha,
                                          const pdnnTensorDescriptor_t yDesc, const void *y,
                                          const pdnnTensorDescriptor_t dyDesc, const void *dy,
                                          const pdnnTensorDescriptor_t xDesc, const void *x,
                                          const void *beta,
                                          const pdnnTensorDescriptor_t dxDesc, void *dx);

/* ================================================================ convolution */

/*
 * Convolution (cuDNN's semantics; PyTorch's conv1d/2d/3d and conv_transpose where cuDNN
 * is silent). Conventions of every convolution call:
 * - x and y are N x C x spatial with 1 to 3 spatial dims (3-d to 5-d tensors), any
 *   positive strides (NCHW, NHWC, NCDHW, NDHWC or gapped); the filter is K x C/groups x
 *   spatial, KCRS (format NCHW) or KRSC (format NHWC). The convolution descriptor has
 *   as many spatial dims as the tensors minus 2.
 * - out = 1 + (in + padBegin + padEnd - ((k - 1) * dilation + 1)) / stride (floor);
 *   y's dims must be exactly those (pdnnGetConvolutionNdForwardOutputDim).
 * - Groups: C = filter C * groups and K % groups == 0 (depthwise: groups = C, K = m*C).
 * - PDNN_CONVOLUTION flips the filter spatially; PDNN_CROSS_CORRELATION does not.
 * - Data types: x, w, y (and z, bias) share one type. FLOAT data accumulates in the
 *   descriptor's computeType FLOAT or DOUBLE; DOUBLE data in DOUBLE. Other data types
 *   or combinations: PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE.
 * - Blending out = alpha * result + beta * out; with beta == 0, out is never read.
 * - Zero-sized batch (N == 0): a no-op, except that backward filter/bias write
 *   dw = beta * dw (the gradient of an empty batch is zero). Data pointers may be NULL
 *   only for tensors without elements.
 * - Inputs and the output must not share memory (BAD_PARAM): no in-place convolution.
 * - With workSpaceSizeInBytes > 0, the bytes [workSpace, workSpace + size) must not
 *   overlap the memory of any data tensor of the call (x, w, y; dx, dw, dy; z and bias
 *   for the fused call; the Ex Find functions too): BAD_PARAM.
 * - Algorithms implemented: forward IMPLICIT_GEMM, IMPLICIT_PRECOMP_GEMM, DIRECT and
 *   GEMM, backward data ALGO_0 (direct) and ALGO_1 (GEMM), backward filter ALGO_0
 *   (direct) and ALGO_1 (GEMM); Winograd (3x3 and 5x5, stride 1, 2-d; not exact): forward
 *   WINOGRAD and WINOGRAD_NONFUSED, backward data WINOGRAD and WINOGRAD_NONFUSED,
 *   backward filter WINOGRAD_NONFUSED. Any other valid
 *   enum value returns PDNN_STATUS_NOT_SUPPORTED; a value outside the enum BAD_PARAM.
 *   Results are deterministic and do not depend on the thread count.
 * - Statuses: NOT_INITIALIZED (handle), BAD_PARAM_NULL_POINTER (descriptor, scalar or
 *   data pointer NULL; workSpace NULL with a nonzero size), BAD_PARAM (destroyed, unset
 *   or wrong-kind descriptor, mismatched data types, K % groups, in-place, a workspace
 *   overlapping a tensor),
 *   BAD_PARAM_SHAPE_MISMATCH (ranks, channels, y's dims), BAD_PARAM_SIZE_INSUFFICIENT
 *   (workspace smaller than the algorithm's pdnnGet*WorkspaceSize; the message gives the
 *   bytes needed; except forward DIRECT and backward ALGO_0, whose specialised paths
 *   give way to the next path that fits the workspace, down to the reference loops,
 *   which needs none: see their notes), NOT_SUPPORTED_SHAPE (more than 3 spatial dims), NOT_SUPPORTED (the
 *   algorithm), NOT_SUPPORTED_DATA_TYPE. Nothing is written when a call fails.
 */

typedef struct pdnnConvolutionStruct *pdnnConvolutionDescriptor_t;

typedef enum {
    PDNN_CONVOLUTION = 0,       /**< true convolution: the filter is flipped */
    PDNN_CROSS_CORRELATION = 1  /**< what deep-learning frameworks call convolution */
} pdnnConvolutionMode_t;

typedef enum {
    /** GEMM without an im2col matrix: slices of it gathered from x on the stack right
     *  before use, the filter read in place; no workspace. Every problem GEMM serves. */
    PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM = 0,
    /** As IMPLICIT_GEMM, through tap and pixel index tables and the packed filter kept
     *  in the workspace (about the filter's size). Every problem GEMM serves. */
    PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM = 1,
    PDNN_CONVOLUTION_FWD_ALGO_GEMM = 2,
    /** Specialised paths first: few input channels (FLOAT on AVX-512, one group of 1-4
     *  input and at least 8 output channels, 1-d or 2-d, dilation 1, stride 1 with output
     *  rows as wide as the input rows or stride 2 with output rows at least half as
     *  wide, at most 49 taps a channel and 64 over the channels, y planes stored flat:
     *  the first layers of LeNet, VGG and MobileNet; masked flat planes, no im2col;
     *  workspace: the packed filter, the padding masks and at stride 2 the stride
     *  phases of a few images; without it the next path runs); zero-padded stride-phase
     *  planes (FLOAT at the AVX2 level exactly, one group, no 1x1 filter, 1-d or 2-d,
     *  stride up to 4, any dilation and padding, at most 64 taps a channel, y with a
     *  unit column stride: x copied into its stride phases with its padding, the filter
     *  read in place; the padding adds w * 0 as im2col's zeros do; workspace: the copy
     *  of a few images and, above 16 input channels, a scratch of y's sums); depthwise (one input channel per group, any multiplier; workspace: the
     *  transposed filter for channels-last), then 1x1 filters without padding before
     *  (plain GEMMs, no im2col; workspace: the packed filter for channels-last x and y,
     *  else none); every other problem: the reference loops. */
    PDNN_CONVOLUTION_FWD_ALGO_DIRECT = 3,
    PDNN_CONVOLUTION_FWD_ALGO_FFT = 4,
    PDNN_CONVOLUTION_FWD_ALGO_FFT_TILING = 5,
    /** Winograd F(4x4, 3x3) for 3x3 filters and F(4x4, 5x5) for 5x5 filters (Lavin &
     *  Gray 2016): stride 1, dilation 1, 2-d, any padding, groups, both modes, any
     *  layout, FLOAT and DOUBLE (accumulating in the data type); other problems
     *  NOT_SUPPORTED. Not exact: relative error within 2e-5 (3x3) / 4e-5 (5x5) for FLOAT,
     *  5e-14 / 1e-13 for DOUBLE, on uniform(-1, 1) data. Tiles go in blocks that stay in
     *  the L2 cache. Workspace: the transformed filter (36 (3x3) or 64 (5x5) K C/groups
     *  elements) and one block; NCHW with few tiles (one small image) adds a
     *  channels-last copy of x, and where those few tiles meet a transformed filter
     *  larger than L2 it is made and used in L2-sized pieces (a quarter of L2 per
     *  64-channel panel of K) instead of whole. (cuDNN serves 5x5 through
     *  WINOGRAD_NONFUSED only.) */
    PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD = 6,
    /** As WINOGRAD, in blocks of ~16 MiB of transformed data. */
    PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED = 7,
    PDNN_CONVOLUTION_FWD_ALGO_COUNT = 8
} pdnnConvolutionFwdAlgo_t;

typedef enum {
    /** The 1x1 path (workspace: a dW-sized buffer, plus one packed block for
     *  channels-last); broadcast sums (FLOAT, AVX-512, one group, 1-2 spatial dims, at
     *  most 1024 taps over the input channels, x rows and dy planes stored flat; any
     *  stride, dilation, padding: sums along 32 output channels of dy transposed, the
     *  source values broadcast from zero-padded copies of their rows; workspace ~(2-4
     *  row slots x K/32 x C R S x 32 + C R S x 32) floats and the rows' copies); the
     *  depthwise paths (one input channel per group); every other problem the
     *  reference. */
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_0 = 0,
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_1 = 1,
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT = 2,
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_3 = 3,
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD = 4,
    /** Winograd F(4x4, 3x3) / F(4x4, 5x5): problems and error bounds as forward
     *  WINOGRAD; the sum over images and tiles in a fixed order. Workspace: the
     *  transformed gradient (36 or 64 K C/groups elements) and ~8 MiB of transformed x
     *  and dy. */
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED = 5,
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT_TILING = 6,
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT = 7
} pdnnConvolutionBwdFilterAlgo_t;

typedef enum {
    /** Depthwise and 1x1 paths as forward DIRECT (1x1 workspace: the packed filter);
     *  FLOAT at the AVX2 level exactly, by stride phases of dx (one group, no 1x1 filter,
     *  1-d or 2-d, stride 1 or 2, any dilation and padding, at most 64 taps a channel, dx
     *  with a unit column stride): dy copied with its padding, each phase of dx a
     *  correlation of dy with the taps that reach it, the filter read in place;
     *  workspace: the padded dy of a few images and a scratch of dx's phases); every other
     *  problem the reference. */
    PDNN_CONVOLUTION_BWD_DATA_ALGO_0 = 0,
    PDNN_CONVOLUTION_BWD_DATA_ALGO_1 = 1,
    PDNN_CONVOLUTION_BWD_DATA_ALGO_FFT = 2,
    PDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING = 3,
    /** Winograd F(4x4, 3x3) / F(4x4, 5x5) on dy with the filter rotated by 180 degrees:
     *  problems, error bounds and workspace as forward WINOGRAD (cache-sized blocks). */
    PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD = 4,
    /** As WINOGRAD, in blocks of ~16 MiB of transformed data. */
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

/** Creates an unset descriptor (groups 1, DEFAULT_MATH); ops refuse it until a Set
 *  call. BAD_PARAM_NULL_POINTER if convDesc is NULL. */
PDNN_API pdnnStatus_t pdnnCreateConvolutionDescriptor(pdnnConvolutionDescriptor_t *convDesc);
/** NULL is accepted and ignored; BAD_PARAM for a pointer that is not a live
 *  convolution descriptor. */
PDNN_API pdnnStatus_t pdnnDestroyConvolutionDescriptor(pdnnConvolutionDescriptor_t convDesc);
/** 2-d convolution: pads (>= 0), strides u (vertical), v (horizontal) and dilations
 *  (>= 1); computeType the accumulation type. Group count 1 and DEFAULT_MATH until set.
 *  BAD_PARAM for a negative pad, a stride or dilation below 1, an unknown mode, or a
 *  computeType other than FLOAT, DOUBLE, HALF, BFLOAT16, INT32 (the descriptor accepts
 *  those; the ops compute FLOAT and DOUBLE only). A failed Set changes nothing. */
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
/** arrayLength spatial dims (1 to 6; the ops compute 1 to 3): padA, filterStrideA,
 *  dilationA per dim, validated as in pdnnSetConvolution2dDescriptor.
 *  pdnnGetConvolution2dDescriptor returns BAD_PARAM unless there are 2 spatial dims;
 *  pdnnGetConvolutionNdDescriptor writes min(arrayLengthRequested, arrayLength) values
 *  and the real count to *arrayLength. */
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
 *  dilationA may be NULL (all 1). The symmetric Get functions report padBeginA. */
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
/** groupCount >= 1 (BAD_PARAM otherwise); may be set before or after the Set call. */
PDNN_API pdnnStatus_t pdnnSetConvolutionGroupCount(pdnnConvolutionDescriptor_t convDesc,
                                                   int groupCount);
PDNN_API pdnnStatus_t pdnnGetConvolutionGroupCount(pdnnConvolutionDescriptor_t convDesc,
                                                   int *groupCount);
/** Any pdnnMathType_t (BAD_PARAM otherwise). Recorded and returned; the CPU backend
 *  computes in the data/compute type whatever it says. */
PDNN_API pdnnStatus_t pdnnSetConvolutionMathType(pdnnConvolutionDescriptor_t convDesc,
                                                 pdnnMathType_t mathType);
PDNN_API pdnnStatus_t pdnnGetConvolutionMathType(pdnnConvolutionDescriptor_t convDesc,
                                                 pdnnMathType_t *mathType);
/** Output dims of the forward convolution of inputTensorDesc by filterDesc:
 *  N, K, then out = 1 + (in + padBegin + padEnd - ((k - 1) * dilation + 1)) / stride
 *  (floor). BAD_PARAM_SHAPE_MISMATCH if the ranks are not nbSpatial + 2 or
 *  C != filter C * groups; BAD_PARAM if K % groups != 0, the dilated filter is larger
 *  than the padded input, or (Nd) nbDims is not the input's rank. Nothing is written on
 *  failure. */
PDNN_API pdnnStatus_t pdnnGetConvolution2dForwardOutputDim(const pdnnConvolutionDescriptor_t convDesc,
                                                           const pdnnTensorDescriptor_t inputTensorDesc,
                                                           const pdnnFilterDescriptor_t filterDesc,
                                                           int *n, int *c, int *h, int *w);
PDNN_API pdnnStatus_t pdnnGetConvolutionNdForwardOutputDim(const pdnnConvolutionDescriptor_t convDesc,
                                                           const pdnnTensorDescriptor_t inputTensorDesc,
                                                           const pdnnFilterDescriptor_t filterDesc,
                                                           int nbDims, int tensorOuputDimA[]);

/* ---- forward */
/** *count = the number of enum values (PDNN_CONVOLUTION_FWD_ALGO_COUNT); the same for
 *  the backward MaxCount functions. */
PDNN_API pdnnStatus_t pdnnGetConvolutionForwardAlgorithmMaxCount(pdnnHandle_t handle, int *count);
/** Ranks every algorithm without running a kernel: those that run for this problem
 *  first (status SUCCESS, memory = workspace bytes, determinism), ordered by the times
 *  Find measured for this problem and thread count when it has timed them all, else by
 *  pdnn's cost model (an estimate from the sizes: multiply-adds, Winograd's reduced
 *  count, register-tile fill, packing and memory traffic, at the current ISA's rate;
 *  nothing runs); then every other algorithm with status NOT_SUPPORTED. time = -1 and mathType
 *  DEFAULT_MATH in each result; *returnedAlgoCount = min(requestedAlgoCount, COUNT).
 *  Validates the descriptors as ConvolutionForward does; requestedAlgoCount < 1 is
 *  BAD_PARAM. The backward _v7 functions behave the same. */
PDNN_API pdnnStatus_t pdnnGetConvolutionForwardAlgorithm_v7(pdnnHandle_t handle,
                                                            const pdnnTensorDescriptor_t srcDesc,
                                                            const pdnnFilterDescriptor_t filterDesc,
                                                            const pdnnConvolutionDescriptor_t convDesc,
                                                            const pdnnTensorDescriptor_t destDesc,
                                                            int requestedAlgoCount,
                                                            int *returnedAlgoCount,
                                                            pdnnConvolutionFwdAlgoPerf_t *perfResults);
/** Times every algorithm that runs for this problem on zeroed buffers and workspace
 *  it allocates (one warm-up run, then the median of up to 5 runs) and returns them
 *  sorted by time, then the others with status NOT_SUPPORTED (time -1). Times are
 *  cached in memory (process-wide) per problem, thread count and ISA cap, so a repeated
 *  Find (or FindEx) runs nothing.
 *  ALLOC_FAILED when the buffers cannot be allocated. The backward Find functions
 *  behave the same. */
PDNN_API pdnnStatus_t pdnnFindConvolutionForwardAlgorithm(pdnnHandle_t handle,
                                                          const pdnnTensorDescriptor_t xDesc,
                                                          const pdnnFilterDescriptor_t wDesc,
                                                          const pdnnConvolutionDescriptor_t convDesc,
                                                          const pdnnTensorDescriptor_t yDesc,
                                                          int requestedAlgoCount,
                                                          int *returnedAlgoCount,
                                                          pdnnConvolutionFwdAlgoPerf_t *perfResults);
/** As Find, on the caller's buffers and within the caller's workspace; y may be
 *  overwritten with scratch results. An algorithm needing more workspace than given is
 *  listed after the timed ones with status BAD_PARAM_SIZE_INSUFFICIENT and memory =
 *  the bytes it needs. Validates buffers as ConvolutionForward does. */
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
/** Workspace bytes algo needs for this problem. BAD_PARAM for a value outside the
 *  enum; NOT_SUPPORTED when no implementation of algo supports the problem (the
 *  message says why). The backward WorkspaceSize functions behave the same. */
PDNN_API pdnnStatus_t pdnnGetConvolutionForwardWorkspaceSize(pdnnHandle_t handle,
                                                             const pdnnTensorDescriptor_t xDesc,
                                                             const pdnnFilterDescriptor_t wDesc,
                                                             const pdnnConvolutionDescriptor_t convDesc,
                                                             const pdnnTensorDescriptor_t yDesc,
                                                             pdnnConvolutionFwdAlgo_t algo,
                                                             size_t *sizeInBytes);
/** y = alpha * conv(x, w) + beta * y. x: N x C x spatial, w: K x C/groups x filter,
 *  y: N x K x output spatial (GetConvolutionNdForwardOutputDim):
 *  y[n,k,o] = sum_{c < C/g, t} x[n, (k / (K/g)) * C/g + c, o*stride - padBegin +
 *  t*dilation] * w[k, c, t] (t flipped for PDNN_CONVOLUTION), out-of-range x being 0.
 *  Conventions and statuses: see the top of this section. */
PDNN_API pdnnStatus_t pdnnConvolutionForward(pdnnHandle_t handle, const void *alpha,
                                             const pdnnTensorDescriptor_t xDesc, const void *x,
                                             const pdnnFilterDescriptor_t wDesc, const void *w,
                                             const pdnnConvolutionDescriptor_t convDesc,
                                             pdnnConvolutionFwdAlgo_t algo, void *workSpace,
                                             size_t workSpaceSizeInBytes, const void *beta,
                                             const pdnnTensorDescriptor_t yDesc, void *y);
/** y = act(alpha1 * conv(x, w) + alpha2 * z + bias). bias is 1 x K x 1 x 1 (y's rank,
 *  y's type); z has y's dims and type and is either y itself (same pointer and
 *  strides) or memory apart from y (BAD_PARAM otherwise); with alpha2 == 0, z is not
 *  read and may be NULL (zDesc is still validated). activationDesc mode RELU or IDENTITY as in cuDNN, and in pdnn any mode of
 *  pdnnActivationForward. The convolution result is stored in y's type before the bias
 *  and activation are applied. Statuses as ConvolutionForward, plus
 *  SHAPE_MISMATCH for z or bias dims and BAD_PARAM for an unset activation. */
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
/** db = alpha * sum over n and spatial of dy + beta * db; dy is N x K x spatial (3 to
 *  8 dims, BAD_PARAM otherwise), db is 1 x K x 1... of dy's rank and type
 *  (SHAPE_MISMATCH / BAD_PARAM otherwise); any strides; N == 0 gives db = beta * db.
 *  Summed in double in a fixed order. */
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
/** dw = alpha * dL/dw + beta * dw, dw[k,c,t] = sum_{n,o} x[n, g*C/g + c, o*stride -
 *  padBegin + t*dilation] * dy[n,k,o] (t flipped for PDNN_CONVOLUTION); dw's format
 *  (KCRS or KRSC) is that of dwDesc. ALGO_0: direct, ALGO_1: GEMM. */
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
/** dx = alpha * dL/dx + beta * dx (the transposed convolution of dy by w, PyTorch's
 *  conv_transpose with the same parameters). ALGO_0: direct, ALGO_1: GEMM. */
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
