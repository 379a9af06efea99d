/* Convolution entry points: forward, backward data, backward filter, backward bias,
 * bias + activation forward, and the workspace queries. Each validates every argument
 * before touching memory, builds the problem, dispatches and runs. The algorithm
 * queries (Get_v7, Find, FindEx) are in conv_find.c. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/alias.h"
#include "core/conv_desc.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/log.h"
#include "ops/conv/conv_impls.h"
#include "ops/conv/conv_internal.h"

typedef struct pdnnTensorStruct tensor_t;
typedef struct pdnnFilterStruct filter_t;

/* ------------------------------------------------------------------ lists */

const pdnn_impl *const *pdnn_conv_impl_list(pdnn_conv_dir dir)
{
    switch (dir) {
    case PDNN_CONV_FWD: return pdnn_conv_fwd_impls;
    case PDNN_CONV_BWD_DATA: return pdnn_conv_bwd_data_impls;
    case PDNN_CONV_BWD_FILTER: return pdnn_conv_bwd_filter_impls;
    }
    return pdnn_conv_fwd_impls;
}

int pdnn_conv_algo_count(pdnn_conv_dir dir)
{
    switch (dir) {
    case PDNN_CONV_FWD: return PDNN_CONVOLUTION_FWD_ALGO_COUNT;
    case PDNN_CONV_BWD_DATA: return PDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT;
    case PDNN_CONV_BWD_FILTER: return PDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT;
    }
    return 0;
}

const pdnn_impl *pdnn_conv_find_impl(pdnn_conv_dir dir, int algo, const pdnn_conv_problem *p,
                                     const char **why)
{
    pdnn_isa isa = pdnn_cpu_isa();
    *why = "pdnn has no implementation of this algorithm";
    for (const pdnn_impl *const *e = pdnn_conv_impl_list(dir); *e; e++) {
        if ((*e)->algo != algo) continue;
        const char *w = NULL;
        if ((*e)->min_isa > isa)
            w = "needs a wider ISA than this CPU runs";
        else if ((*e)->supports(p, &w))
            return *e;
        *why = w ? w : "problem not supported";
    }
    return NULL;
}

static const char *const fwd_algo_names[] = {
    "IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM", "DIRECT",
    "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED"};
/* the backward names follow "PDNN_CONVOLUTION_BWD_DATA_" / "..._BWD_FILTER_" */
static const char *const bwd_data_algo_names[] = {"ALGO_0", "ALGO_1", "ALGO_FFT",
                                                  "ALGO_FFT_TILING", "ALGO_WINOGRAD",
                                                  "ALGO_WINOGRAD_NONFUSED"};
static const char *const bwd_filter_algo_names[] = {
    "ALGO_0", "ALGO_1", "ALGO_FFT", "ALGO_3", "ALGO_WINOGRAD", "ALGO_WINOGRAD_NONFUSED",
    "ALGO_FFT_TILING"};

static const char *algo_name(pdnn_conv_dir dir, int algo)
{
    if (algo < 0 || algo >= pdnn_conv_algo_count(dir)) return "?";
    switch (dir) {
    case PDNN_CONV_FWD: return fwd_algo_names[algo];
    case PDNN_CONV_BWD_DATA: return bwd_data_algo_names[algo];
    case PDNN_CONV_BWD_FILTER: return bwd_filter_algo_names[algo];
    }
    return "?";
}

static const char *algo_prefix(pdnn_conv_dir dir)
{
    return dir == PDNN_CONV_FWD        ? "PDNN_CONVOLUTION_FWD_ALGO_"
           : dir == PDNN_CONV_BWD_DATA ? "PDNN_CONVOLUTION_BWD_DATA_"
                                       : "PDNN_CONVOLUTION_BWD_FILTER_";
}

/* BAD_PARAM for a value outside the enum; NOT_SUPPORTED for an algorithm pdnn does not
 * implement (the message lists those it does). */
