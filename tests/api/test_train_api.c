/* API misuse of pdnn/train.h: losses, optimizers, clipping and schedules. NULL pointers,
 * destroyed, unset and wrong-kind descriptors, bad enums and values, mismatched shapes
 * and types, HALF, overlapping outputs, out-of-range labels, too small state ->
 * documented status, non-empty message, outputs untouched. Also descriptor round trips. */
#include <math.h>
#include <string.h>

#include "testutil.h"

static pdnnHandle_t H;

static bool last_error_has(const char *needle)
{
    char m[1024];
    pdnnGetLastErrorString(m, sizeof m);
    return strstr(m, needle) != NULL;
}

/* ------------------------------------------------------------------ loss descriptor */

static void test_loss_desc(void)
{
    pdnnLossDescriptor_t L;
    pdnnLossMode_t m;
    pdnnLossReduction_t r;
    int64_t ig;
    double eps;
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnCreateLossDescriptor(NULL));
    TU_OK(pdnnCreateLossDescriptor(&L));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetLossDescriptor(L, &m, &r, &ig, &eps)); /* unset */
    TU_OK(pdnnSetLossDescriptor(L, PDNN_LOSS_SOFTMAX_CROSS_ENTROPY, PDNN_LOSS_REDUCTION_SUM, -7, 0.25));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetLossDescriptor(L, (pdnnLossMode_t)3, PDNN_LOSS_REDUCTION_SUM, 0, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetLossDescriptor(L, PDNN_LOSS_NLL, (pdnnLossReduction_t)-1, 0, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
              pdnnSetLossDescriptor(L, PDNN_LOSS_SOFTMAX_CROSS_ENTROPY, PDNN_LOSS_REDUCTION_SUM, 0, 1.5));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
              pdnnSetLossDescriptor(L, PDNN_LOSS_SOFTMAX_CROSS_ENTROPY, PDNN_LOSS_REDUCTION_SUM, 0, NAN));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetLossDescriptor(L, PDNN_LOSS_NLL, PDNN_LOSS_REDUCTION_SUM, 0, 0.1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetLossDescriptor(L, PDNN_LOSS_MSE, PDNN_LOSS_REDUCTION_SUM, 0, 0.1));
    TU_OK(pdnnGetLossDescriptor(L, &m, &r, &ig, &eps));
    TU_CHECK(m == PDNN_LOSS_SOFTMAX_CROSS_ENTROPY && r == PDNN_LOSS_REDUCTION_SUM && ig == -7 && eps == 0.25,
             "loss descriptor changed by failing Set calls");
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetLossDescriptor(L, NULL, &r, &ig, &eps));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetLossDescriptor(L, &m, &r, &ig, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetLossDescriptor(NULL, &m, &r, &ig, &eps));
    pdnnTensorDescriptor_t td = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 1, 1, 1);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetLossDescriptor((pdnnLossDescriptor_t)td, PDNN_LOSS_NLL,
                                                           PDNN_LOSS_REDUCTION_SUM, 0, 0));
    TU_CHECK(last_error_has("tensor descriptor"), "wrong-kind message names the kind");
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnDestroyLossDescriptor((pdnnLossDescriptor_t)td));
    pdnnDestroyTensorDescriptor(td);
    TU_OK(pdnnDestroyLossDescriptor(L));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnDestroyLossDescriptor(L));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetLossDescriptor(L, PDNN_LOSS_NLL, PDNN_LOSS_REDUCTION_SUM, 0, 0));
    TU_OK(pdnnDestroyLossDescriptor(NULL));
}

/* ------------------------------------------------------------------ loss calls */

