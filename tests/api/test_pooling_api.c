/* Pooling API misuse: descriptor validation and round trips, output-size queries, and
 * every argument of pdnnPoolingForward/Backward: documented status, a message, and
 * the output left untouched. Also the API log line. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static pdnnHandle_t H;

static void test_create_destroy(void)
{
    pdnnPoolingDescriptor_t p;
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnCreatePoolingDescriptor(NULL));
    TU_OK(pdnnDestroyPoolingDescriptor(NULL));
    TU_OK(pdnnCreatePoolingDescriptor(&p));
    pdnnPoolingMode_t m;
    pdnnNanPropagation_t nan;
    int wh, ww, ph, pw, sh, sw;
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnGetPooling2dDescriptor(p, &m, &nan, &wh, &ww, &ph, &pw, &sh, &sw)); /* unset */
    TU_OK(pdnnDestroyPoolingDescriptor(p));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnDestroyPoolingDescriptor(p));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetPooling2dDescriptor(p, PDNN_POOLING_MAX,
                                                                PDNN_PROPAGATE_NAN, 2, 2, 0,
                                                                0, 2, 2));
    /* a tensor descriptor is not a pooling descriptor */
    pdnnTensorDescriptor_t t = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 1, 2, 2);
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetPooling2dDescriptor((pdnnPoolingDescriptor_t)(void *)t, PDNN_POOLING_MAX,
                                         PDNN_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnDestroyPoolingDescriptor((pdnnPoolingDescriptor_t)(void *)t));
    pdnnDestroyTensorDescriptor(t);
}

