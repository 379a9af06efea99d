/* The direct convolutions against the independent oracle of tests/common/tu_conv.h:
 *  - cpu:direct_1x1 (forward DIRECT, backward data ALGO_0, backward filter ALGO_0):
 *    random 1x1 problems (1-3 spatial dims, strides, groups, flip, KRSC, NCHW /
 *    channels-last / gapped layouts) and the edge cases: batch 1, 1x1 spatial, zero
 *    channels, K blocks and column panels crossing images, channels-last rows that are
 *    not evenly spaced, stride-2 backward data (input pixels no output reads), both
 *    backward-filter orientations;
 *  - cpu:direct_dw (depthwise: one input channel per group, any multiplier): random
 *    2-d problems with stride, dilation, asymmetric and wide padding, NCHW / NHWC /
 *    gapped, the interior/border split at every edge.
 * Small-integer data must match exactly; 1 and 2 threads bitwise (the harness); each
 * entry refuses problems outside its family with a reason; the public API reaches each
 * entry through its cuDNN algorithm. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_flat.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_s2.h"
#include "tu_conv.h"
#include "tu_layout.h"

extern const pdnn_impl pdnn_conv_fwd_cpu_direct_1x1;
extern const pdnn_impl pdnn_conv_bwd_data_cpu_direct_1x1;
extern const pdnn_impl pdnn_conv_bwd_filter_cpu_direct_1x1;

/* The 1x1 family (the depthwise one is tests/common's tu_conv_family_dw); both serve the
 * cuDNN algorithms DIRECT (forward) and ALGO_0 (backward data, backward filter). */
static const tu_conv_family fam_1x1 = {
    {&pdnn_conv_fwd_cpu_direct_1x1, &pdnn_conv_bwd_data_cpu_direct_1x1,
     &pdnn_conv_bwd_filter_cpu_direct_1x1},
    {PDNN_CONVOLUTION_FWD_ALGO_DIRECT, PDNN_CONVOLUTION_BWD_DATA_ALGO_0,
     PDNN_CONVOLUTION_BWD_FILTER_ALGO_0}};

/* ---- 1x1 */

/* A random 1x1 problem: no padding before, padding after only where no output reads it. */
static void rand_1x1(tu_conv_shape *s, pdnnDataType_t t)
{
    memset(s, 0, sizeof *s);
    s->t = t;
    s->nsp = tu_int(1, 3);
    s->n = tu_int(1, 3);
    s->g = tu_int(1, 3);
    s->cg = tu_int(1, 6);
    s->kg = tu_int(1, 6);
    const int maxin = s->nsp == 3 ? 5 : s->nsp == 2 ? 9 : 20;
    for (int d = 0; d < s->nsp; d++) {
        s->in[d] = tu_int(1, maxin);
        s->kern[d] = 1;
        s->str[d] = tu_int(1, 3);
        s->dil[d] = tu_int(1, 2);
        s->pe[d] = tu_int(0, s->str[d] - 1);
        const int out = 1 + (s->in[d] + s->pe[d] - 1) / s->str[d];
        if ((out - 1) * s->str[d] >= s->in[d]) s->pe[d] = 0;
    }
    s->flip = tu_int(0, 1);
    s->krsc = tu_int(0, 1);
    s->xkind = tu_int(0, 2);
    s->ykind = tu_int(0, 2);
    tu_conv_finish_shape(s);
}

static tu_conv_shape shape_1x1(pdnnDataType_t t, int n, int g, int cg, int kg, int h, int w,
                               int str, int layout)
{
    tu_conv_shape s = tu_conv_shape2d(t, n, g, cg, kg, h, w, 1, 1, str, 0, 1);
    s.xkind = s.ykind = layout;
    return s;
}

static void test_1x1_random(pdnnDataType_t t, int count)
{
    for (int i = 0; i < count; i++) {
        tu_conv_shape s;
        rand_1x1(&s, t);
        tu_conv_check_family(&fam_1x1, &s, i % 3 != 2);
    }
}

