/* Backward filter of 1x1 convolutions as a plain GEMM, no im2col ("cpu:direct_1x1",
 * PDNN_CONVOLUTION_BWD_FILTER_ALGO_0). The family is that of conv_cpu_direct_1x1.c.
 *
 * Per group, with columns (n, p) over the batch and the output pixels:
 *   dW[Kg x Cg] = alpha * sum_cols dY[Kg x cols] X^T[cols x Cg] + beta * dW
 * The operand with more channels is the GEMM's A (rows: its channels), the other its B
 * (columns: its channels); the sum over the columns runs in K blocks of at most
 * pdnn_conv_pe_kc() columns, in increasing column order, and each block's products
 * accumulate into a dW-sized buffer (one rounding per block, as in the GEMM) that is
 * finally blended into dw. Two schedules, chosen by layout:
 *  - A's pixels evenly spaced and close within an image (NCHW-like): K blocks cut at
 *    image boundaries, A read in place; each task (rows x column panels of the buffer,
 *    at most half of L2) gathers its B slices (KC pixels x NR channels) into a stack
 *    buffer. Short images (their pixels not a multiple of KC, fewer than 4 KC; batch
 *    2+) get K blocks at fixed places across them instead, A's columns read through
 *    their offsets (the micro-kernels' _ak entry), so every block but the last is full;
 *  - otherwise (channels-last): K blocks cut at fixed places over the flattened
 *    columns; for each block every thread packs a share of A's MR-row panels and B's
 *    NR-column panels into the workspace, then the threads split the buffer's tiles.
 * With A = dy and dW's channels contiguous the blocks accumulate straight into dw (the
 * first blends with beta, later ones add), without the buffer; the in-place schedule
 * builds B slices with the transpose kernels where B's pixels are contiguous (in runs
 * of 16 or more, one an image).
 * FLOAT fast paths come first: evenly spaced channels-last columns (fully connected
 * layers, NHWC) by the ldb kernel (conv_cpu_direct_1x1_ldb.c), and NCHW images of 512+
 * pixels with a small filter by dot products along the pixels
 * (conv_cpu_direct_1x1_dot.c); on AVX2 (not AVX-512) NCHW-like images of one group by
 * the GEMM with the pixels as the sum of conv_cpu_direct_1x1_bwdf_a2.c.
 * In place over several images and for dW under 1 MiB, the K blocks split into two parts
 * (BWDF_PARTS), each summed into its own dW-sized block, added in part order at the end.
 * Threads split the parts and the buffer's tiles, and each block is summed the same way
 * whoever computes it, so results do not depend on the thread count. Exact on small
 * integers.
 *
 * Workspace: the accumulation buffer (K * C/groups elements, dW's size) when A = x; the
 * second part's block (dW's size, under 1 MiB) in place over several images; channels-last
 * also one K block of packed A and B ((K + C) / groups * 256 elements per group); the dot
 * path none where dy and x fit in half of L2, else its lane sums (64 bytes per filter
 * element); the ldb path none. */
#include "core/registry.h"
#include "cpu/cache.h"
#include "cpu/ukernels/transpose/transpose.h"
#include "ops/conv/cpu/conv_cpu_direct_1x1.h"
#include "ops/conv/cpu/conv_cpu_panel.h"

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Rows of a task block at most (A rows kept in L2 across the B slices of a K block). */
#define BWDF_ROWS_MAX 512

typedef struct {
    const pdnn_conv_gemm_geom *g;
    const char *a, *b;   /* A and B sources (x or dy) */
    bool a_is_x;
    int64_t ma, nb;      /* channels of A and B per group */
    int64_t a_cs, b_cs;  /* their channel strides */
    bool inplace;        /* A read in place, K blocks within images */
    bool cross;          /* in place, but K blocks at fixed places across images (short
                          * images), A's columns through their offsets */
    int64_t astep;       /* A's pixel step within an image (inplace) */
    int64_t kcmax;
    char *buf;           /* ma x nb per group, row-major (not direct) */
    bool direct;         /* A = dy, dW's channels contiguous: the sums go to dw itself */
    char *cdst;          /* where the tiles go: dw (direct) or buf */
    int64_t c_gs, c_rs;  /* its group and row strides (elements) */
    double alpha, beta0; /* the tiles' alpha, and beta of the first K block */
    char *ap, *bp;       /* packed K block (not inplace): per group */
    int64_t apg, bpg;    /* their group strides (elements) */
    int64_t mbr, mb, cbp, cb, ntasks;
    int64_t parts;       /* in place: the K blocks' parts (BWDF_PARTS or 1), each
                          * summed into its own dW-sized block; ntasks tasks a part */
    char *pbuf;          /* the sums of parts 1 .. parts - 1: ma x nb per group each */
} bwdf_plan;

