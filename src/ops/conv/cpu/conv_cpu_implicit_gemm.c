/* Forward convolution as an implicit GEMM with no workspace ("cpu:implicit_gemm",
 * PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM).
 *
 * The GEMM of conv_cpu_gemm.h, Y_g[Kg x N*P] = W_g[Kg x T] * col_g[T x N*P], without the
 * im2col matrix: the channel-major panel engine (conv_cpu_panel.h) gathers each
 * KC x NR slice of col_g from x into a stack buffer (at most 64 KiB) right before the
 * micro-kernel reads it, the taps of the slice decoded on the fly in the filter's
 * memory order (padding as zeros); the filter is read in place (a row-major Kg x T
 * matrix, unit column stride, as the micro-kernel's A). Each column panel's slice feeds
 * every filter row of a task block, the rows kept in L2.
 * The family is the GEMM algorithm's (pdnn_conv_gemm_supports): 1-3 spatial dims,
 * groups, any stride, dilation and padding, convolution or cross-correlation, FLOAT or
 * DOUBLE accumulated in the data type, packed KCRS or KRSC filter, any tensor strides.
 * Exact on small integers; each output is one micro-kernel sum in fixed K blocks, so
 * results do not depend on the thread count.
 *
 * Workspace: none. */
#include "core/registry.h"
#include "ops/conv/cpu/conv_cpu_panel.h"

static bool ig_supports(const void *prob, const char **why)
{
    return pdnn_conv_gemm_supports(prob, PDNN_CONV_FWD, why);
}

/* None (a function rather than NULL: tu_conv_api_check calls it). */
static size_t ig_workspace(const void *prob)
{
    (void)prob;
    return 0;
}

static void ig_gather(const pdnn_conv_pe_cm *e, int64_t grp, const pdnn_conv_pe_cols *c,
                      int64_t k0, int64_t kc, void *dst)
{
    pdnn_conv_gemm_tap tab[PDNN_GEMM_KC];
    pdnn_conv_gemm_taps_range(e->aux, e->g, k0, kc, tab);
    pdnn_conv_pe_gather_taps(e->g, e->src + grp * e->s_gs * (int64_t)e->g->es, c, tab, kc, dst);
}

static pdnnStatus_t ig_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *arg = args;
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(p, &g);
    if (g.ncols == 0 || g.geo.kg == 0) return PDNN_STATUS_SUCCESS; /* y has no elements */
    const int64_t T = g.taps, kg = g.geo.kg;
    const pdnn_conv_pe_cm e = {
        .g = &g, .m = kg, .k = T,
        .a = arg->wei, .a_gs = kg * T, .a_ps = (int64_t)g.uk->mr * T, .a_rs = T, .a_cs = 1,
        .gather = ig_gather, .src = arg->src, .s_gs = g.geo.cg * g.geo.xs[1], .aux = p,
        .dst = arg->dst, .d_gs = kg * g.geo.ys[1], .d_rs = g.geo.ys[1], .c_is_x = false,
        .alpha = arg->alpha, .beta = arg->beta,
    };
    const int nt = ctx->nthreads;
    const pdnn_conv_pe_tiles tl = pdnn_conv_pe_cm_tiles(&e, nt);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t t = 0; t < tl.ntasks; t++) pdnn_conv_pe_cm_task(&e, &tl, t);
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_fwd_cpu_implicit_gemm = {
    "cpu:implicit_gemm", PDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, ig_supports, ig_workspace, ig_exec,
};
