/* Backward data of short NCHW-like 1x1 convolutions in the transposed orientation, the
 * filter's rows read in place: a FLOAT fast path of conv_cpu_direct_1x1.c's backward
 * data ("cpu:direct_1x1", PDNN_CONVOLUTION_BWD_DATA_ALGO_0) for few columns (a batch of
 * 7 x 7 or 14 x 14 images at minibatch 1). Per group, with columns (n, p):
 *   dX^T[cols x Cg] = dY^T[cols x Kg] * W[Kg x Cg]
 * The channel-major ldb path (conv_cpu_direct_1x1_ldb.c) makes W^T its A operand: read
 * in place, each step along k jumps a filter row (kilobytes: L1 set conflicts and a TLB
 * entry per step), packed, a copy of the whole filter per call; and its pixel tiles fill
 * 49 of 64 lanes at 7 x 7. Here W's rows are the ldb kernel's B (64 contiguous
 * channels, read once per call: each K block of them copied to a 32 KiB stack panel,
 * which stays in L1 while every pixel row panel uses it, as the next block is
 * prefetched), dY^T its A (6 pixels of one dy row, broadcast) and the lanes run over
 * the channels. Each task (group, block of channels) sums its cols x channels tile,
 * alpha * sum, into a workspace slice; the tile is then transposed into dx's channel
 * rows (beta == 0, dx's pixels contiguous), or row by row blended (+ beta * dx) or
 * scattered into dx (stride > 1 or gapped x: the pixels no output reads get beta * dx,
 * 0 when beta == 0).
 *
 * The sum over k runs in blocks of LDB_T_KC at fixed places, each block in increasing
 * order, the later blocks added by the kernel (alpha * block + C), as on the ldb path:
 * results depend only on the data, never on the tiling or the thread count (threads
 * split channel blocks, whole dx channel rows). Exact on small integers. */
#include "ops/conv/cpu/conv_cpu_direct_1x1.h"

#include "cpu/ukernels/transpose/transpose.h"

/* Channel block of the sums (the ldb path's forward / backward data tasks'). */
#define LDB_T_KC 128
/* Widest ldb tile (AVX-512: 64). */
#define T_NR_MAX 64
/* K blocks ahead the filter is prefetched (1, 2 and 3 measured alike). */
#define T_AHEAD 1
/* dx channel rows transposed at a time (on the stack). */
#define T_CHANS 16

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

bool pdnn_conv_1x1_bwdd_t_applies(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g)
{
    /* few columns: the channel-major path would read W^T in place (it packs it from
     * LDB_PACK_REUSE pixel panels on, about 512 columns at AVX-512) */
    return pdnn_conv_1x1_ldb_applies(g) && p->ws[1] == 1 && g->ncols > 0 &&
           g->ncols <= PDNN_CONV_1X1_T_COLS && !pdnn_conv_1x1_ldb_batched(g, PDNN_CONV_BWD_DATA);
}

/* Channels of a task: the kernel's NR, or half of it when the NR blocks would not share
 * evenly among the threads (tasks depend on nt, the arithmetic does not). */
static int64_t chan_block(const pdnn_conv_gemm_geom *g, int64_t nr, int nt)
{
    const int64_t tasks = g->g * cdiv(g->geo.cg, nr);
    return nt > 1 && tasks % nt != 0 && tasks < 4 * nt && nr > 1 ? nr / 2 : nr;
}

size_t pdnn_conv_1x1_bwdd_t_workspace(const pdnn_conv_gemm_geom *g)
{
    /* a cols x NR tile per NR block of channels of every group (a task of half a block
     * uses half of one) */
    const int64_t nr = pdnn_gemm_ldb_ukernel_select_f32()->nr;
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    pdnn_conv_gemm_take(&a, pdnn_conv_gemm_mul3(g->g * cdiv(g->geo.cg, nr), nr, g->ncols), g->es);
    return pdnn_conv_gemm_arena_bytes(&a);
}

