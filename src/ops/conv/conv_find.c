/* Convolution algorithm queries: MaxCount, Get*_v7 (ranking without running), Find*
 * (timed on buffers it allocates) and Find*Ex (timed on the caller's buffers). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/conv_desc.h"
#include "core/error.h"
#include "core/find_cache.h"
#include "core/log.h"
#include "ops/conv/conv_internal.h"

typedef struct pdnnTensorStruct tensor_t;
typedef struct pdnnFilterStruct filter_t;

#define ALGO_MAX 8

/* One result, common to the three perf structs. */
typedef struct {
    int algo;
    pdnnStatus_t status;
    float time;
    size_t memory;
    pdnnDeterminism_t det;
} perf_t;

#define COPY_PERF(dst, src, algo_t)                                                     \
    do {                                                                                \
        memset(&(dst), 0, sizeof(dst));                                                 \
        (dst).algo = (algo_t)(src).algo;                                                \
        (dst).status = (src).status;                                                    \
        (dst).time = (src).time;                                                        \
        (dst).memory = (src).memory;                                                    \
        (dst).determinism = (src).det;                                                  \
        (dst).mathType = PDNN_DEFAULT_MATH;                                             \
    } while (0)

/* The descriptors of one query, in the roles of pdnn_conv_problem_from. */
typedef struct {
    const char *func;
    pdnn_conv_dir dir;
    const tensor_t *x;
    const filter_t *w;
    const struct pdnnConvolutionStruct *cd;
    const tensor_t *y;
    const char *xname, *wname, *yname;
} query;

static pdnnStatus_t max_count(pdnnHandle_t handle, pdnn_conv_dir dir, int *count,
                              const char *func)
{
    PDNN_TRY(pdnn_check_handle(handle, func));
    if (count == NULL)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, func, "argument 'count' is NULL");
    *count = pdnn_conv_algo_count(dir);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetConvolutionForwardAlgorithmMaxCount(pdnnHandle_t handle, int *count)
{
    return max_count(handle, PDNN_CONV_FWD, count, __func__);
}

pdnnStatus_t pdnnGetConvolutionBackwardDataAlgorithmMaxCount(pdnnHandle_t handle, int *count)
{
    return max_count(handle, PDNN_CONV_BWD_DATA, count, __func__);
}

pdnnStatus_t pdnnGetConvolutionBackwardFilterAlgorithmMaxCount(pdnnHandle_t handle, int *count)
{
    return max_count(handle, PDNN_CONV_BWD_FILTER, count, __func__);
}

/* Handle, descriptors and the result arguments of a query. */
static pdnnStatus_t query_start(pdnnHandle_t handle, const query *q, int requested,
                                const int *returned, const void *perf, pdnn_conv_problem *p)
{
    PDNN_TRY(pdnn_check_handle(handle, q->func));
    PDNN_TRY(pdnn_conv_problem_from(q->func, q->dir, q->x, q->xname, q->w, q->wname, q->cd,
                                    q->y, q->yname, p));
    if (requested < 1)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, q->func,
                          "requestedAlgoCount is %d, must be >= 1", requested);
    if (returned == NULL)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, q->func,
                          "argument 'returnedAlgoCount' is NULL");
    if (perf == NULL)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, q->func,
                          "argument 'perfResults' is NULL");
    return PDNN_STATUS_SUCCESS;
}

/* The problem, the thread count and the ISA kernels may use: what a time depends on. */
static void cache_key(const pdnn_conv_problem *p, int nthreads, char *buf, size_t n)
{
    char key[256];
    pdnn_conv_problem_key(p, key, sizeof key);
    snprintf(buf, n, "%s_t%d_%s", key, nthreads, pdnn_isa_name(pdnn_cpu_isa()));
}

static perf_t unsupported(int algo, pdnnStatus_t st, size_t memory)
{
    perf_t r = {algo, st, -1.0f, memory, PDNN_NON_DETERMINISTIC};
    return r;
}

/* Stable sort: successes by time, then the failures in the order given. */
static void sort_results(perf_t *r, int n)
{
    for (int i = 1; i < n; i++) {
        perf_t v = r[i];
        int j = i;
        while (j > 0) {
            const perf_t *u = &r[j - 1];
            bool before = v.status == PDNN_STATUS_SUCCESS &&
                          (u->status != PDNN_STATUS_SUCCESS || v.time < u->time);
            if (!before) break;
            r[j] = r[j - 1];
            j--;
        }
        r[j] = v;
    }
}