/* Parts the K blocks of an in-place schedule over several images split into: part p
 * (blocks [p nblk / P, (p + 1) nblk / P)) is summed on its own into a dW-sized block,
 * and the blocks are added in part order at the end. Fixed, not the thread count: each
 * part's sums, and so the result, are the same whoever computes them. With two threads
 * each takes a part: every dW tile's B slices (x's channels, transposed) are built once
 * a part instead of once a task, and every thread reads its own half of the operands
 * (minibatch 32, two threads, best of 6 runs: ResNet-50 res2a_branch2c 16.8 -> 13.2 ms,
 * res3a_branch1 36.8 -> 29.6, MobileNet-v2 b12_project 3.43 -> 2.53; one thread the same
 * or faster). At most as many parts as K blocks (none empty). Only for dW under
 * BWDF_PARTS_MAX_BYTES (a fixed bound, not the cache size: the bits never depend on the
 * machine): the second block's writes and the final pass cost more than they save on
 * large filters over few columns (res5b_branch2a, 2048 -> 512 on 7 x 7, 4 MiB: 11.5 ->
 * 12.7 ms; res5a_branch1 8 MiB 26.8 -> 27.8; the 1 MiB ones even). */
#define BWDF_PARTS 2
#define BWDF_PARTS_MAX_BYTES ((int64_t)1 << 20)

/* Share of an m x n product's MR x NR tiles that holds real elements. */
static double tile_fill(const pdnn_gemm_ukernel *uk, int64_t m, int64_t n)
{
    return (double)m / (double)(cdiv(m, uk->mr) * uk->mr) * (double)n / (double)(cdiv(n, uk->nr) * uk->nr);
}

/* The 12 x 32 kernel (AVX-512 FLOAT) where its tiles of dW (A = dy) are fuller than the
 * 6 x 64 kernel's in either orientation: dW written in place, with no transposed buffer
 * (MobileNet-v2 b12_expand 96 -> 576 channels, 14 x 14, mb1, one thread: 0.184 -> 0.148 ms;
 * oneDNN 0.125). */
static void bwdf_pick_kernel(pdnn_conv_gemm_geom *g)
{
    const pdnn_gemm_ukernel *n32 = pdnn_gemm_ukernel_select_nr(g->t, 32);
    if (!n32 || n32 == g->uk || g->geo.kg == 0 || g->geo.cg == 0) return;
    const double fy = tile_fill(g->uk, g->geo.kg, g->geo.cg), fx = tile_fill(g->uk, g->geo.cg, g->geo.kg);
    const double f32 = tile_fill(n32, g->geo.kg, g->geo.cg);
    if (f32 > 1.05 * fy && f32 >= 0.95 * fx) g->uk = n32;
}

static int64_t bwdf_nblocks(const bwdf_plan *pl);

static void bwdf_plan_init(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                           bwdf_plan *pl)
{
    const pdnn_conv_geom3 *G = &g->geo;
    pl->g = g;
    /* the orientation whose 6 x NR tiles are much fuller (else A = dy, written straight to
     * dw when its channels are contiguous) */
    const int64_t mr = g->uk->mr, nr = g->uk->nr;
    const double fill_y = (double)G->kg / (double)(cdiv(G->kg, mr) * mr) * (double)G->cg /
                          (double)(cdiv(G->cg, nr) * nr);
    const double fill_x = (double)G->cg / (double)(cdiv(G->cg, mr) * mr) * (double)G->kg /
                          (double)(cdiv(G->kg, nr) * nr);
    pl->a_is_x = G->kg > 0 && G->cg > 0 && fill_x > 1.25 * fill_y;
    pl->direct = !pl->a_is_x && p->ws[1] == 1;
    pl->ma = pl->a_is_x ? G->cg : G->kg;
    pl->nb = pl->a_is_x ? G->kg : G->cg;
    pl->a_cs = pl->a_is_x ? G->xs[1] : G->ys[1];
    pl->b_cs = pl->a_is_x ? G->ys[1] : G->xs[1];
    int64_t st[3];
    for (int d = 0; d < 3; d++) st[d] = pl->a_is_x ? G->str[d] * G->xs[2 + d] : G->ys[2 + d];
    pl->inplace = pdnn_conv_1x1_pixel_step(G, st, &pl->astep) && pl->astep >= 1 && pl->astep <= 4;
    pl->kcmax = pdnn_conv_pe_kc(g->uk, g->es);
    /* images that end in a short K block (7 x 7, 14 x 14, 28 x 28): blocks across them,
     * so C (dW-sized) takes one pass a full block instead of one an image (ResNet-50
     * res5a_branch1 minibatch 32, one thread: 61-65 -> 53-56 ms) */
    pl->cross = pl->inplace && g->n > 1 && g->npix % pl->kcmax != 0 && g->npix < 4 * pl->kcmax;
    pl->parts = 1;
    const int64_t dwb = pdnn_conv_gemm_mul3(g->g * pl->ma, pl->nb, (int64_t)g->es); /* < 0: overflow */
    if (pl->inplace && g->n > 1 && dwb >= 0 && dwb < BWDF_PARTS_MAX_BYTES)
        pl->parts = min64(BWDF_PARTS, bwdf_nblocks(pl)); /* none empty */
}

