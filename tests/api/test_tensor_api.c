/* API misuse of the tensor operations and their descriptors: NULL pointers, destroyed,
 * unset and wrong-kind descriptors, bad enums, mismatched shapes and types, HALF,
 * overlapping outputs, bad aliasing, indices requests -> documented status, non-empty
 * message, outputs untouched. Also descriptor round trips and the log line. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define NC 120 /* elements of the 2x3x4x5 output used throughout */

static float Cbuf[NC], Abuf[NC], Bbuf[NC];
static uint32_t Ibuf[NC];

static void fill_sentinels(void)
{
    for (int i = 0; i < NC; i++) Cbuf[i] = 42.0f, Abuf[i] = 1.0f, Bbuf[i] = 2.0f, Ibuf[i] = 77;
}

static void check_untouched(const char *where)
{
    int bad = 0;
    for (int i = 0; i < NC; i++) bad += Cbuf[i] != 42.0f || Ibuf[i] != 77;
    TU_CHECK(bad == 0, "%s: %d output elements changed by failing calls", where, bad);
}

static void test_optensor_desc(void)
{
    pdnnOpTensorDescriptor_t od;
    pdnnOpTensorOp_t op;
    pdnnDataType_t ct;
    pdnnNanPropagation_t nan;
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnCreateOpTensorDescriptor(NULL));
    TU_OK(pdnnCreateOpTensorDescriptor(&od));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetOpTensorDescriptor(od, &op, &ct, &nan)); /* unset */
    TU_OK(pdnnSetOpTensorDescriptor(od, PDNN_OP_TENSOR_MIN, PDNN_DATA_DOUBLE, PDNN_PROPAGATE_NAN));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetOpTensorDescriptor(od, (pdnnOpTensorOp_t)6, PDNN_DATA_FLOAT, PDNN_PROPAGATE_NAN));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetOpTensorDescriptor(od, (pdnnOpTensorOp_t)-1, PDNN_DATA_FLOAT, PDNN_PROPAGATE_NAN));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetOpTensorDescriptor(od, PDNN_OP_TENSOR_ADD, (pdnnDataType_t)77, PDNN_PROPAGATE_NAN));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetOpTensorDescriptor(od, PDNN_OP_TENSOR_ADD, PDNN_DATA_FLOAT, (pdnnNanPropagation_t)2));
    TU_OK(pdnnGetOpTensorDescriptor(od, &op, &ct, &nan));
    TU_CHECK(op == PDNN_OP_TENSOR_MIN && ct == PDNN_DATA_DOUBLE && nan == PDNN_PROPAGATE_NAN,
             "op-tensor descriptor changed by failing Set calls");
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetOpTensorDescriptor(od, NULL, &ct, &nan));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetOpTensorDescriptor(od, &op, &ct, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetOpTensorDescriptor(NULL, &op, &ct, &nan));
    /* a tensor descriptor is not an op-tensor descriptor */
    pdnnTensorDescriptor_t td = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 1, 1, 1);
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetOpTensorDescriptor((pdnnOpTensorDescriptor_t)td, PDNN_OP_TENSOR_ADD,
                                        PDNN_DATA_FLOAT, PDNN_PROPAGATE_NAN));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnDestroyOpTensorDescriptor((pdnnOpTensorDescriptor_t)td));
    pdnnDestroyTensorDescriptor(td);
    TU_OK(pdnnDestroyOpTensorDescriptor(od));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnDestroyOpTensorDescriptor(od));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetOpTensorDescriptor(od, &op, &ct, &nan));
    TU_OK(pdnnDestroyOpTensorDescriptor(NULL));
}

static void test_reduce_desc(void)
{
    pdnnReduceTensorDescriptor_t rd;
    pdnnReduceTensorOp_t op;
    pdnnDataType_t ct;
    pdnnNanPropagation_t nan;
    pdnnReduceTensorIndices_t ind;
    pdnnIndicesType_t it;
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnCreateReduceTensorDescriptor(NULL));
    TU_OK(pdnnCreateReduceTensorDescriptor(&rd));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetReduceTensorDescriptor(rd, &op, &ct, &nan, &ind, &it));
    TU_OK(pdnnSetReduceTensorDescriptor(rd, PDNN_REDUCE_TENSOR_AMAX, PDNN_DATA_FLOAT,
                                        PDNN_PROPAGATE_NAN, PDNN_REDUCE_TENSOR_FLATTENED_INDICES,
                                        PDNN_64BIT_INDICES));
