/* 1x1 convolutions as plain GEMMs, no im2col: forward ("cpu:direct_1x1",
 * PDNN_CONVOLUTION_FWD_ALGO_DIRECT) and backward data ("cpu:direct_1x1",
 * PDNN_CONVOLUTION_BWD_DATA_ALGO_0); backward filter is conv_cpu_direct_1x1_bwd_filter.c.
 *
 * The family: every filter dim 1, any stride, no padding before and none reaching an
 * output pixel after ((out - 1) * stride < in), any dilation (meaningless for a 1x1
 * filter), groups, 1-3 spatial dims, FLOAT or DOUBLE accumulated in the data type,
 * packed KCRS or KRSC filter (the same memory for 1x1), any tensor strides.
 * Per group, with columns (n, p) over the batch and the output pixels:
 *   forward:       Y[Kg x cols] = W[Kg x Cg] * X[Cg x cols]
 *   backward data: dX[Cg x cols] = W^T[Cg x Kg] * dY[Kg x cols]   (dx pixels that no
 *                  output reads, stride > 1, get beta * dx: their gradient is zero)
 * FLOAT fast paths first (conv_cpu_direct_1x1_ldb.c):
 *  - a fully connected layer at batch <= 4 (few columns, channels contiguous): GEMV
 *    micro-kernels (forward), W's rows read in place by the ldb kernel (backward data);
 *  - backward data with few columns (at most 512, not batched), NCHW-like dy and the
 *    filter's channels contiguous: transposed, dX^T = dY^T W with W's rows as the ldb
 *    kernel's B (conv_cpu_direct_1x1_bwdd_t.c);
 *  - NCHW-like y (output pixels contiguous within an image): per image, the filter read
 *    in place (forward) or packed (backward data, when reused) and the data read in place
 *    by the ldb micro-kernels; strided x goes through compact per-image copies, short
 *    images with many channels run side by side.
 * Otherwise the panel engines of conv_cpu_panel.h: channels-last x and y (unit channel
 * stride) run pixel-major, one GEMM over the whole batch with the data read in place and
 * the filter packed once (Y^T = X^T W^T); other layouts run channel-major, the filter
 * read in place (forward) or packed (backward data) and the data gathered into
 * stack-resident B slices (contiguous rows for NCHW, any strides otherwise).
 * Exact on small integers; each output is one micro-kernel sum over the channels in a
 * fixed order, so results do not depend on the thread count.
 *
 * Workspace: none for forward channel-major and the GEMV paths; the transposed backward
 * data's sums (columns x channels, rounded up to 64); the ldb path's compact
 * chunk (about 1-4 MiB) and, for backward data, the packed filter; otherwise the packed
 * filter of all groups (about the filter's size). */
#include "core/registry.h"
#include "ops/conv/cpu/conv_cpu_direct_1x1.h"
#include "ops/conv/cpu/conv_cpu_panel.h"

bool pdnn_conv_1x1_family(const pdnn_conv_problem *p, pdnn_conv_dir dir, const char **why)
{
    if (!pdnn_conv_gemm_supports(p, dir, why)) return false;
    for (int d = 0; d < p->nsp; d++) {
        if (p->kern[d] != 1) {
            *why = "filter is not 1x1 (every spatial filter dim must be 1)";
            return false;
        }
        if (p->pad_b[d] != 0) {
            *why = "padding before is not 0";
            return false;
        }
        if ((p->out[d] - 1) * p->stride[d] >= p->in[d]) {
            *why = "padding after reaches an output pixel";
            return false;
        }
    }
    return true;
}

bool pdnn_conv_1x1_pixel_major(const pdnn_conv_gemm_geom *g)
{
    return g->geo.xs[1] == 1 && g->geo.ys[1] == 1;
}

/* Packed filter bytes of the pixel-major path: k x n2 B panels per group. */
static int64_t packed_b_elems(const pdnn_conv_gemm_geom *g, int64_t k, int64_t n2)
{
    return pdnn_conv_gemm_mul3(g->g, pdnn_gemm_packed_b_elems(g->uk, k, n2), 1);
}

