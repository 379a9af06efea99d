/* Convolution forward, backward data, backward filter, backward bias and bias +
 * activation forward against an oracle written here (scatter loops on dense double
 * arrays, independent of the library's gather loops), plus checks that trust no
 * reference: hand-worked cases, the adjoint identities and central finite differences.
 * Every algorithm that pdnnGet*Algorithm_v7 reports runnable is checked, so optimized
 * implementations registered later are held to the same oracle: exact on small
 * integers, except the transform algorithms (Winograd, FFT), whose rounding is not
 * exact even on integers: those within a relative error of 1e-3 (FLOAT) / 1e-10
 * (DOUBLE) here, their documented tighter bounds in their own tests. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ------------------------------------------------------------------ configuration */

typedef struct {
    int nsp;                      /* 1..3 */
    int n, c, k, g;               /* c, k: all groups */
    int in[3], kern[3], str[3], dil[3], pb[3], pe[3];
    pdnnConvolutionMode_t mode;
    int xlay, ylay;               /* 0 NCHW, 1 NHWC, 2 gapped NCHW, 3 gapped NHWC */
    pdnnTensorFormat_t wfmt;
    pdnnDataType_t dt, ct;
} cfg;

static int out_size(const cfg *f, int i)
{
    int span = f->in[i] + f->pb[i] + f->pe[i] - ((f->kern[i] - 1) * f->dil[i] + 1);
    return span < 0 ? -1 : 1 + span / f->str[i];
}

/* Strides for dims (N, C, spatial) in a layout; gapped layouts leave holes. */
static void make_strides(int nb, const int *dims, int lay, int *st)
{
    int order[8], m = 0; /* innermost first */
    bool nhwc = lay == 1 || lay == 3;
    if (nhwc) {
        order[m++] = 1;
        for (int i = nb - 1; i >= 2; i--) order[m++] = i;
        order[m++] = 0;
    } else {
        for (int i = nb - 1; i >= 0; i--) order[m++] = i;
    }
    int gap = lay >= 2 ? 1 : 0;
    int s = 1 + gap;
    for (int i = 0; i < nb; i++) {
        st[order[i]] = s;
        s = s * (dims[order[i]] > 0 ? dims[order[i]] : 1) + gap;
    }
}

static size_t span_of(int nb, const int *dims, const int *st)
{
    size_t last = 0;
    for (int i = 0; i < nb; i++) {
        if (dims[i] == 0) return 0;
        last += (size_t)(dims[i] - 1) * (size_t)st[i];
    }
    return last + 1;
}

static size_t numel_of(int nb, const int *dims)
{
    size_t n = 1;
    for (int i = 0; i < nb; i++) n *= (size_t)dims[i];
    return n;
}

static size_t offset_of(int nb, const int *dims, const int *st, size_t lin)
{
    size_t off = 0;
    for (int i = nb - 1; i >= 0; i--) {
        off += (lin % (size_t)dims[i]) * (size_t)st[i];
        lin /= (size_t)dims[i];
    }
    return off;
}

/* A strided buffer: whole span NaN, then the logical elements from dense. */
static void *make_buf(pdnnDataType_t t, int nb, const int *dims, const int *st,
                      const double *dense)
{
    size_t span = span_of(nb, dims, st);
    void *b = tu_alloc(t, span);
    tu_poison(b, t, span);
    if (dense)
        for (size_t l = 0; l < numel_of(nb, dims); l++)
            tu_put(b, t, offset_of(nb, dims, st, l), dense[l]);
    return b;
}

static void read_buf(const void *b, pdnnDataType_t t, int nb, const int *dims, const int *st,
                     double *dense)
{
    for (size_t l = 0; l < numel_of(nb, dims); l++)
        dense[l] = tu_get(b, t, offset_of(nb, dims, st, l));
}

/* Number of non-NaN elements in the span: equals numel when no gap was written. */
static size_t count_written(const void *b, pdnnDataType_t t, size_t span)
{
    size_t n = 0;
    for (size_t i = 0; i < span; i++) n += !isnan(tu_get(b, t, i));
    return n;
}

/* ------------------------------------------------------------------ oracle
 * Dense arrays widened to 3 spatial dims (leading ones of size 1), row-major:
 * x[n][c][i0][i1][i2], w[k][c/g][t0][t1][t2] (effective cross-correlation filter),
 * y[n][k][o0][o1][o2]. */

typedef struct {
    int n, c, k, g, cg, kg;
    int in[3], kern[3], out[3], str[3], dil[3], pb[3];
} dims3;

static dims3 widen(const cfg *f)
{
    dims3 d;
    d.n = f->n, d.c = f->c, d.k = f->k, d.g = f->g, d.cg = f->c / f->g, d.kg = f->k / f->g;
    int lead = 3 - f->nsp;
    for (int i = 0; i < 3; i++) {
        int j = i - lead;
        d.in[i] = j >= 0 ? f->in[j] : 1;
        d.kern[i] = j >= 0 ? f->kern[j] : 1;
        d.out[i] = j >= 0 ? out_size(f, j) : 1;
        d.str[i] = j >= 0 ? f->str[j] : 1;
        d.dil[i] = j >= 0 ? f->dil[j] : 1;
        d.pb[i] = j >= 0 ? f->pb[j] : 0;
    }
    return d;
}

#define XI(d, n_, c_, a, b, e) \
    ((((((size_t)(n_) * (d)->c + (c_)) * (d)->in[0] + (a)) * (d)->in[1] + (b)) * (d)->in[2]) + (e))
#define YI(d, n_, k_, a, b, e) \
    ((((((size_t)(n_) * (d)->k + (k_)) * (d)->out[0] + (a)) * (d)->out[1] + (b)) * (d)->out[2]) + (e))
#define WI(d, k_, c_, a, b, e) \
    ((((((size_t)(k_) * (d)->cg + (c_)) * (d)->kern[0] + (a)) * (d)->kern[1] + (b)) * (d)->kern[2]) + (e))

/* Calls body with (n, ci, k, c, t0..t2, o0..o2, xi, yi, wi) for every pair of an output
 * position and a tap that lands inside the input. */
#define FOR_TAPS(d, body)                                                                  \
    for (int n_ = 0; n_ < (d)->n; n_++)                                                    \
        for (int g_ = 0; g_ < (d)->g; g_++)                                                \
            for (int kk_ = 0; kk_ < (d)->kg; kk_++)                                        \
                for (int c_ = 0; c_ < (d)->cg; c_++)                                       \
                    for (int t0 = 0; t0 < (d)->kern[0]; t0++)                              \
                        for (int t1 = 0; t1 < (d)->kern[1]; t1++)                          \
                            for (int t2 = 0; t2 < (d)->kern[2]; t2++)                      \
                                for (int o0 = 0; o0 < (d)->out[0]; o0++)                   \
                                    for (int o1 = 0; o1 < (d)->out[1]; o1++)               \
                                        for (int o2 = 0; o2 < (d)->out[2]; o2++) {         \
                                            int i0 = o0 * (d)->str[0] - (d)->pb[0] + t0 * (d)->dil[0]; \
                                            int i1 = o1 * (d)->str[1] - (d)->pb[1] + t1 * (d)->dil[1]; \
                                            int i2 = o2 * (d)->str[2] - (d)->pb[2] + t2 * (d)->dil[2]; \
                                            if (i0 < 0 || i0 >= (d)->in[0] || i1 < 0 ||    \
                                                i1 >= (d)->in[1] || i2 < 0 || i2 >= (d)->in[2]) \
                                                continue;                                  \
                                            int k_ = g_ * (d)->kg + kk_;                   \
                                            int ci_ = g_ * (d)->cg + c_;                   \
                                            size_t xi = XI(d, n_, ci_, i0, i1, i2);        \
                                            size_t yi = YI(d, n_, k_, o0, o1, o2);         \
                                            size_t wi = WI(d, k_, c_, t0, t1, t2);         \
                                            body;                                          \
                                        }

