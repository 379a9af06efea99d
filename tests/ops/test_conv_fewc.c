/* The few-input-channel paths (conv_cpu_direct_fewc.c, "cpu:direct_fewc": forward DIRECT
 * and backward filter ALGO_0, AVX-512 only) against the independent oracle of
 * tests/common/tu_conv.h, run through its registry entry with exactly its workspace:
 * random problems inside its rules (1-4 input channels, 8-40 output channels: whole and
 * partial 8-channel tiles; 1-d and 2-d; stride 1 and 2 along each dim (the stride-phase
 * copies, odd and even sizes); rows of 1-40 columns with the padding split any way
 * between the two sides; any row padding, also wider than the filter; filters up to 7 x
 * 7 within 64 taps over the channels; MobileNet's stem reduced; grids whose last vector
 * is partial and tiles of 1-3 vectors; flip, KRSC; minibatch 1-3; channels-last with one
 * channel, which is flat), both directions on each, an empty batch (dw = beta dw), exact
 * on small integers, beta != 0 and NaN-poisoned outputs (beta == 0), alpha 1 / 2 / -0.5,
 * 1 and 2 threads bitwise (the harness); the refusals, each with its reason; a case
 * worked by hand (an Inf weight meets only padding at a corner output); the public API
 * with DIRECT (dispatch and workspace), and that the algorithm query ranks DIRECT first
 * for LeNet's first layer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"
#include "tu_conv.h"
#include "tu_layout.h"

extern const pdnn_impl pdnn_conv_fwd_cpu_direct_fewc;
extern const pdnn_impl pdnn_conv_bwd_filter_cpu_direct_fewc;
static const pdnn_impl *const im = &pdnn_conv_fwd_cpu_direct_fewc;
static const pdnn_impl *const imw = &pdnn_conv_bwd_filter_cpu_direct_fewc;

/* Random problems inside the rules: strides 1 and 2, "same" columns at stride 1 and
 * rows at least half as wide as x's at stride 2, at most 64 taps over the channels. */
static tu_conv_shape rand_shape(void)
{
    static const int ks[] = {8, 9, 13, 16, 24, 31, 40};
    for (;;) {
        const bool two = tu_int(0, 3) != 0;
        const int c = tu_int(1, 4);
        const int r = two ? tu_int(1, 7) : 1, s = tu_int(1, 7);
        const int sr = two ? tu_int(1, 2) : 1, sc = tu_int(1, 2);
        if (c * r * s > 64) continue;
        tu_conv_shape sh;
        if (two) {
            sh = tu_conv_shape2d(PDNN_DATA_FLOAT, tu_int(1, 3), 1, c, ks[tu_int(0, 6)],
                                 tu_int(1, 20), tu_int(1, 40), r, s, 1, 0, 1);
            sh.str[0] = sr;
            sh.str[1] = sc;
        } else {
            sh = tu_conv_shape1d(PDNN_DATA_FLOAT, tu_int(1, 3), 1, c, ks[tu_int(0, 6)],
                                 tu_int(1, 60), s, sc, 0, 1);
        }
        const int cd = two ? 1 : 0; /* the column dim */
        if (two) {
            sh.pb[0] = tu_int(0, r + 1);
            sh.pe[0] = tu_int(0, r + 1);
        }
        sh.pb[cd] = tu_int(0, s - 1);
        sh.pe[cd] = sc == 1 ? s - 1 - sh.pb[cd] : tu_int(0, s);
        sh.flip = tu_int(0, 2) == 0;
        sh.krsc = tu_int(0, 2) == 0;
        bool fits = true;
        for (int d = 0; d < sh.nsp; d++)
            fits = fits && sh.in[d] + sh.pb[d] + sh.pe[d] >= sh.kern[d];
        if (!fits) continue;
        tu_conv_finish_shape(&sh);
        const int w = sh.in[cd], q = sh.out[cd];
        if ((sc == 1 && q != w) || (sc == 2 && (w + 1) / 2 > q)) continue;
        return sh;
    }
}