static size_t ws_of(const pdnn_conv_problem *p, pdnn_conv_dir dir)
{
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(p, &g);
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    const int64_t cg = g.geo.cg, kg = g.geo.kg;
    if (dir == PDNN_CONV_FWD ? pdnn_conv_1x1_gemv_fwd_applies(p, &g)
                             : pdnn_conv_1x1_gemv_applies(p, &g))
        return 0; /* data and filter read in place */
    if (dir == PDNN_CONV_BWD_DATA && pdnn_conv_1x1_bwdd_t_applies(p, &g))
        return pdnn_conv_1x1_bwdd_t_workspace(&g);
    if (pdnn_conv_1x1_ldb_applies(&g)) return pdnn_conv_1x1_ldb_workspace(&g, dir);
    if (pdnn_conv_1x1_pixel_major(&g))
        pdnn_conv_gemm_take(&a, dir == PDNN_CONV_FWD ? packed_b_elems(&g, cg, kg)
                                                     : packed_b_elems(&g, kg, cg),
                            g.es);
    else if (dir == PDNN_CONV_BWD_DATA) /* W^T as A panels */
        pdnn_conv_gemm_take(&a, pdnn_conv_gemm_mul3(g.g, pdnn_gemm_packed_a_elems(g.uk, cg, kg), 1),
                            g.es);
    return pdnn_conv_gemm_arena_bytes(&a);
}

static size_t fwd_workspace(const void *prob) { return ws_of(prob, PDNN_CONV_FWD); }
static size_t bwdd_workspace(const void *prob) { return ws_of(prob, PDNN_CONV_BWD_DATA); }

static bool fwd_supports(const void *prob, const char **why)
{
    if (!pdnn_conv_1x1_family(prob, PDNN_CONV_FWD, why)) return false;
    if (fwd_workspace(prob) == SIZE_MAX) {
        *why = "workspace size overflows";
        return false;
    }
    return true;
}

static bool bwdd_supports(const void *prob, const char **why)
{
    if (!pdnn_conv_1x1_family(prob, PDNN_CONV_BWD_DATA, why)) return false;
    if (bwdd_workspace(prob) == SIZE_MAX) {
        *why = "workspace size overflows";
        return false;
    }
    return true;
}

/* Packs the filter of every group as B panels: element (kk, j) of group grp at
 * w + grp * Kg * ws0 + kk * rs + j * cs. */
static void pack_filter_b(const pdnn_conv_gemm_geom *g, const char *w, int64_t ws0, int64_t k,
                          int64_t n2, int64_t rs, int64_t cs, char *bp)
{
    const pdnn_gemm_ukernel *uk = g->uk;
    const int64_t nr = uk->nr, np = (n2 + nr - 1) / nr, es = (int64_t)g->es;
    const int64_t bgs = pdnn_gemm_packed_b_elems(uk, k, n2);
#pragma omp for schedule(static)
    for (int64_t i = 0; i < g->g * np; i++) {
        const int64_t grp = i / np, q = i % np, nn = n2 - q * nr < nr ? n2 - q * nr : nr;
        pdnn_gemm_pack_b(uk, k, nn, w + (grp * g->geo.kg * ws0 + q * nr * cs) * es, rs, cs,
                         bp + (grp * bgs + q * k * nr) * es);
    }
}

static pdnnStatus_t fwd_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *arg = args;
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(p, &g);
    if (g.ncols == 0 || g.geo.kg == 0) return PDNN_STATUS_SUCCESS; /* y has no elements */
    const pdnn_conv_geom3 *G = &g.geo;
    const int64_t cg = G->cg, kg = G->kg, ws0 = p->ws[0], ws1 = p->ws[1];
    const int nt = ctx->nthreads;
    if (pdnn_conv_1x1_gemv_fwd_applies(p, &g)) {
        pdnn_conv_1x1_gemv_fwd_run(p, &g, arg, nt);
        return PDNN_STATUS_SUCCESS;
    }
    if (pdnn_conv_1x1_ldb_applies(&g)) {
        pdnn_conv_1x1_ldb_run(p, &g, PDNN_CONV_FWD, arg, ctx->ws, nt);
        return PDNN_STATUS_SUCCESS;
    }
    if (pdnn_conv_1x1_pixel_major(&g)) {
        pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ctx->ws);
        char *bp = pdnn_conv_gemm_take(&ar, packed_b_elems(&g, cg, kg), g.es);
        const pdnn_conv_pe_pm e = {
            .g = &g, .n2 = kg, .k = cg, .src = arg->src, .s_gs = cg, .a_is_x = true,
            .bp = bp, .b_gs = pdnn_gemm_packed_b_elems(g.uk, cg, kg), .dst = arg->dst,
            .d_gs = kg, .alpha = arg->alpha, .beta = arg->beta,
        };
        const pdnn_conv_pe_tiles tl = pdnn_conv_pe_pm_tiles(&e, nt);
