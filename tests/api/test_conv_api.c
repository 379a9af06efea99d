/* Convolution API: descriptor set/get and validation, misuse of every entry point
 * (documented status, a message, outputs untouched), and the algorithm queries. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/conv/conv_problem.h"
#include "testutil.h"

static bool msg_has(const char *needle)
{
    char m[1024];
    pdnnGetLastErrorString(m, sizeof m);
    return strstr(m, needle) != NULL;
}

#define MSG_HAS(needle)                                                                \
    do {                                                                               \
        char m_[1024];                                                                 \
        pdnnGetLastErrorString(m_, sizeof m_);                                         \
        TU_CHECK(msg_has(needle), "message '%s' lacks '%s'", m_, needle);              \
    } while (0)

/* ------------------------------------------------------------------ descriptor */

static void test_descriptor(void)
{
    pdnnConvolutionDescriptor_t cd;
    int ph, pw, u, v, dh, dw, nb, g;
    pdnnConvolutionMode_t mode;
    pdnnDataType_t ct;
    pdnnMathType_t mt;
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnCreateConvolutionDescriptor(NULL));
    TU_OK(pdnnCreateConvolutionDescriptor(&cd));
    /* unset */
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnGetConvolution2dDescriptor(cd, &ph, &pw, &u, &v, &dh, &dw, &mode, &ct));
    MSG_HAS("never set");
    /* defaults */
    TU_OK(pdnnGetConvolutionGroupCount(cd, &g));
    TU_CHECK(g == 1, "default groups %d", g);
    TU_OK(pdnnGetConvolutionMathType(cd, &mt));
    TU_CHECK(mt == PDNN_DEFAULT_MATH, "default math %d", mt);
    /* 2-d round trip */
    TU_OK(pdnnSetConvolution2dDescriptor(cd, 1, 2, 3, 4, 5, 6, PDNN_CONVOLUTION, PDNN_DATA_DOUBLE));
    TU_OK(pdnnGetConvolution2dDescriptor(cd, &ph, &pw, &u, &v, &dh, &dw, &mode, &ct));
    TU_CHECK(ph == 1 && pw == 2 && u == 3 && v == 4 && dh == 5 && dw == 6 &&
                 mode == PDNN_CONVOLUTION && ct == PDNN_DATA_DOUBLE,
             "2-d round trip");
    /* invalid values leave the descriptor as it was */
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetConvolution2dDescriptor(cd, -1, 0, 1, 1, 1, 1,
                                                                    PDNN_CROSS_CORRELATION,
                                                                    PDNN_DATA_FLOAT));
    MSG_HAS("-1");
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetConvolution2dDescriptor(cd, 0, 0, 0, 1, 1, 1,
                                                                    PDNN_CROSS_CORRELATION,
                                                                    PDNN_DATA_FLOAT));
    MSG_HAS("stride");
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 0,
                                                                    PDNN_CROSS_CORRELATION,
                                                                    PDNN_DATA_FLOAT));
    MSG_HAS("dilation");
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 1, (pdnnConvolutionMode_t)2,
                                             PDNN_DATA_FLOAT));
    MSG_HAS("mode");
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 1, PDNN_CROSS_CORRELATION,
                                             PDNN_DATA_INT8));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 1, PDNN_CROSS_CORRELATION,
                                             (pdnnDataType_t)77));
    MSG_HAS("computeType");
    TU_OK(pdnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 1, PDNN_CROSS_CORRELATION,
                                         PDNN_DATA_HALF)); /* accepted; ops refuse later */
    TU_OK(pdnnGetConvolution2dDescriptor(cd, &ph, &pw, &u, &v, &dh, &dw, &mode, &ct));
    TU_CHECK(ph == 0 && u == 1 && ct == PDNN_DATA_HALF, "after failed sets");
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnGetConvolution2dDescriptor(cd, &ph, &pw, &u, &v, &dh, &dw, &mode, NULL));

    /* N-d and the asymmetric extension */
    int pad[3] = {1, 0, 2}, pe[3] = {3, 1, 0}, str[3] = {1, 2, 3}, dil[3] = {2, 1, 1};
    int rp[3] = {0}, rpe[3] = {0}, rs[3] = {0}, rd[3] = {0};
    TU_OK(pdnnSetConvolutionNdDescriptor(cd, 3, pad, str, dil, PDNN_CROSS_CORRELATION,
                                         PDNN_DATA_FLOAT));
    TU_OK(pdnnGetConvolutionNdDescriptor(cd, 3, &nb, rp, rs, rd, &mode, &ct));
    TU_CHECK(nb == 3 && rp[2] == 2 && rs[1] == 2 && rd[0] == 2, "N-d round trip");
    TU_OK(pdnnGetConvolutionNdDescriptorEx(cd, 3, &nb, rp, rpe, rs, rd, &mode, &ct));
    TU_CHECK(rpe[0] == 1 && rpe[2] == 2, "symmetric N-d reports padEnd = pad");
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnGetConvolution2dDescriptor(cd, &ph, &pw, &u, &v, &dh, &dw, &mode, &ct));
    TU_OK(pdnnSetConvolutionNdDescriptorEx(cd, 3, pad, pe, str, NULL, PDNN_CONVOLUTION,
                                           PDNN_DATA_FLOAT));
    memset(rp, 0, sizeof rp);
    TU_OK(pdnnGetConvolutionNdDescriptorEx(cd, 2, &nb, rp, rpe, rs, rd, &mode, &ct));
    TU_CHECK(nb == 3 && rp[0] == 1 && rpe[0] == 3 && rpe[1] == 1 && rd[0] == 1 && rd[1] == 1 &&
                 rp[2] == 0 && mode == PDNN_CONVOLUTION,
             "Ex round trip (2 of 3 requested)");
    TU_OK(pdnnGetConvolutionNdDescriptor(cd, 3, &nb, rp, rs, rd, &mode, &ct));
    TU_CHECK(rp[0] == 1 && rp[1] == 0 && rp[2] == 2, "symmetric Get reports padBegin");
    int bad[3] = {1, -2, 0};
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetConvolutionNdDescriptorEx(cd, 3, pad, bad, str, dil,
                                                                      PDNN_CONVOLUTION,
                                                                      PDNN_DATA_FLOAT));
    MSG_HAS("end padding");
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetConvolutionNdDescriptor(cd, 0, pad, str, dil,
                                                                    PDNN_CONVOLUTION,
                                                                    PDNN_DATA_FLOAT));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetConvolutionNdDescriptor(cd, 7, pad, str, dil,
                                                                    PDNN_CONVOLUTION,
                                                                    PDNN_DATA_FLOAT));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnSetConvolutionNdDescriptor(cd, 2, NULL, str, dil, PDNN_CONVOLUTION,
                                             PDNN_DATA_FLOAT));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnGetConvolutionNdDescriptor(cd, -1, &nb, rp, rs, rd, &mode, &ct));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnGetConvolutionNdDescriptor(cd, 3, &nb, NULL, rs, rd, &mode, &ct));
    TU_OK(pdnnGetConvolutionNdDescriptorEx(cd, 3, &nb, rp, rpe, rs, rd, &mode, &ct));
    TU_CHECK(rpe[0] == 3 && rpe[1] == 1 && rpe[2] == 0, "failed sets keep the Ex values");

    /* group count and math type */
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetConvolutionGroupCount(cd, 0));
    TU_OK(pdnnSetConvolutionGroupCount(cd, 4));
    TU_OK(pdnnGetConvolutionGroupCount(cd, &g));
    TU_CHECK(g == 4, "groups %d", g);
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetConvolutionGroupCount(cd, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetConvolutionMathType(cd, (pdnnMathType_t)9));
    TU_OK(pdnnSetConvolutionMathType(cd, PDNN_FMA_MATH));
    TU_OK(pdnnGetConvolutionMathType(cd, &mt));
    TU_CHECK(mt == PDNN_FMA_MATH, "math %d", mt);

    /* wrong kinds, destroyed */
    pdnnTensorDescriptor_t td;
    TU_OK(pdnnCreateTensorDescriptor(&td));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetConvolutionGroupCount((pdnnConvolutionDescriptor_t)(void *)td, 2));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnDestroyConvolutionDescriptor((pdnnConvolutionDescriptor_t)(void *)td));
    pdnnDestroyTensorDescriptor(td);
    TU_OK(pdnnDestroyConvolutionDescriptor(NULL));
    TU_OK(pdnnDestroyConvolutionDescriptor(cd));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnDestroyConvolutionDescriptor(cd));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 1,
                                                                    PDNN_CONVOLUTION,
                                                                    PDNN_DATA_FLOAT));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnSetConvolutionGroupCount(NULL, 1));
}

