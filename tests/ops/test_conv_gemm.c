/* The GEMM convolutions (cpu:gemm: forward, backward data, backward filter) against an
 * independent naive oracle written here, over random shapes and named edge cases:
 * 1-d/2-d/3-d, groups (depthwise with multiplier 2), stride above the kernel,
 * dilation, padding wider than the kernel and asymmetric, convolution and
 * cross-correlation, NCHW / NHWC / gapped strides for x and y, KCRS and KRSC filters,
 * FLOAT and DOUBLE, K-blocks and im2col chunks crossing images, zero-sized channels.
 * Small-integer data must match exactly; gaps of the inputs hold NaN (never read),
 * gaps of the output must stay unwritten, the output holds NaN when beta == 0; random
 * data runs with 1 and 2 threads must agree bitwise. The implementations are called
 * through their registry entries with exactly the workspace they declare; the last
 * part goes through the public API (pdnnConvolutionForward & co.). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ops/conv/cpu/conv_cpu_gemm.h"
#include "tu_conv.h"
#include "tu_layout.h"

extern const pdnn_impl pdnn_conv_fwd_cpu_gemm;
extern const pdnn_impl pdnn_conv_bwd_data_cpu_gemm;
extern const pdnn_impl pdnn_conv_bwd_filter_cpu_gemm;

/* The GEMM entries of each direction and the public algorithm each serves. */
static const tu_conv_family gemm = {
    {&pdnn_conv_fwd_cpu_gemm, &pdnn_conv_bwd_data_cpu_gemm, &pdnn_conv_bwd_filter_cpu_gemm},
    {PDNN_CONVOLUTION_FWD_ALGO_GEMM, PDNN_CONVOLUTION_BWD_DATA_ALGO_1,
     PDNN_CONVOLUTION_BWD_FILTER_ALGO_1}};

static void check_dir(const tu_conv_shape *s, pdnn_conv_dir dir, bool ints, double alpha,
                      double beta)
{
    tu_conv_check(gemm.im[dir], s, dir, ints, alpha, beta, 0, true);
}

static void check_all_dirs(const tu_conv_shape *s, bool ints)
{
    tu_conv_check_family(&gemm, s, ints);
}

/* The threads' shares of a tiled GEMM's tasks (pdnn_conv_gemm_task_share_of), for a
 * 6 x 64 tile: for m x n products and 1-5 threads they cover every task once, in task
 * order, and none holds more than an even share of the products (the columns of a task
 * rounded up to 16) plus one column block's. Minibatch 1 on 14 x 14 (196 columns: 3
 * panels and 4 columns) at 2 threads: with 64 or more rows the column blocks are split
 * and neither thread gets 60% of the products; with 32 rows the blocks stay whole
 * (each thread's tasks lie in whole column blocks). */
