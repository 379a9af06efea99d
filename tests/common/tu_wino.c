/* Winograd test harness: see tu_wino.h. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "tu_wino.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/conv/cpu/conv_cpu_wino.h"
#include "tu_layout.h"

static const pdnn_conv_dir entry_dir[TU_WINO_NENTRIES] = {
    PDNN_CONV_FWD, PDNN_CONV_FWD, PDNN_CONV_BWD_DATA, PDNN_CONV_BWD_DATA, PDNN_CONV_BWD_FILTER,
};
static const int entry_algo[TU_WINO_NENTRIES] = {
    PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD,
    PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED,
    PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD,
    PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED,
    PDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED,
};

double tu_wino_tol(const tu_wino *w, pdnnDataType_t t)
{
    return t == PDNN_DATA_DOUBLE ? w->tol_f64 : w->tol_f32;
}

void tu_wino_check(const tu_wino *w, int e, const tu_conv_shape *s, double alpha, double beta)
{
    tu_conv_check(w->im[e], s, entry_dir[e], false, alpha, beta, tu_wino_tol(w, s->t), true);
}

void tu_wino_check_all(const tu_wino *w, const tu_conv_shape *s)
{
    static const double alphas[] = {1.0, 2.0, -0.5};
    static const double betas[] = {0.0, 0.0, 1.0, -1.5, 0.5};
    for (int e = 0; e < TU_WINO_NENTRIES; e++)
        tu_wino_check(w, e, s, alphas[tu_int(0, 2)], betas[tu_int(0, 4)]);
}

/* A random kxk stride-1 2-d shape: padding 0..k-1 on each side, any layouts. */
static void rand_shape(const tu_wino *w, tu_conv_shape *s, pdnnDataType_t t)
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
            s->in[d] = tu_int(1, w->k + 10);
            s->pb[d] = tu_int(0, w->k - 1);
            s->pe[d] = tu_int(0, w->k - 1);
        } while (s->in[d] + s->pb[d] + s->pe[d] < w->k);
        s->kern[d] = w->k;
        s->str[d] = s->dil[d] = 1;
    }
    s->flip = tu_int(0, 1);
    s->krsc = tu_int(0, 1);
    s->xkind = tu_int(0, 2);
    s->ykind = tu_int(0, 2);
    tu_conv_finish_shape(s);
}

static void test_random(const tu_wino *w, pdnnDataType_t t, int count)
{
    for (int i = 0; i < count; i++) {
        tu_conv_shape s;
        rand_shape(w, &s, t);
        if (w->channel_lanes && i % 3 == 0) /* channels-last x and y: the channel-lane form */
            s.xkind = s.ykind = TU_LAYOUT_CHANNELS_LAST;
        tu_wino_check_all(w, &s);
    }
}

static void test_edges(const tu_wino *w, pdnnDataType_t t)
{
    const int k = w->k, pad = (k - 1) / 2;
    /* 1x1 image, padding (k-1)/2: one output read through the filter's centre only */
    tu_conv_shape s = tu_conv_shape2d(t, 1, 1, 3, 4, 1, 1, k, k, 1, pad, 1);
    tu_wino_check_all(w, &s);
    /* more channels than one 64-lane block of the filter transform and more output
     * channels than one GEMM panel; channels-last, KRSC, convolution mode */
    s = tu_conv_shape2d(t, 1, 1, 70, 67, 6, 7, k, k, 1, pad, 1);
    s.xkind = s.ykind = TU_LAYOUT_CHANNELS_LAST;
    s.krsc = true;
    s.flip = true;
    tu_wino_check_all(w, &s);
    /* depthwise, multiplier 2 */
    s = tu_conv_shape2d(t, 2, 5, 1, 2, 9, 7, k, k, 1, 0, 1);
    s.xkind = TU_LAYOUT_GAPPED;
    tu_wino_check_all(w, &s);
    /* zero output channels: fwd and bwd filter write nothing, bwd data dx = beta * dx */
    s = tu_conv_shape2d(t, 2, 1, 2, 0, k + 1, k + 1, k, k, 1, pad, 1);
    for (int e = 0; e < TU_WINO_NENTRIES; e++)
        tu_conv_check(w->im[e], &s, entry_dir[e], true, 1.0, 0.5, tu_wino_tol(w, t), true);
}

static void test_by_hand(const tu_wino *w)
{
    const int k = w->k, h = k + 1;
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 1, h, h, k, k, 1, (k - 1) / 2, 1);
    tu_conv_setup cs;
    float x[64], wt[64], y[64], dw[64];
    for (int i = 0; i < h * h; i++) x[i] = 1.0f, y[i] = NAN;
    for (int i = 0; i < k * k; i++) wt[i] = 1.0f, dw[i] = NAN;
    tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
    TU_CHECK(tu_conv_run_impl(w->im[TU_WINO_FWD], &cs.p, x, wt, y, 1.0, 0.0, 1) ==
                 PDNN_STATUS_SUCCESS,
             "hand fwd");
    for (int i = 0; i < h * h; i++) {
        const float want = (float)(w->hand_n[i / h] * w->hand_n[i % h]);
        TU_CHECK(fabsf(y[i] - want) <= 1e-5f * want, "hand fwd y[%d] = %.9g, want %g", i, y[i],
                 want);
    }
    tu_conv_setup_init(&cs, &s, PDNN_CONV_BWD_FILTER);
    TU_CHECK(tu_conv_run_impl(w->im[TU_WINO_BWD_FILTER_NONFUSED], &cs.p, x, x, dw, 1.0, 0.0, 1) ==
                 PDNN_STATUS_SUCCESS,
             "hand bwd filter");
    for (int i = 0; i < k * k; i++) {
        const float want = (float)(w->hand_m[i / k] * w->hand_m[i % k]);
        TU_CHECK(fabsf(dw[i] - want) <= 1e-5f * want, "hand bwd filter dw[%d] = %.9g, want %g",
                 i, dw[i], want);
    }
}

