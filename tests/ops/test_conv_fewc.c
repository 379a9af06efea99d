/* The few-input-channel forward (conv_cpu_direct_fewc.c, "cpu:direct_fewc": DIRECT,
 * AVX-512 only) against the independent oracle of tests/common/tu_conv.h, run through
 * its registry entry with exactly its workspace: random problems inside its rules (1-4
 * input channels, 8-40 output channels: whole and partial 8-channel tiles; 1-d and 2-d;
 * stride 1 and 2 along each dim (the stride-phase copies, odd and even sizes); rows of
 * 1-40 columns with the padding split any way between the two sides; any row padding,
 * also wider than the filter; filters up to 7 x 7 within 64 taps over the channels;
 * MobileNet's stem reduced; grids whose last vector is partial and tiles of 1-3
 * vectors; flip, KRSC; minibatch 1-3; channels-last with one channel, which is flat),
 * exact on small integers, beta != 0 and NaN-poisoned outputs (beta == 0), alpha 1 / 2
 * / -0.5, 1 and 2 threads bitwise (the harness); the same on output rows of whole
 * vectors (16-64 columns: the zero-padded planes and their unmasked kernel), with VGG's
 * and MobileNet's first layers reduced and images of a chunk each, and an output large
 * enough for the non-temporal stores; at column stride 2 with taps at column offsets
 * -1 .. 2 (x read in place, the tap vectors gathered a tile at a time: test_s2); the
 * refusals, each
 * with its reason; a case worked by hand (an Inf weight meets only padding at a corner
 * output), on rows of 4 and of 16 columns (the masked kernel either way); the
 * public API with DIRECT (dispatch and workspace), and that the algorithm query ranks
 * DIRECT first for LeNet's first layer. The backward filter of these problems:
 * test_conv_bcast.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"
#include "tu_conv.h"
#include "tu_layout.h"

extern const pdnn_impl pdnn_conv_fwd_cpu_direct_fewc;
static const pdnn_impl *const im = &pdnn_conv_fwd_cpu_direct_fewc;

/* Random problems inside the rules: strides 1 and 2, "same" columns at stride 1 and
 * rows at least half as wide as x's at stride 2, at most 64 taps over the channels. */
static tu_conv_shape rand_shape_w(int maxw)
{
    static const int ks[] = {8, 9, 13, 16, 24, 31, 40};
    for (;;) {
        const bool two = tu_int(0, 3) != 0;
        const int c = tu_int(1, 4);
        const int r = two ? tu_int(1, 7) : 1, s = tu_int(1, 7);
        const int sr = two ? tu_int(1, 2) : 1, sc = tu_int(1, 2);
        if (c * r * s > 64) continue;
        tu_conv_shape sh;
        if (two) {
            sh = tu_conv_shape2d(PDNN_DATA_FLOAT, tu_int(1, 3), 1, c, ks[tu_int(0, 6)],
                                 tu_int(1, 20), tu_int(1, maxw), r, s, 1, 0, 1);
            sh.str[0] = sr;
            sh.str[1] = sc;
        } else {
            sh = tu_conv_shape1d(PDNN_DATA_FLOAT, tu_int(1, 3), 1, c, ks[tu_int(0, 6)],
                                 tu_int(1, maxw + 20), s, sc, 0, 1);
        }
        const int cd = two ? 1 : 0; /* the column dim */
        if (two) {
            sh.pb[0] = tu_int(0, r + 1);
            sh.pe[0] = tu_int(0, r + 1);
        }
        sh.pb[cd] = tu_int(0, s - 1);
        sh.pe[cd] = sc == 1 ? s - 1 - sh.pb[cd] : tu_int(0, s);
        sh.flip = tu_int(0, 2) == 0;
        sh.krsc = tu_int(0, 2) == 0;
        bool fits = true;
        for (int d = 0; d < sh.nsp; d++)
            fits = fits && sh.in[d] + sh.pb[d] + sh.pe[d] >= sh.kern[d];
        if (!fits) continue;
        tu_conv_finish_shape(&sh);
        const int w = sh.in[cd], q = sh.out[cd];
        if ((sc == 1 && q != w) || (sc == 2 && (w + 1) / 2 > q)) continue;
        return sh;
    }
}

static tu_conv_shape rand_shape(void) { return rand_shape_w(40); }

/* Random problems whose output rows are whole vectors (16, 32, 48 or 64 columns): the
 * padded planes and their unmasked kernel (finite weights). */
static tu_conv_shape rand_shape_padded(void)
{
    for (;;) {
        tu_conv_shape sh = rand_shape_w(130);
        if (sh.out[sh.nsp - 1] % 16 == 0) return sh;
    }
}

