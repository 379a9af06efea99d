/* The channel-vector direct forward (conv_cpu_direct_kvec.c, "cpu:direct_kvec": DIRECT,
 * AVX-512 only) against the independent oracle of tests/common/tu_conv.h, run through
 * its registry entry with exactly its workspace: random problems inside its rules (1-40
 * input channels; 16-136 output channels: whole and partial 32- and 64-channel blocks;
 * 1-d and 2-d; column stride 1 or 2, row stride 1-3, dilation 1-2 along each dim; padding
 * split any way, also wider than the filter; filters up to 7 x 7; output rows of 1-40
 * columns: whole and partial 14- and 7-pixel tiles; flip, KRSC; x packed, channels-last
 * or with gaps; minibatch 1-3), exact on small integers, beta != 0 and NaN-poisoned
 * outputs (beta == 0), alpha 1 / 2 / -0.5, 1 and 2 threads bitwise (the harness);
 * ResNet-50's stride-2 3 x 3 layers and its 7 x 7 stem reduced (7-pixel rows of 64-channel tiles; several
 * input channel chunks; several bands; chunks of several images); one image whose
 * filter blocks are packed chunk by chunk by their items; an output large
 * enough for the non-temporal stores; the refusals, each
 * with its reason; a case worked by hand; the public API with DIRECT (dispatch and
 * workspace), and that the algorithm query ranks DIRECT first for ResNet-50's
 * res3a_branch2b and its stem at minibatch 32. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"
#include "tu_conv.h"
#include "tu_layout.h"

extern const pdnn_impl pdnn_conv_fwd_cpu_direct_kvec;
extern const pdnn_impl pdnn_conv_bwd_data_cpu_direct_kvec;
static const pdnn_impl *const im = &pdnn_conv_fwd_cpu_direct_kvec;
static const pdnn_impl *const imb = &pdnn_conv_bwd_data_cpu_direct_kvec;

static tu_conv_shape rand_shape(void)
{
    static const int ks[] = {16, 17, 31, 32, 40, 64, 70, 128, 136};
    for (;;) {
        const bool two = tu_int(0, 4) != 0;
        const int c = tu_int(0, 3) ? tu_int(8, 40) : tu_int(1, 7), k = ks[tu_int(0, 8)];
        const int r = two ? tu_int(1, 7) : 1, s = tu_int(1, 7);
        const int dr = two ? tu_int(1, 2) : 1, dc = tu_int(1, 2);
        tu_conv_shape sh;
        if (two) {
            sh = tu_conv_shape2d(PDNN_DATA_FLOAT, tu_int(1, 3), 1, c, k, tu_int(1, 16),
                                 tu_int(1, 80), r, s, 1, 0, 1);
            sh.str[0] = tu_int(1, 3);
            sh.str[1] = tu_int(1, 2);
            sh.dil[0] = dr;
            sh.dil[1] = dc;
        } else {
            sh = tu_conv_shape1d(PDNN_DATA_FLOAT, tu_int(1, 3), 1, c, k, tu_int(1, 80), s,
                                 tu_int(1, 2), 0, dc);
        }
        for (int d = 0; d < sh.nsp; d++) {
            const int kd = sh.kern[d];
            sh.pb[d] = tu_int(0, kd + 1);
            sh.pe[d] = tu_int(0, kd + 1);
        }
        sh.flip = tu_int(0, 2) == 0;
        sh.krsc = tu_int(0, 2) == 0;
        sh.xkind = tu_int(0, 2);
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
    for (int i = 0; i < 120; i++) {
        tu_conv_shape s = rand_shape();
        tu_conv_check(im, &s, PDNN_CONV_FWD, i % 5 != 3, al[i % 3], be[i % 4], 0, true);
    }
    /* ResNet-50's stride-2 3 x 3 layers, reduced: res3a_branch2b (14-pixel tiles, 16
     * channels a chunk, 2 bands a block), res5a_branch2b on 7 x 7 (7-pixel tiles of 64
     * channels), res4a_branch2b with 4 images of one chunk */
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 48, 64, 56, 56, 3, 3, 2, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 24, 128, 14, 14, 3, 3, 2, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0.5, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 4, 1, 32, 48, 28, 28, 3, 3, 2, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 2, 0, 0, true);
    /* channel blocks past 64 at 7-pixel rows: the last one partial */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 9, 200, 14, 14, 3, 3, 2, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
    /* a plane larger than a chunk (one image a chunk) and rows of more than one band by
     * the slot's size: 112 columns */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 40, 48, 60, 224, 3, 3, 2, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
    /* the 7 x 7 stride-2 stem on 3 channels (147 taps, 2 channels a chunk) */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 3, 64, 40, 40, 7, 7, 2, 3, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
    /* y above PDNN_CONV_STREAM_BYTES (8.5 MB): non-temporal stores where beta == 0 */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 8, 128, 260, 256, 3, 3, 2, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 2, 0.5, 0, true);
    /* stride 1: LeNet's conv2 (5 x 5, 14-pixel rows), ResNet-50's res5b_branch2b reduced
     * (7-pixel rows of 64-channel tiles), a 3 x 3 layer of 28-pixel rows in two tiles */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 32, 64, 14, 14, 5, 5, 1, 2, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 24, 128, 7, 7, 3, 3, 1, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0.5, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 20, 48, 28, 28, 3, 3, 1, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, -0.5, 0, 0, true);
    /* one image whose every block of output channels is one item: each item packs its
     * filter chunks itself (kv_geom.fuse): res5b_branch2b with 20 input channels (chunks
     * of 8, 8 and 4; 7-pixel tiles of 64 channels), res5a_branch2b's stride 2 with 520
     * output channels (14-pixel tiles of 32, the last block of 8), a 5 x 5 flipped KRSC
     * filter (packed tap by tap) with padding on one side only */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 20, 512, 7, 7, 3, 3, 1, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, -0.5, 0.5, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 12, 520, 14, 14, 3, 3, 2, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 10, 256, 8, 9, 5, 5, 1, 0, 1);
    s.pb[0] = 2;
    s.pe[1] = 3;
    s.flip = true;
    s.krsc = true;
    tu_conv_finish_shape(&s);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 2, 0, 0, true);
    /* random values, the reference's tolerance */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 64, 64, 16, 16, 3, 3, 2, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, false, 1, 0, 0, true);
}

