/* The stride-2 3x3 phase depthwise path (conv_cpu_direct_dw_s2f.c, AVX-512 only;
 * forward and backward filter) against the independent oracle of tests/common/tu_conv.h,
 * run directly through a test entry whose supports() is pdnn_dws2f_applies: output rows
 * of 1 to 32 columns (up to 7: two planes a vector, an odd last plane alone; 8-15: one
 * plane, at any pixel count; 16-32: one plane, two vectors a row, columns up to 64 - p2
 * read, up to 3136 output pixels a channel, more refused; 33 columns refused), odd and even heights and widths, input columns and rows
 * no output reads, padding 0-3 (wider than the kernel: outputs no tap reaches, whole tap
 * rows skipped), asymmetric, 1-row planes, flip, KRSC (gathered weights), channel counts
 * that cross the 64-plane calls and the images, minibatches 1-9, gapped layouts (refused
 * when the columns are at a stride), exact on small integers, beta != 0 and NaN-poisoned
 * outputs (beta == 0), 1 and 2 threads bitwise (the harness); backward data refused.
 * Then: the forward's outputs bitwise equal to the other stride-2 paths' (the header's
 * promise: the same chains) on random data; and the same shapes through cpu:direct_dw's
 * dispatch at every ISA cap (PDNN_MAX_CPU_ISA: the other paths below AVX-512). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_s2.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_s2f.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_s2p.h"
#include "tu_conv.h"
#include "tu_layout.h"

/* the path's test entry (tests/common/tu_conv.h), made in main */
static const pdnn_impl *s2f_entry;

static const int cfg[][10] = {
    /* h, w, row pad before, after, column pad before, after, channels, n, gapped, flip */
    {14, 14, 1, 1, 1, 1, 37, 1, 0, 0},  {13, 13, 1, 1, 1, 1, 5, 9, 0, 1},
    {12, 11, 0, 0, 0, 0, 3, 4, 1, 0},   {7, 7, 1, 1, 1, 1, 19, 2, 0, 0},
    {4, 4, 1, 1, 1, 1, 3, 5, 0, 1},     {2, 3, 1, 1, 1, 1, 4, 2, 0, 0},
    {6, 9, 3, 3, 3, 3, 3, 3, 0, 0},     {28, 28, 1, 1, 1, 1, 67, 1, 0, 0},
    {27, 29, 1, 1, 1, 1, 6, 2, 0, 1},   {28, 30, 0, 2, 2, 0, 3, 2, 0, 0},
    {9, 8, 2, 0, 0, 2, 2, 5, 0, 0},     {14, 14, 1, 1, 1, 1, 2, 3, 1, 0},
    {1, 5, 1, 1, 0, 1, 3, 2, 0, 0},     {3, 31, 0, 0, 0, 0, 2, 1, 0, 1},
    {5, 31, 1, 0, 0, 1, 131, 1, 0, 0},  {15, 16, 1, 1, 1, 1, 3, 2, 0, 0},
    {9, 33, 1, 1, 1, 1, 2, 1, 0, 0},    {20, 2, 1, 1, 1, 1, 3, 1, 0, 1},
    {16, 16, 0, 0, 0, 0, 65, 1, 0, 0},  {40, 26, 1, 1, 1, 1, 2, 1, 0, 0},
    {3, 3, 3, 3, 3, 3, 2, 2, 0, 0},     {30, 14, 2, 1, 1, 2, 129, 1, 0, 0},
    {28, 28, 1, 1, 1, 1, 3, 2, 0, 0},   {16, 20, 1, 1, 1, 1, 5, 3, 0, 1},
    {28, 28, 1, 1, 1, 1, 2, 4, 0, 0},   {28, 28, 1, 1, 1, 1, 2, 3, 0, 1},
    /* 16-32 output columns: two vectors a row */
    {6, 56, 1, 1, 1, 1, 5, 2, 0, 0},    {5, 64, 1, 1, 1, 1, 3, 1, 0, 1},
    {4, 65, 0, 0, 0, 0, 3, 2, 0, 0},    {7, 40, 2, 1, 3, 0, 4, 1, 0, 0},
    {3, 34, 1, 1, 0, 1, 2, 3, 1, 0},    {5, 66, 1, 1, 1, 1, 2, 1, 0, 0},
    {2, 31, 1, 1, 2, 2, 3, 2, 0, 1},    {8, 62, 1, 1, 1, 1, 17, 1, 0, 0},
    {56, 56, 1, 1, 1, 1, 2, 4, 0, 0},   {56, 56, 1, 1, 1, 1, 2, 5, 0, 0}};

