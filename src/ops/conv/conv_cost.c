/* The cost model behind pdnnGet*Algorithm_v7 (conv_internal.h): an estimate, in
 * milliseconds, of one call of the implementation dispatch would run for an algorithm,
 * from the problem's sizes alone (no kernel runs, no memory is touched).
 *
 * time = multiply-add time + memory time + a fixed call overhead, where
 *  - multiply-add time = the multiply-adds the algorithm performs (the direct count, or
 *    the Winograd count with its tiles rounded up, plus its transforms) over the rate
 *    of the micro-kernels of the current ISA (per thread: AVX-512 160, AVX2 80, scalar
 *    16 GFLOP/s FLOAT, half for DOUBLE; measured in docs/PERF.md) times an efficiency:
 *    how full the 6-row x 64-lane register tiles are (a GEMM with 32 rows fills
 *    32 / 36 of its row tiles), how much of the time goes into packing (each packed
 *    element is used M times: efficiency M / (M + c)), lanes wasted on padding;
 *  - memory time = the bytes of x, w and y read or written once at ~30 GB/s per thread
 *    (depthwise, bound by memory: the larger of its multiply-add time and the bytes
 *    streamed at ~10 GB/s);
 *  - threads: the team's size when there is work for several threads.
 * The constants are rough (within ~2x of the measured times of the bench/shapes sets);
 * what matters is the order they give: the reference last, Winograd ahead of GEMM for
 * 3x3 and 5x5 stride-1 layers with enough channels, the 1x1, depthwise and few-channel
 * (cpu:direct_fewc, cpu:direct_phase, and cpu:direct_bcast's backward filter) paths
 * and the channel-vector one (cpu:direct_kvec) ahead of GEMM for the stride-2 problems.
 * Find (which times every algorithm) overrides the model. */
#include <stdbool.h>
#include <string.h>

#include "cpu/isa.h"
#include "ops/conv/conv_internal.h"

static double cdiv(double a, double b) { return b > 0 ? (double)(int64_t)((a + b - 1) / b) : 0; }

/* Fraction of w-wide tiles that n items fill. */
static double fill(double n, double w) { return n <= 0 ? 1.0 : n / (cdiv(n, w) * w); }

/* Multiply-add rate of one thread, GFLOP/s. */
static double peak_gflops(pdnnDataType_t t)
{
    double g;
    switch (pdnn_cpu_isa()) {
    case PDNN_ISA_AVX512: g = 160.0; break;
    case PDNN_ISA_AVX2: g = 80.0; break;
    default: g = 16.0; break;
    }
    return t == PDNN_DATA_DOUBLE ? g / 2 : g;
}

typedef struct {
    double n, g, cg, kg, ks, npix, nin; /* sizes as doubles */
    double nphase;                      /* stride phases: prod(stride) */
    double flops;                       /* 2 * direct multiply-adds */
    double bytes;                       /* x, w, y read or written once */
    bool unit_stride, one_by_one;
    int wino_r; /* 3 or 5: a 2-d r x r stride-1 problem Winograd F(4x4, r x r) serves */
    double oh, ow;                      /* last two output dims */
    double ih, iw;                      /* last two input dims */
    double sw;                          /* last stride */
    double valid;                       /* share of the (output, tap) pairs inside x */
} sizes;

