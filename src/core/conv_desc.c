/* Convolution descriptor: create, set, get (2-d, N-d, asymmetric-padding extension),
 * group count, math type, and the forward output dims. */
#include <stddef.h>

#include "core/conv_desc.h"
#include "core/error.h"

typedef struct pdnnConvolutionStruct conv_t;

pdnnStatus_t pdnn_check_convolution(const conv_t *cd, const char *func, const char *argname)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_CONVOLUTION, cd, func, argname));
    if (!cd->set)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "%s was created but never set (call pdnnSetConvolution*Descriptor)",
                          argname);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnCreateConvolutionDescriptor(pdnnConvolutionDescriptor_t *convDesc)
{
    PDNN_CHECK_NULL(convDesc);
    conv_t *d = pdnn_obj_new(PDNN_OBJ_CONVOLUTION, sizeof *d);
    if (!d) return pdnn_error(PDNN_STATUS_ALLOC_FAILED, __func__, "out of host memory");
    d->set = false;
    d->mode = PDNN_CROSS_CORRELATION;
    d->compute_type = PDNN_DATA_FLOAT;
    d->groups = 1;
    d->math_type = PDNN_DEFAULT_MATH;
    *convDesc = d;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnDestroyConvolutionDescriptor(pdnnConvolutionDescriptor_t convDesc)
{
    if (convDesc == NULL) return PDNN_STATUS_SUCCESS;
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_CONVOLUTION, convDesc, __func__, "convDesc"));
    pdnn_obj_free(PDNN_OBJ_CONVOLUTION, convDesc);
    return PDNN_STATUS_SUCCESS;
}

/* Validates every field and commits them only when all are valid. padEnd NULL means
 * symmetric, dilation NULL means all 1. */
static pdnnStatus_t conv_set(conv_t *d, int nb, const int *padBegin, const int *padEnd,
                             const int *stride, const int *dilation,
                             pdnnConvolutionMode_t mode, pdnnDataType_t computeType,
                             const char *func)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_CONVOLUTION, d, func, "convDesc"));
    if (nb < 1 || nb > PDNN_SPATIAL_MAX)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "arrayLength is %d, must be in [1, %d]", nb, PDNN_SPATIAL_MAX);
    for (int i = 0; i < nb; i++) {
        if (padBegin[i] < 0)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                              "padding of spatial dim %d is %d, must be >= 0", i, padBegin[i]);
        if (padEnd && padEnd[i] < 0)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                              "end padding of spatial dim %d is %d, must be >= 0", i,
                              padEnd[i]);
        if (stride[i] < 1)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                              "stride of spatial dim %d is %d, must be >= 1", i, stride[i]);
        if (dilation && dilation[i] < 1)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                              "dilation of spatial dim %d is %d, must be >= 1", i,
                              dilation[i]);
    }
    if (mode != PDNN_CONVOLUTION && mode != PDNN_CROSS_CORRELATION)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "mode %d is not PDNN_CONVOLUTION (0) or PDNN_CROSS_CORRELATION (1)",
                          (int)mode);
    switch (computeType) {
    case PDNN_DATA_FLOAT:
    case PDNN_DATA_DOUBLE:
    case PDNN_DATA_HALF:
    case PDNN_DATA_BFLOAT16:
    case PDNN_DATA_INT32: break;
    default:
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "computeType %d is not an accumulation type (FLOAT, DOUBLE, HALF, "
                          "BFLOAT16 or INT32)",
                          (int)computeType);
    }
    for (int i = 0; i < PDNN_SPATIAL_MAX; i++) {
        bool in = i < nb;
        d->pad_begin[i] = in ? padBegin[i] : 0;
        d->pad_end[i] = in ? (padEnd ? padEnd[i] : padBegin[i]) : 0;
        d->stride[i] = in ? stride[i] : 1;
        d->dilation[i] = in ? (dilation ? dilation[i] : 1) : 1;
    }
    d->nbSpatial = nb;
    d->mode = mode;
    d->compute_type = computeType;
    d->set = true;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetConvolution2dDescriptor(pdnnConvolutionDescriptor_t convDesc, int pad_h,
                                            int pad_w, int u, int v, int dilation_h,
                                            int dilation_w, pdnnConvolutionMode_t mode,
                                            pdnnDataType_t computeType)
{
    int pad[2] = {pad_h, pad_w}, str[2] = {u, v}, dil[2] = {dilation_h, dilation_w};
    return conv_set(convDesc, 2, pad, NULL, str, dil, mode, computeType, __func__);
}

