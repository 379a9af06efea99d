/* pdnnSoftmaxForward / Backward against an independent long-double oracle: random ranks
 * (2..5, and 8), dims and layouts (packed, channels-last, gapped, x and y in different
 * layouts), both modes, FAST / ACCURATE / LOG, alpha/beta blending, NaN-poisoned outputs,
 * untouched gaps, 1 vs 2 threads bitwise, in place, inputs around +-1e7 and up to 3e38,
 * NaN rows, hand-worked values and central finite differences in DOUBLE for both
 * backward formulas. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_layout.h"

static pdnnHandle_t H;

/* ------------------------------------------------------------------ the oracle */

typedef struct {
    int nb, dims[PDNN_DIM_MAX];
    pdnnSoftmaxMode_t mode;
    int64_t numel, rows;
} shape_t;

static void shape_init(shape_t *s, int nb, const int *dims, pdnnSoftmaxMode_t mode)
{
    s->nb = nb;
    memcpy(s->dims, dims, sizeof(int) * nb);
    s->mode = mode;
    s->numel = tu_layout_numel(nb, dims);
    int64_t sp = 1;
    for (int i = 2; i < nb; i++) sp *= dims[i];
    s->rows = mode == PDNN_SOFTMAX_MODE_INSTANCE ? dims[0] : (int64_t)dims[0] * sp;
}

/* The row of logical element `lin`: n for INSTANCE, (n, spatial) for CHANNEL. */
static int64_t row_of(const shape_t *s, int64_t lin)
{
    int64_t per_n = s->numel / s->dims[0];
    int64_t n = lin / per_n, rest = lin % per_n;
    if (s->mode == PDNN_SOFTMAX_MODE_INSTANCE) return n;
    int64_t sp = s->dims[1] ? per_n / s->dims[1] : 0;
    return n * sp + rest % sp; /* rest = c * sp + spatial */
}

/* y[i] (logical order) for inputs x[i]; scale[i] bounds the size of the terms. */
static void o_fwd(const shape_t *s, pdnnSoftmaxAlgorithm_t algo, const long double *x,
                  long double *y, long double *scale)
{
    long double *mx = malloc(sizeof(long double) * (size_t)s->rows);
    long double *sum = calloc((size_t)s->rows, sizeof(long double));
    for (int64_t r = 0; r < s->rows; r++) mx[r] = -INFINITY;
    for (int64_t i = 0; i < s->numel; i++) {
        int64_t r = row_of(s, i);
        if (x[i] > mx[r]) mx[r] = x[i];
    }
    for (int64_t i = 0; i < s->numel; i++) sum[row_of(s, i)] += expl(x[i] - mx[row_of(s, i)]);
    for (int64_t i = 0; i < s->numel; i++) {
        int64_t r = row_of(s, i);
        long double d = x[i] - mx[r];
        if (algo == PDNN_SOFTMAX_LOG) {
            y[i] = d - logl(sum[r]);
            scale[i] = fabsl(d) + fabsl(logl(sum[r]));
        } else {
            y[i] = expl(d) / sum[r];
            scale[i] = fabsl(y[i]);
        }
    }
    free(mx), free(sum);
}

static void o_bwd(const shape_t *s, pdnnSoftmaxAlgorithm_t algo, const long double *y,
                  const long double *dy, long double *dx, long double *scale)
{
    long double *sum = calloc((size_t)s->rows, sizeof(long double));
    long double *asum = calloc((size_t)s->rows, sizeof(long double));
    const bool lg = algo == PDNN_SOFTMAX_LOG;
    for (int64_t i = 0; i < s->numel; i++) {
        long double v = lg ? dy[i] : dy[i] * y[i];
        sum[row_of(s, i)] += v;
        asum[row_of(s, i)] += fabsl(v);
    }
    for (int64_t i = 0; i < s->numel; i++) {
        int64_t r = row_of(s, i);
        if (lg) {
            dx[i] = dy[i] - expl(y[i]) * sum[r];
            scale[i] = fabsl(dy[i]) + expl(y[i]) * asum[r];
        } else {
            dx[i] = y[i] * (dy[i] - sum[r]);
            scale[i] = fabsl(y[i]) * (fabsl(dy[i]) + asum[r]);
        }
    }
    free(sum), free(asum);
}

/* ------------------------------------------------------------------ helpers */


