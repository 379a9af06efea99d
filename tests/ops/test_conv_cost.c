/* The cost model of pdnnGet*Algorithm_v7 (src/ops/conv/conv_cost.c): estimates are
 * positive, finite and grow with the batch; the ranking puts every optimized algorithm
 * ahead of the plain-loop reference, Winograd ahead of im2col + GEMM for a 3x3 stride-1
 * layer with 64 channels and for the main job's 5x5 layer (32 -> 64 channels, 14x14: F(4x4,
 * 5x5) measured 2.5-3x faster than GEMM in each direction; on one image forward and
 * backward data only), and the 1x1 path ahead of GEMM for a 1x1 layer; Get_v7 runs
 * nothing (an output buffer is never needed) and reports time -1. */
#include <math.h>
#include <stdio.h>

#include "cpu/isa.h"
#include "ops/conv/conv_internal.h"
#include "testutil.h"
#include "tu_conv.h"

static pdnnHandle_t h;

/* Get_v7 for shape s and direction dir: the algorithms that run, in rank order. */
static int ranking(const tu_conv_shape *s, pdnn_conv_dir dir, int *algos)
{
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, s, dir);
    pdnnTensorDescriptor_t xd = tu_tensor(s->t, cs.x.nb, cs.x.dims, cs.x.st);
    pdnnTensorDescriptor_t yd = tu_tensor(s->t, cs.y.nb, cs.y.dims, cs.y.st);
    pdnnFilterDescriptor_t wd;
    pdnnConvolutionDescriptor_t cd;
    TU_OK(pdnnCreateFilterDescriptor(&wd));
    TU_OK(pdnnSetFilterNdDescriptor(wd, s->t, PDNN_TENSOR_NCHW, cs.w.nb, cs.w.dims));
    TU_OK(pdnnCreateConvolutionDescriptor(&cd));
    TU_OK(pdnnSetConvolutionNdDescriptorEx(cd, s->nsp, s->pb, s->pe, s->str, s->dil,
                                           PDNN_CROSS_CORRELATION, s->t));
    TU_OK(pdnnSetConvolutionGroupCount(cd, s->g));
    int got = 0, n = 0;
    if (dir == PDNN_CONV_FWD) {
        pdnnConvolutionFwdAlgoPerf_t r[8];
        TU_OK(pdnnGetConvolutionForwardAlgorithm_v7(h, xd, wd, cd, yd, 8, &got, r));
        for (int i = 0; i < got; i++) {
            TU_CHECK(r[i].time == -1.0f, "Get_v7 reports a time");
            if (r[i].status == PDNN_STATUS_SUCCESS) algos[n++] = r[i].algo;
        }
    } else if (dir == PDNN_CONV_BWD_DATA) {
        pdnnConvolutionBwdDataAlgoPerf_t r[8];
        TU_OK(pdnnGetConvolutionBackwardDataAlgorithm_v7(h, wd, yd, cd, xd, 8, &got, r));
        for (int i = 0; i < got; i++)
            if (r[i].status == PDNN_STATUS_SUCCESS) algos[n++] = r[i].algo;
    } else {
        pdnnConvolutionBwdFilterAlgoPerf_t r[8];
        TU_OK(pdnnGetConvolutionBackwardFilterAlgorithm_v7(h, xd, yd, cd, wd, 8, &got, r));
        for (int i = 0; i < got; i++)
            if (r[i].status == PDNN_STATUS_SUCCESS) algos[n++] = r[i].algo;
    }
    pdnnDestroyTensorDescriptor(xd);
    pdnnDestroyTensorDescriptor(yd);
    pdnnDestroyFilterDescriptor(wd);
    pdnnDestroyConvolutionDescriptor(cd);
    return n;
}

static int position(const int *algos, int n, int a)
{
    for (int i = 0; i < n; i++)
        if (algos[i] == a) return i;
    return -1;
}

/* Every implementation's estimate for s: positive, finite, larger for a larger batch;
 * the reference's the largest. */