/* Backward data on s with the filter read each way: KCRS (alpha 1, then alpha -0.5 and
 * beta 0.5), flipped (convolution), KRSC. */
static void bwd_orders(tu_conv_shape s)
{
    tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, true, 1, 0, 0, true);
    tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, true, -0.5, 0.5, 0, true);
    s.flip = true;
    tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, true, 1, 0, 0, true);
    s.flip = false;
    s.krsc = true;
    tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, true, 2, 0, 0, true);
}

/* Backward data: at stride 1 through the forward form, otherwise in transposed mode (dx's
 * column phases). Random problems of rand_shape at stride 1 (padding beyond the filter's
 * reach: transposed mode) and at rand_shape's strides (1-3 along the rows, 1-2 along the
 * columns; dy in any of its layouts, dx packed), then fixed ones at stride 1:
 * ResNet-50's res5b_branch2b reduced on one image (filter chunks packed by the items, a
 * KCRS filter by one transpose an input channel, its taps reversed), the same in
 * convolution mode (taps in order), with a KRSC filter (tap by tap), on 2 images (the
 * filter packed in one pass first), 40 dx channels (14-pixel tiles of 32 channels, the
 * second block partial), a 5 x 5 filter with padding 1 before and 3 after (the form's 3
 * and 1), dilation 2; and at stride 2: ResNet-50's res3a/res4a/res5a_branch2b reduced on
 * one image (14- and 7-pixel phase tiles, items packing the filter) and on 2 (one
 * packing pass), flipped, KRSC, stride 3 by 2 with dilation 2, 1-d; column stride 3;
 * stride 1 with padding beyond the filter's reach (transposed mode). */
