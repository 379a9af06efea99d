/* The AVX2 3x3 depthwise planes (conv_cpu_direct_dw_a2.c: forward and backward data,
 * stride 1 and 2, padding 1, row kernels of dwa2_ukernels.h; AVX2 only, not at AVX-512)
 * against the independent oracle of tests/common/tu_conv.h, run directly through the
 * path's test entry (tu_conv_dw_path_entry): widths 1-49 (one masked vector; the first
 * vector with only its left column outside; interior vectors; last vectors full or partial,
 * partial stores of 1-7 lanes; at stride 2 source rows of odd and even width, a last
 * 16-column pair reaching past the row; backward data's dx columns past the last dy
 * vector), heights 1-17 (groups of 4 (stride 1; 8 on rows of at most 8 columns) and 2
 * (stride 2) output rows with every remainder, first and last groups with padding rows,
 * one-row planes), the end padding 0 on even sizes at stride 2 (the same outputs: taken),
 * flip, KRSC (gathered weights),
 * gapped layouts (rows and planes at other pitches; columns at a stride refused),
 * channel counts and minibatches that cross the thread shares; every direction where the
 * documented rules say so (never backward filter), exact on small integers, beta != 0 and
 * NaN-poisoned outputs (beta == 0), alpha 1 / 2 / -0.5, 1 and 2 threads bitwise (the
 * harness). Then the same shapes through cpu:direct_dw's dispatch at every ISA cap
 * (PDNN_MAX_CPU_ISA). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "cpu/isa.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_a2.h"
#include "tu_conv.h"
#include "tu_layout.h"

/* the path's test entry (tests/common/tu_conv.h), made in main */
static const pdnn_impl *a2_entry;

static const int cfg[][7] = {
    /* h, w, stride, channels, n, end padding, gapped */
    {7, 7, 1, 5, 2, 1, 0},    {14, 14, 1, 3, 3, 1, 0},  {1, 3, 1, 3, 2, 1, 0},
    {2, 8, 1, 4, 1, 1, 0},    {3, 9, 1, 3, 2, 1, 0},    {5, 16, 1, 2, 2, 1, 0},
    {6, 17, 1, 3, 1, 1, 1},   {9, 25, 1, 2, 2, 1, 0},   {4, 28, 1, 5, 1, 1, 0},
    {13, 33, 1, 2, 1, 1, 0},  {8, 2, 1, 3, 3, 1, 0},    {10, 40, 1, 1, 2, 1, 1},
    {12, 15, 1, 7, 3, 1, 0},  {11, 23, 1, 2, 1, 1, 0},  {14, 14, 2, 5, 2, 1, 0},
    {7, 7, 2, 3, 3, 1, 0},    {1, 2, 2, 3, 1, 1, 0},    {2, 2, 2, 4, 2, 1, 0},
    {3, 3, 2, 2, 2, 1, 0},    {8, 16, 2, 3, 1, 0, 0},   {9, 17, 2, 2, 2, 1, 0},
    {6, 18, 2, 3, 1, 1, 1},   {13, 31, 2, 2, 1, 1, 0},  {5, 33, 2, 2, 2, 1, 0},
    {12, 34, 2, 3, 1, 0, 0},  {10, 35, 2, 2, 1, 1, 1},  {4, 49, 2, 1, 2, 1, 0},
    {11, 8, 2, 5, 2, 1, 0},   {28, 28, 2, 2, 1, 1, 0},  {16, 56, 2, 1, 1, 1, 0},
    {28, 28, 1, 2, 1, 1, 0},  {3, 19, 2, 9, 5, 1, 0},  {13, 5, 1, 3, 2, 1, 0},
    {17, 8, 1, 2, 1, 1, 0},   {16, 6, 1, 2, 1, 1, 0},   {9, 4, 1, 3, 2, 1, 1}};

static tu_conv_shape cfg_shape(int i) { return tu_conv_dw_plane_shape(cfg[i], i); }

/* the directions the path takes (AVX2) */
static bool rule(pdnn_conv_dir dir, const int *row)
{
    (void)row;
    return pdnn_cpu_isa() == PDNN_ISA_AVX2 && dir != PDNN_CONV_BWD_FILTER;
}

static void test_path(void)
{
    const bool avx2 = pdnn_cpu_isa() == PDNN_ISA_AVX2;
    long runs;
    const int ran = tu_conv_dw_plane_sweep(cfg, (int)(sizeof cfg / sizeof cfg[0]), a2_entry, pdnn_dwa2_applies, rule,
                                           "avx2 planes", &runs);
    /* each check runs the entry twice (1 and 2 threads) */
    TU_CHECK(!avx2 || (ran >= 55 && runs >= 4 * ran + 6), "avx2 planes: %d packed direction cases, %ld path runs",
             ran, runs);
    /* refused: padding 0, stride 1 with the end padding 0 (a smaller output), dilation 2,
     * 5x5, multiplier 2, NHWC, double, 1-d, stride 2 x 1, stride 3, odd height at stride 2
     * with the end padding 0 (its last output row reaches only the padding row before) */
    tu_conv_shape rs[11];
    rs[0] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 1, 0, 1);
    rs[1] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 1, 1, 1);
    rs[1].pe[0] = 0;
    rs[2] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 1, 1, 2);
    rs[3] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 5, 5, 1, 1, 1);
    rs[4] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 2, 14, 14, 3, 3, 1, 1, 1);
    rs[5] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 2, 1, 1);
    rs[5].xkind = rs[5].ykind = TU_LAYOUT_CHANNELS_LAST;
    rs[6] = tu_conv_shape2d(PDNN_DATA_DOUBLE, 2, 3, 1, 1, 14, 14, 3, 3, 1, 1, 1);
    rs[7] = tu_conv_shape1d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 3, 1, 1, 1);
    rs[8] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 2, 1, 1);
    rs[8].str[1] = 1;
    rs[9] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 3, 1, 1);
    rs[10] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 13, 14, 3, 3, 2, 1, 1);
    rs[10].pe[0] = 0;
    for (int i = 0; i < 11; i++) {
        tu_conv_finish_shape(&rs[i]);
        for (int d = 0; d < 3; d++) {
            tu_conv_setup cs;
            tu_conv_setup_init(&cs, &rs[i], (pdnn_conv_dir)d);
            TU_CHECK(!pdnn_dwa2_applies(&cs.p), "avx2 planes: refusal %d %s", i,
                     tu_conv_dir_name((pdnn_conv_dir)d));
        }
    }
}

int main(void)
{
    a2_entry = tu_conv_dw_path_entry(&pdnn_dwa2_path, "test:dw_avx2_planes",
                                     "outside the AVX2 3x3 plane path");
    tu_seed(3137);
    const char *cap = getenv("PDNN_MAX_CPU_ISA");
    test_path();
    /* the shapes through the family's dispatch, at every ISA cap the CPU has */
    tu_conv_check_family_caps(&tu_conv_family_dw, (int)(sizeof cfg / sizeof cfg[0]), cfg_shape,
                              cap && *cap);
    printf("conv dw avx2 planes: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_dw_a2");
}