static void test_loss_calls(void)
{
    float one = 1, zero = 0, x[12], y[4], dx[12], dy[4];
    int32_t t[4] = {0, 1, 2, 0};
    for (int i = 0; i < 12; i++) x[i] = (float)i;
    int xd[2] = {4, 3}, td_[1] = {4}, od[1] = {1}, two[1] = {2}, xd3[1] = {12};
    pdnnTensorDescriptor_t xD = tu_tensor(PDNN_DATA_FLOAT, 2, xd, NULL);
    pdnnTensorDescriptor_t tD = tu_tensor(PDNN_DATA_INT32, 1, td_, NULL);
    pdnnTensorDescriptor_t yD = tu_tensor(PDNN_DATA_FLOAT, 1, td_, NULL);
    pdnnTensorDescriptor_t y1 = tu_tensor(PDNN_DATA_FLOAT, 1, od, NULL);
    pdnnTensorDescriptor_t y2 = tu_tensor(PDNN_DATA_FLOAT, 1, two, NULL);
    pdnnTensorDescriptor_t x1d = tu_tensor(PDNN_DATA_FLOAT, 1, xd3, NULL);
    pdnnTensorDescriptor_t xH = tu_tensor(PDNN_DATA_HALF, 2, xd, NULL);
    pdnnTensorDescriptor_t xDd = tu_tensor(PDNN_DATA_DOUBLE, 2, xd, NULL);
    pdnnTensorDescriptor_t tF = tu_tensor(PDNN_DATA_FLOAT, 1, td_, NULL);
    pdnnTensorDescriptor_t tBad = tu_tensor(PDNN_DATA_INT32, 1, two, NULL);
    int od2[2] = {4, 3}, os2[2] = {1, 1};
    pdnnTensorDescriptor_t dxOverlap = tu_tensor(PDNN_DATA_FLOAT, 2, od2, os2);
    pdnnTensorDescriptor_t dead = tu_tensor(PDNN_DATA_FLOAT, 2, xd, NULL);
    pdnnDestroyTensorDescriptor(dead);
    pdnnLossDescriptor_t L, Lunset;
    pdnnCreateLossDescriptor(&L);
    pdnnCreateLossDescriptor(&Lunset);
    TU_OK(pdnnSetLossDescriptor(L, PDNN_LOSS_SOFTMAX_CROSS_ENTROPY, PDNN_LOSS_REDUCTION_NONE, -100, 0));
    for (int i = 0; i < 4; i++) y[i] = 42, dy[i] = 1;
    for (int i = 0; i < 12; i++) dx[i] = 42;

#define FWD(st, ...) TU_STATUS(st, pdnnLossForward(__VA_ARGS__))
    FWD(PDNN_STATUS_NOT_INITIALIZED, NULL, L, &one, xD, x, tD, t, &zero, yD, y);
    FWD(PDNN_STATUS_BAD_PARAM, H, Lunset, &one, xD, x, tD, t, &zero, yD, y);
    FWD(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, NULL, &one, xD, x, tD, t, &zero, yD, y);
    FWD(PDNN_STATUS_BAD_PARAM, H, (pdnnLossDescriptor_t)xD, &one, xD, x, tD, t, &zero, yD, y);
    FWD(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, L, NULL, xD, x, tD, t, &zero, yD, y);
    FWD(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, L, &one, xD, x, tD, t, NULL, yD, y);
    FWD(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, L, &one, xD, NULL, tD, t, &zero, yD, y);
    FWD(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, L, &one, xD, x, tD, NULL, &zero, yD, y);
    FWD(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, L, &one, xD, x, tD, t, &zero, yD, NULL);
    FWD(PDNN_STATUS_BAD_PARAM, H, L, &one, dead, x, tD, t, &zero, yD, y);
    FWD(PDNN_STATUS_BAD_PARAM, H, L, &one, xD, x, tD, t, &zero, dead, y);
    FWD(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, H, L, &one, xH, x, tD, t, &zero, yD, y);
    FWD(PDNN_STATUS_BAD_PARAM, H, L, &one, xDd, x, tD, t, &zero, yD, y); /* x f64, y f32 */
    FWD(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, H, L, &one, xD, x, tF, t, &zero, yD, y);
    FWD(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, H, L, &one, xD, x, tBad, t, &zero, yD, y);
    FWD(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, H, L, &one, xD, x, tD, t, &zero, y2, y);
    FWD(PDNN_STATUS_BAD_PARAM, H, L, &one, x1d, x, tD, t, &zero, yD, y); /* 1-d logits */
    t[2] = 3;                                                               /* C is 3 */
    FWD(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, H, L, &one, xD, x, tD, t, &zero, yD, y);
    TU_CHECK(last_error_has("target element 2"), "label message names the element");
    t[2] = -1;
    FWD(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, H, L, &one, xD, x, tD, t, &zero, yD, y);
    t[2] = 2;
    TU_OK(pdnnSetLossDescriptor(L, PDNN_LOSS_SOFTMAX_CROSS_ENTROPY, PDNN_LOSS_REDUCTION_MEAN, -100, 0));
    FWD(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, H, L, &one, xD, x, tD, t, &zero, yD, y);
    TU_OK(pdnnSetLossDescriptor(L, PDNN_LOSS_MSE, PDNN_LOSS_REDUCTION_NONE, -100, 0));
    FWD(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, H, L, &one, xD, x, yD, y, &zero, xD, dx);
    FWD(PDNN_STATUS_BAD_PARAM, H, L, &one, xD, x, xDd, x, &zero, xD, dx); /* target type */
    FWD(PDNN_STATUS_BAD_PARAM, H, L, &one, xD, x, xD, x, &zero, dxOverlap, dx); /* overlap */
    /* zero classes with samples */
    int zc[2] = {2, 0}, zt[1] = {2};
    pdnnTensorDescriptor_t xz = tu_tensor(PDNN_DATA_FLOAT, 2, zc, NULL);
    pdnnTensorDescriptor_t tz = tu_tensor(PDNN_DATA_INT32, 1, zt, NULL);
    TU_OK(pdnnSetLossDescriptor(L, PDNN_LOSS_NLL, PDNN_LOSS_REDUCTION_SUM, -100, 0));
    FWD(PDNN_STATUS_BAD_PARAM, H, L, &one, xz, NULL, tz, t, &zero, y1, y);
    /* outputs may not overlap inputs (not even the same view): y over x, y over target */
    float lb[32];
    for (int i = 0; i < 32; i++) lb[i] = 42;
    memcpy(lb, t, sizeof t);
    float xkeep[12];
    memcpy(xkeep, x, sizeof x);
    TU_OK(pdnnSetLossDescriptor(L, PDNN_LOSS_SOFTMAX_CROSS_ENTROPY, PDNN_LOSS_REDUCTION_NONE, -100, 0));
    FWD(PDNN_STATUS_BAD_PARAM, H, L, &one, xD, x, tD, t, &zero, yD, x + 2);
    TU_CHECK(last_error_has("overlap"), "loss y/x overlap message");
    FWD(PDNN_STATUS_BAD_PARAM, H, L, &one, xD, x, tD, lb, &zero, yD, lb);
    TU_CHECK(last_error_has("target"), "loss y/target overlap message names target");
    TU_OK(pdnnSetLossDescriptor(L, PDNN_LOSS_MSE, PDNN_LOSS_REDUCTION_NONE, -100, 0));
    FWD(PDNN_STATUS_BAD_PARAM, H, L, &one, xD, x, xD, dx, &zero, xD, x); /* y == x */
    TU_CHECK(!memcmp(xkeep, x, sizeof x) && !memcmp(lb, t, sizeof t) && lb[4] == 42,
             "loss forward wrote an input on failure");
    int bad = 0;
    for (int i = 0; i < 4; i++) bad += y[i] != 42;
    TU_CHECK(bad == 0, "loss forward wrote y on failure");

#define BWD(st, ...) TU_STATUS(st, pdnnLossBackward(__VA_ARGS__))
    TU_OK(pdnnSetLossDescriptor(L, PDNN_LOSS_SOFTMAX_CROSS_ENTROPY, PDNN_LOSS_REDUCTION_NONE, -100, 0.1));
    BWD(PDNN_STATUS_NOT_INITIALIZED, NULL, L, &one, xD, x, tD, t, yD, dy, &zero, xD, dx);
    BWD(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, L, &one, xD, x, tD, t, NULL, dy, &zero, xD, dx);
    BWD(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, L, &one, xD, x, tD, t, yD, NULL, &zero, xD, dx);
    BWD(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, L, &one, xD, x, tD, t, yD, dy, &zero, xD, NULL);
    BWD(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, L, &one, xD, x, tD, t, yD, dy, NULL, xD, dx);
    BWD(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, H, L, &one, xD, x, tD, t, y2, dy, &zero, xD, dx);
    BWD(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, H, L, &one, xD, x, tD, t, yD, dy, &zero, x1d, dx);
    BWD(PDNN_STATUS_BAD_PARAM, H, L, &one, xD, x, tD, t, yD, dy, &zero, xDd, dx);
    BWD(PDNN_STATUS_BAD_PARAM, H, L, &one, xD, x, tD, t, yD, dy, &zero, dxOverlap, dx);
    BWD(PDNN_STATUS_BAD_PARAM, H, L, &one, xD, x, tD, t, dead, dy, &zero, xD, dx);
    BWD(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, H, L, &one, xH, x, tD, t, yD, dy, &zero, xH, dx);
    t[0] = 9;
    BWD(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, H, L, &one, xD, x, tD, t, yD, dy, &zero, xD, dx);
    t[0] = 0;
    /* dx may not overlap x, target or dy (not even the same view) */
    BWD(PDNN_STATUS_BAD_PARAM, H, L, &one, xD, x, tD, t, yD, dy, &zero, xD, x);
    BWD(PDNN_STATUS_BAD_PARAM, H, L, &one, xD, x, tD, lb, yD, dy, &zero, xD, lb + 2);
    TU_CHECK(last_error_has("target"), "loss dx/target overlap message names target");
    for (int i = 0; i < 4; i++) lb[20 + i] = 1;
    BWD(PDNN_STATUS_BAD_PARAM, H, L, &one, xD, x, tD, t, yD, lb + 20, &zero, xD, lb + 10);
    TU_CHECK(last_error_has("dy"), "loss dx/dy overlap message names dy");
    TU_CHECK(!memcmp(xkeep, x, sizeof x) && !memcmp(lb, t, sizeof t) && lb[4] == 42 &&
             lb[19] == 42 && lb[20] == 1, "loss backward wrote an input on failure");
    bad = 0;
    for (int i = 0; i < 12; i++) bad += dx[i] != 42;
    TU_CHECK(bad == 0, "loss backward wrote dx on failure");
    TU_OK(pdnnLossBackward(H, L, &one, xD, x, tD, t, yD, dy, &zero, xD, dx));

    pdnnDestroyLossDescriptor(L), pdnnDestroyLossDescriptor(Lunset);
    pdnnTensorDescriptor_t all[] = {xD, tD, yD, y1, y2, x1d, xH, xDd, tF, tBad, dxOverlap, xz, tz};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) pdnnDestroyTensorDescriptor(all[i]);
}

