/*
 * pdnn/tensor.h - tensor and filter descriptors and the tensor operations
 * (cuDNN's cudnnSetTensor, cudnnScaleTensor, cudnnAddTensor, cudnnOpTensor,
 * cudnnTransformTensor, cudnnReduceTensor).
 *
 * Conventions shared by every op in pdnn:
 * - Tensors have 1 to 8 dimensions (4-d and 5-d for NCHW/NCDHW ops) with positive
 *   sizes or zero-sized dimensions (a valid no-op), and positive 64-bit strides in
 *   elements. An output descriptor whose strides make two elements share memory is
 *   refused with BAD_PARAM.
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

/** 4-d tensor n x c x h x w, packed in the given format (NCHW or NHWC).
 *  BAD_PARAM if a size is negative or the byte size overflows, NOT_SUPPORTED for an
 *  unknown format or data type. */
PDNN_API pdnnStatus_t pdnnSetTensor4dDescriptor(pdnnTensorDescriptor_t tensorDesc,
                                                pdnnTensorFormat_t format,
                                                pdnnDataType_t dataType, int n, int c,
                                                int h, int w);
/** 4-d tensor with explicit strides in elements (any positive values). */
PDNN_API pdnnStatus_t pdnnSetTensor4dDescriptorEx(pdnnTensorDescriptor_t tensorDesc,
                                                  pdnnDataType_t dataType, int n, int c,
                                                  int h, int w, int nStride, int cStride,
                                                  int hStride, int wStride);
/** Reads a 4-d descriptor. BAD_PARAM if the descriptor does not have 4 dimensions;
 *  any output pointer may not be NULL. */
PDNN_API pdnnStatus_t pdnnGetTensor4dDescriptor(const pdnnTensorDescriptor_t tensorDesc,
                                                pdnnDataType_t *dataType, int *n, int *c,
                                                int *h, int *w, int *nStride,
                                                int *cStride, int *hStride,
                                                int *wStride);
/** N-d tensor (1 <= nbDims <= 8) with explicit strides in elements. */
PDNN_API pdnnStatus_t pdnnSetTensorNdDescriptor(pdnnTensorDescriptor_t tensorDesc,
                                                pdnnDataType_t dataType, int nbDims,
                                                const int dimA[], const int strideA[]);
/** N-d packed tensor in a format: NCHW packs dims in order; NHWC puts dimension 1
 *  (channels) innermost (NDHWC for 5-d). nbDims 3 to 8. */
PDNN_API pdnnStatus_t pdnnSetTensorNdDescriptorEx(pdnnTensorDescriptor_t tensorDesc,
                                                  pdnnTensorFormat_t format,
                                                  pdnnDataType_t dataType, int nbDims,
                                                  const int dimA[]);
/** Reads up to nbDimsRequested dims and strides; *nbDims gets the real count. */
PDNN_API pdnnStatus_t pdnnGetTensorNdDescriptor(const pdnnTensorDescriptor_t tensorDesc,
                                                int nbDimsRequested,
                                                pdnnDataType_t *dataType, int *nbDims,
                                                int dimA[], int strideA[]);
/** Bytes spanned by the tensor: (1 + sum (dim_i - 1) * stride_i) * element size, 0 for
 *  a zero-sized tensor. */
PDNN_API pdnnStatus_t pdnnGetTensorSizeInBytes(const pdnnTensorDescriptor_t tensorDesc,
                                               size_t *size);

/* ---------------------------------------------------------------- filter descriptor */

PDNN_API pdnnStatus_t pdnnCreateFilterDescriptor(pdnnFilterDescriptor_t *filterDesc);
PDNN_API pdnnStatus_t pdnnDestroyFilterDescriptor(pdnnFilterDescriptor_t filterDesc);
/** Filter k x c x h x w (output channels, input channels per group, rows, columns);
 *  format NCHW means KCRS, NHWC means KRSC. Always packed. */
PDNN_API pdnnStatus_t pdnnSetFilter4dDescriptor(pdnnFilterDescriptor_t filterDesc,
                                                pdnnDataType_t dataType,
                                                pdnnTensorFormat_t format, int k, int c,
                                                int h, int w);
PDNN_API pdnnStatus_t pdnnGetFilter4dDescriptor(const pdnnFilterDescriptor_t filterDesc,
                                                pdnnDataType_t *dataType,
                                                pdnnTensorFormat_t *format, int *k,
                                                int *c, int *h, int *w);
/** N-d filter: filterDimA = {K, C, spatial...}, 3 <= nbDims <= 8. */
PDNN_API pdnnStatus_t pdnnSetFilterNdDescriptor(pdnnFilterDescriptor_t filterDesc,
                                                pdnnDataType_t dataType,
                                                pdnnTensorFormat_t format, int nbDims,
                                                const int filterDimA[]);