pdnnStatus_t pdnnGetConvolution2dDescriptor(const pdnnConvolutionDescriptor_t convDesc,
                                            int *pad_h, int *pad_w, int *u, int *v,
                                            int *dilation_h, int *dilation_w,
                                            pdnnConvolutionMode_t *mode,
                                            pdnnDataType_t *computeType)
{
    PDNN_TRY(pdnn_check_convolution(convDesc, __func__, "convDesc"));
    PDNN_CHECK_NULL(pad_h);
    PDNN_CHECK_NULL(pad_w);
    PDNN_CHECK_NULL(u);
    PDNN_CHECK_NULL(v);
    PDNN_CHECK_NULL(dilation_h);
    PDNN_CHECK_NULL(dilation_w);
    PDNN_CHECK_NULL(mode);
    PDNN_CHECK_NULL(computeType);
    if (convDesc->nbSpatial != 2)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "convDesc has %d spatial dims, not 2 (use "
                          "pdnnGetConvolutionNdDescriptor)",
                          convDesc->nbSpatial);
    *pad_h = (int)convDesc->pad_begin[0];
    *pad_w = (int)convDesc->pad_begin[1];
    *u = (int)convDesc->stride[0];
    *v = (int)convDesc->stride[1];
    *dilation_h = (int)convDesc->dilation[0];
    *dilation_w = (int)convDesc->dilation[1];
    *mode = convDesc->mode;
    *computeType = convDesc->compute_type;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetConvolutionNdDescriptor(pdnnConvolutionDescriptor_t convDesc,
                                            int arrayLength, const int padA[],
                                            const int filterStrideA[], const int dilationA[],
                                            pdnnConvolutionMode_t mode,
                                            pdnnDataType_t computeType)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_CONVOLUTION, convDesc, __func__, "convDesc"));
    PDNN_CHECK_NULL(padA);
    PDNN_CHECK_NULL(filterStrideA);
    PDNN_CHECK_NULL(dilationA);
    return conv_set(convDesc, arrayLength, padA, NULL, filterStrideA, dilationA, mode,
                    computeType, __func__);
}

pdnnStatus_t pdnnSetConvolutionNdDescriptorEx(pdnnConvolutionDescriptor_t convDesc,
                                              int arrayLength, const int padBeginA[],
                                              const int padEndA[], const int filterStrideA[],
                                              const int dilationA[],
                                              pdnnConvolutionMode_t mode,
                                              pdnnDataType_t computeType)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_CONVOLUTION, convDesc, __func__, "convDesc"));
    PDNN_CHECK_NULL(padBeginA);
    PDNN_CHECK_NULL(padEndA);
    PDNN_CHECK_NULL(filterStrideA);
    return conv_set(convDesc, arrayLength, padBeginA, padEndA, filterStrideA, dilationA, mode,
                    computeType, __func__);
}