static size_t nx(const dims3 *d) { return (size_t)d->n * d->c * d->in[0] * d->in[1] * d->in[2]; }
static size_t ny(const dims3 *d) { return (size_t)d->n * d->k * d->out[0] * d->out[1] * d->out[2]; }
static size_t nw(const dims3 *d) { return (size_t)d->k * d->cg * d->kern[0] * d->kern[1] * d->kern[2]; }

static void oracle_fwd(const dims3 *d, const double *x, const double *w, double *y)
{
    memset(y, 0, ny(d) * sizeof *y);
    FOR_TAPS(d, y[yi] += x[xi] * w[wi]);
}

static void oracle_bwd_data(const dims3 *d, const double *dy, const double *w, double *dx)
{
    memset(dx, 0, nx(d) * sizeof *dx);
    FOR_TAPS(d, dx[xi] += dy[yi] * w[wi]);
}

static void oracle_bwd_filter(const dims3 *d, const double *x, const double *dy, double *dw)
{
    memset(dw, 0, nw(d) * sizeof *dw);
    FOR_TAPS(d, dw[wi] += x[xi] * dy[yi]);
}

/* Reverses every spatial axis of a dense filter (true convolution <-> correlation). */
static void flip_filter(const dims3 *d, const double *w, double *out)
{
    for (int k = 0; k < d->k; k++)
        for (int c = 0; c < d->cg; c++)
            for (int a = 0; a < d->kern[0]; a++)
                for (int b = 0; b < d->kern[1]; b++)
                    for (int e = 0; e < d->kern[2]; e++)
                        out[WI(d, k, c, d->kern[0] - 1 - a, d->kern[1] - 1 - b,
                               d->kern[2] - 1 - e)] = w[WI(d, k, c, a, b, e)];
}

/* ------------------------------------------------------------------ descriptors */

typedef struct {
    int nb;
    int xd[5], yd[5], wd[5];
    int xs[5], ys[5], ws[5];
    pdnnTensorDescriptor_t x, y;
    pdnnFilterDescriptor_t w;
    pdnnConvolutionDescriptor_t conv;
} descs;

static void make_descs(const cfg *f, descs *s)
{
    int nb = f->nsp + 2;
    s->nb = nb;
    s->xd[0] = s->yd[0] = f->n;
    s->xd[1] = f->c;
    s->yd[1] = s->wd[0] = f->k;
    s->wd[1] = f->c / f->g;
    for (int i = 0; i < f->nsp; i++) {
        s->xd[2 + i] = f->in[i];
        s->yd[2 + i] = out_size(f, i);
        s->wd[2 + i] = f->kern[i];
    }
    make_strides(nb, s->xd, f->xlay, s->xs);
    make_strides(nb, s->yd, f->ylay, s->ys);
    make_strides(nb, s->wd, f->wfmt == PDNN_TENSOR_NHWC ? 1 : 0, s->ws);
    s->x = tu_tensor(f->dt, nb, s->xd, s->xs);
    s->y = tu_tensor(f->dt, nb, s->yd, s->ys);
    TU_OK(pdnnCreateFilterDescriptor(&s->w));
    TU_OK(pdnnSetFilterNdDescriptor(s->w, f->dt, f->wfmt, nb, s->wd));
    TU_OK(pdnnCreateConvolutionDescriptor(&s->conv));
    TU_OK(pdnnSetConvolutionNdDescriptorEx(s->conv, f->nsp, f->pb, f->pe, f->str, f->dil,
                                           f->mode, f->ct));
    TU_OK(pdnnSetConvolutionGroupCount(s->conv, f->g));
    int od[5];
    TU_OK(pdnnGetConvolutionNdForwardOutputDim(s->conv, s->x, s->w, nb, od));
    for (int i = 0; i < nb; i++)
        TU_CHECK(od[i] == s->yd[i], "output dim %d: %d, oracle %d", i, od[i], s->yd[i]);
}

static void free_descs(descs *s)
{
    pdnnDestroyTensorDescriptor(s->x);
    pdnnDestroyTensorDescriptor(s->y);
    pdnnDestroyFilterDescriptor(s->w);
    pdnnDestroyConvolutionDescriptor(s->conv);
}

static void describe(const cfg *f, char *buf, size_t n)
{
    snprintf(buf, n,
             "nsp%d n%d c%d k%d g%d in%d,%d,%d kern%d,%d,%d s%d,%d,%d d%d,%d,%d pb%d,%d,%d "
             "pe%d,%d,%d mode%d xl%d yl%d wf%d dt%d ct%d",
             f->nsp, f->n, f->c, f->k, f->g, f->in[0], f->in[1], f->in[2], f->kern[0],
             f->kern[1], f->kern[2], f->str[0], f->str[1], f->str[2], f->dil[0], f->dil[1],
             f->dil[2], f->pb[0], f->pb[1], f->pb[2], f->pe[0], f->pe[1], f->pe[2], f->mode,
             f->xlay, f->ylay, f->wfmt, f->dt, f->ct);
}