static pdnnStatus_t check_algo(pdnn_conv_dir dir, int algo, const char *func)
{
    int count = pdnn_conv_algo_count(dir);
    const char *prefix = algo_prefix(dir);
    if (algo < 0 || algo >= count)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "algo %d is not a valid %s* value (0..%d)", algo, prefix, count - 1);
    const pdnn_impl *const *list = pdnn_conv_impl_list(dir);
    for (const pdnn_impl *const *e = list; *e; e++)
        if ((*e)->algo == algo) return PDNN_STATUS_SUCCESS;
    char have[256];
    size_t off = 0;
    have[0] = '\0';
    for (int a = 0; a < count; a++) {
        bool served = false;
        for (const pdnn_impl *const *e = list; *e; e++) served = served || (*e)->algo == a;
        if (!served || off >= sizeof have) continue;
        int r = snprintf(have + off, sizeof have - off, "%s%s", off ? ", " : "",
                         algo_name(dir, a));
        if (r > 0) off += (size_t)r;
    }
    return pdnn_error(PDNN_STATUS_NOT_SUPPORTED, func,
                      "algo %s%s (%d) is not implemented by pdnn; implemented: %s", prefix,
                      algo_name(dir, algo), algo, have);
}

/* ------------------------------------------------------------------ validation */

static pdnnStatus_t check_ws(const void *ws, size_t bytes, const char *func)
{
    if (ws == NULL && bytes > 0)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, func,
                          "workSpace is NULL but workSpaceSizeInBytes is %zu", bytes);
    return PDNN_STATUS_SUCCESS;
}

/* SHAPE_MISMATCH unless bias b is 1 x K x 1 ... 1 with y's rank and K = y's channels. */
static pdnnStatus_t check_bias_shape(const tensor_t *b, const char *bname, const tensor_t *y,
                                     const char *yname, const char *func)
{
    bool ok = b->nbDims == y->nbDims;
    for (int i = 0; ok && i < b->nbDims; i++) ok = b->dim[i] == (i == 1 ? y->dim[1] : 1);
    if (!ok) {
        char sb[160], sy[160];
        pdnn_tensor_str(b, sb, sizeof sb);
        pdnn_tensor_str(y, sy, sizeof sy);
        return pdnn_error(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, func,
                          "%s (%s) must be 1 x %lld with all other dims 1, of the rank of "
                          "%s (%s)",
                          bname, sb, (long long)y->dim[1], yname, sy);
    }
    return PDNN_STATUS_SUCCESS;
}

static void dims_str(const int64_t *d, int nb, char *buf, size_t n)
{
    size_t off = 0;
    buf[0] = '\0';
    for (int i = 0; i < nb && off < n; i++) {
        int r = snprintf(buf + off, n - off, "%s%lld", i ? "x" : "", (long long)d[i]);
        if (r < 0) return;
        off += (size_t)r;
    }
}