static pdnnFilterDescriptor_t filter4(pdnnDataType_t t, int k, int c, int h, int w)
{
    pdnnFilterDescriptor_t f;
    TU_OK(pdnnCreateFilterDescriptor(&f));
    TU_OK(pdnnSetFilter4dDescriptor(f, t, PDNN_TENSOR_NCHW, k, c, h, w));
    return f;
}

static void test_output_dim(void)
{
    pdnnConvolutionDescriptor_t cd;
    TU_OK(pdnnCreateConvolutionDescriptor(&cd));
    pdnnTensorDescriptor_t x = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 6, 10, 7);
    pdnnFilterDescriptor_t w = filter4(PDNN_DATA_FLOAT, 8, 3, 3, 2);
    int n = -1, c = -1, h = -1, wd = -1, od[4];
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetConvolution2dForwardOutputDim(cd, x, w, &n, &c, &h, &wd));
    TU_OK(pdnnSetConvolution2dDescriptor(cd, 1, 0, 2, 1, 1, 3, PDNN_CROSS_CORRELATION,
                                         PDNN_DATA_FLOAT));
    /* 6 channels vs filter 3: needs groups 2 */
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
              pdnnGetConvolution2dForwardOutputDim(cd, x, w, &n, &c, &h, &wd));
    MSG_HAS("has 6 channels but filterDesc expects 3 (groups=1)");
    TU_CHECK(n == -1 && c == -1, "outputs written on failure");
    TU_OK(pdnnSetConvolutionGroupCount(cd, 2));
    TU_OK(pdnnGetConvolution2dForwardOutputDim(cd, x, w, &n, &c, &h, &wd));
    /* h: 1 + (10 + 2 - 3) / 2 = 5; w: 1 + (7 - 4) / 1 = 4 */
    TU_CHECK(n == 2 && c == 8 && h == 5 && wd == 4, "dims %d %d %d %d", n, c, h, wd);
    TU_OK(pdnnGetConvolutionNdForwardOutputDim(cd, x, w, 4, od));
    TU_CHECK(od[2] == 5 && od[3] == 4, "Nd dims");
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetConvolutionNdForwardOutputDim(cd, x, w, 5, od));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnGetConvolutionNdForwardOutputDim(cd, x, w, 4, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnGetConvolution2dForwardOutputDim(cd, x, w, &n, &c, NULL, &wd));
    /* K not a multiple of the group count */
    TU_OK(pdnnSetConvolutionGroupCount(cd, 3));
    pdnnFilterDescriptor_t w2 = filter4(PDNN_DATA_FLOAT, 8, 2, 3, 2);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetConvolution2dForwardOutputDim(cd, x, w2, &n, &c, &h, &wd));
    MSG_HAS("multiple");
    /* dilated filter larger than the padded input: (2 - 1) * 3 + 1 = 4 > 3 */
    TU_OK(pdnnSetConvolutionGroupCount(cd, 2));
    pdnnTensorDescriptor_t xs = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 6, 10, 3);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetConvolution2dForwardOutputDim(cd, xs, w, &n, &c, &h, &wd));
    MSG_HAS("larger than the padded input");
    /* rank mismatch: 2-d descriptor with a 5-d tensor */
    int d5[5] = {1, 6, 3, 3, 3};
    pdnnTensorDescriptor_t x5 = tu_tensor(PDNN_DATA_FLOAT, 5, d5, NULL);
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
              pdnnGetConvolutionNdForwardOutputDim(cd, x5, w, 5, od));
    /* asymmetric pads count in the output size */
    int pb[2] = {0, 1}, pe[2] = {2, 0}, st[2] = {1, 1}, dl[2] = {1, 1};
    TU_OK(pdnnSetConvolutionNdDescriptorEx(cd, 2, pb, pe, st, dl, PDNN_CROSS_CORRELATION,
                                           PDNN_DATA_FLOAT));
    TU_OK(pdnnGetConvolution2dForwardOutputDim(cd, x, w, &n, &c, &h, &wd));
    TU_CHECK(h == 10 && wd == 7, "asymmetric dims %d %d", h, wd);
    /* destroyed / unset descriptors */
    pdnnFilterDescriptor_t wu;
    TU_OK(pdnnCreateFilterDescriptor(&wu));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetConvolution2dForwardOutputDim(cd, x, wu, &n, &c, &h, &wd));
    pdnnDestroyFilterDescriptor(wu);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetConvolution2dForwardOutputDim(cd, x, wu, &n, &c, &h, &wd));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnGetConvolution2dForwardOutputDim(cd, NULL, w, &n, &c, &h, &wd));
    pdnnDestroyTensorDescriptor(x);
    pdnnDestroyTensorDescriptor(xs);
    pdnnDestroyTensorDescriptor(x5);
    pdnnDestroyFilterDescriptor(w);
    pdnnDestroyFilterDescriptor(w2);
    pdnnDestroyConvolutionDescriptor(cd);
}

/* ------------------------------------------------------------------ a valid setup */

/* x 2x4x5x5, w 6x2x3x3 (groups 2), pad 1 -> y 2x6x5x5, FLOAT. */
typedef struct {
    pdnnHandle_t h;
    pdnnTensorDescriptor_t x, y, db;
    pdnnFilterDescriptor_t w;
    pdnnConvolutionDescriptor_t cd;
    float xb[200], wb[108], yb[300], dbb[6];
} setup;

static void setup_make(setup *s)
{
    TU_OK(pdnnCreate(&s->h));
    s->x = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 4, 5, 5);
    s->y = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 6, 5, 5);
    s->db = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 6, 1, 1);
    s->w = filter4(PDNN_DATA_FLOAT, 6, 2, 3, 3);
    TU_OK(pdnnCreateConvolutionDescriptor(&s->cd));
    TU_OK(pdnnSetConvolution2dDescriptor(s->cd, 1, 1, 1, 1, 1, 1, PDNN_CROSS_CORRELATION,
                                         PDNN_DATA_FLOAT));
    TU_OK(pdnnSetConvolutionGroupCount(s->cd, 2));
    for (int i = 0; i < 200; i++) s->xb[i] = (float)(i % 7 - 3);
    for (int i = 0; i < 108; i++) s->wb[i] = (float)(i % 5 - 2);
    for (int i = 0; i < 300; i++) s->yb[i] = 7.0f;
    for (int i = 0; i < 6; i++) s->dbb[i] = 7.0f;
}

static void setup_free(setup *s)
{
    pdnnDestroyTensorDescriptor(s->x);
    pdnnDestroyTensorDescriptor(s->y);
    pdnnDestroyTensorDescriptor(s->db);
    pdnnDestroyFilterDescriptor(s->w);
    pdnnDestroyConvolutionDescriptor(s->cd);
    pdnnDestroy(s->h);
}

static bool all_is(const float *p, int n, float v)
{
    for (int i = 0; i < n; i++)
        if (p[i] != v) return false;
    return true;
}

/* ------------------------------------------------------------------ forward misuse */

