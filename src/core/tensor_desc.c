/* Tensor and filter descriptors, and the validation helpers built on them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/desc.h"
#include "core/error.h"

typedef struct pdnnTensorStruct tensor_t;
typedef struct pdnnFilterStruct filter_t;

size_t pdnn_dtype_size(pdnnDataType_t t)
{
    switch (t) {
    case PDNN_DATA_FLOAT: return 4;
    case PDNN_DATA_DOUBLE: return 8;
    case PDNN_DATA_HALF: return 2;
    case PDNN_DATA_BFLOAT16: return 2;
    case PDNN_DATA_INT8: return 1;
    case PDNN_DATA_UINT8: return 1;
    case PDNN_DATA_INT32: return 4;
    case PDNN_DATA_INT64: return 8;
    }
    return 0;
}

const char *pdnn_dtype_name(pdnnDataType_t t)
{
    switch (t) {
    case PDNN_DATA_FLOAT: return "f32";
    case PDNN_DATA_DOUBLE: return "f64";
    case PDNN_DATA_HALF: return "f16";
    case PDNN_DATA_BFLOAT16: return "bf16";
    case PDNN_DATA_INT8: return "s8";
    case PDNN_DATA_UINT8: return "u8";
    case PDNN_DATA_INT32: return "s32";
    case PDNN_DATA_INT64: return "s64";
    }
    return "unknown";
}

static pdnnStatus_t check_dtype_known(pdnnDataType_t t, const char *func)
{
    if (pdnn_dtype_size(t) == 0)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func, "dataType %d is not a pdnnDataType_t",
                          (int)t);
    return PDNN_STATUS_SUCCESS;
}

/* Byte span of dims/strides; false on overflow. */
static bool span_bytes(int nb, const int64_t *dim, const int64_t *stride, size_t esize,
                       size_t *out)
{
    int64_t last = 0;
    for (int i = 0; i < nb; i++) {
        if (dim[i] == 0) {
            *out = 0;
            return true;
        }
    }
    for (int i = 0; i < nb; i++) {
        int64_t t;
        if (__builtin_mul_overflow(dim[i] - 1, stride[i], &t)) return false;
        if (__builtin_add_overflow(last, t, &last)) return false;
    }
    int64_t bytes;
    if (__builtin_add_overflow(last, 1, &last)) return false;
    if (__builtin_mul_overflow(last, (int64_t)esize, &bytes)) return false;
    *out = (size_t)bytes;
    return true;
}

bool pdnn_packed_strides(int nb, const int64_t *dim, pdnnTensorFormat_t format,
                         int64_t *stride)
{
    int order[PDNN_DIM_MAX]; /* innermost first */
    int k = 0;
    if (format == PDNN_TENSOR_NHWC && nb >= 3) {
        order[k++] = 1;
        for (int i = nb - 1; i >= 2; i--) order[k++] = i;
        order[k++] = 0;
    } else {
        for (int i = nb - 1; i >= 0; i--) order[k++] = i;
    }
    int64_t s = 1;
    for (int i = 0; i < nb; i++) {
        stride[order[i]] = s;
        int64_t d = dim[order[i]] > 0 ? dim[order[i]] : 1;
        if (__builtin_mul_overflow(s, d, &s)) return false;
    }
    return true;
}

