/* The AVX2 channel-interleaved 3x3 depthwise planes (conv_cpu_direct_dw_t8.c: forward at
 * stride 1 and 2, backward data at stride 1, padding 1, blocks of 8 channels through the
 * kernels of dwt8_ukernels.h; AVX2 only, not at AVX-512) against the independent oracle
 * of tests/common/tu_conv.h, run directly through the path's test entry
 * (tu_conv_dw_path_entry): widths 1-16 (output row pieces of 1-8 pixels, one and two
 * pieces a row, the whole-vector stores of pieces that end inside a row or a plane's
 * non-last row and the masked ones at a plane's end), heights 1-40, channel counts 1-21
 * (blocks of 8 and the partial last block: lanes past the channels), minibatches 1-4 that
 * cross the thread shares (a unit's next-block prefetch within and across images),
 * flip, KRSC (gathered weights), gapped layouts (rows and planes at other pitches: the
 * row-by-row pack and the masked stores at every row end; columns at a stride refused),
 * end padding 0 on even sizes at stride 2; exact on small integers, beta != 0 and
 * NaN-poisoned outputs (beta == 0), alpha 1 / 2 / -0.5, 1 and 2 threads bitwise (the
 * harness). Refusals: wider than 16 columns, backward data at stride 2, backward filter,
 * stride-1 rows of more than 8 columns in tensors past 8 MiB, and what
 * conv_cpu_direct_dw_a2.c refuses; the bits of conv_cpu_direct_dw_a2.c on random data
 * (packed shapes; the same sums). Then the same shapes through
 * cpu:direct_dw's dispatch at every ISA cap (PDNN_MAX_CPU_ISA). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "cpu/isa.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_a2.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_t8.h"
#include "tu_conv.h"
#include "tu_layout.h"

/* the path's test entry (tests/common/tu_conv.h), made in main */
static const pdnn_impl *t8_entry;

static const int cfg[][7] = {
    /* h, w, stride, channels, n, end padding, gapped */
    {7, 7, 1, 8, 2, 1, 0},    {7, 7, 1, 16, 1, 1, 0},   {14, 14, 1, 8, 3, 1, 0},
    {2, 1, 1, 3, 2, 1, 0},    {1, 3, 1, 9, 2, 1, 0},    {2, 8, 1, 4, 1, 1, 0},
    {3, 9, 1, 17, 2, 1, 0},   {5, 16, 1, 8, 2, 1, 0},   {6, 15, 1, 11, 1, 1, 1},
    {9, 12, 1, 2, 2, 1, 0},   {4, 13, 1, 21, 1, 1, 0},  {13, 10, 1, 8, 1, 1, 0},
    {8, 2, 1, 3, 3, 1, 0},    {10, 11, 1, 7, 2, 1, 1},  {12, 5, 1, 8, 4, 1, 0},
    {40, 6, 1, 5, 1, 1, 0},   {17, 4, 1, 8, 2, 1, 1},   {16, 16, 1, 9, 1, 1, 0},
    {14, 14, 2, 8, 2, 1, 0},  {7, 7, 2, 16, 3, 1, 0},   {1, 2, 2, 3, 1, 1, 0},
    {2, 2, 2, 8, 2, 1, 0},    {3, 3, 2, 10, 2, 1, 0},   {8, 16, 2, 8, 1, 0, 0},
    {9, 15, 2, 6, 2, 1, 0},   {6, 14, 2, 13, 1, 1, 1},  {13, 13, 2, 8, 1, 1, 0},
    {5, 11, 2, 19, 2, 1, 0},  {12, 12, 2, 8, 1, 0, 0},  {10, 9, 2, 4, 1, 1, 1},
    {33, 5, 2, 8, 2, 1, 0},   {4, 1, 2, 5, 2, 1, 0},    {11, 8, 2, 1, 3, 1, 0},
    {20, 16, 2, 7, 1, 1, 0}};

