/* Backward filter by broadcast sums ("cpu:direct_bcast", PDNN_CONVOLUTION_BWD_FILTER_ALGO_0).
 *
 * The problems: FLOAT, AVX-512, one group, 1-d or 2-d, at most BCAST_T_MAX taps over
 * the input channels (C R S), x rows with a unit column stride, dy planes stored flat
 * (unit column stride, rows back to back), an item's copy of the source rows at most
 * 64 MiB. Any stride, dilation and padding. The first
 * layers of image networks (LeNet's 5 x 5 1 -> 32, MobileNet-v2's stride-2 3 -> 32 stem,
 * VGG-16's 3 -> 64) and small maps with a few hundred taps (LeNet's 5 x 5 32 -> 64 on
 * 14 x 14), where im2col + GEMM reduces over few pixels per image and packs much.
 *
 *   dw[k][c, r, s] = sum over images n and output pixels (oh, ow) of
 *                    dy[n][k][oh, ow] * x[n][c][oh sh + r dh - pt, ow sw + s dw - pl]
 *
 * summed along 32 output channels a pair of vectors: dy is transposed by pieces of at
 * most BCAST_COLS pixels (whole rows of one image, or a piece of one row) into rows of
 * 32 channels, and every tap's source value is broadcast from a band of zero-padded
 * copies of the piece's source rows (cpu/ukernels/bwdf: per pixel two dy vectors, up to
 * 14 taps, 28 fused multiply-adds; no masks, no lane sums). Padding enters as x = 0 (as
 * im2col's zeros).
 *
 * Items: (slot, 32-channel block, tap chunk). The (image, output row) sequence is cut
 * into `slots` fixed parts (more where there are few blocks and taps), summed apart and
 * added in order at the end; the taps into groups of at most 14 and those into two
 * chunks where there are 8 groups or more (each item transposes its own dy pieces).
 * Every sum runs in one fixed order whatever the thread count, so results do not depend
 * on it. The threads split the items.
 *
 * Workspace: the items' sums (slots x ceil(K / 32) x tap groups x 14 x 32 floats),
 * their bands (C x ((rows a piece - 1) sh + (R - 1) dh + 1) rows of (Q - 1) sw +
 * (S - 1) dw + 1 floats each) and the taps' 32-channel totals (C R S x 32 floats);
 * 40 KiB of each thread's stack. */
#include <stdint.h>
#include <string.h>

#include "core/par.h"
#include "core/registry.h"
#include "cpu/ukernels/bwdf/bwdf_ukernels.h"
#include "cpu/ukernels/transpose/transpose.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_path.h"
#include "ops/conv/cpu/conv_cpu_gemm.h"

#define BCAST_T_MAX 1024 /* taps over the input channels at most */
#define LANES PDNN_BWDF_BCAST_LANES
#define TG PDNN_BWDF_BCAST_TAPS /* taps of a group at most */
#define BCAST_COLS 256          /* output pixels of a transposed dy piece at most */
#define BCAST_ITEMS 8           /* items wanted (slots are added up to 4 to get them) */
#define BCAST_CHUNK_GROUPS 4    /* tap groups of a chunk at least, for two chunks */
#define BCAST_BAND_MAX ((double)(64 << 20)) /* bytes of an item's source rows at most */
/* Source row floats from which the band copies them by memcpy (shorter: a plain loop). */
#define BCAST_MEMCPY_MIN 64
/* Multiply-adds below which one thread runs the call (a team costs a few us). */
#define BCAST_MIN_WORK_PER_THREAD (1 << 17)

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

typedef struct {
    pdnn_conv_geom3 G;
    int64_t c, k, r, s, t;     /* input and output channels, filter rows and columns, taps */
    int64_t wp;                /* padded source row: (Q - 1) sw + (S - 1) dw + 1 floats */
    int64_t rpp, hb;           /* output rows a piece at most; band rows */
    int64_t nkb, ntg, ntc;     /* 32-channel blocks, tap groups, tap chunks */
    int64_t gpc;               /* tap groups a chunk at most */
    int64_t slots, items;
    int64_t sums, band;        /* floats of an item's sums and band */
} bcast_geom;