/* Algorithms Get_v7 says run for this problem. */
static int runnable_fwd(pdnnHandle_t h, const descs *s, int *algos)
{
    pdnnConvolutionFwdAlgoPerf_t perf[PDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int n = 0, m = 0;
    TU_OK(pdnnGetConvolutionForwardAlgorithm_v7(h, s->x, s->w, s->conv, s->y,
                                                 PDNN_CONVOLUTION_FWD_ALGO_COUNT, &n, perf));
    for (int i = 0; i < n; i++)
        if (perf[i].status == PDNN_STATUS_SUCCESS) algos[m++] = perf[i].algo;
    return m;
}

static int runnable_bwd_data(pdnnHandle_t h, const descs *s, int *algos)
{
    pdnnConvolutionBwdDataAlgoPerf_t perf[PDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
    int n = 0, m = 0;
    TU_OK(pdnnGetConvolutionBackwardDataAlgorithm_v7(h, s->w, s->y, s->conv, s->x,
                                                      PDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &n,
                                                      perf));
    for (int i = 0; i < n; i++)
        if (perf[i].status == PDNN_STATUS_SUCCESS) algos[m++] = perf[i].algo;
    return m;
}

static int runnable_bwd_filter(pdnnHandle_t h, const descs *s, int *algos)
{
    pdnnConvolutionBwdFilterAlgoPerf_t perf[PDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
    int n = 0, m = 0;
    TU_OK(pdnnGetConvolutionBackwardFilterAlgorithm_v7(h, s->x, s->y, s->conv, s->w,
                                                        PDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT,
                                                        &n, perf));
    for (int i = 0; i < n; i++)
        if (perf[i].status == PDNN_STATUS_SUCCESS) algos[m++] = perf[i].algo;
    return m;
}

/* Workspace of an algorithm (SIZE_MAX when the query fails). */
static void *alloc_ws(size_t bytes) { return bytes ? malloc(bytes) : NULL; }

/* ------------------------------------------------------------------ the checks of one problem */

typedef struct {
    const char *what;
    int algo;
    bool inexact; /* a transform algorithm (Winograd, FFT): not exact on integers */
} tag;

/* The transform algorithms of each direction (cuDNN's enum values). */
static bool inexact_fwd(int a)
{
    return a == PDNN_CONVOLUTION_FWD_ALGO_FFT || a == PDNN_CONVOLUTION_FWD_ALGO_FFT_TILING ||
           a == PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD || a == PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED;
}
static bool inexact_bwd_data(int a)
{
    return a == PDNN_CONVOLUTION_BWD_DATA_ALGO_FFT || a == PDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING ||
           a == PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD ||
           a == PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED;
}
static bool inexact_bwd_filter(int a)
{
    return a == PDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT ||
           a == PDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT_TILING ||
           a == PDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD ||
           a == PDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED;
}

/* Compares dense results (exact when exact, else relative error). */
static void compare(const cfg *f, const tag *t, const double *ref, const double *got, size_t n,
                    bool exact)
{
    char d[400];
    if (exact && !t->inexact) {
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < n; i++) {
            double r = f->dt == PDNN_DATA_FLOAT ? (double)(float)ref[i] : ref[i];
            if (!(got[i] == r)) {
                if (!bad) first = i;
                bad++;
            }
        }
        if (bad) describe(f, d, sizeof d);
        TU_CHECK(bad == 0, "%s algo %d: %zu of %zu differ (first at %zu: %g vs %g) [%s]",
                 t->what, t->algo, bad, n, first, got[first], ref[first], d);
    } else {
        double num = 0, den = 0;
        bool nan = false;
        for (size_t i = 0; i < n; i++) {
            nan = nan || isnan(got[i]);
            num += (got[i] - ref[i]) * (got[i] - ref[i]);
            den += ref[i] * ref[i];
        }
        double err = den > 0 ? sqrt(num / den) : sqrt(num);
        double tol = f->dt == PDNN_DATA_DOUBLE ? (t->inexact ? 1e-10 : 1e-12)
                                               : (t->inexact ? 1e-3 : 1e-5);
        if (nan || !(err <= tol)) describe(f, d, sizeof d);
        TU_CHECK(!nan && err <= tol, "%s algo %d: rel err %g > %g [%s]", t->what, t->algo,
                 err, tol, nan || !(err <= tol) ? d : "");
    }
}

/* Runs every direction and every runnable algorithm of f on small integers (exact) and
 * checks beta = 0 with NaN-poisoned outputs, beta != 0, and that gaps stay untouched. */
static void check_case(pdnnHandle_t h, const cfg *f)
{
    descs s;
    make_descs(f, &s);
    dims3 d = widen(f);
    const pdnnDataType_t t = f->dt;
    size_t NX = nx(&d), NY = ny(&d), NW = nw(&d);
    double *xl = malloc((NX + 1) * sizeof *xl), *wl = malloc((NW + 1) * sizeof *wl);
    double *dyl = malloc((NY + 1) * sizeof *dyl), *we = malloc((NW + 1) * sizeof *we);
    double *yref = malloc((NY + 1) * sizeof *yref), *dxref = malloc((NX + 1) * sizeof *dxref);
    double *dwe = malloc((NW + 1) * sizeof *dwe), *dwref = malloc((NW + 1) * sizeof *dwref);
    double *y0 = malloc((NY + 1) * sizeof *y0), *dx0 = malloc((NX + 1) * sizeof *dx0);
    double *dw0 = malloc((NW + 1) * sizeof *dw0);
    double *got = malloc((NX + NY + NW + 1) * sizeof *got);
    double *exp_ = malloc((NX + NY + NW + 1) * sizeof *exp_);
    for (size_t i = 0; i < NX; i++) xl[i] = tu_int(-3, 3), dx0[i] = tu_int(-4, 4);
    for (size_t i = 0; i < NW; i++) wl[i] = tu_int(-2, 2), dw0[i] = tu_int(-4, 4);
    for (size_t i = 0; i < NY; i++) dyl[i] = tu_int(-3, 3), y0[i] = tu_int(-4, 4);
    if (f->mode == PDNN_CONVOLUTION)
        flip_filter(&d, wl, we);
    else
        memcpy(we, wl, NW * sizeof *we);
    oracle_fwd(&d, xl, we, yref);
    oracle_bwd_data(&d, dyl, we, dxref);
    oracle_bwd_filter(&d, xl, dyl, dwe);
    if (f->mode == PDNN_CONVOLUTION)
        flip_filter(&d, dwe, dwref);
    else
        memcpy(dwref, dwe, NW * sizeof *dwref);

    void *xb = make_buf(t, s.nb, s.xd, s.xs, xl);
    void *wb = make_buf(t, s.nb, s.wd, s.ws, wl);
    void *dyb = make_buf(t, s.nb, s.yd, s.ys, dyl);
    size_t xspan = span_of(s.nb, s.xd, s.xs), yspan = span_of(s.nb, s.yd, s.ys);
    tu_scalar one = tu_sc(t, 1), zero = tu_sc(t, 0), two = tu_sc(t, 2), mone = tu_sc(t, -1);
    int algos[8], na;

    /* forward */
    na = runnable_fwd(h, &s, algos);
    TU_CHECK(na >= 1, "no forward algorithm runs");
    for (int a = 0; a < na; a++) {
        tag tg = {"fwd", algos[a], inexact_fwd(algos[a])};
        size_t wsb = 0;
        TU_OK(pdnnGetConvolutionForwardWorkspaceSize(h, s.x, s.w, s.conv, s.y, algos[a], &wsb));
        void *ws = alloc_ws(wsb);
        void *yb = make_buf(t, s.nb, s.yd, s.ys, NULL);
        TU_OK(pdnnConvolutionForward(h, &one, s.x, xb, s.w, wb, s.conv, algos[a], ws, wsb,
                                     &zero, s.y, yb));
        read_buf(yb, t, s.nb, s.yd, s.ys, got);
        compare(f, &tg, yref, got, NY, true);
        TU_CHECK(count_written(yb, t, yspan) == NY, "fwd algo %d wrote a gap of y", algos[a]);
        free(yb);
        yb = make_buf(t, s.nb, s.yd, s.ys, y0);
        TU_OK(pdnnConvolutionForward(h, &two, s.x, xb, s.w, wb, s.conv, algos[a], ws, wsb,
                                     &mone, s.y, yb));
        read_buf(yb, t, s.nb, s.yd, s.ys, got);
        for (size_t i = 0; i < NY; i++) exp_[i] = 2 * yref[i] - y0[i];
        tg.what = "fwd beta";
        compare(f, &tg, exp_, got, NY, true);
        free(yb);
        free(ws);
    }

    /* backward data */
    na = runnable_bwd_data(h, &s, algos);
    TU_CHECK(na >= 1, "no backward-data algorithm runs");
    for (int a = 0; a < na; a++) {
        tag tg = {"bwd_data", algos[a], inexact_bwd_data(algos[a])};
        size_t wsb = 0;
        TU_OK(pdnnGetConvolutionBackwardDataWorkspaceSize(h, s.w, s.y, s.conv, s.x, algos[a],
                                                          &wsb));
        void *ws = alloc_ws(wsb);
        void *dxb = make_buf(t, s.nb, s.xd, s.xs, NULL);
        TU_OK(pdnnConvolutionBackwardData(h, &one, s.w, wb, s.y, dyb, s.conv, algos[a], ws, wsb,
                                          &zero, s.x, dxb));
        read_buf(dxb, t, s.nb, s.xd, s.xs, got);
        compare(f, &tg, dxref, got, NX, true);
        TU_CHECK(count_written(dxb, t, xspan) == NX, "bwd_data algo %d wrote a gap of dx",
                 algos[a]);
        free(dxb);
        dxb = make_buf(t, s.nb, s.xd, s.xs, dx0);
        TU_OK(pdnnConvolutionBackwardData(h, &two, s.w, wb, s.y, dyb, s.conv, algos[a], ws, wsb,
                                          &mone, s.x, dxb));
        read_buf(dxb, t, s.nb, s.xd, s.xs, got);
        for (size_t i = 0; i < NX; i++) exp_[i] = 2 * dxref[i] - dx0[i];
        tg.what = "bwd_data beta";
        compare(f, &tg, exp_, got, NX, true);
        free(dxb);
        free(ws);
    }

    /* backward filter */
    na = runnable_bwd_filter(h, &s, algos);
    TU_CHECK(na >= 1, "no backward-filter algorithm runs");
    for (int a = 0; a < na; a++) {
        tag tg = {"bwd_filter", algos[a], inexact_bwd_filter(algos[a])};
        size_t wsb = 0;
        TU_OK(pdnnGetConvolutionBackwardFilterWorkspaceSize(h, s.x, s.y, s.conv, s.w, algos[a],
                                                            &wsb));
        void *ws = alloc_ws(wsb);
        void *dwb = make_buf(t, s.nb, s.wd, s.ws, NULL);
        TU_OK(pdnnConvolutionBackwardFilter(h, &one, s.x, xb, s.y, dyb, s.conv, algos[a], ws,
                                            wsb, &zero, s.w, dwb));
        read_buf(dwb, t, s.nb, s.wd, s.ws, got);
        compare(f, &tg, dwref, got, NW, true);
        free(dwb);
        dwb = make_buf(t, s.nb, s.wd, s.ws, dw0);
        TU_OK(pdnnConvolutionBackwardFilter(h, &two, s.x, xb, s.y, dyb, s.conv, algos[a], ws,
                                            wsb, &mone, s.w, dwb));
        read_buf(dwb, t, s.nb, s.wd, s.ws, got);
        for (size_t i = 0; i < NW; i++) exp_[i] = 2 * dwref[i] - dw0[i];
        tg.what = "bwd_filter beta";
        compare(f, &tg, exp_, got, NW, true);
        free(dwb);
        free(ws);
    }

    free(xb), free(wb), free(dyb);
    free(xl), free(wl), free(dyl), free(we), free(yref), free(dxref), free(dwe), free(dwref);
    free(y0), free(dx0), free(dw0), free(got), free(exp_);
    free_descs(&s);
}

/* ------------------------------------------------------------------ random problems */

static void random_cfg(cfg *f, int nsp)
{
    memset(f, 0, sizeof *f);
    f->nsp = nsp;
    int maxin = nsp == 3 ? 5 : nsp == 2 ? 7 : 11;
    int maxk = nsp == 3 ? 2 : 3;
    for (;;) {
        f->n = tu_int(1, 3);
        f->g = tu_int(1, 3);
        f->c = f->g * tu_int(1, 3);
        f->k = f->g * tu_int(1, 3);
        bool ok = true;
        for (int i = 0; i < 3; i++) {
            if (i >= nsp) {
                f->in[i] = f->kern[i] = f->str[i] = f->dil[i] = 1;
                f->pb[i] = f->pe[i] = 0;
                continue;
            }
            f->in[i] = tu_int(1, maxin);
            f->kern[i] = tu_int(1, maxk);
            f->str[i] = tu_int(1, 3);
            f->dil[i] = tu_int(1, 2);
            f->pb[i] = tu_int(0, 2);
            f->pe[i] = tu_int(0, 1) ? f->pb[i] : tu_int(0, 3);
            ok = ok && out_size(f, i) >= 1;
        }
        if (ok) break;
    }
    f->mode = tu_int(0, 3) == 0 ? PDNN_CONVOLUTION : PDNN_CROSS_CORRELATION;
    f->xlay = tu_int(0, 3);
    f->ylay = tu_int(0, 3);
    f->wfmt = tu_int(0, 1) ? PDNN_TENSOR_NHWC : PDNN_TENSOR_NCHW;
    int ty = tu_int(0, 2);
    f->dt = ty == 1 ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
    f->ct = ty == 0 ? PDNN_DATA_FLOAT : PDNN_DATA_DOUBLE;
}

static cfg base2d(int n, int c, int k, int g, int h, int w, int kh, int kw)
{
    cfg f;
    memset(&f, 0, sizeof f);
    f.nsp = 2;
    f.n = n, f.c = c, f.k = k, f.g = g;
    f.in[0] = h, f.in[1] = w, f.in[2] = 1;
    f.kern[0] = kh, f.kern[1] = kw, f.kern[2] = 1;
    for (int i = 0; i < 3; i++) f.str[i] = f.dil[i] = 1;
    f.mode = PDNN_CROSS_CORRELATION;
    f.wfmt = PDNN_TENSOR_NCHW;
    f.dt = f.ct = PDNN_DATA_FLOAT;
    return f;
}

static void test_random(pdnnHandle_t h)
{
    tu_seed(1234);
    for (int i = 0; i < 45; i++) {
        cfg f;
        random_cfg(&f, 2);
        check_case(h, &f);
    }
    for (int i = 0; i < 25; i++) {
        cfg f;
        random_cfg(&f, 1);
        check_case(h, &f);
    }
    for (int i = 0; i < 16; i++) {
        cfg f;
        random_cfg(&f, 3);
        check_case(h, &f);
    }
}

static void test_edges(pdnnHandle_t h)
{
    tu_seed(77);
    cfg f;
    /* padding wider than the kernel */
    f = base2d(2, 3, 4, 1, 4, 5, 2, 2);
    f.pb[0] = f.pe[0] = 3, f.pb[1] = 2, f.pe[1] = 4;
    check_case(h, &f);
    /* stride above the kernel */
    f = base2d(1, 2, 3, 1, 9, 8, 2, 1);
    f.str[0] = 3, f.str[1] = 4;
    check_case(h, &f);
    /* dilation */
    f = base2d(2, 2, 2, 1, 9, 9, 3, 3);
    f.dil[0] = 2, f.dil[1] = 3, f.pb[0] = f.pe[0] = 2;
    check_case(h, &f);
    /* depthwise, multiplier 2 (groups == channels, K = 2C) */
    f = base2d(2, 3, 6, 3, 5, 5, 3, 3);
    f.pb[0] = f.pe[0] = f.pb[1] = f.pe[1] = 1;
    check_case(h, &f);
    f.xlay = 1, f.ylay = 1, f.wfmt = PDNN_TENSOR_NHWC;
    check_case(h, &f);
    /* 1x1 spatial input and output */
    f = base2d(3, 4, 5, 1, 1, 1, 1, 1);
    check_case(h, &f);
    /* 1x1 input with padding: the output sees padding and one pixel */
    f = base2d(1, 2, 2, 2, 1, 1, 3, 3);
    f.pb[0] = f.pe[0] = f.pb[1] = f.pe[1] = 1;
    check_case(h, &f);
    /* batch 1, NHWC, KRSC, true convolution */
    f = base2d(1, 3, 2, 1, 6, 7, 3, 2);
    f.xlay = f.ylay = 1, f.wfmt = PDNN_TENSOR_NHWC, f.mode = PDNN_CONVOLUTION;
    check_case(h, &f);
    /* gapped strides everywhere, asymmetric pads (TF SAME with even kernel) */
    f = base2d(2, 4, 4, 2, 6, 6, 2, 4);
    f.xlay = 2, f.ylay = 3, f.pb[0] = 0, f.pe[0] = 1, f.pb[1] = 1, f.pe[1] = 2;
    check_case(h, &f);
    /* DOUBLE data, FLOAT data accumulated in DOUBLE */
    f = base2d(2, 2, 3, 1, 5, 4, 3, 3);
    f.dt = f.ct = PDNN_DATA_DOUBLE, f.str[0] = 2, f.pb[1] = 1;
    check_case(h, &f);
    f.dt = PDNN_DATA_FLOAT;
    check_case(h, &f);
    /* 1-d and 3-d */
    memset(&f, 0, sizeof f);
    f.nsp = 1, f.n = 2, f.c = 2, f.k = 4, f.g = 2, f.in[0] = 10, f.kern[0] = 3, f.str[0] = 2,
    f.dil[0] = 2, f.pb[0] = 3, f.pe[0] = 0, f.mode = PDNN_CONVOLUTION, f.xlay = 2;
    for (int i = 1; i < 3; i++) f.in[i] = f.kern[i] = f.str[i] = f.dil[i] = 1;
    f.wfmt = PDNN_TENSOR_NCHW, f.dt = f.ct = PDNN_DATA_FLOAT;
    check_case(h, &f);
    memset(&f, 0, sizeof f);
    f.nsp = 3, f.n = 1, f.c = 2, f.k = 2, f.g = 1, f.wfmt = PDNN_TENSOR_NHWC;
    f.xlay = f.ylay = 1, f.dt = f.ct = PDNN_DATA_FLOAT, f.mode = PDNN_CROSS_CORRELATION;
    int in3[3] = {4, 5, 3}, k3[3] = {2, 3, 1}, s3[3] = {1, 2, 1}, d3[3] = {2, 1, 1},
        p3[3] = {1, 1, 0}, e3[3] = {0, 2, 1};
    for (int i = 0; i < 3; i++)
        f.in[i] = in3[i], f.kern[i] = k3[i], f.str[i] = s3[i], f.dil[i] = d3[i],
        f.pb[i] = p3[i], f.pe[i] = e3[i];
    check_case(h, &f);
}

/* ------------------------------------------------------------------ hand-worked cases */

static void test_by_hand(pdnnHandle_t h)
{
    const pdnnDataType_t t = PDNN_DATA_FLOAT;
    float x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, w[4] = {1, 0, 0, -1}, y[4], dy[4] = {1, 0, 0, 0};
    float dx[9], dw[4], one = 1, zero = 0;
    pdnnTensorDescriptor_t xd = tu_tensor4d(t, PDNN_TENSOR_NCHW, 1, 1, 3, 3);
    pdnnTensorDescriptor_t yd = tu_tensor4d(t, PDNN_TENSOR_NCHW, 1, 1, 2, 2);
    pdnnFilterDescriptor_t wd;
    pdnnConvolutionDescriptor_t cd;
    TU_OK(pdnnCreateFilterDescriptor(&wd));
    TU_OK(pdnnSetFilter4dDescriptor(wd, t, PDNN_TENSOR_NCHW, 1, 1, 2, 2));
    TU_OK(pdnnCreateConvolutionDescriptor(&cd));
    TU_OK(pdnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 1, PDNN_CROSS_CORRELATION, t));
    TU_OK(pdnnConvolutionForward(h, &one, xd, x, wd, w, cd, PDNN_CONVOLUTION_FWD_ALGO_DIRECT,
                                 NULL, 0, &zero, yd, y));
    TU_CHECK(y[0] == -4 && y[1] == -4 && y[2] == -4 && y[3] == -4, "xcorr %g %g %g %g", y[0],
             y[1], y[2], y[3]);
    TU_OK(pdnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 1, PDNN_CONVOLUTION, t));
    TU_OK(pdnnConvolutionForward(h, &one, xd, x, wd, w, cd, PDNN_CONVOLUTION_FWD_ALGO_DIRECT,
                                 NULL, 0, &zero, yd, y));
    TU_CHECK(y[0] == 4 && y[1] == 4 && y[2] == 4 && y[3] == 4, "conv %g %g %g %g", y[0], y[1],
             y[2], y[3]);
    /* transposed: dy = e_00 puts the (correlation) filter at the top-left of dx */
    TU_OK(pdnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 1, PDNN_CROSS_CORRELATION, t));
    TU_OK(pdnnConvolutionBackwardData(h, &one, wd, w, yd, dy, cd,
                                      PDNN_CONVOLUTION_BWD_DATA_ALGO_0, NULL, 0, &zero, xd, dx));
    float edx[9] = {1, 0, 0, 0, -1, 0, 0, 0, 0};
    TU_CHECK(!memcmp(dx, edx, sizeof dx), "bwd data %g %g %g / %g %g %g", dx[0], dx[1], dx[2],
             dx[3], dx[4], dx[5]);
    TU_OK(pdnnConvolutionBackwardFilter(h, &one, xd, x, yd, dy, cd,
                                        PDNN_CONVOLUTION_BWD_FILTER_ALGO_0, NULL, 0, &zero, wd,
                                        dw));
    TU_CHECK(dw[0] == 1 && dw[1] == 2 && dw[2] == 4 && dw[3] == 5, "bwd filter %g %g %g %g",
             dw[0], dw[1], dw[2], dw[3]);
    /* pad 1, stride 2, 3x3 ones: each output sums a 2x2 corner block */
    pdnnFilterDescriptor_t wd3;
    float ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    TU_OK(pdnnCreateFilterDescriptor(&wd3));
    TU_OK(pdnnSetFilter4dDescriptor(wd3, t, PDNN_TENSOR_NCHW, 1, 1, 3, 3));
    TU_OK(pdnnSetConvolution2dDescriptor(cd, 1, 1, 2, 2, 1, 1, PDNN_CROSS_CORRELATION, t));
    TU_OK(pdnnConvolutionForward(h, &one, xd, x, wd3, ones, cd,
                                 PDNN_CONVOLUTION_FWD_ALGO_DIRECT, NULL, 0, &zero, yd, y));
    TU_CHECK(y[0] == 12 && y[1] == 16 && y[2] == 24 && y[3] == 28, "pad/stride %g %g %g %g",
             y[0], y[1], y[2], y[3]);
    /* 1-d, dilation 2: [1 2 3 4 5] * [1 1] -> [4 6 8] */
    int d3[3] = {1, 1, 5}, o3[3] = {1, 1, 3}, f3[3] = {1, 1, 2};
    pdnnTensorDescriptor_t x1 = tu_tensor(t, 3, d3, NULL), y1 = tu_tensor(t, 3, o3, NULL);
    pdnnFilterDescriptor_t w1;
    TU_OK(pdnnCreateFilterDescriptor(&w1));
    TU_OK(pdnnSetFilterNdDescriptor(w1, t, PDNN_TENSOR_NCHW, 3, f3));
    int pad = 0, str = 1, dil = 2;
    TU_OK(pdnnSetConvolutionNdDescriptor(cd, 1, &pad, &str, &dil, PDNN_CROSS_CORRELATION, t));
    float w11[2] = {1, 1};
    TU_OK(pdnnConvolutionForward(h, &one, x1, x, w1, w11, cd, PDNN_CONVOLUTION_FWD_ALGO_DIRECT,
                                 NULL, 0, &zero, y1, y));
    TU_CHECK(y[0] == 4 && y[1] == 6 && y[2] == 8, "1-d dilated %g %g %g", y[0], y[1], y[2]);
    /* backward bias: channel 0 ones, channel 1 twos over 2x2 */
    float g8[8] = {1, 1, 1, 1, 2, 2, 2, 2}, db[2];
    pdnnTensorDescriptor_t gd = tu_tensor4d(t, PDNN_TENSOR_NCHW, 1, 2, 2, 2);
    pdnnTensorDescriptor_t bd = tu_tensor4d(t, PDNN_TENSOR_NCHW, 1, 2, 1, 1);
    TU_OK(pdnnConvolutionBackwardBias(h, &one, gd, g8, &zero, bd, db));
    TU_CHECK(db[0] == 4 && db[1] == 8, "bwd bias %g %g", db[0], db[1]);
    pdnnDestroyTensorDescriptor(gd);
    pdnnDestroyTensorDescriptor(bd);
    pdnnDestroyTensorDescriptor(x1);
    pdnnDestroyTensorDescriptor(y1);
    pdnnDestroyFilterDescriptor(w1);
    pdnnDestroyFilterDescriptor(wd3);
    pdnnDestroyTensorDescriptor(xd);
    pdnnDestroyTensorDescriptor(yd);
    pdnnDestroyFilterDescriptor(wd);
    pdnnDestroyConvolutionDescriptor(cd);
}