static void bwdf_layout(const bwdf_plan *pl, pdnn_conv_gemm_arena *a, char **buf, char **pbuf,
                        char **ap, char **bp)
{
    const pdnn_conv_gemm_geom *g = pl->g;
    *buf = pl->direct ? NULL : pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->g, pl->ma, pl->nb), g->es);
    *pbuf = pl->parts > 1 ? pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(pl->parts - 1, g->g * pl->ma, pl->nb), g->es)
                          : NULL;
    *ap = *bp = NULL;
    if (!pl->inplace) {
        *ap = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->g, pdnn_gemm_packed_a_elems(g->uk, pl->ma, pl->kcmax), 1),
                                  g->es);
        *bp = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->g, pdnn_gemm_packed_b_elems(g->uk, pl->kcmax, pl->nb), 1),
                                  g->es);
    }
}

static size_t bwdf_workspace(const void *prob)
{
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(prob, &g);
    if (pdnn_conv_1x1_ldb_bwdf_applies(prob, &g)) return 0; /* read in place */
    if (pdnn_conv_1x1_dot_applies(&g)) return pdnn_conv_1x1_dot_workspace(&g);
    if (pdnn_conv_1x1_bwdf_a2_applies(&g)) return pdnn_conv_1x1_bwdf_a2_workspace(prob, &g);
    bwdf_pick_kernel(&g);
    bwdf_plan pl;
    bwdf_plan_init(prob, &g, &pl);
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    char *buf, *pbuf, *ap, *bp;
    bwdf_layout(&pl, &a, &buf, &pbuf, &ap, &bp);
    return pdnn_conv_gemm_arena_bytes(&a);
}

static bool bwdf_supports(const void *prob, const char **why)
{
    if (!pdnn_conv_1x1_family(prob, PDNN_CONV_BWD_FILTER, why)) return false;
    if (bwdf_workspace(prob) == SIZE_MAX) {
        *why = "workspace size overflows";
        return false;
    }
    return true;
}

static void bwdf_tiles(bwdf_plan *pl, int nthreads)
{
    const pdnn_gemm_ukernel *uk = pl->g->uk;
    const int64_t mr = uk->mr, np = cdiv(pl->nb, uk->nr);
    /* in place: few big tasks (each gathers its own B slices), two a thread (one a
     * thread left ResNet-50 res4a_branch2c, 1024 rows, with 3 tasks of 342 rows for 2
     * threads: 14.9 -> 11.9 ms at mb32 with 2 a thread); packed: many small ones */
    const int64_t want = pl->inplace ? 2 * (int64_t)nthreads : 4 * (int64_t)nthreads;
    /* a multiple of mr (every row block starts on a packed A panel), the blocks of even
     * size (512 rows as 510 + 2 would leave one thread 2 rows) */
    pl->mbr = min64(cdiv(pl->ma, mr) * mr, BWDF_ROWS_MAX / mr * mr);
    if (pl->ma > 0) pl->mbr = cdiv(cdiv(pl->ma, cdiv(pl->ma, pl->mbr)), mr) * mr;
    pl->cbp = pl->inplace ? np : 1;
    /* in place, a task's block of C takes at most half of L2 (every K block adds to it) */
    if (pl->inplace) {
        const size_t half = pdnn_cpu_cache_sizes()->l2 / 2, es = pl->g->es;
        while (pl->cbp > 1 && (size_t)(pl->mbr * pl->cbp * uk->nr) * es > half) pl->cbp = cdiv(pl->cbp, 2);
        pl->cbp = cdiv(np, cdiv(np, pl->cbp)); /* equal blocks */
    }
    for (;;) {
        pl->mb = cdiv(pl->ma, pl->mbr);
        pl->cb = cdiv(np, pl->cbp);
        pl->ntasks = pl->g->g * pl->mb * pl->cb;
        if (pl->ntasks >= want || nthreads <= 1) break;
        /* halve the larger side, in panels */
        if (pl->cbp > 1 && pl->cbp * uk->nr >= pl->mbr)
            pl->cbp = cdiv(pl->cbp, 2);
        else if (pl->mbr > mr)
            pl->mbr = cdiv(cdiv(pl->mbr, 2), mr) * mr;
        else if (pl->cbp > 1)
            pl->cbp = cdiv(pl->cbp, 2);
        else
            break;
    }
}

/* Estimated time of the slowest of nt threads (static schedule: contiguous runs of
 * tasks, the first ntasks % nt threads one more) for row blocks of mbr and column blocks
 * of cbp panels, in units of a pixel's work: per task its tiles' multiply-adds (MR
 * padded rows x panels x NR / 32 lanes a cycle), the transposes of its B panels
 * (about 0.4 cycles an element, measured: 9% of MobileNet-v2 b12_project at one task)
 * and its columns' offsets (BWDF_TASK_COST; about 12 cycles a column, measured: 10% of
 * b7_project in tasks of one 32-column panel at two threads, where tasks of three ran
 * 26.1 -> 22.8 us). */