static void sizes_of(const pdnn_conv_problem *p, sizes *s)
{
    pdnn_conv_geom3 g;
    pdnn_conv_widen(p, &g);
    const double es = p->dtype == PDNN_DATA_DOUBLE ? 8 : 4;
    s->n = (double)p->n;
    s->g = (double)p->g;
    s->cg = (double)g.cg;
    s->kg = (double)g.kg;
    s->ks = (double)(g.kern[0] * g.kern[1] * g.kern[2]);
    s->npix = (double)(g.out[0] * g.out[1] * g.out[2]);
    s->nin = (double)(g.in[0] * g.in[1] * g.in[2]);
    s->flops = 2.0 * s->n * s->g * s->kg * s->cg * s->ks * s->npix;
    s->bytes = es * (s->n * s->g * (s->cg * s->nin + s->kg * s->npix) + s->g * s->kg * s->cg * s->ks);
    s->unit_stride = s->one_by_one = true;
    s->nphase = (double)(g.str[0] * g.str[1] * g.str[2]);
    for (int d = 0; d < 3; d++) {
        s->unit_stride = s->unit_stride && g.str[d] == 1;
        s->one_by_one = s->one_by_one && g.kern[d] == 1 && g.pad[d] == 0;
    }
    s->wino_r = s->unit_stride && p->nsp == 2 && g.kern[1] == g.kern[2] &&
                        (g.kern[1] == 3 || g.kern[1] == 5) && g.dil[1] == 1 && g.dil[2] == 1
                    ? (int)g.kern[1]
                    : 0;
    s->oh = (double)g.out[1];
    s->ow = (double)g.out[2];
    s->ih = (double)g.in[1];
    s->iw = (double)g.in[2];
    s->sw = (double)g.str[2];
    /* per dim, the (output, tap) pairs whose input lies inside x (the others read the
     * padding) */
    s->valid = 1.0;
    for (int d = 0; d < 3; d++) {
        /* tap k: the outputs o with 0 <= o str - pad + k dil < in */
        int64_t in = 0;
        for (int64_t k = 0; k < g.kern[d]; k++) {
            const int64_t a = g.pad[d] - k * g.dil[d], st = g.str[d];
            int64_t lo = a > 0 ? (a + st - 1) / st : 0;
            int64_t hi = g.in[d] - 1 + a >= 0 ? (g.in[d] - 1 + a) / st + 1 : 0;
            if (hi > g.out[d]) hi = g.out[d];
            if (hi > lo) in += hi - lo;
        }
        if (g.out[d] > 0 && g.kern[d] > 0) s->valid *= (double)in / (double)(g.out[d] * g.kern[d]);
    }
}

/* Whether the GEMM backward filter reads x in place (conv_cpu_gemm_bwd_filter.c: from 128
 * output pixels an image). */
static bool bwdf_in_place(const sizes *s)
{
    return s->npix >= 128;
}

/* Efficiency of the im2col + GEMM paths (conv_cpu_gemm_*.c) in direction dir. */
static double gemm_eff(const pdnn_conv_problem *p, const sizes *s)
{
    double rows, pack;
    switch (p->dir) {
    case PDNN_CONV_FWD: /* strided taps read contiguous runs too (phase-split copies) */
        rows = s->kg;
        pack = 16;
        break;
    case PDNN_CONV_BWD_DATA:
        if (s->cg >= 4) { /* forward form (by stride phases): C/g rows */
            rows = s->cg;
            pack = 16;
        } else { /* GEMM over the taps, then col2im (contiguous runs at unit stride) */
            rows = s->cg * s->ks;
            pack = s->unit_stride ? 24 : 2 * s->ks + 48;
        }
        break;
    default: /* backward filter: rows are taps, lanes K/g */
        rows = s->kg;
        pack = bwdf_in_place(s) ? 8 : 64;
        break;
    }
    /* the reduction length of each micro-kernel call: a few steps per tile (depthwise
     * backward data sums one output channel) leave the kernel mostly loading and
     * storing its tile */
    double red;
    switch (p->dir) {
    case PDNN_CONV_FWD: red = s->cg * s->ks; break;
    case PDNN_CONV_BWD_DATA: red = s->cg >= 4 ? s->kg * s->ks / s->nphase : s->kg; break;
    default: red = s->n * s->npix; break;
    }
    double e = 0.8 * fill(rows, 6) * rows / (rows + pack) * red / (red + 8);
    /* the forward core with few columns in all (AVX-512, 64-column panels;
     * conv_cpu_gemm_fwd.c; backward data's forward form: dx's pixels, a stride phase's):
     * the last panel's columns past the data are computed for nothing unless at most 32
     * remain (16-column tiles) or at most 4 (GEMV kernels): ResNet-50's 7 x 7 layers at
     * minibatch 1, 49 of 64 lanes */
    const bool core = p->dir == PDNN_CONV_FWD || (p->dir == PDNN_CONV_BWD_DATA && s->cg >= 4);
    const double ncol = p->dir == PDNN_CONV_FWD ? s->n * s->npix : s->n * s->nin / s->nphase;
    if (core && pdnn_cpu_isa() >= PDNN_ISA_AVX512 && ncol <= 16 * 64) {
        const double cols = ncol, full = 64 * (double)(int64_t)(cols / 64);
        const double rest = cols - full;
        if (rest > 4) e *= cols / (full + (rest > 32 ? 64 : 16 * cdiv(rest, 16)));
    }
    if (p->dir == PDNN_CONV_BWD_FILTER && bwdf_in_place(s))
        e *= fill(s->kg, s->kg <= 32 ? 32 : 64); /* K/g lanes of the (narrow) tile */
    return e;
}