/* Every algorithm: those that run, fastest first by the cost model (conv_cost.c), then
 * the others with NOT_SUPPORTED. When Find has timed every runnable one for this problem
 * and thread count, they are ordered by those times instead. */
static int rank(const pdnn_conv_problem *p, int nthreads, perf_t *r)
{
    int count = pdnn_conv_algo_count(p->dir), n = 0;
    bool done[ALGO_MAX] = {false};
    const pdnn_impl *chosen[ALGO_MAX] = {NULL};
    for (const pdnn_impl *const *e = pdnn_conv_impl_list(p->dir); *e; e++) {
        int a = (*e)->algo;
        if (a < 0 || a >= count || done[a]) continue;
        const char *why;
        if (pdnn_conv_find_impl(p->dir, a, p, &why) != *e) continue;
        done[a] = true;
        chosen[n] = *e;
        r[n++] = (perf_t){a, PDNN_STATUS_SUCCESS, -1.0f, pdnn_conv_workspace(*e, p),
                          ((*e)->props & PDNN_IMPL_DETERMINISTIC) ? PDNN_DETERMINISTIC
                                                                  : PDNN_NON_DETERMINISTIC};
    }
    int runnable = n;
    for (int a = 0; a < count; a++)
        if (!done[a]) r[n++] = unsupported(a, PDNN_STATUS_NOT_SUPPORTED, 0);

    char key[300];
    cache_key(p, nthreads, key, sizeof key);
    double ms[ALGO_MAX];
    bool all = runnable > 1;
    for (int i = 0; all && i < runnable; i++) all = pdnn_find_cache_get(key, chosen[i]->name, &ms[i]);
    /* Find's times when it timed them all, else the cost model's estimates; equal
     * estimates keep the list order */
    for (int i = 0; i < runnable; i++)
        r[i].time = all ? (float)ms[i] : (float)pdnn_conv_cost_ms(chosen[i], p, nthreads);
    sort_results(r, runnable);
    for (int i = 0; i < runnable; i++) r[i].time = -1.0f;
    return n;
}