#pragma omp parallel num_threads(nt) if (nt > 1)
        {
            if (cg > 0) pack_filter_b(&g, arg->wei, ws0, cg, kg, ws1, ws0, bp); /* W^T */
#pragma omp for schedule(static)
            for (int64_t t = 0; t < tl.ntasks; t++) pdnn_conv_pe_pm_task(&e, &tl, t);
        }
        return PDNN_STATUS_SUCCESS;
    }
    const pdnn_conv_pe_cm e = {
        .g = &g, .m = kg, .k = cg,
        .a = arg->wei, .a_gs = kg * ws0, .a_ps = (int64_t)g.uk->mr * ws0, .a_rs = ws0, .a_cs = ws1,
        .gather = pdnn_conv_pe_gather_rows, .src = arg->src, .s_gs = cg * G->xs[1], .s_rs = G->xs[1],
        .dst = arg->dst, .d_gs = kg * G->ys[1], .d_rs = G->ys[1], .c_is_x = false,
        .alpha = arg->alpha, .beta = arg->beta,
    };
    const pdnn_conv_pe_tiles tl = pdnn_conv_pe_cm_tiles(&e, nt);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t t = 0; t < tl.ntasks; t++) pdnn_conv_pe_cm_task(&e, &tl, t);
    return PDNN_STATUS_SUCCESS;
}

/* dx = beta * dx (0 when beta == 0) at the input pixels no output reads. */
#define UNCOVERED_ROW(T)                                                                 \
    do {                                                                                 \
        T *d = (T *)dx + off;                                                            \
        const T be = (T)beta;                                                            \
        for (int64_t i2 = 0; i2 < G->in[2]; i2++) {                                      \
            if (row_hit && i2 % G->str[2] == 0 && i2 / G->str[2] < G->out[2]) continue;  \
            T *e = d + i2 * G->xs[4];                                                    \
            *e = be != 0 ? be * *e : (T)0;                                               \
        }                                                                                \
    } while (0)

static void clear_uncovered(const pdnn_conv_gemm_geom *g, char *dx, double beta)
{
    const pdnn_conv_geom3 *G = &g->geo;
    bool all = true;
    for (int d = 0; d < 3; d++) all = all && G->str[d] == 1 && G->out[d] == G->in[d];
    if (all) return;
    const int64_t rows = g->n * g->g * G->cg * G->in[0] * G->in[1];
#pragma omp for schedule(static)
    for (int64_t r = 0; r < rows; r++) {
        const int64_t i1 = r % G->in[1], i0 = (r / G->in[1]) % G->in[0];
        const int64_t c = (r / (G->in[1] * G->in[0])) % (g->g * G->cg);
        const int64_t n = r / (G->in[1] * G->in[0] * g->g * G->cg);
        const bool row_hit = i0 % G->str[0] == 0 && i0 / G->str[0] < G->out[0] &&
                             i1 % G->str[1] == 0 && i1 / G->str[1] < G->out[1];
        const int64_t off = n * G->xs[0] + c * G->xs[1] + i0 * G->xs[2] + i1 * G->xs[3];
        if (g->es == sizeof(float))
            UNCOVERED_ROW(float);
        else
            UNCOVERED_ROW(double);
    }
}

