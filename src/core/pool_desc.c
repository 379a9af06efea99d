/* Pooling descriptor: creation, Set/Get (2-d, N-d, N-d extended) and output sizes. */
#include <stdint.h>

#include "core/desc.h"
#include "core/error.h"
#include "core/pool_desc.h"

typedef struct pdnnPoolingStruct pool_t;

static const char *mode_name(pdnnPoolingMode_t m)
{
    switch (m) {
    case PDNN_POOLING_MAX: return "MAX";
    case PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING: return "AVERAGE_COUNT_INCLUDE_PADDING";
    case PDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING: return "AVERAGE_COUNT_EXCLUDE_PADDING";
    case PDNN_POOLING_MAX_DETERMINISTIC: return "MAX_DETERMINISTIC";
    }
    return NULL;
}

/* Dilated (effective) window extent. */
static int64_t eff_window(int64_t win, int64_t dil) { return (win - 1) * dil + 1; }

/* Validates every field into a scratch copy, then commits (the descriptor is unchanged
 * on failure). pe and dil may be NULL: symmetric padding, dilation 1. */
static pdnnStatus_t pool_set(pool_t *d, pdnnPoolingMode_t mode, pdnnNanPropagation_t nan,
                             int nb, const int *win, const int *pb, const int *pe,
                             const int *st, const int *dil, int ceil_mode, const char *func)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_POOLING, d, func, "poolingDesc"));
    if (!mode_name(mode))
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "mode %d is not a pdnnPoolingMode_t (0 to 3)", (int)mode);
    if (nan != PDNN_NOT_PROPAGATE_NAN && nan != PDNN_PROPAGATE_NAN)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "maxpoolingNanOpt %d is not PDNN_NOT_PROPAGATE_NAN (0) or "
                          "PDNN_PROPAGATE_NAN (1)", (int)nan);
    if (nb < 1 || nb > PDNN_SPATIAL_MAX)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func, "nbDims is %d, must be in [1, %d]", nb,
                          PDNN_SPATIAL_MAX);
    if (ceil_mode != 0 && ceil_mode != 1)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func, "ceilMode is %d, must be 0 or 1",
                          ceil_mode);
    pool_t t = {0};
    t.set = true;
    t.mode = mode;
    t.nan_opt = nan;
    t.nbSpatial = nb;
    t.ceil_mode = ceil_mode == 1;
    for (int i = 0; i < nb; i++) {
        int64_t w = win[i], b = pb[i], e = pe ? pe[i] : pb[i], s = st[i], dl = dil ? dil[i] : 1;
        if (w < 1)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                              "window dimension %d is %lld, must be >= 1", i, (long long)w);
        if (s < 1)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func, "stride %d is %lld, must be >= 1",
                              i, (long long)s);
        if (dl < 1)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                              "dilation %d is %lld, must be >= 1", i, (long long)dl);
        if (b < 0 || e < 0)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                              "padding of dimension %d is %lld (begin) / %lld (end), must "
                              "be >= 0", i, (long long)b, (long long)e);
        int64_t ew = eff_window(w, dl);
        if (b >= ew || e >= ew)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                              "padding of dimension %d is %lld (begin) / %lld (end), must be "
                              "smaller than the dilated window %lld (window %lld, dilation "
                              "%lld)", i, (long long)b, (long long)e, (long long)ew,
                              (long long)w, (long long)dl);
        t.window[i] = w;
        t.pad_begin[i] = b;
        t.pad_end[i] = e;
        t.stride[i] = s;
        t.dilation[i] = dl;
    }
    *d = t;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnn_check_pooling(const pool_t *p, const char *func, const char *argname)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_POOLING, p, func, argname));
    if (!p->set)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "%s was created but never set (call pdnnSetPooling*Descriptor)",
                          argname);
    return PDNN_STATUS_SUCCESS;
}