static void *dup_buf(const void *p, pdnnDataType_t t, int64_t n)
{
    void *q = tu_alloc(t, (size_t)n);
    memcpy(q, p, (size_t)n * tu_esize(t));
    return q;
}

static void check_gaps(const tu_view *v, pdnnDataType_t t, const void *before, const void *after,
                       const char *what)
{
    unsigned char *m = calloc((size_t)(v->span ? v->span : 1), 1);
    for (int64_t i = 0; i < v->numel; i++) m[tu_view_off(v, i)] = 1;
    long bad = 0;
    for (int64_t i = 0; i < v->span; i++)
        if (!m[i] && memcmp((const char *)before + i * tu_esize(t), (const char *)after + i * tu_esize(t),
                            tu_esize(t)))
            bad++;
    TU_CHECK(bad == 0, "%s: %ld elements outside the tensor were written", what, bad);
    free(m);
}

static int random_kind(void)
{
    int r = tu_int(0, 9);
    return r < 4 ? TU_LAYOUT_PACKED : r < 7 ? TU_LAYOUT_CHANNELS_LAST : TU_LAYOUT_GAPPED;
}

static bool close_to(double got, long double want, long double scale, double tol)
{
    if (isnan(want)) return isnan(got);
    if (isinf(want)) return got == (double)want;
    return fabsl((long double)got - want) <= tol * scale + 1e-300L;
}

static const char *ALGO[3] = {"FAST", "ACCURATE", "LOG"};

/* One forward case on given dims: x filled by fill(); compares with the oracle,
 * 1 vs 2 threads, gaps, in place. */
typedef void (*filler)(void *x, pdnnDataType_t t, const tu_view *v);

static void fill_uniform(void *x, pdnnDataType_t t, const tu_view *v)
{
    tu_fill_uniform(x, t, (size_t)v->span, -6, 6);
}

static void fwd_case(pdnnDataType_t t, int nb, const int *dims, pdnnSoftmaxMode_t mode,
                     pdnnSoftmaxAlgorithm_t algo, int kx, int ky, double alpha, double beta,
                     filler fill, double tol, const char *what)
{
    tu_view vx, vy;
    tu_view_make(&vx, t, nb, dims, kx);
    if (ky < 0)
        tu_view_same(&vy, &vx, t);
    else
        tu_view_make(&vy, t, nb, dims, ky);
    if (t == PDNN_DATA_FLOAT) alpha = (float)alpha, beta = (float)beta;
    tu_scalar al = tu_sc(t, alpha), be = tu_sc(t, beta);
    void *x = tu_alloc(t, (size_t)vx.span);
    fill(x, t, &vx);
    void *y0 = tu_alloc(t, (size_t)vy.span);
    if (beta == 0.0)
        tu_poison(y0, t, (size_t)vy.span);
    else
        tu_fill_uniform(y0, t, (size_t)vy.span, -1, 1);
    void *y1 = dup_buf(y0, t, vy.span), *y2 = dup_buf(y0, t, vy.span);
    TU_OK(pdnnSetNumThreads(H, 1));
    TU_OK(pdnnSoftmaxForward(H, algo, mode, &al, vx.d, x, &be, vy.d, y1));
    TU_OK(pdnnSetNumThreads(H, 2));
    TU_OK(pdnnSoftmaxForward(H, algo, mode, &al, vx.d, x, &be, vy.d, y2));
    TU_CHECK(tu_bitwise_equal(y1, y2, (size_t)vy.span * tu_esize(t)),
             "%s: fwd 1 and 2 threads differ", what);
    check_gaps(&vy, t, y0, y1, what);

    shape_t s;
    shape_init(&s, nb, dims, mode);
    size_t n = (size_t)(s.numel ? s.numel : 1);
    long double *xl = calloc(n, sizeof *xl), *yl = calloc(n, sizeof *yl),
                *sc = calloc(n, sizeof *sc);
    for (int64_t i = 0; i < s.numel; i++) xl[i] = tu_get(x, t, (size_t)tu_view_off(&vx, i));
    if (s.numel) o_fwd(&s, algo, xl, yl, sc);
    long bad = 0;
    for (int64_t i = 0; i < s.numel; i++) {
        long double yo = tu_get(y0, t, (size_t)tu_view_off(&vy, i));
        long double want = alpha * yl[i] + (beta != 0 ? beta * yo : 0.0L);
        long double scale = fabsl(alpha) * sc[i] + (beta != 0 ? fabsl(beta * yo) : 0.0L);
        double got = tu_get(y1, t, (size_t)tu_view_off(&vy, i));
        if (!close_to(got, want, scale, tol) && bad++ < 3)
            TU_CHECK(0, "%s: %s mode %d elem %lld: x=%.17Lg got %.17g want %.17Lg", what,
                     ALGO[algo], (int)mode, (long long)i, xl[i], got, want);
    }
    TU_CHECK(bad == 0, "%s: %s mode %d: %ld mismatches", what, ALGO[algo], (int)mode, bad);

    if (beta == 0.0 && s.numel > 0) { /* in place equals out of place, bitwise */
        void *ref = tu_alloc(t, (size_t)vx.span), *xy = dup_buf(x, t, vx.span);
        TU_OK(pdnnSoftmaxForward(H, algo, mode, &al, vx.d, x, &be, vx.d, ref));
        TU_OK(pdnnSoftmaxForward(H, algo, mode, &al, vx.d, xy, &be, vx.d, xy));
        long diff = 0;
        for (int64_t i = 0; i < s.numel; i++) {
            size_t o = (size_t)tu_view_off(&vx, i) * tu_esize(t);
            diff += memcmp((char *)ref + o, (char *)xy + o, tu_esize(t)) != 0;
        }
        TU_CHECK(diff == 0, "%s: fwd in place differs at %ld elements", what, diff);
        free(ref), free(xy);
    }
    free(xl), free(yl), free(sc), free(x), free(y0), free(y1), free(y2);
    pdnnDestroyTensorDescriptor(vx.d);
    pdnnDestroyTensorDescriptor(vy.d);
}