/* ------------------------------------------------------------------ trusting no reference */

static double dot(const double *a, const double *b, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

/* Adjoint identities and central differences in DOUBLE with the library alone. */
static void check_adjoint(pdnnHandle_t h, const cfg *f0)
{
    cfg f = *f0;
    f.dt = f.ct = PDNN_DATA_DOUBLE;
    descs s;
    make_descs(&f, &s);
    dims3 d = widen(&f);
    size_t NX = nx(&d), NY = ny(&d), NW = nw(&d);
    double *x = malloc(NX * sizeof *x), *w = malloc(NW * sizeof *w), *dy = malloc(NY * sizeof *dy);
    double *y = malloc(NY * sizeof *y), *dx = malloc(NX * sizeof *dx), *dw = malloc(NW * sizeof *dw);
    tu_fill_uniform(x, PDNN_DATA_DOUBLE, NX, -1, 1);
    tu_fill_uniform(w, PDNN_DATA_DOUBLE, NW, -1, 1);
    tu_fill_uniform(dy, PDNN_DATA_DOUBLE, NY, -1, 1);
    void *xb = make_buf(f.dt, s.nb, s.xd, s.xs, x), *wb = make_buf(f.dt, s.nb, s.wd, s.ws, w);
    void *dyb = make_buf(f.dt, s.nb, s.yd, s.ys, dy);
    void *yb = make_buf(f.dt, s.nb, s.yd, s.ys, NULL), *dxb = make_buf(f.dt, s.nb, s.xd, s.xs, NULL);
    void *dwb = make_buf(f.dt, s.nb, s.wd, s.ws, NULL);
    double one = 1, zero = 0;
    TU_OK(pdnnConvolutionForward(h, &one, s.x, xb, s.w, wb, s.conv,
                                 PDNN_CONVOLUTION_FWD_ALGO_DIRECT, NULL, 0, &zero, s.y, yb));
    TU_OK(pdnnConvolutionBackwardData(h, &one, s.w, wb, s.y, dyb, s.conv,
                                      PDNN_CONVOLUTION_BWD_DATA_ALGO_0, NULL, 0, &zero, s.x, dxb));
    TU_OK(pdnnConvolutionBackwardFilter(h, &one, s.x, xb, s.y, dyb, s.conv,
                                        PDNN_CONVOLUTION_BWD_FILTER_ALGO_0, NULL, 0, &zero, s.w,
                                        dwb));
    read_buf(yb, f.dt, s.nb, s.yd, s.ys, y);
    read_buf(dxb, f.dt, s.nb, s.xd, s.xs, dx);
    read_buf(dwb, f.dt, s.nb, s.wd, s.ws, dw);
    double l = dot(y, dy, NY), lx = dot(x, dx, NX), lw = dot(w, dw, NW);
    double scale = 1 + fabs(l);
    char dsc[400];
    describe(&f, dsc, sizeof dsc);
    TU_CHECK(fabs(l - lx) <= 1e-12 * scale, "<conv(x),dy> %.17g != <x,bwd_data(dy)> %.17g [%s]",
             l, lx, dsc);
    TU_CHECK(fabs(l - lw) <= 1e-12 * scale, "<conv(x),dy> %.17g != <w,bwd_filter> %.17g [%s]",
             l, lw, dsc);

    /* central differences of L(x, w) = <conv(x, w), dy> at a few coordinates */
    const double eps = 1e-3;
    for (int r = 0; r < 4; r++) {
        bool on_x = r % 2 == 0;
        size_t n = on_x ? NX : NW;
        size_t i = (size_t)tu_int(0, (int)n - 1);
        double *v = on_x ? x : w, save = v[i], lp = 0, lm = 0;
        void *vb = on_x ? xb : wb;
        size_t off = on_x ? offset_of(s.nb, s.xd, s.xs, i) : offset_of(s.nb, s.wd, s.ws, i);
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            ((double *)vb)[off] = save + sgn * eps;
            TU_OK(pdnnConvolutionForward(h, &one, s.x, xb, s.w, wb, s.conv,
                                         PDNN_CONVOLUTION_FWD_ALGO_DIRECT, NULL, 0, &zero, s.y,
                                         yb));
            read_buf(yb, f.dt, s.nb, s.yd, s.ys, y);
            if (sgn < 0)
                lm = dot(y, dy, NY);
            else
                lp = dot(y, dy, NY);
        }
        ((double *)vb)[off] = save;
        double fd = (lp - lm) / (2 * eps), an = on_x ? dx[i] : dw[i];
        TU_CHECK(fabs(fd - an) <= 1e-8 * (1 + fabs(an)), "finite difference d%s[%zu]: %.12g vs %.12g [%s]",
                 on_x ? "x" : "w", i, fd, an, dsc);
    }
    free(xb), free(wb), free(dyb), free(yb), free(dxb), free(dwb);
    free(x), free(w), free(dy), free(y), free(dx), free(dw);
    free_descs(&s);
}

