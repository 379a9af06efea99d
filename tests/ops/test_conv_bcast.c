/* The backward filter by broadcast sums (conv_cpu_direct_bcast.c, "cpu:direct_bcast":
 * BWD_FILTER ALGO_0, AVX-512 only) against the independent oracle of
 * tests/common/tu_conv.h, run through its registry entry with exactly its workspace:
 * random problems inside its rules (1-40 input channels, 1-70 output channels: whole
 * and partial 32-channel blocks; 1-d and 2-d; stride 1-3 and dilation 1-2 along each
 * dim; padding 0 to past the filter; up to 1024 taps over the channels: 1 to 74 tap
 * groups, one or two chunks; minibatch 1-3: 1 to 4 slots of rows, empty slots; flip,
 * KRSC; packed layouts, and gapped ones, taken where x's rows and dy's planes come out
 * flat); named shapes (LeNet's conv1 and conv2, MobileNet-v2's stem
 * reduced, rows of 256 pixels and more cut into pieces, rows of fewer taken several a
 * piece, more output channels than one block); an empty batch (dw = beta dw); exact on
 * small integers, beta != 0 and NaN-poisoned dw (beta == 0), alpha 1 / 2 / -0.5, 1 and 2
 * threads bitwise (the harness); the refusals, each with its reason; the public API with
 * ALGO_0 (dispatch and workspace), and that the algorithm query ranks ALGO_0 first for
 * LeNet's first layer and MobileNet-v2's stem. */
#include <stdio.h>

#include "cpu/isa.h"
#include "tu_conv.h"
#include "tu_layout.h"

extern const pdnn_impl pdnn_conv_bwd_filter_cpu_direct_bcast;
static const pdnn_impl *const im = &pdnn_conv_bwd_filter_cpu_direct_bcast;

static tu_conv_shape rand_shape(void)
{
    static const int ks[] = {1, 8, 13, 16, 31, 32, 33, 40, 64, 70};
    for (;;) {
        const bool two = tu_int(0, 3) != 0;
        const int c = tu_int(0, 3) == 0 ? tu_int(5, 40) : tu_int(1, 4);
        const int r = two ? tu_int(1, 7) : 1, s = tu_int(1, 7);
        if (c * r * s > 1024) continue;
        tu_conv_shape sh;
        if (two)
            sh = tu_conv_shape2d(PDNN_DATA_FLOAT, tu_int(1, 3), 1, c, ks[tu_int(0, 9)],
                                 tu_int(1, 20), tu_int(1, 40), r, s, 1, 0, 1);
        else
            sh = tu_conv_shape1d(PDNN_DATA_FLOAT, tu_int(1, 3), 1, c, ks[tu_int(0, 9)],
                                 tu_int(1, 300), s, 1, 0, 1);
        for (int d = 0; d < sh.nsp; d++) {
            sh.str[d] = tu_int(1, 3);
            sh.dil[d] = tu_int(1, 2);
            sh.pb[d] = tu_int(0, sh.kern[d]);
            sh.pe[d] = tu_int(0, sh.kern[d]);
        }
        sh.flip = tu_int(0, 2) == 0;
        sh.krsc = tu_int(0, 2) == 0;
        bool fits = true;
        for (int d = 0; d < sh.nsp; d++)
            fits = fits && sh.in[d] + sh.pb[d] + sh.pe[d] >= (sh.kern[d] - 1) * sh.dil[d] + 1;
        if (!fits) continue;
        if (tu_int(0, 5) == 0) sh.xkind = TU_LAYOUT_GAPPED;
        if (tu_int(0, 5) == 0) sh.ykind = TU_LAYOUT_GAPPED;
        tu_conv_finish_shape(&sh);
        return sh;
    }
}

/* Packed problems must be taken; a gapped layout is taken exactly when x's rows and
 * dy's planes come out flat (checked by the refusals below, and by the oracle when
 * taken). */
static void test_random(void)
{
    static const double al[] = {1, 2, -0.5}, be[] = {0, 0.5, 0, -1.5};
    for (int i = 0; i < 140; i++) {
        tu_conv_shape s = rand_shape();
        const bool packed = s.xkind == TU_LAYOUT_PACKED && s.ykind == TU_LAYOUT_PACKED;
        tu_conv_check(im, &s, PDNN_CONV_BWD_FILTER, i % 5 != 3, al[i % 3], be[i % 4], 0, packed);
    }
}