static void test_2d(void)
{
    pdnnPoolingDescriptor_t p;
    pdnnPoolingMode_t m;
    pdnnNanPropagation_t nan;
    int wh, ww, ph, pw, sh, sw;
    TU_OK(pdnnCreatePoolingDescriptor(&p));
    TU_OK(pdnnSetPooling2dDescriptor(p, PDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING,
                                     PDNN_PROPAGATE_NAN, 3, 2, 1, 0, 2, 1));
    TU_OK(pdnnGetPooling2dDescriptor(p, &m, &nan, &wh, &ww, &ph, &pw, &sh, &sw));
    TU_CHECK(m == PDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING && nan == PDNN_PROPAGATE_NAN &&
                 wh == 3 && ww == 2 && ph == 1 && pw == 0 && sh == 2 && sw == 1,
             "2d round trip");
    const pdnnPoolingMode_t M = PDNN_POOLING_MAX;
    const pdnnNanPropagation_t N = PDNN_NOT_PROPAGATE_NAN;
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetPooling2dDescriptor(p, (pdnnPoolingMode_t)4, N, 2, 2, 0, 0, 1, 1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetPooling2dDescriptor(p, (pdnnPoolingMode_t)-1, N, 2, 2, 0, 0, 1, 1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetPooling2dDescriptor(p, M, (pdnnNanPropagation_t)2, 2, 2, 0, 0, 1, 1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetPooling2dDescriptor(p, M, N, 0, 2, 0, 0, 1, 1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetPooling2dDescriptor(p, M, N, 2, -1, 0, 0, 1, 1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetPooling2dDescriptor(p, M, N, 2, 2, -1, 0, 1, 1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetPooling2dDescriptor(p, M, N, 2, 2, 0, 0, 0, 1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetPooling2dDescriptor(p, M, N, 2, 2, 0, 0, 1, -2));
    /* padding must be smaller than the window */
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetPooling2dDescriptor(p, M, N, 2, 2, 2, 0, 1, 1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetPooling2dDescriptor(p, M, N, 3, 1, 0, 1, 1, 1));
    TU_OK(pdnnGetPooling2dDescriptor(p, &m, &nan, &wh, &ww, &ph, &pw, &sh, &sw));
    TU_CHECK(m == PDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING && wh == 3 && ph == 1 && sh == 2,
             "descriptor unchanged after failed sets");
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnGetPooling2dDescriptor(p, &m, &nan, &wh, NULL, &ph, &pw, &sh, &sw));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnGetPooling2dDescriptor(NULL, &m, &nan, &wh, &ww, &ph, &pw, &sh, &sw));
    pdnnDestroyPoolingDescriptor(p);
}

static void test_nd(void)
{
    pdnnPoolingDescriptor_t p;
    pdnnPoolingMode_t m;
    pdnnNanPropagation_t nan;
    int nb, w[6], pd[6], st[6], pe[6], dl[6], ceil;
    int win[6] = {2, 3, 4, 1, 2, 2}, pad[6] = {1, 0, 2, 0, 1, 1}, str[6] = {1, 2, 3, 1, 1, 2};
    TU_OK(pdnnCreatePoolingDescriptor(&p));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnSetPoolingNdDescriptor(p, PDNN_POOLING_MAX, 0, 3, NULL, pad, str));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnSetPoolingNdDescriptor(p, PDNN_POOLING_MAX, 0, 3, win, pad, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetPoolingNdDescriptor(p, PDNN_POOLING_MAX, 0, 0, win, pad, str));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetPoolingNdDescriptor(p, PDNN_POOLING_MAX, 0, 7, win, pad, str));
    TU_OK(pdnnSetPoolingNdDescriptor(p, PDNN_POOLING_MAX, 0, 6, win, pad, str)); /* 6 allowed */
    TU_OK(pdnnSetPoolingNdDescriptor(p, PDNN_POOLING_MAX_DETERMINISTIC, PDNN_PROPAGATE_NAN, 3,
                                     win, pad, str));
    memset(w, 0, sizeof w);
    TU_OK(pdnnGetPoolingNdDescriptor(p, 2, &m, &nan, &nb, w, pd, st));
    TU_CHECK(nb == 3 && m == PDNN_POOLING_MAX_DETERMINISTIC && nan == PDNN_PROPAGATE_NAN &&
                 w[0] == 2 && w[1] == 3 && w[2] == 0 && pd[0] == 1 && st[1] == 2,
             "nd round trip (2 of 3 requested)");
    TU_OK(pdnnGetPoolingNdDescriptor(p, 0, &m, &nan, &nb, NULL, NULL, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetPoolingNdDescriptor(p, -1, &m, &nan, &nb, w, pd, st));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnGetPoolingNdDescriptor(p, 3, &m, &nan, &nb, w, NULL, st));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnGetPoolingNdDescriptor(p, 3, &m, NULL, &nb, w, pd, st));
    int wh, ww, ph, pw, sh, sw;
    TU_STATUS(PDNN_STATUS_BAD_PARAM, /* 3 spatial dims */
              pdnnGetPooling2dDescriptor(p, &m, &nan, &wh, &ww, &ph, &pw, &sh, &sw));

    /* the extended descriptor */
    int pb2[2] = {0, 2}, pe2[2] = {1, 0}, st2[2] = {2, 1}, w2[2] = {2, 2}, d2[2] = {1, 2};
    TU_OK(pdnnSetPoolingNdDescriptorEx(p, PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, 0, 2,
                                       w2, pb2, pe2, st2, d2, 1));
    TU_OK(pdnnGetPoolingNdDescriptorEx(p, 6, &m, &nan, &nb, w, pd, pe, st, dl, &ceil));
    TU_CHECK(nb == 2 && w[1] == 2 && pd[1] == 2 && pe[0] == 1 && pe[1] == 0 && st[0] == 2 &&
                 dl[0] == 1 && dl[1] == 2 && ceil == 1 &&
                 m == PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING,
             "Ex round trip");
    TU_OK(pdnnGetPoolingNdDescriptorEx(p, 2, &m, &nan, &nb, w, pd, pe, st, NULL, &ceil));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnGetPoolingNdDescriptorEx(p, 2, &m, &nan, &nb, w, pd, pe, st, dl, NULL));
    /* what the plain queries cannot express is refused, not dropped */
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetPoolingNdDescriptor(p, 2, &m, &nan, &nb, w, pd, st));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnGetPooling2dDescriptor(p, &m, &nan, &wh, &ww, &ph, &pw, &sh, &sw));
    int one2[2] = {1, 1};
    TU_OK(pdnnSetPoolingNdDescriptorEx(p, PDNN_POOLING_MAX, 0, 2, w2, one2, one2, st2, NULL, 1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, /* ceil mode */
              pdnnGetPooling2dDescriptor(p, &m, &nan, &wh, &ww, &ph, &pw, &sh, &sw));
    TU_OK(pdnnSetPoolingNdDescriptorEx(p, PDNN_POOLING_MAX, 0, 2, w2, one2, one2, st2, NULL, 0));
    TU_OK(pdnnGetPooling2dDescriptor(p, &m, &nan, &wh, &ww, &ph, &pw, &sh, &sw));
    TU_CHECK(ph == 1 && pw == 1 && wh == 2, "Ex with NULL dilation reads back as 2-d");
    /* Ex validation */
    int zero2[2] = {0, 0}, big[2] = {3, 0};
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetPoolingNdDescriptorEx(p, PDNN_POOLING_MAX, 0, 2, w2,
                                                                  pb2, pe2, st2, d2, 2));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetPoolingNdDescriptorEx(p, PDNN_POOLING_MAX, 0, 2, w2,
                                                                  pb2, pe2, st2, zero2, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnSetPoolingNdDescriptorEx(p, PDNN_POOLING_MAX, 0, 2, w2, pb2, NULL, st2, d2, 0));
    /* padding against the dilated window: 2 < (2-1)*2+1 = 3 is fine, 3 is not */
    TU_OK(pdnnSetPoolingNdDescriptorEx(p, PDNN_POOLING_MAX, 0, 2, w2, zero2, pb2, st2, d2, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetPoolingNdDescriptorEx(p, PDNN_POOLING_MAX, 0, 2, w2,
                                                                  zero2, big, st2, d2, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetPoolingNdDescriptorEx(p, PDNN_POOLING_MAX, 0, 2, w2,
                                                                  big, zero2, st2, NULL, 0));
    pdnnDestroyPoolingDescriptor(p);
}

static void test_output_dim(void)
{
    pdnnPoolingDescriptor_t p;
    int n, c, h, w, od[8];
    TU_OK(pdnnCreatePoolingDescriptor(&p));
    pdnnTensorDescriptor_t x = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NHWC, 2, 3, 7, 6);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetPooling2dForwardOutputDim(p, x, &n, &c, &h, &w));
    TU_OK(pdnnSetPooling2dDescriptor(p, PDNN_POOLING_MAX, 0, 3, 2, 1, 0, 2, 2));
    TU_OK(pdnnGetPooling2dForwardOutputDim(p, x, &n, &c, &h, &w));
    /* 1 + (7 + 2 - 3) / 2 = 4, 1 + (6 - 2) / 2 = 3 (cuDNN's formula) */
    TU_CHECK(n == 2 && c == 3 && h == 4 && w == 3, "2d out %d %d %d %d", n, c, h, w);
    TU_OK(pdnnGetPoolingNdForwardOutputDim(p, x, 4, od));
    TU_CHECK(od[0] == 2 && od[1] == 3 && od[2] == 4 && od[3] == 3, "nd out");
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetPoolingNdForwardOutputDim(p, x, 3, od));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetPoolingNdForwardOutputDim(p, x, 4, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnGetPooling2dForwardOutputDim(p, x, &n, NULL, &h, &w));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnGetPooling2dForwardOutputDim(p, NULL, &n, &c, &h, &w));
    /* window larger than the padded input */
    pdnnTensorDescriptor_t small = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 1, 1, 1);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetPooling2dForwardOutputDim(p, small, &n, &c, &h, &w));
    /* ... but with padding it fits: 1 + 1 + 1 = 3 >= 3 and >= 2 */
    TU_OK(pdnnSetPooling2dDescriptor(p, PDNN_POOLING_MAX, 0, 3, 2, 1, 1, 1, 1));
    TU_OK(pdnnGetPooling2dForwardOutputDim(p, small, &n, &c, &h, &w));
    TU_CHECK(h == 1 && w == 2, "padded fit %d %d", h, w);
    /* rank mismatch */
    int d5[5] = {1, 2, 3, 4, 5};
    pdnnTensorDescriptor_t x5 = tu_tensor(PDNN_DATA_FLOAT, 5, d5, NULL);
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
              pdnnGetPooling2dForwardOutputDim(p, x5, &n, &c, &h, &w));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
              pdnnGetPoolingNdForwardOutputDim(p, x5, 4, od));
    /* 3-d: the 2-d query refuses, the N-d one answers */
    int w3[3] = {2, 2, 2}, p3[3] = {0, 0, 1}, s3[3] = {2, 2, 2};
    TU_OK(pdnnSetPoolingNdDescriptor(p, PDNN_POOLING_MAX, 0, 3, w3, p3, s3));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetPooling2dForwardOutputDim(p, x5, &n, &c, &h, &w));
    TU_OK(pdnnGetPoolingNdForwardOutputDim(p, x5, 5, od));
    TU_CHECK(od[2] == 1 && od[3] == 2 && od[4] == 3, "3d out %d %d %d", od[2], od[3], od[4]);
    /* 6 spatial dims: sizes are computed even though the op computes up to 3 */
    int w6[6] = {1, 1, 1, 1, 2, 2}, p6[6] = {0}, s6[6] = {1, 1, 1, 1, 2, 2};
    int d8[8] = {1, 1, 2, 2, 2, 2, 4, 4};
    pdnnTensorDescriptor_t x8 = tu_tensor(PDNN_DATA_FLOAT, 8, d8, NULL);
    TU_OK(pdnnSetPoolingNdDescriptor(p, PDNN_POOLING_MAX, 0, 6, w6, p6, s6));
    TU_OK(pdnnGetPoolingNdForwardOutputDim(p, x8, 8, od));
    TU_CHECK(od[6] == 2 && od[7] == 2 && od[5] == 2, "6d out");
    pdnnDestroyTensorDescriptor(x8);
    pdnnDestroyTensorDescriptor(x5);
    pdnnDestroyTensorDescriptor(small);
    pdnnDestroyTensorDescriptor(x);
    pdnnDestroyPoolingDescriptor(p);
}