static void test_forward_misuse(void)
{
    setup s;
    setup_make(&s);
    float one = 1, zero = 0;
    const int D = PDNN_CONVOLUTION_FWD_ALGO_DIRECT;
#define FWD(h_, a_, xd_, x_, wd_, w_, cd_, algo_, ws_, wsb_, b_, yd_, y_)                  \
    pdnnConvolutionForward(h_, a_, xd_, x_, wd_, w_, cd_, (pdnnConvolutionFwdAlgo_t)(algo_), \
                           ws_, wsb_, b_, yd_, y_)
    TU_OK(FWD(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, D, NULL, 0, &zero, s.y, s.yb));
    for (int i = 0; i < 300; i++) s.yb[i] = 7.0f;

    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, FWD(NULL, &one, s.x, s.xb, s.w, s.wb, s.cd, D, NULL, 0, &zero, s.y, s.yb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, FWD(s.h, NULL, s.x, s.xb, s.w, s.wb, s.cd, D, NULL, 0, &zero, s.y, s.yb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, D, NULL, 0, NULL, s.y, s.yb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, FWD(s.h, &one, NULL, s.xb, s.w, s.wb, s.cd, D, NULL, 0, &zero, s.y, s.yb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, FWD(s.h, &one, s.x, NULL, s.w, s.wb, s.cd, D, NULL, 0, &zero, s.y, s.yb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, FWD(s.h, &one, s.x, s.xb, s.w, NULL, s.cd, D, NULL, 0, &zero, s.y, s.yb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, NULL, D, NULL, 0, &zero, s.y, s.yb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, D, NULL, 0, &zero, s.y, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, D, NULL, 16, &zero, s.y, s.yb));
    MSG_HAS("workSpace");
    /* wrong kinds */
    TU_STATUS(PDNN_STATUS_BAD_PARAM, FWD(s.h, &one, (pdnnTensorDescriptor_t)(void *)s.w, s.xb, s.w, s.wb, s.cd, D, NULL, 0, &zero, s.y, s.yb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, FWD(s.h, &one, s.x, s.xb, (pdnnFilterDescriptor_t)(void *)s.x, s.wb, s.cd, D, NULL, 0, &zero, s.y, s.yb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, (pdnnConvolutionDescriptor_t)(void *)s.x, D, NULL, 0, &zero, s.y, s.yb));
    /* bad and unimplemented algorithms */
    TU_STATUS(PDNN_STATUS_BAD_PARAM, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, 99, NULL, 0, &zero, s.y, s.yb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, -1, NULL, 0, &zero, s.y, s.yb));
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, PDNN_CONVOLUTION_FWD_ALGO_FFT, NULL, 0, &zero, s.y, s.yb));
    MSG_HAS("FFT");
    /* an implemented algorithm that needs a workspace, given none */
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED, NULL, 0, &zero, s.y, s.yb));
    MSG_HAS("needs");
    /* in place */
    TU_STATUS(PDNN_STATUS_BAD_PARAM, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, D, NULL, 0, &zero, s.y, s.xb));
    MSG_HAS("overlap");
    TU_STATUS(PDNN_STATUS_BAD_PARAM, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, D, NULL, 0, &zero, s.y, s.wb + 4));
    TU_CHECK(all_is(s.yb, 300, 7.0f), "y written by a failing call");

    /* channel mismatch, K % groups, wrong y dims, dtype mismatch */
    pdnnTensorDescriptor_t x3 = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 3, 5, 5);
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, FWD(s.h, &one, x3, s.xb, s.w, s.wb, s.cd, D, NULL, 0, &zero, s.y, s.yb));
    MSG_HAS("xDesc has 3 channels but wDesc expects 4 (groups=2)");
    pdnnFilterDescriptor_t w5 = filter4(PDNN_DATA_FLOAT, 5, 2, 3, 3);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, FWD(s.h, &one, s.x, s.xb, w5, s.wb, s.cd, D, NULL, 0, &zero, s.y, s.yb));
    pdnnTensorDescriptor_t ybad = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 6, 4, 5);
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, D, NULL, 0, &zero, ybad, s.yb));
    MSG_HAS("2x6x5x5");
    pdnnTensorDescriptor_t ybatch = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 6, 5, 5);
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, D, NULL, 0, &zero, ybatch, s.yb));
    pdnnTensorDescriptor_t yd = tu_tensor4d(PDNN_DATA_DOUBLE, PDNN_TENSOR_NCHW, 2, 6, 5, 5);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, D, NULL, 0, &zero, yd, s.yb));
    /* overlapping output strides */
    int dims[4] = {2, 6, 5, 5}, st[4] = {150, 25, 5, 0 + 1};
    st[2] = 1; /* h and w share addresses */
    pdnnTensorDescriptor_t yov = tu_tensor(PDNN_DATA_FLOAT, 4, dims, st);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, D, NULL, 0, &zero, yov, s.yb));
    TU_CHECK(all_is(s.yb, 300, 7.0f), "y written by a failing call");

    /* HALF: NOT_SUPPORTED_DATA_TYPE after every shape check passes */
    pdnnTensorDescriptor_t xh = tu_tensor4d(PDNN_DATA_HALF, PDNN_TENSOR_NCHW, 2, 4, 5, 5);
    pdnnTensorDescriptor_t yh = tu_tensor4d(PDNN_DATA_HALF, PDNN_TENSOR_NCHW, 2, 6, 5, 5);
    pdnnFilterDescriptor_t wh = filter4(PDNN_DATA_HALF, 6, 2, 3, 3);
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, FWD(s.h, &one, xh, s.xb, wh, s.wb, s.cd, D, NULL, 0, &zero, yh, s.yb));
    /* DOUBLE data cannot accumulate in FLOAT */
    pdnnTensorDescriptor_t xd = tu_tensor4d(PDNN_DATA_DOUBLE, PDNN_TENSOR_NCHW, 2, 4, 5, 5);
    pdnnFilterDescriptor_t wdd = filter4(PDNN_DATA_DOUBLE, 6, 2, 3, 3);
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, FWD(s.h, &one, xd, s.xb, wdd, s.wb, s.cd, D, NULL, 0, &zero, yd, s.yb));
    MSG_HAS("computeType");
    TU_CHECK(all_is(s.yb, 300, 7.0f), "y written by a failing call");

    /* unset and destroyed descriptors */
    pdnnConvolutionDescriptor_t cu;
    TU_OK(pdnnCreateConvolutionDescriptor(&cu));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, cu, D, NULL, 0, &zero, s.y, s.yb));
    MSG_HAS("never set");
    pdnnDestroyConvolutionDescriptor(cu);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, FWD(s.h, &one, s.x, s.xb, s.w, s.wb, cu, D, NULL, 0, &zero, s.y, s.yb));
    pdnnTensorDescriptor_t gone = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 4, 5, 5);
    pdnnDestroyTensorDescriptor(gone);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, FWD(s.h, &one, gone, s.xb, s.w, s.wb, s.cd, D, NULL, 0, &zero, s.y, s.yb));
    pdnnHandle_t hg;
    TU_OK(pdnnCreate(&hg));
    pdnnDestroy(hg);
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, FWD(hg, &one, s.x, s.xb, s.w, s.wb, s.cd, D, NULL, 0, &zero, s.y, s.yb));

    /* four spatial dims: valid descriptors, not computed */
    int d6[6] = {1, 1, 2, 2, 2, 2}, f6[6] = {1, 1, 1, 1, 1, 1}, p4[4] = {0}, s4[4] = {1, 1, 1, 1};
    pdnnTensorDescriptor_t x6 = tu_tensor(PDNN_DATA_FLOAT, 6, d6, NULL);
    pdnnFilterDescriptor_t w6;
    TU_OK(pdnnCreateFilterDescriptor(&w6));
    TU_OK(pdnnSetFilterNdDescriptor(w6, PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 6, f6));
    pdnnConvolutionDescriptor_t c4;
    TU_OK(pdnnCreateConvolutionDescriptor(&c4));
    TU_OK(pdnnSetConvolutionNdDescriptor(c4, 4, p4, s4, s4, PDNN_CROSS_CORRELATION, PDNN_DATA_FLOAT));
    int o6[6];
    TU_OK(pdnnGetConvolutionNdForwardOutputDim(c4, x6, w6, 6, o6));
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_SHAPE, FWD(s.h, &one, x6, s.xb, w6, s.wb, c4, D, NULL, 0, &zero, x6, s.yb));
    TU_CHECK(all_is(s.yb, 300, 7.0f), "y written by a failing call");

    /* too small a workspace: BAD_PARAM_SIZE_INSUFFICIENT naming the bytes */
    pdnnConvolutionFwdAlgoPerf_t perf[8];
    int n = 0;
    TU_OK(pdnnGetConvolutionForwardAlgorithm_v7(s.h, s.x, s.w, s.cd, s.y, 8, &n, perf));
    for (int i = 0; i < n; i++) {
        if (perf[i].status != PDNN_STATUS_SUCCESS || perf[i].memory == 0) continue;
        char need[32];
        snprintf(need, sizeof need, "%zu", perf[i].memory);
        void *ws = malloc(perf[i].memory);
        TU_STATUS(PDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                  FWD(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, perf[i].algo, ws, perf[i].memory - 1, &zero, s.y, s.yb));
        MSG_HAS(need);
        TU_CHECK(all_is(s.yb, 300, 7.0f), "y written by a failing call");
        TU_OK(FWD(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, perf[i].algo, ws, perf[i].memory, &zero, s.y, s.yb));
        for (int j = 0; j < 300; j++) s.yb[j] = 7.0f;
        free(ws);
    }