static void test_named(void)
{
    /* MobileNet-v2's stride-2 stem (reduced), LeNet's conv1 and conv2 */
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 3, 32, 32, 32, 3, 3, 2, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_BWD_FILTER, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 1, 32, 28, 28, 5, 5, 1, 2, 1);
    tu_conv_check(im, &s, PDNN_CONV_BWD_FILTER, true, 1, 0, 0, true);
    tu_conv_check(im, &s, PDNN_CONV_BWD_FILTER, false, -0.5, 1, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 32, 64, 14, 14, 5, 5, 1, 2, 1);
    tu_conv_check(im, &s, PDNN_CONV_BWD_FILTER, true, 1, 0, 0, true);
    tu_conv_check(im, &s, PDNN_CONV_BWD_FILTER, false, 2, 0.5, 0, true);
    /* pieces of dy: rows of 256 pixels and more (pieces of one row: 300 = 256 + 44, 1-d
     * and 2-d, stride 2 along the row) and of fewer (whole rows a piece: 9 rows of 28,
     * then the image's last 1); 35 taps in 3 groups; 40 and 70 output channels (two and
     * three blocks, the last partial) */
    s = tu_conv_shape1d(PDNN_DATA_FLOAT, 2, 1, 2, 40, 300, 5, 1, 2, 1);
    tu_conv_check(im, &s, PDNN_CONV_BWD_FILTER, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 33, 3, 600, 3, 3, 1, 1, 1);
    s.str[1] = 2;
    tu_conv_finish_shape(&s);
    tu_conv_check(im, &s, PDNN_CONV_BWD_FILTER, true, 2, 0.5, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 3, 1, 1, 8, 28, 28, 5, 5, 1, 2, 1);
    tu_conv_check(im, &s, PDNN_CONV_BWD_FILTER, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 70, 10, 10, 7, 5, 1, 3, 1);
    s.pb[1] = s.pe[1] = 2;
    tu_conv_finish_shape(&s);
    tu_conv_check(im, &s, PDNN_CONV_BWD_FILTER, true, 1, 0, 0, true);
    /* the most taps: 64 channels of 4 x 4 (74 groups of 13-14, two chunks) */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 64, 9, 6, 6, 4, 4, 1, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_BWD_FILTER, true, 1, 0, 0, true);
    /* an empty batch: dw = beta dw */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 0, 1, 2, 9, 6, 6, 3, 3, 1, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_BWD_FILTER, true, 1, 0.5, 0, true);
}

static void refuse(const tu_conv_shape *s, const char *what)
{
    tu_conv_check_refused(im, s, PDNN_CONV_BWD_FILTER, what);
}

static void test_refusals(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_DOUBLE, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    refuse(&s, "DOUBLE");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 2, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    refuse(&s, "2 groups");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 41, 8, 9, 9, 5, 5, 1, 2, 1);
    refuse(&s, "1025 taps over the channels");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    s.xkind = TU_LAYOUT_CHANNELS_LAST;
    refuse(&s, "channels-last x with 2 channels");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    s.ykind = TU_LAYOUT_CHANNELS_LAST;
    refuse(&s, "channels-last dy with 8 channels");
    s = tu_conv_shape1d(PDNN_DATA_FLOAT, 1, 1, 32, 8, 1 << 20, 32, 1, 0, 1);
    refuse(&s, "rows of 2^20 pixels, 32 channels x 32 taps: 128 MiB of source rows");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    s.nsp = 3;
    s.in[2] = 2;
    s.kern[2] = 1;
    s.str[2] = s.dil[2] = 1;
    tu_conv_finish_shape(&s);
    refuse(&s, "3-d");
}

static void test_api(void)
{
    pdnnHandle_t h;
    TU_OK(pdnnCreate(&h));
    for (int i = 0; i < 6; i++) {
        tu_conv_shape s = rand_shape();
        s.xkind = s.ykind = TU_LAYOUT_PACKED;
        tu_conv_api_check_direct(h, &s, PDNN_CONV_BWD_FILTER, PDNN_CONVOLUTION_BWD_FILTER_ALGO_0,
                                 im, i % 2 ? 0.5 : 0);
    }
    /* the model ranks ALGO_0 (this path) first for LeNet's first layer and
     * MobileNet-v2's stem (queries only: nothing runs) */
    const tu_conv_shape first[2] = {
        tu_conv_shape2d(PDNN_DATA_FLOAT, 32, 1, 1, 32, 28, 28, 5, 5, 1, 2, 1),
        tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3, 32, 224, 224, 3, 3, 2, 1, 1)};
    tu_conv_check_ranked_first(h, &first[0], PDNN_CONV_BWD_FILTER,
                               PDNN_CONVOLUTION_BWD_FILTER_ALGO_0, im, "LeNet conv1");
    tu_conv_check_ranked_first(h, &first[1], PDNN_CONV_BWD_FILTER,
                               PDNN_CONVOLUTION_BWD_FILTER_ALGO_0, im, "MobileNet-v2 stem");
    pdnnDestroy(h);
}

int main(void)
{
    tu_seed(5151);
    if (pdnn_cpu_isa() < PDNN_ISA_AVX512) {
        /* the entry is AVX-512 only: dispatch never offers it below */
        TU_CHECK(im->min_isa == PDNN_ISA_AVX512, "min_isa %d", (int)im->min_isa);
        printf("conv bcast: no AVX-512, the path is not run\n");
        return tu_finish("ops/conv_bcast");
    }
    test_refusals();
    test_named();
    test_random();
    test_api();
    printf("conv bcast: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_bcast");
}