/* Validates and stores dims/strides into a scratch copy, then commits. */
static pdnnStatus_t tensor_set(tensor_t *d, pdnnDataType_t t, int nb, const int64_t *dim,
                               const int64_t *stride, const char *func)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_TENSOR, d, func, "tensorDesc"));
    PDNN_TRY(check_dtype_known(t, func));
    if (nb < 1 || nb > PDNN_DIM_MAX)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func, "nbDims is %d, must be in [1, %d]",
                          nb, PDNN_DIM_MAX);
    for (int i = 0; i < nb; i++) {
        if (dim[i] < 0)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func, "dimension %d is %lld, must be >= 0",
                              i, (long long)dim[i]);
        if (stride[i] < 1)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func, "stride %d is %lld, must be >= 1",
                              i, (long long)stride[i]);
    }
    size_t bytes;
    if (!span_bytes(nb, dim, stride, pdnn_dtype_size(t), &bytes))
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "the tensor's byte size overflows 64 bits");
    d->dtype = t;
    d->nbDims = nb;
    for (int i = 0; i < PDNN_DIM_MAX; i++) {
        d->dim[i] = i < nb ? dim[i] : 0;
        d->stride[i] = i < nb ? stride[i] : 0;
    }
    d->set = true;
    return PDNN_STATUS_SUCCESS;
}

static pdnnStatus_t check_format(pdnnTensorFormat_t f, const char *func)
{
    if (f != PDNN_TENSOR_NCHW && f != PDNN_TENSOR_NHWC)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "format %d is not PDNN_TENSOR_NCHW (0) or PDNN_TENSOR_NHWC (1)",
                          (int)f);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnCreateTensorDescriptor(pdnnTensorDescriptor_t *tensorDesc)
{
    PDNN_CHECK_NULL(tensorDesc);
    tensor_t *d = pdnn_obj_new(PDNN_OBJ_TENSOR, sizeof *d);
    if (!d) return pdnn_error(PDNN_STATUS_ALLOC_FAILED, __func__, "out of host memory");
    *tensorDesc = d;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnDestroyTensorDescriptor(pdnnTensorDescriptor_t tensorDesc)
{
    if (tensorDesc == NULL) return PDNN_STATUS_SUCCESS;
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_TENSOR, tensorDesc, __func__, "tensorDesc"));
    pdnn_obj_free(PDNN_OBJ_TENSOR, tensorDesc);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetTensor4dDescriptor(pdnnTensorDescriptor_t tensorDesc,
                                       pdnnTensorFormat_t format, pdnnDataType_t dataType,
                                       int n, int c, int h, int w)
{
    PDNN_TRY(check_format(format, __func__));
    int64_t dim[4] = {n, c, h, w}, stride[4];
    for (int i = 0; i < 4; i++)
        if (dim[i] < 0)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                              "dimension %d is %lld, must be >= 0", i, (long long)dim[i]);
    if (!pdnn_packed_strides(4, dim, format, stride))
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "the tensor's byte size overflows 64 bits");
    return tensor_set(tensorDesc, dataType, 4, dim, stride, __func__);
}

pdnnStatus_t pdnnSetTensor4dDescriptorEx(pdnnTensorDescriptor_t tensorDesc,
                                         pdnnDataType_t dataType, int n, int c, int h, int w,
                                         int nStride, int cStride, int hStride, int wStride)
{
    int64_t dim[4] = {n, c, h, w}, stride[4] = {nStride, cStride, hStride, wStride};
    return tensor_set(tensorDesc, dataType, 4, dim, stride, __func__);
}