#undef FWD
    pdnnDestroyTensorDescriptor(x3);
    pdnnDestroyTensorDescriptor(ybad);
    pdnnDestroyTensorDescriptor(ybatch);
    pdnnDestroyTensorDescriptor(yd);
    pdnnDestroyTensorDescriptor(yov);
    pdnnDestroyTensorDescriptor(xh);
    pdnnDestroyTensorDescriptor(yh);
    pdnnDestroyTensorDescriptor(xd);
    pdnnDestroyTensorDescriptor(x6);
    pdnnDestroyFilterDescriptor(w5);
    pdnnDestroyFilterDescriptor(wh);
    pdnnDestroyFilterDescriptor(wdd);
    pdnnDestroyFilterDescriptor(w6);
    pdnnDestroyConvolutionDescriptor(c4);
    setup_free(&s);
}

/* ------------------------------------------------------------------ backward misuse */

static void test_backward_misuse(void)
{
    setup s;
    setup_make(&s);
    float one = 1, zero = 0, dx[200], dw[108];
    for (int i = 0; i < 200; i++) dx[i] = 7.0f;
    for (int i = 0; i < 108; i++) dw[i] = 7.0f;
    const pdnnConvolutionBwdDataAlgo_t BD = PDNN_CONVOLUTION_BWD_DATA_ALGO_0;
    const pdnnConvolutionBwdFilterAlgo_t BF = PDNN_CONVOLUTION_BWD_FILTER_ALGO_0;
    for (int i = 0; i < 300; i++) s.yb[i] = (float)(i % 3);

    /* backward data */
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnConvolutionBackwardData(NULL, &one, s.w, s.wb, s.y, s.yb, s.cd, BD, NULL, 0, &zero, s.x, dx));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnConvolutionBackwardData(s.h, NULL, s.w, s.wb, s.y, s.yb, s.cd, BD, NULL, 0, &zero, s.x, dx));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnConvolutionBackwardData(s.h, &one, s.w, s.wb, s.y, NULL, s.cd, BD, NULL, 0, &zero, s.x, dx));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnConvolutionBackwardData(s.h, &one, s.w, s.wb, s.y, s.yb, s.cd, BD, NULL, 0, &zero, s.x, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnConvolutionBackwardData(s.h, &one, NULL, s.wb, s.y, s.yb, s.cd, BD, NULL, 0, &zero, s.x, dx));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionBackwardData(s.h, &one, s.w, s.wb, s.y, s.yb, s.cd, (pdnnConvolutionBwdDataAlgo_t)6, NULL, 0, &zero, s.x, dx));
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED, pdnnConvolutionBackwardData(s.h, &one, s.w, s.wb, s.y, s.yb, s.cd, PDNN_CONVOLUTION_BWD_DATA_ALGO_FFT, NULL, 0, &zero, s.x, dx));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, pdnnConvolutionBackwardData(s.h, &one, s.w, s.wb, s.y, s.yb, s.cd, PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD, NULL, 0, &zero, s.x, dx));
    pdnnTensorDescriptor_t x3 = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 3, 5, 5);
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, pdnnConvolutionBackwardData(s.h, &one, s.w, s.wb, s.y, s.yb, s.cd, BD, NULL, 0, &zero, x3, dx));
    MSG_HAS("dxDesc has 3 channels");
    pdnnTensorDescriptor_t ybad = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 6, 5, 4);
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, pdnnConvolutionBackwardData(s.h, &one, s.w, s.wb, ybad, s.yb, s.cd, BD, NULL, 0, &zero, s.x, dx));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionBackwardData(s.h, &one, s.w, s.wb, s.y, s.yb, s.cd, BD, NULL, 0, &zero, s.x, s.yb));
    pdnnTensorDescriptor_t xh = tu_tensor4d(PDNN_DATA_HALF, PDNN_TENSOR_NCHW, 2, 4, 5, 5);
    pdnnTensorDescriptor_t yh = tu_tensor4d(PDNN_DATA_HALF, PDNN_TENSOR_NCHW, 2, 6, 5, 5);
    pdnnFilterDescriptor_t wh = filter4(PDNN_DATA_HALF, 6, 2, 3, 3);
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, pdnnConvolutionBackwardData(s.h, &one, wh, s.wb, yh, s.yb, s.cd, BD, NULL, 0, &zero, xh, dx));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnConvolutionBackwardData(s.h, &one, s.w, s.wb, s.y, s.yb, s.cd, BD, NULL, 8, &zero, s.x, dx));
    TU_CHECK(all_is(dx, 200, 7.0f), "dx written by a failing call");

    /* backward filter */
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnConvolutionBackwardFilter(NULL, &one, s.x, s.xb, s.y, s.yb, s.cd, BF, NULL, 0, &zero, s.w, dw));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnConvolutionBackwardFilter(s.h, &one, s.x, s.xb, s.y, s.yb, s.cd, BF, NULL, 0, NULL, s.w, dw));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnConvolutionBackwardFilter(s.h, &one, s.x, NULL, s.y, s.yb, s.cd, BF, NULL, 0, &zero, s.w, dw));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnConvolutionBackwardFilter(s.h, &one, s.x, s.xb, s.y, s.yb, s.cd, BF, NULL, 0, &zero, s.w, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnConvolutionBackwardFilter(s.h, &one, s.x, s.xb, s.y, s.yb, s.cd, BF, NULL, 0, &zero, NULL, dw));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionBackwardFilter(s.h, &one, s.x, s.xb, s.y, s.yb, s.cd, (pdnnConvolutionBwdFilterAlgo_t)7, NULL, 0, &zero, s.w, dw));
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED, pdnnConvolutionBackwardFilter(s.h, &one, s.x, s.xb, s.y, s.yb, s.cd, PDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT_TILING, NULL, 0, &zero, s.w, dw));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, pdnnConvolutionBackwardFilter(s.h, &one, x3, s.xb, s.y, s.yb, s.cd, BF, NULL, 0, &zero, s.w, dw));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, pdnnConvolutionBackwardFilter(s.h, &one, s.x, s.xb, ybad, s.yb, s.cd, BF, NULL, 0, &zero, s.w, dw));
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, pdnnConvolutionBackwardFilter(s.h, &one, xh, s.xb, yh, s.yb, s.cd, BF, NULL, 0, &zero, wh, dw));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionBackwardFilter(s.h, &one, s.x, s.xb, s.y, s.yb, s.cd, BF, NULL, 0, &zero, s.w, s.xb + 10));
    TU_CHECK(all_is(dw, 108, 7.0f), "dw written by a failing call");

    /* backward bias */
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnConvolutionBackwardBias(NULL, &one, s.y, s.yb, &zero, s.db, s.dbb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnConvolutionBackwardBias(s.h, &one, s.y, NULL, &zero, s.db, s.dbb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnConvolutionBackwardBias(s.h, &one, s.y, s.yb, &zero, s.db, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnConvolutionBackwardBias(s.h, &one, s.y, s.yb, NULL, s.db, s.dbb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnConvolutionBackwardBias(s.h, &one, NULL, s.yb, &zero, s.db, s.dbb));
    pdnnTensorDescriptor_t db2 = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 6, 2, 1);
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, pdnnConvolutionBackwardBias(s.h, &one, s.y, s.yb, &zero, db2, s.dbb));
    pdnnTensorDescriptor_t db5 = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 5, 1, 1);
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, pdnnConvolutionBackwardBias(s.h, &one, s.y, s.yb, &zero, db5, s.dbb));
    pdnnTensorDescriptor_t dbd = tu_tensor4d(PDNN_DATA_DOUBLE, PDNN_TENSOR_NCHW, 1, 6, 1, 1);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionBackwardBias(s.h, &one, s.y, s.yb, &zero, dbd, s.dbb));
    pdnnTensorDescriptor_t dbh = tu_tensor4d(PDNN_DATA_HALF, PDNN_TENSOR_NCHW, 1, 6, 1, 1);
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, pdnnConvolutionBackwardBias(s.h, &one, yh, s.yb, &zero, dbh, s.dbb));
    int d2[2] = {2, 6};
    pdnnTensorDescriptor_t y2 = tu_tensor(PDNN_DATA_FLOAT, 2, d2, NULL);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionBackwardBias(s.h, &one, y2, s.yb, &zero, s.db, s.dbb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionBackwardBias(s.h, &one, s.y, s.yb, &zero, s.db, s.yb + 3));
    TU_CHECK(all_is(s.dbb, 6, 7.0f), "db written by a failing call");
    TU_OK(pdnnConvolutionBackwardBias(s.h, &one, s.y, s.yb, &zero, s.db, s.dbb));

    pdnnDestroyTensorDescriptor(x3);
    pdnnDestroyTensorDescriptor(ybad);
    pdnnDestroyTensorDescriptor(xh);
    pdnnDestroyTensorDescriptor(yh);
    pdnnDestroyFilterDescriptor(wh);
    pdnnDestroyTensorDescriptor(db2);
    pdnnDestroyTensorDescriptor(db5);
    pdnnDestroyTensorDescriptor(dbd);
    pdnnDestroyTensorDescriptor(dbh);
    pdnnDestroyTensorDescriptor(y2);
    setup_free(&s);
}

