/* The few-input-channel forward on zero-padded phase planes (conv_cpu_direct_fewc_pad.c,
 * "cpu:direct_fewc_pad": DIRECT, AVX2 exactly; the test caps the ISA at AVX2 so that it
 * runs on AVX-512 machines too) against the independent oracle of tests/common/tu_conv.h,
 * run through its registry entry with exactly its workspace: random problems inside its
 * rules (1-4 input channels, 8-40 output channels: whole and partial 4-channel blocks;
 * 1-d and 2-d; strides 1-4 and dilations 1-3 along each dim, odd and even sizes, so every
 * stride phase and both deinterleave offsets; rows of 1-40 columns: partial last vectors,
 * bands of 1-3 vectors; any padding on each side, also wider than the filter; filters up
 * to 9 x 9 within 256 taps over the channels; x packed, channels-last or gapped (the
 * copy reads any strides); flip, KRSC; minibatch 1-3), exact on small integers, beta !=
 * 0 and NaN-poisoned outputs (beta == 0), alpha 1 / 2 / -0.5, 1 and 2 threads bitwise
 * (the harness); the four first layers of bench/shapes reduced; the refusals, each with
 * its reason; a case worked by hand (the padding adds w * 0: an Inf weight that meets
 * only padding gives NaN, as im2col's zeros do); the public API with DIRECT (dispatch
 * and workspace), and that the algorithm query ranks DIRECT first for LeNet's first
 * layer and ResNet-50's 7 x 7 stem. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"
#include "tu_conv.h"
#include "tu_layout.h"

extern const pdnn_impl pdnn_conv_fwd_cpu_direct_fewc_pad;
static const pdnn_impl *const im = &pdnn_conv_fwd_cpu_direct_fewc_pad;

/* Random problems inside the rules: at most 256 taps over the channels. */
static tu_conv_shape rand_shape(void)
{
    static const int ks[] = {8, 9, 12, 13, 16, 24, 31, 40};
    for (;;) {
        const bool two = tu_int(0, 3) != 0;
        const int c = tu_int(1, 4);
        const int r = two ? tu_int(1, 9) : 1, s = tu_int(1, 9);
        if (c * r * s > 256) continue;
        tu_conv_shape sh;
        if (two) {
            sh = tu_conv_shape2d(PDNN_DATA_FLOAT, tu_int(1, 3), 1, c, ks[tu_int(0, 7)],
                                 tu_int(1, 20), tu_int(1, 40), r, s, 1, 0, 1);
            sh.str[0] = tu_int(1, 4);
            sh.dil[0] = tu_int(0, 3) == 0 ? tu_int(2, 3) : 1;
            sh.str[1] = tu_int(1, 4);
            sh.dil[1] = tu_int(0, 3) == 0 ? tu_int(2, 3) : 1;
            sh.pb[0] = tu_int(0, r + 1);
            sh.pe[0] = tu_int(0, r + 1);
        } else {
            sh = tu_conv_shape1d(PDNN_DATA_FLOAT, tu_int(1, 3), 1, c, ks[tu_int(0, 7)],
                                 tu_int(1, 60), s, tu_int(1, 4), 0, 1);
            sh.dil[0] = tu_int(0, 3) == 0 ? tu_int(2, 3) : 1;
        }
        const int cd = two ? 1 : 0; /* the column dim */
        sh.pb[cd] = tu_int(0, s + 1);
        sh.pe[cd] = tu_int(0, s + 1);
        sh.flip = tu_int(0, 2) == 0;
        sh.krsc = tu_int(0, 2) == 0;
        sh.xkind = tu_int(0, 3); /* packed, channels-last, gapped */
        bool fits = true;
        for (int d = 0; d < sh.nsp; d++)
            fits = fits && sh.in[d] + sh.pb[d] + sh.pe[d] >= (sh.kern[d] - 1) * sh.dil[d] + 1;
        if (!fits) continue;
        tu_conv_finish_shape(&sh);
        return sh;
    }
}

static void test_random(void)
{
    static const double al[] = {1, 2, -0.5}, be[] = {0, 0.5, 0, -1.5};
    for (int i = 0; i < 150; i++) {
        tu_conv_shape s = rand_shape();
        tu_conv_check(im, &s, PDNN_CONV_FWD, i % 5 != 3, al[i % 3], be[i % 4], 0, true);
    }
    /* the first layers of bench/shapes, reduced: LeNet's conv1, MobileNet-v2's stride-2
     * stem, ResNet-50's 7 x 7 stride-2 stem (147 taps), VGG-16's conv1_1; then rows of
     * exactly 1-4 vectors, and 8 + 1 columns */
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 1, 32, 28, 28, 5, 5, 1, 2, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 3, 32, 32, 32, 3, 3, 2, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3, 64, 30, 30, 7, 7, 2, 3, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, false, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3, 64, 24, 24, 3, 3, 1, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0.5, 0, true);
    for (int v = 1; v <= 4; v++) {
        s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 4, 8 * v, 3, 3, 1, 1, 1);
        tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0.5, 0, true);
    }
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 3, 1, 4, 12, 5, 9, 3, 3, 1, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 2, 0, 0, true);
}