static pdnnStatus_t narrow(int64_t v, int *out, const char *what, int i, const char *func)
{
    if (v > 2147483647)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, func,
                          "%s %d is %lld and does not fit an int", what, i, (long long)v);
    *out = (int)v;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetTensor4dDescriptor(const pdnnTensorDescriptor_t tensorDesc,
                                       pdnnDataType_t *dataType, int *n, int *c, int *h,
                                       int *w, int *nStride, int *cStride, int *hStride,
                                       int *wStride)
{
    PDNN_TRY(pdnn_check_tensor(tensorDesc, __func__, "tensorDesc"));
    PDNN_CHECK_NULL(dataType);
    PDNN_CHECK_NULL(n);
    PDNN_CHECK_NULL(c);
    PDNN_CHECK_NULL(h);
    PDNN_CHECK_NULL(w);
    PDNN_CHECK_NULL(nStride);
    PDNN_CHECK_NULL(cStride);
    PDNN_CHECK_NULL(hStride);
    PDNN_CHECK_NULL(wStride);
    if (tensorDesc->nbDims != 4)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "tensorDesc has %d dimensions, not 4", tensorDesc->nbDims);
    int v[8];
    for (int i = 0; i < 4; i++) {
        PDNN_TRY(narrow(tensorDesc->dim[i], &v[i], "dimension", i, __func__));
        PDNN_TRY(narrow(tensorDesc->stride[i], &v[4 + i], "stride", i, __func__));
    }
    *dataType = tensorDesc->dtype;
    *n = v[0], *c = v[1], *h = v[2], *w = v[3];
    *nStride = v[4], *cStride = v[5], *hStride = v[6], *wStride = v[7];
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetTensorNdDescriptor(pdnnTensorDescriptor_t tensorDesc,
                                       pdnnDataType_t dataType, int nbDims, const int dimA[],
                                       const int strideA[])
{
    PDNN_CHECK_NULL(dimA);
    PDNN_CHECK_NULL(strideA);
    if (nbDims < 1 || nbDims > PDNN_DIM_MAX)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__, "nbDims is %d, must be in [1, %d]",
                          nbDims, PDNN_DIM_MAX);
    int64_t dim[PDNN_DIM_MAX], stride[PDNN_DIM_MAX];
    for (int i = 0; i < nbDims; i++) dim[i] = dimA[i], stride[i] = strideA[i];
    return tensor_set(tensorDesc, dataType, nbDims, dim, stride, __func__);
}

pdnnStatus_t pdnnSetTensorNdDescriptorEx(pdnnTensorDescriptor_t tensorDesc,
                                         pdnnTensorFormat_t format, pdnnDataType_t dataType,
                                         int nbDims, const int dimA[])
{
    PDNN_CHECK_NULL(dimA);
    PDNN_TRY(check_format(format, __func__));
    if (nbDims < 3 || nbDims > PDNN_DIM_MAX)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__, "nbDims is %d, must be in [3, %d]",
                          nbDims, PDNN_DIM_MAX);
    int64_t dim[PDNN_DIM_MAX], stride[PDNN_DIM_MAX];
    for (int i = 0; i < nbDims; i++) {
        dim[i] = dimA[i];
        if (dim[i] < 0)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                              "dimension %d is %d, must be >= 0", i, dimA[i]);
    }
    if (!pdnn_packed_strides(nbDims, dim, format, stride))
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "the tensor's byte size overflows 64 bits");
    return tensor_set(tensorDesc, dataType, nbDims, dim, stride, __func__);
}

