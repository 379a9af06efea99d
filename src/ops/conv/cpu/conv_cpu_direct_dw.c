/* Depthwise convolutions ("cpu:direct_dw"): forward PDNN_CONVOLUTION_FWD_ALGO_DIRECT,
 * backward data PDNN_CONVOLUTION_BWD_DATA_ALGO_0, backward filter
 * PDNN_CONVOLUTION_BWD_FILTER_ALGO_0.
 *
 * The family: one input channel per group (C == groups), any multiplier K / C, 1-3
 * spatial dims (at most DW_TAPS_MAX filter taps), any stride, dilation and (asymmetric)
 * padding, convolution or cross-correlation, FLOAT or DOUBLE accumulated in the data
 * type, packed KCRS or KRSC filter (the same memory for one channel), any tensor
 * strides. Two loop orders, by layout:
 *  - channels-last (x and y with unit channel stride): one output (input, for backward
 *    data) pixel at a time, vectors over the channels; the filter is transposed once
 *    into the workspace (taps x K) so its rows run along the channels too;
 *  - otherwise, backward filter, FLOAT at AVX2 (not AVX-512), multiplier 1, 2-d, 3 x 3
 *    filters at unit dilation, stride 1 x 1 or 2 x 2, output rows of at most 512
 *    columns: nine tap accumulators in registers over the planes read in place, planes
 *    of up to 16 x 16 outputs in channel blocks of 8 (conv_cpu_direct_dw_bw2.c);
 *  - otherwise, forward and backward filter, FLOAT at AVX-512, multiplier 1, 2-d, stride
 *    2 x 2, unit dilation, 3 x 3 filters, output rows of at most 15 columns (16 to 32 up
 *    to 3136 output pixels a channel; at most 64 rows): each x row (of two planes at up to 7 columns) loaded once and split by three
 *    permutes into its column phases, kept in registers for the output rows that read
 *    it; every tap of 16 outputs (of their dy, backward filter) then one multiply-add
 *    (conv_cpu_direct_dw_s2f.c);
 *  - otherwise, FLOAT at AVX-512, multiplier 1, 2-d, stride 2 x 2, unit dilation, filters
 *    up to 7 x 7, output rows of at most 8 columns (2 (OW - 1) + kw <= 16, x rows of at
 *    most 16; backward filter from 392 output pixels a channel): two output rows a
 *    vector, planes read in place, column taps by two-source permutes of the two x rows
 *    a tap row reads (conv_cpu_direct_dw_s2p.c);
 *  - otherwise, FLOAT at AVX-512, multiplier 1, 2-d, stride 2 x 2, unit dilation, filters
 *    up to 7 x 7, output rows wider than half a vector: planes read in place, x rows
 *    split into their column taps by permutes in registers, backward data by even and
 *    odd dx columns from shifted dy loads (conv_cpu_direct_dw_s2.c);
 *  - otherwise, FLOAT at AVX-512, multiplier 1, stride 1 with the output width equal to
 *    the input width, flat planes of at most 4096 outputs (16384 for 3 x 3 filters at
 *    unit dilation, padding 1; 1-d and 2-d): masked flat
 *    planes, every tap one masked load of the plane in place and one multiply-add per 16
 *    outputs, no copies (conv_cpu_direct_dw_flat.c; except where the next path measures
 *    faster, there listed);
 *  - otherwise, forward (stride 1 or 2) and backward data (stride 1), FLOAT at AVX2 (not
 *    AVX-512), multiplier 1, 2-d, 3 x 3 filters at unit dilation, padding 1, rows of at
 *    most 16 columns: blocks of 8 channels transposed channels-minor into a zero-padded
 *    buffer, one broadcast-free multiply-add per tap and 8 channels of a pixel, row pieces
 *    transposed back (conv_cpu_direct_dw_t8.c);
 *  - otherwise, forward and backward data, FLOAT at AVX2 (not AVX-512), multiplier 1, 2-d,
 *    3 x 3 filters at unit dilation, padding 1, stride 1 ("same" size) or 2: every plane
 *    read and written in place by 8-lane row kernels, each x row vector loaded once for
 *    the output rows that read it, stride 2 by even / odd column shuffles, backward data
 *    at stride 2 by dx row and column parity (conv_cpu_direct_dw_a2.c);
 *  - otherwise, FLOAT at multiplier 1 with planes of at most 32 x 32 outputs (1-d and 2-d,
 *    unit strides along the rows, the block's buffers within 128 KiB): blocks of 16
 *    channels packed channels-minor, one 16-lane multiply-add per tap and pixel
 *    (conv_cpu_direct_dw_cb.c; small planes cost too much one at a time);
 *  - otherwise, for 1-d and 2-d problems with unit strides along the rows (forward, backward
 *    filter, and backward data at multiplier 1), "phase planes": each source plane copied
 *    zero-padded and split by stride phase into a per-thread stack buffer, so that every
 *    tap of every output reads consecutive elements; bands of output rows then run as one
 *    flat micro-kernel call (junk columns never stored), rows copied just before the band
 *    that needs them and the band stored just after; backward data at stride 1 is the
 *    correlation of dy with the rotated filter, at stride > 1 one flat run per phase of
 *    dx interleaved into its rows; backward filter dots every tap against dy copied flat;
 *  - otherwise (multipliers > 1 in backward data, planes too large for the buffer), for
 *    1-d and 2-d problems with unit strides along the rows (forward; and
 *    backward data at stride 1, as the correlation of dy with the rotated filter):
 *    zero-padded plane strips on the stack, whole vectors over every output row
 *    (stride phases stored apart), the padding taps adding w * 0 as im2col's zeros do
 *    in the GEMM algorithms (an Inf or NaN weight then also reaches border outputs);
 *  - otherwise rows: vectors along the last spatial dim where its strides are 1, an
 *    interior range without bounds checks and border elements with them.
 * Backward filter reduces over the batch and the pixels of one channel in a fixed order
 * (rows: DW_V lanes per tap summed at the end); threads split the channels only.
 * Every output is one sum in the data type in an order fixed by the problem, so results
 * do not depend on the thread count; exact on small integers.
 *
 * Workspace: channels-last forward and backward data: the transposed filter (K * taps
 * elements); otherwise none. */