/* BAD_PARAM when the descriptor uses what the non-Ex queries cannot express. */
static pdnnStatus_t check_plain(const pool_t *p, const char *func)
{
    for (int i = 0; i < p->nbSpatial; i++) {
        if (p->pad_begin[i] != p->pad_end[i])
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                              "poolingDesc has asymmetric padding in dimension %d (%lld "
                              "begin, %lld end); read it with pdnnGetPoolingNdDescriptorEx",
                              i, (long long)p->pad_begin[i], (long long)p->pad_end[i]);
        if (p->dilation[i] != 1)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                              "poolingDesc has dilation %lld in dimension %d; read it with "
                              "pdnnGetPoolingNdDescriptorEx", (long long)p->dilation[i], i);
    }
    if (p->ceil_mode)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "poolingDesc uses ceil mode; read it with "
                          "pdnnGetPoolingNdDescriptorEx");
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnCreatePoolingDescriptor(pdnnPoolingDescriptor_t *poolingDesc)
{
    PDNN_CHECK_NULL(poolingDesc);
    pool_t *d = pdnn_obj_new(PDNN_OBJ_POOLING, sizeof *d);
    if (!d) return pdnn_error(PDNN_STATUS_ALLOC_FAILED, __func__, "out of host memory");
    *poolingDesc = d;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnDestroyPoolingDescriptor(pdnnPoolingDescriptor_t poolingDesc)
{
    if (poolingDesc == NULL) return PDNN_STATUS_SUCCESS;
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_POOLING, poolingDesc, __func__, "poolingDesc"));
    pdnn_obj_free(PDNN_OBJ_POOLING, poolingDesc);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetPooling2dDescriptor(pdnnPoolingDescriptor_t poolingDesc,
                                        pdnnPoolingMode_t mode,
                                        pdnnNanPropagation_t maxpoolingNanOpt,
                                        int windowHeight, int windowWidth,
                                        int verticalPadding, int horizontalPadding,
                                        int verticalStride, int horizontalStride)
{
    int win[2] = {windowHeight, windowWidth};
    int pad[2] = {verticalPadding, horizontalPadding};
    int st[2] = {verticalStride, horizontalStride};
    return pool_set(poolingDesc, mode, maxpoolingNanOpt, 2, win, pad, NULL, st, NULL, 0,
                    __func__);
}

pdnnStatus_t pdnnGetPooling2dDescriptor(const pdnnPoolingDescriptor_t poolingDesc,
                                        pdnnPoolingMode_t *mode,
                                        pdnnNanPropagation_t *maxpoolingNanOpt,
                                        int *windowHeight, int *windowWidth,
                                        int *verticalPadding, int *horizontalPadding,
                                        int *verticalStride, int *horizontalStride)
{
    PDNN_TRY(pdnn_check_pooling(poolingDesc, __func__, "poolingDesc"));
    PDNN_CHECK_NULL(mode);
    PDNN_CHECK_NULL(maxpoolingNanOpt);
    PDNN_CHECK_NULL(windowHeight);
    PDNN_CHECK_NULL(windowWidth);
    PDNN_CHECK_NULL(verticalPadding);
    PDNN_CHECK_NULL(horizontalPadding);
    PDNN_CHECK_NULL(verticalStride);
    PDNN_CHECK_NULL(horizontalStride);
    const pool_t *p = poolingDesc;
    if (p->nbSpatial != 2)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "poolingDesc has %d spatial dimensions, not 2; use "
                          "pdnnGetPoolingNdDescriptor", p->nbSpatial);
    PDNN_TRY(check_plain(p, __func__));
    *mode = p->mode;
    *maxpoolingNanOpt = p->nan_opt;
    *windowHeight = (int)p->window[0];
    *windowWidth = (int)p->window[1];
    *verticalPadding = (int)p->pad_begin[0];
    *horizontalPadding = (int)p->pad_begin[1];
    *verticalStride = (int)p->stride[0];
    *horizontalStride = (int)p->stride[1];
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetPoolingNdDescriptor(pdnnPoolingDescriptor_t poolingDesc,
                                        pdnnPoolingMode_t mode,
                                        pdnnNanPropagation_t maxpoolingNanOpt, int nbDims,
                                        const int windowDimA[], const int paddingA[],
                                        const int strideA[])
{
    PDNN_CHECK_NULL(windowDimA);
    PDNN_CHECK_NULL(paddingA);
    PDNN_CHECK_NULL(strideA);
    return pool_set(poolingDesc, mode, maxpoolingNanOpt, nbDims, windowDimA, paddingA, NULL,
                    strideA, NULL, 0, __func__);
}