static void bwd_case(pdnnDataType_t t, int nb, const int *dims, pdnnSoftmaxMode_t mode,
                     pdnnSoftmaxAlgorithm_t algo, int ky, int kdy, int kdx, double alpha,
                     double beta, double tol, const char *what)
{
    tu_view vy, vdy, vdx;
    tu_view_make(&vdx, t, nb, dims, kdx < 0 ? TU_LAYOUT_PACKED : kdx);
    if (ky < 0)
        tu_view_same(&vy, &vdx, t);
    else
        tu_view_make(&vy, t, nb, dims, ky);
    if (kdy < 0)
        tu_view_same(&vdy, &vdx, t);
    else
        tu_view_make(&vdy, t, nb, dims, kdy);
    if (t == PDNN_DATA_FLOAT) alpha = (float)alpha, beta = (float)beta;
    tu_scalar al = tu_sc(t, alpha), be = tu_sc(t, beta);
    const bool lg = algo == PDNN_SOFTMAX_LOG;
    void *y = tu_alloc(t, (size_t)vy.span), *dy = tu_alloc(t, (size_t)vdy.span);
    tu_fill_uniform(y, t, (size_t)vy.span, lg ? -5 : 0, lg ? 0 : 1);
    tu_fill_uniform(dy, t, (size_t)vdy.span, -2, 2);
    void *dx0 = tu_alloc(t, (size_t)vdx.span);
    if (beta == 0.0)
        tu_poison(dx0, t, (size_t)vdx.span);
    else
        tu_fill_uniform(dx0, t, (size_t)vdx.span, -1, 1);
    void *dx1 = dup_buf(dx0, t, vdx.span), *dx2 = dup_buf(dx0, t, vdx.span);
    TU_OK(pdnnSetNumThreads(H, 1));
    TU_OK(pdnnSoftmaxBackward(H, algo, mode, &al, vy.d, y, vdy.d, dy, &be, vdx.d, dx1));
    TU_OK(pdnnSetNumThreads(H, 2));
    TU_OK(pdnnSoftmaxBackward(H, algo, mode, &al, vy.d, y, vdy.d, dy, &be, vdx.d, dx2));
    TU_CHECK(tu_bitwise_equal(dx1, dx2, (size_t)vdx.span * tu_esize(t)),
             "%s: bwd 1 and 2 threads differ", what);
    check_gaps(&vdx, t, dx0, dx1, what);

    shape_t s;
    shape_init(&s, nb, dims, mode);
    size_t n = (size_t)(s.numel ? s.numel : 1);
    long double *yl = calloc(n, sizeof *yl), *gl = calloc(n, sizeof *gl),
                *dl = calloc(n, sizeof *dl), *sc = calloc(n, sizeof *sc);
    for (int64_t i = 0; i < s.numel; i++) {
        yl[i] = tu_get(y, t, (size_t)tu_view_off(&vy, i));
        gl[i] = tu_get(dy, t, (size_t)tu_view_off(&vdy, i));
    }
    if (s.numel) o_bwd(&s, algo, yl, gl, dl, sc);
    long bad = 0;
    for (int64_t i = 0; i < s.numel; i++) {
        long double d0 = tu_get(dx0, t, (size_t)tu_view_off(&vdx, i));
        long double want = alpha * dl[i] + (beta != 0 ? beta * d0 : 0.0L);
        long double scale = fabsl(alpha) * sc[i] + (beta != 0 ? fabsl(beta * d0) : 0.0L);
        double got = tu_get(dx1, t, (size_t)tu_view_off(&vdx, i));
        if (!close_to(got, want, scale, tol) && bad++ < 3)
            TU_CHECK(0, "%s: bwd %s mode %d elem %lld: got %.17g want %.17Lg", what, ALGO[algo],
                     (int)mode, (long long)i, got, want);
    }
    TU_CHECK(bad == 0, "%s: bwd %s mode %d: %ld mismatches", what, ALGO[algo], (int)mode, bad);

    if (beta == 0.0 && s.numel > 0) { /* in place: dx == dy, and dx == y */
        void *ref = tu_alloc(t, (size_t)vdx.span);
        void *g = tu_alloc(t, (size_t)vdx.span), *yy = tu_alloc(t, (size_t)vdx.span);
        void *yc = tu_alloc(t, (size_t)vdx.span);
        for (int64_t i = 0; i < s.numel; i++) {
            tu_put(g, t, (size_t)tu_view_off(&vdx, i), (double)gl[i]);
            tu_put(yy, t, (size_t)tu_view_off(&vdx, i), (double)yl[i]);
            tu_put(yc, t, (size_t)tu_view_off(&vdx, i), (double)yl[i]);
        }
        TU_OK(pdnnSoftmaxBackward(H, algo, mode, &al, vdx.d, yc, vdx.d, g, &be, vdx.d, ref));
        TU_OK(pdnnSoftmaxBackward(H, algo, mode, &al, vdx.d, yc, vdx.d, g, &be, vdx.d, g));
        TU_OK(pdnnSoftmaxBackward(H, algo, mode, &al, vdx.d, yy, vdx.d, ref, &be, vdx.d, yy));
        long diff = 0, diff2 = 0;
        for (int64_t i = 0; i < s.numel; i++) {
            size_t o = (size_t)tu_view_off(&vdx, i) * tu_esize(t);
            diff += memcmp((char *)ref + o, (char *)g + o, tu_esize(t)) != 0;
        }
        /* yy = backward(y, dy = ref) written over y: compare with out of place */
        void *ref2 = tu_alloc(t, (size_t)vdx.span);
        TU_OK(pdnnSoftmaxBackward(H, algo, mode, &al, vdx.d, yc, vdx.d, ref, &be, vdx.d, ref2));
        for (int64_t i = 0; i < s.numel; i++) {
            size_t o = (size_t)tu_view_off(&vdx, i) * tu_esize(t);
            diff2 += memcmp((char *)ref2 + o, (char *)yy + o, tu_esize(t)) != 0;
        }
        TU_CHECK(diff == 0 && diff2 == 0, "%s: bwd in place differs (%ld, %ld)", what, diff,
                 diff2);
        free(ref), free(g), free(yy), free(yc), free(ref2);
    }
    free(yl), free(gl), free(dl), free(sc), free(y), free(dy), free(dx0), free(dx1), free(dx2);
    pdnnDestroyTensorDescriptor(vy.d);
    pdnnDestroyTensorDescriptor(vdy.d);
    pdnnDestroyTensorDescriptor(vdx.d);
}