#include "core/par.h"
#include "core/registry.h"
#include "cpu/ukernels/dwconv/dwconv_ukernels.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_a2.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_bw2.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_cb.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_flat.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_row.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_s2.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_s2f.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_s2p.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_t8.h"
#include "ops/conv/cpu/conv_cpu_gemm.h"

#define DW_TAPS_MAX 256 /* filter taps (prod of the filter dims) at most */
#define DW_LANES PDNN_DWCONV_LANES /* backward filter: partial sums per tap */
#define DW_CHUNK 1024   /* backward data: dx elements per row chunk */
#define DW_ACC 4096     /* backward filter, channels-last: accumulator elements */

typedef struct {
    pdnn_conv_geom3 G;
    int64_t n, g, m, k; /* batch, groups (= C), multiplier (K / C), K */
    int64_t taps;
    bool flip;
} dw_geom;

static void dw_init(const pdnn_conv_problem *p, dw_geom *d)
{
    pdnn_conv_widen(p, &d->G);
    d->n = p->n;
    d->g = p->g;
    d->k = p->k;
    d->m = p->g ? p->k / p->g : 0;
    d->taps = d->G.kern[0] * d->G.kern[1] * d->G.kern[2];
    d->flip = p->flip;
}

/* Filter offset of channel k at spatial tap (r0, r1, r2) (flipped for convolution). */
static inline int64_t dw_woff(const dw_geom *d, int64_t k, int64_t r0, int64_t r1, int64_t r2)
{
    const pdnn_conv_geom3 *G = &d->G;
    if (d->flip) {
        r0 = G->kern[0] - 1 - r0;
        r1 = G->kern[1] - 1 - r1;
        r2 = G->kern[2] - 1 - r2;
    }
    return k * G->ws[0] + r0 * G->ws[2] + r1 * G->ws[3] + r2 * G->ws[4];
}

/* Threads for `units` independent outputs and about `work` multiply-adds. */
static int dw_threads(int nthreads, int64_t units, double work)
{
    if (units < 2 || work < 32768.0) return 1;
    return (int64_t)nthreads > units ? (int)units : nthreads;
}

/* Channels of a channels-last backward-filter block at most: taps x block accumulators. */
static int64_t dw_chan_block(int64_t taps)
{
    int64_t cb = DW_ACC / (taps > 0 ? taps : 1);
    return cb < 1 ? 1 : cb;
}

static bool dw_chan_last(const dw_geom *d)
{
    return d->G.xs[1] == 1 && d->G.ys[1] == 1;
}


/* Software prefetch of the row `ahead` elements past p (bytes of it), for reading or
 * (w) writing: a plane's rows are short streams the hardware prefetcher starts late on.
 * Computed as an integer (the address may lie past the tensor; a prefetch never
 * faults). */