static tu_conv_shape cfg_shape(int i)
{
    const int *c = cfg[i];
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, c[7], c[6], 1, 1, c[0], c[1], 3, 3, 2,
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

/* The path and the other stride-2 path on the same random x, w and y: bitwise equal. */
static void same_bits(const tu_conv_shape *s0, double alpha, double beta)
{
    tu_conv_shape s = *s0;
    s.xkind = s.ykind = TU_LAYOUT_PACKED;
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
    const pdnn_conv_problem *p = &cs.p;
    const bool pairs = pdnn_dws2p_applies(p);
    if (!pdnn_dws2f_applies(p) || (!pairs && !pdnn_dws2_applies(p))) return;
    const size_t nx = (size_t)s.n * s.g * s.in[0] * s.in[1], nw = (size_t)s.g * 9,
                 ny = (size_t)s.n * s.g * s.out[0] * s.out[1];
    float *x = tu_alloc(PDNN_DATA_FLOAT, nx), *w = tu_alloc(PDNN_DATA_FLOAT, nw);
    float *y0 = tu_alloc(PDNN_DATA_FLOAT, ny), *y1 = tu_alloc(PDNN_DATA_FLOAT, ny);
    tu_fill_uniform(x, PDNN_DATA_FLOAT, nx, -1, 1);
    tu_fill_uniform(w, PDNN_DATA_FLOAT, nw, -1, 1);
    tu_fill_uniform(y0, PDNN_DATA_FLOAT, ny, -1, 1);
    memcpy(y1, y0, ny * sizeof(float));
    const bool a = pdnn_dws2f_fwd(p, x, w, y0, (float)alpha, (float)beta, 2);
    const bool b = pairs ? pdnn_dws2p_fwd(p, x, w, y1, (float)alpha, (float)beta, 1)
                         : pdnn_dws2_fwd(p, x, w, y1, (float)alpha, (float)beta, 1);
    char d[256];
    tu_conv_describe(&s, d, sizeof d);
    TU_CHECK(a && b && memcmp(y0, y1, ny * sizeof(float)) == 0,
             "stride-2 phase rows %s: bits differ from the %s path", d, pairs ? "pairs" : "s2");
    free(x);
    free(w);
    free(y0);
    free(y1);
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
            const bool unit = cs.p.xs[3] == 1 && cs.p.ys[3] == 1;
            const bool rule = dir != PDNN_CONV_BWD_DATA && s.out[0] <= 64 &&
                              (ow <= 15 || (ow <= 32 && s.n * s.out[0] * ow <= 3136));
            const bool want = avx512 && unit && rule;
            TU_CHECK(pdnn_dws2f_applies(&cs.p) == want,
                     "stride-2 phase rows %dx%d %s: applies %d, expected %d", c[0], c[1],
                     tu_conv_dir_name(dir), !want, want);
            if (want && !c[8]) {
                tu_conv_check(s2f_entry, &s, dir, i % 5 != 4, al[i % 3], be[i % 4], 0, true);
                ran++;
                if (i % 5 != 4) /* small integers: exact; also random data once */
                    tu_conv_check(s2f_entry, &s, dir, false, al[(i + 1) % 3], be[(i + 1) % 4],
                                  0, true);
                if (dir == PDNN_CONV_FWD)
                    for (int k = 0; k < 4; k++) same_bits(&s, al[k % 3], be[k]);
            } else if (avx512 && c[8] && rule) {
                /* a gapped layout drawn by the check puts the columns at a stride (refused)
                 * more often than not: drawn until the path ran on one */
                const long r0 = tu_conv_dw_path_runs;
                tu_conv_dw_path_any_layout = true;
                for (int k = 0; k < 400 && tu_conv_dw_path_runs == r0; k++)
                    tu_conv_check(s2f_entry, &s, dir, true, al[i % 3], be[i % 4], 0, true);
                tu_conv_dw_path_any_layout = false;
                TU_CHECK(tu_conv_dw_path_runs > r0, "stride-2 phase rows %dx%d: no gapped layout ran",
                         c[0], c[1]);
            }
        }
    }
    /* each check runs the entry twice (1 and 2 threads) */
    TU_CHECK(!avx512 || (ran >= 18 && tu_conv_dw_path_runs - runs0 >= 2 * ran + 4),
             "stride-2 phase rows: %d packed cases, %ld path runs", ran, tu_conv_dw_path_runs - runs0);
    /* refused: stride 1, stride 2 x 1, dilation 2, multiplier 2, NHWC, double, 5x5, 3x2,
     * 65 output rows */
    tu_conv_shape rs[9];
    rs[0] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 1, 1, 1);
    rs[1] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 2, 1, 1);
    rs[1].str[1] = 1;
    tu_conv_finish_shape(&rs[1]);
    rs[2] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 2, 2, 2);
    rs[3] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 2, 14, 14, 3, 3, 2, 1, 1);
    rs[4] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 2, 1, 1);
    rs[4].xkind = rs[4].ykind = TU_LAYOUT_CHANNELS_LAST;
    rs[5] = tu_conv_shape2d(PDNN_DATA_DOUBLE, 2, 3, 1, 1, 14, 14, 3, 3, 2, 1, 1);
    rs[6] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 5, 5, 2, 2, 1);
    rs[7] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 2, 2, 1, 1);
    rs[8] = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 2, 1, 1, 129, 8, 3, 3, 2, 1, 1);
    for (int i = 0; i < 9; i++)
        for (int d = 0; d < 3; d += 2) {
            tu_conv_setup cs;
            tu_conv_setup_init(&cs, &rs[i], (pdnn_conv_dir)d);
            TU_CHECK(!pdnn_dws2f_applies(&cs.p), "stride-2 phase rows: refusal %d", i);
        }
}

int main(void)
{
    s2f_entry = tu_conv_dw_path_entry(&pdnn_dws2f_path, "test:dw_stride2_phase_rows",
                                      "outside the stride-2 phase-row path");
    tu_seed(31415);
    const char *cap = getenv("PDNN_MAX_CPU_ISA");
    test_path();
    /* the shapes through the family's dispatch, at every ISA cap the CPU has */
    tu_conv_check_family_caps(&tu_conv_family_dw, (int)(sizeof cfg / sizeof cfg[0]), cfg_shape,
                              cap && *cap);
    printf("conv dw stride-2 phase rows: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_dw_s2f");
}