pdnnStatus_t pdnnGetTensorNdDescriptor(const pdnnTensorDescriptor_t tensorDesc,
                                       int nbDimsRequested, pdnnDataType_t *dataType,
                                       int *nbDims, int dimA[], int strideA[])
{
    PDNN_TRY(pdnn_check_tensor(tensorDesc, __func__, "tensorDesc"));
    PDNN_CHECK_NULL(dataType);
    PDNN_CHECK_NULL(nbDims);
    if (nbDimsRequested < 0)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__, "nbDimsRequested is %d, must be >= 0",
                          nbDimsRequested);
    int m = nbDimsRequested < tensorDesc->nbDims ? nbDimsRequested : tensorDesc->nbDims;
    if (m > 0) {
        PDNN_CHECK_NULL(dimA);
        PDNN_CHECK_NULL(strideA);
    }
    int v[2 * PDNN_DIM_MAX];
    for (int i = 0; i < m; i++) {
        PDNN_TRY(narrow(tensorDesc->dim[i], &v[i], "dimension", i, __func__));
        PDNN_TRY(narrow(tensorDesc->stride[i], &v[PDNN_DIM_MAX + i], "stride", i, __func__));
    }
    for (int i = 0; i < m; i++) dimA[i] = v[i], strideA[i] = v[PDNN_DIM_MAX + i];
    *dataType = tensorDesc->dtype;
    *nbDims = tensorDesc->nbDims;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetTensorSizeInBytes(const pdnnTensorDescriptor_t tensorDesc, size_t *size)
{
    PDNN_TRY(pdnn_check_tensor(tensorDesc, __func__, "tensorDesc"));
    PDNN_CHECK_NULL(size);
    size_t b = 0;
    span_bytes(tensorDesc->nbDims, tensorDesc->dim, tensorDesc->stride,
               pdnn_dtype_size(tensorDesc->dtype), &b); /* checked when set */
    *size = b;
    return PDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ filters */

pdnnStatus_t pdnnCreateFilterDescriptor(pdnnFilterDescriptor_t *filterDesc)
{
    PDNN_CHECK_NULL(filterDesc);
    filter_t *d = pdnn_obj_new(PDNN_OBJ_FILTER, sizeof *d);
    if (!d) return pdnn_error(PDNN_STATUS_ALLOC_FAILED, __func__, "out of host memory");
    *filterDesc = d;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnDestroyFilterDescriptor(pdnnFilterDescriptor_t filterDesc)
{
    if (filterDesc == NULL) return PDNN_STATUS_SUCCESS;
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_FILTER, filterDesc, __func__, "filterDesc"));
    pdnn_obj_free(PDNN_OBJ_FILTER, filterDesc);
    return PDNN_STATUS_SUCCESS;
}

static pdnnStatus_t filter_set(filter_t *d, pdnnDataType_t t, pdnnTensorFormat_t format,
                               int nb, const int *dimA, const char *func)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_FILTER, d, func, "filterDesc"));
    PDNN_TRY(check_dtype_known(t, func));
    PDNN_TRY(check_format(format, func));
    if (nb < 3 || nb > PDNN_DIM_MAX)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func, "nbDims is %d, must be in [3, %d]", nb,
                          PDNN_DIM_MAX);
    int64_t dim[PDNN_DIM_MAX], stride[PDNN_DIM_MAX];
    for (int i = 0; i < nb; i++) {
        dim[i] = dimA[i];
        if (dim[i] < 1)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                              "filter dimension %d is %d, must be >= 1", i, dimA[i]);
    }
    size_t bytes;
    if (!pdnn_packed_strides(nb, dim, format, stride) ||
        !span_bytes(nb, dim, stride, pdnn_dtype_size(t), &bytes))
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func, "the filter's byte size overflows 64 bits");
    d->dtype = t;
    d->format = format;
    d->nbDims = nb;
    for (int i = 0; i < PDNN_DIM_MAX; i++) d->dim[i] = i < nb ? dim[i] : 0;
    d->set = true;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetFilter4dDescriptor(pdnnFilterDescriptor_t filterDesc,
                                       pdnnDataType_t dataType, pdnnTensorFormat_t format,
                                       int k, int c, int h, int w)
{
    int dim[4] = {k, c, h, w};
    return filter_set(filterDesc, dataType, format, 4, dim, __func__);
}

pdnnStatus_t pdnnGetFilter4dDescriptor(const pdnnFilterDescriptor_t filterDesc,
                                       pdnnDataType_t *dataType, pdnnTensorFormat_t *format,
                                       int *k, int *c, int *h, int *w)
{
    PDNN_TRY(pdnn_check_filter(filterDesc, __func__, "filterDesc"));
    PDNN_CHECK_NULL(dataType);
    PDNN_CHECK_NULL(format);
    PDNN_CHECK_NULL(k);
    PDNN_CHECK_NULL(c);
    PDNN_CHECK_NULL(h);
    PDNN_CHECK_NULL(w);
    if (filterDesc->nbDims != 4)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "filterDesc has %d dimensions, not 4", filterDesc->nbDims);
    *dataType = filterDesc->dtype;
    *format = filterDesc->format;
    *k = (int)filterDesc->dim[0];
    *c = (int)filterDesc->dim[1];
    *h = (int)filterDesc->dim[2];
    *w = (int)filterDesc->dim[3];
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetFilterNdDescriptor(pdnnFilterDescriptor_t filterDesc,
                                       pdnnDataType_t dataType, pdnnTensorFormat_t format,
                                       int nbDims, const int filterDimA[])
{
    PDNN_CHECK_NULL(filterDimA);
    return filter_set(filterDesc, dataType, format, nbDims, filterDimA, __func__);
}