static void test_1x1_edges(pdnnDataType_t t)
{
    tu_conv_shape s;
    for (int lay = 0; lay < 3; lay++) {
        /* batch 1, 1x1 spatial (a fully connected layer) */
        s = shape_1x1(t, 1, 1, 5, 7, 1, 1, 1, lay);
        tu_conv_check_family(&fam_1x1, &s, true);
        s = shape_1x1(t, 3, 2, 3, 4, 1, 1, 2, lay);
        tu_conv_check_family(&fam_1x1, &s, true);
        /* batch 1, two groups of 140 -> 75 (the backward filter's outer-product rows with
         * AVX-512: vectors of 64, 16 and a masked tail, row blocks for the threads) */
        s = shape_1x1(t, 1, 2, 140, 75, 1, 1, 1, lay);
        tu_conv_check_family(&fam_1x1, &s, true);
        /* fully connected with long rows and many outputs (the GEMV paths: vector
         * tails, K blocks past 256 in backward data, several column panels) */
        s = shape_1x1(t, 2, 1, 300, 270, 1, 1, 1, lay);
        tu_conv_check_family(&fam_1x1, &s, true);
        /* a classifier (LeNet fc2 at minibatch 70: 10 outputs, the forward's dot
         * products for any number of columns, two column blocks of 64) */
        s = shape_1x1(t, 70, 1, 128, 10, 1, 1, 1, lay);
        tu_conv_check_family(&fam_1x1, &s, true);
        /* zero output channels (zero input channels: the GEMM family's filter check
         * refuses them, cpu:gemm alike) */
        s = shape_1x1(t, 2, 1, 3, 0, 4, 4, 1, lay);
        tu_conv_check_family(&fam_1x1, &s, true);
        /* many channels: K blocks of 256 in forward / backward data, 300 > KC */
        s = shape_1x1(t, 2, 1, 300, 9, 5, 3, 1, lay);
        tu_conv_check_family(&fam_1x1, &s, true);
        s = shape_1x1(t, 2, 1, 7, 270, 3, 4, 1, lay);
        tu_conv_check_family(&fam_1x1, &s, true);
        /* column panels and backward-filter K blocks crossing images (P = 150) */
        s = shape_1x1(t, 3, 1, 4, 13, 10, 15, 1, lay);
        tu_conv_check_family(&fam_1x1, &s, true);
        s = shape_1x1(t, 3, 1, 13, 4, 10, 15, 1, lay);
        tu_conv_check_family(&fam_1x1, &s, false);
        /* stride 2: uneven rows (channels-last), uncovered dx pixels (backward data) */
        s = shape_1x1(t, 2, 2, 5, 3, 9, 11, 2, lay);
        tu_conv_check_family(&fam_1x1, &s, true);
        s = shape_1x1(t, 2, 1, 6, 4, 13, 11, 3, lay);
        s.pe[0] = s.pe[1] = 1; /* out 5 x 4: the last pixel reads (12, 9): allowed */
        tu_conv_finish_shape(&s);
        tu_conv_check_family(&fam_1x1, &s, true);
    }
    /* more than 512 output channels a group with dy channels-last: the backward filter's
     * row blocks past the first must start on a packed A panel (fuzzer finding: rows
     * from 512 on were wrong when mr does not divide 512) */
    s = shape_1x1(t, 1, 1, 32, 513, 1, 2, 1, TU_LAYOUT_PACKED);
    s.ykind = TU_LAYOUT_CHANNELS_LAST;
    tu_conv_check_family(&fam_1x1, &s, true);
    s = shape_1x1(t, 2, 2, 9, 1100, 2, 1, 1, TU_LAYOUT_CHANNELS_LAST);
    tu_conv_check_family(&fam_1x1, &s, true);
    /* mixed layouts: x channels-last, y NCHW and the reverse */
    s = shape_1x1(t, 2, 1, 5, 6, 7, 6, 1, TU_LAYOUT_CHANNELS_LAST);
    s.ykind = TU_LAYOUT_PACKED;
    tu_conv_check_family(&fam_1x1, &s, true);
    s.xkind = TU_LAYOUT_PACKED;
    s.ykind = TU_LAYOUT_CHANNELS_LAST;
    tu_conv_check_family(&fam_1x1, &s, true);
    /* a larger one: several tasks and panels per thread */
    if (t == PDNN_DATA_FLOAT) {
        s = shape_1x1(t, 2, 1, 40, 70, 20, 21, 1, TU_LAYOUT_PACKED);
        tu_conv_check_family(&fam_1x1, &s, true);
        s.xkind = s.ykind = TU_LAYOUT_CHANNELS_LAST;
        tu_conv_check_family(&fam_1x1, &s, true);
        /* long images (1089 pixels: two pixel blocks of the dot-product backward filter,
         * a masked tail), groups */
        s = shape_1x1(t, 2, 2, 3, 5, 33, 33, 1, TU_LAYOUT_PACKED);
        tu_conv_check_family(&fam_1x1, &s, true);
        /* short images with many channels on both sides: forward and backward data run
         * images side by side (3 x 3 pixels; stride 2: dx scattered) */
        s = shape_1x1(t, 3, 1, 600, 520, 3, 3, 1, TU_LAYOUT_PACKED);
        tu_conv_check_family(&fam_1x1, &s, true);
        s = shape_1x1(t, 3, 1, 520, 600, 5, 5, 2, TU_LAYOUT_PACKED);
        tu_conv_check_family(&fam_1x1, &s, false);
    }
}

/* Problems outside the 1x1 family are refused with a reason. */
static void test_1x1_refusals(void)
{
    static const struct {
        int r, pad, pe;
        const char *what;
    } bad[] = {
        {3, 1, 1, "3x3 filter"},
        {1, 1, 1, "padding before"},
        {1, 0, 2, "padding after read by an output"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 5, 5, bad[i].r, bad[i].r,
                                          1, bad[i].pad, 1);
        s.pe[0] = s.pe[1] = bad[i].pe;
        tu_conv_finish_shape(&s);
        for (int d = 0; d < 3; d++) {
            tu_conv_setup cs;
            tu_conv_setup_init(&cs, &s, (pdnn_conv_dir)d);
            const char *why = NULL;
            TU_CHECK(!fam_1x1.im[d]->supports(&cs.p, &why) && why && *why,
                     "1x1 %s %s: must be refused with a reason", tu_conv_dir_name((pdnn_conv_dir)d),
                     bad[i].what);
        }
    }
    tu_conv_shape s = shape_1x1(PDNN_DATA_FLOAT, 1, 1, 2, 2, 4, 4, 1, TU_LAYOUT_PACKED);
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
    cs.p.compute = PDNN_DATA_DOUBLE;
    const char *why = NULL;
    TU_CHECK(!pdnn_conv_fwd_cpu_direct_1x1.supports(&cs.p, &why) && why, "DOUBLE compute refused");
    tu_conv_setup_init(&cs, &s, PDNN_CONV_BWD_DATA);
    why = NULL;
    TU_CHECK(!pdnn_conv_fwd_cpu_direct_1x1.supports(&cs.p, &why) && why, "wrong direction refused");
}

/* A tiny case by hand: x = 2 channels of [1 2 3], w = [[1 10], [2 0]] (K = 2), stride 1:
 * y0 = x0 + 10 x1, y1 = 2 x0. */
static void test_1x1_by_hand(void)
{
    const tu_conv_shape s = tu_conv_shape1d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 3, 1, 1, 0, 1);
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
    const float x[6] = {1, 2, 3, 4, 5, 6}, w[4] = {1, 10, 2, 0};
    float y[6] = {NAN, NAN, NAN, NAN, NAN, NAN};
    TU_OK(tu_conv_run_impl(&pdnn_conv_fwd_cpu_direct_1x1, &cs.p, x, w, y, 1.0, 0.0, 1));
    const float want[6] = {41, 52, 63, 2, 4, 6};
    TU_CHECK(memcmp(y, want, sizeof want) == 0, "1x1 by hand: %g %g %g %g %g %g", y[0], y[1],
             y[2], y[3], y[4], y[5]);
}

/* ---- depthwise */

/* A random depthwise problem: C = groups, multiplier 1..3, mostly 2-d. */
static void rand_dw(tu_conv_shape *s, pdnnDataType_t t)
{
    static const tu_conv_ranges r = {.g = 6, .cg = 1, .kg = 3, .in = {40, 12, 6}, .kern = {5, 3, 3},
                                     .pad = 3};
    const int k = tu_int(0, 5);
    tu_conv_rand_shape_in(s, t, k == 0 ? 1 : k == 1 ? 3 : 2, &r);
}