/* ------------------------------------------------------------------ random cases */

static void random_cases(void)
{
    for (int iter = 0; iter < 400; iter++) {
        pdnnDataType_t t = tu_int(0, 1) ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        int nb = tu_int(2, 5), dims[PDNN_DIM_MAX];
        int big = iter % 10 == 0;
        for (int i = 0; i < nb; i++)
            dims[i] = tu_int(1, big ? (nb <= 3 ? 40 : 12) : (nb <= 3 ? 9 : 4));
        if (tu_int(0, 24) == 0) dims[tu_int(0, nb - 1)] = 0;
        pdnnSoftmaxMode_t mode = (pdnnSoftmaxMode_t)tu_int(0, 1);
        pdnnSoftmaxAlgorithm_t algo = (pdnnSoftmaxAlgorithm_t)tu_int(0, 2);
        double alpha = tu_int(0, 1) ? 1.0 : tu_uniform(-2, 2);
        int br = tu_int(0, 9);
        double beta = br < 4 ? 0.0 : br < 6 ? 1.0 : tu_uniform(-2, 2);
        double tol = t == PDNN_DATA_DOUBLE ? 1e-13 : 2e-7;
        char what[64];
        snprintf(what, sizeof what, "random %d", iter);
        int kx = random_kind();
        if (iter % 2)
            fwd_case(t, nb, dims, mode, algo, kx, tu_int(0, 1) ? -1 : random_kind(), alpha,
                     beta, fill_uniform, tol, what);
        else
            bwd_case(t, nb, dims, mode, algo, tu_int(0, 1) ? -1 : random_kind(),
                     tu_int(0, 1) ? -1 : random_kind(), kx, alpha, beta, tol, what);
    }
}