pdnnStatus_t pdnn_conv_problem_from(const char *func, pdnn_conv_dir dir, const tensor_t *x,
                                    const char *xname, const filter_t *w, const char *wname,
                                    const struct pdnnConvolutionStruct *cd, const tensor_t *y,
                                    const char *yname, pdnn_conv_problem *p)
{
    if (dir == PDNN_CONV_BWD_DATA)
        PDNN_TRY(pdnn_check_output_tensor(x, func, xname));
    else
        PDNN_TRY(pdnn_check_tensor(x, func, xname));
    PDNN_TRY(pdnn_check_filter(w, func, wname));
    PDNN_TRY(pdnn_check_convolution(cd, func, "convDesc"));
    if (dir == PDNN_CONV_FWD)
        PDNN_TRY(pdnn_check_output_tensor(y, func, yname));
    else
        PDNN_TRY(pdnn_check_tensor(y, func, yname));

    /* data types */
    PDNN_TRY(pdnn_check_same_dtype(x, xname, y, yname, func));
    if (w->dtype != x->dtype)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "%s has data type %s but %s has %s; they must match", wname,
                          pdnn_dtype_name(w->dtype), xname, pdnn_dtype_name(x->dtype));
    PDNN_TRY(pdnn_check_compute_dtype(x->dtype, func, xname));
    pdnnDataType_t ct = cd->compute_type;
    if (!(ct == x->dtype || (x->dtype == PDNN_DATA_FLOAT && ct == PDNN_DATA_DOUBLE)))
        return pdnn_error(PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, func,
                          "convDesc computeType %s cannot accumulate %s data (FLOAT data "
                          "accumulates in FLOAT or DOUBLE, DOUBLE data in DOUBLE)",
                          pdnn_dtype_name(ct), pdnn_dtype_name(x->dtype));

    /* shapes */
    int64_t out[PDNN_DIM_MAX];
    PDNN_TRY(pdnn_conv_output_dims(cd, x, xname, w, wname, out, func));
    int nsp = cd->nbSpatial;
    if (nsp > PDNN_CONV_SP_MAX)
        return pdnn_error(PDNN_STATUS_NOT_SUPPORTED_SHAPE, func,
                          "convDesc has %d spatial dims; pdnn computes 1-d, 2-d and 3-d "
                          "convolutions",
                          nsp);
    bool same = y->nbDims == x->nbDims;
    for (int i = 0; same && i < x->nbDims; i++) same = y->dim[i] == out[i];
    if (!same) {
        char sy[96], so[96], sx[96], sw[96];
        dims_str(y->dim, y->nbDims, sy, sizeof sy);
        dims_str(out, x->nbDims, so, sizeof so);
        dims_str(x->dim, x->nbDims, sx, sizeof sx);
        dims_str(w->dim, w->nbDims, sw, sizeof sw);
        return pdnn_error(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, func,
                          "%s is %s but the convolution of %s (%s) by %s (%s) gives %s", yname,
                          sy, xname, sx, wname, sw, so);
    }

    memset(p, 0, sizeof *p);
    p->dir = dir;
    p->dtype = x->dtype;
    p->compute = ct;
    p->nsp = nsp;
    p->n = x->dim[0];
    p->g = cd->groups;
    p->c = x->dim[1];
    p->k = w->dim[0];
    for (int i = 0; i < nsp; i++) {
        p->in[i] = x->dim[2 + i];
        p->kern[i] = w->dim[2 + i];
        p->out[i] = out[2 + i];
        p->stride[i] = cd->stride[i];
        p->dil[i] = cd->dilation[i];
        p->pad_b[i] = cd->pad_begin[i];
        p->pad_e[i] = cd->pad_end[i];
    }
    p->flip = cd->mode == PDNN_CONVOLUTION;
    for (int i = 0; i < nsp + 2; i++) p->xs[i] = x->stride[i], p->ys[i] = y->stride[i];
    tensor_t wt;
    pdnn_filter_as_tensor(w, &wt);
    for (int i = 0; i < nsp + 2; i++) p->ws[i] = wt.stride[i];
    p->wfmt = w->format;
    return PDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ running */

size_t pdnn_conv_workspace(const pdnn_impl *impl, const pdnn_conv_problem *p)
{
    return p->n == 0 ? 0 : pdnn_impl_workspace(impl, p);
}

pdnnStatus_t pdnn_conv_exec(const pdnn_impl *impl, const pdnn_conv_problem *p,
                            const pdnn_conv_args *a, int nthreads, void *ws, size_t ws_bytes)
{
    if (p->n == 0) {
        if (p->dir == PDNN_CONV_BWD_FILTER) { /* the gradient is an empty sum */
            int64_t numel = p->k * (p->c / p->g);
            for (int i = 0; i < p->nsp; i++) numel *= p->kern[i];
            for (int64_t i = 0; i < numel; i++) pdnn_blend(a->dst, p->dtype, i, a->alpha, 0.0, a->beta);
        }
        return PDNN_STATUS_SUCCESS;
    }
    /* A second thread only where one thread would take more than a few microseconds: a
     * parallel region costs ~1-2 us to open and join. The estimate takes the slower of
     * the products (~80 GMAC/s dense, ~8 with at most 4 input channels a group:
     * depthwise planes are read at a few products a load) and the tensors' bytes (~20
     * GB/s, one pass): a minibatch-1 fully connected layer reads its 1.6 MB of weights
     * in ~80 us for 0.4 M products, a minibatch-1 depthwise layer of 0.25 M products
     * takes ~25 us. Every implementation gives the same bits for any thread count. */
    const double cg = (double)(p->c / p->g);
    double mac = (double)p->n * (double)p->k * cg, xn = (double)p->n * (double)p->c,
           yn = (double)p->n * (double)p->k, wn = (double)p->k * cg;
    for (int i = 0; i < p->nsp; i++) {
        mac *= (double)p->out[i] * (double)p->kern[i];
        xn *= (double)p->in[i];
        yn *= (double)p->out[i];
        wn *= (double)p->kern[i];
    }
    const double esz = p->dtype == PDNN_DATA_DOUBLE ? 8.0 : 4.0;
    const double us = fmax(mac / (cg <= 4 ? 8e3 : 8e4), (xn + yn + wn) * esz / 2e4);
    pdnn_ctx ctx = {us < 6.0 ? 1 : nthreads, ws, ws_bytes};
    return impl->exec(p, a, &ctx);
}

