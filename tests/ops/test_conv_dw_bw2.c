/* The AVX2 3x3 depthwise backward-filter path (conv_cpu_direct_dw_bw2.c, AVX2 exactly:
 * refused at AVX-512 and below AVX2) against the independent oracle of
 * tests/common/tu_conv.h, run directly through a test entry whose supports() is
 * pdnn_dwbw2_applies: strides 1 and 2, output rows of 1 to 70 columns (a partial last
 * vector, a row of one vector with lanes outside x on both sides, the unmasked middle
 * vectors, a last unmasked vector that reads the row's last column; up to 16 x 16
 * outputs: channel blocks of 8, 17 and 33 channels for partial last blocks), heights 1-40 (odd and even: stride 1's row pairs and an odd last row),
 * input columns and rows no output reads, padding 0-3 (wider than the kernel: whole tap
 * rows on padding), asymmetric, flip, KRSC (gathered weights), channel counts that
 * cross the threads' shares, minibatches 1-9, gapped layouts (x and dy rows and planes at
 * other strides: read in place), exact on small integers, random data, beta != 0 and
 * NaN-poisoned outputs (beta == 0), 1 and 2 threads bitwise (the harness); forward and
 * backward data refused. Then the same shapes through cpu:direct_dw's dispatch at every
 * ISA cap (PDNN_MAX_CPU_ISA: the other paths below AVX2). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "cpu/isa.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_bw2.h"
#include "tu_conv.h"
#include "tu_layout.h"

/* the path's test entry (tests/common/tu_conv.h), made in main */
static const pdnn_impl *bw2_entry;

static const int cfg[][11] = {
    /* h, w, row pad before, after, column pad before, after, channels, n, gapped, flip,
     * stride */
    {7, 7, 1, 1, 1, 1, 9, 1, 0, 0, 1},     {14, 14, 1, 1, 1, 1, 5, 2, 0, 1, 1},
    {28, 28, 1, 1, 1, 1, 3, 1, 0, 0, 1},   {13, 17, 1, 1, 1, 1, 4, 3, 1, 0, 1},
    {1, 5, 1, 1, 1, 1, 3, 2, 0, 0, 1},     {2, 1, 1, 1, 1, 1, 2, 3, 0, 1, 1},
    {9, 8, 0, 0, 0, 0, 5, 2, 0, 0, 1},     {5, 16, 2, 0, 0, 2, 3, 1, 0, 0, 1},
    {6, 9, 3, 3, 3, 3, 3, 2, 0, 1, 1},     {3, 3, 3, 3, 3, 3, 2, 1, 0, 0, 1},
    {11, 70, 1, 1, 1, 1, 2, 2, 0, 0, 1},   {4, 64, 0, 2, 1, 0, 3, 1, 1, 0, 1},
    {40, 24, 1, 1, 1, 1, 2, 1, 0, 1, 1},   {8, 33, 2, 1, 3, 2, 17, 1, 0, 0, 1},
    {56, 56, 1, 1, 1, 1, 2, 1, 0, 0, 1},   {10, 40, 1, 1, 1, 1, 2, 9, 0, 0, 1},
    {7, 7, 1, 1, 1, 1, 9, 1, 0, 0, 2},     {14, 14, 1, 1, 1, 1, 5, 2, 0, 1, 2},
    {28, 28, 1, 1, 1, 1, 3, 1, 0, 0, 2},   {13, 17, 1, 1, 1, 1, 4, 3, 1, 0, 2},
    {1, 5, 1, 1, 1, 1, 3, 2, 0, 0, 2},     {2, 1, 1, 1, 1, 1, 2, 3, 0, 1, 2},
    {9, 8, 0, 0, 0, 0, 5, 2, 0, 0, 2},     {5, 16, 2, 0, 0, 2, 3, 1, 0, 0, 2},
    {6, 9, 3, 3, 3, 3, 3, 2, 0, 1, 2},     {3, 3, 3, 3, 3, 3, 2, 1, 0, 0, 2},
    {11, 70, 1, 1, 1, 1, 2, 2, 0, 0, 2},   {4, 64, 0, 2, 1, 0, 3, 1, 1, 0, 2},
    {40, 24, 1, 1, 1, 1, 2, 1, 0, 1, 2},   {8, 33, 2, 1, 3, 2, 17, 1, 0, 0, 2},
    {56, 56, 1, 1, 1, 1, 2, 1, 0, 0, 2},   {10, 40, 1, 1, 1, 1, 2, 9, 0, 0, 2},
    {20, 141, 1, 1, 1, 1, 2, 1, 0, 0, 2},  {3, 130, 0, 1, 2, 0, 2, 2, 0, 1, 2},
    {6, 34, 1, 1, 0, 1, 33, 1, 0, 0, 1},   {6, 34, 1, 1, 0, 1, 33, 1, 0, 0, 2},
    /* stride 2, the last unmasked vector reading the row's last column (16 v + 16 - p2
     * = W - 1); channel blocks (<= 16 x 16 outputs) on gapped layouts */
    {5, 47, 1, 1, 1, 1, 3, 1, 0, 0, 2},    {3, 63, 1, 1, 1, 1, 2, 2, 0, 1, 2},
    {9, 12, 1, 1, 1, 1, 10, 2, 1, 0, 1},   {9, 12, 1, 1, 1, 1, 10, 2, 1, 1, 2}};