static void test_random(void)
{
    static const double al[] = {1, 2, -0.5}, be[] = {0, 0.5, 0, -1.5};
    for (int i = 0; i < 120; i++) {
        tu_conv_shape s = rand_shape();
        if (s.cg == 1 && i % 7 == 3) s.xkind = TU_LAYOUT_CHANNELS_LAST;
        tu_conv_check(im, &s, PDNN_CONV_FWD, i % 5 != 3, al[i % 3], be[i % 4], 0, true);
    }
    /* MobileNet's stride-2 stem (reduced), then LeNet's first layer, VGG's, and grids
     * of exactly 1, 2, 3 and 4 vectors */
    tu_conv_shape m = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 3, 32, 32, 32, 3, 3, 2, 1, 1);
    tu_conv_check(im, &m, PDNN_CONV_FWD, true, 1, 0, 0, true);
    m.pe[0] = m.pe[1] = 0; /* PyTorch's padding 1 on an even size: the same output */
    tu_conv_finish_shape(&m);
    tu_conv_check(im, &m, PDNN_CONV_FWD, false, 1, 0, 0, true);
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 1, 32, 28, 28, 5, 5, 1, 2, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3, 64, 24, 24, 3, 3, 1, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, false, 1, 0, 0, true);
    for (int v = 1; v <= 4; v++) {
        s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 4, 4 * v, 3, 3, 1, 1, 1);
        tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0.5, 0, true);
    }
}

static void test_padded(void)
{
    static const double al[] = {1, 2, -0.5}, be[] = {0, 0.5, 0, -1.5};
    for (int i = 0; i < 60; i++) {
        tu_conv_shape s = rand_shape_padded();
        tu_conv_check(im, &s, PDNN_CONV_FWD, i % 5 != 3, al[i % 3], be[i % 4], 0, true);
    }
    /* VGG-16's first layer and MobileNet-v2's stem on 32-column planes (3 x 2 stride
     * phases); two images of 1 MiB of padded planes each, one a chunk */
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 3, 64, 20, 32, 3, 3, 1, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 3, 32, 24, 64, 3, 3, 2, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0.5, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 4, 8, 240, 256, 3, 3, 1, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
    /* y above PDNN_CONV_STREAM_BYTES (8.5 MB): non-temporal stores where beta == 0 */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 3, 64, 130, 128, 3, 3, 1, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 2, 0, 0, true);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, -1.5, 0, true);
}

/* Column stride 2 on output rows of whole vectors, padding before the columns 0 or 1
 * and at most two filter columns past it (taps at column offsets -1 .. 2: x read in
 * place, the tap vectors gathered a tile at a time): row stride 1 or 2, row padding also
 * past the filter (rows outside x), tiles across output rows and a last partial tile,
 * x rows of 2 q - 1 and 2 q columns (the last output's taps past the row). */
static void test_s2(void)
{
    static const double al[] = {1, 2, -0.5}, be[] = {0, 0.5, 0, -1.5};
    int done = 0;
    while (done < 50) {
        const int c = tu_int(1, 4), r = tu_int(1, 5), pl = tu_int(0, 1);
        const int sc = tu_int(1 + pl, 3 + pl), q = 16 * tu_int(1, 4);
        if (c * r * sc > 64) continue;
        const int w = 2 * q - tu_int(0, 1); /* x columns (the rule: at most 2 q) */
        tu_conv_shape sh = tu_conv_shape2d(PDNN_DATA_FLOAT, tu_int(1, 2), 1, c,
                                           tu_int(8, 20), tu_int(1, 12), w, r, sc, 1, 0, 1);
        sh.str[0] = tu_int(1, 2);
        sh.str[1] = 2;
        sh.pb[0] = tu_int(0, r + 1);
        sh.pe[0] = tu_int(0, r + 1);
        sh.pb[1] = pl;
        sh.pe[1] = 2 * (q - 1) + sc - pl - w; /* the output exactly q wide */
        if (sh.pe[1] < 0 || sh.in[0] + sh.pb[0] + sh.pe[0] < r) continue;
        sh.flip = tu_int(0, 2) == 0;
        sh.krsc = tu_int(0, 2) == 0;
        tu_conv_finish_shape(&sh);
        if (sh.out[1] != q) continue;
        tu_conv_check(im, &sh, PDNN_CONV_FWD, done % 5 != 3, al[done % 3], be[done % 4], 0, true);
        done++;
    }
    /* MobileNet-v2's stem, 112 output columns reduced to 24 rows */
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3, 32, 48, 224, 3, 3, 2, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
}

