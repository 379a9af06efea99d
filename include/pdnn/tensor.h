/*
 * pdnn/tensor.h - tensor and filter descriptors and the tensor operations
 * (cuDNN's cudnnSetTensor, cudnnScaleTensor, cudnnAddTensor, cudnnOpTensor,
 * cudnnTransformTensor, cudnnReduceTensor).
 *
 * Conventions shared by every op in pdnn:
 * - Tensors have 1 to 8 dimensions (4-d and 5-d for NCHW/NCDHW ops) with positive
 *   sizes or zero-sized dimensions (a valid no-op), and positive 64-bit strides in
 *   elements. An output descriptor whose strides may make two elements share memory is
 *   refused with BAD_PARAM. The rule is a sufficient one: sorting the dims of size > 1
 *   by stride, each stride must exceed the extent of the smaller-stride dims (the sum of
 *   (dim - 1) * stride over them). It accepts every permuted packed layout and any
 *   layout with gaps, and also refuses a few layouts that do not overlap, such as dims
 *   {3, 3} with strides {3, 2}.
 * - Scaling factors alpha/beta point to a float for FLOAT tensors and to a double for
 *   DOUBLE tensors, as in cuDNN. Outputs blend: y = alpha * op(x) + beta * y; with
 *   beta == 0 the output is never read (NaN already in y never reaches the result).
 * - Errors return a status and record a message (pdnnGetLastErrorString); nothing the
 *   caller passed in is written when a call fails validation.
 */
#ifndef PDNN_TENSOR_H
#define PDNN_TENSOR_H

#include "pdnn/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest number of tensor dimensions (cuDNN's CUDNN_DIM_MAX is 8). */
#define PDNN_DIM_MAX 8

typedef struct pdnnTensorStruct *pdnnTensorDescriptor_t;
typedef struct pdnnFilterStruct *pdnnFilterDescriptor_t;
typedef struct pdnnOpTensorStruct *pdnnOpTensorDescriptor_t;
typedef struct pdnnReduceTensorStruct *pdnnReduceTensorDescriptor_t;

/* ---------------------------------------------------------------- tensor descriptor */

/** Creates an unset tensor descriptor (using it before a Set call is BAD_PARAM). */
PDNN_API pdnnStatus_t pdnnCreateTensorDescriptor(pdnnTensorDescriptor_t *tensorDesc);
/** Destroys a descriptor; NULL is accepted and ignored (cuDNN). BAD_PARAM for a pointer
 *  that is not a live tensor descriptor. */
PDNN_API pdnnStatus_t pdnnDestroyTensorDescriptor(pdnnTensorDescriptor_t tensorDesc);

/** 4-d tensor n x c x h x w, packed in the given format (NCHW or NHWC). Sizes may be
 *  0 (a zero-sized tensor).
 *  Statuses: BAD_PARAM_NULL_POINTER / BAD_PARAM for a NULL, destroyed or wrong-kind
 *  descriptor; BAD_PARAM for a negative size, a byte size that overflows 64 bits, or
 *  an unknown format or data type (as cuDNN). The descriptor is unchanged on error. */
PDNN_API pdnnStatus_t pdnnSetTensor4dDescriptor(pdnnTensorDescriptor_t tensorDesc,
                                                pdnnTensorFormat_t format,
                                                pdnnDataType_t dataType, int n, int c,
                                                int h, int w);
/** 4-d tensor with explicit strides in elements (any values >= 1; sizes >= 0).
 *  Statuses as pdnnSetTensor4dDescriptor; BAD_PARAM for a stride < 1. */
PDNN_API pdnnStatus_t pdnnSetTensor4dDescriptorEx(pdnnTensorDescriptor_t tensorDesc,
                                                  pdnnDataType_t dataType, int n, int c,
                                                  int h, int w, int nStride, int cStride,
                                                  int hStride, int wStride);
/** Reads a 4-d descriptor. BAD_PARAM if the descriptor does not have 4 dimensions or
 *  was never set; BAD_PARAM_NULL_POINTER for a NULL output pointer;
 *  BAD_PARAM_OUT_OF_BOUND when a size or stride does not fit an int (then nothing is
 *  written). */
PDNN_API pdnnStatus_t pdnnGetTensor4dDescriptor(const pdnnTensorDescriptor_t tensorDesc,
                                                pdnnDataType_t *dataType, int *n, int *c,
                                                int *h, int *w, int *nStride,
                                                int *cStride, int *hStride,
                                                int *wStride);