static void test_random(void)
{
    static const double al[] = {1, 2, -0.5}, be[] = {0, 0.5, 0, -1.5};
    for (int i = 0; i < 120; i++) {
        tu_conv_shape s = rand_shape();
        if (s.cg == 1 && i % 7 == 3) s.xkind = TU_LAYOUT_CHANNELS_LAST;
        tu_conv_check(im, &s, PDNN_CONV_FWD, i % 5 != 3, al[i % 3], be[i % 4], 0, true);
        tu_conv_check(imw, &s, PDNN_CONV_BWD_FILTER, i % 5 != 3, al[(i + 1) % 3],
                      be[(i + 1) % 4], 0, true);
    }
    /* MobileNet's stride-2 stem (reduced), then LeNet's first layer, VGG's, and grids
     * of exactly 1, 2, 3 and 4 vectors */
    tu_conv_shape m = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 3, 32, 32, 32, 3, 3, 2, 1, 1);
    tu_conv_check(im, &m, PDNN_CONV_FWD, true, 1, 0, 0, true);
    tu_conv_check(imw, &m, PDNN_CONV_BWD_FILTER, true, 1, 0, 0, true);
    m.pe[0] = m.pe[1] = 0; /* PyTorch's padding 1 on an even size: the same output */
    tu_conv_finish_shape(&m);
    tu_conv_check(im, &m, PDNN_CONV_FWD, false, 1, 0, 0, true);
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 1, 1, 32, 28, 28, 5, 5, 1, 2, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0, 0, true);
    tu_conv_check(imw, &s, PDNN_CONV_BWD_FILTER, true, 1, 0, 0, true);
    tu_conv_check(imw, &s, PDNN_CONV_BWD_FILTER, false, -0.5, 1, 0, true);
    /* the backward filter's pieces of dy: rows of 256 pixels and more (pieces of one
     * row: 300 = 256 + 44, 1-d and 2-d, stride 2 along the row) and rows of fewer (whole
     * rows a piece: 9 rows of 28, then the image's last 1); 35 taps in 3 groups; more
     * output channels than a 32-lane block (up to three, the last partial) */
    s = tu_conv_shape1d(PDNN_DATA_FLOAT, 2, 1, 2, 40, 300, 5, 1, 2, 1);
    tu_conv_check(imw, &s, PDNN_CONV_BWD_FILTER, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 33, 3, 600, 3, 3, 1, 1, 1);
    s.str[1] = 2;
    tu_conv_finish_shape(&s);
    tu_conv_check(imw, &s, PDNN_CONV_BWD_FILTER, true, 2, 0.5, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 3, 1, 1, 8, 28, 28, 5, 5, 1, 2, 1);
    tu_conv_check(imw, &s, PDNN_CONV_BWD_FILTER, true, 1, 0, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 70, 10, 10, 7, 5, 1, 3, 1);
    s.pb[1] = s.pe[1] = 2;
    tu_conv_finish_shape(&s);
    tu_conv_check(imw, &s, PDNN_CONV_BWD_FILTER, true, 1, 0, 0, true);
    /* an empty batch: dw = beta dw */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 0, 1, 2, 9, 6, 6, 3, 3, 1, 1, 1);
    tu_conv_check(imw, &s, PDNN_CONV_BWD_FILTER, true, 1, 0.5, 0, true);
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3, 64, 24, 24, 3, 3, 1, 1, 1);
    tu_conv_check(im, &s, PDNN_CONV_FWD, false, 1, 0, 0, true);
    for (int v = 1; v <= 4; v++) {
        s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 4, 4 * v, 3, 3, 1, 1, 1);
        tu_conv_check(im, &s, PDNN_CONV_FWD, true, 1, 0.5, 0, true);
    }
}

static void refuse(const tu_conv_shape *s, const char *what)
{
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, s, PDNN_CONV_FWD);
    const char *why = NULL;
    const bool ok = im->supports(&cs.p, &why);
    TU_CHECK(!ok && why && why[0], "%s: supported (or no reason)", what);
    tu_conv_setup_init(&cs, s, PDNN_CONV_BWD_FILTER);
    why = NULL;
    const bool okw = imw->supports(&cs.p, &why);
    TU_CHECK(!okw && why && why[0], "%s: supported in the backward filter (or no reason)", what);
}