#define SENT 42.0f

static bool untouched(const float *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (y[i] != SENT) return false;
    return true;
}

static void test_forward_misuse(void)
{
    pdnnPoolingDescriptor_t p, unset;
    TU_OK(pdnnCreatePoolingDescriptor(&p));
    TU_OK(pdnnCreatePoolingDescriptor(&unset));
    TU_OK(pdnnSetPooling2dDescriptor(p, PDNN_POOLING_MAX, 0, 2, 2, 0, 0, 2, 2));
    pdnnTensorDescriptor_t xd = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 2, 4, 4);
    pdnnTensorDescriptor_t yd = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 2, 2, 2);
    pdnnTensorDescriptor_t ybad = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 2, 3, 2);
    pdnnTensorDescriptor_t yc = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 3, 2, 2);
    pdnnTensorDescriptor_t ydbl = tu_tensor4d(PDNN_DATA_DOUBLE, PDNN_TENSOR_NCHW, 1, 2, 2, 2);
    pdnnTensorDescriptor_t xh = tu_tensor4d(PDNN_DATA_HALF, PDNN_TENSOR_NCHW, 1, 2, 4, 4);
    pdnnTensorDescriptor_t yh = tu_tensor4d(PDNN_DATA_HALF, PDNN_TENSOR_NCHW, 1, 2, 2, 2);
    int dd[4] = {1, 2, 2, 2}, ovs[4] = {1, 1, 1, 1};
    pdnnTensorDescriptor_t yover = tu_tensor(PDNN_DATA_FLOAT, 4, dd, ovs);
    int d3[3] = {1, 2, 4};
    pdnnTensorDescriptor_t x3 = tu_tensor(PDNN_DATA_FLOAT, 3, d3, NULL);
    pdnnTensorDescriptor_t never;
    TU_OK(pdnnCreateTensorDescriptor(&never));
    float x[32], y[16], one = 1, zero = 0;
    for (int i = 0; i < 32; i++) x[i] = (float)i;
    for (int i = 0; i < 16; i++) y[i] = SENT;
    const pdnnStatus_t NUL = PDNN_STATUS_BAD_PARAM_NULL_POINTER, BAD = PDNN_STATUS_BAD_PARAM;
    const pdnnStatus_t SHP = PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH;

    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnPoolingForward(NULL, p, &one, xd, x, &zero, yd, y));
    TU_STATUS(NUL, pdnnPoolingForward(H, NULL, &one, xd, x, &zero, yd, y));
    TU_STATUS(BAD, pdnnPoolingForward(H, unset, &one, xd, x, &zero, yd, y));
    TU_STATUS(BAD, pdnnPoolingForward(H, (pdnnPoolingDescriptor_t)(void *)xd, &one, xd, x,
                                      &zero, yd, y));
    TU_STATUS(NUL, pdnnPoolingForward(H, p, NULL, xd, x, &zero, yd, y));
    TU_STATUS(NUL, pdnnPoolingForward(H, p, &one, xd, x, NULL, yd, y));
    TU_STATUS(NUL, pdnnPoolingForward(H, p, &one, NULL, x, &zero, yd, y));
    TU_STATUS(BAD, pdnnPoolingForward(H, p, &one, never, x, &zero, yd, y));
    TU_STATUS(NUL, pdnnPoolingForward(H, p, &one, xd, NULL, &zero, yd, y));
    TU_STATUS(NUL, pdnnPoolingForward(H, p, &one, xd, x, &zero, yd, NULL));
    TU_STATUS(SHP, pdnnPoolingForward(H, p, &one, xd, x, &zero, ybad, y));
    TU_STATUS(SHP, pdnnPoolingForward(H, p, &one, xd, x, &zero, yc, y));
    TU_STATUS(SHP, pdnnPoolingForward(H, p, &one, x3, x, &zero, yd, y));
    TU_STATUS(BAD, pdnnPoolingForward(H, p, &one, xd, x, &zero, ydbl, y));
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
              pdnnPoolingForward(H, p, &one, xh, x, &zero, yh, y));
    TU_STATUS(BAD, pdnnPoolingForward(H, p, &one, xd, x, &zero, yover, y));
    TU_STATUS(BAD, pdnnPoolingForward(H, p, &one, xd, y, &zero, yd, y)); /* aliasing */
    TU_STATUS(BAD, pdnnPoolingForward(H, p, &one, xd, x, &zero, yd, x + 4));
    /* window larger than the padded input */
    pdnnTensorDescriptor_t x1 = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 2, 1, 4);
    TU_STATUS(BAD, pdnnPoolingForward(H, p, &one, x1, x, &zero, yd, y));
    /* 4 spatial dims are described but not computed */
    int w4[4] = {1, 1, 1, 1}, p4[4] = {0}, d6[6] = {1, 1, 2, 2, 2, 2};
    pdnnPoolingDescriptor_t p4d;
    TU_OK(pdnnCreatePoolingDescriptor(&p4d));
    TU_OK(pdnnSetPoolingNdDescriptor(p4d, PDNN_POOLING_MAX, 0, 4, w4, p4, w4));
    pdnnTensorDescriptor_t x6 = tu_tensor(PDNN_DATA_FLOAT, 6, d6, NULL);
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_SHAPE,
              pdnnPoolingForward(H, p4d, &one, x6, x, &zero, x6, y));
    TU_CHECK(untouched(y, 16), "forward wrote y on failure");
    /* destroyed handle and descriptor */
    pdnnHandle_t h2;
    TU_OK(pdnnCreate(&h2));
    TU_OK(pdnnDestroy(h2));
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnPoolingForward(h2, p, &one, xd, x, &zero, yd, y));
    pdnnPoolingDescriptor_t gone;
    TU_OK(pdnnCreatePoolingDescriptor(&gone));
    TU_OK(pdnnDestroyPoolingDescriptor(gone));
    TU_STATUS(BAD, pdnnPoolingForward(H, gone, &one, xd, x, &zero, yd, y));
    TU_CHECK(untouched(y, 16), "forward wrote y on failure");
    /* and the valid call works */
    TU_OK(pdnnPoolingForward(H, p, &one, xd, x, &zero, yd, y));
    TU_CHECK(y[0] == 5 && y[7] == 31, "valid forward %g %g", y[0], y[7]);

    /* ---- backward */
    float dy[8], dx[32];
    for (int i = 0; i < 8; i++) dy[i] = 1;
    for (int i = 0; i < 32; i++) dx[i] = SENT;
    pdnnTensorDescriptor_t xbad = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 2, 4, 5);
    pdnnTensorDescriptor_t xdbl = tu_tensor4d(PDNN_DATA_DOUBLE, PDNN_TENSOR_NCHW, 1, 2, 4, 4);
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED,
              pdnnPoolingBackward(NULL, p, &one, yd, y, yd, dy, xd, x, &zero, xd, dx));
    TU_STATUS(BAD, pdnnPoolingBackward(H, unset, &one, yd, y, yd, dy, xd, x, &zero, xd, dx));
    TU_STATUS(NUL, pdnnPoolingBackward(H, p, NULL, yd, y, yd, dy, xd, x, &zero, xd, dx));
    TU_STATUS(NUL, pdnnPoolingBackward(H, p, &one, yd, y, yd, dy, xd, x, NULL, xd, dx));
    TU_STATUS(NUL, pdnnPoolingBackward(H, p, &one, NULL, y, yd, dy, xd, x, &zero, xd, dx));
    TU_STATUS(NUL, pdnnPoolingBackward(H, p, &one, yd, y, yd, dy, xd, x, &zero, NULL, dx));
    TU_STATUS(NUL, pdnnPoolingBackward(H, p, &one, yd, NULL, yd, dy, xd, x, &zero, xd, dx));
    TU_STATUS(NUL, pdnnPoolingBackward(H, p, &one, yd, y, yd, NULL, xd, x, &zero, xd, dx));
    TU_STATUS(NUL, pdnnPoolingBackward(H, p, &one, yd, y, yd, dy, xd, NULL, &zero, xd, dx));
    TU_STATUS(NUL, pdnnPoolingBackward(H, p, &one, yd, y, yd, dy, xd, x, &zero, xd, NULL));
    TU_STATUS(SHP, pdnnPoolingBackward(H, p, &one, yd, y, ybad, dy, xd, x, &zero, xd, dx));
    TU_STATUS(SHP, pdnnPoolingBackward(H, p, &one, ybad, y, ybad, dy, xd, x, &zero, xd, dx));
    TU_STATUS(SHP, pdnnPoolingBackward(H, p, &one, yd, y, yd, dy, xd, x, &zero, xbad, dx));
    TU_STATUS(BAD, pdnnPoolingBackward(H, p, &one, yd, y, yd, dy, xd, x, &zero, xdbl, dx));
    TU_STATUS(BAD, pdnnPoolingBackward(H, p, &one, yd, y, ydbl, dy, xd, x, &zero, xd, dx));
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
              pdnnPoolingBackward(H, p, &one, yh, y, yh, dy, xh, x, &zero, xh, dx));
    TU_STATUS(BAD, pdnnPoolingBackward(H, p, &one, yd, y, yd, dy, xd, dx, &zero, xd, dx));
    TU_STATUS(BAD, pdnnPoolingBackward(H, p, &one, yd, y, yd, dx + 8, xd, x, &zero, xd, dx));
    TU_STATUS(BAD, pdnnPoolingBackward(H, gone, &one, yd, y, yd, dy, xd, x, &zero, xd, dx));
    TU_CHECK(untouched(dx, 32), "backward wrote dx on failure");
    TU_OK(pdnnPoolingBackward(H, p, &one, yd, y, yd, dy, xd, x, &zero, xd, dx));
    TU_CHECK(dx[5] == 1 && dx[0] == 0 && dx[31] == 1, "valid backward");

    pdnnTensorDescriptor_t all[] = {xd, yd, ybad, yc, ydbl, xh, yh, yover, x3, never, x1, x6,
                                    xbad, xdbl};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) pdnnDestroyTensorDescriptor(all[i]);
    pdnnDestroyPoolingDescriptor(p);
    pdnnDestroyPoolingDescriptor(unset);
    pdnnDestroyPoolingDescriptor(p4d);
}

