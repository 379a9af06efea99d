/* Core API: version, statuses, last error, handle, tensor and filter descriptors. */
#include <string.h>

#include "testutil.h"

static void test_version(void)
{
    int v;
    TU_CHECK(pdnnGetVersion() == PDNN_VERSION, "version %zu", pdnnGetVersion());
    TU_OK(pdnnGetProperty(PDNN_MAJOR_VERSION, &v));
    TU_CHECK(v == PDNN_MAJOR, "major %d", v);
    TU_OK(pdnnGetProperty(PDNN_PATCH_LEVEL, &v));
    TU_CHECK(v == PDNN_PATCHLEVEL, "patch %d", v);
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetProperty(PDNN_MINOR_VERSION, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnGetProperty((pdnnLibraryPropertyType_t)7, &v));
    TU_CHECK(!strcmp(pdnnGetErrorString(PDNN_STATUS_BAD_PARAM), "PDNN_STATUS_BAD_PARAM"), "name");
    TU_CHECK(PDNN_STATUS_CATEGORY(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH) == PDNN_STATUS_BAD_PARAM,
             "category");
    char small[8];
    pdnnGetLastErrorString(small, sizeof small);
    TU_CHECK(strlen(small) == 7, "truncated last error has %zu chars", strlen(small));
}

static void test_handle(void)
{
    pdnnHandle_t h;
    int n;
    pdnnStream_t s;
    TU_OK(pdnnCreate(&h));
    TU_OK(pdnnGetNumThreads(h, &n));
    TU_CHECK(n >= 1, "threads %d", n);
    TU_OK(pdnnSetNumThreads(h, 3));
    TU_OK(pdnnGetNumThreads(h, &n));
    TU_CHECK(n == 3, "threads %d", n);
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetNumThreads(h, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetNumThreads(h, PDNN_MAX_THREADS + 1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetNumThreads(h, 1 << 20));
    TU_OK(pdnnGetNumThreads(h, &n));
    TU_CHECK(n == 3, "threads unchanged after refusals: %d", n);
    {   /* a live object of another kind is not a handle */
        pdnnTensorDescriptor_t td = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 1, 1, 1);
        TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnSetNumThreads((pdnnHandle_t)td, 2));
        pdnnDestroyTensorDescriptor(td);
    }
    TU_OK(pdnnSetStream(h, (pdnnStream_t)0x1234));
    TU_OK(pdnnGetStream(h, &s));
    TU_CHECK(s == (pdnnStream_t)0x1234, "stream");
    TU_OK(pdnnDestroy(h));
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnDestroy(h));
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnSetNumThreads(NULL, 2));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnCreate(NULL));
}

