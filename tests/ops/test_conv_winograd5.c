/* The Winograd F(4x4, 5x5) convolutions (cpu:winograd_f4x5 and
 * cpu:winograd_nonfused_f4x5: forward, backward data, backward filter) against the
 * independent oracle of tests/common/tu_conv.h, within their documented relative error
 * bound (PDNN_WINO5_TOL_F32 / _F64, conv_cpu_wino.h) on uniform(-1, 1) data: random 5x5
 * stride-1 shapes with random asymmetric padding 0..4, sizes that are not multiples of
 * the 4x4 tile, groups, convolution and cross-correlation, NCHW / NHWC / gapped x and y,
 * KCRS and KRSC filters, FLOAT and DOUBLE, one image and several; named edges: 1x1
 * images, padding wider than the kernel (backward data's padding 4 - pad < 0), more
 * channels than one lane block and one GEMM panel, more tiles than one fused block,
 * depthwise, backward filter sums over several chunks, zero output channels, the main
 * job's layer (32 -> 64 channels, 14x14, padding 2) on one image. The harness
 * poisons outputs with NaN when beta == 0, keeps output gaps, reads no input gap and
 * checks 1 vs 2 threads bitwise. A case worked by hand; refusals (3x3, stride 2,
 * dilation, 5x3, 1-d / 3-d, mixed accumulation, HALF) give a reason; the last part goes
 * through the public API. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/conv/cpu/conv_cpu_wino.h"
#include "tu_conv.h"
#include "tu_layout.h"

extern const pdnn_impl pdnn_conv_fwd_cpu_wino5;
extern const pdnn_impl pdnn_conv_fwd_cpu_wino5_nonfused;
extern const pdnn_impl pdnn_conv_bwd_data_cpu_wino5;
extern const pdnn_impl pdnn_conv_bwd_data_cpu_wino5_nonfused;
extern const pdnn_impl pdnn_conv_bwd_filter_cpu_wino5_nonfused;

typedef struct {
    const pdnn_impl *im;
    pdnn_conv_dir dir;
    int algo;
} wino_entry;

static const wino_entry entries[] = {
    {&pdnn_conv_fwd_cpu_wino5, PDNN_CONV_FWD, PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD},
    {&pdnn_conv_fwd_cpu_wino5_nonfused, PDNN_CONV_FWD,
     PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED},
    {&pdnn_conv_bwd_data_cpu_wino5, PDNN_CONV_BWD_DATA, PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD},
    {&pdnn_conv_bwd_data_cpu_wino5_nonfused, PDNN_CONV_BWD_DATA,
     PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED},
    {&pdnn_conv_bwd_filter_cpu_wino5_nonfused, PDNN_CONV_BWD_FILTER,
     PDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED},
};
#define NENTRIES ((int)(sizeof entries / sizeof entries[0]))

static double tol_of(pdnnDataType_t t)
{
    return t == PDNN_DATA_DOUBLE ? PDNN_WINO5_TOL_F64 : PDNN_WINO5_TOL_F32;
}

static void check_entry(const wino_entry *e, const tu_conv_shape *s, double alpha, double beta)
{
    tu_conv_check(e->im, s, e->dir, false, alpha, beta, tol_of(s->t), true);
}

static void check_all(const tu_conv_shape *s)
{
    static const double alphas[] = {1.0, 2.0, -0.5};
    static const double betas[] = {0.0, 0.0, 1.0, -1.5, 0.5};
    for (int i = 0; i < NENTRIES; i++)
        check_entry(&entries[i], s, alphas[tu_int(0, 2)], betas[tu_int(0, 4)]);
}

/* A random 5x5 stride-1 2-d shape: padding 0..4 on each side, any layouts. */
static void rand_shape(tu_conv_shape *s, pdnnDataType_t t)
{
    memset(s, 0, sizeof *s);
    s->t = t;
    s->nsp = 2;
    s->n = tu_int(1, 3);
    s->g = tu_int(1, 3);
    s->cg = tu_int(1, 5);
    s->kg = tu_int(1, 6);
    for (int d = 0; d < 2; d++) {
        do {
            s->in[d] = tu_int(1, 15);
            s->pb[d] = tu_int(0, 4);
            s->pe[d] = tu_int(0, 4);
        } while (s->in[d] + s->pb[d] + s->pe[d] < 5);
        s->kern[d] = 5;
        s->str[d] = s->dil[d] = 1;
    }
    s->flip = tu_int(0, 1);
    s->krsc = tu_int(0, 1);
    s->xkind = tu_int(0, 2);
    s->ykind = tu_int(0, 2);
    tu_conv_finish_shape(s);
}

