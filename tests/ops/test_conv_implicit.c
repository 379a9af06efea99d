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

static const pdnn_impl *const impls[2] = {&pdnn_conv_fwd_cpu_implicit_gemm,
                                          &pdnn_conv_fwd_cpu_implicit_precomp_gemm};
static const int algos[2] = {PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM,
                             PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM};

static void check(const tu_conv_shape *s, bool ints)
{
    static const double alphas[] = {1.0, 2.0, -0.5};
    static const double betas[] = {0.0, 0.0, 1.0, -1.5, 0.5};
    const double alpha = alphas[tu_int(0, 2)], beta = betas[tu_int(0, 4)];
    for (int i = 0; i < 2; i++) tu_conv_check(impls[i], s, PDNN_CONV_FWD, ints, alpha, beta, 0, true);
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
    tu_conv_shape s;
    /* batch 1, 1x1 spatial */
    s = tu_conv_shape2d(t, 1, 1, 3, 4, 1, 1, 1, 1, 1, 0, 1);
    check(&s, true);
    /* padding wider than the kernel, asymmetric */
    s = tu_conv_shape2d(t, 2, 1, 2, 3, 3, 4, 1, 2, 1, 3, 1);
    s.pe[1] = 0;
    tu_conv_finish_shape(&s);
    check(&s, true);
    /* stride above the kernel */
    s = tu_conv_shape2d(t, 2, 1, 2, 3, 9, 10, 2, 2, 3, 0, 1);
    check(&s, true);
    /* depthwise, multiplier 2, channels-last, KRSC */
    s = tu_conv_shape2d(t, 2, 4, 1, 2, 6, 5, 3, 3, 1, 1, 1);
    s.krsc = true;
    s.xkind = s.ykind = TU_LAYOUT_CHANNELS_LAST;
    check(&s, true);
    /* dilation, convolution mode */
    s = tu_conv_shape2d(t, 1, 2, 2, 2, 9, 9, 3, 3, 1, 2, 3);
    s.flip = true;
    check(&s, true);
    /* T = 288 > KC: two K blocks; gapped layouts */
    s = tu_conv_shape2d(t, 2, 1, 32, 7, 6, 5, 3, 3, 1, 1, 1);
    check(&s, true);
    s.xkind = s.ykind = TU_LAYOUT_GAPPED;
    check(&s, false);
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
    /* 3-d, channels-last, KRSC, convolution mode */
    memset(&s, 0, sizeof s);
    s.t = t;
    s.nsp = 3;
    s.n = 2;
    s.g = 2;
    s.cg = 3;
    s.kg = 2;
    for (int d = 0; d < 3; d++) {
        s.in[d] = 4 + d;
        s.kern[d] = 2 + (d == 1);
        s.str[d] = 1 + (d == 2);
        s.dil[d] = 1;
        s.pb[d] = d;
        s.pe[d] = 1;
    }
    s.flip = true;
    s.krsc = true;
    s.xkind = s.ykind = TU_LAYOUT_CHANNELS_LAST;
    tu_conv_finish_shape(&s);
    check(&s, true);
    /* zero output channels: nothing is written */
    s = tu_conv_shape2d(t, 2, 1, 2, 0, 4, 4, 3, 3, 1, 1, 1);
    check(&s, true);
}

static void test_refusals(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 4, 4, 3, 3, 1, 1, 1);
    for (int i = 0; i < 2; i++) {
        tu_conv_setup cs;
        const char *why = NULL;
        tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
        cs.p.compute = PDNN_DATA_DOUBLE;
        TU_CHECK(!impls[i]->supports(&cs.p, &why) && why && *why,
                 "%s: DOUBLE accumulation of FLOAT data must be refused with a reason",
                 impls[i]->name);
        tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
        cs.p.ws[3] = 5; /* not a packed filter */
        why = NULL;
        TU_CHECK(!impls[i]->supports(&cs.p, &why) && why, "%s: gapped filter refused",
                 impls[i]->name);
        tu_conv_setup_init(&cs, &s, PDNN_CONV_BWD_DATA);
        why = NULL;
        TU_CHECK(!impls[i]->supports(&cs.p, &why) && why, "%s: backward data refused",
                 impls[i]->name);
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
    tu_conv_shape s;
    memset(&s, 0, sizeof s);
    s.t = PDNN_DATA_FLOAT;
    s.nsp = 1;
    s.n = s.g = s.cg = s.kg = 1;
    s.in[0] = 4;
    s.kern[0] = 2;
    s.str[0] = s.dil[0] = 1;
    s.pb[0] = s.pe[0] = 1;
    tu_conv_finish_shape(&s);
    const float x[4] = {1, 2, 3, 4}, w[2] = {1, 10};
    for (int i = 0; i < 2; i++)
        for (int flip = 0; flip < 2; flip++) {
            s.flip = flip;
            tu_conv_setup cs;
            tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
            float y[5] = {NAN, NAN, NAN, NAN, NAN};
            TU_OK(tu_conv_run_impl(impls[i], &cs.p, x, w, y, 1.0, 0.0, 1));
            const float *want = flip ? (const float[]){1, 12, 23, 34, 40}
                                     : (const float[]){10, 21, 32, 43, 4};
            TU_CHECK(memcmp(y, want, sizeof y) == 0, "%s by hand flip=%d: %g %g %g %g %g",
                     impls[i]->name, flip, y[0], y[1], y[2], y[3], y[4]);
        }
}

static void test_api(void)
{
    pdnnHandle_t h;
    TU_OK(pdnnCreate(&h));
    for (int i = 0; i < 12; i++) {
        tu_conv_shape s;
        tu_conv_rand_shape(&s, i % 2 ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT);
        tu_conv_api_check(h, &s, PDNN_CONV_FWD, algos[i % 2], impls[i % 2], i % 4 != 3,
                          i % 3 ? 1.0 : -2.0, i % 5 ? 0.0 : 0.5, 0);
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