static void log_conv(const char *func, const tensor_t *x, const filter_t *w, const tensor_t *y,
                     const pdnn_conv_problem *p, const pdnn_impl *impl, double t0)
{
    if (!pdnn_log_on()) return;
    size_t ws_bytes = impl ? pdnn_conv_workspace(impl, p) : 0;
    char sx[160], sw[160], sy[160], key[256];
    tensor_t wt;
    pdnn_filter_as_tensor(w, &wt);
    pdnn_tensor_str(x, sx, sizeof sx);
    pdnn_tensor_str(&wt, sw, sizeof sw);
    pdnn_tensor_str(y, sy, sizeof sy);
    pdnn_conv_problem_key(p, key, sizeof key);
    pdnn_log_call(func, "x=[%s] w=[%s] y=[%s] problem=%s impl=%s algo=%d ws=%zu ms=%.3f", sx,
                  sw, sy, key, impl ? impl->name : "none", impl ? impl->algo : -1, ws_bytes,
                  pdnn_now_ms() - t0);
}

pdnnStatus_t pdnn_conv_check_buffers(const char *func, pdnn_conv_dir dir, const tensor_t *x,
                                     const void *xp, const char *xp_name, const tensor_t *w,
                                     const void *wp, const char *wp_name, const tensor_t *y,
                                     const void *yp, const char *yp_name)
{
    PDNN_TRY(pdnn_check_data(x, xp, func, xp_name));
    PDNN_TRY(pdnn_check_data(w, wp, func, wp_name));
    PDNN_TRY(pdnn_check_data(y, yp, func, yp_name));
    switch (dir) {
    case PDNN_CONV_FWD:
        PDNN_TRY(pdnn_check_disjoint(x, xp, xp_name, y, yp, yp_name, func));
        PDNN_TRY(pdnn_check_disjoint(w, wp, wp_name, y, yp, yp_name, func));
        break;
    case PDNN_CONV_BWD_DATA:
        PDNN_TRY(pdnn_check_disjoint(y, yp, yp_name, x, xp, xp_name, func));
        PDNN_TRY(pdnn_check_disjoint(w, wp, wp_name, x, xp, xp_name, func));
        break;
    case PDNN_CONV_BWD_FILTER:
        PDNN_TRY(pdnn_check_disjoint(x, xp, xp_name, w, wp, wp_name, func));
        PDNN_TRY(pdnn_check_disjoint(y, yp, yp_name, w, wp, wp_name, func));
        break;
    }
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnn_conv_check_workspace(const char *func, const void *ws, size_t bytes,
                                       const tensor_t *x, const void *xp, const char *xp_name,
                                       const tensor_t *w, const void *wp, const char *wp_name,
                                       const tensor_t *y, const void *yp, const char *yp_name)
{
    PDNN_TRY(check_ws(ws, bytes, func));
    PDNN_TRY(pdnn_check_bytes_disjoint(ws, bytes, "workSpace", x, xp, xp_name, func));
    PDNN_TRY(pdnn_check_bytes_disjoint(ws, bytes, "workSpace", w, wp, wp_name, func));
    PDNN_TRY(pdnn_check_bytes_disjoint(ws, bytes, "workSpace", y, yp, yp_name, func));
    return PDNN_STATUS_SUCCESS;
}

/* One call of a direction: descriptors and data pointers in the roles of
 * pdnn_conv_problem_from (x is dx for BWD_DATA, w is dw for BWD_FILTER, y is dy for the
 * backward directions), with the names the messages use. */
typedef struct {
    const char *func;
    pdnn_conv_dir dir;
    const tensor_t *x;
    const filter_t *w;
    const struct pdnnConvolutionStruct *cd;
    const tensor_t *y;
    const char *xname, *wname, *yname; /* descriptor names */
    const char *xp_name, *wp_name, *yp_name;
    const void *xp, *wp, *yp;
} conv_call;

/* Everything but the dispatch: handle, descriptors, problem, scalars, algorithm,
 * pointers, workspace, aliasing. */
static pdnnStatus_t prepare(pdnnHandle_t handle, const conv_call *c, const void *alpha,
                            const char *alpha_name, const void *beta, const char *beta_name,
                            int algo, const void *ws, size_t ws_bytes, pdnn_conv_problem *p)
{
    const char *func = c->func;
    PDNN_TRY(pdnn_check_handle(handle, func));
    PDNN_TRY(pdnn_conv_problem_from(func, c->dir, c->x, c->xname, c->w, c->wname, c->cd, c->y,
                                    c->yname, p));
    if (alpha == NULL)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, func, "argument '%s' is NULL",
                          alpha_name);
    if (beta == NULL)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, func, "argument '%s' is NULL",
                          beta_name);
    PDNN_TRY(check_algo(c->dir, algo, func));
    tensor_t wt; /* w's memory as a packed tensor, for the overlap checks */
    pdnn_filter_as_tensor(c->w, &wt);
    PDNN_TRY(pdnn_conv_check_buffers(func, c->dir, c->x, c->xp, c->xp_name, &wt, c->wp,
                                     c->wp_name, c->y, c->yp, c->yp_name));
    PDNN_TRY(pdnn_conv_check_workspace(func, ws, ws_bytes, c->x, c->xp, c->xp_name, &wt,
                                       c->wp, c->wp_name, c->y, c->yp, c->yp_name));
    return PDNN_STATUS_SUCCESS;
}