static void test_bwd_data(void)
{
    static const double al[] = {1, 2, -0.5}, be[] = {0, 0.5, 0, -1.5};
    int ran = 0;
    for (int i = 0; ran < 60 && i < 1000; i++) {
        tu_conv_shape s = rand_shape();
        if (ran < 30)
            for (int d = 0; d < s.nsp; d++) s.str[d] = 1;
        s.ykind = s.xkind; /* dy any layout, dx (the form's y) flat */
        s.xkind = TU_LAYOUT_PACKED;
        tu_conv_finish_shape(&s);
        tu_conv_setup cs;
        tu_conv_setup_init(&cs, &s, PDNN_CONV_BWD_DATA);
        const char *why = NULL;
        if (!imb->supports(&cs.p, &why)) continue;
        tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, ran % 5 != 3, al[ran % 3], be[ran % 4], 0,
                      true);
        ran++;
    }
    TU_CHECK(ran == 60, "bwd data: %d random problems inside the rules", ran);
    bwd_orders(tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 512, 20, 7, 7, 3, 3, 1, 1, 1));
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 256, 24, 7, 7, 3, 3, 1, 1, 1);
    tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, true, 1, 0.5, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 40, 17, 14, 14, 3, 3, 1, 1, 1);
    tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 48, 9, 12, 11, 5, 5, 1, 1, 2);
    s.pe[0] = s.pe[1] = 3;
    tu_conv_finish_shape(&s);
    tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, true, 1, 0, 0, true);
    /* random values, the reference's tolerance */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 64, 64, 9, 9, 3, 3, 1, 1, 1);
    tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, false, 1, 0, 0, true);
    /* stride 2 (transposed mode) */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 128, 12, 28, 28, 3, 3, 2, 1, 1);
    tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, true, 1, 0, 0, true);
    bwd_orders(tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 512, 20, 14, 14, 3, 3, 2, 1, 1));
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 256, 16, 28, 28, 3, 3, 2, 1, 1);
    tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 64, 24, 15, 16, 3, 3, 2, 1, 1);
    tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, true, 1, -1.5, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 40, 8, 23, 30, 4, 5, 1, 2, 2);
    s.str[0] = 3;
    s.str[1] = 2;
    s.pe[1] = 0;
    tu_conv_finish_shape(&s);
    tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, true, 1, 0, 0, true);
    s = tu_conv_shape1d(PDNN_DATA_FLOAT, 2, 1, 48, 10, 61, 5, 2, 2, 1);
    tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, true, 1, 0.5, 0, true);
    /* column stride 3 (three column phases), and stride 1 with padding 3 on a 3 x 3
     * filter (no forward form: its padding would be -1; transposed mode at stride 1) */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 32, 12, 11, 40, 3, 4, 3, 1, 1);
    tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 16, 32, 9, 9, 3, 3, 1, 3, 1);
    tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 64, 64, 13, 14, 3, 3, 2, 1, 1);
    tu_conv_check(imb, &s, PDNN_CONV_BWD_DATA, false, 1, 0, 0, true);
}

static void refuse(const tu_conv_shape *s, const char *what)
{
    tu_conv_check_refused(im, s, PDNN_CONV_FWD, what);
}

static void test_refusals(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 16, 32, 9, 9, 3, 3, 3, 1, 1);
    refuse(&s, "stride 3");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 2, 16, 32, 9, 9, 3, 3, 2, 1, 1);
    refuse(&s, "2 groups");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 16, 15, 9, 9, 3, 3, 2, 1, 1);
    refuse(&s, "15 output channels");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 16, 32, 20, 20, 9, 9, 2, 4, 1);
    refuse(&s, "81 taps");
    s = tu_conv_shape2d(PDNN_DATA_DOUBLE, 1, 1, 16, 32, 9, 9, 3, 3, 2, 1, 1);
    refuse(&s, "DOUBLE");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 16, 32, 9, 9, 3, 3, 2, 1, 1);
    s.ykind = TU_LAYOUT_CHANNELS_LAST;
    refuse(&s, "channels-last y");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 16, 32, 9, 9, 3, 3, 2, 1, 1);
    s.nsp = 3;
    s.in[2] = 2;
    s.kern[2] = 1;
    s.str[2] = 2;
    s.dil[2] = 1;
    tu_conv_finish_shape(&s);
    refuse(&s, "3-d");
    /* backward data: 15 dx channels (stride 1 and 2) */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 15, 32, 9, 9, 3, 3, 2, 1, 1);
    tu_conv_check_refused(imb, &s, PDNN_CONV_BWD_DATA, "bwd data stride 2, 15 dx channels");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 15, 32, 9, 9, 3, 3, 1, 1, 1);
    tu_conv_check_refused(imb, &s, PDNN_CONV_BWD_DATA, "bwd data 15 dx channels");
}

/* 8 input channels of 5 x 5 ones, 32 output channels, 3 x 3 stride 2 padding 1 (3 x 3
 * outputs); output channel k's weights all k + 1. Output (i, j) meets (rows inside) x
 * (columns inside) taps of each channel: corners 4, edges 6, the middle 9, times 8
 * channels and k + 1. */