static void test_bias_activation_misuse(void)
{
    setup s;
    setup_make(&s);
    float one = 1, half = 0.5f, z[300], bias[6] = {1, 2, 3, 4, 5, 6};
    for (int i = 0; i < 300; i++) z[i] = 1;
    pdnnActivationDescriptor_t ad;
    TU_OK(pdnnCreateActivationDescriptor(&ad));
    TU_OK(pdnnSetActivationDescriptor(ad, PDNN_ACTIVATION_RELU, PDNN_NOT_PROPAGATE_NAN, 0));
    const pdnnConvolutionFwdAlgo_t D = PDNN_CONVOLUTION_FWD_ALGO_DIRECT;
#define BA(a1_, zd_, z_, bd_, b_, ad_, yd_, y_)                                              \
    pdnnConvolutionBiasActivationForward(s.h, a1_, s.x, s.xb, s.w, s.wb, s.cd, D, NULL, 0,  \
                                         &half, zd_, z_, bd_, b_, ad_, yd_, y_)
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, BA(NULL, s.y, z, s.db, bias, ad, s.y, s.yb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnConvolutionBiasActivationForward(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, D, NULL,
                                                   0, NULL, s.y, z, s.db, bias, ad, s.y, s.yb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, BA(&one, NULL, z, s.db, bias, ad, s.y, s.yb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, BA(&one, s.y, NULL, s.db, bias, ad, s.y, s.yb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, BA(&one, s.y, z, s.db, NULL, ad, s.y, s.yb));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, BA(&one, s.y, z, s.db, bias, NULL, s.y, s.yb));
    pdnnTensorDescriptor_t zbad = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 6, 5, 4);
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, BA(&one, zbad, z, s.db, bias, ad, s.y, s.yb));
    pdnnTensorDescriptor_t bbad = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 6, 1, 2);
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, BA(&one, s.y, z, bbad, bias, ad, s.y, s.yb));
    MSG_HAS("biasDesc");
    /* z overlapping y without being y */
    TU_STATUS(PDNN_STATUS_BAD_PARAM, BA(&one, s.y, s.yb + 1, s.db, bias, ad, s.y, s.yb));
    pdnnActivationDescriptor_t au;
    TU_OK(pdnnCreateActivationDescriptor(&au));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, BA(&one, s.y, z, s.db, bias, au, s.y, s.yb));
    pdnnDestroyActivationDescriptor(au);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, BA(&one, s.y, z, s.db, bias, au, s.y, s.yb));
    TU_CHECK(all_is(s.yb, 300, 7.0f), "y written by a failing call");
    /* the valid call, z separate and z == y */
    TU_OK(BA(&one, s.y, z, s.db, bias, ad, s.y, s.yb));
    TU_OK(BA(&one, s.y, s.yb, s.db, bias, ad, s.y, s.yb));
    /* alpha2 == 0: z is not read and may be NULL */
    const float zero2 = 0.0f;
    TU_OK(pdnnConvolutionBiasActivationForward(s.h, &one, s.x, s.xb, s.w, s.wb, s.cd, D, NULL, 0,
                                               &zero2, s.y, NULL, s.db, bias, ad, s.y, s.yb));
#undef BA
    pdnnDestroyTensorDescriptor(zbad);
    pdnnDestroyTensorDescriptor(bbad);
    pdnnDestroyActivationDescriptor(ad);
    setup_free(&s);
}

/* ------------------------------------------------------------------ workspace overlap */

/* A workspace (size > 0) overlapping any data tensor of the call is BAD_PARAM, before
 * anything is written; one right next to the tensors is fine. */