static void test_task_share(void)
{
    pdnn_gemm_ukernel uk;
    memset(&uk, 0, sizeof uk);
    uk.mr = 6;
    uk.nr = 64;
    const int64_t ms[] = {1, 6, 32, 64, 96, 256, 500}, ns[] = {1, 49, 64, 196, 200, 700, 3000};
    for (size_t a = 0; a < sizeof ms / sizeof ms[0]; a++)
        for (size_t b = 0; b < sizeof ns / sizeof ns[0]; b++)
            for (int nt = 1; nt <= 5; nt++) {
                const int64_t m = ms[a], n = ns[b];
                const pdnn_conv_gemm_tiles tl = pdnn_conv_gemm_tiling(&uk, m, n, 1, nt);
                int64_t total = 0, block = 0, cur = 0, expect = 0, worst = 0;
                for (int64_t r = 0; r < tl.ntasks; r++) {
                    int64_t i0, mm, j0, nn;
                    if (r % tl.mb == 0) cur = 0;
                    if (pdnn_conv_gemm_task(&tl, &uk, r, m, n, &i0, &mm, &j0, &nn))
                        cur += mm * ((nn + 15) / 16 * 16);
                    if (cur > block) block = cur;
                }
                for (int64_t r = 0; r < tl.ntasks; r++) {
                    int64_t i0, mm, j0, nn;
                    if (pdnn_conv_gemm_task(&tl, &uk, r, m, n, &i0, &mm, &j0, &nn))
                        total += mm * ((nn + 15) / 16 * 16);
                }
                for (int t = 0; t < nt; t++) {
                    int64_t lo, hi, mine = 0;
                    pdnn_conv_gemm_task_share_of(&tl, &uk, m, n, t, nt, &lo, &hi);
                    TU_CHECK(lo == expect && hi >= lo && hi <= tl.ntasks,
                             "m %lld n %lld thread %d of %d: tasks [%lld, %lld), expected from %lld",
                             (long long)m, (long long)n, t, nt, (long long)lo, (long long)hi,
                             (long long)expect);
                    for (int64_t r = lo; r < hi; r++) {
                        int64_t i0, mm, j0, nn;
                        if (pdnn_conv_gemm_task(&tl, &uk, r, m, n, &i0, &mm, &j0, &nn))
                            mine += mm * ((nn + 15) / 16 * 16);
                    }
                    TU_CHECK(mine * nt <= total + block * nt,
                             "m %lld n %lld thread %d of %d: %lld of %lld products (block %lld)",
                             (long long)m, (long long)n, t, nt, (long long)mine,
                             (long long)total, (long long)block);
                    if (mine > worst) worst = mine;
                    expect = hi;
                }
                TU_CHECK(expect == tl.ntasks, "m %lld n %lld, %d threads: %lld of %lld tasks",
                         (long long)m, (long long)n, nt, (long long)expect,
                         (long long)tl.ntasks);
                if (n == 196 && nt == 2 && m >= 64)
                    TU_CHECK(worst * 10 < total * 6,
                             "m %lld n 196, 2 threads: one thread has %lld of %lld products",
                             (long long)m, (long long)worst, (long long)total);
                if (n == 196 && nt == 2 && m == 32)
                    for (int t = 0; t < nt; t++) {
                        int64_t lo, hi;
                        pdnn_conv_gemm_task_share_of(&tl, &uk, m, n, t, nt, &lo, &hi);
                        TU_CHECK(lo % tl.mb == 0 && hi % tl.mb == 0,
                                 "m 32 n 196: thread %d's tasks [%lld, %lld) split a column "
                                 "block of %lld tasks",
                                 t, (long long)lo, (long long)hi, (long long)tl.mb);
                    }
            }
}

static void test_random(pdnnDataType_t t, int count)
{
    for (int i = 0; i < count; i++) {
        tu_conv_shape s;
        tu_conv_rand_shape(&s, t);
        check_all_dirs(&s, i % 3 != 2);
    }
}

static void test_refusals(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 4, 4, 3, 3, 1, 1, 1);
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
    const char *why = NULL;
    cs.p.compute = PDNN_DATA_DOUBLE;
    TU_CHECK(!pdnn_conv_fwd_cpu_gemm.supports(&cs.p, &why) && why && *why,
             "FLOAT data with DOUBLE accumulation must be refused with a reason");
    tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
    cs.p.dtype = cs.p.compute = PDNN_DATA_HALF;
    why = NULL;
    TU_CHECK(!pdnn_conv_fwd_cpu_gemm.supports(&cs.p, &why) && why, "HALF refused");
    tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
    cs.p.ws[3] = 5; /* not a packed filter */
    why = NULL;
    TU_CHECK(!pdnn_conv_fwd_cpu_gemm.supports(&cs.p, &why) && why, "gapped filter refused");
    tu_conv_setup_init(&cs, &s, PDNN_CONV_BWD_DATA);
    why = NULL;
    TU_CHECK(!pdnn_conv_fwd_cpu_gemm.supports(&cs.p, &why) && why, "wrong direction refused");
}

/* ---- through the public API: descriptors, workspace query, dispatch by algorithm */

static pdnnHandle_t handle;

static void api_check(const tu_conv_shape *s, pdnn_conv_dir dir, bool ints, double alpha,
                      double beta)
{
    tu_conv_api_check(handle, s, dir, gemm.algo[dir], gemm.im[dir], ints, alpha, beta, 0);
}

