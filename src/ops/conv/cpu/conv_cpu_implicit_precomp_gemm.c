/* Forward convolution as an implicit GEMM over precomputed indices
 * ("cpu:implicit_precomp_gemm", PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM).
 *
 * The GEMM of conv_cpu_gemm.h, Y_g[Kg x N*P] = W_g[Kg x T] * col_g[T x N*P], without the
 * im2col matrix, as cpu:implicit_gemm, with its index work done once per call in the
 * workspace: the tap table (x offset and spatial offsets of each of the T taps, in the
 * filter's memory order), the pixel table (for each of the P output pixels of an image,
 * the offset and coordinates in x of its first tap, whether all its taps lie inside x,
 * and its offset in y) and the filter packed as GEMM A panels. The channel-major panel
 * engine (conv_cpu_panel.h) then gathers each KC x NR slice of col_g through the two
 * tables into a stack buffer right before the micro-kernel reads it.
 * The family is the GEMM algorithm's (pdnn_conv_gemm_supports). Exact on small
 * integers; each output is one micro-kernel sum in fixed K blocks, so results do not
 * depend on the thread count.
 *
 * Workspace: T tap entries (32 bytes), P pixel entries (48 bytes), the packed filter
 * (about K * T elements). */
#include "core/registry.h"
#include "ops/conv/cpu/conv_cpu_panel.h"

typedef struct {
    int64_t xoff, yoff; /* image-relative x offset of tap 0 (channel 0), y offset */
    int64_t c[3];       /* coordinates of tap 0 (may lie in the padding) */
    int64_t interior;   /* every tap inside x */
} pix_entry;

typedef struct {
    pdnn_conv_gemm_tap *tab;
    pix_entry *pix;
    char *ap; /* packed W: group g at ap + g * a_gs elements */
} ipc_bufs;

static void ipc_layout(const pdnn_conv_gemm_geom *g, pdnn_conv_gemm_arena *a, ipc_bufs *b)
{
    b->tab = pdnn_conv_gemm_take(a, g->taps, sizeof(pdnn_conv_gemm_tap));
    b->pix = pdnn_conv_gemm_take(a, g->npix, sizeof(pix_entry));
    b->ap = pdnn_conv_gemm_take(
        a, pdnn_conv_gemm_mul3(g->g, pdnn_gemm_packed_a_elems(g->uk, g->geo.kg, g->taps), 1), g->es);
}

static size_t ipc_workspace(const void *prob)
{
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(prob, &g);
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    ipc_bufs b;
    ipc_layout(&g, &a, &b);
    return pdnn_conv_gemm_arena_bytes(&a);
}

static bool ipc_supports(const void *prob, const char **why)
{
    if (!pdnn_conv_gemm_supports(prob, PDNN_CONV_FWD, why)) return false;
    if (ipc_workspace(prob) == SIZE_MAX) {
        *why = "workspace size overflows";
        return false;
    }
    return true;
}

typedef struct {
    const pdnn_conv_gemm_tap *tab;
    const pix_entry *pix;
} ipc_aux;

/* Columns from the pixel table. */
static void ipc_cols(const pdnn_conv_pe_cm *e, int64_t col0, int64_t n, pdnn_conv_pe_cols *c)
{
    const ipc_aux *ax = e->aux;
    const pdnn_conv_geom3 *G = &e->g->geo;
    const int64_t P = e->g->npix;
    int64_t img = col0 / P, p = col0 % P;
    bool interior = true;
    c->n = n;
    for (int64_t j = 0; j < n; j++) {
        const pix_entry *q = &ax->pix[p];
        c->xo[j] = img * G->xs[0] + q->xoff;
        c->yo[j] = img * G->ys[0] + q->yoff;
        for (int d = 0; d < 3; d++) c->xc[d][j] = q->c[d];
        interior = interior && q->interior;
        if (++p == P) {
            p = 0;
            img++;
        }
    }
    c->interior = interior;
}

static void ipc_gather(const pdnn_conv_pe_cm *e, int64_t grp, const pdnn_conv_pe_cols *c,
                       int64_t k0, int64_t kc, void *dst)
{
    const ipc_aux *ax = e->aux;
    pdnn_conv_pe_gather_taps(e->g, e->src + grp * e->s_gs * (int64_t)e->g->es, c, ax->tab + k0,
                             kc, dst);
}

static pdnnStatus_t ipc_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *arg = args;
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(p, &g);
    if (g.ncols == 0 || g.geo.kg == 0) return PDNN_STATUS_SUCCESS; /* y has no elements */
    pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ctx->ws);
    ipc_bufs b;
    ipc_layout(&g, &ar, &b);
    const pdnn_gemm_ukernel *uk = g.uk;
    const int64_t T = g.taps, kg = g.geo.kg, mr = uk->mr, mp = (kg + mr - 1) / mr;
    const int64_t es = (int64_t)g.es, agsz = pdnn_gemm_packed_a_elems(uk, kg, T);
    const pdnn_conv_geom3 *G = &g.geo;
    pdnn_conv_gemm_taps(p, &g, b.tab);
    const ipc_aux ax = {b.tab, b.pix};
    const pdnn_conv_pe_cm e = {
        .g = &g, .m = kg, .k = T,
        .a = b.ap, .a_gs = agsz, .a_ps = mr * T, .a_rs = 1, .a_cs = mr,
        .gather = ipc_gather, .src = arg->src, .s_gs = G->cg * G->xs[1], .aux = &ax,
        .dst = arg->dst, .d_gs = kg * G->ys[1], .d_rs = G->ys[1], .c_is_x = false,
        .alpha = arg->alpha, .beta = arg->beta, .cols = ipc_cols,
    };
    const int nt = ctx->nthreads;
    const pdnn_conv_pe_tiles tl = pdnn_conv_pe_cm_tiles(&e, nt);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
#pragma omp for schedule(static)
        for (int64_t q = 0; q < g.npix; q++) {
            int64_t o[3];
            pdnn_conv_gemm_pix(&g, q, o);
            pix_entry *en = &b.pix[q];
            en->xoff = 0;
            en->yoff = 0;
            en->interior = 1;
            for (int d = 0; d < 3; d++) {
                en->c[d] = o[d] * G->str[d] - G->pad[d];
                en->xoff += en->c[d] * G->xs[2 + d];
                en->yoff += o[d] * G->ys[2 + d];
                if (en->c[d] < 0 || en->c[d] + (G->kern[d] - 1) * G->dil[d] >= G->in[d])
                    en->interior = 0;
            }
        }
#pragma omp for schedule(static)
        for (int64_t i = 0; i < (T > 0 ? g.g * mp : 0); i++) {
            const int64_t grp = i / mp, q = i % mp;
            const int64_t rows = kg - q * mr < mr ? kg - q * mr : mr;
            pdnn_gemm_pack_a(uk, rows, T, (const char *)arg->wei + (grp * kg + q * mr) * T * es, T,
                             1, b.ap + (grp * agsz + q * mr * T) * es);
        }
#pragma omp for schedule(static)
        for (int64_t t = 0; t < tl.ntasks; t++) pdnn_conv_pe_cm_task(&e, &tl, t);
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_fwd_cpu_implicit_precomp_gemm = {
    "cpu:implicit_precomp_gemm", PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM,
    PDNN_ISA_SCALAR, PDNN_IMPL_DETERMINISTIC, ipc_supports, ipc_workspace, ipc_exec,
};
