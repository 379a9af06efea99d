/* Backward filter of 1x1 convolutions as a plain GEMM, no im2col ("cpu:direct_1x1",
 * PDNN_CONVOLUTION_BWD_FILTER_ALGO_0). The family is that of conv_cpu_direct_1x1.c.
 *
 * Per group, with columns (n, p) over the batch and the output pixels:
 *   dW[Kg x Cg] = alpha * sum_cols dY[Kg x cols] X^T[cols x Cg] + beta * dW
 * The operand with more channels is the GEMM's A (read in place where its pixels are
 * evenly spaced and close, NCHW, else packed MR rows at a time on the stack), the other
 * is gathered into stack-resident B slices of KC pixels x NR channels. The sum over the
 * columns is cut into blocks of pdnn_conv_pe_kc() columns at fixed places and runs in
 * increasing column order; each block's products accumulate into a dW-sized buffer (the
 * workspace: one product rounding per block, as in the GEMM), which is finally blended
 * into dw. Threads split the buffer's tiles only, so results do not depend on the
 * thread count. Exact on small integers.
 *
 * Workspace: the accumulation buffer (K * C/groups elements, dW's size). */
#include "core/registry.h"
#include "ops/conv/cpu/conv_cpu_direct_1x1.h"
#include "ops/conv/cpu/conv_cpu_panel.h"

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Rows of a task block at most (A rows kept in L2 across the B slices of a K block). */
#define BWDF_ROWS_MAX 512