static void test_random(pdnnDataType_t t, int count)
{
    for (int i = 0; i < count; i++) {
        tu_conv_shape s;
        rand_shape(&s, t);
        check_all(&s);
    }
}

static void test_edges(pdnnDataType_t t)
{
    tu_conv_shape s;
    /* 1x1 image, padding 2: one output read through the filter's centre only */
    s = tu_conv_shape2d(t, 1, 1, 3, 4, 1, 1, 5, 5, 1, 2, 1);
    check_all(&s);
    /* padding wider than the kernel, asymmetric (backward data's padding is negative) */
    s = tu_conv_shape2d(t, 2, 1, 2, 3, 5, 6, 5, 5, 1, 6, 1);
    s.pe[0] = 1;
    s.pb[1] = 0;
    tu_conv_finish_shape(&s);
    check_all(&s);
    /* more channels than one 64-lane block of the filter transform and more output
     * channels than one GEMM panel; channels-last, KRSC, convolution mode */
    s = tu_conv_shape2d(t, 1, 1, 70, 67, 6, 7, 5, 5, 1, 2, 1);
    s.xkind = s.ykind = TU_LAYOUT_CHANNELS_LAST;
    s.krsc = true;
    s.flip = true;
    check_all(&s);
    /* 75 tiles: more than one panel, more than one fused block (main() shrinks the L2
     * size the blocks are cut for), 2 threads */
    s = tu_conv_shape2d(t, 3, 2, 6, 8, 18, 19, 5, 5, 1, 2, 1);
    s.ykind = TU_LAYOUT_GAPPED;
    check_all(&s);
    /* depthwise, multiplier 2 */
    s = tu_conv_shape2d(t, 2, 5, 1, 2, 9, 7, 5, 5, 1, 0, 1);
    s.xkind = TU_LAYOUT_GAPPED;
    check_all(&s);
    /* the main job's conv2 on one image (FLOAT) */
    if (t == PDNN_DATA_FLOAT) {
        s = tu_conv_shape2d(t, 1, 1, 32, 64, 14, 14, 5, 5, 1, 2, 1);
        check_all(&s);
    }
    /* backward filter: 5 x 64 tiles, several chunks of tiles, 2 threads */
    s = tu_conv_shape2d(t, 5, 1, 4, 8, 32, 30, 5, 5, 1, 2, 1);
    check_entry(&entries[4], &s, 1.0, 0.0);
    check_entry(&entries[4], &s, -1.0, 0.5);
    /* zero output channels: fwd and bwd filter write nothing, bwd data dx = beta * dx */
    s = tu_conv_shape2d(t, 2, 1, 2, 0, 6, 6, 5, 5, 1, 2, 1);
    for (int i = 0; i < NENTRIES; i++)
        tu_conv_check(entries[i].im, &s, entries[i].dir, true, 1.0, 0.5, tol_of(t), true);
}

/* x = 6x6 ones, w = 5x5 ones, padding 2: y[i][j] = n(i) n(j), n = (3, 4, 5, 5, 4, 3) the
 * taps of a row inside x; with dy = 6x6 ones, dw[r][s] = m(r) m(s), m = (4, 5, 6, 5, 4)
 * the output rows whose tap r lies inside x. */
static void test_by_hand(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 1, 6, 6, 5, 5, 1, 2, 1);
    tu_conv_setup cs;
    float x[36], w[25], y[36], dw[25];
    for (int i = 0; i < 36; i++) x[i] = 1.0f, y[i] = NAN;
    for (int i = 0; i < 25; i++) w[i] = 1.0f, dw[i] = NAN;
    tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
    TU_CHECK(tu_conv_run_impl(&pdnn_conv_fwd_cpu_wino5, &cs.p, x, w, y, 1.0, 0.0, 1) ==
                 PDNN_STATUS_SUCCESS,
             "hand fwd");
    static const int n6[6] = {3, 4, 5, 5, 4, 3}, m5[5] = {4, 5, 6, 5, 4};
    for (int i = 0; i < 36; i++) {
        const float want = (float)(n6[i / 6] * n6[i % 6]);
        TU_CHECK(fabsf(y[i] - want) <= 1e-5f * want, "hand fwd y[%d] = %.9g, want %g", i, y[i],
                 want);
    }
    tu_conv_setup_init(&cs, &s, PDNN_CONV_BWD_FILTER);
    TU_CHECK(tu_conv_run_impl(&pdnn_conv_bwd_filter_cpu_wino5_nonfused, &cs.p, x, x, dw, 1.0,
                              0.0, 1) == PDNN_STATUS_SUCCESS,
             "hand bwd filter");
    for (int i = 0; i < 25; i++) {
        const float want = (float)(m5[i / 5] * m5[i % 5]);
        TU_CHECK(fabsf(dw[i] - want) <= 1e-5f * want, "hand bwd filter dw[%d] = %.9g, want %g",
                 i, dw[i], want);
    }
}