static void test_adjoint(pdnnHandle_t h)
{
    tu_seed(99);
    for (int i = 0; i < 24; i++) {
        cfg f;
        random_cfg(&f, 1 + i % 3);
        check_adjoint(h, &f);
    }
}

/* ------------------------------------------------------------------ threads */

static void test_threads(pdnnHandle_t h)
{
    tu_seed(5);
    for (int it = 0; it < 8; it++) {
        cfg f;
        random_cfg(&f, 1 + it % 3);
        f.n = 3;
        f.dt = f.ct = PDNN_DATA_FLOAT;
        descs s;
        make_descs(&f, &s);
        dims3 d = widen(&f);
        size_t NX = nx(&d), NY = ny(&d), NW = nw(&d);
        double *x = malloc(NX * sizeof *x), *w = malloc(NW * sizeof *w), *dy = malloc(NY * sizeof *dy);
        for (size_t i = 0; i < NX; i++) x[i] = tu_uniform(-1, 1);
        for (size_t i = 0; i < NW; i++) w[i] = tu_uniform(-1, 1);
        for (size_t i = 0; i < NY; i++) dy[i] = tu_uniform(-1, 1);
        void *xb = make_buf(f.dt, s.nb, s.xd, s.xs, x), *wb = make_buf(f.dt, s.nb, s.wd, s.ws, w);
        void *dyb = make_buf(f.dt, s.nb, s.yd, s.ys, dy);
        size_t xs = span_of(s.nb, s.xd, s.xs), ys = span_of(s.nb, s.yd, s.ys);
        size_t wsp = span_of(s.nb, s.wd, s.ws);
        float one = 1, zero = 0;
        int algos[8], na;
        na = runnable_fwd(h, &s, algos);
        for (int a = 0; a < na; a++) {
            void *out[2];
            size_t wsb = 0;
            TU_OK(pdnnGetConvolutionForwardWorkspaceSize(h, s.x, s.w, s.conv, s.y, algos[a], &wsb));
            void *ws = alloc_ws(wsb);
            for (int th = 0; th < 2; th++) {
                TU_OK(pdnnSetNumThreads(h, th + 1));
                out[th] = make_buf(f.dt, s.nb, s.yd, s.ys, NULL);
                TU_OK(pdnnConvolutionForward(h, &one, s.x, xb, s.w, wb, s.conv, algos[a], ws,
                                             wsb, &zero, s.y, out[th]));
            }
            TU_CHECK(tu_bitwise_equal(out[0], out[1], ys * 4), "fwd algo %d: 1 vs 2 threads",
                     algos[a]);
            free(out[0]), free(out[1]), free(ws);
        }
        na = runnable_bwd_data(h, &s, algos);
        for (int a = 0; a < na; a++) {
            void *out[2];
            size_t wsb = 0;
            TU_OK(pdnnGetConvolutionBackwardDataWorkspaceSize(h, s.w, s.y, s.conv, s.x, algos[a],
                                                              &wsb));
            void *ws = alloc_ws(wsb);
            for (int th = 0; th < 2; th++) {
                TU_OK(pdnnSetNumThreads(h, th + 1));
                out[th] = make_buf(f.dt, s.nb, s.xd, s.xs, NULL);
                TU_OK(pdnnConvolutionBackwardData(h, &one, s.w, wb, s.y, dyb, s.conv, algos[a],
                                                  ws, wsb, &zero, s.x, out[th]));
            }
            TU_CHECK(tu_bitwise_equal(out[0], out[1], xs * 4),
                     "bwd data algo %d: 1 vs 2 threads", algos[a]);
            free(out[0]), free(out[1]), free(ws);
        }
        na = runnable_bwd_filter(h, &s, algos);
        for (int a = 0; a < na; a++) {
            void *out[2];
            size_t wsb = 0;
            TU_OK(pdnnGetConvolutionBackwardFilterWorkspaceSize(h, s.x, s.y, s.conv, s.w,
                                                                algos[a], &wsb));
            void *ws = alloc_ws(wsb);
            for (int th = 0; th < 2; th++) {
                TU_OK(pdnnSetNumThreads(h, th + 1));
                out[th] = make_buf(f.dt, s.nb, s.wd, s.ws, NULL);
                TU_OK(pdnnConvolutionBackwardFilter(h, &one, s.x, xb, s.y, dyb, s.conv,
                                                    algos[a], ws, wsb, &zero, s.w, out[th]));
            }
            TU_CHECK(tu_bitwise_equal(out[0], out[1], wsp * 4),
                     "bwd filter algo %d: 1 vs 2 threads", algos[a]);
            free(out[0]), free(out[1]), free(ws);
        }
        TU_OK(pdnnSetNumThreads(h, 2));
        free(xb), free(wb), free(dyb), free(x), free(w), free(dy);
        free_descs(&s);
    }
}

