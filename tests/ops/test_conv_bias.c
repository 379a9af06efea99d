/* The fast paths of the convolution epilogues (src/ops/conv/cpu/conv_cpu_bias.c) against
 * the reference loops beside them (conv_ref.c) at random shapes: bias + RELU/IDENTITY
 * bitwise equal to the reference (FLOAT and DOUBLE, NaN propagated or not, -0, huge
 * values), the bias gradient within 1e-12 of a double oracle written here and bitwise
 * equal for 1 and 2 threads; layouts the fast paths do not take are refused (false,
 * nothing written). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ops/conv/conv_internal.h"
#include "testutil.h"
#include "tu_layout.h"

static void rand_dims(int nb, int *dims)
{
    dims[0] = tu_int(1, 3);
    dims[1] = tu_int(1, 6);
    for (int i = 2; i < nb; i++) dims[i] = tu_int(1, 9);
}

static double special(void)
{
    switch (tu_int(0, 9)) {
    case 0: return NAN;
    case 1: return -0.0;
    case 2: return 1e30;
    case 3: return -1e30;
    default: return tu_uniform(-2, 2);
    }
}

static void test_bias_act(pdnnDataType_t t, int it)
{
    const int nb = tu_int(3, 5);
    int dims[5], st[5], bdims[5] = {1, 1, 1, 1, 1}, bst[5];
    rand_dims(nb, dims);
    tu_layout_strides(nb, dims, TU_LAYOUT_PACKED, st);
    bdims[1] = dims[1];
    tu_layout_strides(nb, bdims, TU_LAYOUT_PACKED, bst);
    const size_t n = (size_t)tu_layout_numel(nb, dims);
    pdnnTensorDescriptor_t yd = tu_tensor(t, nb, dims, st), bd = tu_tensor(t, nb, bdims, bst);
    void *y0 = tu_alloc(t, n), *b = tu_alloc(t, (size_t)dims[1]);
    for (size_t i = 0; i < n; i++) tu_put(y0, t, i, special());
    for (int k = 0; k < dims[1]; k++) tu_put(b, t, (size_t)k, tu_uniform(-1, 1));
    pdnnActivationDescriptor_t ad;
    TU_OK(pdnnCreateActivationDescriptor(&ad));
    const pdnnActivationMode_t m = it % 2 ? PDNN_ACTIVATION_RELU : PDNN_ACTIVATION_IDENTITY;
    TU_OK(pdnnSetActivationDescriptor(ad, m, it % 3 ? PDNN_PROPAGATE_NAN : PDNN_NOT_PROPAGATE_NAN,
                                      0.0));
    const size_t bytes = n * tu_esize(t);
    void *yr = malloc(bytes), *yf = malloc(bytes);
    memcpy(yr, y0, bytes);
    memcpy(yf, y0, bytes);
    pdnn_conv_ref_bias_act(yd, yr, NULL, NULL, 0.0, bd, b, ad, 1);
    TU_CHECK(pdnn_conv_cpu_bias_act(yd, yf, bd, b, ad, 1 + it % 2), "bias-act fast path refused");
    TU_CHECK(tu_bitwise_equal(yr, yf, bytes), "bias-act %s mode %d: differs from the reference",
             t == PDNN_DATA_FLOAT ? "f32" : "f64", (int)m);
    /* a gapped layout and a smooth activation are left to the reference */
    int gst[5];
    tu_layout_strides(nb, dims, TU_LAYOUT_GAPPED, gst);
    bool packed = true;
    for (int i = nb - 1, s = 1; i >= 2; i--) {
        if (dims[i] > 1 && gst[i] != s) packed = false;
        s *= dims[i];
    }
    if (!packed) {
        pdnnTensorDescriptor_t gd = tu_tensor(t, nb, dims, gst);
        memcpy(yf, y0, bytes);
        TU_CHECK(!pdnn_conv_cpu_bias_act(gd, yf, bd, b, ad, 1), "gapped layout taken");
        TU_CHECK(tu_bitwise_equal(yf, y0, bytes), "refusal wrote y");
        pdnnDestroyTensorDescriptor(gd);
    }
    TU_OK(pdnnSetActivationDescriptor(ad, PDNN_ACTIVATION_TANH, PDNN_PROPAGATE_NAN, 0.0));
    TU_CHECK(!pdnn_conv_cpu_bias_act(yd, yf, bd, b, ad, 1), "tanh taken");
    free(yr), free(yf), free(y0), free(b);
    pdnnDestroyActivationDescriptor(ad);
    pdnnDestroyTensorDescriptor(yd);
    pdnnDestroyTensorDescriptor(bd);
}