#define SETBAD(o, c, n, i, t)                                                                     \
    TU_STATUS(PDNN_STATUS_BAD_PARAM,                                                              \
              pdnnSetReduceTensorDescriptor(rd, (pdnnReduceTensorOp_t)(o), (pdnnDataType_t)(c),   \
                                            (pdnnNanPropagation_t)(n),                            \
                                            (pdnnReduceTensorIndices_t)(i), (pdnnIndicesType_t)(t)))
    SETBAD(9, 0, 0, 0, 0);
    SETBAD(-1, 0, 0, 0, 0);
    SETBAD(0, 55, 0, 0, 0);
    SETBAD(0, 0, 3, 0, 0);
    SETBAD(0, 0, 0, 2, 0);
    SETBAD(0, 0, 0, 0, 4);
    SETBAD(0, 0, 0, 0, -1);
#undef SETBAD
    TU_OK(pdnnGetReduceTensorDescriptor(rd, &op, &ct, &nan, &ind, &it));
    TU_CHECK(op == PDNN_REDUCE_TENSOR_AMAX && ct == PDNN_DATA_FLOAT && nan == PDNN_PROPAGATE_NAN &&
                 ind == PDNN_REDUCE_TENSOR_FLATTENED_INDICES && it == PDNN_64BIT_INDICES,
             "reduce descriptor changed by failing Set calls");
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnGetReduceTensorDescriptor(rd, &op, &ct, &nan, &ind, NULL));
    pdnnOpTensorDescriptor_t od;
    pdnnCreateOpTensorDescriptor(&od);
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnGetReduceTensorDescriptor((pdnnReduceTensorDescriptor_t)od, &op, &ct, &nan, &ind, &it));
    pdnnDestroyOpTensorDescriptor(od);
    TU_OK(pdnnDestroyReduceTensorDescriptor(rd));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnDestroyReduceTensorDescriptor(rd));
    TU_OK(pdnnDestroyReduceTensorDescriptor(NULL));
}