static void geom_of(const pdnn_conv_problem *p, bcast_geom *b)
{
    pdnn_conv_widen(p, &b->G);
    const pdnn_conv_geom3 *G = &b->G;
    b->c = G->cg;
    b->k = G->kg;
    b->r = G->kern[1];
    b->s = G->kern[2];
    b->t = b->c * b->r * b->s;
    const int64_t Q = G->out[2];
    b->wp = Q > 0 ? (Q - 1) * G->str[2] + (b->s - 1) * G->dil[2] + 1 : 1;
    b->rpp = Q > 0 && Q < BCAST_COLS ? BCAST_COLS / Q : 1;
    if (b->rpp > G->out[1] && G->out[1] > 0) b->rpp = G->out[1];
    b->hb = (b->rpp - 1) * G->str[1] + (b->r - 1) * G->dil[1] + 1;
    b->nkb = cdiv(b->k, LANES);
    b->ntg = cdiv(b->t, TG);
    /* two tap chunks only where each has many groups to share its dy transposes */
    b->ntc = b->ntg >= 2 * BCAST_CHUNK_GROUPS ? 2 : b->ntg < 1 ? 0 : 1;
    b->gpc = b->ntc > 0 ? cdiv(b->ntg, b->ntc) : 0;
    const int64_t base = b->nkb * b->ntc;
    b->slots = base > 0 ? cdiv(BCAST_ITEMS, base) : 1;
    if (b->slots > 4) b->slots = 4;
    if (b->slots < 1) b->slots = 1;
    b->items = b->slots * base;
    b->sums = b->gpc * TG * LANES;
    b->band = cdiv(b->c * b->hb * b->wp, 16) * 16;
}

static bool bcast_supports(const void *prob, const char **why)
{
    const pdnn_conv_problem *p = prob;
    if (!pdnn_conv_gemm_supports(p, PDNN_CONV_BWD_FILTER, why)) return false;
    bcast_geom b;
    geom_of(p, &b);
    const pdnn_conv_geom3 *G = &b.G;
    if (p->dtype != PDNN_DATA_FLOAT) {
        *why = "data type other than FLOAT";
        return false;
    }
    if (p->nsp > 2 || G->out[0] != 1 || G->kern[0] != 1) {
        *why = "more than 2 spatial dims";
        return false;
    }
    if (p->g != 1) {
        *why = "more than one group";
        return false;
    }
    if (b.t > BCAST_T_MAX) {
        *why = "more than 1024 filter taps over the input channels";
        return false;
    }
    if (G->xs[4] != 1 || G->ys[4] != 1 || (G->out[1] > 1 && G->ys[3] != G->out[2])) {
        *why = "x rows or dy planes not stored flat (unit column stride, dy rows back to back)";
        return false;
    }
    if ((double)b.band * sizeof(float) > BCAST_BAND_MAX) {
        *why = "source rows too long: an item's copy of them would pass 64 MiB";
        return false;
    }
    return true;
}

static size_t bcast_workspace(const void *prob)
{
    bcast_geom b;
    geom_of(prob, &b);
    return (size_t)(b.items * (b.sums + b.band) + b.t * LANES) * sizeof(float);
}

/* Source row ih of channel c of image xn, zero-padded: column j of d holds x's column
 * j - pad_left (0 outside x or for a row outside it). Plain loops for short rows (tens
 * of floats, many: a library call costs more than the copy), memcpy from
 * BCAST_MEMCPY_MIN floats (MobileNet-v2's stem, 224 columns, 2 threads, minibatch 1:
 * 0.112 -> 0.103 ms; VGG-16's conv1_1 0.91 -> 0.87 ms; Intel Xeon 6/207). */