static tu_conv_shape cfg_shape(int i) { return tu_conv_dw_plane_shape(cfg[i], i); }

/* the directions the path takes (AVX2) */
static bool rule(pdnn_conv_dir dir, const int *row)
{
    return pdnn_cpu_isa() == PDNN_ISA_AVX2 &&
           (dir == PDNN_CONV_FWD || (dir == PDNN_CONV_BWD_DATA && row[2] == 1));
}

static void test_path(void)
{
    const bool avx2 = pdnn_cpu_isa() == PDNN_ISA_AVX2;
    long runs;
    const int ran = tu_conv_dw_plane_sweep(cfg, (int)(sizeof cfg / sizeof cfg[0]), t8_entry, pdnn_dwt8_applies, rule,
                                           "t8 planes", &runs);
    /* each check runs the entry twice (1 and 2 threads) */
    TU_CHECK(!avx2 || (ran >= 40 && runs >= 4 * ran + 6), "t8 planes: %d packed direction cases, %ld path runs",
             ran, runs);
    /* refused: 17 columns, padding 0, stride 1 with the end padding 0 (a smaller output),
     * dilation 2, 5x5, multiplier 2, NHWC, double, 1-d, stride 2 x 1, stride 3, backward
     * data at stride 2, planes past the buffer (70 rows), stride-1 rows of 9+ columns in
     * tensors past 8 MiB (2 x 4096 x 14 x 14, x and y) */
    tu_conv_shape rs[14];
    rs[0] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 8, 1, 1, 7, 17, 3, 3, 1, 1, 1);
    rs[1] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 8, 1, 1, 7, 7, 3, 3, 1, 0, 1);
    rs[2] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 8, 1, 1, 7, 7, 3, 3, 1, 1, 1);
    rs[2].pe[0] = 0;
    rs[3] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 8, 1, 1, 7, 7, 3, 3, 1, 1, 2);
    rs[4] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 8, 1, 1, 7, 7, 5, 5, 1, 1, 1);
    rs[5] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 8, 1, 2, 7, 7, 3, 3, 1, 1, 1);
    rs[6] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 8, 1, 1, 7, 7, 3, 3, 1, 1, 1);
    rs[6].xkind = rs[6].ykind = TU_LAYOUT_CHANNELS_LAST;
    rs[7] = tu_conv_shape2d(PDNN_DATA_DOUBLE, 2, 8, 1, 1, 7, 7, 3, 3, 1, 1, 1);
    rs[8] = tu_conv_shape1d(PDNN_DATA_FLOAT, 2, 8, 1, 1, 7, 3, 1, 1, 1);
    rs[9] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 8, 1, 1, 14, 14, 3, 3, 2, 1, 1);
    rs[9].str[1] = 1;
    rs[10] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 8, 1, 1, 14, 14, 3, 3, 3, 1, 1);
    rs[11] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 8, 1, 1, 70, 14, 3, 3, 1, 1, 1);
    rs[12] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 8, 1, 1, 14, 14, 3, 3, 2, 1, 1);
    rs[13] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 4096, 1, 1, 14, 14, 3, 3, 1, 1, 1);
    for (int i = 0; i < 14; i++) {
        tu_conv_finish_shape(&rs[i]);
        for (int d = 0; d < 3; d++) {
            if (i == 12 && d == PDNN_CONV_FWD) continue; /* stride 2: forward taken */
            tu_conv_setup cs;
            tu_conv_setup_init(&cs, &rs[i], (pdnn_conv_dir)d);
            TU_CHECK(!pdnn_dwt8_applies(&cs.p), "t8 planes: refusal %d %s", i,
                     tu_conv_dir_name((pdnn_conv_dir)d));
        }
    }
    /* taken at that size: 8 columns at stride 1, 14 x 14 at stride 2 (forward) */
    tu_conv_shape big[2];
    big[0] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 4096, 1, 1, 14, 8, 3, 3, 1, 1, 1);
    big[1] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 4096, 1, 1, 14, 14, 3, 3, 2, 1, 1);
    for (int i = 0; i < 2; i++) {
        tu_conv_finish_shape(&big[i]);
        tu_conv_setup cs;
        tu_conv_setup_init(&cs, &big[i], PDNN_CONV_FWD);
        TU_CHECK(pdnn_dwt8_applies(&cs.p) == avx2, "t8 planes: big %d", i);
    }
}