static void expect_refused(const tu_wino *w, const tu_conv_shape *s, pdnn_conv_dir dir,
                           const char *what, void (*tweak)(pdnn_conv_problem *))
{
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, s, dir);
    if (tweak) tweak(&cs.p);
    for (int e = 0; e < TU_WINO_NENTRIES; e++) {
        if (entry_dir[e] != dir) continue;
        const char *why = NULL;
        TU_CHECK(!w->im[e]->supports(&cs.p, &why) && why && *why,
                 "%s %s: %s must be refused with a reason", w->im[e]->name,
                 tu_conv_dir_name(dir), what);
    }
}

static void mixed_accumulation(pdnn_conv_problem *p) { p->compute = PDNN_DATA_DOUBLE; }
static void half_data(pdnn_conv_problem *p) { p->dtype = p->compute = PDNN_DATA_HALF; }

static void test_refusals(const tu_wino *w)
{
    const int k = w->k, pad = (k - 1) / 2, other = k == 3 ? 5 : 3;
    char what[64];
    for (int d = 0; d < 3; d++) {
        const pdnn_conv_dir dir = (pdnn_conv_dir)d;
        tu_conv_shape s =
            tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 9, 9, other, other, 1, (other - 1) / 2, 1);
        snprintf(what, sizeof what, "a %dx%d filter", other, other);
        expect_refused(w, &s, dir, what, NULL);
        s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 9, 9, k, k, 2, pad, 1);
        expect_refused(w, &s, dir, "stride 2", NULL);
        s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 12, 12, k, k, 1, 2, 2);
        expect_refused(w, &s, dir, "dilation 2", NULL);
        s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 9, 9, k, k - 2, 1, 1, 1);
        snprintf(what, sizeof what, "a %dx%d filter", k, k - 2);
        expect_refused(w, &s, dir, what, NULL);
        s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 9, 9, k, k, 1, pad, 1);
        expect_refused(w, &s, dir, "FLOAT data with DOUBLE accumulation", mixed_accumulation);
        expect_refused(w, &s, dir, "HALF data", half_data);
        s = tu_conv_shape1d(PDNN_DATA_FLOAT, 1, 1, 1, 1, 9, k, 1, 0, 1);
        expect_refused(w, &s, dir, "a 1-d convolution", NULL);
        s.nsp = 3;
        for (int i = 0; i < 3; i++) s.in[i] = k + 1, s.kern[i] = k, s.str[i] = s.dil[i] = 1;
        tu_conv_finish_shape(&s);
        expect_refused(w, &s, dir, "a 3-d convolution", NULL);
    }
    /* an entry refuses the other directions */
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 9, 9, k, k, 1, pad, 1);
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, &s, PDNN_CONV_BWD_DATA);
    const char *why = NULL;
    TU_CHECK(!w->im[TU_WINO_FWD]->supports(&cs.p, &why) && why, "wrong direction refused");
}

static void test_api(const tu_wino *w)
{
    pdnnHandle_t h;
    TU_OK(pdnnCreate(&h));
    for (int i = 0; i < 10; i++) {
        tu_conv_shape s;
        rand_shape(w, &s, i % 2 ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT);
        const int e = i % TU_WINO_NENTRIES;
        tu_conv_api_check(h, &s, entry_dir[e], entry_algo[e], w->im[e], false,
                          i % 3 ? 1.0 : -2.0, i % 4 ? 0.0 : 0.5, tu_wino_tol(w, s.t));
    }
    TU_OK(pdnnDestroy(h));
}

int tu_wino_run(const tu_wino *w, uint64_t seed,
                void (*edges)(const tu_wino *w, pdnnDataType_t t), const char *name)
{
    /* fused blocks of a few tiles, so that the small shapes cross blocks (read once by
     * the library, at its first cache query; results do not depend on it) */
    setenv("PDNN_CACHE_L2", "65536", 1);
    tu_seed(seed);
    test_by_hand(w);
    test_refusals(w);
    for (int ti = 0; ti < 2; ti++) {
        const pdnnDataType_t t = ti ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        test_edges(w, t);
        edges(w, t);
        test_random(w, t, 40);
    }
    test_api(w);
    printf("%s: %ld direction cases\n", w->label, tu_conv_cases());
    return tu_finish(name);
}

char tu_wino_route(const tu_conv_shape *s, pdnn_conv_dir dir)
{
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, s, dir);
    pdnn_wino_geom g;
    pdnn_wino_geom_init(&cs.p, &g);
    return pdnn_wino_channel_lanes(&g) ? 'c' : pdnn_wino_cl_transposed(&g) ? 't' : 'l';
}

int64_t tu_wino_panel_block(const tu_conv_shape *s, pdnn_conv_dir dir)
{
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, s, dir);
    pdnn_wino_geom g;
    pdnn_wino_geom_init(&cs.p, &g);
    return pdnn_wino_cl_panel_block(&g, true);
}