static void test_refusals(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 3, 1, 1);
    refuse(&s, "stride 3");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 20, 20, 3, 3, 2, 0, 1);
    refuse(&s, "stride 2, output rows narrower than half the input's");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3, 64, 32, 32, 7, 7, 2, 3, 1);
    refuse(&s, "147 taps over the channels (the 7 x 7 stem)");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 2, 2);
    refuse(&s, "dilation 2");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 2, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    refuse(&s, "2 groups");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 5, 8, 9, 9, 3, 3, 1, 1, 1);
    refuse(&s, "5 input channels");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 7, 9, 9, 3, 3, 1, 1, 1);
    refuse(&s, "7 output channels");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 0, 1);
    refuse(&s, "output rows narrower than the input's");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 8, 20, 20, 7, 9, 1, 0, 1);
    s.pb[1] = 4;
    s.pe[1] = 4;
    tu_conv_finish_shape(&s);
    refuse(&s, "63 taps");
    s = tu_conv_shape2d(PDNN_DATA_DOUBLE, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    refuse(&s, "DOUBLE");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    s.xkind = TU_LAYOUT_CHANNELS_LAST;
    refuse(&s, "channels-last x with 2 channels");
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 8, 9, 9, 3, 3, 1, 1, 1);
    s.nsp = 3;
    s.in[2] = 2;
    s.kern[2] = 1;
    s.str[2] = s.dil[2] = 1;
    tu_conv_finish_shape(&s);
    refuse(&s, "3-d");
}

/* 1 channel, 8 output channels, 3 x 3 padding 1 on 4 x 4 ones; every weight 1 but output
 * channel 0's top-left tap, Inf. Output (0, 0) of channel 0 meets that tap only in the
 * padding: 4 valid taps, 4.0, not NaN; output (1, 1) meets it at x(0, 0): Inf; the
 * other channels see 4 (corners), 6 (edges), 9 (inside). */
static void test_by_hand(void)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 1, 8, 4, 4, 3, 3, 1, 1, 1);
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
    float x[16], w[72], y[128];
    for (int i = 0; i < 16; i++) x[i] = 1.0f;
    for (int i = 0; i < 72; i++) w[i] = 1.0f;
    w[0] = INFINITY;
    for (int i = 0; i < 128; i++) y[i] = NAN;
    TU_OK(tu_conv_run_impl(im, &cs.p, x, w, y, 1.0, 0.0, 1));
    TU_CHECK(y[0] == 4.0f, "corner of channel 0: %g, expected 4", (double)y[0]);
    TU_CHECK(isinf(y[5]) && y[5] > 0, "(1, 1) of channel 0: %g, expected inf", (double)y[5]);
    for (int k = 1; k < 8; k++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                const int edges = (i == 0 || i == 3) + (j == 0 || j == 3);
                const float want = edges == 2 ? 4.0f : edges == 1 ? 6.0f : 9.0f;
                TU_CHECK(y[k * 16 + i * 4 + j] == want, "channel %d (%d, %d): %g, expected %g",
                         k, i, j, (double)y[k * 16 + i * 4 + j], (double)want);
            }
}

/* The descriptors of shape s (forward); descs_free destroys them. */
typedef struct {
    tu_conv_setup cs;
    pdnnTensorDescriptor_t xd, yd;
    pdnnFilterDescriptor_t wd;
    pdnnConvolutionDescriptor_t cd;
} descs;

static void descs_init(descs *d, const tu_conv_shape *s)
{
    tu_conv_setup_init(&d->cs, s, PDNN_CONV_FWD);
    d->xd = tu_tensor(s->t, d->cs.x.nb, d->cs.x.dims, d->cs.x.st);
    d->yd = tu_tensor(s->t, d->cs.y.nb, d->cs.y.dims, d->cs.y.st);
    TU_OK(pdnnCreateFilterDescriptor(&d->wd));
    TU_OK(pdnnSetFilterNdDescriptor(d->wd, s->t, s->krsc ? PDNN_TENSOR_NHWC : PDNN_TENSOR_NCHW,
                                    d->cs.w.nb, d->cs.w.dims));
    TU_OK(pdnnCreateConvolutionDescriptor(&d->cd));
    TU_OK(pdnnSetConvolutionNdDescriptorEx(d->cd, s->nsp, s->pb, s->pe, s->str, s->dil,
                                           s->flip ? PDNN_CONVOLUTION : PDNN_CROSS_CORRELATION,
                                           s->t));
}

static void descs_free(descs *d)
{
    pdnnDestroyTensorDescriptor(d->xd);
    pdnnDestroyTensorDescriptor(d->yd);
    pdnnDestroyFilterDescriptor(d->wd);
    pdnnDestroyConvolutionDescriptor(d->cd);
}