#define BWDF_TASK_COST 12.0
static double bwdf_slowest(const bwdf_plan *pl, int64_t mbr, int64_t cbp, int nt)
{
    const pdnn_gemm_ukernel *uk = pl->g->uk;
    const int64_t mr = uk->mr, nr = uk->nr, np = cdiv(pl->nb, nr);
    const int64_t mb = cdiv(pl->ma, mbr), cb = cdiv(np, cbp), n = pl->g->g * mb * cb;
    const int64_t q = n / nt, rem = n % nt;
    double worst = 0, sum = 0;
    int64_t t = 0, left = q + (rem > 0 ? 1 : 0);
    /* no divisions in the loops: a few hundred cycles for the whole search */
    for (int64_t grp = 0; grp < pl->g->g; grp++)
        for (int64_t r = 0; r < mb; r++) {
            const int64_t rows = r < mb - 1 ? mbr : pl->ma - r * mbr, rpad = cdiv(rows, mr) * mr;
            for (int64_t c = 0; c < cb; c++) {
                const int64_t pan = c < cb - 1 ? cbp : np - c * cbp;
                sum += (double)(rpad * pan * nr) / 32.0 + 0.4 * (double)(pan * nr) +
                       BWDF_TASK_COST;
                if (--left <= 0) {
                    worst = sum > worst ? sum : worst;
                    sum = 0;
                    t++;
                    left = q + (t < rem ? 1 : 0);
                }
            }
        }
    return sum > worst ? sum : worst;
}

/* In place with several threads, one image: where the tasks split unevenly (MobileNet-v2
 * b12_project, 96 x 576, 14 x 14: 5 tasks of 2 column panels for 2 threads), the
 * row x column blocking whose slowest thread is estimated fastest (bwdf_slowest), under
 * the same limits (rows a multiple of MR, at most BWDF_ROWS_MAX; a task's block of C at
 * most half of L2; at most 4 tasks a thread, one group, up to 8 threads); kept only
 * when at least 5% faster by the estimate. Two threads, wall clock, mb1: b12_project
 * 0.099 -> 0.082 ms, b14_project (576 -> 160, 7 x 7) 0.042 -> 0.037, ResNet-50
 * res5a_branch2c 0.41 -> 0.34, res3a_branch2a 0.81 -> 0.74, res2a_branch2c 0.41 -> 0.37
 * (fewer tasks: B's panels transposed once, not once a row block). Not tried at
 * minibatch 32 (the machine was too loaded to time two threads). */
static void bwdf_balance(bwdf_plan *pl, int nt)
{
    if (nt <= 1 || nt > 8 || !pl->inplace || pl->g->g > 1 || pl->g->n > 1 || pl->ma == 0 ||
        pl->nb == 0)
        return;
    const pdnn_gemm_ukernel *uk = pl->g->uk;
    const int64_t mr = uk->mr, nr = uk->nr, rb = cdiv(pl->ma, mr), np = cdiv(pl->nb, nr);
    const size_t half = pdnn_cpu_cache_sizes()->l2 / 2, es = pl->g->es;
    const double cur = bwdf_slowest(pl, pl->mbr, pl->cbp, nt);
    double best = cur;
    int64_t bm = pl->mbr, bc = pl->cbp;
    /* at most 4 tasks a thread (a few hundred task costs: well under a microsecond) */
    for (int64_t mb = 1; mb <= min64(rb, 4 * (int64_t)nt); mb++)
        for (int64_t cb = 1; cb <= min64(np, 4 * (int64_t)nt / mb); cb++) {
            const int64_t mbr = cdiv(rb, mb) * mr, cbp = cdiv(np, cb);
            if (mbr > BWDF_ROWS_MAX / mr * mr && mb < rb) continue;
            if ((size_t)(mbr * cbp * nr) * es > half && cbp > 1) continue;
            const double c = bwdf_slowest(pl, mbr, cbp, nt);
            if (c < best) {
                best = c;
                bm = mbr;
                bc = cbp;
            }
        }
    if (best > 0.95 * cur) return;
    pl->mbr = bm;
    pl->cbp = bc;
    pl->mb = cdiv(pl->ma, bm);
    pl->cb = cdiv(np, bc);
    pl->ntasks = pl->g->g * pl->mb * pl->cb;
}

/* With several threads, in place over one image, one group, dy as A written straight
 * into dw (no workspace either way): the other micro-kernel (12 x 32 for 6 x 64 or the
 * reverse) where the slowest thread of its balanced blocking (bwdf_tiles, bwdf_balance)
 * is estimated 10% faster (bwdf_slowest): where one image's row panels split unevenly
 * (MobileNet-v2 b7_project, 64 x 192 on 14 x 14, two threads, mb1: 26.1 -> 22.8 us with
 * 12 x 32 tiles in two tasks of 3 column panels). Both kernels sum every element in the
 * same order, so the bits do not depend on the choice. */