static void test_elementwise(pdnnHandle_t h)
{
    pdnnTensorDescriptor_t c = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 3, 4, 5);
    pdnnTensorDescriptor_t bias = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 3, 1, 1);
    pdnnTensorDescriptor_t badb = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 3, 1, 2);
    pdnnTensorDescriptor_t nhwc = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NHWC, 2, 3, 4, 5);
    pdnnTensorDescriptor_t dbl = tu_tensor4d(PDNN_DATA_DOUBLE, PDNN_TENSOR_NCHW, 2, 3, 4, 5);
    pdnnTensorDescriptor_t half = tu_tensor4d(PDNN_DATA_HALF, PDNN_TENSOR_NCHW, 2, 3, 4, 5);
    int d3[3] = {2, 3, 20};
    pdnnTensorDescriptor_t r3 = tu_tensor(PDNN_DATA_FLOAT, 3, d3, NULL);
    int od4[4] = {2, 3, 4, 5}, ost[4] = {60, 20, 5, 2}; /* w stride 2 overlaps h stride 5 */
    pdnnTensorDescriptor_t over = tu_tensor(PDNN_DATA_FLOAT, 4, od4, ost);
    pdnnTensorDescriptor_t unset, dead;
    pdnnCreateTensorDescriptor(&unset);
    pdnnCreateTensorDescriptor(&dead);
    pdnnDestroyTensorDescriptor(dead);
    pdnnFilterDescriptor_t filt;
    pdnnCreateFilterDescriptor(&filt);
    pdnnSetFilter4dDescriptor(filt, PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 3, 4, 5);
    pdnnTensorDescriptor_t wrong = (pdnnTensorDescriptor_t)filt;
    float one = 1, zero = 0;
    pdnnHandle_t dead_h;
    pdnnCreate(&dead_h);
    pdnnDestroy(dead_h);

    /* SetTensor / ScaleTensor */
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnSetTensor(NULL, c, Cbuf, &one));
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnSetTensor(dead_h, c, Cbuf, &one));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnSetTensor(h, NULL, Cbuf, &one));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetTensor(h, dead, Cbuf, &one));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetTensor(h, unset, Cbuf, &one));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetTensor(h, wrong, Cbuf, &one));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetTensor(h, over, Cbuf, &one));
    /* the output rule is sufficient, not exact: dims {3, 3} strides {3, 2} do not overlap
     * (offsets 0 2 4 3 5 7 6 8 10) but are refused, and the message says "may" and why */
    int sd[2] = {3, 3}, ss[2] = {3, 2};
    pdnnTensorDescriptor_t safe_refused = tu_tensor(PDNN_DATA_FLOAT, 2, sd, ss);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetTensor(h, safe_refused, Cbuf, &one));
    {
        char m[512];
        pdnnGetLastErrorString(m, sizeof m);
        TU_CHECK(strstr(m, "may map several elements") &&
                     strstr(m, "each stride to exceed the extent of the smaller-stride dims"),
                 "output-stride message states the rule: %s", m);
    }
    pdnnDestroyTensorDescriptor(safe_refused);
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnSetTensor(h, c, Cbuf, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnSetTensor(h, c, NULL, &one));
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, pdnnSetTensor(h, half, Cbuf, &one));
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnScaleTensor(NULL, c, Cbuf, &zero));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnScaleTensor(h, c, Cbuf, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnScaleTensor(h, over, Cbuf, &zero));
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, pdnnScaleTensor(h, half, Cbuf, &zero));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnScaleTensor(h, wrong, Cbuf, &zero));

    /* AddTensor */
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnAddTensor(NULL, &one, bias, Abuf, &zero, c, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, pdnnAddTensor(h, &one, badb, Abuf, &zero, c, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, pdnnAddTensor(h, &one, r3, Abuf, &zero, c, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, pdnnAddTensor(h, &one, c, Abuf, &zero, bias, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnAddTensor(h, &one, dbl, Abuf, &zero, c, Cbuf));
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, pdnnAddTensor(h, &one, half, Abuf, &zero, half, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnAddTensor(h, NULL, bias, Abuf, &zero, c, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnAddTensor(h, &one, bias, Abuf, NULL, c, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnAddTensor(h, &one, bias, NULL, &zero, c, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnAddTensor(h, &one, bias, Abuf, &zero, c, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnAddTensor(h, &one, bias, Abuf, &zero, over, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnAddTensor(h, &one, dead, Abuf, &zero, c, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnAddTensor(h, &one, bias, Cbuf, &zero, c, Cbuf)); /* alias */
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnAddTensor(h, &one, nhwc, Cbuf, &zero, c, Cbuf));

    /* OpTensor */
    pdnnOpTensorDescriptor_t od, od_unset, od_dead, od_dbl;
    pdnnCreateOpTensorDescriptor(&od);
    pdnnSetOpTensorDescriptor(od, PDNN_OP_TENSOR_ADD, PDNN_DATA_FLOAT, PDNN_NOT_PROPAGATE_NAN);
    pdnnCreateOpTensorDescriptor(&od_unset);
    pdnnCreateOpTensorDescriptor(&od_dead);
    pdnnDestroyOpTensorDescriptor(od_dead);
    pdnnCreateOpTensorDescriptor(&od_dbl);
    pdnnSetOpTensorDescriptor(od_dbl, PDNN_OP_TENSOR_ADD, PDNN_DATA_DOUBLE, PDNN_NOT_PROPAGATE_NAN);
    pdnnReduceTensorDescriptor_t rd_as_od;
    pdnnCreateReduceTensorDescriptor(&rd_as_od);
#define OPT(st, h_, o, a1, ad, A, a2, bd, B, be, cd, C)                                           \
    TU_STATUS(st, pdnnOpTensor(h_, o, a1, ad, A, a2, bd, B, be, cd, C))
    OPT(PDNN_STATUS_NOT_INITIALIZED, NULL, od, &one, c, Abuf, &one, bias, Bbuf, &zero, c, Cbuf);
    OPT(PDNN_STATUS_BAD_PARAM_NULL_POINTER, h, NULL, &one, c, Abuf, &one, bias, Bbuf, &zero, c, Cbuf);
    OPT(PDNN_STATUS_BAD_PARAM, h, od_unset, &one, c, Abuf, &one, bias, Bbuf, &zero, c, Cbuf);
    OPT(PDNN_STATUS_BAD_PARAM, h, od_dead, &one, c, Abuf, &one, bias, Bbuf, &zero, c, Cbuf);
    OPT(PDNN_STATUS_BAD_PARAM, h, (pdnnOpTensorDescriptor_t)rd_as_od, &one, c, Abuf, &one, bias,
        Bbuf, &zero, c, Cbuf);
    OPT(PDNN_STATUS_BAD_PARAM, h, od_dbl, &one, c, Abuf, &one, bias, Bbuf, &zero, c, Cbuf);
    OPT(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, h, od, &one, bias, Abuf, &one, bias, Bbuf, &zero, c, Cbuf);
    OPT(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, h, od, &one, c, Abuf, &one, badb, Bbuf, &zero, c, Cbuf);
    OPT(PDNN_STATUS_BAD_PARAM_NULL_POINTER, h, od, &one, c, Abuf, NULL, bias, Bbuf, &zero, c, Cbuf);
    OPT(PDNN_STATUS_BAD_PARAM_NULL_POINTER, h, od, &one, c, Abuf, &one, bias, NULL, &zero, c, Cbuf);
    OPT(PDNN_STATUS_BAD_PARAM_NULL_POINTER, h, od, &one, c, Abuf, &one, NULL, Bbuf, &zero, c, Cbuf);
    OPT(PDNN_STATUS_BAD_PARAM_NULL_POINTER, h, od, &one, c, Abuf, &one, bias, Bbuf, NULL, c, Cbuf);
    OPT(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, h, od, &one, half, Abuf, &one, half, Bbuf, &zero, half, Cbuf);
    OPT(PDNN_STATUS_BAD_PARAM, h, od, &one, c, Abuf, &one, dbl, Bbuf, &zero, c, Cbuf);
    OPT(PDNN_STATUS_BAD_PARAM, h, od, &one, c, Abuf, &one, bias, Bbuf, &zero, over, Cbuf);
    OPT(PDNN_STATUS_BAD_PARAM, h, od, &one, nhwc, Cbuf, &one, bias, Bbuf, &zero, c, Cbuf);
    OPT(PDNN_STATUS_BAD_PARAM, h, od, &one, c, Abuf, &one, bias, Cbuf, &zero, c, Cbuf);
    /* unary ops ignore B: a bad bDesc is not an error, but a bad A still is */
    pdnnSetOpTensorDescriptor(od, PDNN_OP_TENSOR_SQRT, PDNN_DATA_FLOAT, PDNN_NOT_PROPAGATE_NAN);
    OPT(PDNN_STATUS_BAD_PARAM_NULL_POINTER, h, od, &one, c, NULL, NULL, NULL, NULL, &zero, c, Cbuf);
#undef OPT

    /* TransformTensor */
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnTransformTensor(NULL, &one, nhwc, Abuf, &zero, c, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, pdnnTransformTensor(h, &one, bias, Abuf, &zero, c, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, pdnnTransformTensor(h, &one, r3, Abuf, &zero, c, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnTransformTensor(h, &one, dbl, Abuf, &zero, c, Cbuf));
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, pdnnTransformTensor(h, &one, half, Abuf, &zero, half, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnTransformTensor(h, NULL, nhwc, Abuf, &zero, c, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnTransformTensor(h, &one, nhwc, NULL, &zero, c, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnTransformTensor(h, &one, nhwc, Cbuf, &zero, c, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnTransformTensor(h, &one, nhwc, Abuf, &zero, over, Cbuf));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnTransformTensor(h, &one, nhwc, Abuf, &zero, wrong, Cbuf));
    check_untouched("elementwise");

    /* and the in-place forms that are allowed do work */
    float two = 2;
    TU_OK(pdnnTransformTensor(h, &one, c, Cbuf, &one, c, Cbuf)); /* y = x + y with x == y */
    TU_CHECK(Cbuf[0] == 84 && Cbuf[NC - 1] == 84, "in-place transform %g", Cbuf[0]);
    TU_OK(pdnnScaleTensor(h, c, Cbuf, &two));
    TU_CHECK(Cbuf[7] == 168, "scale %g", Cbuf[7]);

    pdnnDestroyOpTensorDescriptor(od);
    pdnnDestroyOpTensorDescriptor(od_unset);
    pdnnDestroyOpTensorDescriptor(od_dbl);
    pdnnDestroyReduceTensorDescriptor(rd_as_od);
    pdnnDestroyFilterDescriptor(filt);
    pdnnDestroyTensorDescriptor(unset);
    pdnnTensorDescriptor_t all[] = {c, bias, badb, nhwc, dbl, half, r3, over};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) pdnnDestroyTensorDescriptor(all[i]);
}

static void test_reduce(pdnnHandle_t h)
{
    pdnnTensorDescriptor_t a = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 3, 4, 5);
    pdnnTensorDescriptor_t c = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 3, 1, 1);
    pdnnTensorDescriptor_t bad = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 3, 2, 1);
    pdnnTensorDescriptor_t dbl = tu_tensor4d(PDNN_DATA_DOUBLE, PDNN_TENSOR_NCHW, 1, 3, 1, 1);
    pdnnTensorDescriptor_t half = tu_tensor4d(PDNN_DATA_HALF, PDNN_TENSOR_NCHW, 2, 3, 4, 5);
    pdnnTensorDescriptor_t halfc = tu_tensor4d(PDNN_DATA_HALF, PDNN_TENSOR_NCHW, 1, 3, 1, 1);
    int d3[3] = {1, 3, 1};
    pdnnTensorDescriptor_t r3 = tu_tensor(PDNN_DATA_FLOAT, 3, d3, NULL);
    int od[4] = {1, 3, 1, 1}, ost[4] = {1, 1, 1, 1};
    int od2[4] = {2, 3, 1, 1}, ost2[4] = {1, 1, 1, 1};
    pdnnTensorDescriptor_t c_ok1 = tu_tensor(PDNN_DATA_FLOAT, 4, od, ost); /* fine: one dim > 1 */
    pdnnTensorDescriptor_t over = tu_tensor(PDNN_DATA_FLOAT, 4, od2, ost2);
    pdnnTensorDescriptor_t a300 = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 1, 1, 300);
    pdnnTensorDescriptor_t c1 = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 1, 1, 1);
    pdnnReduceTensorDescriptor_t rd, rd_unset, rd_dead, rd_idx_add, rd_8bit, rd_dbl;
    pdnnCreateReduceTensorDescriptor(&rd);
    pdnnSetReduceTensorDescriptor(rd, PDNN_REDUCE_TENSOR_MAX, PDNN_DATA_FLOAT, PDNN_NOT_PROPAGATE_NAN,
                                  PDNN_REDUCE_TENSOR_FLATTENED_INDICES, PDNN_32BIT_INDICES);
    pdnnCreateReduceTensorDescriptor(&rd_unset);
    pdnnCreateReduceTensorDescriptor(&rd_dead);
    pdnnDestroyReduceTensorDescriptor(rd_dead);
    pdnnCreateReduceTensorDescriptor(&rd_idx_add);
    pdnnSetReduceTensorDescriptor(rd_idx_add, PDNN_REDUCE_TENSOR_ADD, PDNN_DATA_FLOAT,
                                  PDNN_NOT_PROPAGATE_NAN, PDNN_REDUCE_TENSOR_FLATTENED_INDICES,
                                  PDNN_32BIT_INDICES);
    pdnnCreateReduceTensorDescriptor(&rd_8bit);
    pdnnSetReduceTensorDescriptor(rd_8bit, PDNN_REDUCE_TENSOR_MIN, PDNN_DATA_FLOAT,
                                  PDNN_NOT_PROPAGATE_NAN, PDNN_REDUCE_TENSOR_FLATTENED_INDICES,
                                  PDNN_8BIT_INDICES);
    pdnnCreateReduceTensorDescriptor(&rd_dbl);
    pdnnSetReduceTensorDescriptor(rd_dbl, PDNN_REDUCE_TENSOR_ADD, PDNN_DATA_DOUBLE,
                                  PDNN_NOT_PROPAGATE_NAN, PDNN_REDUCE_TENSOR_NO_INDICES,
                                  PDNN_32BIT_INDICES);
    pdnnOpTensorDescriptor_t od_as_rd;
    pdnnCreateOpTensorDescriptor(&od_as_rd);
    float one = 1, zero = 0;
    size_t sz = 12345, isz = sizeof Ibuf;
#define RED(st, h_, r, I, isz_, al, ad, A, be, cd, C)                                             \
    TU_STATUS(st, pdnnReduceTensor(h_, r, I, isz_, NULL, 0, al, ad, A, be, cd, C))
    RED(PDNN_STATUS_NOT_INITIALIZED, NULL, rd, Ibuf, isz, &one, a, Abuf, &zero, c, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM_NULL_POINTER, h, NULL, Ibuf, isz, &one, a, Abuf, &zero, c, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM, h, rd_unset, Ibuf, isz, &one, a, Abuf, &zero, c, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM, h, rd_dead, Ibuf, isz, &one, a, Abuf, &zero, c, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM, h, (pdnnReduceTensorDescriptor_t)od_as_rd, Ibuf, isz, &one, a, Abuf,
        &zero, c, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, h, rd, Ibuf, isz, &one, a, Abuf, &zero, bad, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, h, rd, Ibuf, isz, &one, a, Abuf, &zero, r3, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, h, rd, Ibuf, isz, &one, c, Abuf, &zero, a, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM, h, rd, Ibuf, isz, &one, a, Abuf, &zero, dbl, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM, h, rd_dbl, NULL, 0, &one, a, Abuf, &zero, c, Cbuf); /* compType */
    RED(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, h, rd, Ibuf, isz, &one, half, Abuf, &zero, halfc, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM, h, rd_idx_add, Ibuf, isz, &one, a, Abuf, &zero, c, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM_NULL_POINTER, h, rd, NULL, isz, &one, a, Abuf, &zero, c, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, h, rd, Ibuf, 8, &one, a, Abuf, &zero, c, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, h, rd_8bit, Ibuf, isz, &one, a300, Abuf, &zero, c1, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM_NULL_POINTER, h, rd, Ibuf, isz, NULL, a, Abuf, &zero, c, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM_NULL_POINTER, h, rd, Ibuf, isz, &one, a, Abuf, NULL, c, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM_NULL_POINTER, h, rd, Ibuf, isz, &one, a, NULL, &zero, c, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM_NULL_POINTER, h, rd, Ibuf, isz, &one, a, Abuf, &zero, c, NULL);
    RED(PDNN_STATUS_BAD_PARAM, h, rd, Ibuf, isz, &one, a, Cbuf, &zero, c, Cbuf); /* A == C */
    RED(PDNN_STATUS_BAD_PARAM, h, rd, Ibuf, isz, &one, a, Abuf, &zero, over, Cbuf);
    RED(PDNN_STATUS_BAD_PARAM, h, rd, Cbuf, isz, &one, a, Abuf, &zero, c, Cbuf); /* indices == C */
#undef RED
    /* a NULL workspace with a nonzero size, as the convolutions */
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER,
              pdnnReduceTensor(h, rd, Ibuf, isz, NULL, 64, &one, a, Abuf, &zero, c, Cbuf));
    check_untouched("reduce");
    /* size queries validate the same way */
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetReductionIndicesSize(h, rd_idx_add, a, c, &sz));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, pdnnGetReductionIndicesSize(h, rd, a, bad, &sz));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetReductionIndicesSize(h, rd, a, c, NULL));
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnGetReductionWorkspaceSize(NULL, rd, a, c, &sz));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetReductionWorkspaceSize(h, rd, a, c, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetReductionWorkspaceSize(h, rd_unset, a, c, &sz));
    TU_CHECK(sz == 12345, "failed size query wrote %zu", sz);
    TU_OK(pdnnGetReductionIndicesSize(h, rd, a, c, &sz));
    TU_CHECK(sz == 3 * 4, "indices size %zu", sz);
    TU_OK(pdnnSetReduceTensorDescriptor(rd_dbl, PDNN_REDUCE_TENSOR_MAX, PDNN_DATA_FLOAT,
                                        PDNN_NOT_PROPAGATE_NAN, PDNN_REDUCE_TENSOR_NO_INDICES,
                                        PDNN_32BIT_INDICES));
    TU_OK(pdnnGetReductionIndicesSize(h, rd_dbl, a, c, &sz));
    TU_CHECK(sz == 0, "no-indices size %zu", sz);
    TU_OK(pdnnGetReductionWorkspaceSize(h, rd, a, c, &sz));
    TU_CHECK(sz == 0, "workspace %zu", sz);
    /* an output with one non-unit dim and unit strides elsewhere is fine */
    TU_OK(pdnnReduceTensor(h, rd, Ibuf, isz, NULL, 0, &one, a, Abuf, &zero, c_ok1, Cbuf));
    TU_CHECK(Cbuf[0] == 1 && Cbuf[2] == 1 && Ibuf[0] == 0, "max of ones: %g idx %u", Cbuf[0], Ibuf[0]);

    pdnnDestroyOpTensorDescriptor(od_as_rd);
    pdnnReduceTensorDescriptor_t rds[] = {rd, rd_unset, rd_idx_add, rd_8bit, rd_dbl};
    for (size_t i = 0; i < sizeof rds / sizeof *rds; i++) pdnnDestroyReduceTensorDescriptor(rds[i]);
    pdnnTensorDescriptor_t all[] = {a, c, bad, dbl, half, halfc, r3, c_ok1, over, a300, c1};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) pdnnDestroyTensorDescriptor(all[i]);
}