/** N-d tensor (1 <= nbDims <= 8) with explicit strides in elements (>= 1) and sizes
 *  (>= 0). Statuses as pdnnSetTensor4dDescriptorEx, and BAD_PARAM for nbDims out of
 *  range. */
PDNN_API pdnnStatus_t pdnnSetTensorNdDescriptor(pdnnTensorDescriptor_t tensorDesc,
                                                pdnnDataType_t dataType, int nbDims,
                                                const int dimA[], const int strideA[]);
/** N-d packed tensor in a format: NCHW packs dims in order; NHWC puts dimension 1
 *  (channels) innermost (NDHWC for 5-d). nbDims 3 to 8. */
PDNN_API pdnnStatus_t pdnnSetTensorNdDescriptorEx(pdnnTensorDescriptor_t tensorDesc,
                                                  pdnnTensorFormat_t format,
                                                  pdnnDataType_t dataType, int nbDims,
                                                  const int dimA[]);
/** Reads up to nbDimsRequested dims and strides (dimA/strideA may be NULL when
 *  nbDimsRequested is 0); *nbDims gets the real count, which may exceed
 *  nbDimsRequested. BAD_PARAM_OUT_OF_BOUND when a returned size or stride does not fit
 *  an int. */
PDNN_API pdnnStatus_t pdnnGetTensorNdDescriptor(const pdnnTensorDescriptor_t tensorDesc,
                                                int nbDimsRequested,
                                                pdnnDataType_t *dataType, int *nbDims,
                                                int dimA[], int strideA[]);
/** Bytes spanned by the tensor: (1 + sum (dim_i - 1) * stride_i) * element size, 0 for
 *  a zero-sized tensor. */
PDNN_API pdnnStatus_t pdnnGetTensorSizeInBytes(const pdnnTensorDescriptor_t tensorDesc,
                                               size_t *size);

/* ---------------------------------------------------------------- filter descriptor */

/** Creates an unset filter descriptor; BAD_PARAM_NULL_POINTER if filterDesc is NULL. */
PDNN_API pdnnStatus_t pdnnCreateFilterDescriptor(pdnnFilterDescriptor_t *filterDesc);
/** Destroys a filter descriptor; NULL is ignored, BAD_PARAM for a pointer that is
 *  not a live filter descriptor. */
PDNN_API pdnnStatus_t pdnnDestroyFilterDescriptor(pdnnFilterDescriptor_t filterDesc);
/** Filter k x c x h x w (output channels, input channels per group, rows, columns);
 *  format NCHW means KCRS, NHWC means KRSC. Always packed. Every size must be >= 1
 *  (a filter is never zero-sized, unlike tensors). Statuses: BAD_PARAM for a size < 1,
 *  an unknown format or data type, a byte size overflowing 64 bits, or a NULL,
 *  destroyed or wrong-kind descriptor (BAD_PARAM_NULL_POINTER for NULL). The
 *  descriptor is unchanged on error. */
PDNN_API pdnnStatus_t pdnnSetFilter4dDescriptor(pdnnFilterDescriptor_t filterDesc,
                                                pdnnDataType_t dataType,
                                                pdnnTensorFormat_t format, int k, int c,
                                                int h, int w);
/** Reads a 4-d filter. BAD_PARAM if it has another rank or was never set;
 *  BAD_PARAM_NULL_POINTER for a NULL output pointer. */
PDNN_API pdnnStatus_t pdnnGetFilter4dDescriptor(const pdnnFilterDescriptor_t filterDesc,
                                                pdnnDataType_t *dataType,
                                                pdnnTensorFormat_t *format, int *k,
                                                int *c, int *h, int *w);
/** N-d filter: filterDimA = {K, C, spatial...}, 3 <= nbDims <= 8, each >= 1.
 *  Statuses as pdnnSetFilter4dDescriptor. */
PDNN_API pdnnStatus_t pdnnSetFilterNdDescriptor(pdnnFilterDescriptor_t filterDesc,
                                                pdnnDataType_t dataType,
                                                pdnnTensorFormat_t format, int nbDims,
                                                const int filterDimA[]);
/** Reads up to nbDimsRequested sizes; *nbDims gets the real count. Statuses as
 *  pdnnGetFilter4dDescriptor. */
PDNN_API pdnnStatus_t pdnnGetFilterNdDescriptor(const pdnnFilterDescriptor_t filterDesc,
                                                int nbDimsRequested,
                                                pdnnDataType_t *dataType,
                                                pdnnTensorFormat_t *format, int *nbDims,
                                                int filterDimA[]);