pdnnStatus_t pdnnSetPoolingNdDescriptorEx(pdnnPoolingDescriptor_t poolingDesc,
                                          pdnnPoolingMode_t mode,
                                          pdnnNanPropagation_t maxpoolingNanOpt, int nbDims,
                                          const int windowDimA[], const int padBeginA[],
                                          const int padEndA[], const int strideA[],
                                          const int dilationA[], int ceilMode)
{
    PDNN_CHECK_NULL(windowDimA);
    PDNN_CHECK_NULL(padBeginA);
    PDNN_CHECK_NULL(padEndA);
    PDNN_CHECK_NULL(strideA);
    return pool_set(poolingDesc, mode, maxpoolingNanOpt, nbDims, windowDimA, padBeginA,
                    padEndA, strideA, dilationA, ceilMode, __func__);
}

/* Shared by both N-d queries: common checks, then the number of entries to write. */
static pdnnStatus_t get_nd_common(const pool_t *p, int req, pdnnPoolingMode_t *mode,
                                  pdnnNanPropagation_t *nan, int *nbDims, const char *func,
                                  int *m)
{
    if (mode == NULL || nan == NULL || nbDims == NULL)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, func, "argument '%s' is NULL",
                          mode == NULL ? "mode" : nan == NULL ? "maxpoolingNanOpt" : "nbDims");
    if (req < 0)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func, "nbDimsRequested is %d, must be >= 0",
                          req);
    *m = req < p->nbSpatial ? req : p->nbSpatial;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetPoolingNdDescriptor(const pdnnPoolingDescriptor_t poolingDesc,
                                        int nbDimsRequested, pdnnPoolingMode_t *mode,
                                        pdnnNanPropagation_t *maxpoolingNanOpt, int *nbDims,
                                        int windowDimA[], int paddingA[], int strideA[])
{
    PDNN_TRY(pdnn_check_pooling(poolingDesc, __func__, "poolingDesc"));
    const pool_t *p = poolingDesc;
    int m = 0;
    PDNN_TRY(get_nd_common(p, nbDimsRequested, mode, maxpoolingNanOpt, nbDims, __func__, &m));
    if (m > 0) {
        PDNN_CHECK_NULL(windowDimA);
        PDNN_CHECK_NULL(paddingA);
        PDNN_CHECK_NULL(strideA);
    }
    PDNN_TRY(check_plain(p, __func__));
    for (int i = 0; i < m; i++) {
        windowDimA[i] = (int)p->window[i];
        paddingA[i] = (int)p->pad_begin[i];
        strideA[i] = (int)p->stride[i];
    }
    *mode = p->mode;
    *maxpoolingNanOpt = p->nan_opt;
    *nbDims = p->nbSpatial;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetPoolingNdDescriptorEx(const pdnnPoolingDescriptor_t poolingDesc,
                                          int nbDimsRequested, pdnnPoolingMode_t *mode,
                                          pdnnNanPropagation_t *maxpoolingNanOpt,
                                          int *nbDims, int windowDimA[], int padBeginA[],
                                          int padEndA[], int strideA[], int dilationA[],
                                          int *ceilMode)
{
    PDNN_TRY(pdnn_check_pooling(poolingDesc, __func__, "poolingDesc"));
    const pool_t *p = poolingDesc;
    int m = 0;
    PDNN_TRY(get_nd_common(p, nbDimsRequested, mode, maxpoolingNanOpt, nbDims, __func__, &m));
    PDNN_CHECK_NULL(ceilMode);
    if (m > 0) {
        PDNN_CHECK_NULL(windowDimA);
        PDNN_CHECK_NULL(padBeginA);
        PDNN_CHECK_NULL(padEndA);
        PDNN_CHECK_NULL(strideA);
    }
    for (int i = 0; i < m; i++) {
        windowDimA[i] = (int)p->window[i];
        padBeginA[i] = (int)p->pad_begin[i];
        padEndA[i] = (int)p->pad_end[i];
        strideA[i] = (int)p->stride[i];
        if (dilationA) dilationA[i] = (int)p->dilation[i];
    }
    *mode = p->mode;
    *maxpoolingNanOpt = p->nan_opt;
    *nbDims = p->nbSpatial;
    *ceilMode = p->ceil_mode ? 1 : 0;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnn_pool_output_dims(const pool_t *p, const struct pdnnTensorStruct *x,
                                   int64_t *out, const char *func)
{
    if (x->nbDims != p->nbSpatial + 2)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, func,
                          "xDesc has %d dimensions but poolingDesc has %d spatial "
                          "dimensions, so %d are expected (N, C, spatial...)", x->nbDims,
                          p->nbSpatial, p->nbSpatial + 2);
    out[0] = x->dim[0];
    out[1] = x->dim[1];
    for (int i = 0; i < p->nbSpatial; i++) {
        int64_t in = x->dim[2 + i];
        if (in == 0) {
            out[2 + i] = 0;
            continue;
        }
        int64_t ew = eff_window(p->window[i], p->dilation[i]);
        int64_t padded = in + p->pad_begin[i] + p->pad_end[i];
        if (ew > padded)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                              "the window of spatial dimension %d spans %lld elements "
                              "(window %lld, dilation %lld), more than the padded input "
                              "%lld (%lld + %lld begin + %lld end padding)", i,
                              (long long)ew, (long long)p->window[i],
                              (long long)p->dilation[i], (long long)padded, (long long)in,
                              (long long)p->pad_begin[i], (long long)p->pad_end[i]);
        int64_t s = p->stride[i], num = padded - ew;
        int64_t o = (p->ceil_mode ? (num + s - 1) / s : num / s) + 1;
        /* ceil mode never starts a window inside the end padding (PyTorch's rule) */
        if (p->ceil_mode && (o - 1) * s >= in + p->pad_begin[i]) o--;
        out[2 + i] = o;
    }
    return PDNN_STATUS_SUCCESS;
}