static void test_bwd_bias(pdnnDataType_t t, int it)
{
    const int nb = tu_int(3, 5);
    int dims[5], st[5], bdims[5] = {1, 1, 1, 1, 1}, bst[5];
    rand_dims(nb, dims);
    if (it % 4 == 0) dims[nb - 1] = 37; /* runs longer than the 8 partial sums */
    tu_layout_strides(nb, dims, it % 3 == 0 ? TU_LAYOUT_CHANNELS_LAST : TU_LAYOUT_PACKED, st);
    bdims[1] = dims[1];
    tu_layout_strides(nb, bdims, TU_LAYOUT_PACKED, bst);
    const size_t n = (size_t)tu_layout_numel(nb, dims);
    const size_t span = (size_t)tu_layout_span(nb, dims, st);
    pdnnTensorDescriptor_t yd = tu_tensor(t, nb, dims, st), bd = tu_tensor(t, nb, bdims, bst);
    void *dy = tu_alloc(t, span);
    double ref[8] = {0};
    for (size_t i = 0; i < n; i++) {
        const double v = tu_uniform(-1, 1);
        tu_put(dy, t, (size_t)tu_layout_offset(nb, dims, st, (int64_t)i), v);
        /* element i in logical order: channel (i / spatial) % C */
        size_t sp = n / ((size_t)dims[0] * (size_t)dims[1]);
        ref[(i / sp) % (size_t)dims[1]] += t == PDNN_DATA_FLOAT ? (double)(float)v : v;
    }
    const double alpha = 1.5, beta = it % 2 ? 0.0 : -0.5;
    void *d1 = tu_alloc(t, (size_t)dims[1]), *d2 = tu_alloc(t, (size_t)dims[1]);
    double b0[8];
    for (int k = 0; k < dims[1]; k++) {
        b0[k] = beta == 0 ? NAN : tu_uniform(-1, 1);
        tu_put(d1, t, (size_t)k, b0[k]);
        tu_put(d2, t, (size_t)k, b0[k]);
    }
    bool took = pdnn_conv_cpu_bwd_bias(yd, dy, bd, d1, alpha, beta, 1);
    bool nhwc = it % 3 == 0 && dims[1] > 1;
    bool sp_packed = true;
    for (int i = nb - 1, s = 1; i >= 2; i--) {
        if (dims[i] > 1 && st[i] != s) sp_packed = false;
        s *= dims[i];
    }
    TU_CHECK(took == sp_packed, "bwd bias: taken %d, spatial packed %d (nhwc %d)", took,
             sp_packed, nhwc);
    if (took) {
        TU_CHECK(pdnn_conv_cpu_bwd_bias(yd, dy, bd, d2, alpha, beta, 2), "bwd bias 2 threads");
        double want[8];
        for (int k = 0; k < dims[1]; k++) want[k] = alpha * ref[k] + (beta != 0 ? beta * b0[k] : 0);
        const double err = tu_rel_err(want, d1, t, (size_t)dims[1]);
        TU_CHECK(err <= (t == PDNN_DATA_FLOAT ? 1e-6 : 1e-12), "bwd bias rel err %.3g", err);
        TU_CHECK(tu_bitwise_equal(d1, d2, (size_t)dims[1] * tu_esize(t)),
                 "bwd bias: 1 and 2 threads differ");
    } else {
        TU_CHECK(isnan(tu_get(d1, t, 0)) == isnan(b0[0]), "refusal wrote db");
    }
    free(dy), free(d1), free(d2);
    pdnnDestroyTensorDescriptor(yd);
    pdnnDestroyTensorDescriptor(bd);
}

int main(void)
{
    tu_seed(4242);
    for (int it = 0; it < 60; it++) {
        const pdnnDataType_t t = it % 2 ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        test_bias_act(t, it / 2);
        test_bwd_bias(t, it / 2);
    }
    return tu_finish("ops/conv_bias");
}