/** Bytes of the packed filter: product of the sizes times the element size. */
PDNN_API pdnnStatus_t pdnnGetFilterSizeInBytes(const pdnnFilterDescriptor_t filterDesc,
                                               size_t *size);

/* ---------------------------------------------------------------- tensor operations */

/** Sets every element of y to *valuePtr (a float for FLOAT, a double for DOUBLE)
 *  (cuDNN's cudnnSetTensor). Any rank and strides; gaps between elements are not
 *  written. Statuses: NOT_INITIALIZED (handle); BAD_PARAM for a destroyed, unset or
 *  wrong-kind yDesc or strides that map two elements to one address;
 *  BAD_PARAM_NULL_POINTER for NULL yDesc, valuePtr, or y when y has elements;
 *  NOT_SUPPORTED_DATA_TYPE unless FLOAT or DOUBLE. Zero elements: SUCCESS, nothing
 *  touched. */
PDNN_API pdnnStatus_t pdnnSetTensor(pdnnHandle_t handle,
                                    const pdnnTensorDescriptor_t yDesc, void *y,
                                    const void *valuePtr);
/** y = alpha * y in place (cuDNN's cudnnScaleTensor); y is always read, so NaN in y
 *  stays NaN even for alpha == 0. Statuses as pdnnSetTensor (alpha for valuePtr). */
PDNN_API pdnnStatus_t pdnnScaleTensor(pdnnHandle_t handle,
                                      const pdnnTensorDescriptor_t yDesc, void *y,
                                      const void *alpha);
/** C = alpha * A + beta * C, where each dimension of A equals C's or is 1 (broadcast),
 *  e.g. a 1xCx1x1 bias added to an NxCxHxW tensor (cuDNN's cudnnAddTensor rule; A with
 *  C's dims is a plain blend). Any rank 1..8 and strides for both. Computed in double,
 *  rounded once on store. A == C is allowed only with identical dims and strides.
 *  Statuses: SHAPE_MISMATCH for another rank or a dim neither equal nor 1; BAD_PARAM
 *  for different data types, overlapping C strides, A == C with other strides, bad
 *  descriptors; BAD_PARAM_NULL_POINTER for NULL alpha, beta, or data of a non-empty
 *  tensor; NOT_SUPPORTED_DATA_TYPE unless FLOAT/DOUBLE. Zero elements: no-op. */
PDNN_API pdnnStatus_t pdnnAddTensor(pdnnHandle_t handle, const void *alpha,
                                    const pdnnTensorDescriptor_t aDesc, const void *A,
                                    const void *beta,
                                    const pdnnTensorDescriptor_t cDesc, void *C);

typedef enum {
    PDNN_OP_TENSOR_ADD = 0,
    PDNN_OP_TENSOR_MUL = 1,
    PDNN_OP_TENSOR_MIN = 2,
    PDNN_OP_TENSOR_MAX = 3,
    PDNN_OP_TENSOR_SQRT = 4, /**< unary: uses A only */
    PDNN_OP_TENSOR_NOT = 5   /**< unary: 1 - A */
} pdnnOpTensorOp_t;

/** Op-tensor descriptor (cuDNN's cudnn*OpTensorDescriptor); Destroy accepts NULL. */
PDNN_API pdnnStatus_t pdnnCreateOpTensorDescriptor(pdnnOpTensorDescriptor_t *opTensorDesc);
/** opTensorCompType must equal the tensors' data type when the op runs (FLOAT for
 *  FLOAT tensors, DOUBLE for DOUBLE, as cuDNN's table); any pdnnDataType_t is accepted
 *  here. nanOpt controls MIN/MAX with a NaN operand: PROPAGATE gives NaN, NOT_PROPAGATE
 *  gives the other operand (NaN only if both are NaN), like C's fmin/fmax. BAD_PARAM for
 *  an enum value out of range or a pointer that is not a live op-tensor descriptor (the
 *  descriptor is unchanged). Get: BAD_PARAM when never set. */
PDNN_API pdnnStatus_t pdnnSetOpTensorDescriptor(pdnnOpTensorDescriptor_t opTensorDesc,
                                                pdnnOpTensorOp_t opTensorOp,
                                                pdnnDataType_t opTensorCompType,
                                                pdnnNanPropagation_t opTensorNanOpt);
PDNN_API pdnnStatus_t pdnnGetOpTensorDescriptor(const pdnnOpTensorDescriptor_t opTensorDesc,
                                                pdnnOpTensorOp_t *opTensorOp,
                                                pdnnDataType_t *opTensorCompType,
                                                pdnnNanPropagation_t *opTensorNanOpt);