/* For finite weights the same sums as the plane kernels (dwt8_ukernels.h): the bits of
 * conv_cpu_direct_dw_a2.c on random data, packed shapes, alpha 1 and 2, beta 0 and 0.5. */
static void test_same_bits(void)
{
    if (pdnn_cpu_isa() != PDNN_ISA_AVX2) return;
    int cmp = 0;
    for (int i = 0; i < (int)(sizeof cfg / sizeof cfg[0]); i++) {
        if (cfg[i][6]) continue;
        const tu_conv_shape s = cfg_shape(i);
        for (int d = 0; d < 2; d++) {
            tu_conv_setup cs;
            tu_conv_setup_init(&cs, &s, (pdnn_conv_dir)d);
            if (!pdnn_dwt8_applies(&cs.p) || !pdnn_dwa2_applies(&cs.p)) continue;
            const bool bwd = d == PDNN_CONV_BWD_DATA;
            const size_t ns = (size_t)(bwd ? cs.y.span : cs.x.span),
                         nd = (size_t)(bwd ? cs.x.span : cs.y.span), nw = (size_t)cs.w.span;
            float *src = malloc(ns * sizeof(float)), *w = malloc(nw * sizeof(float));
            float *d1 = malloc(nd * sizeof(float)), *d2 = malloc(nd * sizeof(float));
            for (size_t k = 0; k < ns; k++) src[k] = (float)rand() / RAND_MAX * 2.0f - 1.0f;
            for (size_t k = 0; k < nw; k++) w[k] = (float)rand() / RAND_MAX * 2.0f - 1.0f;
            for (size_t k = 0; k < nd; k++) d1[k] = d2[k] = (float)(k % 13) * 0.25f;
            const float alpha = i % 2 ? 2.0f : 1.0f, beta = i % 3 ? 0.0f : 0.5f;
            const bool r1 = bwd ? pdnn_dwt8_bwd_data(&cs.p, src, w, d1, alpha, beta, 2)
                                : pdnn_dwt8_fwd(&cs.p, src, w, d1, alpha, beta, 2);
            const bool r2 = bwd ? pdnn_dwa2_bwd_data(&cs.p, src, w, d2, alpha, beta, 1)
                                : pdnn_dwa2_fwd(&cs.p, src, w, d2, alpha, beta, 1);
            TU_CHECK(r1 && r2 && memcmp(d1, d2, nd * sizeof(float)) == 0,
                     "t8 planes %dx%d s%d %s: not the bits of the plane kernels", cfg[i][0],
                     cfg[i][1], cfg[i][2], tu_conv_dir_name((pdnn_conv_dir)d));
            cmp++;
            free(src), free(w), free(d1), free(d2);
        }
    }
    TU_CHECK(cmp >= 30, "t8 planes: %d bit comparisons", cmp);
}

int main(void)
{
    t8_entry = tu_conv_dw_path_entry(&pdnn_dwt8_path, "test:dw_t8_planes",
                                     "outside the AVX2 channel-interleaved plane path");
    tu_seed(3181);
    const char *cap = getenv("PDNN_MAX_CPU_ISA");
    test_path();
    test_same_bits();
    /* the shapes through the family's dispatch, at every ISA cap the CPU has */
    tu_conv_check_family_caps(&tu_conv_family_dw, (int)(sizeof cfg / sizeof cfg[0]), cfg_shape,
                              cap && *cap);
    printf("conv dw t8 planes: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_dw_t8");
}
