/* The direct convolution on zero-padded stride-phase planes (conv_cpu_direct_phase.c,
 * "cpu:direct_phase": forward DIRECT and backward data ALGO_0, AVX2 exactly; the test
 * caps the ISA at AVX2 so that it runs on AVX-512 machines too) against the independent
 * oracle of tests/common/tu_conv.h, run through its registry entries with exactly their
 * workspace, exact on small integers, beta != 0 and NaN-poisoned outputs (beta == 0),
 * alpha 1 / 2 / -0.5, 1 and 2 threads bitwise (the harness):
 *  - forward: random problems inside its rules (1-4 and 5-40 input channels: one to
 *    three chunks of the sums, written at once or through the scratch; 8-40 output
 *    channels: whole and partial 4-channel blocks; 1-d and 2-d; strides 1-4 and
 *    dilations 1-3 along each dim, odd and even sizes, so every stride phase and both
 *    deinterleave offsets; rows of 1-40 columns: partial last vectors, bands of 1-3
 *    vectors; any padding on each side, also wider than the filter; filters up to 8 x 8
 *    but 1 x 1; x packed, channels-last or gapped (the copy reads any strides); flip,
 *    KRSC; minibatch 1-3); the first layers of bench/shapes and ResNet-50's stride-2
 *    3 x 3, reduced; the refusals; a case worked by hand (the padding adds w * 0: an Inf
 *    weight that meets only padding gives NaN, as im2col's zeros do);
 *  - backward data: random problems inside its rules (1-40 dx channels; 1-40 dy
 *    channels: one to three chunks of the sums; 1-d and 2-d; stride 1 and 2 along each
 *    dim with odd and even sizes, so phases of unequal sizes and phases that no tap
 *    reaches; dilation 1-3; any padding; filters up to 8 x 8 but 1 x 1; dy packed,
 *    channels-last or gapped; flip, KRSC; minibatch 1-3); ResNet-50's stride-2 3 x 3 and
 *    7 x 7 stem and MobileNet-v2's stem, reduced; the refusals;
 *  - the public API with DIRECT / ALGO_0 (dispatch and workspace), and that the
 *    algorithm query ranks this path first for LeNet's first layer and ResNet-50's 7 x 7
 *    stem (forward), ResNet-50's stride-2 3 x 3 layer on 14 x 14 and MobileNet-v2's stem
 *    at minibatch 1 (backward data). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu/isa.h"
#include "tu_conv.h"
#include "tu_layout.h"

extern const pdnn_impl pdnn_conv_fwd_cpu_direct_phase;
extern const pdnn_impl pdnn_conv_bwd_data_cpu_direct_phase;
static const pdnn_impl *const imf = &pdnn_conv_fwd_cpu_direct_phase;
static const pdnn_impl *const im = &pdnn_conv_bwd_data_cpu_direct_phase;

/* The refusals both directions share: 2 groups, DOUBLE, 3-d. */
static void common_refusals(const pdnn_impl *e, pdnn_conv_dir dir)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 2, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    tu_conv_check_refused(e, &s, dir, "2 groups");
    s = tu_conv_shape2d(PDNN_DATA_DOUBLE, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    tu_conv_check_refused(e, &s, dir, "DOUBLE");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    s.nsp = 3;
    s.in[2] = 2;
    s.kern[2] = 1;
    s.str[2] = s.dil[2] = 1;
    tu_conv_finish_shape(&s);
    tu_conv_check_refused(e, &s, dir, "3-d");
}


/* Forward: random problems inside the rules (taps up to 8 x 8, not 1 x 1). */
static tu_conv_shape fwd_shape(void)
{
    static const int ks[] = {8, 9, 12, 13, 16, 24, 31, 40};
    for (;;) {
        const bool two = tu_int(0, 3) != 0;
        const int c = tu_int(0, 3) ? tu_int(1, 4) : tu_int(5, 40);
        const int r = two ? tu_int(1, 8) : 1, s = tu_int(1, 8);
        if (r * s == 1) continue;
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

static void test_fwd_random(void)
{
    static const double al[] = {1, 2, -0.5}, be[] = {0, 0.5, 0, -1.5};
    for (int i = 0; i < 150; i++) {
        tu_conv_shape s = fwd_shape();
        tu_conv_check(imf, &s, PDNN_CONV_FWD, i % 5 != 3, al[i % 3], be[i % 4], 0, true);
    }
    /* the first layers of bench/shapes, reduced: LeNet's conv1, MobileNet-v2's stride-2
     * stem, ResNet-50's 7 x 7 stride-2 stem (147 taps), VGG-16's conv1_1; then rows of
     * exactly 1-4 vectors, and 8 + 1 columns */
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 1, 32, 28, 28, 5, 5, 1, 2, 1);
    tu_conv_check(imf, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 3, 32, 32, 32, 3, 3, 2, 1, 1);
    tu_conv_check(imf, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3, 64, 30, 30, 7, 7, 2, 3, 1);
    tu_conv_check(imf, &s, PDNN_CONV_FWD, false, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3, 64, 24, 24, 3, 3, 1, 1, 1);
    tu_conv_check(imf, &s, PDNN_CONV_FWD, true, 1, 0.5, 0, true);
    for (int v = 1; v <= 4; v++) {
        s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 4, 8 * v, 3, 3, 1, 1, 1);
        tu_conv_check(imf, &s, PDNN_CONV_FWD, true, 1, 0.5, 0, true);
    }
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 3, 1, 4, 12, 5, 9, 3, 3, 1, 1, 1);
    tu_conv_check(imf, &s, PDNN_CONV_FWD, true, 2, 0, 0, true);
    /* ResNet-50's stride-2 3 x 3 on 14 x 14 (reduced channels: three chunks of the sums,
     * through the scratch) */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 40, 12, 14, 14, 3, 3, 2, 1, 1);
    tu_conv_check(imf, &s, PDNN_CONV_FWD, true, 1, 0.5, 0, true);
}