static void test_edges(pdnnDataType_t t)
{
    /* DESIGN's named edge cases (tu_conv.h), then the GEMM paths' own boundaries */
    tu_conv_check_edges(&gemm, t);
    tu_conv_shape s;
    /* bwd filter: N*P = 512 columns = two K blocks */
    s = tu_conv_shape2d(t, 2, 2, 3, 3, 16, 16, 3, 3, 1, 1, 1);
    s.ykind = TU_LAYOUT_GAPPED;
    check_dir(&s, PDNN_CONV_BWD_FILTER, true, 1.0, 0.5);
    check_dir(&s, PDNN_CONV_BWD_FILTER, false, 1.0, 0.0);
    /* im2col chunks smaller than N*P (fwd: 896 of 972 columns in FLOAT), images per
     * chunk < N (bwd data: 2 of 3 images) */
    if (t == PDNN_DATA_FLOAT) {
        s = tu_conv_shape2d(t, 3, 1, 128, 1, 18, 18, 3, 3, 1, 1, 1);
        s.ykind = TU_LAYOUT_GAPPED;
        check_dir(&s, PDNN_CONV_FWD, true, 1.0, 0.0);
        check_dir(&s, PDNN_CONV_BWD_DATA, false, -1.0, 1.0);
    }
    /* minibatch 1 on 14 x 14 (3 panels and 4 columns) with 96 output (forward) and 64
     * input (backward data) channels: 2 threads split a column block
     * (pdnn_conv_gemm_task_share) */
    s = tu_conv_shape2d(t, 1, 1, 64, 96, 14, 14, 3, 3, 1, 1, 1);
    check_dir(&s, PDNN_CONV_FWD, true, 1.0, 0.0);
    check_dir(&s, PDNN_CONV_BWD_DATA, false, 1.0, 0.5);
    /* long 1-d rows: whole im2col panels inside x with a fixed step of 1 and of 2 */
    for (int st = 1; st <= 2; st++) {
        s = tu_conv_shape1d(t, 2, 1, 3, 2, 40, 3, st, 1, 2);
        s.pe[0] = 0;
        tu_conv_finish_shape(&s);
        check_all_dirs(&s, true);
    }
    /* the main job's 5x5 pad-2 layers at stride 1: backward filter in place (one channel:
     * the narrow tile; many: tap tiles across channels), backward data through the
     * forward form, NHWC too */
    s = tu_conv_shape2d(t, 2, 1, 1, 8, 12, 12, 5, 5, 1, 2, 1);
    check_all_dirs(&s, true);
    s.flip = true;
    check_all_dirs(&s, true);
    s = tu_conv_shape2d(t, 2, 1, 13, 7, 12, 11, 5, 5, 1, 2, 1);
    check_all_dirs(&s, true);
    s.xkind = s.ykind = TU_LAYOUT_CHANNELS_LAST;
    s.flip = true;
    check_all_dirs(&s, true);
    check_all_dirs(&s, false);
    /* more images than the in-place backward filter's 4 slots (slots wrap; batch not a
     * multiple of 4), one and several groups */
    s = tu_conv_shape2d(t, 6, 1, 1, 5, 12, 12, 5, 5, 1, 2, 1);
    check_dir(&s, PDNN_CONV_BWD_FILTER, true, 1.0, 0.5);
    check_dir(&s, PDNN_CONV_BWD_FILTER, false, -1.0, 0.0);
    s = tu_conv_shape2d(t, 9, 2, 3, 2, 12, 11, 3, 3, 1, 1, 1);
    check_dir(&s, PDNN_CONV_BWD_FILTER, true, 2.0, 0.0);
    check_dir(&s, PDNN_CONV_BWD_FILTER, false, 1.0, 1.0);
    /* the in-place backward filter's two ways of splitting the sums: a filter of more
     * than 2^16 elements (whole images, one tap tile an item; kg past one panel), and
     * small filters on maps of more than 2048 lanes an image (several segments an
     * image, the last one short; stride 2 too), with more parts than slots */
    s = tu_conv_shape2d(t, 5, 1, 32, 100, 12, 12, 5, 5, 1, 2, 1);
    check_dir(&s, PDNN_CONV_BWD_FILTER, true, 1.0, 0.5);
    check_dir(&s, PDNN_CONV_BWD_FILTER, false, 1.0, 0.0);
    s = tu_conv_shape2d(t, 3, 1, 2, 3, 47, 53, 3, 3, 1, 1, 1);
    check_dir(&s, PDNN_CONV_BWD_FILTER, true, 1.0, 0.0);
    check_dir(&s, PDNN_CONV_BWD_FILTER, false, -1.0, 2.0);
    s = tu_conv_shape2d(t, 2, 1, 3, 4, 93, 101, 3, 3, 2, 1, 1);
    check_dir(&s, PDNN_CONV_BWD_FILTER, true, 1.0, 0.0);
    check_dir(&s, PDNN_CONV_BWD_FILTER, false, 1.0, 0.5);
    /* strides above 1 with enough output pixels (>= 128 an image) for the padded copies
     * split by stride phases (forward runs, backward filter in place): a stem-like 7x7 stride 2 on few
     * channels, stride 3 with dilation 2 (taps of a row in different phases), 1-d
     * stride 2 with dilations 2 and 4 (taps a fixed step apart in one phase) and 3,
     * sizes not multiples of the stride, asymmetric padding, flip, NHWC, 3-d mixed
     * strides */
    s = tu_conv_shape2d(t, 3, 1, 3, 5, 25, 24, 7, 7, 2, 3, 1);
    check_all_dirs(&s, true);
    s.flip = true;
    s.xkind = s.ykind = TU_LAYOUT_CHANNELS_LAST;
    check_all_dirs(&s, true);
    check_all_dirs(&s, false);
    /* forward B panels gathered from x at width stride 2 (FLOAT: pack_s2.h), panel by
     * panel with the next panel's x fetched between row slices of the product (kg 30:
     * two slices of 24 rows): 2 images of 18 x 18 outputs (11 panels of 64), padding on
     * both sides, odd input height; NHWC x with a KRSC flipped filter (no fetch);
     * dilation 2 with groups and a gapped x; height stride 1 with width stride 2; one
     * column past a panel (the GEMV tail's columns gathered too) */
    s = tu_conv_shape2d(t, 2, 1, 5, 30, 35, 36, 3, 3, 2, 1, 1);
    check_dir(&s, PDNN_CONV_FWD, true, 1.0, 0.0);
    check_dir(&s, PDNN_CONV_FWD, false, -1.0, 0.5);
    s.xkind = TU_LAYOUT_CHANNELS_LAST;
    s.krsc = s.flip = true;
    check_dir(&s, PDNN_CONV_FWD, true, 2.0, 0.0);
    s = tu_conv_shape2d(t, 3, 2, 4, 13, 21, 20, 3, 3, 2, 2, 2);
    s.xkind = TU_LAYOUT_GAPPED;
    check_dir(&s, PDNN_CONV_FWD, true, 1.0, 1.0);
    check_dir(&s, PDNN_CONV_FWD, false, 1.0, 0.0);
    s = tu_conv_shape2d(t, 2, 1, 3, 8, 9, 30, 3, 5, 1, 2, 1);
    s.str[1] = 2; /* width */
    tu_conv_finish_shape(&s);
    check_dir(&s, PDNN_CONV_FWD, true, 1.0, 0.0);
    s = tu_conv_shape2d(t, 1, 1, 3, 7, 25, 9, 3, 3, 2, 1, 1); /* 65 columns: a GEMV tail */
    check_dir(&s, PDNN_CONV_FWD, true, 1.0, 0.0);
    check_dir(&s, PDNN_CONV_FWD, false, 1.0, -1.0);
    /* forward with B read in place (few output channels, padded grid rows at most 1/16
     * wider than the output rows): stride 2 (33-wide phase rows, 32 outputs), groups at
     * stride 1, two K blocks (288 taps), 1-d, y with gaps, row tiles past Q */
    s = tu_conv_shape2d(t, 2, 1, 3, 7, 50, 64, 3, 3, 2, 1, 1);
    check_dir(&s, PDNN_CONV_FWD, true, 1.0, 0.0);
    check_dir(&s, PDNN_CONV_FWD, false, -1.0, 0.5);
    s = tu_conv_shape2d(t, 2, 2, 3, 20, 9, 70, 3, 3, 1, 1, 1);
    check_dir(&s, PDNN_CONV_FWD, true, 2.0, 1.0);
    check_dir(&s, PDNN_CONV_FWD, false, 1.0, 0.0);
    s = tu_conv_shape2d(t, 1, 1, 32, 13, 6, 40, 3, 3, 1, 1, 1);
    check_dir(&s, PDNN_CONV_FWD, true, 1.0, 0.0);
    check_dir(&s, PDNN_CONV_FWD, false, 1.0, -0.5);
    s.ykind = TU_LAYOUT_GAPPED;
    check_dir(&s, PDNN_CONV_FWD, true, 1.0, 1.0);
    s = tu_conv_shape1d(t, 3, 1, 2, 5, 300, 3, 2, 1, 1);
    check_dir(&s, PDNN_CONV_FWD, true, 1.0, 0.0);
    check_dir(&s, PDNN_CONV_FWD, false, 0.5, 2.0);
    /* forward with the filter in place and a chunk's last 1-4 columns by GEMV (f32):
     * 14 x 14 pixels (3 panels of 64 and 4 columns), 9 x 9 (AVX2's 16-wide panels and 1
     * column), 1-d 130 (2 columns), rows not a multiple of 6, groups, gapped y, beta */
    s = tu_conv_shape2d(t, 1, 1, 8, 13, 14, 14, 3, 3, 1, 1, 1);
    check_dir(&s, PDNN_CONV_FWD, true, 1.0, 0.0);
    check_dir(&s, PDNN_CONV_FWD, false, -1.0, 0.5);
    s.ykind = TU_LAYOUT_GAPPED;
    check_dir(&s, PDNN_CONV_FWD, true, 2.0, 1.0);
    s = tu_conv_shape2d(t, 1, 2, 5, 7, 9, 9, 3, 3, 1, 1, 1);
    check_dir(&s, PDNN_CONV_FWD, true, 1.0, 0.0);
    check_dir(&s, PDNN_CONV_FWD, false, 0.5, -1.0);
    s = tu_conv_shape1d(t, 1, 1, 3, 9, 130, 5, 1, 2, 1);
    check_dir(&s, PDNN_CONV_FWD, true, 1.0, 0.0);
    check_dir(&s, PDNN_CONV_FWD, false, 1.0, 1.0);
    /* images above the padded chunk's 512 KiB: one image a chunk, the later chunks
     * keeping the first one's padding zeros (stride 2 phases and stride 1) */
    s = tu_conv_shape2d(t, 2, 1, 3, 2, 170, 340, 3, 3, 2, 1, 1);
    check_all_dirs(&s, true);
    s = tu_conv_shape2d(t, 2, 1, 3, 1, 170, 340, 3, 3, 1, 2, 1);
    check_all_dirs(&s, true);
    s = tu_conv_shape2d(t, 2, 2, 2, 3, 40, 38, 3, 3, 3, 2, 2);
    s.pe[1] = 0;
    tu_conv_finish_shape(&s);
    check_all_dirs(&s, true);
    for (int d = 2; d <= 4; d++) {
        s = tu_conv_shape1d(t, 5, 1, 2, 3, 300, 3, 2, 3, d);
        check_all_dirs(&s, true);
        s.flip = true;
        check_all_dirs(&s, true);
    }
    /* backward data by stride phases (C/g >= 4): 3x3 stride 2 on odd and even sizes,
     * kernel narrower than the stride (phases no tap reaches: dx = beta * dx), dilation
     * sharing a factor with the stride (odd phases empty) or not, flip, KRSC, NHWC,
     * gapped dx, beta != 0 */
    s = tu_conv_shape2d(t, 2, 1, 5, 3, 9, 10, 3, 3, 2, 1, 1);
    check_dir(&s, PDNN_CONV_BWD_DATA, true, 1.0, 0.0);
    check_dir(&s, PDNN_CONV_BWD_DATA, false, -1.0, 0.5);
    s.flip = true;
    s.krsc = true;
    s.xkind = TU_LAYOUT_GAPPED;
    check_dir(&s, PDNN_CONV_BWD_DATA, true, 2.0, -1.0);
    s = tu_conv_shape2d(t, 2, 2, 4, 3, 11, 8, 2, 1, 3, 0, 1);
    check_dir(&s, PDNN_CONV_BWD_DATA, true, 1.0, 0.5);
    check_dir(&s, PDNN_CONV_BWD_DATA, true, 1.0, 0.0);
    for (int d = 2; d <= 3; d++) {
        s = tu_conv_shape2d(t, 1, 1, 6, 2, 12, 13, 3, 3, 2, 2, d);
        s.xkind = s.ykind = TU_LAYOUT_CHANNELS_LAST;
        check_dir(&s, PDNN_CONV_BWD_DATA, true, 1.0, 0.25);
        s.flip = true;
        check_dir(&s, PDNN_CONV_BWD_DATA, false, 1.0, 0.0);
    }
    s = tu_conv_shape1d(t, 3, 1, 4, 2, 30, 5, 3, 4, 1);
    check_dir(&s, PDNN_CONV_BWD_DATA, true, 1.0, 1.0);
    /* the transposed filter packed by blocks of 16 k's (K past one block, enough columns
     * for the filter to be packed): stride 1, and stride 2 (the phases' one-pass packing) */
    s = tu_conv_shape2d(t, 2, 1, 5, 40, 11, 12, 3, 3, 1, 1, 1);
    check_dir(&s, PDNN_CONV_BWD_DATA, true, 1.0, 0.0);
    check_dir(&s, PDNN_CONV_BWD_DATA, false, 1.0, 0.5);
    s = tu_conv_shape2d(t, 6, 1, 4, 37, 12, 12, 3, 3, 2, 1, 1);
    check_dir(&s, PDNN_CONV_BWD_DATA, true, 1.0, 0.0);
    check_dir(&s, PDNN_CONV_BWD_DATA, false, -1.0, 0.0);
    /* more images than one chunk of dense phases holds (16), the last chunk short */
    s = tu_conv_shape2d(t, 19, 1, 4, 5, 7, 6, 3, 3, 2, 1, 1);
    check_dir(&s, PDNN_CONV_BWD_DATA, true, 1.0, 0.0);
    check_dir(&s, PDNN_CONV_BWD_DATA, false, 0.5, -1.0);
    s = tu_conv_shape2d(t, 2, 1, 2, 3, 12, 12, 3, 2, 2, 1, 1);
    s.nsp = 3;
    s.in[2] = 14;
    s.kern[2] = 3;
    s.str[2] = 3;
    s.dil[2] = 1;
    s.pb[2] = 1;
    s.pe[2] = 2;
    tu_conv_finish_shape(&s);
    check_all_dirs(&s, true);
}