void pdnn_conv_1x1_bwdd_t_run(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                              const pdnn_conv_args *arg, void *ws, int nt)
{
    const pdnn_conv_geom3 *G = &g->geo;
    const pdnn_gemm_ldb_ukernel *uk = pdnn_gemm_ldb_ukernel_select_f32();
    const int64_t mr = uk->mr, kg = G->kg, cg = G->cg, ws0 = p->ws[0];
    const int64_t np = g->npix, ncols = g->ncols, ys1 = G->ys[1];
    const int64_t cw = chan_block(g, uk->nr, nt), cb = cdiv(cg, cw), ntasks = g->g * cb;
    const int64_t nblk = cdiv(kg, LDB_T_KC);
    const float *dy = arg->src, *w = arg->wei;
    float *dx = arg->dst, *tiles = ws;
    const float alpha = (float)arg->alpha, beta = (float)arg->beta;
    const bool compact = pdnn_conv_1x1_ldb_x_compact(g);
    const pdnn_f32_transpose_fn tr = pdnn_f32_transpose_select();
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t t = 0; t < ntasks; t++) {
        const int64_t grp = t / cb, c0 = (t % cb) * cw, nn = min64(cw, cg - c0);
        float *tile = tiles + t * cw * ncols; /* row (n, p): cw sums */
        _Alignas(64) float rows[T_CHANS * PDNN_CONV_1X1_T_COLS];
        _Alignas(64) float bp[LDB_T_KC * T_NR_MAX]; /* B block: kc rows of cw */
        const float *wg = w + grp * kg * ws0 + c0;
        int64_t pc = 0;
        do {
            const int64_t kc = min64(LDB_T_KC, kg - pc);
            /* copy the block (rows ws0 apart: in place they would share a few L1 sets)
             * while the one T_AHEAD blocks on (counting on into the next task's) is
             * fetched */
            const int64_t ahead = pc + T_AHEAD * LDB_T_KC, nxt = ahead - nblk * LDB_T_KC;
            const float *nb = NULL;
            int64_t nk = 0;
            if (ahead < kg)
                nb = wg + ahead * ws0, nk = kg - ahead;
            else if (nxt < kg && c0 + cw < cg)
                nb = wg + cw + nxt * ws0, nk = kg - nxt;
            nk = min64(nk, kc);
            for (int64_t kk = 0; kk < kc; kk++) {
                const float *s = wg + (pc + kk) * ws0;
                for (int64_t j = 0; j < nn; j++) bp[kk * cw + j] = s[j];
                if (kk < nk)
                    for (int64_t l = 0; l < nn; l += 16) __builtin_prefetch(nb + kk * ws0 + l, 0, 2);
            }
            for (int64_t n = 0; n < g->n; n++) {
                const float *a = dy + n * G->ys[0] + (grp * kg + pc) * ys1;
                for (int64_t i = 0; i < np; i += mr)
                    uk->f32((size_t)min64(mr, np - i), (size_t)nn, (size_t)kc, a + i, 1, ys1, bp,
                            cw, tile + (n * np + i) * cw, cw, alpha, pc == 0 ? 0.0f : 1.0f, NULL, 0);
            }
            pc += kc;
        } while (pc < kg);
        for (int64_t n = 0; n < g->n; n++) {
            const float *src = tile + n * np * cw;
            float *d0 = dx + n * G->xs[0] + (grp * cg + c0) * G->xs[1];
            if (!compact && beta == 0) { /* the sums are dx's rows */
                tr((size_t)np, (size_t)nn, src, cw, d0, G->xs[1]);
                continue;
            }
            for (int64_t j0 = 0; j0 < nn; j0 += T_CHANS) {
                const int64_t jn = min64(T_CHANS, nn - j0);
                tr((size_t)np, (size_t)jn, src + j0, cw, rows, np);
                for (int64_t j = 0; j < jn; j++) {
                    float *r = rows + j * np, *d = d0 + (j0 + j) * G->xs[1];
                    if (compact) {
                        pdnn_conv_1x1_compact_row(g, false, NULL, d, r, 1.0f, beta);
                        continue;
                    }
                    for (int64_t q = 0; q < np; q++) {
                        const float u = beta * d[q];
                        d[q] = r[q] + u;
                    }
                }
            }
        }
    }
}