pdnnStatus_t pdnnGetFilterNdDescriptor(const pdnnFilterDescriptor_t filterDesc,
                                       int nbDimsRequested, pdnnDataType_t *dataType,
                                       pdnnTensorFormat_t *format, int *nbDims,
                                       int filterDimA[])
{
    PDNN_TRY(pdnn_check_filter(filterDesc, __func__, "filterDesc"));
    PDNN_CHECK_NULL(dataType);
    PDNN_CHECK_NULL(format);
    PDNN_CHECK_NULL(nbDims);
    if (nbDimsRequested < 0)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__, "nbDimsRequested is %d, must be >= 0",
                          nbDimsRequested);
    int m = nbDimsRequested < filterDesc->nbDims ? nbDimsRequested : filterDesc->nbDims;
    if (m > 0) PDNN_CHECK_NULL(filterDimA);
    for (int i = 0; i < m; i++) filterDimA[i] = (int)filterDesc->dim[i];
    *dataType = filterDesc->dtype;
    *format = filterDesc->format;
    *nbDims = filterDesc->nbDims;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetFilterSizeInBytes(const pdnnFilterDescriptor_t filterDesc, size_t *size)
{
    PDNN_TRY(pdnn_check_filter(filterDesc, __func__, "filterDesc"));
    PDNN_CHECK_NULL(size);
    size_t n = pdnn_dtype_size(filterDesc->dtype);
    for (int i = 0; i < filterDesc->nbDims; i++) n *= (size_t)filterDesc->dim[i];
    *size = n;
    return PDNN_STATUS_SUCCESS;
}

void pdnn_filter_as_tensor(const filter_t *f, tensor_t *t)
{
    memset(t, 0, sizeof *t);
    t->set = true;
    t->dtype = f->dtype;
    t->nbDims = f->nbDims;
    for (int i = 0; i < f->nbDims; i++) t->dim[i] = f->dim[i];
    pdnn_packed_strides(f->nbDims, t->dim, f->format, t->stride);
}

/* ------------------------------------------------------------------ helpers */

pdnnStatus_t pdnn_check_tensor(const tensor_t *d, const char *func, const char *argname)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_TENSOR, d, func, argname));
    if (!d->set)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "%s was created but never set (call pdnnSetTensor*Descriptor)",
                          argname);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnn_check_output_tensor(const tensor_t *d, const char *func, const char *argname)
{
    PDNN_TRY(pdnn_check_tensor(d, func, argname));
    if (!pdnn_tensor_no_overlap(d)) {
        char s[160];
        pdnn_tensor_str(d, s, sizeof s);
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "output %s (%s) has strides that may map several elements to "
                          "one address (pdnn requires each stride to exceed the extent of "
                          "the smaller-stride dims)", argname, s);
    }
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnn_check_filter(const filter_t *d, const char *func, const char *argname)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_FILTER, d, func, argname));
    if (!d->set)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "%s was created but never set (call pdnnSetFilter*Descriptor)",
                          argname);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnn_check_compute_dtype(pdnnDataType_t t, const char *func, const char *argname)
{
    if (t == PDNN_DATA_FLOAT || t == PDNN_DATA_DOUBLE) return PDNN_STATUS_SUCCESS;
    return pdnn_error(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, func,
                      "%s has data type %s; this operation computes FLOAT and DOUBLE only",
                      argname, pdnn_dtype_name(t));
}