static void bwdf_kernel_for_threads(const pdnn_conv_problem *p, pdnn_conv_gemm_geom *g, int nt)
{
    if (nt <= 1 || nt > 8 || g->g != 1 || g->n != 1) return;
    const pdnn_gemm_ukernel *alt = pdnn_gemm_ukernel_select_nr(g->t, 32);
    if (alt == g->uk) alt = pdnn_gemm_ukernel_select(g->t);
    if (!alt || alt == g->uk) return;
    const pdnn_gemm_ukernel *uk[2] = {g->uk, alt};
    double est[2];
    for (int i = 0; i < 2; i++) {
        pdnn_conv_gemm_geom gi = *g;
        gi.uk = uk[i];
        bwdf_plan pl;
        bwdf_plan_init(p, &gi, &pl);
        if (!pl.inplace || !pl.direct || pl.parts != 1) return;
        bwdf_tiles(&pl, nt);
        bwdf_balance(&pl, nt);
        est[i] = bwdf_slowest(&pl, pl.mbr, pl.cbp, nt);
    }
    if (est[1] < 0.9 * est[0]) g->uk = alt;
}

/* Columns [c0, c0 + kc): pixel offsets of A's and B's operands. */
static void bwdf_offsets(const bwdf_plan *pl, int64_t c0, int64_t kc, int64_t *ao, int64_t *bo)
{
    pdnn_conv_pe_cols cols;
    for (int64_t j0 = 0; j0 < kc; j0 += PDNN_GEMM_NR_MAX) {
        const int64_t n = min64(PDNN_GEMM_NR_MAX, kc - j0);
        pdnn_conv_pe_cols_at(pl->g, c0 + j0, n, &cols);
        for (int64_t j = 0; j < n; j++) {
            ao[j0 + j] = pl->a_is_x ? cols.xo[j] : cols.yo[j];
            bo[j0 + j] = pl->a_is_x ? cols.yo[j] : cols.xo[j];
        }
    }
}

/* K block number kb -> first column and length: fixed cuts of the flattened columns, or
 * (in place) cuts restarting at every image. */
static int64_t bwdf_nblocks(const bwdf_plan *pl)
{
    const pdnn_conv_gemm_geom *g = pl->g;
    if (!pl->inplace || pl->cross) return max64(cdiv(g->ncols, pl->kcmax), 1);
    return max64(g->n * cdiv(g->npix, pl->kcmax), 1);
}

static void bwdf_block(const bwdf_plan *pl, int64_t kb, int64_t *c0, int64_t *kc)
{
    const pdnn_conv_gemm_geom *g = pl->g;
    if (!pl->inplace || pl->cross) {
        *c0 = kb * pl->kcmax;
        *kc = min64(pl->kcmax, g->ncols - *c0);
        return;
    }
    const int64_t per = cdiv(g->npix, pl->kcmax);
    if (per == 0) { /* no pixels: one empty block */
        *c0 = *kc = 0;
        return;
    }
    const int64_t n = kb / per, b = kb % per;
    *c0 = n * g->npix + b * pl->kcmax;
    *kc = min64(pl->kcmax, g->npix - b * pl->kcmax);
}

