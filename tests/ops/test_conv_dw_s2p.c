/* The stride-2 small-plane depthwise path (conv_cpu_direct_dw_s2p.c, two output rows a
 * vector, AVX-512 only) against the independent oracle of tests/common/tu_conv.h, run
 * directly through a test entry whose supports() is pdnn_dws2p_applies: 3x3 (compiled
 * sizes) and 1x1, 2x2, 4x4, 5x5, 7x7, 3x5 (run-time sizes), output rows of 1 to 8 columns
 * (the 8-column and 2 (OW - 1) + kw = 16 limits, 17 refused), odd and even heights (a last
 * pair of one row) and widths, input columns no output reads, padding 0-3 (wider than the
 * kernel: outputs no tap reaches), asymmetric, gapped rows (two stores a pair), flip, KRSC
 * (gathered weights), channel counts that cross the 16-plane calls and the images,
 * minibatches 1-100 (the backward filter from 392 output pixels a channel, below on the
 * channel blocks); every direction where the documented rules say so, exact on small
 * integers, beta != 0 and NaN-poisoned outputs (beta == 0), 1 and 2 threads bitwise (the
 * harness). Then the same shapes through cpu:direct_dw's dispatch at every ISA cap
 * (PDNN_MAX_CPU_ISA: the other paths below AVX-512). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "cpu/isa.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_s2p.h"
#include "tu_conv.h"
#include "tu_layout.h"



/* the path's test entry (tests/common/tu_conv.h), made in main */
static const pdnn_impl *s2p_entry;

static const int cfg[][11] = {
    /* h, w, r1, r2, row pad before, after, column pad before, after, channels, n, gapped */
    {14, 14, 3, 3, 1, 1, 1, 1, 37, 8, 0}, {13, 13, 3, 3, 1, 1, 1, 1, 5, 9, 0},
    {12, 11, 3, 3, 0, 0, 0, 0, 3, 20, 1}, {7, 7, 3, 3, 1, 1, 1, 1, 19, 2, 0},
    {4, 4, 3, 3, 1, 1, 1, 1, 3, 100, 0},  {2, 3, 3, 3, 1, 1, 1, 1, 4, 2, 0},
    {6, 9, 3, 3, 3, 3, 3, 3, 3, 11, 0},   {9, 16, 1, 1, 0, 0, 0, 0, 5, 1, 0},
    {16, 16, 2, 2, 0, 0, 0, 0, 2, 7, 1},  {10, 10, 5, 5, 2, 2, 2, 2, 3, 16, 0},
    {11, 10, 7, 7, 3, 3, 3, 3, 17, 2, 0}, {8, 12, 3, 5, 1, 0, 2, 1, 3, 20, 0},
    {5, 13, 4, 4, 1, 1, 1, 1, 2, 3, 1},   {15, 15, 3, 3, 1, 1, 1, 1, 3, 1, 0},
    {9, 8, 3, 3, 2, 0, 0, 2, 2, 25, 0},   {14, 14, 3, 3, 1, 1, 1, 1, 2, 8, 1},
    {3, 17, 1, 1, 0, 0, 0, 0, 2, 1, 0},   {8, 14, 3, 5, 1, 1, 2, 2, 2, 12, 0},
    {7, 7, 3, 3, 1, 1, 1, 1, 3, 98, 0}};

static tu_conv_shape cfg_shape(int i)
{
    const int *c = cfg[i];
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, c[9], c[8], 1, 1, c[0], c[1], c[2], c[3], 2,
                                      0, 1);
    s.pb[0] = c[4];
    s.pe[0] = c[5];
    s.pb[1] = c[6];
    s.pe[1] = c[7];
    s.flip = i % 3 == 1;
    s.krsc = i % 4 == 2;
    s.xkind = s.ykind = c[10] ? TU_LAYOUT_GAPPED : TU_LAYOUT_PACKED;
    tu_conv_finish_shape(&s);
    return s;
}