static tu_conv_shape shape_dw(pdnnDataType_t t, int n, int c, int m, int h, int w, int r,
                              int str, int pad, int dil, int layout)
{
    tu_conv_shape s = tu_conv_shape2d(t, n, c, 1, m, h, w, r, r, str, pad, dil);
    s.xkind = s.ykind = layout;
    return s;
}

static void test_dw_random(pdnnDataType_t t, int count)
{
    for (int i = 0; i < count; i++) {
        tu_conv_shape s;
        rand_dw(&s, t);
        tu_conv_check_family(&tu_conv_family_dw, &s, i % 3 != 2);
    }
}

static void test_dw_edges(pdnnDataType_t t)
{
    const pdnn_impl *const *dw = tu_conv_family_dw.im;
    tu_conv_shape s;
    for (int lay = 0; lay < 3; lay++) {
        /* rows long enough for vector blocks, 3x3 pad 1 (MobileNet), stride 1 and 2 */
        for (int st = 1; st <= 2; st++) {
            s = shape_dw(t, 2, 19, 1, 9, 37, 3, st, 1, 1, lay);
            tu_conv_check_family(&tu_conv_family_dw, &s, true);
        }
        /* multiplier 2, 5x5, dilation 2, convolution mode, KRSC */
        s = shape_dw(t, 1, 5, 2, 11, 23, 5, 1, 4, 2, lay);
        s.flip = true;
        s.krsc = true;
        tu_conv_check_family(&tu_conv_family_dw, &s, true);
        /* padding wider than the kernel, asymmetric; stride above the kernel */
        s = shape_dw(t, 2, 3, 1, 6, 20, 2, 3, 4, 1, lay);
        s.pe[1] = 0;
        tu_conv_finish_shape(&s);
        tu_conv_check_family(&tu_conv_family_dw, &s, true);
        /* batch 1, 1x1 spatial, 1x1 filter */
        s = shape_dw(t, 1, 7, 3, 1, 1, 1, 1, 0, 1, lay);
        tu_conv_check_family(&tu_conv_family_dw, &s, true);
        /* zero output channels: forward writes nothing, dx = beta * dx, dw is empty */
        s = shape_dw(t, 2, 3, 0, 5, 5, 3, 1, 1, 1, lay);
        tu_conv_check_family(&tu_conv_family_dw, &s, true);
        /* random data */
        s = shape_dw(t, 2, 21, 1, 8, 40, 3, 1, 1, 1, lay);
        tu_conv_check_family(&tu_conv_family_dw, &s, false);
    }
    /* 1-d rows longer than the backward-data chunk (1024) */
    s = tu_conv_shape1d(t, 1, 2, 1, 2, 2100, 3, 1, 1, 1);
    tu_conv_check_family(&tu_conv_family_dw, &s, true);
    s.str[0] = 2;
    tu_conv_finish_shape(&s);
    tu_conv_check_family(&tu_conv_family_dw, &s, true);
    /* planes taller than one zero-padded strip (several strips), stride 1 and 2; a 1-d
     * row longer than a strip buffer (the row path) */
    for (int st = 1; st <= 2; st++) {
        s = shape_dw(t, 1, 2, 1, 150, 100, 3, st, 1, 1, TU_LAYOUT_PACKED);
        tu_conv_check(dw[PDNN_CONV_FWD], &s, PDNN_CONV_FWD, true, 1.0, 0.5, 0, true);
        tu_conv_check(dw[PDNN_CONV_BWD_DATA], &s, PDNN_CONV_BWD_DATA, true, 2.0, 0.0, 0, true);
        tu_conv_check(dw[PDNN_CONV_BWD_FILTER], &s, PDNN_CONV_BWD_FILTER, true, 1.0, -1.0, 0, true);
    }
    s = tu_conv_shape1d(t, 1, 2, 1, 1, 13000, 3, 1, 1, 1);
    tu_conv_check(dw[PDNN_CONV_FWD], &s, PDNN_CONV_FWD, true, 1.0, 0.0, 0, true);
    tu_conv_check(dw[PDNN_CONV_BWD_DATA], &s, PDNN_CONV_BWD_DATA, true, 1.0, 0.0, 0, true);
    /* channels-last with channels beyond a vector block and a backward-filter block */
    if (t == PDNN_DATA_FLOAT) {
        s = shape_dw(t, 2, 70, 1, 7, 9, 3, 1, 1, 1, TU_LAYOUT_CHANNELS_LAST);
        tu_conv_check_family(&tu_conv_family_dw, &s, true);
        s = shape_dw(t, 1, 40, 1, 4, 4, 11, 1, 5, 1, TU_LAYOUT_CHANNELS_LAST); /* 121 taps */
        tu_conv_check_family(&tu_conv_family_dw, &s, true);
    }
}

/* The channel-blocked path (FLOAT, multiplier 1, planes of at most 32 x 32 outputs):
 * blocks of 16 channels with a partial last block, planes 1x1 .. 15x15 and 32x32,
 * strides 1-3, padding 0-2 (wider than the kernel too), dilation, 5x5 taps, packed and
 * gapped planes (a gap inside the rows falls back to the other paths), convolution
 * mode, KRSC; beta != 0 and alpha != 1 through the family check. */