/* PDNN_LOGINFO_DBG=1 writes one line per call naming the op, shapes and implementation. */
static void test_log(pdnnHandle_t h, const char *path)
{
    pdnnTensorDescriptor_t c = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 3, 4, 5);
    pdnnTensorDescriptor_t bias = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 3, 1, 1);
    float one = 1;
    /* drop the lines of earlier calls (failing calls are logged too); the library
     * appends, so it writes at the new end */
    FILE *t = fopen(path, "w");
    if (t) fclose(t);
    TU_OK(pdnnAddTensor(h, &one, bias, Abuf, &one, c, Cbuf));
    FILE *f = fopen(path, "r");
    char text[4096] = {0};
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[n] = '\0';
    TU_CHECK(strstr(text, "pdnnAddTensor") && strstr(text, "f32 1x3x1x1") &&
                 strstr(text, "f32 2x3x4x5") && strstr(text, "cpu:ref") && strstr(text, " ms"),
             "log line missing or incomplete: '%s'", text);
    pdnnDestroyTensorDescriptor(c);
    pdnnDestroyTensorDescriptor(bias);
}

int main(void)
{
    char path[] = "/tmp/pdnn_tensor_api_log_XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) close(fd);
    setenv("PDNN_LOGINFO_DBG", "1", 1);
    setenv("PDNN_LOGDEST_DBG", path, 1);
    pdnnHandle_t h;
    TU_OK(pdnnCreate(&h));
    fill_sentinels();
    test_optensor_desc();
    test_reduce_desc();
    test_elementwise(h);
    fill_sentinels();
    test_reduce(h);
    test_log(h, path);
    TU_OK(pdnnDestroy(h));
    unlink(path);
    return tu_finish("api/tensor_api");
}