/* A tiny case by hand: x = [1 2 3 4] (1-d), w = [1 10], stride 1, no padding.
 * cross-correlation y = [21 32 43]; convolution (flipped) y = [12 23 34]. */
static void test_by_hand(void)
{
    tu_conv_shape s = tu_conv_shape1d(PDNN_DATA_FLOAT, 1, 1, 1, 1, 4, 2, 1, 0, 1);
    const float x[4] = {1, 2, 3, 4}, w[2] = {1, 10};
    for (int flip = 0; flip < 2; flip++) {
        s.flip = flip;
        tu_conv_setup cs;
        tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
        float y[3] = {NAN, NAN, NAN};
        TU_CHECK(tu_conv_run_impl(&pdnn_conv_fwd_cpu_gemm, &cs.p, x, w, y, 1.0, 0.0, 1) ==
                     PDNN_STATUS_SUCCESS,
                 "hand fwd");
        const float *want = flip ? (const float[]){12, 23, 34} : (const float[]){21, 32, 43};
        TU_CHECK(y[0] == want[0] && y[1] == want[1] && y[2] == want[2],
                 "hand fwd flip=%d: %g %g %g", flip, y[0], y[1], y[2]);
        /* bwd data of dy = [1 1 1]: cross-correlation dx = [1 11 11 10] */
        const float dy[3] = {1, 1, 1};
        float dx[4] = {NAN, NAN, NAN, NAN};
        tu_conv_setup_init(&cs, &s, PDNN_CONV_BWD_DATA);
        tu_conv_run_impl(&pdnn_conv_bwd_data_cpu_gemm, &cs.p, dy, w, dx, 1.0, 0.0, 1);
        const float *wdx = flip ? (const float[]){10, 11, 11, 1} : (const float[]){1, 11, 11, 10};
        TU_CHECK(dx[0] == wdx[0] && dx[1] == wdx[1] && dx[2] == wdx[2] && dx[3] == wdx[3],
                 "hand bwd data flip=%d: %g %g %g %g", flip, dx[0], dx[1], dx[2], dx[3]);
        /* bwd filter with dy = [1 0 2]: cross-correlation dw = [1+6, 2+8] = [7 10] */
        const float dy2[3] = {1, 0, 2};
        float dw[2] = {NAN, NAN};
        tu_conv_setup_init(&cs, &s, PDNN_CONV_BWD_FILTER);
        tu_conv_run_impl(&pdnn_conv_bwd_filter_cpu_gemm, &cs.p, x, dy2, dw, 1.0, 0.0, 1);
        TU_CHECK(flip ? (dw[0] == 10 && dw[1] == 7) : (dw[0] == 7 && dw[1] == 10),
                 "hand bwd filter flip=%d: %g %g", flip, dw[0], dw[1]);
    }
}