static void expect_refused(const tu_conv_shape *s, pdnn_conv_dir dir, const char *what,
                           void (*tweak)(pdnn_conv_problem *))
{
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, s, dir);
    if (tweak) tweak(&cs.p);
    for (int i = 0; i < NENTRIES; i++) {
        if (entries[i].dir != dir) continue;
        const char *why = NULL;
        TU_CHECK(!entries[i].im->supports(&cs.p, &why) && why && *why,
                 "%s %s: %s must be refused with a reason", entries[i].im->name,
                 tu_conv_dir_name(dir), what);
    }
}

static void mixed_accumulation(pdnn_conv_problem *p) { p->compute = PDNN_DATA_DOUBLE; }
static void half_data(pdnn_conv_problem *p) { p->dtype = p->compute = PDNN_DATA_HALF; }

static void test_refusals(void)
{
    for (int d = 0; d < 3; d++) {
        const pdnn_conv_dir dir = (pdnn_conv_dir)d;
        tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 9, 9, 3, 3, 1, 1, 1);
        expect_refused(&s, dir, "a 3x3 filter", NULL);
        s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 9, 9, 5, 5, 2, 2, 1);
        expect_refused(&s, dir, "stride 2", NULL);
        s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 12, 12, 5, 5, 1, 2, 2);
        expect_refused(&s, dir, "dilation 2", NULL);
        s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 9, 9, 5, 3, 1, 1, 1);
        expect_refused(&s, dir, "a 5x3 filter", NULL);
        s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 9, 9, 5, 5, 1, 2, 1);
        expect_refused(&s, dir, "FLOAT data with DOUBLE accumulation", mixed_accumulation);
        expect_refused(&s, dir, "HALF data", half_data);
        memset(&s, 0, sizeof s);
        s.t = PDNN_DATA_FLOAT;
        s.nsp = 1;
        s.n = s.g = s.cg = s.kg = 1;
        s.in[0] = 9;
        s.kern[0] = 5;
        s.str[0] = s.dil[0] = 1;
        tu_conv_finish_shape(&s);
        expect_refused(&s, dir, "a 1-d convolution", NULL);
        s.nsp = 3;
        for (int i = 0; i < 3; i++) s.in[i] = 6, s.kern[i] = 5, s.str[i] = s.dil[i] = 1;
        tu_conv_finish_shape(&s);
        expect_refused(&s, dir, "a 3-d convolution", NULL);
    }
    /* an entry refuses the other directions */
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 9, 9, 5, 5, 1, 2, 1);
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, &s, PDNN_CONV_BWD_DATA);
    const char *why = NULL;
    TU_CHECK(!pdnn_conv_fwd_cpu_wino5.supports(&cs.p, &why) && why, "wrong direction refused");
}

static void test_api(void)
{
    pdnnHandle_t h;
    TU_OK(pdnnCreate(&h));
    for (int i = 0; i < 10; i++) {
        tu_conv_shape s;
        rand_shape(&s, i % 2 ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT);
        const wino_entry *e = &entries[i % NENTRIES];
        tu_conv_api_check(h, &s, e->dir, e->algo, e->im, false, i % 3 ? 1.0 : -2.0,
                          i % 4 ? 0.0 : 0.5, tol_of(s.t));
    }
    TU_OK(pdnnDestroy(h));
}

int main(void)
{
    /* fused blocks of a few tiles, so that the small shapes cross blocks (read once by
     * the library, at its first cache query; results do not depend on it) */
    setenv("PDNN_CACHE_L2", "65536", 1);
    tu_seed(5555);
    test_by_hand();
    test_refusals();
    for (int ti = 0; ti < 2; ti++) {
        pdnnDataType_t t = ti ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        test_edges(t);
        test_random(t, 40);
    }
    test_api();
    printf("conv winograd 5x5: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_winograd5");
}