/* In place: task t (of part t / ntasks) over its part's K blocks. */
static void bwdf_task_inplace(const bwdf_plan *pl, int64_t t)
{
    const pdnn_conv_gemm_geom *g = pl->g;
    const pdnn_gemm_ukernel *uk = g->uk;
    const int64_t mr = uk->mr, nr = uk->nr, es = (int64_t)g->es;
    const int64_t part = t / pl->ntasks;
    t %= pl->ntasks;
    const int64_t per = pl->mb * pl->cb, grp = t / per, r = t % per;
    const int64_t i0 = (r / pl->cb) * pl->mbr, i1 = min64(pl->ma, i0 + pl->mbr);
    const int64_t q0 = (r % pl->cb) * pl->cbp, q1 = min64(cdiv(pl->nb, nr), q0 + pl->cbp);
    if (i0 >= i1 || q0 >= q1) return;
    const char *ag = pl->a + grp * pl->ma * pl->a_cs * es;
    const char *bg = pl->b + grp * pl->nb * pl->b_cs * es;
    /* part 0 sums into cdst, the others into their blocks of pbuf (ma x nb, beta 0) */
    const int64_t c_rs = part == 0 ? pl->c_rs : pl->nb;
    char *cg = part == 0 ? pl->cdst + grp * pl->c_gs * es
                         : pl->pbuf + (((part - 1) * g->g + grp) * pl->ma * pl->nb) * es;
    _Alignas(64) char bbuf[PDNN_CONV_PE_SLICE_BYTES];
    int64_t ao[PDNN_GEMM_KC], bo[PDNN_GEMM_KC], chan[PDNN_GEMM_NR_MAX];
    ptrdiff_t ko[PDNN_GEMM_KC]; /* cross: A's column offsets */
    const int64_t nblk = bwdf_nblocks(pl), kb0 = part * nblk / pl->parts, kb1 = (part + 1) * nblk / pl->parts;
    for (int64_t kb = kb0; kb < kb1; kb++) {
        int64_t c0, kc;
        bwdf_block(pl, kb, &c0, &kc);
        if (kc > 0) bwdf_offsets(pl, c0, kc, ao, bo);
        if (pl->cross)
            for (int64_t kk = 0; kk < kc; kk++) ko[kk] = (ptrdiff_t)ao[kk];
        /* B's pixels contiguous (FLOAT) in runs (one, or one an image across images) of
         * 16 at least but the last: the transpose kernel run by run instead of the
         * gather (step-2 runs deinterleaved first measured no faster than the gather) */
        int64_t runs[PDNN_GEMM_KC + 1], nrun = 0;
        bool runs_ok = g->es == sizeof(float) && kc > 0;
        for (int64_t kk = 0; runs_ok && kk < kc; nrun++) {
            int64_t e = kk + 1;
            while (e < kc && bo[e] == bo[e - 1] + 1) e++;
            runs[nrun] = kk;
            runs_ok = e == kc || e - kk >= 16;
            kk = e;
        }
        runs[nrun] = kc;
        const pdnn_f32_transpose_fn tr = runs_ok ? pdnn_f32_transpose_select() : NULL;
        const double beff = kb == kb0 ? (part == 0 ? pl->beta0 : 0.0) : 1.0;
        for (int64_t q = q0; q < q1; q++) {
            const int64_t nn = min64(nr, pl->nb - q * nr);
            if (kc > 0 && tr) { /* B slice: transposes of nn channel rows of each run */
                float *dst = (float *)bbuf;
                for (int64_t u = 0; u < nrun; u++)
                    tr((size_t)nn, (size_t)(runs[u + 1] - runs[u]),
                       (const float *)bg + bo[runs[u]] + q * nr * pl->b_cs, pl->b_cs,
                       dst + runs[u] * nr, nr);
                if (nn < nr)
                    for (int64_t pr = 0; pr < kc; pr++)
                        for (int64_t j = nn; j < nr; j++) dst[pr * nr + j] = 0;
            } else if (kc > 0) { /* B slice: kc pixels x nn channels */
                for (int64_t j = 0; j < nn; j++) chan[j] = (q * nr + j) * pl->b_cs;
                pdnn_conv_pe_gather(g->es, (int)nr, kc, nn, bg, bo, chan, bbuf);
            }
            for (int64_t i = i0; i < i1; i += mr) {
                char *c = cg + (i * c_rs + q * nr) * es;
                const size_t mm = (size_t)min64(mr, i1 - i);
                if (pl->cross && kc > 0 && g->es == sizeof(float))
                    uk->f32_ak(mm, (size_t)nn, (size_t)kc, (const float *)ag + i * pl->a_cs, pl->a_cs,
                               ko, (const float *)bbuf, (float *)c, c_rs, 1, (float)pl->alpha,
                               (float)beff);
                else if (pl->cross && kc > 0)
                    uk->f64_ak(mm, (size_t)nn, (size_t)kc, (const double *)ag + i * pl->a_cs, pl->a_cs,
                               ko, (const double *)bbuf, (double *)c, c_rs, 1, pl->alpha, beff);
                else
                    pdnn_conv_pe_ukernel(uk, (int64_t)mm, nn, kc,
                                         ag + (kc > 0 ? ao[0] + i * pl->a_cs : 0) * es, pl->a_cs,
                                         pl->astep, bbuf, c, c_rs, 1, pl->alpha, beff);
            }
        }
    }
}

/* A panels for pixels kk0 .. kk1 - 1 of a K block of kc: pixel by pixel, each pixel's
 * channels (stride cs) dealt to the MR-row panels (element (i, kk) of panel q at
 * dst[q * mr * kc + kk * mr + i % mr]; rows past ma zero). */
#define PACK_A_PIXELS(T)                                                                 \
    do {                                                                                 \
        const T *s = (const T *)src;                                                     \
        T *d = (T *)dst;                                                                 \
        for (int64_t kk = kk0; kk < kk1; kk++) {                                         \
            const T *sp = s + ao[kk];                                                    \
            for (int64_t q = 0; q * mr < ma; q++) {                                      \
                T *dp = d + q * mr * kc + kk * mr;                                       \
                const int64_t rows = ma - q * mr < mr ? ma - q * mr : mr;                \
                int64_t i = 0;                                                           \
                if (cs == 1)                                                             \
                    for (; i < rows; i++) dp[i] = sp[q * mr + i];                        \
                else                                                                     \
                    for (; i < rows; i++) dp[i] = sp[(q * mr + i) * cs];                 \
                for (; i < mr; i++) dp[i] = 0;                                           \
            }                                                                            \
        }                                                                                \
    } while (0)

static void pack_a_pixels(size_t es, int64_t mr, int64_t ma, int64_t kc, int64_t kk0,
                          int64_t kk1, const char *src, const int64_t *ao, int64_t cs, char *dst)
{
    if (es == sizeof(float))
        PACK_A_PIXELS(float);
    else
        PACK_A_PIXELS(double);
}

