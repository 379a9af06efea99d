/* Internal layout of the handle and of every descriptor (immutable once set). */
#ifndef PDNN_CORE_DESC_H
#define PDNN_CORE_DESC_H

#include <stdbool.h>
#include <stdint.h>

#include "pdnn.h"
#include "core/objects.h"

#define PDNN_SPATIAL_MAX 6 /* spatial dims of conv/pool descriptors */

struct pdnnContext {
    int nthreads;
    pdnnStream_t stream;
};

struct pdnnTensorStruct {
    bool set;                     /* false until a Set call succeeded */
    pdnnDataType_t dtype;
    int nbDims;
    int64_t dim[PDNN_DIM_MAX];
    int64_t stride[PDNN_DIM_MAX]; /* in elements, all >= 1 */
};

struct pdnnFilterStruct {
    bool set;
    pdnnDataType_t dtype;
    pdnnTensorFormat_t format;    /* NCHW = KCRS, NHWC = KRSC */
    int nbDims;                   /* 3..8: K, C, spatial... */
    int64_t dim[PDNN_DIM_MAX];
};

struct pdnnConvolutionStruct {
    bool set;
    int nbSpatial;                /* 1..6 */
    int64_t pad_begin[PDNN_SPATIAL_MAX];
    int64_t pad_end[PDNN_SPATIAL_MAX];
    int64_t stride[PDNN_SPATIAL_MAX];
    int64_t dilation[PDNN_SPATIAL_MAX];
    pdnnConvolutionMode_t mode;
    pdnnDataType_t compute_type;
    int groups;                   /* >= 1, default 1 */
    pdnnMathType_t math_type;     /* default DEFAULT_MATH */
};

struct pdnnPoolingStruct {
    bool set;
    pdnnPoolingMode_t mode;
    pdnnNanPropagation_t nan_opt;
    int nbSpatial;                /* 1..6 */
    int64_t window[PDNN_SPATIAL_MAX];
    int64_t pad_begin[PDNN_SPATIAL_MAX];
    int64_t pad_end[PDNN_SPATIAL_MAX];
    int64_t stride[PDNN_SPATIAL_MAX];
    int64_t dilation[PDNN_SPATIAL_MAX];
    bool ceil_mode;
};

struct pdnnActivationStruct {
    bool set;
    pdnnActivationMode_t mode;
    pdnnNanPropagation_t nan_opt;
    double coef;
    double swish_beta;            /* default 1 */
};

struct pdnnOpTensorStruct {
    bool set;
    pdnnOpTensorOp_t op;
    pdnnDataType_t comp_type;
    pdnnNanPropagation_t nan_opt;
};

struct pdnnReduceTensorStruct {
    bool set;
    pdnnReduceTensorOp_t op;
    pdnnDataType_t comp_type;
    pdnnNanPropagation_t nan_opt;
    pdnnReduceTensorIndices_t indices;
    pdnnIndicesType_t indices_type;
};

/* ---- validation helpers used by every *_api.c ---- */

/* Handle live check (NOT_INITIALIZED otherwise). */
pdnnStatus_t pdnn_check_handle(pdnnHandle_t h, const char *func);
/* Live and set tensor descriptor; argname appears in the message. */
pdnnStatus_t pdnn_check_tensor(const struct pdnnTensorStruct *d, const char *func,
                               const char *argname);
/* As pdnn_check_tensor, and its strides never map two elements to one address
 * (required of every output). */
pdnnStatus_t pdnn_check_output_tensor(const struct pdnnTensorStruct *d, const char *func,
                                      const char *argname);
pdnnStatus_t pdnn_check_filter(const struct pdnnFilterStruct *d, const char *func,
                               const char *argname);
/* Live and set activation descriptor (BAD_PARAM_NULL_POINTER for NULL, BAD_PARAM for a
 * destroyed, wrong-kind or never-set one); in act_desc.c, for every op that takes an
 * activation descriptor. */
pdnnStatus_t pdnn_check_activation(const struct pdnnActivationStruct *a, const char *func,
                                   const char *argname);
/* NOT_SUPPORTED_DATA_TYPE unless FLOAT or DOUBLE (what every op computes today). */
pdnnStatus_t pdnn_check_compute_dtype(pdnnDataType_t t, const char *func,
                                      const char *argname);
/* SHAPE_MISMATCH unless a and b have equal rank and dims. */
pdnnStatus_t pdnn_check_same_dims(const struct pdnnTensorStruct *a, const char *aname,
                                  const struct pdnnTensorStruct *b, const char *bname,
                                  const char *func);
/* BAD_PARAM_NULL_POINTER when data pointer p is NULL and tensor d has elements (NULL is
 * accepted only for a tensor with zero elements); argname names p in the message. */
pdnnStatus_t pdnn_check_data(const struct pdnnTensorStruct *d, const void *p,
                             const char *func, const char *argname);
/* BAD_PARAM unless a and b have the same data type. */
pdnnStatus_t pdnn_check_same_dtype(const struct pdnnTensorStruct *a, const char *aname,
                                   const struct pdnnTensorStruct *b, const char *bname,
                                   const char *func);

/* Number of elements (product of dims; 0 if any dim is 0). */
int64_t pdnn_tensor_numel(const struct pdnnTensorStruct *d);
/* True when the strides are those of a packed tensor with dims in the given order
 * (perm[0] outermost). */
bool pdnn_tensor_is_packed(const struct pdnnTensorStruct *d);
/* True when no two index tuples map to one offset. */
bool pdnn_tensor_no_overlap(const struct pdnnTensorStruct *d);
/* Writes "f32 2x3x4x5 s60:20:5:1" into buf. */
void pdnn_tensor_str(const struct pdnnTensorStruct *d, char *buf, size_t n);
/* Writes " name0=<tensor0> name1=<tensor1> ..." (pdnn_tensor_str of each, a space before
 * each) into buf, cut at n - 1 characters: the tensor part of a log line. */
void pdnn_tensor_list_str(const struct pdnnTensorStruct *const *descs,
                          const char *const *names, int count, char *buf, size_t n);
/* Filter dims/strides as a tensor view (KCRS or KRSC strides). */
void pdnn_filter_as_tensor(const struct pdnnFilterStruct *f, struct pdnnTensorStruct *t);
/* "f32", "f64", "f16", "bf16", "s8", ... */
const char *pdnn_dtype_name(pdnnDataType_t t);
/* Bytes of one element; 0 for an unknown type. */
size_t pdnn_dtype_size(pdnnDataType_t t);

/* Packed strides for dims in NCHW (channels second) or NHWC (channels innermost)
 * order. Returns false on 64-bit overflow. */
bool pdnn_packed_strides(int nbDims, const int64_t *dim, pdnnTensorFormat_t format,
                         int64_t *stride);

/* Memory offset (in elements) of the element with row-major logical index `linear`
 * (dims in descriptor order). Reference paths walk any strides with it. */
static inline int64_t pdnn_offset_of(const struct pdnnTensorStruct *d, int64_t linear)
{
    int64_t off = 0;
    for (int i = d->nbDims - 1; i >= 0; i--) {
        int64_t n = d->dim[i];
        off += (linear % n) * d->stride[i];
        linear /= n;
    }
    return off;
}

#endif