static void test_fwd_refusals(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 20, 20, 3, 3, 5, 1, 1);
    tu_conv_check_refused(imf, &s, PDNN_CONV_FWD, "stride 5");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3, 64, 32, 32, 9, 10, 2, 3, 1);
    tu_conv_check_refused(imf, &s, PDNN_CONV_FWD, "90 taps a channel");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 8, 8, 9, 9, 1, 1, 1, 0, 1);
    tu_conv_check_refused(imf, &s, PDNN_CONV_FWD, "1 x 1 filter");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    s.ykind = TU_LAYOUT_CHANNELS_LAST;
    tu_conv_check_refused(imf, &s, PDNN_CONV_FWD, "channels-last y");
    common_refusals(imf, PDNN_CONV_FWD);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 8, 9000, 9000, 1, 1, 1, 0, 1);
    tu_conv_check_refused(imf, &s, PDNN_CONV_FWD, "x planes of one image above 256 MiB");
}

/* 1 channel, 8 output channels, 3 x 3 padding 1 on 4 x 4 ones; every weight 1 but output
 * channel 0's top-left tap, Inf. Output (0, 0) of channel 0 meets that tap only in the
 * padding, which this path adds as Inf * 0: NaN (the reference skips it: 4); output
 * (1, 1) meets it at x(0, 0): Inf; the other channels see 4 (corners), 6 (edges), 9
 * (inside). */
static void test_fwd_by_hand(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 8, 4, 4, 3, 3, 1, 1, 1);
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
    float x[16], w[72], y[128];
    for (int i = 0; i < 16; i++) x[i] = 1.0f;
    for (int i = 0; i < 72; i++) w[i] = 1.0f;
    w[0] = INFINITY;
    for (int i = 0; i < 128; i++) y[i] = -7.0f;
    TU_OK(tu_conv_run_impl(imf, &cs.p, x, w, y, 1.0, 0.0, 1));
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

static void test_fwd_api(pdnnHandle_t h)
{
    for (int i = 0; i < 8; i++) {
        tu_conv_shape s = fwd_shape();
        tu_conv_api_check_direct(h, &s, PDNN_CONV_FWD, PDNN_CONVOLUTION_FWD_ALGO_DIRECT, imf,
                                 i % 3 ? 0.0 : 0.5);
    }
    /* the model ranks DIRECT (this path) first for LeNet's 5 x 5 1 -> 32 layer and
     * ResNet-50's 7 x 7 stride-2 stem */
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 32, 1, 1, 32, 28, 28, 5, 5, 1, 2, 1);
    tu_conv_check_ranked_first(h, &s, PDNN_CONV_FWD, PDNN_CONVOLUTION_FWD_ALGO_DIRECT, imf,
                               "LeNet conv1");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3, 64, 224, 224, 7, 7, 2, 3, 1);
    tu_conv_check_ranked_first(h, &s, PDNN_CONV_FWD, PDNN_CONVOLUTION_FWD_ALGO_DIRECT, imf,
                               "ResNet-50 conv1");
}