/* Pixels of one A packing unit. */
#define BWDF_PACK_PIXELS 32

/* Packed: inside a parallel region, every thread runs every K block. */
static void bwdf_packed(const bwdf_plan *pl)
{
    const pdnn_conv_gemm_geom *g = pl->g;
    const pdnn_gemm_ukernel *uk = g->uk;
    const int64_t mr = uk->mr, nr = uk->nr, es = (int64_t)g->es;
    const int64_t np = cdiv(pl->nb, nr);
    int64_t ao[PDNN_GEMM_KC], bo[PDNN_GEMM_KC], chan[PDNN_GEMM_NR_MAX];
    const int64_t nblk = bwdf_nblocks(pl);
    for (int64_t kb = 0; kb < nblk; kb++) {
        int64_t c0, kc;
        bwdf_block(pl, kb, &c0, &kc);
        if (kc > 0) {
            bwdf_offsets(pl, c0, kc, ao, bo);
            const int64_t pu = cdiv(kc, BWDF_PACK_PIXELS); /* A units per group */
#pragma omp for schedule(static)
            for (int64_t u = 0; u < g->g * (pu + np); u++) {
                const int64_t grp = u / (pu + np), q = u % (pu + np);
                if (q < pu) { /* A panels: every channel of pixels q * 32 .. */
                    pack_a_pixels(g->es, mr, pl->ma, kc, q * BWDF_PACK_PIXELS,
                                  min64(kc, (q + 1) * BWDF_PACK_PIXELS),
                                  pl->a + grp * pl->ma * pl->a_cs * es, ao, pl->a_cs,
                                  pl->ap + grp * pl->apg * es);
                } else { /* B panel: kc pixels x nr channels */
                    const int64_t c = (q - pu) * nr, nn = min64(nr, pl->nb - c);
                    for (int64_t j = 0; j < nn; j++) chan[j] = (c + j) * pl->b_cs;
                    pdnn_conv_pe_gather(g->es, (int)nr, kc, nn, pl->b + grp * pl->nb * pl->b_cs * es,
                                        bo, chan, pl->bp + (grp * pl->bpg + c * kc) * es);
                }
            }
        }
        const double beff = kb == 0 ? pl->beta0 : 1.0;
#pragma omp for schedule(static)
        for (int64_t t = 0; t < pl->ntasks; t++) {
            const int64_t per = pl->mb * pl->cb, grp = t / per, r = t % per;
            const int64_t i0 = (r / pl->cb) * pl->mbr, i1 = min64(pl->ma, i0 + pl->mbr);
            const int64_t q = r % pl->cb, nn = min64(nr, pl->nb - q * nr);
            char *cg = pl->cdst + grp * pl->c_gs * es;
            for (int64_t i = i0; i < i1; i += mr)
                pdnn_conv_pe_ukernel(uk, min64(mr, i1 - i), nn, kc,
                                     pl->ap + (grp * pl->apg + i * kc) * es, 1, mr,
                                     pl->bp + (grp * pl->bpg + q * nr * kc) * es,
                                     cg + (i * pl->c_rs + q * nr) * es, pl->c_rs, 1, pl->alpha, beff);
        }
    }
}

/* dw[k, c] = alpha * buf + beta * dw (dw unread when beta == 0), in the data type, for
 * rows r0 .. r1 - 1 of dW (one group); a transposed buf (A = x) is read along its rows,
 * the block's rows of dw advancing together. */
#define BLEND_ONE(T, kk, c)                                                                  do {                                                                                         const T s_ = pl->a_is_x ? bb[(grp * cg + (c)) * kg + (kk)]                                                       : bb[(grp * kg + (kk)) * cg + (c)];                              T *e_ = dd + (grp * kg + (kk)) * ws0 + (c) * ws1;                                        T v_ = al * s_;                                                                          if (be != 0) {                                                                               T u_ = be * *e_;                                                                         v_ = v_ + u_;                                                                        }                                                                                        *e_ = v_;                                                                            } while (0)

#define BLEND_DW(T)                                                                          do {                                                                                         const T *bb = (const T *)pl->buf;                                                        T *dd = (T *)dw;                                                                         const T al = (T)alpha, be = (T)beta;                                                     if (pl->a_is_x)                                                                              for (int64_t c = 0; c < cg; c++)                                                             for (int64_t kk = k0; kk < k1; kk++) BLEND_ONE(T, kk, c);                        else                                                                                         for (int64_t kk = k0; kk < k1; kk++)                                                         for (int64_t c = 0; c < cg; c++) BLEND_ONE(T, kk, c);                        } while (0)

/* Rows of dW a blend step covers. */
#define BLEND_ROWS 8

static void blend_dw(const bwdf_plan *pl, int64_t grp, int64_t k0, int64_t k1, int64_t kg,
                     int64_t cg, int64_t ws0, int64_t ws1, double alpha, double beta, char *dw)
{
    if (pl->g->es == sizeof(float))
        BLEND_DW(float);
    else
        BLEND_DW(double);
}