static pdnnStatus_t conv_get(const conv_t *d, int requested, int *nb, int *padBegin,
                             int *padEnd, int *stride, int *dilation,
                             pdnnConvolutionMode_t *mode, pdnnDataType_t *computeType,
                             bool ex, const char *func)
{
    PDNN_TRY(pdnn_check_convolution(d, func, "convDesc"));
    if (!nb)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, func, "argument 'arrayLength' is NULL");
    if (!mode) return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, func, "argument 'mode' is NULL");
    if (!computeType)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, func,
                          "argument 'computeType' is NULL");
    if (requested < 0)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "arrayLengthRequested is %d, must be >= 0", requested);
    int m = requested < d->nbSpatial ? requested : d->nbSpatial;
    if (m > 0) {
        if (!padBegin || (ex && !padEnd) || !stride || !dilation)
            return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, func,
                              "an output array is NULL while %d values are requested", m);
    }
    for (int i = 0; i < m; i++) {
        padBegin[i] = (int)d->pad_begin[i];
        if (ex) padEnd[i] = (int)d->pad_end[i];
        stride[i] = (int)d->stride[i];
        dilation[i] = (int)d->dilation[i];
    }
    *nb = d->nbSpatial;
    *mode = d->mode;
    *computeType = d->compute_type;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetConvolutionNdDescriptor(const pdnnConvolutionDescriptor_t convDesc,
                                            int arrayLengthRequested, int *arrayLength,
                                            int padA[], int strideA[], int dilationA[],
                                            pdnnConvolutionMode_t *mode,
                                            pdnnDataType_t *computeType)
{
    return conv_get(convDesc, arrayLengthRequested, arrayLength, padA, NULL, strideA,
                    dilationA, mode, computeType, false, __func__);
}

pdnnStatus_t pdnnGetConvolutionNdDescriptorEx(const pdnnConvolutionDescriptor_t convDesc,
                                              int arrayLengthRequested, int *arrayLength,
                                              int padBeginA[], int padEndA[], int strideA[],
                                              int dilationA[], pdnnConvolutionMode_t *mode,
                                              pdnnDataType_t *computeType)
{
    return conv_get(convDesc, arrayLengthRequested, arrayLength, padBeginA, padEndA, strideA,
                    dilationA, mode, computeType, true, __func__);
}

pdnnStatus_t pdnnSetConvolutionGroupCount(pdnnConvolutionDescriptor_t convDesc, int groupCount)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_CONVOLUTION, convDesc, __func__, "convDesc"));
    if (groupCount < 1)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__, "groupCount is %d, must be >= 1",
                          groupCount);
    convDesc->groups = groupCount;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetConvolutionGroupCount(pdnnConvolutionDescriptor_t convDesc, int *groupCount)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_CONVOLUTION, convDesc, __func__, "convDesc"));
    PDNN_CHECK_NULL(groupCount);
    *groupCount = convDesc->groups;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetConvolutionMathType(pdnnConvolutionDescriptor_t convDesc,
                                        pdnnMathType_t mathType)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_CONVOLUTION, convDesc, __func__, "convDesc"));
    if (mathType != PDNN_DEFAULT_MATH && mathType != PDNN_TENSOR_OP_MATH &&
        mathType != PDNN_TENSOR_OP_MATH_ALLOW_CONVERSION && mathType != PDNN_FMA_MATH)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "mathType %d is not a pdnnMathType_t (0..3)", (int)mathType);
    convDesc->math_type = mathType;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetConvolutionMathType(pdnnConvolutionDescriptor_t convDesc,
                                        pdnnMathType_t *mathType)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_CONVOLUTION, convDesc, __func__, "convDesc"));
    PDNN_CHECK_NULL(mathType);
    *mathType = convDesc->math_type;
    return PDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ output dims */