static void test_workspace_overlap(void)
{
    setup s;
    setup_make(&s);
    float one = 1, zero = 0;
    const pdnnConvolutionFwdAlgo_t G = PDNN_CONVOLUTION_FWD_ALGO_GEMM;
    const pdnnConvolutionFwdAlgo_t D = PDNN_CONVOLUTION_FWD_ALGO_DIRECT;
    size_t ws = 0;
    TU_OK(pdnnGetConvolutionForwardWorkspaceSize(s.h, s.x, s.w, s.cd, s.y, G, &ws));
    TU_CHECK(ws > 0, "GEMM forward needs a workspace here (%zu)", ws);
    /* one arena: x | w | y | workspace, contiguous */
    const size_t nf = 200 + 108 + 300 + ws / sizeof(float) + 1;
    float *ar = malloc(nf * sizeof(float));
    float *x = ar, *w = ar + 200, *y = ar + 308, *wk = ar + 608;
    memcpy(x, s.xb, sizeof s.xb);
    memcpy(w, s.wb, sizeof s.wb);
    for (int i = 0; i < 300; i++) y[i] = 7.0f;
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionForward(s.h, &one, s.x, x, s.w, w, s.cd, G, x, ws, &zero, s.y, y));
    MSG_HAS("workSpace");
    MSG_HAS("overlaps x");
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionForward(s.h, &one, s.x, x, s.w, w, s.cd, G, x + 150, ws, &zero, s.y, y));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionForward(s.h, &one, s.x, x, s.w, w, s.cd, G, w + 100, ws, &zero, s.y, y));
    MSG_HAS("overlaps w");
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionForward(s.h, &one, s.x, x, s.w, w, s.cd, G, y + 299, ws, &zero, s.y, y));
    MSG_HAS("overlaps y");
    /* DIRECT needs no workspace, but a given one is checked all the same */
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionForward(s.h, &one, s.x, x, s.w, w, s.cd, D, y + 10, 4, &zero, s.y, y));
    TU_CHECK(all_is(y, 300, 7.0f), "y written by a failing call");
    TU_CHECK(!memcmp(x, s.xb, sizeof s.xb) && !memcmp(w, s.wb, sizeof s.wb),
             "an input written by a failing call");
    /* Find Ex validates the same way */
    pdnnConvolutionFwdAlgoPerf_t perf[8];
    int nret = -1;
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnFindConvolutionForwardAlgorithmEx(s.h, s.x, x, s.w, w, s.cd, s.y, y, 8, &nret, perf, x, ws));
    TU_CHECK(nret == -1, "Find Ex wrote its count on failure");
    /* adjacent, disjoint: accepted and right */
    TU_OK(pdnnConvolutionForward(s.h, &one, s.x, x, s.w, w, s.cd, G, wk, ws, &zero, s.y, y));
    float ref[300];
    TU_OK(pdnnConvolutionForward(s.h, &one, s.x, x, s.w, w, s.cd, D, NULL, 0, &zero, s.y, ref));
    TU_CHECK(!memcmp(ref, y, sizeof ref), "GEMM with an adjacent workspace differs from DIRECT");

    /* backward data: the workspace over dy, over dx */
    const pdnnConvolutionBwdDataAlgo_t BD = PDNN_CONVOLUTION_BWD_DATA_ALGO_0;
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionBackwardData(s.h, &one, s.w, w, s.y, y, s.cd, BD, y + 5, 8, &zero, s.x, x));
    MSG_HAS("overlaps dy");
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionBackwardData(s.h, &one, s.w, w, s.y, y, s.cd, BD, x, 8, &zero, s.x, x));
    MSG_HAS("overlaps dx");
    /* backward filter: the workspace over dw */
    const pdnnConvolutionBwdFilterAlgo_t BF = PDNN_CONVOLUTION_BWD_FILTER_ALGO_0;
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionBackwardFilter(s.h, &one, s.x, x, s.y, y, s.cd, BF, w + 3, 8, &zero, s.w, w));
    MSG_HAS("overlaps dw");
    TU_CHECK(!memcmp(x, s.xb, sizeof s.xb) && !memcmp(w, s.wb, sizeof s.wb) &&
             !memcmp(y, ref, sizeof ref), "a backward call wrote on failure");

    /* fused: the workspace over z, over bias */
    pdnnActivationDescriptor_t ad;
    TU_OK(pdnnCreateActivationDescriptor(&ad));
    TU_OK(pdnnSetActivationDescriptor(ad, PDNN_ACTIVATION_RELU, PDNN_NOT_PROPAGATE_NAN, 0));
    float z[300], bias[6] = {1, 2, 3, 4, 5, 6}, out[300];
    for (int i = 0; i < 300; i++) z[i] = 1, out[i] = 7.0f;
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionBiasActivationForward(s.h, &one, s.x, x, s.w, w, s.cd, D, z + 4, 8, &one, s.y, z, s.db, bias, ad, s.y, out));
    MSG_HAS("overlaps z");
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnConvolutionBiasActivationForward(s.h, &one, s.x, x, s.w, w, s.cd, D, bias + 5, 8, &one, s.y, z, s.db, bias, ad, s.y, out));
    MSG_HAS("overlaps bias");
    TU_CHECK(all_is(out, 300, 7.0f), "fused y written by a failing call");
    pdnnDestroyActivationDescriptor(ad);
    free(ar);
    setup_free(&s);
}

/* ------------------------------------------------------------------ queries */