static void refuse(const tu_conv_shape *s, const char *what)
{
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, s, PDNN_CONV_FWD);
    const char *why = NULL;
    const bool ok = im->supports(&cs.p, &why);
    TU_CHECK(!ok && why && why[0], "%s: supported (or no reason)", what);
}

static void test_refusals(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 20, 20, 3, 3, 5, 1, 1);
    refuse(&s, "stride 5");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3, 64, 32, 32, 9, 10, 2, 3, 1);
    refuse(&s, "270 taps over the channels");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 2, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    refuse(&s, "2 groups");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 5, 8, 9, 9, 3, 3, 1, 1, 1);
    refuse(&s, "5 input channels");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 7, 9, 9, 3, 3, 1, 1, 1);
    refuse(&s, "7 output channels");
    s = tu_conv_shape2d(PDNN_DATA_DOUBLE, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    refuse(&s, "DOUBLE");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    s.ykind = TU_LAYOUT_CHANNELS_LAST;
    refuse(&s, "channels-last y");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    s.nsp = 3;
    s.in[2] = 2;
    s.kern[2] = 1;
    s.str[2] = s.dil[2] = 1;
    tu_conv_finish_shape(&s);
    refuse(&s, "3-d");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 8, 9000, 9000, 1, 1, 1, 0, 1);
    refuse(&s, "planes of one image above 256 MiB");
}

/* 1 channel, 8 output channels, 3 x 3 padding 1 on 4 x 4 ones; every weight 1 but output
 * channel 0's top-left tap, Inf. Output (0, 0) of channel 0 meets that tap only in the
 * padding, which this path adds as Inf * 0: NaN (the reference skips it: 4); output
 * (1, 1) meets it at x(0, 0): Inf; the other channels see 4 (corners), 6 (edges), 9
 * (inside). */
static void test_by_hand(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 8, 4, 4, 3, 3, 1, 1, 1);
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
    float x[16], w[72], y[128];
    for (int i = 0; i < 16; i++) x[i] = 1.0f;
    for (int i = 0; i < 72; i++) w[i] = 1.0f;
    w[0] = INFINITY;
    for (int i = 0; i < 128; i++) y[i] = -7.0f;
    TU_OK(tu_conv_run_impl(im, &cs.p, x, w, y, 1.0, 0.0, 1));
    TU_CHECK(isnan(y[0]), "corner of channel 0: %g, expected NaN (Inf * 0)", (double)y[0]);
    TU_CHECK(isinf(y[5]) && y[5] > 0, "(1, 1) of channel 0: %g, expected inf", (double)y[5]);
    for (int k = 1; k < 8; k++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                const int edges = (i == 0 || i == 3) + (j == 0 || j == 3);
                const float want = edges == 2 ? 4.0f : edges == 1 ? 6.0f : 9.0f;
                TU_CHECK(y[k * 16 + i * 4 + j] == want, "channel %d (%d, %d): %g, expected %g",
                         k, i, j, (double)y[k * 16 + i * 4 + j], (double)want);
            }
}

static void test_api(void)
{
    pdnnHandle_t h;
    TU_OK(pdnnCreate(&h));
    for (int i = 0; i < 8; i++) {
        tu_conv_shape s = rand_shape();
        tu_conv_api_check_direct(h, &s, PDNN_CONV_FWD, PDNN_CONVOLUTION_FWD_ALGO_DIRECT, im,
                                 i % 3 ? 0.0 : 0.5);
    }
    /* the model ranks DIRECT (this path) first for LeNet's 5 x 5 1 -> 32 layer and
     * ResNet-50's 7 x 7 stride-2 stem */
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 32, 1, 1, 32, 28, 28, 5, 5, 1, 2, 1);
    tu_conv_check_ranked_first(h, &s, PDNN_CONV_FWD, PDNN_CONVOLUTION_FWD_ALGO_DIRECT, im,
                               "LeNet conv1");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3, 64, 224, 224, 7, 7, 2, 3, 1);
    tu_conv_check_ranked_first(h, &s, PDNN_CONV_FWD, PDNN_CONVOLUTION_FWD_ALGO_DIRECT, im,
                               "ResNet-50 conv1");
    pdnnDestroy(h);
}

int main(void)
{
    tu_seed(4343);
    /* the path serves AVX2 exactly: cap an AVX-512 machine there */
    setenv("PDNN_MAX_CPU_ISA", "avx2", 1);
    pdnn_cpu_isa_reread();
    if (pdnn_cpu_isa() != PDNN_ISA_AVX2) {
        tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 32, 28, 28, 5, 5, 1, 2, 1);
        refuse(&s, "LeNet conv1 without AVX2");
        printf("conv fewc_pad: no AVX2, the path is not run\n");
        return tu_finish("ops/conv_fewc_pad");
    }
    test_by_hand();
    test_refusals();
    test_random();
    test_api();
    printf("conv fewc_pad: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_fewc_pad");
}