/* ------------------------------------------------------------------ zero-sized batch */

static void test_zero_batch(pdnnHandle_t h)
{
    cfg f = base2d(0, 2, 3, 1, 4, 4, 3, 3);
    descs s;
    make_descs(&f, &s);
    float one = 1, zero = 0, half = 0.5f;
    float w[2 * 3 * 9], dw[3 * 2 * 9];
    for (int i = 0; i < 18 * 3; i++) w[i] = 1, dw[i] = 2;
    TU_OK(pdnnConvolutionForward(h, &one, s.x, NULL, s.w, w, s.conv,
                                 PDNN_CONVOLUTION_FWD_ALGO_DIRECT, NULL, 0, &zero, s.y, NULL));
    TU_OK(pdnnConvolutionBackwardData(h, &one, s.w, w, s.y, NULL, s.conv,
                                      PDNN_CONVOLUTION_BWD_DATA_ALGO_0, NULL, 0, &zero, s.x, NULL));
    /* the gradient over an empty batch is zero: dw = beta * dw */
    TU_OK(pdnnConvolutionBackwardFilter(h, &one, s.x, NULL, s.y, NULL, s.conv,
                                        PDNN_CONVOLUTION_BWD_FILTER_ALGO_0, NULL, 0, &half, s.w,
                                        dw));
    bool ok = true;
    for (int i = 0; i < 54; i++) ok = ok && dw[i] == 1;
    TU_CHECK(ok, "empty-batch dw should be beta * dw");
    tu_poison(dw, PDNN_DATA_FLOAT, 54);
    TU_OK(pdnnConvolutionBackwardFilter(h, &one, s.x, NULL, s.y, NULL, s.conv,
                                        PDNN_CONVOLUTION_BWD_FILTER_ALGO_0, NULL, 0, &zero, s.w,
                                        dw));
    ok = true;
    for (int i = 0; i < 54; i++) ok = ok && dw[i] == 0;
    TU_CHECK(ok, "empty-batch dw with beta 0 should be 0 (NaN must not leak)");
    /* backward bias over an empty batch */
    float db[3] = {4, 4, 4};
    pdnnTensorDescriptor_t bd = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 3, 1, 1);
    TU_OK(pdnnConvolutionBackwardBias(h, &one, s.y, NULL, &half, bd, db));
    TU_CHECK(db[0] == 2 && db[1] == 2 && db[2] == 2, "empty-batch db %g", db[0]);
    pdnnDestroyTensorDescriptor(bd);
    free_descs(&s);
}