/* Large enough to be split across threads, in every layout and mode. */
static void threaded_cases(void)
{
    int dims[4] = {4, 19, 9, 13};
    for (int k = 0; k < 3; k++)
        for (int mode = 0; mode < 2; mode++)
            for (int algo = 0; algo < 3; algo++) {
                pdnnDataType_t t = (k + algo) % 2 ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
                double tol = t == PDNN_DATA_DOUBLE ? 1e-13 : 2e-7;
                fwd_case(t, 4, dims, (pdnnSoftmaxMode_t)mode, (pdnnSoftmaxAlgorithm_t)algo, k,
                         -1, 1.0, 0.0, fill_uniform, tol, "threaded fwd");
                bwd_case(t, 4, dims, (pdnnSoftmaxMode_t)mode, (pdnnSoftmaxAlgorithm_t)algo, -1,
                         -1, k, 0.5, 0.25, tol, "threaded bwd");
            }
}

/* ------------------------------------------------------- large magnitudes */

static double g_center;
static void fill_center_int(void *x, pdnnDataType_t t, const tu_view *v)
{
    for (int64_t i = 0; i < v->span; i++) tu_put(x, t, (size_t)i, g_center + tu_int(-20, 20));
}
static void fill_center_uniform(void *x, pdnnDataType_t t, const tu_view *v)
{
    for (int64_t i = 0; i < v->span; i++)
        tu_put(x, t, (size_t)i, g_center + tu_uniform(-10, 10));
}