static void test_dw_blocks(void)
{
    static const int hw[][2] = {{1, 1}, {2, 3}, {3, 3}, {5, 4}, {7, 7}, {8, 8}, {13, 6},
                                {14, 14}, {15, 9}, {4, 15}};
    static const int chans[] = {16, 19, 35, 1};
    tu_conv_shape s;
    for (int i = 0; i < (int)(sizeof hw / sizeof hw[0]); i++)
        for (int st = 1; st <= 2; st++) {
            const int c = chans[(i + st) % 4], lay = i % 3 == 2 ? TU_LAYOUT_GAPPED : TU_LAYOUT_PACKED;
            const int pad = (i + st) % 3, r = pad == 2 && i % 2 ? 5 : 3;
            if (hw[i][0] + 2 * pad < r || hw[i][1] + 2 * pad < r) continue;
            s = shape_dw(PDNN_DATA_FLOAT, 1 + i % 3, c, 1, hw[i][0], hw[i][1], r, st, pad, 1, lay);
            s.flip = i % 4 == 1;
            s.krsc = i % 5 == 2;
            tu_conv_check_family(&tu_conv_family_dw, &s, i % 4 != 3);
        }
    /* stride 3 with padding wider than the kernel, asymmetric; dilation 2; 32x32 */
    s = shape_dw(PDNN_DATA_FLOAT, 2, 17, 1, 11, 10, 2, 3, 3, 1, TU_LAYOUT_PACKED);
    s.pe[1] = 1;
    tu_conv_finish_shape(&s);
    tu_conv_check_family(&tu_conv_family_dw, &s, true);
    s = shape_dw(PDNN_DATA_FLOAT, 1, 20, 1, 9, 12, 3, 2, 2, 2, TU_LAYOUT_GAPPED);
    tu_conv_check_family(&tu_conv_family_dw, &s, true);
    s = shape_dw(PDNN_DATA_FLOAT, 2, 18, 1, 32, 32, 3, 1, 1, 1, TU_LAYOUT_PACKED);
    tu_conv_check_family(&tu_conv_family_dw, &s, true);
    /* 1-d */
    s = tu_conv_shape1d(PDNN_DATA_FLOAT, 2, 21, 1, 1, 30, 3, 2, 1, 1);
    tu_conv_check_family(&tu_conv_family_dw, &s, true);
}

/* Channel blocks on planes in bands of rows (planes whose buffers exceed the band budget,
 * 32 KiB: every band but the last of the same height, the halo rows moved from one band to
 * the next, padding rows zeroed at the top and bottom bands only): strides 1-4 (a stride
 * wider than the kernel skips rows), dilation, wide and asymmetric padding, odd heights
 * (a partial last band, backward data's phases), partial channel blocks, gapped, flip,
 * KRSC; 1-d rows too long for one band; a row too long for the buffer (plane path). */
static void test_dw_bands(void)
{
    static const int cfg[][7] = {/* h, w, r, stride, pad, dil, channels */
                                 {24, 20, 3, 1, 1, 1, 16}, {41, 23, 3, 2, 1, 1, 19},
                                 {30, 30, 3, 2, 0, 1, 16}, {37, 33, 5, 3, 2, 1, 17},
                                 {45, 26, 3, 4, 1, 1, 16}, {32, 26, 3, 1, 2, 2, 35},
                                 {56, 18, 3, 1, 1, 1, 33}, {29, 40, 2, 2, 0, 1, 16},
                                 {23, 47, 7, 1, 3, 1, 18}, {50, 21, 3, 3, 4, 1, 16}};
    tu_conv_shape s;
    for (int i = 0; i < (int)(sizeof cfg / sizeof cfg[0]); i++) {
        const int *c = cfg[i];
        s = shape_dw(PDNN_DATA_FLOAT, 1 + i % 2, c[6], 1, c[0], c[1], c[2], c[3], c[4], c[5],
                     i % 4 == 3 ? TU_LAYOUT_GAPPED : TU_LAYOUT_PACKED);
        s.flip = i % 3 == 1;
        s.krsc = i % 5 == 4;
        if (i == 3) { /* asymmetric padding */
            s.pe[0] = 0;
            tu_conv_finish_shape(&s);
        }
        tu_conv_check_family(&tu_conv_family_dw, &s, i % 2 == 0);
    }
    s = tu_conv_shape1d(PDNN_DATA_FLOAT, 1, 16, 1, 1, 700, 3, 1, 1, 1);
    tu_conv_check_family(&tu_conv_family_dw, &s, true);
    s = tu_conv_shape1d(PDNN_DATA_FLOAT, 1, 17, 1, 1, 1300, 3, 2, 1, 1);
    tu_conv_check_family(&tu_conv_family_dw, &s, false);
}

/* Stride-1 forward and backward data on flat planes (rows padded to a multiple of 16
 * lanes, 7/8 of them outputs at least; the AVX-512 3x3 kernel: blocks of 8 rows, 16-column
 * pieces with masked ends; other taps: the generic flat sums): widths 14, 16, 30, 46
 * with pads 0-2 (asymmetric too), heights that leave partial row blocks, dilation 2,
 * 5x5, 1x3, flip, KRSC, gapped rows, partial channel blocks; backward data padding
 * wider than the kernel extent (refused: channel blocks). Stride-2 3x3 forward (even
 * and odd columns split; its backward passes: channel blocks): 14, 15, 28 outputs a
 * row, x columns and rows no output reads, padding 0-2, odd widths. Minibatches of 6
 * (stride 2 and the backward filter run flat from 784 outputs a channel), two of 1. */
static void test_dw_flat(void)
{
    static const int cfg[][9] = {/* h, w, r1, r2, pad, dil, channels, pad end, stride */
                                 {14, 14, 3, 3, 1, 1, 16, 1, 1}, {13, 16, 3, 3, 0, 1, 3, 0, 1},
                                 {9, 30, 3, 3, 1, 1, 17, 1, 1},  {17, 46, 3, 3, 1, 1, 5, 0, 1},
                                 {11, 14, 3, 3, 2, 1, 4, 2, 1},  {10, 28, 3, 3, 2, 2, 6, 2, 1},
                                 {12, 14, 5, 5, 2, 1, 3, 2, 1},  {6, 30, 1, 3, 0, 1, 2, 1, 1},
                                 {1, 62, 3, 3, 1, 1, 3, 1, 1},   {25, 14, 3, 3, 1, 1, 2, 1, 1},
                                 {8, 15, 3, 3, 1, 1, 3, 2, 1},   {7, 13, 3, 3, 3, 1, 2, 3, 1},
                                 {28, 28, 3, 3, 1, 1, 3, 1, 2},  {19, 30, 3, 3, 1, 1, 2, 1, 2},
                                 {30, 30, 3, 3, 0, 1, 2, 0, 2},  {17, 56, 3, 3, 1, 1, 17, 0, 2},
                                 {36, 29, 3, 3, 1, 1, 2, 2, 2},  {3, 27, 3, 3, 1, 1, 2, 1, 2},
                                 {21, 31, 3, 3, 2, 1, 2, 0, 2}};
    tu_conv_shape s;
    for (int i = 0; i < (int)(sizeof cfg / sizeof cfg[0]); i++) {
        const int *c = cfg[i];
        s = tu_conv_shape2d(PDNN_DATA_FLOAT, i % 8 ? 6 : 1, c[6], 1, 1, c[0], c[1], c[2],
                            c[3], c[8], c[4], c[5]);
        s.xkind = s.ykind = i % 4 == 3 ? TU_LAYOUT_GAPPED : TU_LAYOUT_PACKED;
        s.pe[1] = c[7];
        s.flip = i % 3 == 1;
        s.krsc = i % 5 == 4;
        tu_conv_finish_shape(&s);
        tu_conv_check_family(&tu_conv_family_dw, &s, i != 2);
    }
}

