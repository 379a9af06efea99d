/* The implicit GEMM forward convolutions (cpu:implicit_gemm, IMPLICIT_GEMM, no workspace;
 * cpu:implicit_precomp_gemm, IMPLICIT_PRECOMP_GEMM, index tables and packed filter in
 * the workspace) against the independent oracle of tests/common/tu_conv.h: random
 * problems of the GEMM family (1-3 spatial dims, groups, stride, dilation, asymmetric
 * padding, flip, KCRS / KRSC, NCHW / channels-last / gapped layouts, FLOAT and DOUBLE),
 * and the edge cases: batch 1, 1x1 spatial, padding wider than the kernel, stride above
 * the kernel, depthwise with multiplier 2, zero output channels, more taps than one K
 * block, column panels crossing images, interior and border panels. Small-integer data
 * must match exactly, 1 and 2 threads bitwise (the harness); problems outside the
 * family are refused with a reason; the public API reaches both through their cuDNN
 * algorithms (workspace query, one byte short refused). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tu_conv.h"
#include "tu_layout.h"

extern const pdnn_impl pdnn_conv_fwd_cpu_implicit_gemm;
extern const pdnn_impl pdnn_conv_fwd_cpu_implicit_precomp_gemm;

/* Two forward-only families, each with its public algorithm. */
static const tu_conv_family fams[2] = {
    {{&pdnn_conv_fwd_cpu_implicit_gemm}, {PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM}},
    {{&pdnn_conv_fwd_cpu_implicit_precomp_gemm},
     {PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM}}};

static const pdnn_impl *impl(int i) { return fams[i].im[PDNN_CONV_FWD]; }

static void check(const tu_conv_shape *s, bool ints)
{
    for (int i = 0; i < 2; i++) tu_conv_check_family(&fams[i], s, ints);
}

static void test_random(pdnnDataType_t t, int count)
{
    for (int i = 0; i < count; i++) {
        tu_conv_shape s;
        tu_conv_rand_shape(&s, t);
        check(&s, i % 3 != 2);
    }
}

static void test_edges(pdnnDataType_t t)
{
    /* DESIGN's named edge cases (tu_conv.h), then the implicit forms' own boundaries */
    for (int i = 0; i < 2; i++) tu_conv_check_edges(&fams[i], t);
    tu_conv_shape s;
    /* T = 288 > KC: two K blocks, channels-last, KRSC */
    s = tu_conv_shape2d(t, 2, 1, 32, 7, 6, 5, 3, 3, 1, 1, 1);
    s.krsc = true;
    s.xkind = s.ykind = TU_LAYOUT_CHANNELS_LAST;
    check(&s, true);
    /* column panels crossing images (P = 63), interior panels along long rows */
    s = tu_conv_shape2d(t, 3, 1, 3, 5, 9, 7, 3, 3, 1, 1, 1);
    check(&s, true);
    s = tu_conv_shape2d(t, 2, 1, 2, 3, 4, 150, 3, 3, 1, 1, 1);
    check(&s, true);
    s = tu_conv_shape2d(t, 2, 1, 2, 3, 4, 150, 3, 3, 2, 0, 1);
    check(&s, true);
    /* many output channels: several row blocks per task split */
    if (t == PDNN_DATA_FLOAT) {
        s = tu_conv_shape2d(t, 2, 1, 8, 150, 10, 10, 3, 3, 1, 1, 1);
        check(&s, true);
    }
}

static void test_refusals(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 4, 4, 3, 3, 1, 1, 1);
    for (int i = 0; i < 2; i++) {
        tu_conv_setup cs;
        const char *why = NULL;
        tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
        cs.p.compute = PDNN_DATA_DOUBLE;
        TU_CHECK(!impl(i)->supports(&cs.p, &why) && why && *why,
                 "%s: DOUBLE accumulation of FLOAT data must be refused with a reason",
                 impl(i)->name);
        tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
        cs.p.ws[3] = 5; /* not a packed filter */
        why = NULL;
        TU_CHECK(!impl(i)->supports(&cs.p, &why) && why, "%s: gapped filter refused",
                 impl(i)->name);
        tu_conv_setup_init(&cs, &s, PDNN_CONV_BWD_DATA);
        why = NULL;
        TU_CHECK(!impl(i)->supports(&cs.p, &why) && why, "%s: backward data refused",
                 impl(i)->name);
    }
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
    TU_CHECK(pdnn_impl_workspace(&pdnn_conv_fwd_cpu_implicit_gemm, &cs.p) == 0,
             "implicit GEMM has a workspace");
}

/* x = [1 2 3 4] (1-d), w = [1 10], stride 1: cross-correlation [21 32 43], convolution
 * [12 23 34]; with padding 1 both ends: [10 21 32 43 4] and [1 12 23 34 40]. */
static void test_by_hand(void)
{
    tu_conv_shape s = tu_conv_shape1d(PDNN_DATA_FLOAT, 1, 1, 1, 1, 4, 2, 1, 1, 1);
    const float x[4] = {1, 2, 3, 4}, w[2] = {1, 10};
    for (int i = 0; i < 2; i++)
        for (int flip = 0; flip < 2; flip++) {
            s.flip = flip;
            tu_conv_setup cs;
            tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
            float y[5] = {NAN, NAN, NAN, NAN, NAN};
            TU_OK(tu_conv_run_impl(impl(i), &cs.p, x, w, y, 1.0, 0.0, 1));
            const float *want = flip ? (const float[]){1, 12, 23, 34, 40}
                                     : (const float[]){10, 21, 32, 43, 4};
            TU_CHECK(memcmp(y, want, sizeof y) == 0, "%s by hand flip=%d: %g %g %g %g %g",
                     impl(i)->name, flip, y[0], y[1], y[2], y[3], y[4]);
        }
}

static void test_api(void)
{
    pdnnHandle_t h;
    TU_OK(pdnnCreate(&h));
    for (int i = 0; i < 12; i++) {
        tu_conv_shape s;
        tu_conv_rand_shape(&s, i % 2 ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT);
        tu_conv_api_check(h, &s, PDNN_CONV_FWD, fams[i % 2].algo[PDNN_CONV_FWD], impl(i % 2),
                          i % 4 != 3, i % 3 ? 1.0 : -2.0, i % 5 ? 0.0 : 0.5, 0);
    }
    TU_OK(pdnnDestroy(h));
}

int main(void)
{
    tu_seed(9090);
    test_by_hand();
    test_refusals();
    for (int ti = 0; ti < 2; ti++) {
        const pdnnDataType_t t = ti ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        test_edges(t);
        test_random(t, 80);
    }
    test_api();
    printf("conv implicit: %ld cases\n", tu_conv_cases());
    return tu_finish("ops/conv_implicit");
}