static size_t bwdf_workspace(const void *prob)
{
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(prob, &g);
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    pdnn_conv_gemm_take(&a, pdnn_conv_gemm_mul3(g.g, g.geo.kg, g.geo.cg), g.es);
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

typedef struct {
    const pdnn_conv_gemm_geom *g;
    const char *a, *b;   /* A and B sources (x or dy) */
    bool a_is_x;
    int64_t ma, nb;      /* channels of A and B per group */
    int64_t a_cs, b_cs;  /* their channel strides */
    char *buf;           /* ma x nb per group, row-major */
    int64_t mbr, mb, cbp, cb, ntasks;
} bwdf_plan;

static void bwdf_tiles(bwdf_plan *pl, int nthreads)
{
    const pdnn_gemm_ukernel *uk = pl->g->uk;
    const int64_t mr = uk->mr, np = cdiv(pl->nb, uk->nr);
    pl->mbr = min64(cdiv(pl->ma, mr) * mr, BWDF_ROWS_MAX);
    pl->cbp = np;
    for (;;) {
        pl->mb = cdiv(pl->ma, pl->mbr);
        pl->cb = cdiv(np, pl->cbp);
        pl->ntasks = pl->g->g * pl->mb * pl->cb;
        if (pl->ntasks >= nthreads) break;
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

static void bwdf_task(const bwdf_plan *pl, int64_t t)
{
    const pdnn_conv_gemm_geom *g = pl->g;
    const pdnn_gemm_ukernel *uk = g->uk;
    const int64_t mr = uk->mr, nr = uk->nr, es = (int64_t)g->es;
    const int64_t per = pl->mb * pl->cb, grp = t / per, r = t % per;
    const int64_t i0 = (r / pl->cb) * pl->mbr, i1 = min64(pl->ma, i0 + pl->mbr);
    const int64_t q0 = (r % pl->cb) * pl->cbp, q1 = min64(cdiv(pl->nb, nr), q0 + pl->cbp);
    if (i0 >= i1 || q0 >= q1) return;
    const int64_t kcmax = pdnn_conv_pe_kc(uk, g->es), K = g->ncols;
    const char *ag = pl->a + grp * pl->ma * pl->a_cs * es;
    const char *bg = pl->b + grp * pl->nb * pl->b_cs * es;
    char *cg = pl->buf + grp * pl->ma * pl->nb * es;
    _Alignas(64) char bbuf[PDNN_CONV_PE_SLICE_BYTES];
    _Alignas(64) char apan[PDNN_GEMM_MR_MAX * PDNN_GEMM_KC * sizeof(double)];
    int64_t ao[PDNN_GEMM_KC], bo[PDNN_GEMM_KC], chan[PDNN_GEMM_NR_MAX > PDNN_GEMM_MR_MAX
                                                         ? PDNN_GEMM_NR_MAX
                                                         : PDNN_GEMM_MR_MAX];
    pdnn_conv_pe_cols cols;
    int64_t pc = 0;
    do {
        const int64_t kc = min64(kcmax, K - pc);
        for (int64_t c0 = 0; c0 < kc; c0 += PDNN_GEMM_NR_MAX) {
            const int64_t n = min64(PDNN_GEMM_NR_MAX, kc - c0);
            pdnn_conv_pe_cols_at(g, pc + c0, n, &cols);
            for (int64_t j = 0; j < n; j++) {
                ao[c0 + j] = pl->a_is_x ? cols.xo[j] : cols.yo[j];
                bo[c0 + j] = pl->a_is_x ? cols.yo[j] : cols.xo[j];
            }
        }
        int64_t astep;
        const bool a_inplace = kc > 0 && pdnn_conv_pe_uniform(ao, kc, &astep) && astep >= 1 &&
                               astep <= 4;
        const double beff = pc == 0 ? 0.0 : 1.0;
        for (int64_t q = q0; q < q1; q++) {
            const int64_t nn = min64(nr, pl->nb - q * nr);
            if (kc > 0) { /* B slice: kc pixels x nn channels */
                for (int64_t j = 0; j < nn; j++) chan[j] = (q * nr + j) * pl->b_cs;
                pdnn_conv_pe_gather(g->es, (int)nr, kc, nn, bg, bo, chan, bbuf);
            }
            for (int64_t i = i0; i < i1; i += mr) {
                const int64_t mm = min64(mr, i1 - i);
                const char *a = apan;
                int64_t rs_a = 1, cs_a = mr;
                if (a_inplace) {
                    a = ag + (ao[0] + i * pl->a_cs) * es;
                    rs_a = pl->a_cs;
                    cs_a = astep;
                } else if (kc > 0) {
                    for (int64_t ii = 0; ii < mm; ii++) chan[ii] = (i + ii) * pl->a_cs;
                    pdnn_conv_pe_gather(g->es, (int)mr, kc, mm, ag, ao, chan, apan);
                }
                pdnn_conv_pe_ukernel(uk, mm, nn, kc, a, rs_a, cs_a, bbuf,
                                     cg + (i * pl->nb + q * nr) * es, pl->nb, 1, 1.0, beff);
            }
        }
        pc += kc;
    } while (pc < K);
}

/* dw[k, c] = alpha * buf + beta * dw (dw unread when beta == 0), in the data type. */
#define BLEND_DW(T)                                                                      \
    do {                                                                                 \
        const T *bb = (const T *)pl.buf;                                                \
        T *dd = (T *)dw;                                                                 \
        const T al = (T)alpha, be = (T)beta;                                             \
        for (int64_t c = 0; c < cg; c++) {                                               \
            const int64_t kk = row % kg, grp = row / kg;                                 \
            const T s = pl.a_is_x ? bb[(grp * cg + c) * kg + kk]                        \
                                   : bb[(grp * kg + kk) * cg + c];                       \
            T *e = dd + row * ws0 + c * ws1;                                             \
            T v = al * s;                                                                \
            if (be != 0) {                                                               \
                T u = be * *e;                                                           \
                v = v + u;                                                               \
            }                                                                            \
            *e = v;                                                                      \
        }                                                                                \
    } while (0)

static pdnnStatus_t bwdf_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *arg = args;
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(p, &g);
    const int64_t kg = g.geo.kg, cg = g.geo.cg, ws0 = p->ws[0], ws1 = p->ws[1];
    if (kg == 0 || cg == 0) return PDNN_STATUS_SUCCESS; /* dw has no elements */
    pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ctx->ws);
    bwdf_plan pl;
    pl.g = &g;
    pl.a_is_x = cg > kg;
    pl.a = pl.a_is_x ? arg->src : arg->wei;
    pl.b = pl.a_is_x ? arg->wei : arg->src;
    pl.ma = pl.a_is_x ? cg : kg;
    pl.nb = pl.a_is_x ? kg : cg;
    pl.a_cs = pl.a_is_x ? g.geo.xs[1] : g.geo.ys[1];
    pl.b_cs = pl.a_is_x ? g.geo.ys[1] : g.geo.xs[1];
    pl.buf = pdnn_conv_gemm_take(&ar, pdnn_conv_gemm_mul3(g.g, kg, cg), g.es);
    const int nt = ctx->nthreads;
    bwdf_tiles(&pl, nt);
    const double alpha = arg->alpha, beta = arg->beta;
    char *dw = arg->dst;
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
#pragma omp for schedule(static)
        for (int64_t t = 0; t < pl.ntasks; t++) bwdf_task(&pl, t);
#pragma omp for schedule(static)
        for (int64_t row = 0; row < g.g * kg; row++) {
            if (g.es == sizeof(float))
                BLEND_DW(float);
            else
                BLEND_DW(double);
        }
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_bwd_filter_cpu_direct_1x1 = {
    "cpu:direct_1x1", PDNN_CONVOLUTION_BWD_FILTER_ALGO_0, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, bwdf_supports, bwdf_workspace, bwdf_exec,
};
