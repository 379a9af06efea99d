/* The convolution reference: plain loops for every problem the API accepts (1-d, 2-d,
 * 3-d; groups; stride, dilation, asymmetric padding; convolution or cross-correlation;
 * any strides of x and y; KCRS or KRSC filters; FLOAT or DOUBLE data). Every output
 * element is one sum accumulated in double in a fixed order, and threads split the
 * outputs only, so results do not depend on the thread count.
 *
 * Also the two plain loops the API uses around convolution: the backward bias
 * reduction and the bias + activation epilogue of ConvolutionBiasActivationForward. */
#include "core/dtype.h"
#include "ops/act/act_math.h"
#include "ops/conv/conv_internal.h"

typedef pdnn_conv_geom3 geom;

/* Filter offset of tap (t0, t1, t2) as stored: flipped for PDNN_CONVOLUTION. */
static inline int64_t w_off(const geom *g, bool flip, int64_t k, int64_t c, int64_t t0,
                            int64_t t1, int64_t t2)
{
    if (flip) {
        t0 = g->kern[0] - 1 - t0;
        t1 = g->kern[1] - 1 - t1;
        t2 = g->kern[2] - 1 - t2;
    }
    return k * g->ws[0] + c * g->ws[1] + t0 * g->ws[2] + t1 * g->ws[3] + t2 * g->ws[4];
}

static bool ref_supports(const void *prob, const char **why)
{
    const pdnn_conv_problem *p = prob;
    if (p->nsp < 1 || p->nsp > PDNN_CONV_SP_MAX) {
        *why = "spatial rank outside 1..3";
        return false;
    }
    if (p->dtype != PDNN_DATA_FLOAT && p->dtype != PDNN_DATA_DOUBLE) {
        *why = "data type other than FLOAT or DOUBLE";
        return false;
    }
    return true;
}

/* y[n,k,o] = sum_{c, taps} x[n, g*Cg + c, o*s - pad + tap*dil] * w[k, c, tap]. */
static pdnnStatus_t fwd_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *a = args;
    geom g;
    pdnn_conv_widen(p, &g);
    const pdnnDataType_t t = p->dtype;
    const bool flip = p->flip;
    const int64_t o0 = g.out[0], o1 = g.out[1], o2 = g.out[2];
    const int64_t total = p->n * p->k * o0 * o1 * o2;

#pragma omp parallel for num_threads(ctx->nthreads) schedule(static)
    for (int64_t idx = 0; idx < total; idx++) {
        int64_t r = idx;
        const int64_t q = r % o2;
        r /= o2;
        const int64_t pp = r % o1;
        r /= o1;
        const int64_t od = r % o0;
        r /= o0;
        const int64_t k = r % p->k;
        const int64_t n = r / p->k;
        const int64_t grp = k / g.kg;
        double acc = 0.0;
        for (int64_t c = 0; c < g.cg; c++) {
            const int64_t xb = n * g.xs[0] + (grp * g.cg + c) * g.xs[1];
            for (int64_t t0 = 0; t0 < g.kern[0]; t0++) {
                const int64_t i0 = od * g.str[0] - g.pad[0] + t0 * g.dil[0];
                if (i0 < 0 || i0 >= g.in[0]) continue;
                for (int64_t t1 = 0; t1 < g.kern[1]; t1++) {
                    const int64_t i1 = pp * g.str[1] - g.pad[1] + t1 * g.dil[1];
                    if (i1 < 0 || i1 >= g.in[1]) continue;
                    for (int64_t t2 = 0; t2 < g.kern[2]; t2++) {
                        const int64_t i2 = q * g.str[2] - g.pad[2] + t2 * g.dil[2];
                        if (i2 < 0 || i2 >= g.in[2]) continue;
                        const int64_t xo = xb + i0 * g.xs[2] + i1 * g.xs[3] + i2 * g.xs[4];
                        acc += pdnn_ld(a->src, t, xo) *
                               pdnn_ld(a->wei, t, w_off(&g, flip, k, c, t0, t1, t2));
                    }
                }
            }
        }
        const int64_t yo = n * g.ys[0] + k * g.ys[1] + od * g.ys[2] + pp * g.ys[3] + q * g.ys[4];
        pdnn_blend(a->dst, t, yo, a->alpha, acc, a->beta);
    }
    return PDNN_STATUS_SUCCESS;
}