#define DW_PF_ROWS 16
static inline void dw_prefetch_row_(const void *p, int64_t ahead_bytes, int64_t bytes, int w)
{
    const uintptr_t a = (uintptr_t)p + (uintptr_t)ahead_bytes;
    for (int64_t o = 0; o < bytes; o += 64) {
        if (w)
            __builtin_prefetch((const void *)(a + (uintptr_t)o), 1, 3);
        else
            __builtin_prefetch((const void *)(a + (uintptr_t)o), 0, 3);
    }
}
#define dw_prefetch_row(p, ahead, bytes, w) \
    dw_prefetch_row_((p), (ahead) * (int64_t)sizeof(*(p)), (bytes), (w))

/* ceil(a / b) for any sign of a, b > 0. */
static inline int64_t dw_cdiv(int64_t a, int64_t b)
{
    return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

#define DT float
#define DS f32
#define DUK pdnn_f32_dwconv_ukernels
#define DSEL pdnn_f32_dwconv_select
#include "ops/conv/cpu/conv_cpu_direct_dw_tmpl.h"
#undef DT
#undef DS
#undef DUK
#undef DSEL

#define DT double
#define DS f64
#define DUK pdnn_f64_dwconv_ukernels
#define DSEL pdnn_f64_dwconv_select
#include "ops/conv/cpu/conv_cpu_direct_dw_tmpl.h"
#undef DT
#undef DS
#undef DUK
#undef DSEL

static bool dw_family(const pdnn_conv_problem *p, pdnn_conv_dir dir, const char **why)
{
    if (!pdnn_conv_gemm_supports(p, dir, why)) return false;
    if (p->c != p->g) {
        *why = "not depthwise: more than one input channel per group";
        return false;
    }
    int64_t taps = 1;
    for (int d = 0; d < p->nsp; d++) {
        taps *= p->kern[d];
        if (taps > DW_TAPS_MAX) {
            *why = "filter has more than 256 taps";
            return false;
        }
    }
    return true;
}

static size_t dw_workspace(const void *prob)
{
    const pdnn_conv_problem *p = prob;
    if (p->dir == PDNN_CONV_BWD_FILTER) return 0;
    dw_geom d;
    dw_init(p, &d);
    if (!dw_chan_last(&d) || d.k == 0) return 0;
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    pdnn_conv_gemm_take(&a, pdnn_conv_gemm_mul3(d.taps, d.k, 1),
                        p->dtype == PDNN_DATA_DOUBLE ? sizeof(double) : sizeof(float));
    return pdnn_conv_gemm_arena_bytes(&a);
}

static bool dw_supports(const void *prob, pdnn_conv_dir dir, const char **why)
{
    if (!dw_family(prob, dir, why)) return false;
    if (dw_workspace(prob) == SIZE_MAX) {
        *why = "workspace size overflows";
        return false;
    }
    return true;
}

static bool fwd_supports(const void *prob, const char **why)
{
    return dw_supports(prob, PDNN_CONV_FWD, why);
}

static bool bwdd_supports(const void *prob, const char **why)
{
    return dw_supports(prob, PDNN_CONV_BWD_DATA, why);
}

static bool bwdf_supports(const void *prob, const char **why)
{
    return dw_supports(prob, PDNN_CONV_BWD_FILTER, why);
}

/* wT[t * K + k] = w at channel k, spatial tap t. */
static void dw_transpose(const dw_geom *d, const void *w, void *wT, size_t es)
{
    const pdnn_conv_geom3 *G = &d->G;
    for (int64_t k = 0; k < d->k; k++)
        for (int64_t r0 = 0; r0 < G->kern[0]; r0++)
            for (int64_t r1 = 0; r1 < G->kern[1]; r1++)
                for (int64_t r2 = 0; r2 < G->kern[2]; r2++) {
                    const int64_t t = (r0 * G->kern[1] + r1) * G->kern[2] + r2;
                    const int64_t src = dw_woff(d, k, r0, r1, r2);
                    if (es == sizeof(float))
                        ((float *)wT)[t * d->k + k] = ((const float *)w)[src];
                    else
                        ((double *)wT)[t * d->k + k] = ((const double *)w)[src];
                }
}

/* The f32 NCHW fast paths, tried in this order (each refuses what it does not serve;
 * dwbw2: the backward filter at AVX2 only, dwt8 (small planes) and dwa2: forward and
 * backward data at AVX2 only, so AVX-512 keeps the order of the others). */
static const pdnn_dw_path *const fast_paths[] = {&pdnn_dwbw2_path, &pdnn_dws2f_path,
                                                 &pdnn_dws2p_path, &pdnn_dws2_path,
                                                 &pdnn_dwrow_path, &pdnn_dwmf_path,
                                                 &pdnn_dwt8_path,  &pdnn_dwa2_path,
                                                 &pdnn_dwcb_path};

/* Whether one of them ran p->dir. */
static bool fast_path(const pdnn_conv_problem *p, const pdnn_conv_args *a, int nt)
{
    for (size_t i = 0; i < sizeof fast_paths / sizeof fast_paths[0]; i++)
        if (pdnn_dw_path_run(fast_paths[i], p, a, nt)) return true;
    return false;
}

static pdnnStatus_t dw_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *a = args;
    dw_geom d;
    dw_init(p, &d);
    const pdnn_conv_geom3 *G = &d.G;
    const int64_t nout = G->out[0] * G->out[1] * G->out[2], nin = G->in[0] * G->in[1] * G->in[2];
    const bool f32 = p->dtype == PDNN_DATA_FLOAT;
    const size_t es = f32 ? sizeof(float) : sizeof(double);
    const int nt = ctx->nthreads;
    switch (p->dir) {
    case PDNN_CONV_FWD:
        if (d.k == 0 || nout == 0) return PDNN_STATUS_SUCCESS;
        if (dw_chan_last(&d)) {
            void *wT = pdnn_conv_gemm_arena_on(ctx->ws).base;
            dw_transpose(&d, a->wei, wT, es);
            if (f32)
                fwd_nhwc_f32(&d, a->src, wT, a->dst, (float)a->alpha, (float)a->beta, nt);
            else
                fwd_nhwc_f64(&d, a->src, wT, a->dst, a->alpha, a->beta, nt);
        } else if (f32) {
            if (!fast_path(p, a, nt))
                fwd_rows_f32(&d, a->src, a->wei, a->dst, (float)a->alpha, (float)a->beta, nt);
        } else {
            fwd_rows_f64(&d, a->src, a->wei, a->dst, a->alpha, a->beta, nt);
        }
        break;
    case PDNN_CONV_BWD_DATA:
        if (d.g == 0 || nin == 0) return PDNN_STATUS_SUCCESS;
        if (dw_chan_last(&d)) {
            void *wT = pdnn_conv_gemm_arena_on(ctx->ws).base;
            if (d.k) dw_transpose(&d, a->wei, wT, es);
            if (f32)
                bwdd_nhwc_f32(&d, a->src, wT, a->dst, (float)a->alpha, (float)a->beta, nt);
            else
                bwdd_nhwc_f64(&d, a->src, wT, a->dst, a->alpha, a->beta, nt);
        } else if (f32) {
            if (!fast_path(p, a, nt))
                bwdd_rows_f32(&d, a->src, a->wei, a->dst, (float)a->alpha, (float)a->beta, nt);
        } else {
            bwdd_rows_f64(&d, a->src, a->wei, a->dst, a->alpha, a->beta, nt);
        }
        break;
    case PDNN_CONV_BWD_FILTER:
        if (d.k == 0 || d.taps == 0) return PDNN_STATUS_SUCCESS;
        if (dw_chan_last(&d)) {
            if (f32)
                bwdf_nhwc_f32(&d, a->src, a->wei, a->dst, (float)a->alpha, (float)a->beta, nt);
            else
                bwdf_nhwc_f64(&d, a->src, a->wei, a->dst, a->alpha, a->beta, nt);
        } else if (f32) {
            if (!fast_path(p, a, nt))
                bwdf_rows_f32(&d, a->src, a->wei, a->dst, (float)a->alpha, (float)a->beta, nt);
        } else {
            bwdf_rows_f64(&d, a->src, a->wei, a->dst, a->alpha, a->beta, nt);
        }
        break;
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_fwd_cpu_direct_dw = {
    "cpu:direct_dw", PDNN_CONVOLUTION_FWD_ALGO_DIRECT, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, fwd_supports, dw_workspace, dw_exec,
};

const pdnn_impl pdnn_conv_bwd_data_cpu_direct_dw = {
    "cpu:direct_dw", PDNN_CONVOLUTION_BWD_DATA_ALGO_0, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, bwdd_supports, dw_workspace, dw_exec,
};

const pdnn_impl pdnn_conv_bwd_filter_cpu_direct_dw = {
    "cpu:direct_dw", PDNN_CONVOLUTION_BWD_FILTER_ALGO_0, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, bwdf_supports, dw_workspace, dw_exec,
};