static void test_api(void)
{
    TU_OK(pdnnCreate(&handle));
    for (int i = 0; i < 12; i++) {
        tu_conv_shape s;
        tu_conv_rand_shape(&s, i % 2 ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT);
        api_check(&s, (pdnn_conv_dir)(i % 3), i % 4 != 3, i % 3 ? 1.0 : -2.0, i % 5 ? 0.0 : 0.5);
    }
    /* the algorithm queries list GEMM with its workspace */
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 8, 8, 9, 9, 3, 3, 1, 1, 1);
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
    pdnnTensorDescriptor_t xd = tu_tensor(s.t, 4, cs.x.dims, cs.x.st);
    pdnnTensorDescriptor_t yd = tu_tensor(s.t, 4, cs.y.dims, cs.y.st);
    pdnnFilterDescriptor_t wd;
    pdnnConvolutionDescriptor_t cd;
    TU_OK(pdnnCreateFilterDescriptor(&wd));
    TU_OK(pdnnSetFilterNdDescriptor(wd, s.t, PDNN_TENSOR_NCHW, 4, cs.w.dims));
    TU_OK(pdnnCreateConvolutionDescriptor(&cd));
    TU_OK(pdnnSetConvolutionNdDescriptorEx(cd, 2, s.pb, s.pe, s.str, s.dil,
                                           PDNN_CROSS_CORRELATION, s.t));
    pdnnConvolutionFwdAlgoPerf_t perf[PDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int got = 0;
    TU_OK(pdnnGetConvolutionForwardAlgorithm_v7(handle, xd, wd, cd, yd,
                                                PDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf));
    bool found = false;
    for (int i = 0; i < got; i++)
        if (perf[i].algo == PDNN_CONVOLUTION_FWD_ALGO_GEMM) {
            found = perf[i].status == PDNN_STATUS_SUCCESS &&
                    perf[i].memory == pdnn_conv_fwd_cpu_gemm.workspace(&cs.p) &&
                    perf[i].determinism == PDNN_DETERMINISTIC;
        }
    TU_CHECK(found, "Get_v7 does not list FWD_ALGO_GEMM as supported and deterministic");
    pdnnDestroyTensorDescriptor(xd);
    pdnnDestroyTensorDescriptor(yd);
    pdnnDestroyFilterDescriptor(wd);
    pdnnDestroyConvolutionDescriptor(cd);
    TU_OK(pdnnDestroy(handle));
}

int main(void)
{
    tu_seed(777);
    test_by_hand();
    test_task_share();
    test_refusals();
    for (int ti = 0; ti < 2; ti++) {
        pdnnDataType_t t = ti ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        test_edges(t);
        test_random(t, 50);
    }
    test_api();
    printf("conv gemm: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_gemm");
}