static pdnnStatus_t bwdd_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *arg = args;
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(p, &g);
    if (g.n == 0 || g.geo.cg == 0 || g.nin == 0) return PDNN_STATUS_SUCCESS; /* dx empty */
    const pdnn_conv_geom3 *G = &g.geo;
    const int64_t cg = G->cg, kg = G->kg, ws0 = p->ws[0], ws1 = p->ws[1];
    const int nt = ctx->nthreads;
    const pdnn_gemm_ukernel *uk = g.uk;
    const int64_t es = (int64_t)g.es;
    pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ctx->ws);
    if (pdnn_conv_1x1_bwdd_t_applies(p, &g)) { /* every dx pixel is written */
        pdnn_conv_1x1_bwdd_t_run(p, &g, arg, ctx->ws, nt);
        return PDNN_STATUS_SUCCESS;
    }
    if (pdnn_conv_1x1_ldb_applies(&g)) { /* every dx pixel is written */
        pdnn_conv_1x1_ldb_run(p, &g, PDNN_CONV_BWD_DATA, arg, ctx->ws, nt);
        return PDNN_STATUS_SUCCESS;
    }
    if (pdnn_conv_1x1_gemv_applies(p, &g)) {
#pragma omp parallel num_threads(nt) if (nt > 1)
        clear_uncovered(&g, arg->dst, arg->beta);
        pdnn_conv_1x1_gemv_bwdd_run(p, &g, arg, nt);
        return PDNN_STATUS_SUCCESS;
    }
    if (pdnn_conv_1x1_pixel_major(&g)) {
        char *bp = pdnn_conv_gemm_take(&ar, packed_b_elems(&g, kg, cg), g.es);
        const pdnn_conv_pe_pm e = {
            .g = &g, .n2 = cg, .k = kg, .src = arg->src, .s_gs = kg, .a_is_x = false,
            .bp = bp, .b_gs = pdnn_gemm_packed_b_elems(uk, kg, cg), .dst = arg->dst,
            .d_gs = cg, .alpha = arg->alpha, .beta = arg->beta,
        };
        const pdnn_conv_pe_tiles tl = pdnn_conv_pe_pm_tiles(&e, nt);
#pragma omp parallel num_threads(nt) if (nt > 1)
        {
            clear_uncovered(&g, arg->dst, arg->beta);
            if (kg > 0) pack_filter_b(&g, arg->wei, ws0, kg, cg, ws0, ws1, bp); /* W */
#pragma omp for schedule(static)
            for (int64_t t = 0; t < tl.ntasks; t++) pdnn_conv_pe_pm_task(&e, &tl, t);
        }
        return PDNN_STATUS_SUCCESS;
    }
    const int64_t mr = uk->mr, mp = (cg + mr - 1) / mr;
    const int64_t agsz = pdnn_gemm_packed_a_elems(uk, cg, kg);
    char *ap = pdnn_conv_gemm_take(&ar, pdnn_conv_gemm_mul3(g.g, agsz, 1), g.es);
    const pdnn_conv_pe_cm e = {
        .g = &g, .m = cg, .k = kg,
        .a = ap, .a_gs = agsz, .a_ps = kg * mr, .a_rs = 1, .a_cs = mr,
        .gather = pdnn_conv_pe_gather_rows, .src = arg->src, .s_gs = kg * G->ys[1], .s_rs = G->ys[1],
        .dst = arg->dst, .d_gs = cg * G->xs[1], .d_rs = G->xs[1], .c_is_x = true,
        .alpha = arg->alpha, .beta = arg->beta,
    };
    const pdnn_conv_pe_tiles tl = pdnn_conv_pe_cm_tiles(&e, nt);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        clear_uncovered(&g, arg->dst, arg->beta);
        if (kg > 0) {
#pragma omp for schedule(static)
            for (int64_t i = 0; i < g.g * mp; i++) { /* A = W_g^T: rows c, columns k */
                const int64_t grp = i / mp, q = i % mp;
                const int64_t rows = cg - q * mr < mr ? cg - q * mr : mr;
                pdnn_gemm_pack_a(uk, rows, kg, (const char *)arg->wei + (grp * kg * ws0 + q * mr * ws1) * es,
                                 ws1, ws0, ap + (grp * agsz + q * mr * kg) * es);
            }
        }
#pragma omp for schedule(static)
        for (int64_t t = 0; t < tl.ntasks; t++) pdnn_conv_pe_cm_task(&e, &tl, t);
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_fwd_cpu_direct_1x1 = {
    "cpu:direct_1x1", PDNN_CONVOLUTION_FWD_ALGO_DIRECT, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, fwd_supports, fwd_workspace, fwd_exec,
};

const pdnn_impl pdnn_conv_bwd_data_cpu_direct_1x1 = {
    "cpu:direct_1x1", PDNN_CONVOLUTION_BWD_DATA_ALGO_0, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, bwdd_supports, bwdd_workspace, bwdd_exec,
};