/* pdnnConvolutionForward with DIRECT and the queried workspace (this path's) gives the
 * entry's bits, at 1 and 2 threads; with no workspace at all, DIRECT still runs (the
 * next DIRECT entry, dispatch's rule) and gives the same values on small integers. */
static void api_check(pdnnHandle_t h, const tu_conv_shape *s, double beta)
{
    descs d;
    descs_init(&d, s);
    const pdnn_conv_problem *p = &d.cs.p;
    size_t wsb = 0;
    TU_OK(pdnnGetConvolutionForwardWorkspaceSize(h, d.xd, d.wd, d.cd, d.yd,
                                                 PDNN_CONVOLUTION_FWD_ALGO_DIRECT, &wsb));
    TU_CHECK(wsb == im->workspace(p), "API workspace %zu, entry %zu", wsb, im->workspace(p));
    const size_t xn = (size_t)d.cs.x.span, wn = (size_t)d.cs.w.span, yn = (size_t)d.cs.y.span;
    float *x = malloc(xn * sizeof(float)), *w = malloc(wn * sizeof(float));
    float *y[4], *ws = malloc(wsb ? wsb : 1);
    for (size_t i = 0; i < xn; i++) x[i] = (float)tu_int(-3, 3);
    for (size_t i = 0; i < wn; i++) w[i] = (float)tu_int(-3, 3);
    for (int r = 0; r < 4; r++) {
        y[r] = malloc(yn * sizeof(float));
        for (size_t i = 0; i < yn; i++) y[r][i] = beta == 0 ? NAN : (float)(i % 7);
    }
    const float al = 1.0f, be = (float)beta;
    TU_OK(tu_conv_run_impl(im, p, x, w, y[0], 1.0, beta, 1));
    for (int r = 1; r < 4; r++) {
        TU_OK(pdnnSetNumThreads(h, r == 2 ? 2 : 1));
        TU_OK(pdnnConvolutionForward(h, &al, d.xd, x, d.wd, w, d.cd,
                                     PDNN_CONVOLUTION_FWD_ALGO_DIRECT, r == 3 ? NULL : ws,
                                     r == 3 ? 0 : wsb, &be, d.yd, y[r]));
        TU_CHECK(tu_bitwise_equal(y[r], y[0], yn * sizeof(float)),
                 "run %d (%s) differs from the entry's bits", r,
                 r == 3 ? "no workspace" : r == 2 ? "2 threads" : "1 thread");
    }
    for (int r = 0; r < 4; r++) free(y[r]);
    free(x);
    free(w);
    free(ws);
    descs_free(&d);
}

static void test_api(void)
{
    pdnnHandle_t h;
    TU_OK(pdnnCreate(&h));
    for (int i = 0; i < 8; i++) {
        tu_conv_shape s = rand_shape();
        api_check(h, &s, i % 3 ? 0.0 : 0.5);
    }
    /* the model ranks DIRECT (this path) first for LeNet's 5 x 5 1 -> 32 layer */
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 32, 1, 1, 32, 28, 28, 5, 5, 1, 2, 1);
    descs d;
    descs_init(&d, &s);
    pdnnConvolutionFwdAlgoPerf_t perf[PDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int got = 0;
    TU_OK(pdnnGetConvolutionForwardAlgorithm_v7(h, d.xd, d.wd, d.cd, d.yd,
                                                PDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf));
    TU_CHECK(got > 0 && perf[0].algo == PDNN_CONVOLUTION_FWD_ALGO_DIRECT &&
                 perf[0].memory == im->workspace(&d.cs.p),
             "LeNet conv1: first algorithm %d (memory %zu), expected DIRECT (%zu)",
             got > 0 ? (int)perf[0].algo : -1, got > 0 ? perf[0].memory : 0,
             im->workspace(&d.cs.p));
    descs_free(&d);
    pdnnDestroy(h);
}

int main(void)
{
    tu_seed(4242);
    if (pdnn_cpu_isa() < PDNN_ISA_AVX512) {
        /* the entry is AVX-512 only: dispatch never offers it below */
        TU_CHECK(im->min_isa == PDNN_ISA_AVX512, "min_isa %d", (int)im->min_isa);
        printf("conv fewc: no AVX-512, the path is not run\n");
        return tu_finish("ops/conv_fewc");
    }
    test_by_hand();
    test_refusals();
    test_random();
    test_api();
    printf("conv fewc: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_fewc");
}