static pdnnStatus_t get_v7(pdnnHandle_t handle, const query *q, int requested, int *returned,
                           const void *perf, perf_t *r, int *nr)
{
    const double t0 = pdnn_now_ms();
    pdnn_conv_problem p;
    PDNN_TRY(query_start(handle, q, requested, returned, perf, &p));
    int n = rank(&p, handle->nthreads, r);
    *nr = n < requested ? n : requested;
    if (pdnn_log_on()) {
        char key[256];
        pdnn_conv_problem_key(&p, key, sizeof key);
        pdnn_log_call(q->func, "problem=%s first=%d (%s) ms=%.3f", key, r[0].algo,
                      pdnnGetErrorString(r[0].status), pdnn_now_ms() - t0);
    }
    return PDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ Find */

/* Elements spanned by dims/strides (0 when a dim is 0); false on overflow. */
static bool span_elems(int nb, const int64_t *dim, const int64_t *stride, int64_t *out)
{
    int64_t last = 0;
    for (int i = 0; i < nb; i++) {
        if (dim[i] == 0) {
            *out = 0;
            return true;
        }
        int64_t t;
        if (__builtin_mul_overflow(dim[i] - 1, stride[i], &t) ||
            __builtin_add_overflow(last, t, &last))
            return false;
    }
    *out = last + 1;
    return true;
}

static void *alloc_elems(int64_t n, pdnnDataType_t t)
{
    size_t bytes;
    if (__builtin_mul_overflow((size_t)(n > 0 ? n : 1), pdnn_dtype_size(t), &bytes)) return NULL;
    return calloc(1, bytes);
}

/* Median of a few timed runs after one warm-up; -1 and *st set when a run fails. */
static double time_runs(const pdnn_impl *impl, const pdnn_conv_problem *p,
                        const pdnn_conv_args *a, int nthreads, void *ws, size_t ws_bytes,
                        pdnnStatus_t *st)
{
    double t = pdnn_now_ms();
    *st = pdnn_conv_exec(impl, p, a, nthreads, ws, ws_bytes);
    double warm = pdnn_now_ms() - t;
    if (*st != PDNN_STATUS_SUCCESS) return -1.0;
    int reps = warm < 5.0 ? 5 : warm < 50.0 ? 3 : 1;
    double ts[5];
    for (int i = 0; i < reps; i++) {
        t = pdnn_now_ms();
        *st = pdnn_conv_exec(impl, p, a, nthreads, ws, ws_bytes);
        ts[i] = pdnn_now_ms() - t;
        if (*st != PDNN_STATUS_SUCCESS) return -1.0;
    }
    for (int i = 1; i < reps; i++)
        for (int j = i; j > 0 && ts[j] < ts[j - 1]; j--) {
            double v = ts[j];
            ts[j] = ts[j - 1];
            ts[j - 1] = v;
        }
    return ts[reps / 2];
}

/* Buffers in the roles of the problem: src, wei, dst as pdnn_conv_args. */
typedef struct {
    const void *xp, *wp, *yp;
} bufs;

static pdnn_conv_args args_of(const pdnn_conv_problem *p, const bufs *b)
{
    pdnn_conv_args a = {.alpha = 1.0, .beta = 0.0};
    switch (p->dir) {
    case PDNN_CONV_FWD: a.src = b->xp, a.wei = b->wp, a.dst = (void *)b->yp; break;
    case PDNN_CONV_BWD_DATA: a.src = b->yp, a.wei = b->wp, a.dst = (void *)b->xp; break;
    case PDNN_CONV_BWD_FILTER: a.src = b->xp, a.wei = b->yp, a.dst = (void *)b->wp; break;
    }
    return a;
}

/* Times every runnable algorithm. ex: on the caller's buffers b and workspace (an entry
 * that needs more gets BAD_PARAM_SIZE_INSUFFICIENT); else on zeroed buffers and a
 * workspace of its own. Times already cached for this problem and thread count are
 * reused. */
static pdnnStatus_t find_all(pdnnHandle_t handle, const query *q, const pdnn_conv_problem *p,
                             bool ex, const bufs *b, void *ws, size_t ws_bytes, perf_t *r,
                             int *nr)
{
    int count = pdnn_conv_algo_count(p->dir), n = 0;
    char key[300];
    cache_key(p, handle->nthreads, key, sizeof key);
    bufs own = {NULL, NULL, NULL};
    bool allocated = false;
    pdnnStatus_t st = PDNN_STATUS_SUCCESS;

    for (int algo = 0; algo < count; algo++) {
        const char *why;
        const pdnn_impl *impl = pdnn_conv_find_impl(p->dir, algo, p, &why);
        if (!impl) {
            r[n++] = unsupported(algo, PDNN_STATUS_NOT_SUPPORTED, 0);
            continue;
        }
        size_t need = pdnn_conv_workspace(impl, p);
        pdnnDeterminism_t det =
            (impl->props & PDNN_IMPL_DETERMINISTIC) ? PDNN_DETERMINISTIC : PDNN_NON_DETERMINISTIC;
        if (ex && need > ws_bytes) {
            r[n++] = unsupported(algo, PDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, need);
            continue;
        }
        double ms;
        if (!pdnn_find_cache_get(key, impl->name, &ms)) {
            if (p->n == 0) {
                ms = 0.0; /* nothing runs */
            } else {
                const bufs *use = b;
                void *wsp = ws;
                if (!ex) {
                    if (!allocated) {
                        int64_t ex_[2 + PDNN_CONV_SP_MAX], ey[2 + PDNN_CONV_SP_MAX];
                        int64_t nx, ny, nw = p->k * (p->c / p->g);
                        ex_[0] = ey[0] = p->n;
                        ex_[1] = p->c;
                        ey[1] = p->k;
                        for (int i = 0; i < p->nsp; i++) {
                            ex_[2 + i] = p->in[i];
                            ey[2 + i] = p->out[i];
                            nw *= p->kern[i];
                        }
                        allocated = true;
                        if (span_elems(2 + p->nsp, ex_, p->xs, &nx) &&
                            span_elems(2 + p->nsp, ey, p->ys, &ny)) {
                            own.xp = alloc_elems(nx, p->dtype);
                            own.yp = alloc_elems(ny, p->dtype);
                            own.wp = alloc_elems(nw, p->dtype);
                        }
                    }
                    if (!own.xp || !own.yp || !own.wp) {
                        st = pdnn_error(PDNN_STATUS_ALLOC_FAILED, q->func,
                                        "cannot allocate the buffers to time algorithms on");
                        goto out;
                    }
                    use = &own;
                    wsp = need ? malloc(need) : NULL;
                    if (need && !wsp) {
                        r[n++] = unsupported(algo, PDNN_STATUS_ALLOC_FAILED, need);
                        continue;
                    }
                }
                pdnn_conv_args a = args_of(p, use);
                pdnnStatus_t rs;
                ms = time_runs(impl, p, &a, handle->nthreads, wsp, ex ? ws_bytes : need, &rs);
                if (!ex) free(wsp);
                if (rs != PDNN_STATUS_SUCCESS) {
                    r[n++] = unsupported(algo, rs, need);
                    continue;
                }
            }
            pdnn_find_cache_put(key, impl->name, ms);
        }
        r[n++] = (perf_t){algo, PDNN_STATUS_SUCCESS, (float)ms, need, det};
    }
    sort_results(r, n);
    *nr = n;
out:
    free((void *)own.xp);
    free((void *)own.yp);
    free((void *)own.wp);
    return st;
}

static pdnnStatus_t find(pdnnHandle_t handle, const query *q, bool ex, const bufs *b, void *ws,
                         size_t ws_bytes, int requested, int *returned, const void *perf,
                         perf_t *r, int *nr)
{
    const double t0 = pdnn_now_ms();
    pdnn_conv_problem p;
    PDNN_TRY(query_start(handle, q, requested, returned, perf, &p));
    if (ex) {
        const char *xn = q->dir == PDNN_CONV_BWD_DATA ? "dx" : "x";
        const char *wn = q->dir == PDNN_CONV_BWD_FILTER ? "dw" : "w";
        const char *yn = q->dir == PDNN_CONV_FWD ? "y" : "dy";
        tensor_t wt;
        pdnn_filter_as_tensor(q->w, &wt);
        PDNN_TRY(pdnn_conv_check_buffers(q->func, q->dir, q->x, b->xp, xn, &wt, b->wp, wn, q->y,
                                         b->yp, yn));
        PDNN_TRY(pdnn_conv_check_workspace(q->func, ws, ws_bytes, q->x, b->xp, xn, &wt,
                                           b->wp, wn, q->y, b->yp, yn));
    }
    int n = 0;
    PDNN_TRY(find_all(handle, q, &p, ex, b, ws, ws_bytes, r, &n));
    *nr = n < requested ? n : requested;
    if (pdnn_log_on()) {
        char key[256];
        pdnn_conv_problem_key(&p, key, sizeof key);
        pdnn_log_call(q->func, "problem=%s fastest=%d (%.3f ms) ms=%.3f", key, r[0].algo,
                      (double)r[0].time, pdnn_now_ms() - t0);
    }
    return PDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ forward */

pdnnStatus_t pdnnGetConvolutionForwardAlgorithm_v7(pdnnHandle_t handle,
                                                   const pdnnTensorDescriptor_t srcDesc,
                                                   const pdnnFilterDescriptor_t filterDesc,
                                                   const pdnnConvolutionDescriptor_t convDesc,
                                                   const pdnnTensorDescriptor_t destDesc,
                                                   int requestedAlgoCount, int *returnedAlgoCount,
                                                   pdnnConvolutionFwdAlgoPerf_t *perfResults)
{
    query q = {__func__, PDNN_CONV_FWD, srcDesc, filterDesc, convDesc, destDesc,
               "srcDesc", "filterDesc", "destDesc"};
    perf_t r[ALGO_MAX];
    int n;
    PDNN_TRY(get_v7(handle, &q, requestedAlgoCount, returnedAlgoCount, perfResults, r, &n));
    for (int i = 0; i < n; i++) COPY_PERF(perfResults[i], r[i], pdnnConvolutionFwdAlgo_t);
    *returnedAlgoCount = n;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnFindConvolutionForwardAlgorithm(pdnnHandle_t handle,
                                                 const pdnnTensorDescriptor_t xDesc,
                                                 const pdnnFilterDescriptor_t wDesc,
                                                 const pdnnConvolutionDescriptor_t convDesc,
                                                 const pdnnTensorDescriptor_t yDesc,
                                                 int requestedAlgoCount, int *returnedAlgoCount,
                                                 pdnnConvolutionFwdAlgoPerf_t *perfResults)
{
    query q = {__func__, PDNN_CONV_FWD, xDesc, wDesc, convDesc, yDesc, "xDesc", "wDesc", "yDesc"};
    perf_t r[ALGO_MAX];
    int n;
    PDNN_TRY(find(handle, &q, false, NULL, NULL, 0, requestedAlgoCount, returnedAlgoCount,
                  perfResults, r, &n));
    for (int i = 0; i < n; i++) COPY_PERF(perfResults[i], r[i], pdnnConvolutionFwdAlgo_t);
    *returnedAlgoCount = n;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnFindConvolutionForwardAlgorithmEx(
    pdnnHandle_t handle, const pdnnTensorDescriptor_t xDesc, const void *x,
    const pdnnFilterDescriptor_t wDesc, const void *w, const pdnnConvolutionDescriptor_t convDesc,
    const pdnnTensorDescriptor_t yDesc, void *y, int requestedAlgoCount, int *returnedAlgoCount,
    pdnnConvolutionFwdAlgoPerf_t *perfResults, void *workSpace, size_t workSpaceSizeInBytes)
{
    query q = {__func__, PDNN_CONV_FWD, xDesc, wDesc, convDesc, yDesc, "xDesc", "wDesc", "yDesc"};
    bufs b = {x, w, y};
    perf_t r[ALGO_MAX];
    int n;
    PDNN_TRY(find(handle, &q, true, &b, workSpace, workSpaceSizeInBytes, requestedAlgoCount,
                  returnedAlgoCount, perfResults, r, &n));
    for (int i = 0; i < n; i++) COPY_PERF(perfResults[i], r[i], pdnnConvolutionFwdAlgo_t);
    *returnedAlgoCount = n;
    return PDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ backward data */

pdnnStatus_t pdnnGetConvolutionBackwardDataAlgorithm_v7(
    pdnnHandle_t handle, const pdnnFilterDescriptor_t filterDesc,
    const pdnnTensorDescriptor_t diffDesc, const pdnnConvolutionDescriptor_t convDesc,
    const pdnnTensorDescriptor_t gradDesc, int requestedAlgoCount, int *returnedAlgoCount,
    pdnnConvolutionBwdDataAlgoPerf_t *perfResults)
{
    query q = {__func__, PDNN_CONV_BWD_DATA, gradDesc, filterDesc, convDesc, diffDesc,
               "gradDesc", "filterDesc", "diffDesc"};
    perf_t r[ALGO_MAX];
    int n;
    PDNN_TRY(get_v7(handle, &q, requestedAlgoCount, returnedAlgoCount, perfResults, r, &n));
    for (int i = 0; i < n; i++) COPY_PERF(perfResults[i], r[i], pdnnConvolutionBwdDataAlgo_t);
    *returnedAlgoCount = n;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnFindConvolutionBackwardDataAlgorithm(pdnnHandle_t handle,
                                                      const pdnnFilterDescriptor_t wDesc,
                                                      const pdnnTensorDescriptor_t dyDesc,
                                                      const pdnnConvolutionDescriptor_t convDesc,
                                                      const pdnnTensorDescriptor_t dxDesc,
                                                      int requestedAlgoCount,
                                                      int *returnedAlgoCount,
                                                      pdnnConvolutionBwdDataAlgoPerf_t *perfResults)
{
    query q = {__func__, PDNN_CONV_BWD_DATA, dxDesc, wDesc, convDesc, dyDesc,
               "dxDesc", "wDesc", "dyDesc"};
    perf_t r[ALGO_MAX];
    int n;
    PDNN_TRY(find(handle, &q, false, NULL, NULL, 0, requestedAlgoCount, returnedAlgoCount,
                  perfResults, r, &n));
    for (int i = 0; i < n; i++) COPY_PERF(perfResults[i], r[i], pdnnConvolutionBwdDataAlgo_t);
    *returnedAlgoCount = n;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnFindConvolutionBackwardDataAlgorithmEx(
    pdnnHandle_t handle, const pdnnFilterDescriptor_t wDesc, const void *w,
    const pdnnTensorDescriptor_t dyDesc, const void *dy, const pdnnConvolutionDescriptor_t convDesc,
    const pdnnTensorDescriptor_t dxDesc, void *dx, int requestedAlgoCount, int *returnedAlgoCount,
    pdnnConvolutionBwdDataAlgoPerf_t *perfResults, void *workSpace, size_t workSpaceSizeInBytes)
{
    query q = {__func__, PDNN_CONV_BWD_DATA, dxDesc, wDesc, convDesc, dyDesc,
               "dxDesc", "wDesc", "dyDesc"};
    bufs b = {dx, w, dy};
    perf_t r[ALGO_MAX];
    int n;
    PDNN_TRY(find(handle, &q, true, &b, workSpace, workSpaceSizeInBytes, requestedAlgoCount,
                  returnedAlgoCount, perfResults, r, &n));
    for (int i = 0; i < n; i++) COPY_PERF(perfResults[i], r[i], pdnnConvolutionBwdDataAlgo_t);
    *returnedAlgoCount = n;
    return PDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ backward filter */

pdnnStatus_t pdnnGetConvolutionBackwardFilterAlgorithm_v7(
    pdnnHandle_t handle, const pdnnTensorDescriptor_t srcDesc,
    const pdnnTensorDescriptor_t diffDesc, const pdnnConvolutionDescriptor_t convDesc,
    const pdnnFilterDescriptor_t gradDesc, int requestedAlgoCount, int *returnedAlgoCount,
    pdnnConvolutionBwdFilterAlgoPerf_t *perfResults)
{
    query q = {__func__, PDNN_CONV_BWD_FILTER, srcDesc, gradDesc, convDesc, diffDesc,
               "srcDesc", "gradDesc", "diffDesc"};
    perf_t r[ALGO_MAX];
    int n;
    PDNN_TRY(get_v7(handle, &q, requestedAlgoCount, returnedAlgoCount, perfResults, r, &n));
    for (int i = 0; i < n; i++) COPY_PERF(perfResults[i], r[i], pdnnConvolutionBwdFilterAlgo_t);
    *returnedAlgoCount = n;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnFindConvolutionBackwardFilterAlgorithm(
    pdnnHandle_t handle, const pdnnTensorDescriptor_t xDesc, const pdnnTensorDescriptor_t dyDesc,
    const pdnnConvolutionDescriptor_t convDesc, const pdnnFilterDescriptor_t dwDesc,
    int requestedAlgoCount, int *returnedAlgoCount,
    pdnnConvolutionBwdFilterAlgoPerf_t *perfResults)
{
    query q = {__func__, PDNN_CONV_BWD_FILTER, xDesc, dwDesc, convDesc, dyDesc,
               "xDesc", "dwDesc", "dyDesc"};
    perf_t r[ALGO_MAX];
    int n;
    PDNN_TRY(find(handle, &q, false, NULL, NULL, 0, requestedAlgoCount, returnedAlgoCount,
                  perfResults, r, &n));
    for (int i = 0; i < n; i++) COPY_PERF(perfResults[i], r[i], pdnnConvolutionBwdFilterAlgo_t);
    *returnedAlgoCount = n;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnFindConvolutionBackwardFilterAlgorithmEx(
    pdnnHandle_t handle, const pdnnTensorDescriptor_t xDesc, const void *x,
    const pdnnTensorDescriptor_t dyDesc, const void *y, const pdnnConvolutionDescriptor_t convDesc,
    const pdnnFilterDescriptor_t dwDesc, void *dw, int requestedAlgoCount, int *returnedAlgoCount,
    pdnnConvolutionBwdFilterAlgoPerf_t *perfResults, void *workSpace, size_t workSpaceSizeInBytes)
{
    query q = {__func__, PDNN_CONV_BWD_FILTER, xDesc, dwDesc, convDesc, dyDesc,
               "xDesc", "dwDesc", "dyDesc"};
    bufs b = {x, dw, y};
    perf_t r[ALGO_MAX];
    int n;
    PDNN_TRY(find(handle, &q, true, &b, workSpace, workSpaceSizeInBytes, requestedAlgoCount,
                  returnedAlgoCount, perfResults, r, &n));
    for (int i = 0; i < n; i++) COPY_PERF(perfResults[i], r[i], pdnnConvolutionBwdFilterAlgo_t);
    *returnedAlgoCount = n;
    return PDNN_STATUS_SUCCESS;
}