/* One log line per call, naming the problem and the implementation. */
static void test_log(const char *path)
{
    FILE *f = fopen(path, "r");
    TU_CHECK(f != NULL, "log file %s missing", path);
    if (!f) return;
    char line[2048];
    int fwd = 0, bwd = 0;
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, "pdnnPoolingForward:") && strstr(line, "impl=") &&
            strstr(line, "mb1ic2ih4iw4oh2ow2kh2kw2sh2sw2") && strstr(line, "x=f32 1x2x4x4"))
            fwd++;
        if (strstr(line, "pdnnPoolingBackward:") && strstr(line, "impl=") &&
            strstr(line, "dx=f32"))
            bwd++;
    }
    fclose(f);
    TU_CHECK(fwd >= 1 && bwd >= 1, "log lines: %d forward, %d backward", fwd, bwd);
    remove(path);
}

int main(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/pdnn_pool_log_%d.txt", (int)getpid());
    setenv("PDNN_LOGINFO_DBG", "1", 1);
    setenv("PDNN_LOGDEST_DBG", path, 1);
    TU_OK(pdnnCreate(&H));
    test_create_destroy();
    test_2d();
    test_nd();
    test_output_dim();
    test_forward_misuse();
    test_log(path);
    TU_OK(pdnnDestroy(H));
    return tu_finish("api/test_pooling_api");
}