/* Dispatch, run and log one validated call. */
static pdnnStatus_t launch(pdnnHandle_t handle, const conv_call *c, const pdnn_conv_problem *p,
                           double alpha, double beta, int algo, void *ws, size_t ws_bytes,
                           double t0)
{
    const pdnn_impl *impl = NULL;
    /* an empty batch runs nothing and needs no workspace (pdnn_conv_exec) */
    PDNN_TRY(pdnn_dispatch(pdnn_conv_impl_list(c->dir), algo, p, p->n == 0 ? SIZE_MAX : ws_bytes,
                           c->func, &impl));
    pdnn_conv_args a = {.alpha = alpha, .beta = beta};
    switch (c->dir) {
    case PDNN_CONV_FWD: a.src = c->xp, a.wei = c->wp, a.dst = (void *)c->yp; break;
    case PDNN_CONV_BWD_DATA: a.src = c->yp, a.wei = c->wp, a.dst = (void *)c->xp; break;
    case PDNN_CONV_BWD_FILTER: a.src = c->xp, a.wei = c->yp, a.dst = (void *)c->wp; break;
    }
    pdnnStatus_t st = pdnn_conv_exec(impl, p, &a, handle->nthreads, ws, ws_bytes);
    log_conv(c->func, c->x, c->w, c->y, p, impl, t0);
    return st;
}

static pdnnStatus_t run_conv(pdnnHandle_t handle, const conv_call *c, const void *alpha,
                             const void *beta, int algo, void *ws, size_t ws_bytes)
{
    const double t0 = pdnn_log_on() ? pdnn_now_ms() : 0.0;
    pdnn_conv_problem p;
    PDNN_TRY(prepare(handle, c, alpha, "alpha", beta, "beta", algo, ws, ws_bytes, &p));
    return launch(handle, c, &p, pdnn_scalar(alpha, p.dtype), pdnn_scalar(beta, p.dtype), algo,
                  ws, ws_bytes, t0);
}

/* ------------------------------------------------------------------ entry points */