PDNN_API pdnnStatus_t pdnnDestroyOpTensorDescriptor(pdnnOpTensorDescriptor_t opTensorDesc);

/** C = op(alpha1 * A, alpha2 * B) + beta * C (unary ops: op(alpha1 * A)) (cuDNN's
 *  cudnnOpTensor). B's dims equal C's or are 1 (broadcast); A's dims equal C's. C may
 *  alias A or B when their descriptors have identical dims and strides (in place).
 *  SQRT of a negative value is NaN; NOT is 1 - alpha1 * A. For the unary ops SQRT and
 *  NOT, alpha2, bDesc and B are not read and may be NULL. Computed in double, rounded
 *  once on store. Statuses as pdnnAddTensor, plus BAD_PARAM for an unset or wrong-kind
 *  opTensorDesc or a compute type other than the tensors' data type. */
PDNN_API pdnnStatus_t pdnnOpTensor(pdnnHandle_t handle,
                                   const pdnnOpTensorDescriptor_t opTensorDesc,
                                   const void *alpha1, const pdnnTensorDescriptor_t aDesc,
                                   const void *A, const void *alpha2,
                                   const pdnnTensorDescriptor_t bDesc, const void *B,
                                   const void *beta, const pdnnTensorDescriptor_t cDesc,
                                   void *C);

/** y = alpha * x + beta * y where x and y have the same dims and any strides (layout
 *  conversion, e.g. NCHW <-> NHWC; cuDNN's cudnnTransformTensor). Same data type
 *  (BAD_PARAM otherwise); SHAPE_MISMATCH if dims differ; x == y only with identical
 *  strides. Other statuses as pdnnAddTensor. */
PDNN_API pdnnStatus_t pdnnTransformTensor(pdnnHandle_t handle, const void *alpha,
                                          const pdnnTensorDescriptor_t xDesc,
                                          const void *x, const void *beta,
                                          const pdnnTensorDescriptor_t yDesc, void *y);

typedef enum {
    PDNN_REDUCE_TENSOR_ADD = 0,
    PDNN_REDUCE_TENSOR_MUL = 1,
    PDNN_REDUCE_TENSOR_MIN = 2,
    PDNN_REDUCE_TENSOR_MAX = 3,
    PDNN_REDUCE_TENSOR_AMAX = 4,
    PDNN_REDUCE_TENSOR_AVG = 5,
    PDNN_REDUCE_TENSOR_NORM1 = 6,
    PDNN_REDUCE_TENSOR_NORM2 = 7,
    PDNN_REDUCE_TENSOR_MUL_NO_ZEROS = 8
} pdnnReduceTensorOp_t;

typedef enum {
    PDNN_REDUCE_TENSOR_NO_INDICES = 0,
    PDNN_REDUCE_TENSOR_FLATTENED_INDICES = 1
} pdnnReduceTensorIndices_t;

typedef enum {
    PDNN_32BIT_INDICES = 0,
    PDNN_64BIT_INDICES = 1,
    PDNN_16BIT_INDICES = 2,
    PDNN_8BIT_INDICES = 3
} pdnnIndicesType_t;

/** Reduce-tensor descriptor (cuDNN's cudnn*ReduceTensorDescriptor). Set: BAD_PARAM for
 *  an enum value out of range, an unknown compute type or a pointer that is not a live
 *  reduce-tensor descriptor (the descriptor is unchanged); the op/indices combination
 *  and the compute type are checked when the reduction runs. Get: BAD_PARAM when never
 *  set. Destroy: NULL is accepted. */
PDNN_API pdnnStatus_t pdnnCreateReduceTensorDescriptor(pdnnReduceTensorDescriptor_t *reduceTensorDesc);
PDNN_API pdnnStatus_t pdnnSetReduceTensorDescriptor(pdnnReduceTensorDescriptor_t reduceTensorDesc,
                                                    pdnnReduceTensorOp_t reduceTensorOp,
                                                    pdnnDataType_t reduceTensorCompType,
                                                    pdnnNanPropagation_t reduceTensorNanOpt,
                                                    pdnnReduceTensorIndices_t reduceTensorIndices,
                                                    pdnnIndicesType_t reduceTensorIndicesType);