static void check_estimates(const tu_conv_shape *s0)
{
    for (int d = 0; d < 3; d++) {
        tu_conv_shape s = *s0;
        tu_conv_setup a, b;
        tu_conv_setup_init(&a, &s, (pdnn_conv_dir)d);
        s.n *= 4;
        tu_conv_setup_init(&b, &s, (pdnn_conv_dir)d);
        double ref = 0, best = INFINITY;
        for (const pdnn_impl *const *e = pdnn_conv_impl_list((pdnn_conv_dir)d); *e; e++) {
            const char *why;
            if (!(*e)->supports(&a.p, &why)) continue;
            const double ca = pdnn_conv_cost_ms(*e, &a.p, 2), cb = pdnn_conv_cost_ms(*e, &b.p, 2);
            TU_CHECK(ca > 0 && isfinite(ca), "%s: estimate %g", (*e)->name, ca);
            TU_CHECK(cb > ca, "%s %s: 4x the batch %g <= %g", (*e)->name,
                     tu_conv_dir_name((pdnn_conv_dir)d), cb, ca);
            if ((*e)->name[0] == 'r')
                ref = ca;
            else if (ca < best)
                best = ca;
        }
        TU_CHECK(ref > best, "%s: reference %g not above the best %g",
                 tu_conv_dir_name((pdnn_conv_dir)d), ref, best);
    }
}