pdnnStatus_t pdnnConvolutionForward(pdnnHandle_t handle, const void *alpha,
                                    const pdnnTensorDescriptor_t xDesc, const void *x,
                                    const pdnnFilterDescriptor_t wDesc, const void *w,
                                    const pdnnConvolutionDescriptor_t convDesc,
                                    pdnnConvolutionFwdAlgo_t algo, void *workSpace,
                                    size_t workSpaceSizeInBytes, const void *beta,
                                    const pdnnTensorDescriptor_t yDesc, void *y)
{
    conv_call c = {__func__, PDNN_CONV_FWD, xDesc, wDesc, convDesc, yDesc,
                   "xDesc", "wDesc", "yDesc", "x", "w", "y", x, w, y};
    return run_conv(handle, &c, alpha, beta, (int)algo, workSpace, workSpaceSizeInBytes);
}

pdnnStatus_t pdnnConvolutionBackwardData(pdnnHandle_t handle, const void *alpha,
                                         const pdnnFilterDescriptor_t wDesc, const void *w,
                                         const pdnnTensorDescriptor_t dyDesc, const void *dy,
                                         const pdnnConvolutionDescriptor_t convDesc,
                                         pdnnConvolutionBwdDataAlgo_t algo, void *workSpace,
                                         size_t workSpaceSizeInBytes, const void *beta,
                                         const pdnnTensorDescriptor_t dxDesc, void *dx)
{
    conv_call c = {__func__, PDNN_CONV_BWD_DATA, dxDesc, wDesc, convDesc, dyDesc,
                   "dxDesc", "wDesc", "dyDesc", "dx", "w", "dy", dx, w, dy};
    return run_conv(handle, &c, alpha, beta, (int)algo, workSpace, workSpaceSizeInBytes);
}

pdnnStatus_t pdnnConvolutionBackwardFilter(pdnnHandle_t handle, const void *alpha,
                                           const pdnnTensorDescriptor_t xDesc, const void *x,
                                           const pdnnTensorDescriptor_t dyDesc, const void *dy,
                                           const pdnnConvolutionDescriptor_t convDesc,
                                           pdnnConvolutionBwdFilterAlgo_t algo,
                                           void *workSpace, size_t workSpaceSizeInBytes,
                                           const void *beta,
                                           const pdnnFilterDescriptor_t dwDesc, void *dw)
{
    conv_call c = {__func__, PDNN_CONV_BWD_FILTER, xDesc, dwDesc, convDesc, dyDesc,
                   "xDesc", "dwDesc", "dyDesc", "x", "dw", "dy", x, dw, dy};
    return run_conv(handle, &c, alpha, beta, (int)algo, workSpace, workSpaceSizeInBytes);
}