static tu_conv_shape cfg_shape(int i)
{
    const int *c = cfg[i];
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, c[7], c[6], 1, 1, c[0], c[1], 3, 3, c[10],
                                      0, 1);
    s.pb[0] = c[2];
    s.pe[0] = c[3];
    s.pb[1] = c[4];
    s.pe[1] = c[5];
    s.flip = c[9] != 0;
    s.krsc = i % 4 == 2;
    s.xkind = s.ykind = c[8] ? TU_LAYOUT_GAPPED : TU_LAYOUT_PACKED;
    tu_conv_finish_shape(&s);
    return s;
}

static void test_path(void)
{
    const bool avx2 = pdnn_cpu_isa() == PDNN_ISA_AVX2;
    static const double al[] = {1, 2, -0.5}, be[] = {0, 0.5, 0, -1.5};
    int ran = 0;
    const long runs0 = tu_conv_dw_path_runs;
    for (int i = 0; i < (int)(sizeof cfg / sizeof cfg[0]); i++) {
        const int *c = cfg[i];
        const tu_conv_shape s = cfg_shape(i);
        for (int d = 0; d < 3; d++) {
            const pdnn_conv_dir dir = (pdnn_conv_dir)d;
            tu_conv_setup cs;
            tu_conv_setup_init(&cs, &s, dir);
            const bool unit = cs.p.xs[3] == 1 && cs.p.ys[3] == 1;
            const bool want = avx2 && unit && dir == PDNN_CONV_BWD_FILTER;
            TU_CHECK(pdnn_dwbw2_applies(&cs.p) == want,
                     "dw backward filter avx2 %dx%d s%d %s: applies %d, expected %d", c[0], c[1],
                     c[10], tu_conv_dir_name(dir), !want, want);
            if (avx2 && c[8] && dir == PDNN_CONV_BWD_FILTER) {
                /* a gapped layout drawn by the check puts the columns at a stride (refused)
                 * more often than not: drawn until the path ran on 8 (rows and planes with
                 * and without gaps) */
                const long r0 = tu_conv_dw_path_runs;
                tu_conv_dw_path_any_layout = true;
                for (int k = 0; k < 800 && tu_conv_dw_path_runs < r0 + 16; k++)
                    tu_conv_check(bw2_entry, &s, dir, true, al[k % 3], be[k % 4], 0, true);
                tu_conv_dw_path_any_layout = false;
                TU_CHECK(tu_conv_dw_path_runs >= r0 + 16,
                         "dw backward filter avx2 %dx%d: %ld gapped runs", c[0], c[1],
                         tu_conv_dw_path_runs - r0);
            }
            if (!want || c[8]) continue;
            tu_conv_check(bw2_entry, &s, dir, i % 5 != 4, al[i % 3], be[i % 4], 0, true);
            ran++;
            if (i % 5 != 4) /* small integers: exact; also random data once */
                tu_conv_check(bw2_entry, &s, dir, false, al[(i + 1) % 3], be[(i + 1) % 4], 0, true);
        }
    }
    /* each check runs the entry twice (1 and 2 threads) */
    TU_CHECK(!avx2 || (ran >= 30 && tu_conv_dw_path_runs - runs0 >= 2 * ran + 6 * 16),
             "dw backward filter avx2: %d cases, %ld path runs", ran, tu_conv_dw_path_runs - runs0);
    /* refused: stride 3, stride 2 x 1, dilation 2, multiplier 2, NHWC, double, 5x5, 3x2,
     * 513 output columns, 1-d */
    tu_conv_shape rs[10];
    rs[0] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 3, 1, 1);
    rs[1] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 2, 1, 1);
    rs[1].str[1] = 1;
    tu_conv_finish_shape(&rs[1]);
    rs[2] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 1, 2, 2);
    rs[3] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 2, 14, 14, 3, 3, 1, 1, 1);
    rs[4] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 1, 1, 1);
    rs[4].xkind = rs[4].ykind = TU_LAYOUT_CHANNELS_LAST;
    rs[5] = tu_conv_shape2d(PDNN_DATA_DOUBLE, 2, 3, 1, 1, 14, 14, 3, 3, 1, 1, 1);
    rs[6] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 5, 5, 1, 2, 1);
    rs[7] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 2, 1, 1, 1);
    rs[8] = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 2, 1, 1, 2, 513, 3, 3, 1, 1, 1);
    rs[9] = tu_conv_shape1d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 20, 3, 1, 1, 1);
    for (int i = 0; i < 10; i++) {
        tu_conv_setup cs;
        tu_conv_setup_init(&cs, &rs[i], PDNN_CONV_BWD_FILTER);
        TU_CHECK(!pdnn_dwbw2_applies(&cs.p), "dw backward filter avx2: refusal %d", i);
    }
    /* the largest row taken: 512 output columns (x rows of 1024 at stride 2) */
    tu_conv_shape big = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 2, 1, 1, 3, 1024, 3, 3, 2, 1, 1);
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, &big, PDNN_CONV_BWD_FILTER);
    TU_CHECK(pdnn_dwbw2_applies(&cs.p) == avx2, "dw backward filter avx2: 512 columns");
    if (avx2) tu_conv_check(bw2_entry, &big, PDNN_CONV_BWD_FILTER, true, 1, 0, 0, true);
}

int main(void)
{
    bw2_entry = tu_conv_dw_path_entry(&pdnn_dwbw2_path, "test:dw_bwd_filter_avx2",
                                      "outside the AVX2 backward-filter path");
    tu_seed(27182);
    const char *cap = getenv("PDNN_MAX_CPU_ISA");
    test_path();
    /* the shapes through the family's dispatch, at every ISA cap the CPU has */
    tu_conv_check_family_caps(&tu_conv_family_dw, (int)(sizeof cfg / sizeof cfg[0]), cfg_shape,
                              cap && *cap);
    printf("conv dw backward filter avx2: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_dw_bw2");
}