static void refuse(const tu_conv_shape *s, const char *what)
{
    tu_conv_check_refused(im, s, PDNN_CONV_FWD, what);
}

static void test_refusals(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 3, 1, 1);
    refuse(&s, "stride 3");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 20, 20, 3, 3, 2, 0, 1);
    refuse(&s, "stride 2, output rows narrower than half the input's");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3, 64, 32, 32, 7, 7, 2, 3, 1);
    refuse(&s, "147 taps over the channels (the 7 x 7 stem)");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 2, 2);
    refuse(&s, "dilation 2");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 2, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    refuse(&s, "2 groups");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 5, 8, 9, 9, 3, 3, 1, 1, 1);
    refuse(&s, "5 input channels");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 7, 9, 9, 3, 3, 1, 1, 1);
    refuse(&s, "7 output channels");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 0, 1);
    refuse(&s, "output rows narrower than the input's");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 8, 20, 20, 7, 9, 1, 0, 1);
    s.pb[1] = 4;
    s.pe[1] = 4;
    tu_conv_finish_shape(&s);
    refuse(&s, "63 taps");
    s = tu_conv_shape2d(PDNN_DATA_DOUBLE, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    refuse(&s, "DOUBLE");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    s.xkind = TU_LAYOUT_CHANNELS_LAST;
    refuse(&s, "channels-last x with 2 channels");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    s.nsp = 3;
    s.in[2] = 2;
    s.kern[2] = 1;
    s.str[2] = s.dil[2] = 1;
    tu_conv_finish_shape(&s);
    refuse(&s, "3-d");
}

/* 1 channel, 8 output channels, 3 x 3 padding 1 on 4 x wd ones; every weight 1 but output
 * channel 0's top-left tap, Inf. Output (0, 0) of channel 0 meets that tap only in the
 * padding: 4 valid taps, 4.0, not NaN; output (1, 1) meets it at x(0, 0): Inf; the
 * other channels see 4 (corners), 6 (edges), 9 (inside). */
static void by_hand(int wd)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 8, 4, wd, 3, 3, 1, 1, 1);
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
    float x[64], w[72], y[512];
    for (int i = 0; i < 4 * wd; i++) x[i] = 1.0f;
    for (int i = 0; i < 72; i++) w[i] = 1.0f;
    w[0] = INFINITY;
    for (int i = 0; i < 32 * wd; i++) y[i] = NAN;
    TU_OK(tu_conv_run_impl(im, &cs.p, x, w, y, 1.0, 0.0, 1));
    TU_CHECK(y[0] == 4.0f, "%d columns: corner of channel 0: %g, expected 4", wd, (double)y[0]);
    TU_CHECK(isinf(y[wd + 1]) && y[wd + 1] > 0, "%d columns: (1, 1) of channel 0: %g, expected inf",
             wd, (double)y[wd + 1]);
    for (int k = 1; k < 8; k++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < wd; j++) {
                const int edges = (i == 0 || i == 3) + (j == 0 || j == wd - 1);
                const float want = edges == 2 ? 4.0f : edges == 1 ? 6.0f : 9.0f;
                const float got = y[(k * 4 + i) * wd + j];
                TU_CHECK(got == want, "%d columns: channel %d (%d, %d): %g, expected %g", wd, k,
                         i, j, (double)got, (double)want);
            }
}

/* Rows of 4 columns (the masked kernel) and of 16 (the padded planes' width, served by
 * the masked kernel because of the Inf: a padded zero times Inf would give NaN). */
static void test_by_hand(void)
{
    by_hand(4);
    by_hand(16);
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
    /* the model ranks DIRECT (this path) first for LeNet's 5 x 5 1 -> 32 layer */
    const tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 32, 1, 1, 32, 28, 28, 5, 5, 1, 2, 1);
    tu_conv_check_ranked_first(h, &s, PDNN_CONV_FWD, PDNN_CONVOLUTION_FWD_ALGO_DIRECT, im,
                               "LeNet conv1");
    pdnnDestroy(h);
}

int main(void)
{
    tu_seed(4242);
    if (pdnn_cpu_isa() < PDNN_ISA_AVX512) {
        /* the entry is AVX-512 only: dispatch never offers it below */
        TU_CHECK(im->min_isa == PDNN_ISA_AVX512, "min_isa %d", (int)im->min_isa);
        printf("conv fewc: no AVX-512, the path is not run\n");
        return tu_finish("ops/conv_fewc");
    }
    test_by_hand();
    test_refusals();
    test_random();
    test_padded();
    test_s2();
    test_api();
    printf("conv fewc: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_fewc");
}