/* The masked flat-plane path (conv_cpu_direct_dw_flat.c, AVX-512 only) run directly through
 * a test entry whose supports() is pdnn_dwmf_applies: stride 1, output width = input
 * width, planes of 1, 15, 16, 17, 49, 196 elements and larger (up to the 4096 limit; a
 * 4097-element plane refused), 1-d rows, 3x3 / 5x5 / 2x2 / 1x3 / 1x25 / 1x1 filters,
 * "same" padding (asymmetric too) with rows padded 0-2 (output heights that differ from
 * the input's), dilation 2, flip, KRSC (gathered weights), odd channel counts (a last
 * call of one plane; backward filter's single last channel), minibatches large enough for
 * the backward filter's threshold. Each direction must run here where the documented rules
 * say so; exact on small integers, beta != 0 and NaN-poisoned outputs (beta == 0), 1 and
 * 2 threads bitwise (the harness). */
static bool mf_supports(const void *prob, const char **why)
{
    if (pdnn_dwmf_applies(prob)) return true;
    *why = "outside the masked flat path";
    return false;
}

static pdnnStatus_t mf_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    return pdnn_dw_path_run(&pdnn_dwmf_path, prob, args, ctx->nthreads)
               ? PDNN_STATUS_SUCCESS
               : PDNN_STATUS_INTERNAL_ERROR;
}

static const pdnn_impl mf_entry = {"test:dw_masked_flat", -1, PDNN_ISA_AVX512,
                                   PDNN_IMPL_DETERMINISTIC, mf_supports, NULL, mf_exec};

/* The documented rules (conv_cpu_direct_dw_flat.c): the directions that run on the masked
 * path for a shape within its set. */
static bool mf_expected(const tu_conv_shape *s, pdnn_conv_dir dir)
{
    const int nsp = s->nsp, W = s->in[nsp - 1];
    const long H = nsp == 2 ? s->in[0] : 1, OH = nsp == 2 ? s->out[0] : 1;
    const long nout = (dir == PDNN_CONV_BWD_DATA ? H : OH) * W;
    /* 3 x 3 at unit dilation, padding 1 before (the shifted-lane kernel): 16384 outputs */
    const bool k3 = nsp == 2 && s->kern[0] == 3 && s->kern[1] == 3 && s->dil[0] == 1 &&
                    s->dil[1] == 1 && s->pb[0] == 1 && s->pb[1] == 1;
    if (nout > (k3 ? 16384 : 4096) || H * W == 1) return false; /* packed 1x1: channels-last */
    if (dir == PDNN_CONV_BWD_FILTER) return s->n * nout >= 784 && !(nout > 128 && nout <= 256);
    return !(nout > 256 && nout <= 1024 && W >= 16);
}