/* Winograd F(4x4, r x r) (alpha = r + 3 points: 36 GEMMs for 3x3, 64 for 5x5):
 * multiply-adds of the alpha^2 GEMMs over the (rounded-up) tiles, plus the transforms, as
 * flops at the GEMM's rate. */
static double wino_flops(const pdnn_conv_problem *p, const sizes *s)
{
    const double tiles = cdiv(s->oh, 4) * cdiv(s->ow, 4);
    const double xi = (s->wino_r + 3.0) * (s->wino_r + 3.0);
    const double gemm = 2.0 * xi * s->n * s->g * s->kg * s->cg * tiles;
    const double cin = p->dir == PDNN_CONV_BWD_DATA ? s->kg : s->cg;
    const double cout = p->dir == PDNN_CONV_BWD_DATA ? s->cg : s->kg;
    /* input and output transforms: ~ 10 flops per transformed element, at a quarter of
     * the GEMM's rate; the backward filter's run across 64 tile lanes (with few tiles,
     * mostly empty ones: LeNet conv2 on one image stays on GEMM) */
    const double tl = p->dir == PDNN_CONV_BWD_FILTER ? cdiv(s->n * tiles, 64) * 64 : s->n * tiles;
    const double tr = 4 * 10.0 * xi * s->g * tl * (cin + cout);
    /* AVX2, forward and backward data with few tiles (the schedule of
     * conv_cpu_wino_cl.c) and a point's transformed filter of 512 x 512 or more (1 MiB,
     * twice the L2): each of the alpha^2 GEMMs streams its K x C/g matrix from L3 for a
     * few columns, at 2-3x the time the rate above gives (minibatch 1: backward data 512
     * -> 512 on 7 x 7, 2 threads, 2.5-3.5 ms against cpu:direct_phase's 1.9-2.6; forward
     * on 14 x 14, VGG-16 conv5_1, 9.0-10.4 against GEMM's 7.1-9.1; one thread, backward
     * data on 14 x 14 15.8 ms, on 28 x 28 39.1). 256 x 256 runs faster on Winograd at 2
     * threads (ResNet-50 res4b_branch2b: forward 1.0-1.5 ms against GEMM's 1.6-1.9,
     * backward data 1.1-1.5 against cpu:direct_phase's 2.1-2.4), though at one thread
     * its forward is on GEMM's time (3.4 against 4.2 ms). */
    double slow = 1.0;
    if (p->dir != PDNN_CONV_BWD_FILTER && pdnn_cpu_isa() == PDNN_ISA_AVX2 && s->g == 1 &&
        s->n * tiles <= 96 && s->kg * s->cg >= 512.0 * 512.0)
        slow = 3.0;
    return slow * gemm / (0.8 * fill(cout, 6) * cin / (cin + 24)) + tr;
}

/* Milliseconds of the per-call filter transform (forward, backward data: xi matrices of
 * K x C/g elements written, then read by the GEMMs; with few images it dominates), on
 * the whole team: when the transformed filter fits a core's L2 (1 MiB), or when the
 * tiles are few (at most 96, one group: conv_cpu_wino_cl.c's panel schedule makes it in
 * cached blocks used at once), the threads split it, ~15 GB/s each (LeNet conv2:
 * 0.5 MiB in ~35 us on one thread; ResNet-50 res4b_branch2b on one image: 9.4 MiB in
 * ~0.7 ms); larger ones are bound by memory, ~10 GB/s for the team, written then read.
 * The backward filter transforms its result once. */
static double wino_filter_ms(const pdnn_conv_problem *p, const sizes *s, double tiles,
                             double nt)
{
    const double xi = (s->wino_r + 3.0) * (s->wino_r + 3.0);
    const double es = p->dtype == PDNN_DATA_DOUBLE ? 8 : 4;
    const double bytes = xi * s->g * s->kg * s->cg * es;
    const bool cached = bytes <= 1048576.0 ||
                        (p->dir != PDNN_CONV_BWD_FILTER && s->g == 1 && s->n * tiles <= 96);
    return cached ? bytes / 15.0e6 / nt : 2.0 * bytes / 10.0e6;
}