PDNN_API pdnnStatus_t pdnnGetReduceTensorDescriptor(const pdnnReduceTensorDescriptor_t reduceTensorDesc,
                                                    pdnnReduceTensorOp_t *reduceTensorOp,
                                                    pdnnDataType_t *reduceTensorCompType,
                                                    pdnnNanPropagation_t *reduceTensorNanOpt,
                                                    pdnnReduceTensorIndices_t *reduceTensorIndices,
                                                    pdnnIndicesType_t *reduceTensorIndicesType);
PDNN_API pdnnStatus_t pdnnDestroyReduceTensorDescriptor(pdnnReduceTensorDescriptor_t reduceTensorDesc);

/** Bytes of the indices output for reducing aDesc into cDesc: (elements of C) x (index
 *  size) with FLATTENED_INDICES, 0 without. Validates exactly as pdnnReduceTensor does
 *  (same statuses), so a query that succeeds describes a call that can run. */
PDNN_API pdnnStatus_t pdnnGetReductionIndicesSize(pdnnHandle_t handle,
                                                  const pdnnReduceTensorDescriptor_t reduceTensorDesc,
                                                  const pdnnTensorDescriptor_t aDesc,
                                                  const pdnnTensorDescriptor_t cDesc,
                                                  size_t *sizeInBytes);
/** Workspace bytes pdnnReduceTensor needs for this problem (0 on the CPU backend: no
 *  workspace is used, and NULL with 0 bytes is accepted). Validates as pdnnReduceTensor. */
PDNN_API pdnnStatus_t pdnnGetReductionWorkspaceSize(pdnnHandle_t handle,
                                                    const pdnnReduceTensorDescriptor_t reduceTensorDesc,
                                                    const pdnnTensorDescriptor_t aDesc,
                                                    const pdnnTensorDescriptor_t cDesc,
                                                    size_t *sizeInBytes);
/** C = alpha * reduce(A) + beta * C over the dimensions where C has size 1 and A does
 *  not (cuDNN's cudnnReduceTensor). Same rank; each dim of C equals A's or is 1
 *  (SHAPE_MISMATCH otherwise). Ops: ADD sum; MUL product; MIN, MAX; AMAX max |a|; AVG
 *  mean; NORM1 sum |a|; NORM2 sqrt(sum a^2); MUL_NO_ZEROS product of the non-zero
 *  elements (1 when every element is zero: the empty product; pdnn's choice, cuDNN is
 *  silent). Accumulation in double in a fixed order (row-major over the reduced dims),
 *  so results are bitwise identical for any thread count.
 *  NaN: ADD/MUL/AVG/NORM* propagate NaN arithmetically whatever the option. For MIN, MAX,
 *  AMAX, PROPAGATE_NAN makes any NaN the result (index: the first NaN); NOT_PROPAGATE_NAN
 *  ignores NaNs (NaN with index 0 only when every element is NaN).
 *  Indices: with FLATTENED_INDICES (MIN and MAX as cuDNN; AMAX too, an extension;
 *  other ops are BAD_PARAM, as cuDNN), indices receives for each element of C, packed in C's row-major order
 *  whatever C's strides, the index of the chosen element within the reduced sub-space,
 *  counted row-major over the reduced dims in A's dim order (not a coordinate tuple);
 *  ties go to the first occurrence. 32-bit unsigned indices as cuDNN; 64-, 16- and
 *  8-bit are an extension (BAD_PARAM_OUT_OF_BOUND when the sub-space does not fit).
 *  indices NULL is BAD_PARAM_NULL_POINTER, indicesSizeInBytes too small
 *  BAD_PARAM_SIZE_INSUFFICIENT; without indices both are ignored.
 *  reduceTensorCompType must equal the data type (BAD_PARAM); A and C have one data
 *  type, FLOAT or DOUBLE (NOT_SUPPORTED_DATA_TYPE for others). A == C only with
 *  identical descriptors. workspace may be NULL only with workspaceSizeInBytes 0
 *  (BAD_PARAM_NULL_POINTER otherwise, as the convolutions). A with zero elements (even
 *  when C has some): SUCCESS and nothing is written. Other statuses as pdnnAddTensor. */
PDNN_API pdnnStatus_t pdnnReduceTensor(pdnnHandle_t handle,
                                       const pdnnReduceTensorDescriptor_t reduceTensorDesc,
                                       void *indices, size_t indicesSizeInBytes,
                                       void *workspace, size_t workspaceSizeInBytes,
                                       const void *alpha, const pdnnTensorDescriptor_t aDesc,
                                       const void *A, const void *beta,
                                       const pdnnTensorDescriptor_t cDesc, void *C);

#ifdef __cplusplus
}
#endif
#endif /* PDNN_TENSOR_H */