static void padded_row(const bcast_geom *b, const float *xn, int64_t c, int64_t ih, float *d)
{
    const pdnn_conv_geom3 *G = &b->G;
    const int64_t W = G->in[2], pl = G->pad[2], wp = b->wp;
    if (ih < 0 || ih >= G->in[1]) {
        for (int64_t j = 0; j < wp; j++) d[j] = 0.0f;
        return;
    }
    const float *src = xn + c * G->xs[1] + ih * G->xs[3] - pl;
    const int64_t ja = pl < wp ? pl : wp, jx = W + pl < wp ? W + pl : wp;
    const int64_t jb = jx > ja ? jx : ja;
    for (int64_t j = 0; j < ja; j++) d[j] = 0.0f;
    if (jb - ja >= BCAST_MEMCPY_MIN)
        memcpy(d + ja, src + ja, (size_t)(jb - ja) * sizeof(float));
    else
        for (int64_t j = ja; j < jb; j++) d[j] = src[j];
    for (int64_t j = jb; j < wp; j++) d[j] = 0.0f;
}

/* One item: the output rows [s0, s1) of the (image, row) sequence, output channels k0 ..
 * k0 + kk - 1, tap groups [j0, j1). Per piece: dy transposed into dyt, the band of its
 * source rows (channel c's row i at band + (c hb + i) wp), then the kernel for each
 * tap group, all rows of the piece in one call. */
static void bcast_item(const bcast_geom *b, const float *x, const float *dy, int64_t s0,
                       int64_t s1, int64_t k0, int64_t kk, int64_t j0, int64_t j1, float *band,
                       float *sums, pdnn_f32_transpose_fn tr)
{
    const pdnn_conv_geom3 *G = &b->G;
    const int64_t P = G->out[1], Q = G->out[2], sr = G->str[1], sc = G->str[2];
    _Alignas(64) float dyt[BCAST_COLS * LANES];
    if (kk < LANES) memset(dyt, 0, sizeof dyt); /* lanes past K stay 0 */
    /* tap t = (c, r, s) in the filter's order: band row c hb + r dh, column s dw */
    const float *tp[BCAST_T_MAX];
    for (int64_t c = 0, t = 0; c < b->c; c++)
        for (int64_t r = 0; r < b->r; r++)
            for (int64_t s = 0; s < b->s; s++, t++)
                tp[t] = band + (c * b->hb + r * G->dil[1]) * b->wp + s * G->dil[2];
    memset(sums, 0, (size_t)b->sums * sizeof(float));
    for (int64_t u = s0; u < s1;) {
        const int64_t n = u / P, oh = u % P;
        int64_t nr = b->rpp; /* rows of the piece: within the image and the item */
        if (nr > P - oh) nr = P - oh;
        if (nr > s1 - u) nr = s1 - u;
        const float *xn = x + n * G->xs[0];
        const int64_t ih0 = oh * sr - G->pad[1], rows = (nr - 1) * sr + (b->r - 1) * G->dil[1] + 1;
        for (int64_t c = 0; c < b->c; c++)
            for (int64_t i = 0; i < rows; i++)
                padded_row(b, xn, c, ih0 + i, band + (c * b->hb + i) * b->wp);
        /* pieces: nr whole rows, or columns [q0, q0 + qc) of one row */
        for (int64_t q0 = 0; q0 < Q; q0 += BCAST_COLS) {
            const int64_t qc = Q - q0 < BCAST_COLS ? Q - q0 : BCAST_COLS;
            const float *d = dy + n * G->ys[0] + k0 * G->ys[1] + oh * G->ys[3] + q0;
            tr((size_t)kk, (size_t)(nr * qc), d, (ptrdiff_t)G->ys[1], dyt, LANES);
            for (int64_t j = j0; j < j1; j++) {
                const int64_t t0 = j * b->t / b->ntg, t1 = (j + 1) * b->t / b->ntg;
                pdnn_f32_bwdf_bcast__avx512((size_t)(t1 - t0), (size_t)nr, (size_t)qc,
                                            (ptrdiff_t)sc, (ptrdiff_t)(sr * b->wp), tp + t0,
                                            (ptrdiff_t)(q0 * sc), dyt,
                                            sums + (j - j0) * TG * LANES);
            }
        }
        u += nr;
    }
}