static pdnnStatus_t narrow_dims(const int64_t *v, int nb, int *out, const char *func)
{
    for (int i = 0; i < nb; i++)
        if (v[i] > INT32_MAX)
            return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, func,
                              "output dimension %d is %lld and does not fit an int", i,
                              (long long)v[i]);
    for (int i = 0; i < nb; i++) out[i] = (int)v[i];
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetPooling2dForwardOutputDim(const pdnnPoolingDescriptor_t poolingDesc,
                                              const pdnnTensorDescriptor_t inputTensorDesc,
                                              int *n, int *c, int *h, int *w)
{
    PDNN_TRY(pdnn_check_pooling(poolingDesc, __func__, "poolingDesc"));
    PDNN_TRY(pdnn_check_tensor(inputTensorDesc, __func__, "inputTensorDesc"));
    PDNN_CHECK_NULL(n);
    PDNN_CHECK_NULL(c);
    PDNN_CHECK_NULL(h);
    PDNN_CHECK_NULL(w);
    if (poolingDesc->nbSpatial != 2)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "poolingDesc has %d spatial dimensions, not 2; use "
                          "pdnnGetPoolingNdForwardOutputDim", poolingDesc->nbSpatial);
    int64_t o[4];
    int v[4];
    PDNN_TRY(pdnn_pool_output_dims(poolingDesc, inputTensorDesc, o, __func__));
    PDNN_TRY(narrow_dims(o, 4, v, __func__));
    *n = v[0], *c = v[1], *h = v[2], *w = v[3];
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetPoolingNdForwardOutputDim(const pdnnPoolingDescriptor_t poolingDesc,
                                              const pdnnTensorDescriptor_t inputTensorDesc,
                                              int nbDims, int outputTensorDimA[])
{
    PDNN_TRY(pdnn_check_pooling(poolingDesc, __func__, "poolingDesc"));
    PDNN_TRY(pdnn_check_tensor(inputTensorDesc, __func__, "inputTensorDesc"));
    PDNN_CHECK_NULL(outputTensorDimA);
    if (nbDims != poolingDesc->nbSpatial + 2)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "nbDims is %d but poolingDesc has %d spatial dimensions; nbDims "
                          "must be %d (the rank of the input and output tensors)", nbDims,
                          poolingDesc->nbSpatial, poolingDesc->nbSpatial + 2);
    int64_t o[PDNN_DIM_MAX];
    int v[PDNN_DIM_MAX];
    PDNN_TRY(pdnn_pool_output_dims(poolingDesc, inputTensorDesc, o, __func__));
    PDNN_TRY(narrow_dims(o, nbDims, v, __func__));
    for (int i = 0; i < nbDims; i++) outputTensorDimA[i] = v[i];
    return PDNN_STATUS_SUCCESS;
}