int main(void)
{
    TU_OK(pdnnCreate(&h));
    TU_OK(pdnnSetNumThreads(h, 2));
    int algos[8], n;
    /* 3x3 stride 1, 64 channels: Winograd ahead of GEMM, the reference last (with
     * AVX-512 cpu:direct_kvec serves DIRECT: behind Winograd, not necessarily last) */
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, 8, 1, 64, 64, 56, 56, 3, 3, 1, 1, 1);
    check_estimates(&s);
    n = ranking(&s, PDNN_CONV_FWD, algos);
    TU_CHECK(n >= 3 && (pdnn_cpu_isa() >= PDNN_ISA_AVX512 ||
                        algos[n - 1] == PDNN_CONVOLUTION_FWD_ALGO_DIRECT),
             "fwd: reference not last");
    TU_CHECK(algos[0] == PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD ||
                 algos[0] == PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED,
             "fwd 3x3: first %d, not Winograd", algos[0]);
    n = ranking(&s, PDNN_CONV_BWD_DATA, algos);
    TU_CHECK(algos[0] == PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD ||
                 algos[0] == PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED,
             "bwd data 3x3: first %d, not Winograd", algos[0]);
    /* ALGO_0 is the reference with the scalar kernels; cpu:direct_phase serves it at AVX2
     * exactly and cpu:direct_kvec (stride 1) with AVX-512 */
    TU_CHECK(pdnn_cpu_isa() >= PDNN_ISA_AVX2 || algos[n - 1] == PDNN_CONVOLUTION_BWD_DATA_ALGO_0,
             "bwd data: reference not last");
    TU_CHECK(algos[n - 1] != PDNN_CONVOLUTION_BWD_DATA_ALGO_0 || pdnn_cpu_isa() < PDNN_ISA_AVX2,
             "bwd data: ALGO_0 (a direct path) last");
    /* 5x5 (the main job's conv2): Winograd F(4x4, 5x5) first, the reference last */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 64, 1, 32, 64, 14, 14, 5, 5, 1, 2, 1);
    check_estimates(&s);
    for (int d = 0; d < 3; d++) {
        /* the reference serves FWD DIRECT and the backward ALGO_0 here (FWD DIRECT is
         * cpu:direct_kvec with AVX-512, the backward filter's ALGO_0 cpu:direct_bcast,
         * backward data's cpu:direct_phase with AVX2 and cpu:direct_kvec with AVX-512:
         * not first) */
        const int ref_algo = d == 0 ? (int)PDNN_CONVOLUTION_FWD_ALGO_DIRECT : 0;
        const bool ref = d == 1 ? pdnn_cpu_isa() < PDNN_ISA_AVX2
                                : pdnn_cpu_isa() < PDNN_ISA_AVX512;
        n = ranking(&s, (pdnn_conv_dir)d, algos);
        TU_CHECK(n >= 2 && algos[0] != ref_algo && (!ref || algos[n - 1] == ref_algo),
                 "%s 5x5: the reference not last", tu_conv_dir_name((pdnn_conv_dir)d));
        const int w1 = d == 0   ? (int)PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD
                       : d == 1 ? (int)PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD
                                : (int)PDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED;
        const int w2 = d == 0   ? (int)PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED
                       : d == 1 ? (int)PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED
                                : w1;
        TU_CHECK(algos[0] == w1 || algos[0] == w2, "%s 5x5: first %d, not Winograd",
                 tu_conv_dir_name((pdnn_conv_dir)d), algos[0]);
    }
    /* the same on one image (16 tiles): forward and backward data still Winograd first
     * (measured, 2 threads: 0.076 and 0.084 ms against GEMM's 0.10 and 0.15), the backward
     * filter on GEMM with AVX-512 (its transforms run across 64 tile lanes: 0.11 against
     * 0.10; AVX2's Winograd is faster there, 0.22 against 0.31 ms on one thread) */
    s.n = 1;
    check_estimates(&s);
    n = ranking(&s, PDNN_CONV_FWD, algos);
    TU_CHECK(algos[0] == PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD ||
                 algos[0] == PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED,
             "fwd 5x5, 1 image: first %d, not Winograd", algos[0]);
    n = ranking(&s, PDNN_CONV_BWD_DATA, algos);
    TU_CHECK(algos[0] == PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD ||
                 algos[0] == PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED,
             "bwd data 5x5, 1 image: first %d, not Winograd", algos[0]);
    n = ranking(&s, PDNN_CONV_BWD_FILTER, algos);
    TU_CHECK(pdnn_cpu_isa() < PDNN_ISA_AVX512 || algos[0] == PDNN_CONVOLUTION_BWD_FILTER_ALGO_1,
             "bwd filter 5x5, 1 image: first %d, not GEMM (ALGO_1)", algos[0]);
    /* 3x3, 256 channels on one 14 x 14 image (ResNet-50's res4b_branch2b): Winograd's
     * panel schedule first (measured, 2 threads: with AVX-512 forward 0.72 ms against
     * GEMM's 0.83, backward data 0.71 against 0.99; with AVX2 forward 1.0-1.5 against
     * 1.6-1.9). On a 7 x 7 image with 512 channels the forward not on Winograd (the
     * filter transform, 37 MiB, costs more than the 4 tiles save: GEMM with AVX2, DIRECT
     * with AVX-512, below), and with AVX2 backward data on cpu:direct_phase (2 threads:
     * 1.9-2.6 ms against Winograd's 2.5-3.5) */
    const bool avx2 = pdnn_cpu_isa() == PDNN_ISA_AVX2;
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 256, 256, 14, 14, 3, 3, 1, 1, 1);
    n = ranking(&s, PDNN_CONV_FWD, algos);
    TU_CHECK(algos[0] == PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD ||
                 algos[0] == PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED,
             "fwd 3x3 14x14, 1 image: first %d, not Winograd", algos[0]);
    n = ranking(&s, PDNN_CONV_BWD_DATA, algos);
    TU_CHECK(algos[0] == PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD ||
                 algos[0] == PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED,
             "bwd data 3x3 14x14, 1 image: first %d, not Winograd", algos[0]);
    /* with AVX-512 there cpu:direct_kvec (DIRECT) first: its 7 x 64 tiles leave out the
     * products on the padding, where GEMM computes 64 lanes for 49 columns (2 threads,
     * AMD Zen 4: 1.10 ms against GEMM's 1.60) */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 512, 512, 7, 7, 3, 3, 1, 1, 1);
    n = ranking(&s, PDNN_CONV_FWD, algos);
    TU_CHECK(pdnn_cpu_isa() < PDNN_ISA_AVX512 || algos[0] == PDNN_CONVOLUTION_FWD_ALGO_DIRECT,
             "fwd 3x3 7x7, 1 image, AVX-512: first %d, not DIRECT", algos[0]);
    TU_CHECK(pdnn_cpu_isa() >= PDNN_ISA_AVX512 || algos[0] == PDNN_CONVOLUTION_FWD_ALGO_GEMM ||
                 algos[0] == PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM,
             "fwd 3x3 7x7, 1 image: first %d, not GEMM", algos[0]);
    /* with AVX2 the implicit forms last there: each of their 16-pixel column panels
     * reads the 9 MiB filter again (one thread: 24-26 ms against 3.8 for GEMM and for
     * cpu:direct_phase, AVX2's DIRECT) */
    {
        const int pi = position(algos, n, PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM);
        const int pp = position(algos, n, PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM);
        TU_CHECK(!avx2 || (pi >= n - 2 && pp >= n - 2),
                 "fwd 3x3 7x7, 1 image: implicit at %d and %d of %d", pi, pp, n);
    }
    n = ranking(&s, PDNN_CONV_BWD_DATA, algos);
    TU_CHECK(!avx2 || algos[0] == PDNN_CONVOLUTION_BWD_DATA_ALGO_0,
             "bwd data 3x3 7x7, 1 image: first %d, not ALGO_0 (cpu:direct_phase)", algos[0]);
    /* 1x1: the direct 1x1 path (DIRECT / ALGO_0) ahead of GEMM when it exists */
    s = tu_conv_shape2d(PDNN_DATA_FLOAT, 8, 1, 256, 64, 28, 28, 1, 1, 1, 0, 1);
    check_estimates(&s);
    n = ranking(&s, PDNN_CONV_FWD, algos);
    const int pd = position(algos, n, PDNN_CONVOLUTION_FWD_ALGO_DIRECT);
    const int pg = position(algos, n, PDNN_CONVOLUTION_FWD_ALGO_GEMM);
    TU_CHECK(pd >= 0 && pg >= 0, "1x1: DIRECT %d GEMM %d", pd, pg);
    {
        tu_conv_setup cs;
        tu_conv_setup_init(&cs, &s, PDNN_CONV_FWD);
        const char *why;
        bool fast1x1 = false; /* a DIRECT entry other than the reference serves it */
        for (const pdnn_impl *const *e = pdnn_conv_impl_list(PDNN_CONV_FWD); *e; e++)
            if ((*e)->algo == PDNN_CONVOLUTION_FWD_ALGO_DIRECT && (*e)->name[0] != 'r' &&
                (*e)->supports(&cs.p, &why))
                fast1x1 = true;
        TU_CHECK(fast1x1 ? pd < pg : pg < pd, "1x1: DIRECT at %d, GEMM at %d (fast path %d)", pd,
                 pg, fast1x1);
    }
    /* 1x1 backward data and backward filter: ALGO_0 (cpu:direct_1x1) ahead of GEMM,
     * NCHW and a fully connected layer at batch 1 */
    for (int fc = 0; fc < 2; fc++) {
        s = fc ? tu_conv_shape2d(PDNN_DATA_FLOAT, 1, 1, 3136, 128, 1, 1, 1, 1, 1, 0, 1)
               : tu_conv_shape2d(PDNN_DATA_FLOAT, 32, 1, 512, 2048, 7, 7, 1, 1, 1, 0, 1);
        for (int d = 1; d < 3; d++) {
            n = ranking(&s, (pdnn_conv_dir)d, algos);
            const int p0 = position(algos, n, 0); /* BWD_DATA_ALGO_0 / BWD_FILTER_ALGO_0 */
            const int p1 = position(algos, n, 1); /* ALGO_1: GEMM */
            TU_CHECK(p0 >= 0 && p1 >= 0 && p0 < p1, "1x1 %s (fc %d): ALGO_0 at %d, GEMM at %d",
                     tu_conv_dir_name((pdnn_conv_dir)d), fc, p0, p1);
        }
    }
    /* DOUBLE and a 1-d and a 3-d problem: estimates still sane */
    s = tu_conv_shape2d(PDNN_DATA_DOUBLE, 2, 2, 3, 4, 9, 7, 3, 2, 2, 1, 2);
    check_estimates(&s);
    TU_OK(pdnnDestroy(h));
    return tu_finish("ops/conv_cost");
}