/* Rows r0 .. r1 - 1 of group grp's dW block: part 0's sums (cdst) += each other part's
 * (pbuf), in part order, in the data type. */
#define ADD_PARTS(T)                                                                         \
    do {                                                                                     \
        T *d = (T *)pl->cdst + grp * pl->c_gs;                                               \
        for (int64_t pt = 1; pt < pl->parts; pt++) {                                         \
            const T *s = (const T *)pl->pbuf + ((pt - 1) * pl->g->g + grp) * pl->ma * pl->nb; \
            for (int64_t i = r0; i < r1; i++)                                                \
                for (int64_t j = 0; j < pl->nb; j++) d[i * pl->c_rs + j] += s[i * pl->nb + j]; \
        }                                                                                    \
    } while (0)

static void add_parts(const bwdf_plan *pl, int64_t grp, int64_t r0, int64_t r1)
{
    if (pl->g->es == sizeof(float))
        ADD_PARTS(float);
    else
        ADD_PARTS(double);
}

static pdnnStatus_t bwdf_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *arg = args;
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(p, &g);
    const int64_t kg = g.geo.kg, cg = g.geo.cg, ws0 = p->ws[0], ws1 = p->ws[1];
    if (kg == 0 || cg == 0) return PDNN_STATUS_SUCCESS; /* dw has no elements */
    if (pdnn_conv_1x1_ldb_bwdf_applies(p, &g)) {
        pdnn_conv_1x1_ldb_bwdf_run(p, &g, arg, ctx->nthreads);
        return PDNN_STATUS_SUCCESS;
    }
    if (pdnn_conv_1x1_dot_applies(&g)) {
        pdnn_conv_1x1_dot_run(p, &g, arg, ctx->ws, ctx->nthreads);
        return PDNN_STATUS_SUCCESS;
    }
    if (pdnn_conv_1x1_bwdf_a2_applies(&g)) {
        pdnn_conv_1x1_bwdf_a2_run(p, &g, arg, ctx->ws, ctx->nthreads);
        return PDNN_STATUS_SUCCESS;
    }
    bwdf_pick_kernel(&g);
    const int nt = ctx->nthreads;
    bwdf_kernel_for_threads(p, &g, nt);
    bwdf_plan pl;
    bwdf_plan_init(p, &g, &pl);
    pl.a = pl.a_is_x ? arg->src : arg->wei;
    pl.b = pl.a_is_x ? arg->wei : arg->src;
    pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ctx->ws);
    bwdf_layout(&pl, &ar, &pl.buf, &pl.pbuf, &pl.ap, &pl.bp);
    pl.cdst = pl.direct ? arg->dst : pl.buf;
    pl.c_gs = pl.direct ? kg * ws0 : pl.ma * pl.nb;
    pl.c_rs = pl.direct ? ws0 : pl.nb;
    pl.alpha = pl.direct ? arg->alpha : 1.0;
    pl.beta0 = pl.direct ? arg->beta : 0.0;
    pl.apg = pdnn_gemm_packed_a_elems(g.uk, pl.ma, pl.kcmax);
    pl.bpg = pdnn_gemm_packed_b_elems(g.uk, pl.kcmax, pl.nb);
    /* the threads share out the parts first: each part's tiles for its share of them */
    bwdf_tiles(&pl, (int)cdiv(nt, pl.parts));
    bwdf_balance(&pl, nt);
    const double alpha = arg->alpha, beta = arg->beta;
    char *dw = arg->dst;
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        if (pl.inplace) {
#pragma omp for schedule(static)
            for (int64_t t = 0; t < pl.parts * pl.ntasks; t++) bwdf_task_inplace(&pl, t);
            if (pl.parts > 1) { /* the parts' blocks added to part 0's, in part order */
                const int64_t rb = cdiv(pl.ma, BLEND_ROWS);
#pragma omp for schedule(static)
                for (int64_t r = 0; r < g.g * rb; r++)
                    add_parts(&pl, r / rb, (r % rb) * BLEND_ROWS, min64(pl.ma, (r % rb + 1) * BLEND_ROWS));
            }
        } else {
            bwdf_packed(&pl);
        }
        if (!pl.direct) {
            const int64_t kb = cdiv(kg, BLEND_ROWS);
#pragma omp for schedule(static)
            for (int64_t r = 0; r < g.g * kb; r++) {
                const int64_t grp = r / kb, k0 = (r % kb) * BLEND_ROWS;
                blend_dw(&pl, grp, k0, min64(kg, k0 + BLEND_ROWS), kg, cg, ws0, ws1, alpha, beta, dw);
            }
        }
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_bwd_filter_cpu_direct_1x1 = {
    "cpu:direct_1x1", PDNN_CONVOLUTION_BWD_FILTER_ALGO_0, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, bwdf_supports, bwdf_workspace, bwdf_exec,
};