/* ------------------------------------------------------------------ optimizer descriptor */

static void test_opt_desc(void)
{
    pdnnOptimizerDescriptor_t o;
    pdnnOptimizerType_t ty;
    double a, b, c, d;
    int f;
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnCreateOptimizerDescriptor(NULL));
    TU_OK(pdnnCreateOptimizerDescriptor(&o));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetOptimizerType(o, &ty)); /* unset */
    TU_OK(pdnnSetOptimizerDescriptorSGD(o, 0.9, 0, 1, 1e-4));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetOptimizerDescriptorSGD(o, -0.1, 0, 0, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetOptimizerDescriptorSGD(o, 0.9, 0.5, 1, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetOptimizerDescriptorSGD(o, 0, 0, 1, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetOptimizerDescriptorSGD(o, 0.9, 0, 2, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetOptimizerDescriptorSGD(o, 0.9, 1.5, 0, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetOptimizerDescriptorSGD(o, 0.9, 0, 0, -1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetOptimizerDescriptorSGD(o, INFINITY, 0, 0, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetOptimizerDescriptorAdam(o, 1.0, 0.999, 1e-8, 0, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetOptimizerDescriptorAdam(o, 0.9, -0.1, 1e-8, 0, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetOptimizerDescriptorAdamW(o, 0.9, 0.999, NAN, 0, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetOptimizerDescriptorAdamW(o, 0.9, 0.999, 1e-8, 0, 3));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetOptimizerDescriptorRMSprop(o, -1, 1e-8, 0, 0, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetOptimizerDescriptorRMSprop(o, 0.99, 1e-8, 0, -1, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetOptimizerDescriptorAdagrad(o, -1, 0, 1e-10, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetOptimizerDescriptorAdagrad(o, 0, -1, 1e-10, 0));
    /* unchanged by the failures */
    TU_OK(pdnnGetOptimizerType(o, &ty));
    TU_OK(pdnnGetOptimizerDescriptorSGD(o, &a, &b, &f, &c));
    TU_CHECK(ty == PDNN_OPTIMIZER_SGD && a == 0.9 && b == 0 && f == 1 && c == 1e-4, "SGD round trip");
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetOptimizerDescriptorAdam(o, &a, &b, &c, &d, &f));
    TU_CHECK(last_error_has("SGD"), "wrong-algorithm getter names the algorithm");
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetOptimizerDescriptorSGD(o, &a, NULL, &f, &c));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetOptimizerType(o, NULL));
    /* round trips */
    TU_OK(pdnnSetOptimizerDescriptorAdam(o, 0.8, 0.99, 1e-6, 0.1, 1));
    TU_OK(pdnnGetOptimizerDescriptorAdam(o, &a, &b, &c, &d, &f));
    TU_CHECK(a == 0.8 && b == 0.99 && c == 1e-6 && d == 0.1 && f == 1, "Adam round trip");
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetOptimizerDescriptorAdamW(o, &a, &b, &c, &d, &f));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetOptimizerDescriptorAdam(o, &a, &b, NULL, &d, &f));
    TU_OK(pdnnSetOptimizerDescriptorAdamW(o, 0.7, 0.98, 1e-7, 0.01, 0));
    TU_OK(pdnnGetOptimizerDescriptorAdamW(o, &a, &b, &c, &d, &f));
    TU_CHECK(a == 0.7 && b == 0.98 && c == 1e-7 && d == 0.01 && f == 0, "AdamW round trip");
    double e;
    TU_OK(pdnnSetOptimizerDescriptorRMSprop(o, 0.9, 1e-5, 0.5, 1, 0.2));
    TU_OK(pdnnGetOptimizerDescriptorRMSprop(o, &a, &b, &c, &f, &e));
    TU_CHECK(a == 0.9 && b == 1e-5 && c == 0.5 && f == 1 && e == 0.2, "RMSprop round trip");
    TU_OK(pdnnSetOptimizerDescriptorAdagrad(o, 0.01, 0.1, 1e-9, 0.3));
    TU_OK(pdnnGetOptimizerDescriptorAdagrad(o, &a, &b, &c, &d));
    TU_CHECK(a == 0.01 && b == 0.1 && c == 1e-9 && d == 0.3, "Adagrad round trip");
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetOptimizerDescriptorRMSprop(o, &a, &b, &c, &f, &e));
    pdnnLossDescriptor_t L;
    pdnnCreateLossDescriptor(&L);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetOptimizerDescriptorSGD((pdnnOptimizerDescriptor_t)L, 0, 0, 0, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnDestroyOptimizerDescriptor((pdnnOptimizerDescriptor_t)L));
    pdnnDestroyLossDescriptor(L);
    TU_OK(pdnnDestroyOptimizerDescriptor(o));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetOptimizerType(o, &ty));
    TU_OK(pdnnDestroyOptimizerDescriptor(NULL));
}

/* ------------------------------------------------------------------ optimizer step */

static void test_opt_step(void)
{
    int dims[2] = {2, 3}, dims2[2] = {3, 2}, od[2] = {2, 3};
    pdnnTensorDescriptor_t wD = tu_tensor(PDNN_DATA_FLOAT, 2, dims, NULL);
    pdnnTensorDescriptor_t w2 = tu_tensor(PDNN_DATA_FLOAT, 2, dims2, NULL);
    pdnnTensorDescriptor_t wd = tu_tensor(PDNN_DATA_DOUBLE, 2, dims, NULL);
    pdnnTensorDescriptor_t wh = tu_tensor(PDNN_DATA_HALF, 2, dims, NULL);
    pdnnTensorDescriptor_t wover = tu_tensor(PDNN_DATA_FLOAT, 2, od, (int[]){1, 1});
    pdnnOptimizerDescriptor_t o, unset;
    pdnnCreateOptimizerDescriptor(&o);
    pdnnCreateOptimizerDescriptor(&unset);
    TU_OK(pdnnSetOptimizerDescriptorAdam(o, 0.9, 0.999, 1e-8, 0, 0));
    float w[6], g[6] = {1, 1, 1, 1, 1, 1}, st[12];
    for (int i = 0; i < 6; i++) w[i] = 42;
    size_t sz;
    TU_STATUS(PDNN_STATUS_NOT_INITIALIZED, pdnnGetOptimizerStateSize(NULL, o, wD, &sz));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetOptimizerStateSize(H, unset, wD, &sz));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetOptimizerStateSize(H, o, NULL, &sz));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetOptimizerStateSize(H, o, wD, NULL));
    TU_STATUS(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, pdnnGetOptimizerStateSize(H, o, wh, &sz));
    TU_OK(pdnnGetOptimizerStateSize(H, o, wD, &sz));
    TU_CHECK(sz == sizeof st, "adam state of 6 floats: %zu bytes", sz);

#define STEP(st_, ...) TU_STATUS(st_, pdnnOptimizerStep(__VA_ARGS__))
    const pdnnParamFreeze_t T = PDNN_PARAM_TRAINABLE;
    STEP(PDNN_STATUS_NOT_INITIALIZED, NULL, o, 0.1, 1, T, wD, g, wD, w, st, sizeof st);
    STEP(PDNN_STATUS_BAD_PARAM, H, unset, 0.1, 1, T, wD, g, wD, w, st, sizeof st);
    STEP(PDNN_STATUS_BAD_PARAM, H, (pdnnOptimizerDescriptor_t)wD, 0.1, 1, T, wD, g, wD, w, st, sizeof st);
    STEP(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, H, o, -0.1, 1, T, wD, g, wD, w, st, sizeof st);
    STEP(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, H, o, NAN, 1, T, wD, g, wD, w, st, sizeof st);
    STEP(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, H, o, INFINITY, 1, T, wD, g, wD, w, st, sizeof st);
    STEP(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, H, o, 0.1, 0, T, wD, g, wD, w, st, sizeof st);
    STEP(PDNN_STATUS_BAD_PARAM, H, o, 0.1, 1, (pdnnParamFreeze_t)2, wD, g, wD, w, st, sizeof st);
    STEP(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, o, 0.1, 1, T, NULL, g, wD, w, st, sizeof st);
    STEP(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, o, 0.1, 1, T, wD, NULL, wD, w, st, sizeof st);
    STEP(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, o, 0.1, 1, T, wD, g, wD, NULL, st, sizeof st);
    STEP(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, o, 0.1, 1, T, wD, g, wD, w, NULL, sizeof st);
    STEP(PDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, H, o, 0.1, 1, T, wD, g, wD, w, st, sizeof st - 1);
    TU_CHECK(last_error_has("needs 48 bytes"), "state message gives the bytes needed");
    STEP(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, H, o, 0.1, 1, T, w2, g, wD, w, st, sizeof st);
    STEP(PDNN_STATUS_BAD_PARAM, H, o, 0.1, 1, T, wd, g, wD, w, st, sizeof st);
    STEP(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, H, o, 0.1, 1, T, wh, g, wh, w, st, sizeof st);
    STEP(PDNN_STATUS_BAD_PARAM, H, o, 0.1, 1, T, wD, g, wover, w, st, sizeof st);
    /* frozen still validates its descriptors */
    STEP(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, H, o, 0.1, 1, PDNN_PARAM_FROZEN, w2, NULL, wD, w, NULL, 0);
    STEP(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, o, 0.1, 1, PDNN_PARAM_FROZEN, wD, NULL, wD, NULL, NULL, 0);
    /* w, dw and the state must be pairwise disjoint (w == dw too: w is written while dw
     * is read, so an overlap makes the result depend on the update order) */
    float big[24];
    for (int i = 0; i < 24; i++) big[i] = 42;
    STEP(PDNN_STATUS_BAD_PARAM, H, o, 0.1, 1, T, wD, big, wD, big + 1, st, sizeof st);
    TU_CHECK(last_error_has("overlap"), "w/dw overlap message");
    STEP(PDNN_STATUS_BAD_PARAM, H, o, 0.1, 1, T, wD, w, wD, w, st, sizeof st);
    STEP(PDNN_STATUS_BAD_PARAM, H, o, 0.1, 1, T, wD, g, wD, big, big + 5, sizeof st);
    TU_CHECK(last_error_has("state"), "state/w overlap message names the state");
    STEP(PDNN_STATUS_BAD_PARAM, H, o, 0.1, 1, T, wD, big, wD, w, big + 4, sizeof st);
    for (int i = 0; i < 24; i++) TU_CHECK(big[i] == 42, "step wrote big[%d] on failure", i);
    /* adjacent but disjoint is fine */
    TU_OK(pdnnOptimizerStep(H, o, 0.1, 1, T, wD, big, wD, big + 6, big + 12, sizeof st));
    int bad = 0;
    for (int i = 0; i < 6; i++) bad += w[i] != 42;
    TU_CHECK(bad == 0, "optimizer step wrote w on failure");
    TU_OK(pdnnOptimizerStep(H, o, 0.1, 1, T, wD, g, wD, w, st, sizeof st));
    /* SGD without momentum needs no state */
    TU_OK(pdnnSetOptimizerDescriptorSGD(o, 0, 0, 0, 0));
    TU_OK(pdnnOptimizerStep(H, o, 0.1, 5, T, wD, g, wD, w, NULL, 0));

#define CLIP(st_, ...) TU_STATUS(st_, pdnnClipGradNorm(__VA_ARGS__))
    pdnnTensorDescriptor_t ds[2] = {wD, wD}, dsh[2] = {wD, wh}, dso[1] = {wover};
    float g2[6] = {1, 2, 3, 4, 5, 6}, keep[6];
    memcpy(keep, g2, sizeof g2);
    void *gs[2] = {g, g2}, *gnull[2] = {g, NULL};
    double tot = -1;
    CLIP(PDNN_STATUS_NOT_INITIALIZED, NULL, 2, ds, gs, 1.0, 2.0, &tot);
    CLIP(PDNN_STATUS_BAD_PARAM, H, -1, ds, gs, 1.0, 2.0, &tot);
    CLIP(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, 2, NULL, gs, 1.0, 2.0, &tot);
    CLIP(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, 2, ds, NULL, 1.0, 2.0, &tot);
    CLIP(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, 2, ds, gnull, 1.0, 2.0, &tot);
    CLIP(PDNN_STATUS_BAD_PARAM_NULL_POINTER, H, 2, ds, gs, 1.0, 2.0, NULL);
    CLIP(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, H, 2, ds, gs, -1.0, 2.0, &tot);
    CLIP(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, H, 2, ds, gs, NAN, 2.0, &tot);
    CLIP(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, H, 2, ds, gs, 1.0, 0.0, &tot);
    CLIP(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, H, 2, ds, gs, 1.0, -INFINITY, &tot);
    CLIP(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, H, 2, ds, gs, 1.0, NAN, &tot);
    CLIP(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, H, 2, dsh, gs, 1.0, 2.0, &tot);
    TU_CHECK(last_error_has("gradDescs[1]"), "clip message names the tensor");
    CLIP(PDNN_STATUS_BAD_PARAM, H, 1, dso, gs, 1.0, 2.0, &tot);
    pdnnTensorDescriptor_t gone = tu_tensor(PDNN_DATA_FLOAT, 2, dims, NULL), dsg[2] = {wD, gone};
    pdnnDestroyTensorDescriptor(gone);
    CLIP(PDNN_STATUS_BAD_PARAM, H, 2, dsg, gs, 1.0, 2.0, &tot);
    /* a tensor listed twice, or two overlapping views: refused, naming both indices */
    pdnnTensorDescriptor_t ds3[3] = {wD, wD, wD};
    void *twice[3] = {g, g2, g2}, *shifted[3] = {g2, g, (float *)g2 + 5};
    CLIP(PDNN_STATUS_BAD_PARAM, H, 3, ds3, twice, 1.0, 2.0, &tot);
    TU_CHECK(last_error_has("grads[1]") && last_error_has("grads[2]"),
             "clip overlap message names both indices");
    CLIP(PDNN_STATUS_BAD_PARAM, H, 3, ds3, shifted, 1.0, 2.0, &tot);
    TU_CHECK(last_error_has("grads[0]") && last_error_has("grads[2]"),
             "clip overlap message names both indices");
    TU_CHECK(tot == -1 && !memcmp(keep, g2, sizeof g2), "clip wrote on failure");

    pdnnDestroyOptimizerDescriptor(o), pdnnDestroyOptimizerDescriptor(unset);
    pdnnTensorDescriptor_t all[] = {wD, w2, wd, wh, wover};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) pdnnDestroyTensorDescriptor(all[i]);
}