static void test_tensor_desc(void)
{
    pdnnTensorDescriptor_t d;
    pdnnDataType_t t;
    int n, c, h, w, ns, cs, hs, ws;
    size_t bytes;
    TU_OK(pdnnCreateTensorDescriptor(&d));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetTensorSizeInBytes(d, &bytes)); /* unset */
    TU_OK(pdnnSetTensor4dDescriptor(d, PDNN_TENSOR_NHWC, PDNN_DATA_FLOAT, 2, 3, 4, 5));
    TU_OK(pdnnGetTensor4dDescriptor(d, &t, &n, &c, &h, &w, &ns, &cs, &hs, &ws));
    TU_CHECK(t == PDNN_DATA_FLOAT && n == 2 && c == 3 && h == 4 && w == 5, "dims");
    TU_CHECK(ns == 60 && cs == 1 && hs == 15 && ws == 3, "NHWC strides %d %d %d %d", ns, cs,
             hs, ws);
    TU_OK(pdnnGetTensorSizeInBytes(d, &bytes));
    TU_CHECK(bytes == 120 * 4, "bytes %zu", bytes);
    /* gapped strides: span counts the gaps */
    TU_OK(pdnnSetTensor4dDescriptorEx(d, PDNN_DATA_DOUBLE, 1, 2, 2, 2, 100, 10, 4, 1));
    TU_OK(pdnnGetTensorSizeInBytes(d, &bytes));
    TU_CHECK(bytes == (1 + 10 + 4 + 1) * 8, "gapped bytes %zu", bytes);
    /* Nd and its Get */
    int dims[5] = {2, 3, 4, 5, 6}, st[5], gd[5], gs[5], nb;
    TU_OK(pdnnSetTensorNdDescriptorEx(d, PDNN_TENSOR_NHWC, PDNN_DATA_FLOAT, 5, dims));
    TU_OK(pdnnGetTensorNdDescriptor(d, 5, &t, &nb, gd, gs));
    TU_CHECK(nb == 5 && gs[1] == 1 && gs[4] == 3 && gs[3] == 18 && gs[2] == 90 && gs[0] == 360,
             "NDHWC strides %d %d %d %d %d", gs[0], gs[1], gs[2], gs[3], gs[4]);
    /* zero-sized dims are valid */
    int zd[4] = {0, 3, 4, 5};
    TU_OK(pdnnSetTensorNdDescriptorEx(d, PDNN_TENSOR_NCHW, PDNN_DATA_FLOAT, 4, zd));
    TU_OK(pdnnGetTensorSizeInBytes(d, &bytes));
    TU_CHECK(bytes == 0, "zero-sized bytes %zu", bytes);
    /* errors leave the descriptor as it was */
    TU_OK(pdnnSetTensor4dDescriptor(d, PDNN_TENSOR_NCHW, PDNN_DATA_FLOAT, 1, 2, 3, 4));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetTensor4dDescriptor(d, PDNN_TENSOR_NCHW, PDNN_DATA_FLOAT, -1, 2, 3, 4));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetTensor4dDescriptor(d, (pdnnTensorFormat_t)9, PDNN_DATA_FLOAT, 1, 2, 3, 4));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetTensor4dDescriptor(d, PDNN_TENSOR_NCHW, (pdnnDataType_t)77, 1, 2, 3, 4));
    for (int i = 0; i < 5; i++) st[i] = 1;
    st[0] = 0;
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetTensorNdDescriptor(d, PDNN_DATA_FLOAT, 5, dims, st));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetTensorNdDescriptor(d, PDNN_DATA_FLOAT, 9, dims, st));
    int big[4] = {2147483647, 2147483647, 2147483647, 2147483647};
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetTensorNdDescriptorEx(d, PDNN_TENSOR_NCHW, PDNN_DATA_DOUBLE, 4, big));
    TU_OK(pdnnGetTensor4dDescriptor(d, &t, &n, &c, &h, &w, &ns, &cs, &hs, &ws));
    TU_CHECK(n == 1 && c == 2 && h == 3 && w == 4 && ns == 24, "unchanged after errors");
    /* half types are accepted by descriptors */
    TU_OK(pdnnSetTensor4dDescriptor(d, PDNN_TENSOR_NCHW, PDNN_DATA_HALF, 1, 2, 3, 4));
    TU_OK(pdnnDestroyTensorDescriptor(d));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnDestroyTensorDescriptor(d));
    TU_OK(pdnnDestroyTensorDescriptor(NULL));
}

static void test_filter_desc(void)
{
    pdnnFilterDescriptor_t f;
    pdnnDataType_t t;
    pdnnTensorFormat_t fmt;
    int k, c, h, w, nb, dims[5];
    size_t bytes;
    TU_OK(pdnnCreateFilterDescriptor(&f));
    TU_OK(pdnnSetFilter4dDescriptor(f, PDNN_DATA_FLOAT, PDNN_TENSOR_NHWC, 8, 3, 5, 5));
    TU_OK(pdnnGetFilter4dDescriptor(f, &t, &fmt, &k, &c, &h, &w));
    TU_CHECK(fmt == PDNN_TENSOR_NHWC && k == 8 && c == 3 && h == 5 && w == 5, "filter");
    TU_OK(pdnnGetFilterSizeInBytes(f, &bytes));
    TU_CHECK(bytes == 8 * 3 * 25 * 4, "filter bytes %zu", bytes);
    int d5[5] = {4, 2, 3, 3, 3};
    TU_OK(pdnnSetFilterNdDescriptor(f, PDNN_DATA_DOUBLE, PDNN_TENSOR_NCHW, 5, d5));
    TU_OK(pdnnGetFilterNdDescriptor(f, 5, &t, &fmt, &nb, dims));
    TU_CHECK(nb == 5 && dims[4] == 3 && t == PDNN_DATA_DOUBLE, "nd filter");
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetFilter4dDescriptor(f, PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 0, 3, 5, 5));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetFilter4dDescriptor(f, &t, &fmt, &k, &c, &h, &w));
    /* a tensor descriptor is not a filter descriptor */
    pdnnTensorDescriptor_t td = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 1, 1, 1);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetFilterSizeInBytes((pdnnFilterDescriptor_t)td, &bytes));
    pdnnDestroyTensorDescriptor(td);
    TU_OK(pdnnDestroyFilterDescriptor(f));
}

int main(void)
{
    test_version();
    test_handle();
    test_tensor_desc();
    test_filter_desc();
    return tu_finish("api/core");
}