static void test_path(void)
{
    const bool avx512 = pdnn_cpu_isa() >= PDNN_ISA_AVX512;
    static const double al[] = {1, 2, -0.5}, be[] = {0, 0.5, 0, -1.5};
    int ran = 0;
    const long runs0 = tu_conv_dw_path_runs;
    for (int i = 0; i < (int)(sizeof cfg / sizeof cfg[0]); i++) {
        const int *c = cfg[i];
        const tu_conv_shape s = cfg_shape(i);
        const int ow = s.out[1];
        for (int d = 0; d < 3; d++) {
            const pdnn_conv_dir dir = (pdnn_conv_dir)d;
            tu_conv_setup cs;
            tu_conv_setup_init(&cs, &s, dir);
            /* a gapped layout may put the columns at a stride: refused */
            const bool unit = cs.p.xs[3] == 1 && cs.p.ys[3] == 1;
            const bool rule = ow <= 8 && 2 * (ow - 1) + c[3] <= 16 && c[1] <= 16 &&
                              (dir != PDNN_CONV_BWD_FILTER || s.n * s.out[0] * ow >= 392);
            const bool want = avx512 && unit && rule;
            TU_CHECK(pdnn_dws2p_applies(&cs.p) == want,
                     "stride-2 pairs %dx%d %dx%d %s: applies %d, expected %d", c[0], c[1], c[2],
                     c[3], tu_conv_dir_name(dir), !want, want);
            if (want && !c[10]) {
                tu_conv_check(s2p_entry, &s, dir, i % 5 != 4, al[(i + d) % 3],
                              be[(i + 2 * d) % 4], 0, true);
                ran++;
            } else if (avx512 && c[10] && rule) {
                /* the check draws its own gapped layout, columns at a stride (refused) more
                 * often than not: drawn until the path ran on one */
                const long r0 = tu_conv_dw_path_runs;
                tu_conv_dw_path_any_layout = true;
                for (int k = 0; k < 400 && tu_conv_dw_path_runs == r0; k++)
                    tu_conv_check(s2p_entry, &s, dir, i % 5 != 4, al[(i + d) % 3],
                                  be[(i + 2 * d) % 4], 0, true);
                tu_conv_dw_path_any_layout = false;
                TU_CHECK(tu_conv_dw_path_runs > r0, "stride-2 pairs %dx%d %s: no gapped layout ran", c[0],
                         c[1], tu_conv_dir_name(dir));
            }
        }
    }
    /* each check runs the entry twice (1 and 2 threads) */
    TU_CHECK(!avx512 || (ran >= 30 && tu_conv_dw_path_runs - runs0 >= 2 * ran + 16),
             "stride-2 pairs: %d packed direction cases, %ld path runs", ran, tu_conv_dw_path_runs - runs0);
    /* refused: stride 1, stride 2 x 1, dilation 2, multiplier 2, NHWC, double */
    tu_conv_shape rs[6];
    rs[0] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 1, 1, 1);
    rs[1] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 2, 1, 1);
    rs[1].str[1] = 1;
    tu_conv_finish_shape(&rs[1]);
    rs[2] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 2, 2, 2);
    rs[3] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 2, 14, 14, 3, 3, 2, 1, 1);
    rs[4] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 2, 1, 1);
    rs[4].xkind = rs[4].ykind = TU_LAYOUT_CHANNELS_LAST;
    rs[5] = tu_conv_shape2d(PDNN_DATA_DOUBLE, 2, 3, 1, 1, 14, 14, 3, 3, 2, 1, 1);
    for (int i = 0; i < 6; i++) {
        tu_conv_setup cs;
        tu_conv_setup_init(&cs, &rs[i], (pdnn_conv_dir)(i % 3));
        TU_CHECK(!pdnn_dws2p_applies(&cs.p), "stride-2 pairs: refusal %d", i);
    }
}

int main(void)
{
    s2p_entry = tu_conv_dw_path_entry(&pdnn_dws2p_path, "test:dw_stride2_pairs",
                                      "outside the stride-2 small-plane path");
    tu_seed(2718);
    const char *cap = getenv("PDNN_MAX_CPU_ISA");
    test_path();
    /* the shapes through the family's dispatch, at every ISA cap the CPU has */
    tu_conv_check_family_caps(&tu_conv_family_dw, (int)(sizeof cfg / sizeof cfg[0]), cfg_shape,
                              cap && *cap);
    printf("conv dw stride-2 pairs: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_dw_s2p");
}