/* ------------------------------------------------------------------ bias */

static void test_backward_bias(pdnnHandle_t h)
{
    tu_seed(31);
    for (int it = 0; it < 12; it++) {
        pdnnDataType_t t = it % 2 ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        int nb = 3 + it % 3, dims[5], st[5], bdims[5], bst[5];
        for (int i = 0; i < nb; i++) dims[i] = tu_int(1, 4), bdims[i] = 1;
        bdims[1] = dims[1];
        make_strides(nb, dims, it % 4, st);
        make_strides(nb, bdims, (it / 2) % 4, bst);
        size_t n = numel_of(nb, dims);
        double *dy = malloc(n * sizeof *dy), ref[4] = {0}, b0[4], got[4];
        for (size_t i = 0; i < n; i++) dy[i] = tu_int(-5, 5);
        int sp = (int)(n / ((size_t)dims[0] * dims[1]));
        for (size_t i = 0; i < n; i++) ref[(i / (size_t)sp) % (size_t)dims[1]] += dy[i];
        for (int k = 0; k < dims[1]; k++) b0[k] = tu_int(-3, 3);
        pdnnTensorDescriptor_t yd = tu_tensor(t, nb, dims, st), bd = tu_tensor(t, nb, bdims, bst);
        void *yb = make_buf(t, nb, dims, st, dy);
        void *bb = make_buf(t, nb, bdims, bst, NULL);
        tu_scalar one = tu_sc(t, 1), zero = tu_sc(t, 0), a = tu_sc(t, 3), b = tu_sc(t, -2);
        TU_OK(pdnnConvolutionBackwardBias(h, &one, yd, yb, &zero, bd, bb));
        read_buf(bb, t, nb, bdims, bst, got);
        bool ok = true;
        for (int k = 0; k < dims[1]; k++) ok = ok && got[k] == ref[k];
        TU_CHECK(ok, "backward bias case %d", it);
        free(bb);
        bb = make_buf(t, nb, bdims, bst, b0);
        TU_OK(pdnnConvolutionBackwardBias(h, &a, yd, yb, &b, bd, bb));
        read_buf(bb, t, nb, bdims, bst, got);
        ok = true;
        for (int k = 0; k < dims[1]; k++) ok = ok && got[k] == 3 * ref[k] - 2 * b0[k];
        TU_CHECK(ok, "backward bias with beta, case %d", it);
        free(bb), free(yb), free(dy);
        pdnnDestroyTensorDescriptor(yd);
        pdnnDestroyTensorDescriptor(bd);
    }
}