/* dx[n,ci,i] = sum_{k in ci's group, taps : i = o*s - pad + tap*dil} dy[n,k,o] * w[k,c,tap]. */
static pdnnStatus_t bwd_data_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *a = args;
    geom g;
    pdnn_conv_widen(p, &g);
    const pdnnDataType_t t = p->dtype;
    const bool flip = p->flip;
    const int64_t n0 = g.in[0], n1 = g.in[1], n2 = g.in[2];
    const int64_t total = p->n * p->c * n0 * n1 * n2;

#pragma omp parallel for num_threads(ctx->nthreads) schedule(static)
    for (int64_t idx = 0; idx < total; idx++) {
        int64_t r = idx;
        const int64_t i2 = r % n2;
        r /= n2;
        const int64_t i1 = r % n1;
        r /= n1;
        const int64_t i0 = r % n0;
        r /= n0;
        const int64_t ci = r % p->c;
        const int64_t n = r / p->c;
        const int64_t grp = ci / g.cg, c = ci % g.cg;
        double acc = 0.0;
        for (int64_t kk = 0; kk < g.kg; kk++) {
            const int64_t k = grp * g.kg + kk;
            const int64_t yb = n * g.ys[0] + k * g.ys[1];
            for (int64_t t0 = 0; t0 < g.kern[0]; t0++) {
                const int64_t u0 = i0 + g.pad[0] - t0 * g.dil[0];
                if (u0 < 0 || u0 % g.str[0]) continue;
                const int64_t od = u0 / g.str[0];
                if (od >= g.out[0]) continue;
                for (int64_t t1 = 0; t1 < g.kern[1]; t1++) {
                    const int64_t u1 = i1 + g.pad[1] - t1 * g.dil[1];
                    if (u1 < 0 || u1 % g.str[1]) continue;
                    const int64_t oh = u1 / g.str[1];
                    if (oh >= g.out[1]) continue;
                    for (int64_t t2 = 0; t2 < g.kern[2]; t2++) {
                        const int64_t u2 = i2 + g.pad[2] - t2 * g.dil[2];
                        if (u2 < 0 || u2 % g.str[2]) continue;
                        const int64_t ow = u2 / g.str[2];
                        if (ow >= g.out[2]) continue;
                        const int64_t yo = yb + od * g.ys[2] + oh * g.ys[3] + ow * g.ys[4];
                        acc += pdnn_ld(a->src, t, yo) *
                               pdnn_ld(a->wei, t, w_off(&g, flip, k, c, t0, t1, t2));
                    }
                }
            }
        }
        const int64_t xo = n * g.xs[0] + ci * g.xs[1] + i0 * g.xs[2] + i1 * g.xs[3] + i2 * g.xs[4];
        pdnn_blend(a->dst, t, xo, a->alpha, acc, a->beta);
    }
    return PDNN_STATUS_SUCCESS;
}

/* dw[k,c,tap] = sum_{n, o} x[n, g*Cg + c, o*s - pad + tap*dil] * dy[n,k,o], where tap is
 * the filter index as stored, un-flipped for PDNN_CONVOLUTION. */
static pdnnStatus_t bwd_filter_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *a = args;
    geom g;
    pdnn_conv_widen(p, &g);
    const pdnnDataType_t t = p->dtype;
    const bool flip = p->flip;
    const int64_t k0 = g.kern[0], k1 = g.kern[1], k2 = g.kern[2];
    const int64_t total = p->k * g.cg * k0 * k1 * k2;