double pdnn_conv_cost_ms(const pdnn_impl *im, const pdnn_conv_problem *p, int nthreads)
{
    sizes s;
    sizes_of(p, &s);
    const double peak = peak_gflops(p->dtype) * 1e6; /* flops per ms */
    /* threads help when every thread gets at least ~1 MFLOP */
    double th = s.flops / 1e6;
    th = th < 1 ? 1 : th;
    const double nt = nthreads < th ? nthreads : th;
    const double overhead = 0.005; /* ms: validation, dispatch, the team's start */
    double compute;
    const int a = im->algo;
    const bool ref = strncmp(im->name, "ref:", 4) == 0;
    const bool fwd = p->dir == PDNN_CONV_FWD, bwdd = p->dir == PDNN_CONV_BWD_DATA;
    const bool wino = fwd ? (a == PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD ||
                             a == PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED)
                      : bwdd ? (a == PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD ||
                                a == PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED)
                             : (a == PDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD ||
                                a == PDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED);
    const bool direct = fwd ? a == PDNN_CONVOLUTION_FWD_ALGO_DIRECT
                            : a == 0; /* BWD_DATA_ALGO_0 / BWD_FILTER_ALGO_0 */
    if (ref) {
        compute = s.flops / 1.0e6; /* the plain loops: ~1 GFLOP/s per thread */
    } else if (wino && s.wino_r) {
        const bool fused = fwd ? a == PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD
                               : bwdd && a == PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD;
        /* + the filter transform and the stages' barriers (the team's time, so times
         * nt: the division below is for the parallel parts); problems with large
         * filters and few tiles stay on the exact GEMM */
        compute = wino_flops(p, &s) / peak * (fused ? 0.95 : 1.0) +
                  (0.005 + wino_filter_ms(p, &s, cdiv(s.oh, 4) * cdiv(s.ow, 4), nt)) * nt;
    } else if (direct && strcmp(im->name, "cpu:direct_fewc") == 0) {
        /* few input channels on flat planes: nothing packed, 8-row tiles */
        compute = s.flops / (peak * 0.85 * fill(s.kg, 8));
    } else if (direct && strcmp(im->name, "cpu:direct_phase") == 0) {
        /* AVX2, zero-padded planes: 4-row x 3-vector tiles over the output (phase) rows,
         * about as wide as y's (their last vectors partly empty), the filter read in
         * place; forward: every tap one loop step (25-27 taps for the stems: the tile's
         * stores weigh), with more than 4 input channels behind GEMM (ResNet-50's
         * stride-2 3 x 3 layers at minibatch 1: 1-1.5x GEMM's time); backward data at
         * stride 2: each phase sums a part of the taps, a few a loop step */
        const double e = fwd ? (s.cg <= 4 ? 0.75 : 0.4) : s.nphase > 1 ? 0.55 : 0.7;
        compute = s.flops / (peak * e * fill(fwd ? s.kg : s.cg, 4) * fill(s.ow, 8));
    } else if (direct && strcmp(im->name, "cpu:direct_kvec") == 0) {
        /* column stride 1 or 2, output channels along the lanes (backward data: dx's
         * channels along them, dy the input; at stride 1 the forward form, above it dx's
         * column phases, a tile's taps about one in sh sw): nothing of x packed,
         * the filter transposed once a call and x copied zero-padded once (both ~20 GB/s
         * a thread, read and written; with one image whose every block of output channels
         * is one item, each item transposes its filter chunks into L1 as it goes: the
         * filter read once, ~30 GB/s); 14-pixel x 32-channel tiles, or 7 x 64 on rows of
         * 7 pixels (ResNet-50's res5a_branch2b: on GEMM's time, ~170 GFLOP/s a core,
         * where the 14-pixel tiles of res3a/res4a_branch2b run 180-190); the products
         * that would read the padding are left out */
        const double kq = bwdd ? s.cg : s.kg, cq = bwdd ? s.kg : s.cg;
        const double qw = bwdd ? cdiv(s.iw, s.sw) : s.ow, qpix = bwdd ? s.nin : s.npix;
        const double qin = bwdd ? s.npix : s.nin;
        const bool seven = (int64_t)qw % 14 != 0 && (int64_t)qw % 7 == 0 && (int64_t)kq % 64 == 0;
        const double lanes = seven ? 64 : 32;
        const bool fused = s.n == 1 && (cdiv(kq, lanes) >= 8 || (bwdd ? s.ih : s.oh) == 1) &&
                           qpix * lanes * 4 <= 192 * 1024;
        const double wbytes = s.kg * s.cg * s.ks;
        const double copy = (fused ? 4.0 * wbytes / 30.0e6 : 8.0 * wbytes / 20.0e6) +
                            8.0 * s.n * cq * qin / 20.0e6;
        /* dx's column phases: a call's taps are few, its scratch loads and stores weigh:
         * ahead of GEMM on one image (2 threads, AMD Zen 4: ResNet-50's
         * res3a/res4a/res5a_branch2b 1.17 / 1.44 / 1.55 ms against 1.49 / 1.61 / 1.83),
         * behind it at minibatch 32 (46 / 47 / 53 ms against 45 / 46 / 44) */
        const double e = (seven ? 0.72 : 0.78) * (bwdd && s.nphase > 1 && s.n > 1 ? 0.8 : 1.0);
        compute = s.flops * s.valid / (peak * e * fill(kq, lanes)) + copy;
    } else if (direct && strcmp(im->name, "cpu:direct_bcast") == 0) {
        /* backward filter along 32 output channels a vector pair: dy transposed once
         * per tap chunk, the source rows copied with their padding (1 thread: LeNet's
         * conv1, MobileNet-v2's stem and VGG-16 conv1_1, 25-27 taps, faster than GEMM;
         * with more taps slower: LeNet's conv2 at minibatch 1, 800 taps, 0.21 against
         * 0.18 ms, ResNet-50's 7 x 7 stem, 147 taps, 2.0 against 1.7) */
        double taps = (double)s.cg;
        for (int i = 0; i < p->nsp; i++) taps *= (double)p->kern[i];
        compute = s.flops / (peak * (taps <= 32 ? 0.7 : 0.5) * fill(s.kg, 32));
    } else if (direct && s.one_by_one) { /* GEMM without im2col */
        /* backward filter: the operand with more channels gives the rows */
        const double rows = fwd ? s.kg : bwdd ? s.cg : (s.cg > s.kg ? s.cg : s.kg);
        compute = s.flops / (peak * 0.85 * fill(rows, 6) * rows / (rows + 8));
    } else if (direct && s.cg == 1 && s.kg <= 4) {
        /* depthwise (multiplier up to 4): bound by memory, ~25% of the FMA rate */
        compute = s.flops / (peak * 0.25);
        const double memory = s.bytes / 10.0e6; /* streamed at ~10 GB/s per thread */
        if (memory > compute) compute = memory;
    } else {
        compute = s.flops / (peak * gemm_eff(p, &s));
        /* the implicit forms gather their columns through tables or bounds checks */
        if (fwd && a == PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM) compute *= 1.3;
        if (fwd && a == PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM) compute *= 1.1;
        /* and each column panel of theirs (16 pixels at AVX2, 64 at AVX-512) reads
         * every row of the filter: one larger than half of a 1 MiB L2 streams from
         * memory once a panel, ~10 GB/s, one larger than the L2 at ~2.5 (its rows
         * pages apart; one thread, AVX2, minibatch 1: 512 -> 512 on 7 x 7, a 9 MiB
         * filter, 24-26 ms against GEMM's 3.8; 256 -> 256 on 14 x 14 10-14 ms against
         * 3.2; 128 -> 128 on 28 x 28 4.8-7.7 against 3.6) */
        if (fwd && (a == PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM ||
                    a == PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM)) {
            const double abytes = s.kg * s.cg * s.ks * (p->dtype == PDNN_DATA_DOUBLE ? 8 : 4);
            const double nr = pdnn_cpu_isa() >= PDNN_ISA_AVX512 ? 64 : 16;
            if (abytes > 524288.0)
                compute += s.g * s.n * cdiv(s.npix, nr) * abytes / (abytes > 1048576.0 ? 2.5e6 : 10.0e6);
        }
        /* backward data's forward form with few columns (at most 16 panels of 16 at
         * AVX2) reads the filter transposed in place, its rows across cache lines and
         * pages: ResNet-50's res5b_branch2b at minibatch 1, 14-15 ms against 6.5 for
         * cpu:direct_phase (1 thread) */
        if (bwdd && a == PDNN_CONVOLUTION_BWD_DATA_ALGO_1 && s.cg >= 4 &&
            pdnn_cpu_isa() == PDNN_ISA_AVX2 && s.n * s.nin / s.nphase <= 256)
            compute *= 2.0;
        /* a direct path outside its shapes (one input channel with many outputs per
         * group): vector loops without register blocking */
        if (direct && !s.one_by_one) compute *= 2.0;
    }
    const double memory = s.bytes / 30.0e6; /* reading and writing the tensors once */
    const double t = (compute + memory) / nt;
    return t + overhead;
}