static double act_oracle(pdnnActivationMode_t m, double v)
{
    switch (m) {
    case PDNN_ACTIVATION_RELU: return v > 0 ? v : 0;
    case PDNN_ACTIVATION_SIGMOID: return 1 / (1 + exp(-v));
    case PDNN_ACTIVATION_TANH: return tanh(v);
    case PDNN_ACTIVATION_IDENTITY: return v;
    default: return NAN;
    }
}

static void test_bias_activation(pdnnHandle_t h)
{
    tu_seed(8);
    const pdnnActivationMode_t modes[4] = {PDNN_ACTIVATION_RELU, PDNN_ACTIVATION_IDENTITY,
                                           PDNN_ACTIVATION_SIGMOID, PDNN_ACTIVATION_TANH};
    pdnnActivationDescriptor_t ad;
    TU_OK(pdnnCreateActivationDescriptor(&ad));
    for (int it = 0; it < 16; it++) {
        cfg f;
        random_cfg(&f, 1 + it % 3);
        pdnnActivationMode_t m = modes[it % 4];
        TU_OK(pdnnSetActivationDescriptor(ad, m, PDNN_PROPAGATE_NAN, 0.0));
        descs s;
        make_descs(&f, &s);
        dims3 d = widen(&f);
        const pdnnDataType_t t = f.dt;
        size_t NX = nx(&d), NY = ny(&d), NW = nw(&d);
        double *x = malloc(NX * sizeof *x), *w = malloc(NW * sizeof *w), *we = malloc(NW * sizeof *we);
        double *z = malloc(NY * sizeof *z), *y = malloc(NY * sizeof *y), *got = malloc(NY * sizeof *got);
        double *ref = malloc(NY * sizeof *ref), bias[9];
        for (size_t i = 0; i < NX; i++) x[i] = tu_uniform(-1, 1);
        for (size_t i = 0; i < NW; i++) w[i] = tu_uniform(-1, 1);
        for (size_t i = 0; i < NY; i++) z[i] = tu_uniform(-1, 1);
        for (int k = 0; k < f.k; k++) bias[k] = tu_uniform(-1, 1);
        if (f.mode == PDNN_CONVOLUTION)
            flip_filter(&d, w, we);
        else
            memcpy(we, w, NW * sizeof *we);
        oracle_fwd(&d, x, we, y);
        double a1 = 1.5, a2 = it % 3 == 2 ? 0.0 : -0.5;
        size_t sp = NY / ((size_t)f.n * f.k);
        for (size_t i = 0; i < NY; i++) {
            size_t k = (i / sp) % (size_t)f.k;
            ref[i] = act_oracle(m, a1 * y[i] + a2 * z[i] + bias[k]);
        }
        int bdims[5], bst[5];
        for (int i = 0; i < s.nb; i++) bdims[i] = 1;
        bdims[1] = f.k;
        make_strides(s.nb, bdims, 0, bst);
        pdnnTensorDescriptor_t bd = tu_tensor(t, s.nb, bdims, bst);
        void *xb = make_buf(t, s.nb, s.xd, s.xs, x), *wb = make_buf(t, s.nb, s.wd, s.ws, w);
        void *bb = make_buf(t, s.nb, bdims, bst, bias);
        tu_scalar sa1 = tu_sc(t, a1), sa2 = tu_sc(t, a2);
        for (int inplace = 0; inplace < 2; inplace++) {
            void *zb = make_buf(t, s.nb, s.yd, s.ys, z);
            void *yb = inplace ? zb : make_buf(t, s.nb, s.yd, s.ys, NULL);
            if (inplace && a2 == 0.0) tu_poison(zb, t, span_of(s.nb, s.yd, s.ys));
            TU_OK(pdnnConvolutionBiasActivationForward(
                h, &sa1, s.x, xb, s.w, wb, s.conv, PDNN_CONVOLUTION_FWD_ALGO_DIRECT, NULL, 0,
                &sa2, s.y, zb, bd, bb, ad, s.y, yb));
            read_buf(yb, t, s.nb, s.yd, s.ys, got);
            tag tg = {inplace ? "bias-act z=y" : "bias-act", PDNN_CONVOLUTION_FWD_ALGO_DIRECT,
                      false};
            compare(&f, &tg, ref, got, NY, false);
            if (yb != zb) free(yb);
            free(zb);
        }
        free(xb), free(wb), free(bb);
        free(x), free(w), free(we), free(z), free(y), free(got), free(ref);
        pdnnDestroyTensorDescriptor(bd);
        free_descs(&s);
    }
    pdnnDestroyActivationDescriptor(ad);
}

int main(void)
{
    pdnnHandle_t h;
    TU_OK(pdnnCreate(&h));
    TU_OK(pdnnSetNumThreads(h, 2));
    test_by_hand(h);
    test_edges(h);
    test_random(h);
    test_adjoint(h);
    test_threads(h);
    test_zero_batch(h);
    test_backward_bias(h);
    test_bias_activation(h);
    TU_OK(pdnnDestroy(h));
    return tu_finish("ops/conv_ref");
}