static void test_by_hand(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 8, 32, 5, 5, 3, 3, 2, 1, 1);
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
    float x[200], w[32 * 72], y[32 * 9];
    for (int i = 0; i < 200; i++) x[i] = 1.0f;
    for (int k = 0; k < 32; k++)
        for (int i = 0; i < 72; i++) w[k * 72 + i] = (float)(k + 1);
    for (int i = 0; i < 32 * 9; i++) y[i] = NAN;
    TU_OK(tu_conv_run_impl(im, &cs.p, x, w, y, 1.0, 0.0, 1));
    for (int k = 0; k < 32; k++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                const int taps = (i == 1 ? 3 : 2) * (j == 1 ? 3 : 2);
                const float want = (float)(taps * 8 * (k + 1));
                const float got = y[(k * 3 + i) * 3 + j];
                TU_CHECK(got == want, "channel %d (%d, %d): %g, expected %g", k, i, j,
                         (double)got, (double)want);
            }
}

static void test_api(void)
{
    pdnnHandle_t h;
    TU_OK(pdnnCreate(&h));
    for (int i = 0; i < 6; i++) {
        tu_conv_shape s = rand_shape();
        s.xkind = TU_LAYOUT_PACKED;
        /* DIRECT's first entry for the shape must be this one: no 1x1 filter (cpu:direct_1x1
         * comes first), no 1-4 input channels (cpu:direct_fewc) */
        if ((s.kern[s.nsp - 1] == 1 && (s.nsp == 1 || s.kern[0] == 1)) || s.cg <= 4) continue;
        tu_conv_api_check_direct(h, &s, PDNN_CONV_FWD, PDNN_CONVOLUTION_FWD_ALGO_DIRECT, im,
                                 i % 3 ? 0.0 : 0.5);
    }
    /* the model ranks DIRECT (this path) first for ResNet-50's res3a_branch2b, mb32 */
    const tu_conv_shape s =
        tu_conv_shape2d(PDNN_DATA_FLOAT, 32, 1, 128, 128, 56, 56, 3, 3, 2, 1, 1);
    tu_conv_check_ranked_first(h, &s, PDNN_CONV_FWD, PDNN_CONVOLUTION_FWD_ALGO_DIRECT, im,
                               "res3a_branch2b");
    const tu_conv_shape stem =
        tu_conv_shape2d(PDNN_DATA_FLOAT, 32, 1, 3, 64, 224, 224, 7, 7, 2, 3, 1);
    tu_conv_check_ranked_first(h, &stem, PDNN_CONV_FWD, PDNN_CONVOLUTION_FWD_ALGO_DIRECT, im,
                               "ResNet-50's stem");
    /* backward data: ALGO_0 reaches this path with its workspace; ranked first for
     * res5b_branch2b on one image (GEMM computes 64 lanes for its 49 dx pixels) */
    for (int i = 0; i < 3; i++) {
        tu_conv_shape b = tu_conv_shape2d(PDNN_DATA_FLOAT, 1 + i, 1, 24 + 8 * i, 16 + 4 * i,
                                          6 + i, 9, 3, 3, 1, 1, 1);
        tu_conv_api_check_direct(h, &b, PDNN_CONV_BWD_DATA, PDNN_CONVOLUTION_BWD_DATA_ALGO_0,
                                 imb, i == 1 ? 0.5 : 0.0);
    }
    const tu_conv_shape r5 = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 512, 512, 7, 7, 3, 3, 1, 1, 1);
    tu_conv_check_ranked_first(h, &r5, PDNN_CONV_BWD_DATA, PDNN_CONVOLUTION_BWD_DATA_ALGO_0,
                               imb, "res5b_branch2b backward data, 1 image");
    pdnnDestroy(h);
}

int main(void)
{
    tu_seed(5151);
    if (pdnn_cpu_isa() < PDNN_ISA_AVX512) {
        /* the entry is AVX-512 only: dispatch never offers it below */
        TU_CHECK(im->min_isa == PDNN_ISA_AVX512, "min_isa %d", (int)im->min_isa);
        printf("conv kvec: no AVX-512, the path is not run\n");
        return tu_finish("ops/conv_kvec");
    }
    test_by_hand();
    test_refusals();
    test_random();
    test_bwd_data();
    test_api();
    printf("conv kvec: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_kvec");
}