#pragma omp parallel for num_threads(ctx->nthreads) schedule(static)
    for (int64_t idx = 0; idx < total; idx++) {
        int64_t r = idx;
        const int64_t j2 = r % k2;
        r /= k2;
        const int64_t j1 = r % k1;
        r /= k1;
        const int64_t j0 = r % k0;
        r /= k0;
        const int64_t c = r % g.cg;
        const int64_t k = r / g.cg;
        const int64_t ci = (k / g.kg) * g.cg + c;
        /* spatial tap that the stored index j multiplies */
        const int64_t t0 = flip ? k0 - 1 - j0 : j0;
        const int64_t t1 = flip ? k1 - 1 - j1 : j1;
        const int64_t t2 = flip ? k2 - 1 - j2 : j2;
        double acc = 0.0;
        for (int64_t n = 0; n < p->n; n++) {
            const int64_t xb = n * g.xs[0] + ci * g.xs[1];
            const int64_t yb = n * g.ys[0] + k * g.ys[1];
            for (int64_t od = 0; od < g.out[0]; od++) {
                const int64_t i0 = od * g.str[0] - g.pad[0] + t0 * g.dil[0];
                if (i0 < 0 || i0 >= g.in[0]) continue;
                for (int64_t oh = 0; oh < g.out[1]; oh++) {
                    const int64_t i1 = oh * g.str[1] - g.pad[1] + t1 * g.dil[1];
                    if (i1 < 0 || i1 >= g.in[1]) continue;
                    for (int64_t ow = 0; ow < g.out[2]; ow++) {
                        const int64_t i2 = ow * g.str[2] - g.pad[2] + t2 * g.dil[2];
                        if (i2 < 0 || i2 >= g.in[2]) continue;
                        acc += pdnn_ld(a->src, t, xb + i0 * g.xs[2] + i1 * g.xs[3] + i2 * g.xs[4]) *
                               pdnn_ld(a->wei, t, yb + od * g.ys[2] + oh * g.ys[3] + ow * g.ys[4]);
                    }
                }
            }
        }
        const int64_t wo = k * g.ws[0] + c * g.ws[1] + j0 * g.ws[2] + j1 * g.ws[3] + j2 * g.ws[4];
        pdnn_blend(a->dst, t, wo, a->alpha, acc, a->beta);
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_fwd_ref_direct = {
    .name = "ref:direct",
    .algo = PDNN_CONVOLUTION_FWD_ALGO_DIRECT,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = ref_supports,
    .workspace = NULL,
    .exec = fwd_exec,
};

const pdnn_impl pdnn_conv_bwd_data_ref_direct = {
    .name = "ref:direct",
    .algo = PDNN_CONVOLUTION_BWD_DATA_ALGO_0,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = ref_supports,
    .workspace = NULL,
    .exec = bwd_data_exec,
};

const pdnn_impl pdnn_conv_bwd_filter_ref_direct = {
    .name = "ref:direct",
    .algo = PDNN_CONVOLUTION_BWD_FILTER_ALGO_0,
    .min_isa = PDNN_ISA_SCALAR,
    .props = PDNN_IMPL_DETERMINISTIC,
    .supports = ref_supports,
    .workspace = NULL,
    .exec = bwd_filter_exec,
};

/* ------------------------------------------------------------------ bias */

/* Offset of element `rest` (row-major over dims 2..nb-1) of (n, c) in d. */
static inline int64_t off_nc(const struct pdnnTensorStruct *d, int64_t n, int64_t c,
                             int64_t rest)
{
    int64_t off = n * d->stride[0] + c * d->stride[1];
    for (int i = d->nbDims - 1; i >= 2; i--) {
        off += (rest % d->dim[i]) * d->stride[i];
        rest /= d->dim[i];
    }
    return off;
}

static int64_t spatial_count(const struct pdnnTensorStruct *d)
{
    int64_t s = 1;
    for (int i = 2; i < d->nbDims; i++) s *= d->dim[i];
    return s;
}

void pdnn_conv_ref_bwd_bias(const struct pdnnTensorStruct *dyd, const void *dy,
                            const struct pdnnTensorStruct *dbd, void *db, double alpha,
                            double beta, int nthreads)
{
    const pdnnDataType_t t = dyd->dtype;
    const int64_t nb = dyd->dim[0], kk = dyd->dim[1], sp = spatial_count(dyd);

#pragma omp parallel for num_threads(nthreads) schedule(static)
    for (int64_t k = 0; k < kk; k++) {
        double acc = 0.0;
        for (int64_t n = 0; n < nb; n++)
            for (int64_t s = 0; s < sp; s++) acc += pdnn_ld(dy, t, off_nc(dyd, n, k, s));
        pdnn_blend(db, t, k * dbd->stride[1], alpha, acc, beta);
    }
}

void pdnn_conv_ref_bias_act(const struct pdnnTensorStruct *yd, void *y,
                            const struct pdnnTensorStruct *zd, const void *z, double alpha2,
                            const struct pdnnTensorStruct *bd, const void *bias,
                            const struct pdnnActivationStruct *act, int nthreads)
{
    const pdnnDataType_t t = yd->dtype;
    const pdnn_act_params ap = pdnn_act_params_of(act);
    const int64_t kk = yd->dim[1], sp = spatial_count(yd);
    const int64_t total = yd->dim[0] * kk * sp;

#pragma omp parallel for num_threads(nthreads) schedule(static)
    for (int64_t idx = 0; idx < total; idx++) {
        const int64_t s = idx % sp, k = (idx / sp) % kk, n = idx / (sp * kk);
        const int64_t yo = off_nc(yd, n, k, s);
        double v = pdnn_ld(y, t, yo);
        if (z) v += alpha2 * pdnn_ld(z, t, off_nc(zd, n, k, s));
        v += pdnn_ld(bias, t, k * bd->stride[1]);
        pdnn_st(y, t, yo, pdnn_act_fwd(&ap, v));
    }
}