static void large_magnitudes(void)
{
    const double centers[4] = {1e7, -1e7, 3e6, -12345678};
    for (int c = 0; c < 4; c++) {
        g_center = centers[c];
        for (int mode = 0; mode < 2; mode++)
            for (int algo = 1; algo < 3; algo++) {
                int dims[4] = {3, 7, 2, 5};
                fwd_case(PDNN_DATA_FLOAT, 4, dims, (pdnnSoftmaxMode_t)mode,
                         (pdnnSoftmaxAlgorithm_t)algo, c % 3, -1, 1.0, 0.0, fill_center_int,
                         2e-7, "1e7 f32");
                fwd_case(PDNN_DATA_DOUBLE, 4, dims, (pdnnSoftmaxMode_t)mode,
                         (pdnnSoftmaxAlgorithm_t)algo, c % 3, -1, 1.0, 0.0,
                         fill_center_uniform, 1e-13, "1e7 f64");
            }
    }
    /* near FLT_MAX: ACCURATE never overflows; LOG stays finite where the result fits */
    int dims[2] = {2, 3};
    pdnnTensorDescriptor_t d = tu_tensor(PDNN_DATA_FLOAT, 2, dims, NULL);
    float x[6] = {3e38f, 2e38f, 1e38f, -3e38f, -3.1e38f, 3.2e38f}, y[6];
    float one = 1, zero = 0;
    TU_OK(pdnnSoftmaxForward(H, PDNN_SOFTMAX_ACCURATE, PDNN_SOFTMAX_MODE_CHANNEL, &one, d, x,
                             &zero, d, y));
    TU_CHECK(y[0] == 1 && y[1] == 0 && y[2] == 0 && y[3] == 0 && y[4] == 0 && y[5] == 1,
             "accurate near FLT_MAX: %g %g %g %g %g %g", y[0], y[1], y[2], y[3], y[4], y[5]);
    TU_OK(pdnnSoftmaxForward(H, PDNN_SOFTMAX_LOG, PDNN_SOFTMAX_MODE_INSTANCE, &one, d, x, &zero,
                             d, y));
    TU_CHECK(y[0] == 0 && y[1] == (float)((double)x[1] - x[0]) &&
                 y[2] == (float)((double)x[2] - x[0]),
             "log near FLT_MAX: %g %g %g", y[0], y[1], y[2]);
    /* FAST computes exp in double: fine for a FLOAT x = 100 (exp(100) > FLT_MAX) ... */
    float xf[6] = {100, 100, 100, 100, 100, 100};
    TU_OK(pdnnSoftmaxForward(H, PDNN_SOFTMAX_FAST, PDNN_SOFTMAX_MODE_INSTANCE, &one, d, xf,
                             &zero, d, y));
    TU_CHECK(fabsf(y[0] - 1.0f / 3) < 1e-7f, "fast at x=100: %g", y[0]);
    pdnnDestroyTensorDescriptor(d);
    /* ... and overflows by definition where exp overflows double (documented) */
    d = tu_tensor(PDNN_DATA_DOUBLE, 2, (int[]){1, 2}, NULL);
    double xd[2] = {1000, 0}, yd[2], o = 1, z = 0;
    TU_OK(pdnnSoftmaxForward(H, PDNN_SOFTMAX_FAST, PDNN_SOFTMAX_MODE_CHANNEL, &o, d, xd, &z, d,
                             yd));
    TU_CHECK(!isfinite(yd[0]), "fast overflow gives a non-finite value, got %g", yd[0]);
    TU_OK(pdnnSoftmaxForward(H, PDNN_SOFTMAX_ACCURATE, PDNN_SOFTMAX_MODE_CHANNEL, &o, d, xd, &z,
                             d, yd));
    TU_CHECK(yd[0] == 1 && yd[1] == 0, "accurate at 1000: %g %g", yd[0], yd[1]);
    pdnnDestroyTensorDescriptor(d);
}

/* ------------------------------------------------------- hand-worked values */