/* ------------------------------------------------------------------ schedules */

static void test_sched(void)
{
    pdnnScheduleDescriptor_t s;
    pdnnScheduleType_t ty;
    double a, b, c, d, e, r = 7;
    int64_t i1, i2;
    int f, nb;
    pdnnAnnealStrategy_t an;
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnCreateScheduleDescriptor(NULL));
    TU_OK(pdnnCreateScheduleDescriptor(&s));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetScheduleRate(s, 0, &r)); /* unset */
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetScheduleType(s, &ty));
    TU_OK(pdnnSetScheduleDescriptorStep(s, 0.1, 10, 0.5));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetScheduleDescriptorConstant(s, -1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetScheduleDescriptorConstant(s, NAN));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetScheduleDescriptorStep(s, 0.1, 0, 0.5));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetScheduleDescriptorStep(s, 0.1, 3, -0.5));
    int64_t ms[2] = {3, -1}, many[PDNN_SCHEDULE_MILESTONES_MAX + 1] = {0};
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetScheduleDescriptorMultiStep(s, 0.1, 2, ms, 0.1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnSetScheduleDescriptorMultiStep(s, 0.1, 2, NULL, 0.1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
              pdnnSetScheduleDescriptorMultiStep(s, 0.1, PDNN_SCHEDULE_MILESTONES_MAX + 1, many, 0.1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetScheduleDescriptorMultiStep(s, 0.1, -1, ms, 0.1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetScheduleDescriptorExponential(s, 0.1, INFINITY));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetScheduleDescriptorCosine(s, 0.1, 0, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetScheduleDescriptorCosine(s, 0.1, 10, -1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetScheduleDescriptorWarmupCosine(s, 0.1, 10, 10, 0.1, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetScheduleDescriptorWarmupCosine(s, 0.1, -1, 10, 0.1, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetScheduleDescriptorWarmupCosine(s, 0.1, 2, 10, 1.5, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
              pdnnSetScheduleDescriptorOneCycle(s, 1, 50, 0.01, 25, 1e4, PDNN_ANNEAL_COS, 0)); /* 0-length phase */
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
              pdnnSetScheduleDescriptorOneCycle(s, 1, 50, 1.0, 25, 1e4, PDNN_ANNEAL_COS, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
              pdnnSetScheduleDescriptorOneCycle(s, 1, 50, 0.3, 0, 1e4, PDNN_ANNEAL_COS, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
              pdnnSetScheduleDescriptorOneCycle(s, 1, 50, 0.3, 25, -1, PDNN_ANNEAL_COS, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM,
              pdnnSetScheduleDescriptorOneCycle(s, 1, 50, 0.3, 25, 1e4, (pdnnAnnealStrategy_t)2, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
              pdnnSetScheduleDescriptorOneCycle(s, 1, 50, 0.3, 25, 1e4, PDNN_ANNEAL_COS, 2));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetScheduleDescriptorPolynomial(s, 0.1, 0, 1, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetScheduleDescriptorPolynomial(s, 0.1, 10, -1, 0));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetScheduleDescriptorPolynomial(s, 0.1, 10, 1, -0.1));
    /* unchanged by the failures */
    TU_OK(pdnnGetScheduleType(s, &ty));
    TU_OK(pdnnGetScheduleDescriptorStep(s, &a, &i1, &b));
    TU_CHECK(ty == PDNN_SCHEDULE_STEP && a == 0.1 && i1 == 10 && b == 0.5, "step round trip");
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetScheduleDescriptorCosine(s, &a, &i1, &b));
    TU_CHECK(last_error_has("STEP"), "wrong-kind getter names the kind");
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetScheduleDescriptorStep(s, &a, NULL, &b));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnGetScheduleRate(s, -1, &r));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetScheduleRate(s, 0, NULL));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetScheduleRate(NULL, 0, &r));
    TU_CHECK(r == 7, "rate written on failure");
    /* round trips */
    TU_OK(pdnnSetScheduleDescriptorConstant(s, 0.5));
    TU_OK(pdnnGetScheduleDescriptorConstant(s, &a));
    TU_CHECK(a == 0.5, "constant round trip");
    int64_t m3[3] = {9, 4, 7}, got[3] = {0, 0, 0};
    TU_OK(pdnnSetScheduleDescriptorMultiStep(s, 0.2, 3, m3, 0.3));
    TU_OK(pdnnGetScheduleDescriptorMultiStep(s, &a, 2, &nb, got, &b));
    TU_CHECK(a == 0.2 && nb == 3 && got[0] == 9 && got[1] == 4 && got[2] == 0 && b == 0.3,
             "multistep round trip (2 of 3 requested)");
    TU_OK(pdnnGetScheduleDescriptorMultiStep(s, &a, 0, &nb, NULL, &b));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_NULL_POINTER, pdnnGetScheduleDescriptorMultiStep(s, &a, 3, &nb, NULL, &b));
    TU_OK(pdnnSetScheduleDescriptorExponential(s, 0.3, 0.9));
    TU_OK(pdnnGetScheduleDescriptorExponential(s, &a, &b));
    TU_CHECK(a == 0.3 && b == 0.9, "exponential round trip");
    TU_OK(pdnnSetScheduleDescriptorCosine(s, 0.3, 77, 0.01));
    TU_OK(pdnnGetScheduleDescriptorCosine(s, &a, &i1, &b));
    TU_CHECK(a == 0.3 && i1 == 77 && b == 0.01, "cosine round trip");
    TU_OK(pdnnSetScheduleDescriptorWarmupCosine(s, 0.3, 5, 50, 0.1, 0.02));
    TU_OK(pdnnGetScheduleDescriptorWarmupCosine(s, &a, &i1, &i2, &b, &c));
    TU_CHECK(a == 0.3 && i1 == 5 && i2 == 50 && b == 0.1 && c == 0.02, "warmup-cosine round trip");
    TU_OK(pdnnSetScheduleDescriptorOneCycle(s, 2, 90, 0.25, 10, 100, PDNN_ANNEAL_LINEAR, 1));
    TU_OK(pdnnGetScheduleDescriptorOneCycle(s, &a, &i1, &b, &c, &d, &an, &f));
    TU_CHECK(a == 2 && i1 == 90 && b == 0.25 && c == 10 && d == 100 && an == PDNN_ANNEAL_LINEAR && f == 1,
             "one-cycle round trip");
    TU_OK(pdnnGetScheduleRate(s, 90, &r));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnGetScheduleRate(s, 91, &r));
    TU_OK(pdnnSetScheduleDescriptorPolynomial(s, 0.3, 40, 2, 0.001));
    TU_OK(pdnnGetScheduleDescriptorPolynomial(s, &a, &i1, &b, &e));
    TU_CHECK(a == 0.3 && i1 == 40 && b == 2 && e == 0.001, "polynomial round trip");
    TU_OK(pdnnGetScheduleType(s, &ty));
    TU_CHECK(ty == PDNN_SCHEDULE_POLYNOMIAL, "type %d", ty);
    pdnnOptimizerDescriptor_t o;
    pdnnCreateOptimizerDescriptor(&o);
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnSetScheduleDescriptorConstant((pdnnScheduleDescriptor_t)o, 1));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetScheduleRate((pdnnScheduleDescriptor_t)o, 0, &r));
    pdnnDestroyOptimizerDescriptor(o);
    TU_OK(pdnnDestroyScheduleDescriptor(s));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnDestroyScheduleDescriptor(s));
    TU_STATUS(PDNN_STATUS_BAD_PARAM, pdnnGetScheduleRate(s, 0, &r));
    TU_OK(pdnnDestroyScheduleDescriptor(NULL));
}

int main(void)
{
    TU_OK(pdnnCreate(&H));
    test_loss_desc();
    test_loss_calls();
    test_opt_desc();
    test_opt_step();
    test_sched();
    pdnnDestroy(H);
    return tu_finish("api/train");
}