static void test_dw_masked(void)
{
    static const int cfg[][10] = {
        /* h, w, r1, r2, row pad before, row pad after, column pad before, dil, channels, n */
        {1, 1, 1, 1, 0, 0, 0, 1, 3, 20},    {1, 15, 3, 3, 1, 1, 1, 1, 5, 60},
        {1, 16, 3, 3, 1, 1, 1, 1, 2, 50},   {1, 17, 3, 3, 1, 1, 1, 1, 3, 47},
        {3, 5, 3, 3, 1, 1, 1, 1, 4, 53},    {4, 4, 3, 3, 1, 1, 1, 1, 3, 49},
        {7, 7, 3, 3, 1, 1, 1, 1, 19, 16},   {7, 7, 3, 3, 0, 0, 1, 1, 3, 20},
        {7, 7, 3, 3, 2, 2, 1, 1, 2, 13},    {7, 7, 5, 5, 2, 2, 2, 1, 5, 16},
        {14, 14, 3, 3, 1, 1, 1, 1, 9, 4},   {9, 11, 5, 5, 2, 1, 2, 1, 3, 8},
        {10, 12, 3, 3, 2, 2, 2, 2, 3, 7},   {8, 9, 2, 2, 0, 1, 1, 1, 3, 11},
        {6, 13, 1, 3, 0, 0, 1, 1, 4, 10},   {12, 12, 5, 5, 2, 2, 2, 1, 2, 6},
        {17, 1, 3, 3, 1, 1, 1, 1, 3, 47},   {2, 30, 1, 25, 0, 0, 12, 1, 2, 14},
        {33, 33, 3, 3, 1, 1, 1, 1, 2, 1},   {28, 28, 3, 3, 1, 1, 1, 1, 2, 2},
        {64, 64, 3, 3, 1, 1, 1, 1, 1, 1},   {56, 56, 3, 3, 1, 1, 1, 1, 2, 1},
        {1, 4097, 3, 3, 1, 1, 1, 1, 1, 1},  {1, 4097, 1, 3, 0, 0, 1, 1, 1, 1},
        {112, 112, 3, 3, 1, 1, 1, 1, 1, 1}, {1, 16385, 3, 3, 1, 1, 1, 1, 1, 1},
        {20, 24, 3, 3, 1, 0, 1, 1, 2, 3},   {21, 18, 3, 3, 1, 2, 1, 1, 3, 2},
        {3, 40, 3, 3, 1, 1, 1, 1, 3, 3},    {2, 16, 3, 3, 1, 1, 1, 1, 2, 3},
        {5, 31, 3, 3, 1, 1, 1, 1, 2, 4},    {9, 48, 3, 3, 1, 1, 1, 1, 3, 2}};
    if (pdnn_cpu_isa() < PDNN_ISA_AVX512) return;
    static const double al[] = {1, 2, -0.5}, be[] = {0, 0.5, 0, -1.5};
    for (int i = 0; i < (int)(sizeof cfg / sizeof cfg[0]); i++) {
        const int *c = cfg[i];
        tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, c[9], c[8], 1, 1, c[0], c[1], c[2],
                                          c[3], 1, c[6], c[7]);
        s.pb[0] = c[4];
        s.pe[0] = c[5];
        s.pb[1] = c[6];
        s.pe[1] = (c[3] - 1) * c[7] - c[6]; /* output width = input width */
        s.flip = i % 3 == 1;
        s.krsc = i % 4 == 2;
        tu_conv_finish_shape(&s);
        for (int d = 0; d < 3; d++) {
            const pdnn_conv_dir dir = (pdnn_conv_dir)d;
            const bool want = mf_expected(&s, dir);
            tu_conv_setup cs;
            tu_conv_setup_init(&cs, &s, dir);
            TU_CHECK(pdnn_dwmf_applies(&cs.p) == want, "masked flat %dx%d %s: applies %d, expected %d",
                     c[0], c[1], tu_conv_dir_name(dir), !want, want);
            if (want)
                tu_conv_check(&mf_entry, &s, dir, i % 5 != 4, al[(i + d) % 3], be[(i + 2 * d) % 4],
                              0, true);
        }
        tu_conv_check_family(&tu_conv_family_dw, &s, true);
    }
    /* 1-d rows */
    tu_conv_shape s = tu_conv_shape1d(PDNN_DATA_FLOAT, 20, 3, 1, 1, 49, 3, 1, 1, 1);
    for (int d = 0; d < 3; d++) {
        tu_conv_setup cs;
        tu_conv_setup_init(&cs, &s, (pdnn_conv_dir)d);
        TU_CHECK(pdnn_dwmf_applies(&cs.p), "masked flat 1-d %s runs", tu_conv_dir_name((pdnn_conv_dir)d));
        tu_conv_check(&mf_entry, &s, (pdnn_conv_dir)d, true, 1.0, d == 1 ? 0.5 : 0.0, 0, true);
    }
    /* refused: stride 2, a gapped row, output width != input width, multiplier 2 */
    const tu_conv_shape rs[] = {tu_conv_shape2d(PDNN_DATA_FLOAT, 4, 3, 1, 1, 8, 8, 3, 3, 2, 1, 1),
                                shape_dw(PDNN_DATA_FLOAT, 4, 3, 1, 8, 8, 3, 1, 1, 1, TU_LAYOUT_GAPPED),
                                tu_conv_shape2d(PDNN_DATA_FLOAT, 40, 3, 1, 1, 8, 8, 3, 3, 1, 0, 1),
                                shape_dw(PDNN_DATA_FLOAT, 20, 3, 2, 8, 8, 3, 1, 1, 1, TU_LAYOUT_PACKED)};
    for (int i = 0; i < 4; i++) {
        tu_conv_setup cs;
        tu_conv_setup_init(&cs, &rs[i], PDNN_CONV_FWD);
        TU_CHECK(!pdnn_dwmf_applies(&cs.p), "masked flat: refusal %d", i);
    }
}

/* The stride-2 path (conv_cpu_direct_dw_s2.c, AVX-512 only) run directly through a test
 * entry whose supports() is pdnn_dws2_applies: 3x3 and 5x5 (compiled sizes), 1x1, 2x2,
 * 4x4, 7x7, 3x5 (run-time sizes), odd and even heights and widths (x columns and rows no
 * output reads), padding 0-3 (wider than the kernel: outputs no tap reaches), asymmetric,
 * rows of one chunk and of many (300 columns), gapped rows, flip, KRSC, odd channel counts
 * and more channels than a backward-filter block (7x7: 20, 3x3: 113), minibatches 1-3;
 * every direction where the documented rules say so (output rows wider than half a
 * chunk), exact on small integers, beta != 0 and NaN-poisoned outputs (beta == 0), 1 and
 * 2 threads bitwise (the harness), then through the family's dispatch (every ISA cap). */
static bool s2_supports(const void *prob, const char **why)
{
    if (pdnn_dws2_applies(prob)) return true;
    *why = "outside the stride-2 path";
    return false;
}

static pdnnStatus_t s2_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    return pdnn_dw_path_run(&pdnn_dws2_path, prob, args, ctx->nthreads)
               ? PDNN_STATUS_SUCCESS
               : PDNN_STATUS_INTERNAL_ERROR;
}

static const pdnn_impl s2_entry = {"test:dw_stride2", -1, PDNN_ISA_AVX512,
                                   PDNN_IMPL_DETERMINISTIC, s2_supports, NULL, s2_exec};