pdnnStatus_t pdnn_check_same_dims(const tensor_t *a, const char *aname, const tensor_t *b,
                                  const char *bname, const char *func)
{
    bool same = a->nbDims == b->nbDims;
    for (int i = 0; same && i < a->nbDims; i++) same = a->dim[i] == b->dim[i];
    if (!same) {
        char sa[160], sb[160];
        pdnn_tensor_str(a, sa, sizeof sa);
        pdnn_tensor_str(b, sb, sizeof sb);
        return pdnn_error(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, func,
                          "%s (%s) and %s (%s) must have the same dimensions", aname, sa,
                          bname, sb);
    }
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnn_check_same_dtype(const tensor_t *a, const char *aname, const tensor_t *b,
                                   const char *bname, const char *func)
{
    if (a->dtype != b->dtype)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "%s has data type %s but %s has %s; they must match", aname,
                          pdnn_dtype_name(a->dtype), bname, pdnn_dtype_name(b->dtype));
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnn_check_data(const tensor_t *d, const void *p, const char *func,
                             const char *argname)
{
    if (p == NULL && pdnn_tensor_numel(d) > 0)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, func,
                          "argument '%s' is NULL but its tensor has %lld elements", argname,
                          (long long)pdnn_tensor_numel(d));
    return PDNN_STATUS_SUCCESS;
}

int64_t pdnn_tensor_numel(const tensor_t *d)
{
    int64_t n = 1;
    for (int i = 0; i < d->nbDims; i++) n *= d->dim[i];
    return n;
}

bool pdnn_tensor_is_packed(const tensor_t *d)
{
    int64_t s = 1;
    for (int i = d->nbDims - 1; i >= 0; i--) {
        if (d->dim[i] != 1 && d->stride[i] != s) return false;
        s *= d->dim[i];
    }
    return true;
}

bool pdnn_tensor_no_overlap(const tensor_t *d)
{
    /* Sort the dims of size > 1 by stride; each stride must exceed the extent of
     * all smaller-stride dims (a sufficient condition, exact for permuted layouts). */
    int idx[PDNN_DIM_MAX], m = 0;
    for (int i = 0; i < d->nbDims; i++) {
        if (d->dim[i] == 0) return true;
        if (d->dim[i] > 1) idx[m++] = i;
    }
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0 && d->stride[idx[j]] < d->stride[idx[j - 1]]; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    int64_t extent = 0; /* max offset reached by the smaller dims */
    for (int i = 0; i < m; i++) {
        if (d->stride[idx[i]] <= extent) return false;
        extent += (d->dim[idx[i]] - 1) * d->stride[idx[i]];
    }
    return true;
}

void pdnn_tensor_str(const tensor_t *d, char *buf, size_t n)
{
    size_t off = 0;
    int r = snprintf(buf, n, "%s ", pdnn_dtype_name(d->dtype));
    if (r < 0) return;
    off = (size_t)r;
    for (int i = 0; i < d->nbDims && off < n; i++) {
        r = snprintf(buf + off, n - off, "%s%lld", i ? "x" : "", (long long)d->dim[i]);
        if (r < 0) return;
        off += (size_t)r;
    }
    for (int i = 0; i < d->nbDims && off < n; i++) {
        r = snprintf(buf + off, n - off, "%s%lld", i ? ":" : " s", (long long)d->stride[i]);
        if (r < 0) return;
        off += (size_t)r;
    }
}

void pdnn_tensor_list_str(const tensor_t *const *descs, const char *const *names, int count,
                          char *buf, size_t n)
{
    size_t off = 0;
    if (n > 0) buf[0] = '\0';
    for (int i = 0; i < count && off < n; i++) {
        char s[160];
        pdnn_tensor_str(descs[i], s, sizeof s);
        int r = snprintf(buf + off, n - off, " %s=%s", names[i], s);
        if (r < 0) return;
        off += (size_t)r;
    }
}