/* Backward data: random problems inside the rules. */
static tu_conv_shape rand_shape(void)
{
    for (;;) {
        const bool two = tu_int(0, 3) != 0;
        const int r = two ? tu_int(1, 8) : 1, s = tu_int(1, 8);
        if (r * s == 1) continue; /* the 1x1 path's */
        tu_conv_shape sh;
        if (two) {
            sh = tu_conv_shape2d(PDNN_DATA_FLOAT, tu_int(1, 3), 1, tu_int(1, 40), tu_int(1, 40),
                                 tu_int(1, 16), tu_int(1, 30), r, s, 1, 0, 1);
            sh.str[0] = tu_int(1, 2);
            sh.dil[0] = tu_int(0, 3) == 0 ? tu_int(2, 3) : 1;
            sh.str[1] = tu_int(1, 2);
            sh.dil[1] = tu_int(0, 3) == 0 ? tu_int(2, 3) : 1;
            sh.pb[0] = tu_int(0, r + 1);
            sh.pe[0] = tu_int(0, r + 1);
        } else {
            sh = tu_conv_shape1d(PDNN_DATA_FLOAT, tu_int(1, 3), 1, tu_int(1, 40), tu_int(1, 40),
                                 tu_int(1, 50), s, tu_int(1, 2), 0, 1);
            sh.dil[0] = tu_int(0, 3) == 0 ? tu_int(2, 3) : 1;
        }
        const int cd = two ? 1 : 0;
        sh.pb[cd] = tu_int(0, s + 1);
        sh.pe[cd] = tu_int(0, s + 1);
        sh.flip = tu_int(0, 2) == 0;
        sh.krsc = tu_int(0, 2) == 0;
        sh.ykind = tu_int(0, 3); /* dy: packed, channels-last, gapped */
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
        tu_conv_check(im, &s, PDNN_CONV_BWD_DATA, i % 5 != 3, al[i % 3], be[i % 4], 0, true);
    }
    /* ResNet-50's 3 x 3 stride-2 and stride-1 layers on small maps, its 7 x 7 stride-2
     * stem and MobileNet-v2's stem, reduced */
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 24, 20, 14, 14, 3, 3, 2, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_BWD_DATA, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 20, 36, 7, 7, 3, 3, 1, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_BWD_DATA, false, 1, 0.5, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3, 16, 30, 30, 7, 7, 2, 3, 1);
    tu_conv_check(im, &s, PDNN_CONV_BWD_DATA, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 3, 32, 32, 32, 3, 3, 2, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_BWD_DATA, false, 2, 0, 0, true);
}

static void test_refusals(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 4, 8, 20, 20, 3, 3, 3, 1, 1);
    tu_conv_check_refused(im, &s, PDNN_CONV_BWD_DATA, "stride 3");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 4, 8, 20, 20, 9, 8, 1, 4, 1);
    tu_conv_check_refused(im, &s, PDNN_CONV_BWD_DATA, "72 taps");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    s.xkind = TU_LAYOUT_CHANNELS_LAST;
    tu_conv_check_refused(im, &s, PDNN_CONV_BWD_DATA, "channels-last dx");
    common_refusals(im, PDNN_CONV_BWD_DATA);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 64, 3000, 3000, 1, 3, 1, 1, 1);
    tu_conv_check_refused(im, &s, PDNN_CONV_BWD_DATA, "padded dy of one image above 256 MiB");
}

static void test_api(void)
{
    pdnnHandle_t h;
    TU_OK(pdnnCreate(&h));
    test_fwd_api(h);
    for (int i = 0; i < 8; i++) {
        tu_conv_shape s = rand_shape();
        /* one input channel is the depthwise path's, a 1 x 1 filter the 1x1 path's */
        if (s.cg == 1 || s.kern[0] * (s.nsp > 1 ? s.kern[1] : 1) == 1) {
            i--;
            continue;
        }
        tu_conv_api_check_direct(h, &s, PDNN_CONV_BWD_DATA, PDNN_CONVOLUTION_BWD_DATA_ALGO_0, im,
                                 i % 3 ? 0.0 : 0.5);
    }
    /* ResNet-50's res5a_branch2b at minibatch 1 (stride 2) and MobileNet-v2's stem */
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 512, 512, 14, 14, 3, 3, 2, 1, 1);
    tu_conv_check_ranked_first(h, &s, PDNN_CONV_BWD_DATA, PDNN_CONVOLUTION_BWD_DATA_ALGO_0, im,
                               "res5a_branch2b mb1");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3, 32, 224, 224, 3, 3, 2, 1, 1);
    tu_conv_check_ranked_first(h, &s, PDNN_CONV_BWD_DATA, PDNN_CONVOLUTION_BWD_DATA_ALGO_0, im,
                               "MobileNet-v2 stem mb1");
    pdnnDestroy(h);
}

int main(void)
{
    tu_seed(4444);
    setenv("PDNN_MAX_CPU_ISA", "avx2", 1);
    pdnn_cpu_isa_reread();
    if (pdnn_cpu_isa() != PDNN_ISA_AVX2) {
        tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 8, 8, 7, 7, 3, 3, 1, 1, 1);
        tu_conv_check_refused(im, &s, PDNN_CONV_BWD_DATA, "backward data without AVX2");
        tu_conv_check_refused(imf, &s, PDNN_CONV_FWD, "forward without AVX2");
        printf("conv direct_phase: no AVX2, the path is not run\n");
        return tu_finish("ops/conv_direct_phase");
    }
    test_fwd_by_hand();
    test_fwd_refusals();
    test_fwd_random();
    test_refusals();
    test_random();
    test_api();
    printf("conv direct_phase: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_direct_phase");
}
