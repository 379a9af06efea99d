/* Backward data by stride phases on zero-padded dy planes (conv_cpu_direct_phase.c,
 * "cpu:direct_phase": ALGO_0, AVX2 exactly; the test caps the ISA at AVX2 so that it runs
 * on AVX-512 machines too) against the independent oracle of tests/common/tu_conv.h, run
 * through its registry entry with exactly its workspace: random problems inside its
 * rules (1-40 dx channels: whole and partial 4-channel blocks; 1-40 dy channels: one to
 * three chunks of the sums; 1-d and 2-d; stride 1 and 2 along each dim with odd and even
 * sizes, so phases of unequal sizes and phases that no tap reaches; dilation 1-3; any
 * padding on each side, also wider than the filter; filters up to 8 x 8; dy packed,
 * channels-last or gapped (the copy reads any strides); flip, KRSC; minibatch 1-3), exact
 * on small integers, beta != 0 and NaN-poisoned outputs (beta == 0), alpha 1 / 2 / -0.5,
 * 1 and 2 threads bitwise (the harness); ResNet-50's stride-2 3 x 3 and 7 x 7 stem and
 * MobileNet-v2's stem, reduced; the refusals, each with its reason; the public API with
 * ALGO_0 (dispatch and workspace), and that the algorithm query ranks ALGO_0 first for
 * ResNet-50's stride-2 3 x 3 layer on 14 x 14 and MobileNet-v2's stem at minibatch 1. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>

#include "cpu/isa.h"
#include "tu_conv.h"
#include "tu_layout.h"

extern const pdnn_impl pdnn_conv_bwd_data_cpu_direct_phase;
static const pdnn_impl *const im = &pdnn_conv_bwd_data_cpu_direct_phase;

static tu_conv_shape rand_shape(void)
{
    for (;;) {
        const bool two = tu_int(0, 3) != 0;
        const int r = two ? tu_int(1, 8) : 1, s = tu_int(1, 8);
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

static void refuse(const tu_conv_shape *s, const char *what)
{
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, s, PDNN_CONV_BWD_DATA);
    const char *why = NULL;
    const bool ok = im->supports(&cs.p, &why);
    TU_CHECK(!ok && why && why[0], "%s: supported (or no reason)", what);
}

static void test_refusals(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 4, 8, 20, 20, 3, 3, 3, 1, 1);
    refuse(&s, "stride 3");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 4, 8, 20, 20, 9, 8, 1, 4, 1);
    refuse(&s, "72 taps");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 2, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    refuse(&s, "2 groups");
    s = tu_conv_shape2d(PDNN_DATA_DOUBLE, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    refuse(&s, "DOUBLE");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    s.xkind = TU_LAYOUT_CHANNELS_LAST;
    refuse(&s, "channels-last dx");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    s.nsp = 3;
    s.in[2] = 2;
    s.kern[2] = 1;
    s.str[2] = s.dil[2] = 1;
    tu_conv_finish_shape(&s);
    refuse(&s, "3-d");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 64, 3000, 3000, 1, 3, 1, 1, 1);
    refuse(&s, "padded dy of one image above 256 MiB");
}

static void test_api(void)
{
    pdnnHandle_t h;
    TU_OK(pdnnCreate(&h));
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
        refuse(&s, "no AVX2");
        printf("conv direct_phase: no AVX2, the path is not run\n");
        return tu_finish("ops/conv_direct_phase");
    }
    test_refusals();
    test_random();
    test_api();
    printf("conv direct_phase: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_direct_phase");
}