static void test_dw_s2(void)
{
    static const int cfg[][11] = {
        /* h, w, r1, r2, row pad before, after, column pad before, after, channels, n, gapped */
        {28, 28, 3, 3, 1, 1, 1, 1, 5, 2, 0},   {27, 29, 3, 3, 1, 1, 1, 1, 3, 3, 0},
        {16, 17, 3, 3, 0, 0, 0, 0, 4, 2, 1},   {15, 18, 3, 3, 2, 2, 2, 2, 3, 1, 0},
        {13, 20, 3, 3, 1, 0, 0, 1, 2, 2, 0},   {9, 22, 3, 3, 3, 3, 3, 3, 3, 2, 0},
        {30, 33, 5, 5, 2, 2, 2, 2, 3, 2, 0},   {17, 40, 5, 5, 1, 1, 1, 2, 2, 3, 1},
        {12, 29, 5, 5, 0, 0, 0, 0, 3, 1, 0},   {11, 31, 2, 2, 0, 0, 0, 0, 3, 2, 0},
        {20, 45, 4, 4, 1, 1, 1, 1, 2, 2, 0},   {13, 19, 1, 1, 0, 0, 0, 0, 5, 1, 1},
        {21, 24, 7, 7, 3, 3, 3, 3, 23, 4, 0},  {8, 36, 3, 5, 1, 1, 2, 2, 3, 6, 0},
        {3, 300, 3, 3, 1, 1, 1, 1, 2, 2, 0},   {9, 16, 3, 3, 1, 1, 1, 1, 120, 1, 0},
        {14, 14, 3, 3, 1, 1, 1, 1, 3, 2, 0},   {10, 15, 3, 3, 1, 1, 1, 1, 2, 2, 0},
        {10, 13, 5, 5, 2, 2, 2, 2, 2, 2, 0},   {6, 34, 3, 3, 2, 1, 0, 0, 3, 3, 1}};
    const bool avx512 = pdnn_cpu_isa() >= PDNN_ISA_AVX512;
    static const double al[] = {1, 2, -0.5}, be[] = {0, 0.5, 0, -1.5};
    for (int i = 0; i < (int)(sizeof cfg / sizeof cfg[0]); i++) {
        const int *c = cfg[i];
        tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, c[9], c[8], 1, 1, c[0], c[1], c[2],
                                          c[3], 2, 0, 1);
        s.pb[0] = c[4];
        s.pe[0] = c[5];
        s.pb[1] = c[6];
        s.pe[1] = c[7];
        s.flip = i % 3 == 1;
        s.krsc = i % 4 == 2;
        s.xkind = s.ykind = c[10] ? TU_LAYOUT_GAPPED : TU_LAYOUT_PACKED;
        tu_conv_finish_shape(&s);
        const int ow = s.out[1];
        for (int d = 0; d < 3; d++) {
            const pdnn_conv_dir dir = (pdnn_conv_dir)d;
            tu_conv_setup cs;
            tu_conv_setup_init(&cs, &s, dir);
            /* a gapped layout may put the columns at a stride: refused */
            const bool unit = cs.p.xs[3] == 1 && cs.p.ys[3] == 1;
            /* backward filter from 392 output pixels a channel */
            const bool want = avx512 && unit && 2 * ow > 16 - (c[3] - 1) / 2 &&
                              (dir != PDNN_CONV_BWD_FILTER || (long)s.n * s.out[0] * ow >= 392);
            TU_CHECK(pdnn_dws2_applies(&cs.p) == want, "stride 2 %dx%d %dx%d %s: applies %d, expected %d",
                     c[0], c[1], c[2], c[3], tu_conv_dir_name(dir), !want, want);
            /* gapped rows only through the family below: tu_conv_check draws its gapped
             * layout once for supports() and again for the run, which the path may refuse
             * (a column stride past 1) */
            if (want && !c[10])
                tu_conv_check(&s2_entry, &s, dir, i % 5 != 4, al[(i + d) % 3], be[(i + 2 * d) % 4],
                              0, true);
        }
        tu_conv_check_family(&tu_conv_family_dw, &s, true);
    }
    /* refused: stride 1, stride 2 x 1, dilation 2, multiplier 2, an 8-tap row, NHWC */
    tu_conv_shape rs[6];
    rs[0] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 20, 40, 3, 3, 1, 1, 1);
    rs[1] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 20, 40, 3, 3, 2, 1, 1);
    rs[1].str[1] = 1;
    tu_conv_finish_shape(&rs[1]);
    rs[2] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 20, 40, 3, 3, 2, 2, 2);
    rs[3] = shape_dw(PDNN_DATA_FLOAT, 2, 3, 2, 20, 40, 3, 2, 1, 1, TU_LAYOUT_PACKED);
    rs[4] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 20, 60, 3, 8, 2, 1, 1);
    rs[5] = shape_dw(PDNN_DATA_FLOAT, 2, 3, 1, 20, 40, 3, 2, 1, 1, TU_LAYOUT_CHANNELS_LAST);
    for (int i = 0; i < 6; i++) {
        tu_conv_setup cs;
        tu_conv_setup_init(&cs, &rs[i], PDNN_CONV_FWD);
        TU_CHECK(!pdnn_dws2_applies(&cs.p), "stride 2: refusal %d", i);
    }
}

static void test_dw_refusals(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 2, 2, 1, 5, 5, 3, 3, 1, 1, 1);
    s.kern[0] = 17;
    s.kern[1] = 17;
    s.in[0] = s.in[1] = 20;
    tu_conv_finish_shape(&s);
    tu_conv_shape s2 = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 2, 1, 1, 20, 20, 17, 17, 1, 1, 1);
    for (int d = 0; d < 3; d++) {
        const pdnn_impl *im = tu_conv_family_dw.im[d];
        tu_conv_setup cs;
        const char *why = NULL;
        tu_conv_setup_init(&cs, &s, (pdnn_conv_dir)d);
        TU_CHECK(!im->supports(&cs.p, &why) && why && *why, "dw %s: 2 channels per group refused",
                 tu_conv_dir_name((pdnn_conv_dir)d));
        why = NULL;
        tu_conv_setup_init(&cs, &s2, (pdnn_conv_dir)d);
        TU_CHECK(!im->supports(&cs.p, &why) && why && *why, "dw %s: 289 taps refused",
                 tu_conv_dir_name((pdnn_conv_dir)d));
        why = NULL;
        tu_conv_setup_init(&cs, &s2, (pdnn_conv_dir)((d + 1) % 3));
        TU_CHECK(!im->supports(&cs.p, &why) && why, "dw: wrong direction refused");
    }
}

/* ---- through the public API */

static pdnnHandle_t handle;

/* The public call with algorithm algo on shape s reaches entry im: the API's workspace
 * query gives im's size and, with exactly that workspace, the result is bitwise im's
 * (run here directly on the same data), on 1 and 2 threads. (The harness's
 * tu_conv_api_check also expects a workspace one byte short to fail; an algorithm with
 * several entries instead falls back to the next one that fits - the reference - so it
 * runs here only where im needs no workspace, for layouts without random gaps: the
 * harness draws its own.) */