static void test_queries(void)
{
    setup s;
    setup_make(&s);
    int c = 0;
    TU_OK(pdnnGetConvolutionForwardAlgorithmMaxCount(s.h, &c));
    TU_CHECK(c == PDNN_CONVOLUTION_FWD_ALGO_COUNT, "fwd count %d", c);
    TU_OK(pdnnGetConvolutionBackwardDataAlgorithmMaxCount(s.h, &c));
    TU_CHECK(c == PDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, "bwd data count %d", c);
    TU_OK(pdnnGetConvolutionBackwardFilterAlgorithmMaxCount(s.h, &c));
    TU_CHECK(c == PDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, "bwd filter count %d", c);
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnGetConvolutionForwardAlgorithmMaxCount(NULL, &c));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetConvolutionForwardAlgorithmMaxCount(s.h, NULL));

    /* Get_v7: every algorithm once, runnable first, time -1 */
    pdnnConvolutionFwdAlgoPerf_t perf[8];
    int n = -1;
    TU_OK(pdnnGetConvolutionForwardAlgorithm_v7(s.h, s.x, s.w, s.cd, s.y, 8, &n, perf));
    TU_CHECK(n == 8, "returned %d", n);
    int seen[8] = {0};
    bool failed = false, direct_ok = false;
    for (int i = 0; i < n; i++) {
        seen[perf[i].algo]++;
        TU_CHECK(perf[i].time == -1.0f, "Get time %g", perf[i].time);
        if (perf[i].status != PDNN_STATUS_SUCCESS) failed = true;
        TU_CHECK(!(failed && perf[i].status == PDNN_STATUS_SUCCESS), "success after a failure");
        if (perf[i].algo == PDNN_CONVOLUTION_FWD_ALGO_DIRECT)
            direct_ok = perf[i].status == PDNN_STATUS_SUCCESS &&
                        perf[i].determinism == PDNN_DETERMINISTIC && perf[i].memory == 0;
        if (perf[i].algo == PDNN_CONVOLUTION_FWD_ALGO_FFT)
            TU_CHECK(perf[i].status == PDNN_STATUS_NOT_SUPPORTED, "FFT status %d", perf[i].status);
    }
    for (int a = 0; a < 8; a++) TU_CHECK(seen[a] == 1, "algo %d listed %d times", a, seen[a]);
    TU_CHECK(direct_ok, "DIRECT runs, deterministic, without workspace");
    TU_OK(pdnnGetConvolutionForwardAlgorithm_v7(s.h, s.x, s.w, s.cd, s.y, 2, &n, perf));
    TU_CHECK(n == 2, "returned %d of 2 requested", n);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetConvolutionForwardAlgorithm_v7(s.h, s.x, s.w, s.cd, s.y, 0, &n, perf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetConvolutionForwardAlgorithm_v7(s.h, s.x, s.w, s.cd, s.y, 8, NULL, perf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetConvolutionForwardAlgorithm_v7(s.h, s.x, s.w, s.cd, s.y, 8, &n, NULL));
    pdnnTensorDescriptor_t ybad = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 6, 4, 4);
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, pdnnGetConvolutionForwardAlgorithm_v7(s.h, s.x, s.w, s.cd, ybad, 8, &n, perf));

    pdnnConvolutionBwdDataAlgoPerf_t pd[6];
    TU_OK(pdnnGetConvolutionBackwardDataAlgorithm_v7(s.h, s.w, s.y, s.cd, s.x, 6, &n, pd));
    TU_CHECK(n == 6 && pd[0].status == PDNN_STATUS_SUCCESS, "bwd data v7");
    pdnnConvolutionBwdFilterAlgoPerf_t pf[7];
    TU_OK(pdnnGetConvolutionBackwardFilterAlgorithm_v7(s.h, s.x, s.y, s.cd, s.w, 7, &n, pf));
    TU_CHECK(n == 7 && pf[0].status == PDNN_STATUS_SUCCESS, "bwd filter v7");

    /* workspace sizes */
    size_t ws = 123;
    TU_OK(pdnnGetConvolutionForwardWorkspaceSize(s.h, s.x, s.w, s.cd, s.y, PDNN_CONVOLUTION_FWD_ALGO_DIRECT, &ws));
    TU_CHECK(ws == 0, "DIRECT workspace %zu", ws);
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED, pdnnGetConvolutionForwardWorkspaceSize(s.h, s.x, s.w, s.cd, s.y, PDNN_CONVOLUTION_FWD_ALGO_FFT, &ws));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetConvolutionForwardWorkspaceSize(s.h, s.x, s.w, s.cd, s.y, (pdnnConvolutionFwdAlgo_t)8, &ws));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetConvolutionForwardWorkspaceSize(s.h, s.x, s.w, s.cd, s.y, PDNN_CONVOLUTION_FWD_ALGO_DIRECT, NULL));
    { /* the message names the public function and its argument */
        char msg[512];
        pdnnGetLastErrorString(msg, sizeof msg);
        TU_CHECK(strstr(msg, "pdnnGetConvolutionForwardWorkspaceSize") && strstr(msg, "sizeInBytes") &&
                     !strstr(msg, "ws_query"),
                 "NULL size message: %s", msg);
    }
    TU_OK(pdnnGetConvolutionBackwardDataWorkspaceSize(s.h, s.w, s.y, s.cd, s.x, PDNN_CONVOLUTION_BWD_DATA_ALGO_0, &ws));
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED, pdnnGetConvolutionBackwardDataWorkspaceSize(s.h, s.w, s.y, s.cd, s.x, PDNN_CONVOLUTION_BWD_DATA_ALGO_FFT, &ws));
    TU_OK(pdnnGetConvolutionBackwardFilterWorkspaceSize(s.h, s.x, s.y, s.cd, s.w, PDNN_CONVOLUTION_BWD_FILTER_ALGO_0, &ws));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetConvolutionBackwardFilterWorkspaceSize(s.h, s.x, s.y, s.cd, s.w, (pdnnConvolutionBwdFilterAlgo_t)-3, &ws));
    pdnnTensorDescriptor_t xh = tu_tensor4d(PDNN_DATA_HALF, PDNN_TENSOR_NCHW, 2, 4, 5, 5);
    pdnnTensorDescriptor_t yh = tu_tensor4d(PDNN_DATA_HALF, PDNN_TENSOR_NCHW, 2, 6, 5, 5);
    pdnnFilterDescriptor_t wh = filter4(PDNN_DATA_HALF, 6, 2, 3, 3);
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, pdnnGetConvolutionForwardWorkspaceSize(s.h, xh, wh, s.cd, yh, PDNN_CONVOLUTION_FWD_ALGO_DIRECT, &ws));
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, pdnnGetConvolutionForwardAlgorithm_v7(s.h, xh, wh, s.cd, yh, 8, &n, perf));

    /* Find: sorted by time, runnable first, cached (the same times twice) */
    pdnnConvolutionFwdAlgoPerf_t f1[8], f2[8];
    int n1 = 0, n2 = 0;
    TU_OK(pdnnFindConvolutionForwardAlgorithm(s.h, s.x, s.w, s.cd, s.y, 8, &n1, f1));
    TU_OK(pdnnFindConvolutionForwardAlgorithm(s.h, s.x, s.w, s.cd, s.y, 8, &n2, f2));
    TU_CHECK(n1 == 8 && n2 == 8, "find returned %d %d", n1, n2);
    failed = false;
    for (int i = 0; i < n1; i++) {
        if (f1[i].status != PDNN_STATUS_SUCCESS) {
            failed = true;
            continue;
        }
        TU_CHECK(!failed, "success after a failure in Find");
        TU_CHECK(f1[i].time >= 0, "time %g", f1[i].time);
        if (i > 0 && f1[i - 1].status == PDNN_STATUS_SUCCESS)
            TU_CHECK(f1[i - 1].time <= f1[i].time, "Find not sorted");
        TU_CHECK(f1[i].algo == f2[i].algo && f1[i].time == f2[i].time, "second Find differs");
    }
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnFindConvolutionForwardAlgorithm(s.h, s.x, s.w, s.cd, s.y, -1, &n1, f1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnFindConvolutionForwardAlgorithm(s.h, s.x, s.w, s.cd, s.y, 8, &n1, NULL));
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, pdnnFindConvolutionForwardAlgorithm(s.h, xh, wh, s.cd, yh, 8, &n1, f1));

    /* FindEx: the caller's buffers; without workspace, algorithms that need some report
     * SIZE_INSUFFICIENT (times cached by Find are reused) */
    TU_OK(pdnnFindConvolutionForwardAlgorithmEx(s.h, s.x, s.xb, s.w, s.wb, s.cd, s.y, s.yb, 8, &n1, f1, NULL, 0));
    TU_CHECK(n1 == 8, "findEx returned %d", n1);
    for (int i = 0; i < n1; i++)
        if (f1[i].status == PDNN_STATUS_SUCCESS)
            TU_CHECK(f1[i].memory == 0, "FindEx ran algo %d needing %zu bytes without workspace",
                     f1[i].algo, f1[i].memory);
        else if (f1[i].status == PDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT)
            TU_CHECK(f1[i].memory > 0, "insufficient with memory 0");
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnFindConvolutionForwardAlgorithmEx(s.h, s.x, NULL, s.w, s.wb, s.cd, s.y, s.yb, 8, &n1, f1, NULL, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnFindConvolutionForwardAlgorithmEx(s.h, s.x, s.xb, s.w, s.wb, s.cd, s.y, s.yb, 8, &n1, f1, NULL, 64));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnFindConvolutionForwardAlgorithmEx(s.h, s.x, s.xb, s.w, s.wb, s.cd, s.y, s.xb, 8, &n1, f1, NULL, 0));

    float dx[200], dw[108];
    TU_OK(pdnnFindConvolutionBackwardDataAlgorithm(s.h, s.w, s.y, s.cd, s.x, 6, &n1, pd));
    TU_CHECK(n1 == 6 && pd[0].status == PDNN_STATUS_SUCCESS && pd[0].time >= 0, "bwd data find");
    TU_OK(pdnnFindConvolutionBackwardDataAlgorithmEx(s.h, s.w, s.wb, s.y, s.yb, s.cd, s.x, dx, 6, &n1, pd, NULL, 0));
    TU_CHECK(n1 == 6, "bwd data findEx %d", n1);
    TU_OK(pdnnFindConvolutionBackwardFilterAlgorithm(s.h, s.x, s.y, s.cd, s.w, 7, &n1, pf));
    TU_CHECK(n1 == 7 && pf[0].status == PDNN_STATUS_SUCCESS && pf[0].time >= 0, "bwd filter find");
    TU_OK(pdnnFindConvolutionBackwardFilterAlgorithmEx(s.h, s.x, s.xb, s.y, s.yb, s.cd, s.w, dw, 7, &n1, pf, NULL, 0));
    TU_CHECK(n1 == 7, "bwd filter findEx %d", n1);
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnFindConvolutionBackwardFilterAlgorithmEx(NULL, s.x, s.xb, s.y, s.yb, s.cd, s.w, dw, 7, &n1, pf, NULL, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnFindConvolutionBackwardDataAlgorithmEx(s.h, s.w, s.wb, s.y, s.yb, s.cd, s.x, NULL, 6, &n1, pd, NULL, 0));

    /* zero-sized batch: queries work, Find reports zero times */
    pdnnTensorDescriptor_t x0 = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 0, 4, 5, 5);
    pdnnTensorDescriptor_t y0 = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 0, 6, 5, 5);
    TU_OK(pdnnGetConvolutionForwardAlgorithm_v7(s.h, x0, s.w, s.cd, y0, 8, &n, perf));
    TU_OK(pdnnFindConvolutionForwardAlgorithm(s.h, x0, s.w, s.cd, y0, 8, &n, perf));
    TU_CHECK(perf[0].status == PDNN_STATUS_SUCCESS && perf[0].time == 0, "empty Find");

    pdnnDestroyTensorDescriptor(x0);
    pdnnDestroyTensorDescriptor(y0);
    pdnnDestroyTensorDescriptor(ybad);
    pdnnDestroyTensorDescriptor(xh);
    pdnnDestroyTensorDescriptor(yh);
    pdnnDestroyFilterDescriptor(wh);
    setup_free(&s);
}