pdnnStatus_t pdnnConvolutionBiasActivationForward(
    pdnnHandle_t handle, const void *alpha1, const pdnnTensorDescriptor_t xDesc, const void *x,
    const pdnnFilterDescriptor_t wDesc, const void *w, const pdnnConvolutionDescriptor_t convDesc,
    pdnnConvolutionFwdAlgo_t algo, void *workSpace, size_t workSpaceSizeInBytes,
    const void *alpha2, const pdnnTensorDescriptor_t zDesc, const void *z,
    const pdnnTensorDescriptor_t biasDesc, const void *bias,
    const pdnnActivationDescriptor_t activationDesc, const pdnnTensorDescriptor_t yDesc,
    void *y)
{
    const double t0 = pdnn_log_on() ? pdnn_now_ms() : 0.0;
    const char *func = __func__;
    conv_call c = {func, PDNN_CONV_FWD, xDesc, wDesc, convDesc, yDesc,
                   "xDesc", "wDesc", "yDesc", "x", "w", "y", x, w, y};
    pdnn_conv_problem p;
    PDNN_TRY(prepare(handle, &c, alpha1, "alpha1", alpha2, "alpha2", (int)algo, workSpace,
                     workSpaceSizeInBytes, &p));
    /* z: y's dims and type, the very y or a buffer apart from it */
    PDNN_TRY(pdnn_check_tensor(zDesc, func, "zDesc"));
    PDNN_TRY(pdnn_check_same_dims(zDesc, "zDesc", yDesc, "yDesc", func));
    PDNN_TRY(pdnn_check_same_dtype(zDesc, "zDesc", yDesc, "yDesc", func));
    /* bias: 1 x K x 1 ... of y's rank and type */
    PDNN_TRY(pdnn_check_tensor(biasDesc, func, "biasDesc"));
    PDNN_TRY(pdnn_check_same_dtype(biasDesc, "biasDesc", yDesc, "yDesc", func));
    PDNN_TRY(check_bias_shape(biasDesc, "biasDesc", yDesc, "yDesc", func));
    PDNN_TRY(pdnn_check_activation(activationDesc, func, "activationDesc"));
    const double a1 = pdnn_scalar(alpha1, p.dtype), a2 = pdnn_scalar(alpha2, p.dtype);
    if (a2 != 0.0) { /* z is read only when alpha2 != 0 (it may be NULL otherwise) */
        PDNN_TRY(pdnn_check_data(zDesc, z, func, "z"));
        PDNN_TRY(pdnn_check_alias(zDesc, z, "z", yDesc, y, "y", func));
        PDNN_TRY(pdnn_check_bytes_disjoint(workSpace, workSpaceSizeInBytes, "workSpace", zDesc,
                                           z, "z", func));
    }
    PDNN_TRY(pdnn_check_data(biasDesc, bias, func, "bias"));
    PDNN_TRY(pdnn_check_disjoint(biasDesc, bias, "bias", yDesc, y, "y", func));
    PDNN_TRY(pdnn_check_bytes_disjoint(workSpace, workSpaceSizeInBytes, "workSpace", biasDesc,
                                       bias, "bias", func));

    const bool z_is_y = z == y && a2 != 0.0;
    /* y = alpha1 * conv + (z is y ? alpha2 * y : 0), then the epilogue */
    PDNN_TRY(launch(handle, &c, &p, a1, z_is_y ? a2 : 0.0, (int)algo, workSpace,
                    workSpaceSizeInBytes, t0));
    const bool with_z = !z_is_y && a2 != 0.0;
    if (p.n > 0 && (with_z || !pdnn_conv_cpu_bias_act(yDesc, y, biasDesc, bias, activationDesc,
                                                       handle->nthreads)))
        pdnn_conv_ref_bias_act(yDesc, y, zDesc, with_z ? z : NULL, a2, biasDesc, bias,
                               activationDesc, handle->nthreads);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnConvolutionBackwardBias(pdnnHandle_t handle, const void *alpha,
                                         const pdnnTensorDescriptor_t dyDesc, const void *dy,
                                         const void *beta, const pdnnTensorDescriptor_t dbDesc,
                                         void *db)
{
    const double t0 = pdnn_log_on() ? pdnn_now_ms() : 0.0;
    const char *func = __func__;
    PDNN_TRY(pdnn_check_handle(handle, func));
    PDNN_TRY(pdnn_check_tensor(dyDesc, func, "dyDesc"));
    PDNN_TRY(pdnn_check_output_tensor(dbDesc, func, "dbDesc"));
    PDNN_CHECK_NULL(alpha);
    PDNN_CHECK_NULL(beta);
    PDNN_TRY(pdnn_check_same_dtype(dyDesc, "dyDesc", dbDesc, "dbDesc", func));
    PDNN_TRY(pdnn_check_compute_dtype(dyDesc->dtype, func, "dyDesc"));
    if (dyDesc->nbDims < 3)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "dyDesc has %d dims; it must be N x K x spatial (3 to 8 dims)",
                          dyDesc->nbDims);
    PDNN_TRY(check_bias_shape(dbDesc, "dbDesc", dyDesc, "dyDesc", func));
    PDNN_TRY(pdnn_check_data(dyDesc, dy, func, "dy"));
    PDNN_TRY(pdnn_check_data(dbDesc, db, func, "db"));
    PDNN_TRY(pdnn_check_disjoint(dyDesc, dy, "dy", dbDesc, db, "db", func));
    const double al = pdnn_scalar(alpha, dyDesc->dtype), be = pdnn_scalar(beta, dyDesc->dtype);
    const char *impl = "cpu:bias_packed";
    if (pdnn_tensor_numel(dbDesc) > 0 &&
        !pdnn_conv_cpu_bwd_bias(dyDesc, dy, dbDesc, db, al, be, handle->nthreads)) {
        impl = "ref:reduce";
        pdnn_conv_ref_bwd_bias(dyDesc, dy, dbDesc, db, al, be, handle->nthreads);
    }
    if (pdnn_log_on()) {
        char sy[160], sb[160];
        pdnn_tensor_str(dyDesc, sy, sizeof sy);
        pdnn_tensor_str(dbDesc, sb, sizeof sb);
        pdnn_log_call(func, "dy=[%s] db=[%s] impl=%s ws=0 ms=%.3f", sy, sb, impl,
                      pdnn_now_ms() - t0);
    }
    return PDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ workspace queries */

static pdnnStatus_t ws_query(pdnnHandle_t handle, const conv_call *c, int algo, size_t *size)
{
    const char *func = c->func;
    PDNN_TRY(pdnn_check_handle(handle, func));
    pdnn_conv_problem p;
    PDNN_TRY(pdnn_conv_problem_from(func, c->dir, c->x, c->xname, c->w, c->wname, c->cd, c->y,
                                    c->yname, &p));
    if (size == NULL) /* named as the caller's argument, in the caller's function */
        return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, func, "argument 'sizeInBytes' is NULL");
    PDNN_TRY(check_algo(c->dir, algo, func));
    const pdnn_impl *impl = NULL;
    PDNN_TRY(pdnn_dispatch(pdnn_conv_impl_list(c->dir), algo, &p, SIZE_MAX, func, &impl));
    *size = pdnn_conv_workspace(impl, &p);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetConvolutionForwardWorkspaceSize(pdnnHandle_t handle,
                                                    const pdnnTensorDescriptor_t xDesc,
                                                    const pdnnFilterDescriptor_t wDesc,
                                                    const pdnnConvolutionDescriptor_t convDesc,
                                                    const pdnnTensorDescriptor_t yDesc,
                                                    pdnnConvolutionFwdAlgo_t algo,
                                                    size_t *sizeInBytes)
{
    conv_call c = {__func__, PDNN_CONV_FWD, xDesc, wDesc, convDesc, yDesc,
                   "xDesc", "wDesc", "yDesc", "x", "w", "y", NULL, NULL, NULL};
    return ws_query(handle, &c, (int)algo, sizeInBytes);
}

pdnnStatus_t pdnnGetConvolutionBackwardDataWorkspaceSize(pdnnHandle_t handle,
                                                         const pdnnFilterDescriptor_t wDesc,
                                                         const pdnnTensorDescriptor_t dyDesc,
                                                         const pdnnConvolutionDescriptor_t convDesc,
                                                         const pdnnTensorDescriptor_t dxDesc,
                                                         pdnnConvolutionBwdDataAlgo_t algo,
                                                         size_t *sizeInBytes)
{
    conv_call c = {__func__, PDNN_CONV_BWD_DATA, dxDesc, wDesc, convDesc, dyDesc,
                   "dxDesc", "wDesc", "dyDesc", "dx", "w", "dy", NULL, NULL, NULL};
    return ws_query(handle, &c, (int)algo, sizeInBytes);
}

pdnnStatus_t pdnnGetConvolutionBackwardFilterWorkspaceSize(pdnnHandle_t handle,
                                                           const pdnnTensorDescriptor_t xDesc,
                                                           const pdnnTensorDescriptor_t dyDesc,
                                                           const pdnnConvolutionDescriptor_t convDesc,
                                                           const pdnnFilterDescriptor_t gradDesc,
                                                           pdnnConvolutionBwdFilterAlgo_t algo,
                                                           size_t *sizeInBytes)
{
    conv_call c = {__func__, PDNN_CONV_BWD_FILTER, xDesc, gradDesc, convDesc, dyDesc,
                   "xDesc", "gradDesc", "dyDesc", "x", "dw", "dy", NULL, NULL, NULL};
    return ws_query(handle, &c, (int)algo, sizeInBytes);
}