PDNN_API pdnnStatus_t pdnnGetFilterNdDescriptor(const pdnnFilterDescriptor_t filterDesc,
                                                int nbDimsRequested,
                                                pdnnDataType_t *dataType,
                                                pdnnTensorFormat_t *format, int *nbDims,
                                                int filterDimA[]);
PDNN_API pdnnStatus_t pdnnGetFilterSizeInBytes(const pdnnFilterDescriptor_t filterDesc,
                                               size_t *size);

/* ---------------------------------------------------------------- tensor operations */

/** Sets every element of y to *valuePtr (a float for FLOAT, a double for DOUBLE).
 *  Any strides; overlapping strides are refused. */
PDNN_API pdnnStatus_t pdnnSetTensor(pdnnHandle_t handle,
                                    const pdnnTensorDescriptor_t yDesc, void *y,
                                    const void *valuePtr);
/** y = alpha * y, in place, any strides. */
PDNN_API pdnnStatus_t pdnnScaleTensor(pdnnHandle_t handle,
                                      const pdnnTensorDescriptor_t yDesc, void *y,
                                      const void *alpha);
/** C = alpha * A + beta * C, where each dimension of A equals C's or is 1 (broadcast),
 *  e.g. a 1xCx1x1 bias added to an NxCxHxW tensor (cuDNN's rule). Same rank and data
 *  type; SHAPE_MISMATCH otherwise. */
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

PDNN_API pdnnStatus_t pdnnCreateOpTensorDescriptor(pdnnOpTensorDescriptor_t *opTensorDesc);
/** opTensorCompType FLOAT or DOUBLE; nanOpt controls MIN/MAX with a NaN operand. */
PDNN_API pdnnStatus_t pdnnSetOpTensorDescriptor(pdnnOpTensorDescriptor_t opTensorDesc,
                                                pdnnOpTensorOp_t opTensorOp,
                                                pdnnDataType_t opTensorCompType,
                                                pdnnNanPropagation_t opTensorNanOpt);
PDNN_API pdnnStatus_t pdnnGetOpTensorDescriptor(const pdnnOpTensorDescriptor_t opTensorDesc,
                                                pdnnOpTensorOp_t *opTensorOp,
                                                pdnnDataType_t *opTensorCompType,
                                                pdnnNanPropagation_t *opTensorNanOpt);
PDNN_API pdnnStatus_t pdnnDestroyOpTensorDescriptor(pdnnOpTensorDescriptor_t opTensorDesc);

/** C = op(alpha1 * A, alpha2 * B) + beta * C (unary ops: op(alpha1 * A)). B's dims
 *  equal C's or are 1 (broadcast); A's dims equal C's. C may alias A or B when their
 *  descriptors are identical (cuDNN allows in-place). */
PDNN_API pdnnStatus_t pdnnOpTensor(pdnnHandle_t handle,
                                   const pdnnOpTensorDescriptor_t opTensorDesc,
                                   const void *alpha1, const pdnnTensorDescriptor_t aDesc,
                                   const void *A, const void *alpha2,
                                   const pdnnTensorDescriptor_t bDesc, const void *B,
                                   const void *beta, const pdnnTensorDescriptor_t cDesc,
                                   void *C);

/** y = alpha * x + beta * y where x and y have the same dims and any strides (layout
 *  conversion, e.g. NCHW <-> NHWC). Same data type; SHAPE_MISMATCH if dims differ. */
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

/** Bytes of the indices output for reducing aDesc into cDesc (0 without indices). */
PDNN_API pdnnStatus_t pdnnGetReductionIndicesSize(pdnnHandle_t handle,
                                                  const pdnnReduceTensorDescriptor_t reduceTensorDesc,
                                                  const pdnnTensorDescriptor_t aDesc,
                                                  const pdnnTensorDescriptor_t cDesc,
                                                  size_t *sizeInBytes);
/** Workspace bytes pdnnReduceTensor needs for this problem. */
PDNN_API pdnnStatus_t pdnnGetReductionWorkspaceSize(pdnnHandle_t handle,
                                                    const pdnnReduceTensorDescriptor_t reduceTensorDesc,
                                                    const pdnnTensorDescriptor_t aDesc,
                                                    const pdnnTensorDescriptor_t cDesc,
                                                    size_t *sizeInBytes);
/** C = alpha * reduce(A) + beta * C over the dimensions where C has size 1 and A does
 *  not. With FLATTENED_INDICES (MIN, MAX, AMAX only) indices receives, for each element
 *  of C, the flattened index of the chosen element within the reduced dimensions. */
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