static void hand_worked(void)
{
    for (int ti = 0; ti < 2; ti++) {
        pdnnDataType_t t = ti ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        double tol = ti ? 1e-15 : 1e-7;
        tu_scalar one = tu_sc(t, 1), zero = tu_sc(t, 0);
        /* 1 x 2 x 1 x 2, x[c][w] = {{0, 0}, {ln 3, 0}} */
        pdnnTensorDescriptor_t d = tu_tensor4d(t, PDNN_TENSOR_NCHW, 1, 2, 1, 2);
        void *x = tu_alloc(t, 4), *y = tu_alloc(t, 4);
        const double in[4] = {0, 0, 1.0986122886681098, 0};
        for (int i = 0; i < 4; i++) tu_put(x, t, i, in[i]);
        /* INSTANCE: exp = {1, 1, 3, 1} / 6 */
        const double wi[4] = {1. / 6, 1. / 6, 0.5, 1. / 6};
        /* CHANNEL: w = 0: {0, ln 3} -> {1/4, 3/4}; w = 1: {0, 0} -> {1/2, 1/2} */
        const double wc[4] = {0.25, 0.5, 0.75, 0.5};
        for (int algo = 0; algo < 3; algo++) {
            for (int mode = 0; mode < 2; mode++) {
                tu_poison(y, t, 4);
                TU_OK(pdnnSoftmaxForward(H, (pdnnSoftmaxAlgorithm_t)algo,
                                         (pdnnSoftmaxMode_t)mode, &one, d, x, &zero, d, y));
                const double *w = mode ? wc : wi;
                for (int i = 0; i < 4; i++) {
                    double want = algo == PDNN_SOFTMAX_LOG ? log(w[i]) : w[i];
                    double got = tu_get(y, t, i);
                    TU_CHECK(fabs(got - want) <= tol * (1 + fabs(want)),
                             "hand %s mode %d [%d]: got %.17g want %.17g", ALGO[algo], mode, i,
                             got, want);
                }
            }
        }
        pdnnDestroyTensorDescriptor(d);
        /* exactly representable: four equal inputs give 1/4 */
        d = tu_tensor(t, 2, (int[]){1, 4}, NULL);
        for (int i = 0; i < 4; i++) tu_put(x, t, i, 7);
        TU_OK(pdnnSoftmaxForward(H, PDNN_SOFTMAX_ACCURATE, PDNN_SOFTMAX_MODE_INSTANCE, &one, d,
                                 x, &zero, d, y));
        for (int i = 0; i < 4; i++) TU_CHECK(tu_get(y, t, i) == 0.25, "equal inputs");
        pdnnDestroyTensorDescriptor(d);
        /* backward: y = {1/4, 3/4}, dy = {1, 0}: sum(dy y) = 1/4 -> dx = {3/16, -3/16} */
        d = tu_tensor(t, 2, (int[]){1, 2}, NULL);
        void *g = tu_alloc(t, 2), *dx = tu_alloc(t, 2);
        tu_put(y, t, 0, 0.25), tu_put(y, t, 1, 0.75), tu_put(g, t, 0, 1), tu_put(g, t, 1, 0);
        tu_poison(dx, t, 2);
        TU_OK(pdnnSoftmaxBackward(H, PDNN_SOFTMAX_ACCURATE, PDNN_SOFTMAX_MODE_CHANNEL, &one, d,
                                  y, d, g, &zero, d, dx));
        TU_CHECK(tu_get(dx, t, 0) == 0.1875 && tu_get(dx, t, 1) == -0.1875, "hand bwd %g %g",
                 tu_get(dx, t, 0), tu_get(dx, t, 1));
        /* LOG: y = log {1/4, 3/4}, dy = {1, 0}: dx = dy - softmax * 1 = {3/4, -3/4} */
        tu_put(y, t, 0, log(0.25)), tu_put(y, t, 1, log(0.75));
        TU_OK(pdnnSoftmaxBackward(H, PDNN_SOFTMAX_LOG, PDNN_SOFTMAX_MODE_INSTANCE, &one, d, y, d,
                                  g, &zero, d, dx));
        TU_CHECK(fabs(tu_get(dx, t, 0) - 0.75) < tol && fabs(tu_get(dx, t, 1) + 0.75) < tol,
                 "hand log bwd %g %g", tu_get(dx, t, 0), tu_get(dx, t, 1));
        free(x), free(y), free(g), free(dx);
        pdnnDestroyTensorDescriptor(d);
    }
}

/* ------------------------------------------------- finite differences in DOUBLE */

static void finite_differences(void)
{
    const pdnnDataType_t t = PDNN_DATA_DOUBLE;
    const double h = 1e-6, one = 1, zero = 0;
    const int n = 2 * 3 * 2 * 2;
    for (int kind = 0; kind < 2; kind++)
        for (int mode = 0; mode < 2; mode++)
            for (int algo = 0; algo < 3; algo++) {
                pdnnTensorDescriptor_t d = tu_tensor4d(t, kind ? PDNN_TENSOR_NHWC
                                                               : PDNN_TENSOR_NCHW, 2, 3, 2, 2);
                double x[24], xp[24], y[24], yp[24], ym[24], w[24], dx[24];
                for (int i = 0; i < n; i++) x[i] = tu_uniform(-3, 3), w[i] = tu_uniform(-1, 1);
                pdnnSoftmaxAlgorithm_t a = (pdnnSoftmaxAlgorithm_t)algo;
                pdnnSoftmaxMode_t m = (pdnnSoftmaxMode_t)mode;
                TU_OK(pdnnSoftmaxForward(H, a, m, &one, d, x, &zero, d, y));
                TU_OK(pdnnSoftmaxBackward(H, a, m, &one, d, y, d, w, &zero, d, dx));
                double worst = 0;
                for (int j = 0; j < n; j++) {
                    memcpy(xp, x, sizeof x);
                    xp[j] = x[j] + h;
                    TU_OK(pdnnSoftmaxForward(H, a, m, &one, d, xp, &zero, d, yp));
                    xp[j] = x[j] - h;
                    TU_OK(pdnnSoftmaxForward(H, a, m, &one, d, xp, &zero, d, ym));
                    double num = 0;
                    for (int i = 0; i < n; i++) num += w[i] * (yp[i] - ym[i]) / (2 * h);
                    double e = fabs(num - dx[j]) / (1 + fabs(num));
                    if (e > worst) worst = e;
                }
                TU_CHECK(worst < 1e-8, "finite differences %s mode %d layout %d: worst %g",
                         ALGO[algo], mode, kind, worst);
                pdnnDestroyTensorDescriptor(d);
            }
}