static pdnnStatus_t bcast_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *arg = args;
    bcast_geom b;
    geom_of(p, &b);
    const pdnn_conv_geom3 *G = &b.G;
    if (b.k == 0 || b.t == 0) return PDNN_STATUS_SUCCESS; /* dw has no elements */
    const int64_t rows = p->n * G->out[1], per = b.nkb * b.ntc;
    const double work = (double)p->n * (double)b.k * (double)b.t * (double)G->out[1] *
                        (double)G->out[2];
    const int nt = pdnn_par_threads(ctx->nthreads, b.items, work, BCAST_MIN_WORK_PER_THREAD);
    const float *x = arg->src, *dy = arg->wei;
    float *dw = arg->dst, *sums = ctx->ws, *bands = sums + b.items * b.sums;
    const float alpha = (float)arg->alpha, beta = (float)arg->beta;
    const pdnn_f32_transpose_fn tr = pdnn_f32_transpose_select();
    if (rows == 0 || G->out[2] == 0) /* an empty sum */
        memset(sums, 0, (size_t)(b.items * b.sums) * sizeof(float));
    else {
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
        for (int64_t it = 0; it < b.items; it++) {
            const int64_t v = it / per, kb = it % per / b.ntc, tc = it % b.ntc;
            const int64_t k0 = kb * LANES, kk = b.k - k0 < LANES ? b.k - k0 : LANES;
            bcast_item(&b, x, dy, v * rows / b.slots, (v + 1) * rows / b.slots, k0, kk,
                       tc * b.ntg / b.ntc, (tc + 1) * b.ntg / b.ntc, bands + it * b.band,
                       sums + it * b.sums, tr);
        }
    }
    /* acc[t][32] = alpha (the slots' sums in order), then dw = acc^T + beta dw: one
     * transpose where dw's taps lie in the sums' order (KCRS, cross-correlation) */
    int64_t off[BCAST_T_MAX]; /* dw offset of tap t from its output channel's */
    bool seq = true;
    for (int64_t c = 0, t = 0; c < b.c; c++)
        for (int64_t r = 0; r < b.r; r++)
            for (int64_t s = 0; s < b.s; s++, t++) {
                off[t] = c * G->ws[1] + pdnn_dw_tap_off(p, G, r, s);
                seq = seq && off[t] == t;
            }
    float *acc = bands + b.items * b.band;
    for (int64_t kb = 0; kb < b.nkb; kb++) {
        const int64_t k0 = kb * LANES, kk = b.k - k0 < LANES ? b.k - k0 : LANES;
        for (int64_t tc = 0; tc < b.ntc; tc++) {
            const int64_t j0 = tc * b.ntg / b.ntc, j1 = (tc + 1) * b.ntg / b.ntc;
            for (int64_t j = j0; j < j1; j++)
                for (int64_t t = j * b.t / b.ntg; t < (j + 1) * b.t / b.ntg; t++) {
                    const int64_t at = ((j - j0) * TG + t - j * b.t / b.ntg) * LANES;
                    float *a = acc + t * LANES;
                    for (int64_t v = 0; v < b.slots; v++) {
                        const float *sv = sums + ((v * b.nkb + kb) * b.ntc + tc) * b.sums + at;
                        for (int64_t i = 0; i < LANES; i++) a[i] = v ? a[i] + sv[i] : sv[i];
                    }
                    for (int64_t i = 0; i < LANES; i++) a[i] *= alpha;
                }
        }
        float *d = dw + k0 * G->ws[0];
        if (seq && beta == 0.0f) {
            tr((size_t)b.t, (size_t)kk, acc, LANES, d, (ptrdiff_t)G->ws[0]);
            continue;
        }
        for (int64_t i = 0; i < kk; i++, d += G->ws[0])
            for (int64_t t = 0; t < b.t; t++)
                d[off[t]] = beta == 0.0f ? acc[t * LANES + i] : acc[t * LANES + i] + beta * d[off[t]];
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_bwd_filter_cpu_direct_bcast = {
    "cpu:direct_bcast", PDNN_CONVOLUTION_BWD_FILTER_ALGO_0, PDNN_ISA_AVX512,
    PDNN_IMPL_DETERMINISTIC, bcast_supports, bcast_workspace, bcast_exec,
};