pdnnStatus_t pdnn_conv_output_dims(const conv_t *cd, const struct pdnnTensorStruct *x,
                                   const char *xname, const struct pdnnFilterStruct *w,
                                   const char *wname, int64_t *out, const char *func)
{
    int nb = cd->nbSpatial + 2;
    if (x->nbDims != nb)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, func,
                          "%s has %d dims but convDesc has %d spatial dims (needs %d)", xname,
                          x->nbDims, cd->nbSpatial, nb);
    if (w->nbDims != nb)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, func,
                          "%s has %d dims but convDesc has %d spatial dims (needs %d)", wname,
                          w->nbDims, cd->nbSpatial, nb);
    int64_t g = cd->groups;
    if (x->dim[1] != w->dim[1] * g)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, func,
                          "%s has %lld channels but %s expects %lld (groups=%lld)", xname,
                          (long long)x->dim[1], wname, (long long)(w->dim[1] * g),
                          (long long)g);
    if (w->dim[0] % g != 0)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "%s has %lld output channels, not a multiple of groups=%lld", wname,
                          (long long)w->dim[0], (long long)g);
    out[0] = x->dim[0];
    out[1] = w->dim[0];
    for (int i = 0; i < cd->nbSpatial; i++) {
        int64_t in = x->dim[2 + i] + cd->pad_begin[i] + cd->pad_end[i];
        int64_t k = (w->dim[2 + i] - 1) * cd->dilation[i] + 1;
        if (k > in)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                              "spatial dim %d: the dilated filter (%lld = (%lld - 1) * %lld + "
                              "1) is larger than the padded input (%lld = %lld + %lld + %lld)",
                              i, (long long)k, (long long)w->dim[2 + i],
                              (long long)cd->dilation[i], (long long)in,
                              (long long)x->dim[2 + i], (long long)cd->pad_begin[i],
                              (long long)cd->pad_end[i]);
        out[2 + i] = 1 + (in - k) / cd->stride[i];
    }
    return PDNN_STATUS_SUCCESS;
}

static pdnnStatus_t out_dims_checked(const conv_t *cd, const struct pdnnTensorStruct *x,
                                     const struct pdnnFilterStruct *w, int64_t *out,
                                     const char *func)
{
    PDNN_TRY(pdnn_check_convolution(cd, func, "convDesc"));
    PDNN_TRY(pdnn_check_tensor(x, func, "inputTensorDesc"));
    PDNN_TRY(pdnn_check_filter(w, func, "filterDesc"));
    PDNN_TRY(pdnn_conv_output_dims(cd, x, "inputTensorDesc", w, "filterDesc", out, func));
    for (int i = 0; i < x->nbDims; i++)
        if (out[i] > 2147483647)
            return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, func,
                              "output dimension %d is %lld and does not fit an int", i,
                              (long long)out[i]);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetConvolution2dForwardOutputDim(const pdnnConvolutionDescriptor_t convDesc,
                                                  const pdnnTensorDescriptor_t inputTensorDesc,
                                                  const pdnnFilterDescriptor_t filterDesc,
                                                  int *n, int *c, int *h, int *w)
{
    int64_t out[PDNN_DIM_MAX];
    PDNN_TRY(out_dims_checked(convDesc, inputTensorDesc, filterDesc, out, __func__));
    PDNN_CHECK_NULL(n);
    PDNN_CHECK_NULL(c);
    PDNN_CHECK_NULL(h);
    PDNN_CHECK_NULL(w);
    if (convDesc->nbSpatial != 2)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "convDesc has %d spatial dims, not 2 (use "
                          "pdnnGetConvolutionNdForwardOutputDim)",
                          convDesc->nbSpatial);
    *n = (int)out[0];
    *c = (int)out[1];
    *h = (int)out[2];
    *w = (int)out[3];
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetConvolutionNdForwardOutputDim(const pdnnConvolutionDescriptor_t convDesc,
                                                  const pdnnTensorDescriptor_t inputTensorDesc,
                                                  const pdnnFilterDescriptor_t filterDesc,
                                                  int nbDims, int tensorOuputDimA[])
{
    int64_t out[PDNN_DIM_MAX];
    PDNN_TRY(out_dims_checked(convDesc, inputTensorDesc, filterDesc, out, __func__));
    PDNN_CHECK_NULL(tensorOuputDimA);
    if (nbDims != inputTensorDesc->nbDims)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "nbDims is %d but inputTensorDesc has %d dims", nbDims,
                          inputTensorDesc->nbDims);
    for (int i = 0; i < nbDims; i++) tensorOuputDimA[i] = (int)out[i];
    return PDNN_STATUS_SUCCESS;
}