/* ------------------------------------------------- NaN rows, ranks 2 and 8, empty */

static void nan_and_ranks(void)
{
    /* a NaN poisons its own row only (as PyTorch) */
    pdnnTensorDescriptor_t d = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 2, 3, 1, 2);
    float x[12], y[12], one = 1, zero = 0;
    for (int i = 0; i < 12; i++) x[i] = (float)tu_uniform(-2, 2);
    x[2] = NAN; /* n = 0, c = 1, w = 0 */
    TU_OK(pdnnSoftmaxForward(H, PDNN_SOFTMAX_ACCURATE, PDNN_SOFTMAX_MODE_CHANNEL, &one, d, x,
                             &zero, d, y));
    for (int i = 0; i < 12; i++) {
        bool in_row = i < 6 && i % 2 == 0;
        TU_CHECK(in_row ? isnan(y[i]) : isfinite(y[i]), "channel NaN row, elem %d: %g", i, y[i]);
    }
    TU_OK(pdnnSoftmaxForward(H, PDNN_SOFTMAX_LOG, PDNN_SOFTMAX_MODE_INSTANCE, &one, d, x, &zero,
                             d, y));
    for (int i = 0; i < 12; i++)
        TU_CHECK(i < 6 ? isnan(y[i]) : isfinite(y[i]), "instance NaN row, elem %d: %g", i, y[i]);
    pdnnDestroyTensorDescriptor(d);

    /* rank 2 (N x C): both modes reduce over C */
    int d2[2] = {5, 11};
    for (int algo = 0; algo < 3; algo++)
        for (int mode = 0; mode < 2; mode++)
            fwd_case(PDNN_DATA_DOUBLE, 2, d2, (pdnnSoftmaxMode_t)mode,
                     (pdnnSoftmaxAlgorithm_t)algo, TU_LAYOUT_GAPPED, TU_LAYOUT_PACKED, 1.5, 0.5,
                     fill_uniform, 1e-13, "rank 2");
    /* rank 8 */
    int d8[8] = {2, 3, 2, 1, 2, 3, 1, 2};
    for (int mode = 0; mode < 2; mode++) {
        fwd_case(PDNN_DATA_FLOAT, 8, d8, (pdnnSoftmaxMode_t)mode, PDNN_SOFTMAX_LOG,
                 TU_LAYOUT_GAPPED, -1, 1, 0, fill_uniform, 2e-7, "rank 8");
        bwd_case(PDNN_DATA_DOUBLE, 8, d8, (pdnnSoftmaxMode_t)mode, PDNN_SOFTMAX_ACCURATE,
                 TU_LAYOUT_CHANNELS_LAST, -1, TU_LAYOUT_GAPPED, 1, 0, 1e-13, "rank 8");
    }
    /* zero-sized: success, nothing touched, NULL data allowed */
    int dz[4] = {3, 0, 2, 2};
    d = tu_tensor(PDNN_DATA_FLOAT, 4, dz, NULL);
    TU_OK(pdnnSoftmaxForward(H, PDNN_SOFTMAX_LOG, PDNN_SOFTMAX_MODE_CHANNEL, &one, d, NULL,
                             &zero, d, NULL));
    TU_OK(pdnnSoftmaxBackward(H, PDNN_SOFTMAX_FAST, PDNN_SOFTMAX_MODE_INSTANCE, &one, d, NULL,
                              d, NULL, &zero, d, NULL));
    pdnnDestroyTensorDescriptor(d);
}

int main(void)
{
    tu_seed(77001);
    TU_OK(pdnnCreate(&H));
    hand_worked();
    large_magnitudes();
    nan_and_ranks();
    finite_differences();
    threaded_cases();
    random_cases();
    pdnnDestroy(H);
    return tu_finish("ops/softmax");
}