/* The problem key (internal): benchdnn's syntax, tags only where not canonical. */
static void test_problem_key(void)
{
    pdnn_conv_problem p;
    char key[256];
    memset(&p, 0, sizeof p);
    p.dir = PDNN_CONV_FWD, p.dtype = p.compute = PDNN_DATA_FLOAT, p.nsp = 2;
    p.n = 2, p.g = 1, p.c = 4, p.k = 8;
    for (int i = 0; i < 2; i++)
        p.in[i] = p.out[i] = 9, p.kern[i] = 3, p.stride[i] = 1, p.dil[i] = 1, p.pad_b[i] = 1;
    p.xs[0] = 324, p.xs[1] = 81, p.xs[2] = 9, p.xs[3] = 1;
    p.ys[0] = 648, p.ys[1] = 81, p.ys[2] = 9, p.ys[3] = 1;
    pdnn_conv_problem_key(&p, key, sizeof key);
    TU_CHECK(!strcmp(key, "mb2ic4ih9iw9oc8oh9ow9kh3kw3sh1sw1ph1pw1dh0dw0g1_f32_fwd"), "key %s", key);
    /* NHWC y, true convolution, DOUBLE accumulation, KRSC, dilation 2, bwd data */
    p.ys[0] = 648, p.ys[1] = 1, p.ys[2] = 72, p.ys[3] = 8;
    p.flip = true, p.compute = PDNN_DATA_DOUBLE, p.wfmt = PDNN_TENSOR_NHWC, p.dil[1] = 2;
    p.dir = PDNN_CONV_BWD_DATA;
    pdnn_conv_problem_key(&p, key, sizeof key);
    TU_CHECK(!strcmp(key, "mb2ic4ih9iw9oc8oh9ow9kh3kw3sh1sw1ph1pw1dh0dw1g1_f32_bwd_d_accf64_flip_"
                          "wkrsc_ynhwc"),
             "key %s", key);
    /* gapped x, 1-d, bwd filter */
    p.nsp = 1, p.flip = false, p.compute = PDNN_DATA_FLOAT, p.wfmt = PDNN_TENSOR_NCHW;
    p.dir = PDNN_CONV_BWD_FILTER, p.dil[0] = 1;
    p.xs[0] = 100, p.xs[1] = 20, p.xs[2] = 2;
    p.ys[0] = 72, p.ys[1] = 9, p.ys[2] = 1;
    pdnn_conv_problem_key(&p, key, sizeof key);
    TU_CHECK(!strcmp(key, "mb2ic4iw9oc8ow9kw3sw1pw1dw0g1_f32_bwd_w_xs100:20:2"), "key %s", key);
    /* 3-d names d, h, w; truncation stays terminated */
    p.nsp = 3, p.dir = PDNN_CONV_FWD;
    for (int i = 0; i < 3; i++)
        p.in[i] = p.out[i] = 4, p.kern[i] = 1, p.stride[i] = 1, p.dil[i] = 1, p.pad_b[i] = 0;
    p.xs[0] = 256, p.xs[1] = 64, p.xs[2] = 16, p.xs[3] = 4, p.xs[4] = 1;
    p.ys[0] = 512, p.ys[1] = 64, p.ys[2] = 16, p.ys[3] = 4, p.ys[4] = 1;
    pdnn_conv_problem_key(&p, key, sizeof key);
    TU_CHECK(!strcmp(key, "mb2ic4id4ih4iw4oc8od4oh4ow4kd1kh1kw1sd1sh1sw1pd0ph0pw0dd0dh0dw0g1_f32_fwd"),
             "key %s", key);
    char small[10];
    memset(small, 'z', sizeof small);
    pdnn_conv_problem_key(&p, small, sizeof small);
    TU_CHECK(strlen(small) == 9 && !strncmp(small, "mb2ic4id4", 9), "truncated key %s", small);
}

/* An empty batch (N == 0): every algorithm needs no workspace and runs with none; the
 * filter gradient is then the empty sum (dw = beta * dw). */
static void test_empty_batch(void)
{
    pdnnHandle_t h;
    TU_OK(pdnnCreate(&h));
    pdnnTensorDescriptor_t x = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 0, 4, 8, 8);
    pdnnTensorDescriptor_t y = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 0, 6, 8, 8);
    pdnnFilterDescriptor_t w;
    pdnnConvolutionDescriptor_t cd;
    TU_OK(pdnnCreateFilterDescriptor(&w));
    TU_OK(pdnnSetFilter4dDescriptor(w, PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 6, 4, 3, 3));
    TU_OK(pdnnCreateConvolutionDescriptor(&cd));
    TU_OK(pdnnSetConvolution2dDescriptor(cd, 1, 1, 1, 1, 1, 1, PDNN_CROSS_CORRELATION,
                                         PDNN_DATA_FLOAT));
    float one = 1, half = 0.5f, wb[6 * 4 * 9], dw[6 * 4 * 9];
    for (int i = 0; i < 6 * 4 * 9; i++) wb[i] = 1, dw[i] = 2;
    static const pdnnConvolutionFwdAlgo_t fa[] = {
        PDNN_CONVOLUTION_FWD_ALGO_GEMM, PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM,
        PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED};
    for (int i = 0; i < 4; i++) {
        size_t ws = 99;
        TU_OK(pdnnGetConvolutionForwardWorkspaceSize(h, x, w, cd, y, fa[i], &ws));
        TU_CHECK(ws == 0, "N == 0: forward algo %d wants %zu workspace bytes", (int)fa[i], ws);
        TU_OK(pdnnConvolutionForward(h, &one, x, NULL, w, wb, cd, fa[i], NULL, 0, &half, y, NULL));
    }
    size_t ws = 99;
    TU_OK(pdnnGetConvolutionBackwardDataWorkspaceSize(h, w, y, cd, x,
                                                      PDNN_CONVOLUTION_BWD_DATA_ALGO_1, &ws));
    TU_CHECK(ws == 0, "N == 0: backward data wants %zu workspace bytes", ws);
    TU_OK(pdnnConvolutionBackwardData(h, &one, w, wb, y, NULL, cd, PDNN_CONVOLUTION_BWD_DATA_ALGO_1,
                                      NULL, 0, &half, x, NULL));
    TU_OK(pdnnGetConvolutionBackwardFilterWorkspaceSize(h, x, y, cd, w,
                                                        PDNN_CONVOLUTION_BWD_FILTER_ALGO_1, &ws));
    TU_CHECK(ws == 0, "N == 0: backward filter wants %zu workspace bytes", ws);
    TU_OK(pdnnConvolutionBackwardFilter(h, &one, x, NULL, y, NULL, cd,
                                        PDNN_CONVOLUTION_BWD_FILTER_ALGO_1, NULL, 0, &half, w, dw));
    TU_CHECK(all_is(dw, 6 * 4 * 9, 1.0f), "N == 0: dw is not beta * dw");
    pdnnDestroyTensorDescriptor(x);
    pdnnDestroyTensorDescriptor(y);
    pdnnDestroyFilterDescriptor(w);
    pdnnDestroyConvolutionDescriptor(cd);
    TU_OK(pdnnDestroy(h));
}

int main(void)
{
    test_empty_batch();
    test_problem_key();
    test_descriptor();
    test_output_dim();
    test_forward_misuse();
    test_backward_misuse();
    test_bias_activation_misuse();
    test_workspace_overlap();
    test_queries();
    return tu_finish("api/conv_api");
}