static void api_reaches(const tu_conv_shape *s, pdnn_conv_dir dir, int algo, const pdnn_impl *im)
{
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, s, dir);
    const size_t want = im->workspace(&cs.p);
    if (want == 0 && s->xkind != TU_LAYOUT_GAPPED && s->ykind != TU_LAYOUT_GAPPED) {
        tu_conv_api_check(handle, s, dir, algo, im, true, 1.0, 0.5, 0);
        return;
    }
    const pdnnDataType_t t = s->t;
    const tu_conv_layout *ls = dir == PDNN_CONV_BWD_DATA ? &cs.y : &cs.x;
    const tu_conv_layout *lw = dir == PDNN_CONV_BWD_FILTER ? &cs.y : &cs.w;
    const tu_conv_layout *ld = dir == PDNN_CONV_FWD ? &cs.y : dir == PDNN_CONV_BWD_DATA ? &cs.x : &cs.w;
    const size_t ns = (size_t)ls->span, nw = (size_t)lw->span, nd = (size_t)ld->span;
    void *src = tu_alloc(t, ns), *wei = tu_alloc(t, nw), *d0 = tu_alloc(t, nd);
    void *d1 = tu_alloc(t, nd), *d2 = tu_alloc(t, nd);
    tu_fill_uniform(src, t, ns, -1, 1);
    tu_fill_uniform(wei, t, nw, -1, 1);
    tu_fill_uniform(d0, t, nd, -1, 1);
    memcpy(d1, d0, nd * tu_esize(t));
    TU_OK(tu_conv_run_impl(im, &cs.p, src, wei, d1, 1.0, 0.5, 1));
    pdnnTensorDescriptor_t xd = tu_tensor(t, cs.x.nb, cs.x.dims, cs.x.st);
    pdnnTensorDescriptor_t yd = tu_tensor(t, cs.y.nb, cs.y.dims, cs.y.st);
    pdnnFilterDescriptor_t wd;
    pdnnConvolutionDescriptor_t cd;
    TU_OK(pdnnCreateFilterDescriptor(&wd));
    TU_OK(pdnnSetFilterNdDescriptor(wd, t, s->krsc ? PDNN_TENSOR_NHWC : PDNN_TENSOR_NCHW,
                                    cs.w.nb, cs.w.dims));
    TU_OK(pdnnCreateConvolutionDescriptor(&cd));
    TU_OK(pdnnSetConvolutionNdDescriptorEx(cd, s->nsp, s->pb, s->pe, s->str, s->dil,
                                           s->flip ? PDNN_CONVOLUTION : PDNN_CROSS_CORRELATION,
                                           t));
    TU_OK(pdnnSetConvolutionGroupCount(cd, s->g));
    const tu_scalar al = tu_sc(t, 1.0), be = tu_sc(t, 0.5);
    for (int nt = 1; nt <= 2; nt++) {
        size_t wsb = 0;
        TU_OK(pdnnSetNumThreads(handle, nt));
        memcpy(d2, d0, nd * tu_esize(t));
        void *ws = NULL;
        if (dir == PDNN_CONV_FWD) {
            TU_OK(pdnnGetConvolutionForwardWorkspaceSize(handle, xd, wd, cd, yd, algo, &wsb));
            ws = tu_alloc(PDNN_DATA_INT8, wsb ? wsb : 1);
            TU_OK(pdnnConvolutionForward(handle, &al, xd, src, wd, wei, cd, algo, ws, wsb, &be,
                                         yd, d2));
        } else if (dir == PDNN_CONV_BWD_DATA) {
            TU_OK(pdnnGetConvolutionBackwardDataWorkspaceSize(handle, wd, yd, cd, xd, algo, &wsb));
            ws = tu_alloc(PDNN_DATA_INT8, wsb ? wsb : 1);
            TU_OK(pdnnConvolutionBackwardData(handle, &al, wd, wei, yd, src, cd, algo, ws, wsb,
                                              &be, xd, d2));
        } else {
            TU_OK(pdnnGetConvolutionBackwardFilterWorkspaceSize(handle, xd, yd, cd, wd, algo,
                                                                &wsb));
            ws = tu_alloc(PDNN_DATA_INT8, wsb ? wsb : 1);
            TU_OK(pdnnConvolutionBackwardFilter(handle, &al, xd, src, yd, wei, cd, algo, ws, wsb,
                                                &be, wd, d2));
        }
        free(ws);
        TU_CHECK(wsb == want, "%s %s: API workspace %zu, entry %zu", im->name,
                 tu_conv_dir_name(dir), wsb, want);
        TU_CHECK(tu_bitwise_equal(d1, d2, nd * tu_esize(t)),
                 "%s %s algo %d, %d threads: API result differs from the entry's", im->name,
                 tu_conv_dir_name(dir), algo, nt);
    }
    pdnnDestroyTensorDescriptor(xd);
    pdnnDestroyTensorDescriptor(yd);
    pdnnDestroyFilterDescriptor(wd);
    pdnnDestroyConvolutionDescriptor(cd);
    free(src);
    free(wei);
    free(d0);
    free(d1);
    free(d2);
}

static void test_api(void)
{
    TU_OK(pdnnCreate(&handle));
    for (int i = 0; i < 12; i++) {
        tu_conv_shape s;
        rand_1x1(&s, i % 2 ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT);
        s.cg += s.cg == 1; /* a depthwise 1x1 problem dispatches to cpu:direct_dw */
        const pdnn_conv_dir dir = (pdnn_conv_dir)(i % 3);
        api_reaches(&s, dir, fam_1x1.algo[dir], fam_1x1.im[dir]);
        rand_dw(&s, i % 2 ? PDNN_DATA_FLOAT : PDNN_DATA_DOUBLE);
        /* one group of one channel: with AVX2 exactly, cpu:direct_phase serves DIRECT and
         * ALGO_0 first */
        s.g += s.g == 1;
        api_reaches(&s, dir, tu_conv_family_dw.algo[dir], tu_conv_family_dw.im[dir]);
    }
    TU_OK(pdnnDestroy(handle));
}

int main(void)
{
    tu_seed(4242);
    test_1x1_by_hand();
    test_1x1_refusals();
    test_dw_refusals();
    test_dw_blocks();
    test_dw_bands();
    test_dw_flat();
    test_dw_masked();
    test_dw_s2();
    for (int ti = 0; ti < 2; ti++) {
        const pdnnDataType_t t = ti ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        test_1x1_edges(t);
        test_1x1_random(t, 60);
        test_dw_edges(t);
        test_dw_random(t, 60);
    }
    test_api();
    printf("conv direct: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_direct");
}
