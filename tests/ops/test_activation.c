/* pdnnActivationForward / Backward against an independent long-double oracle: random
 * ranks, dims and layouts (packed, channels-last, gapped, x and y in different layouts),
 * every mode, NaN propagation, alpha/beta blending, NaN-poisoned outputs, untouched gaps,
 * 1 vs 2 threads bitwise, in place, fast path vs reference bitwise, infinities, hand-worked
 * values and central finite differences in DOUBLE. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_layout.h"

static pdnnHandle_t H;

static const pdnnActivationMode_t MODES[] = {
    PDNN_ACTIVATION_SIGMOID, PDNN_ACTIVATION_RELU,     PDNN_ACTIVATION_TANH,
    PDNN_ACTIVATION_CLIPPED_RELU, PDNN_ACTIVATION_ELU, PDNN_ACTIVATION_IDENTITY,
    PDNN_ACTIVATION_SWISH,   PDNN_ACTIVATION_GELU_ERF, PDNN_ACTIVATION_GELU_TANH};
#define NMODES ((int)(sizeof MODES / sizeof MODES[0]))

typedef struct {
    pdnnActivationMode_t mode;
    int prop;
    double coef, sb;
} actp;

/* ------------------------------------------------------------------ the oracle */

static long double o_sig(long double x) { return 1.0L / (1.0L + expl(-x)); }

static bool piecewise(pdnnActivationMode_t m)
{
    return m == PDNN_ACTIVATION_RELU || m == PDNN_ACTIVATION_CLIPPED_RELU;
}

static long double o_fwd(const actp *a, long double x)
{
    if (isnan(x)) return piecewise(a->mode) && !a->prop ? 0.0L : x;
    const long double k = sqrtl(2.0L / 3.14159265358979323846264338327950288L);
    switch (a->mode) {
    case PDNN_ACTIVATION_SIGMOID: return o_sig(x);
    case PDNN_ACTIVATION_RELU: return x > 0 ? x : 0.0L;
    case PDNN_ACTIVATION_TANH: return tanhl(x);
    case PDNN_ACTIVATION_CLIPPED_RELU: return fminl(fmaxl(x, 0.0L), a->coef);
    case PDNN_ACTIVATION_ELU: return x > 0 ? x : a->coef * expm1l(x);
    case PDNN_ACTIVATION_IDENTITY: return x;
    case PDNN_ACTIVATION_SWISH: return x * o_sig(a->sb * x);
    case PDNN_ACTIVATION_GELU_ERF: return 0.5L * x * erfcl(-x / sqrtl(2.0L));
    case PDNN_ACTIVATION_GELU_TANH:
        return 0.5L * x * (1.0L + tanhl(k * (x + 0.044715L * x * x * x)));
    }
    return NAN;
}

/* d act/dx; SIGMOID and TANH from the forward output y (cuDNN's convention). */
static long double o_grad(const actp *a, long double x, long double y)
{
    if (a->mode == PDNN_ACTIVATION_IDENTITY) return 1.0L;
    if (isnan(x)) return piecewise(a->mode) && !a->prop ? 0.0L : x;
    const long double k = sqrtl(2.0L / 3.14159265358979323846264338327950288L);
    switch (a->mode) {
    case PDNN_ACTIVATION_SIGMOID: return y - y * y;
    case PDNN_ACTIVATION_RELU: return x > 0 ? 1.0L : 0.0L;
    case PDNN_ACTIVATION_TANH: return (1.0L - y) * (1.0L + y);
    case PDNN_ACTIVATION_CLIPPED_RELU: return x > 0 && x < a->coef ? 1.0L : 0.0L;
    case PDNN_ACTIVATION_ELU: return x > 0 ? 1.0L : a->coef * expl(x);
    case PDNN_ACTIVATION_IDENTITY: return 1.0L;
    case PDNN_ACTIVATION_SWISH: {
        long double s = o_sig(a->sb * x);
        return s * (1.0L + a->sb * x * (1.0L - s));
    }
    case PDNN_ACTIVATION_GELU_ERF:
        return 0.5L * erfcl(-x / sqrtl(2.0L)) + x * expl(-x * x / 2.0L) * k / 2.0L;
    case PDNN_ACTIVATION_GELU_TANH: {
        long double u = k * (x + 0.044715L * x * x * x), c = coshl(u);
        return 0.5L * (1.0L + tanhl(u)) +
               0.5L * x * k * (1.0L + 3.0L * 0.044715L * x * x) / (c * c);
    }
    }
    return NAN;
}

/* dx value: piecewise modes select (0 where the derivative is 0, whatever dy). */
static long double o_bwd(const actp *a, long double x, long double y, long double dy)
{
    long double g = o_grad(a, x, y);
    if (g == 0 && piecewise(a->mode)) return 0.0L;
    return g * dy;
}

/* ------------------------------------------------------------------ helpers */

static pdnnActivationDescriptor_t make_act(const actp *a)
{
    pdnnActivationDescriptor_t d;
    TU_OK(pdnnCreateActivationDescriptor(&d));
    TU_OK(pdnnSetActivationDescriptor(d, a->mode, a->prop ? PDNN_PROPAGATE_NAN
                                                          : PDNN_NOT_PROPAGATE_NAN, a->coef));
    TU_OK(pdnnSetActivationDescriptorSwishBeta(d, a->sb));
    return d;
}

static actp random_act(void)
{
    actp a;
    a.mode = MODES[tu_int(0, NMODES - 1)];
    a.prop = tu_int(0, 1);
    a.coef = a.mode == PDNN_ACTIVATION_CLIPPED_RELU ? tu_uniform(0.5, 3.0)
             : a.mode == PDNN_ACTIVATION_ELU        ? tu_uniform(0.1, 2.0)
                                                    : tu_uniform(-1.0, 1.0);
    a.sb = tu_uniform(-2.0, 2.0);
    return a;
}

static bool close_to(double got, long double want, long double scale, double tol,
                     double floor_abs)
{
    if (isnan(want)) return isnan(got);
    if (isinf(want)) return got == (double)want;
    return fabsl((long double)got - want) <= tol * scale + floor_abs;
}


/* Marks the elements of the view in a span-sized mask. */
static unsigned char *mask_of(const tu_view *v)
{
    unsigned char *m = calloc((size_t)(v->span ? v->span : 1), 1);
    for (int64_t i = 0; i < v->numel; i++) m[tu_view_off(v, i)] = 1;
    return m;
}

/* Elements outside the view are bitwise as before. */
static void check_gaps(const tu_view *v, pdnnDataType_t t, const void *before, const void *after,
                       const char *what)
{
    unsigned char *m = mask_of(v);
    size_t es = tu_esize(t);
    long bad = 0;
    for (int64_t i = 0; i < v->span; i++)
        if (!m[i] && memcmp((const char *)before + i * es, (const char *)after + i * es, es))
            bad++;
    TU_CHECK(bad == 0, "%s: %ld elements outside the tensor were written", what, bad);
    free(m);
}

static void *dup_buf(const void *p, pdnnDataType_t t, int64_t n)
{
    void *q = tu_alloc(t, (size_t)n);
    memcpy(q, p, (size_t)n * tu_esize(t));
    return q;
}

static int random_dims(int nb, int *dims, int allow_zero)
{
    for (int i = 0; i < nb; i++) dims[i] = tu_int(1, nb <= 2 ? 9 : nb == 3 ? 5 : 4);
    if (allow_zero && tu_int(0, 24) == 0) dims[tu_int(0, nb - 1)] = 0;
    return nb;
}

static int random_kind(void)
{
    int r = tu_int(0, 9);
    return r < 4 ? TU_LAYOUT_PACKED : r < 7 ? TU_LAYOUT_CHANNELS_LAST : TU_LAYOUT_GAPPED;
}

/* ------------------------------------------------------------------ forward, random */

static void fwd_random(int iter)
{
    pdnnDataType_t t = tu_int(0, 1) ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
    int nb = tu_int(1, 5), dims[PDNN_DIM_MAX];
    random_dims(nb, dims, 1);
    tu_view vx, vy;
    tu_view_make(&vx, t, nb, dims, random_kind());
    if (tu_int(0, 1))
        tu_view_same(&vy, &vx, t);
    else
        tu_view_make(&vy, t, nb, dims, random_kind());
    actp a = random_act();
    pdnnActivationDescriptor_t ad = make_act(&a);
    double alpha = tu_int(0, 1) ? 1.0 : tu_uniform(-2, 2);
    int br = tu_int(0, 9);
    double beta = br < 4 ? 0.0 : br < 6 ? 1.0 : tu_uniform(-2, 2);
    if (t == PDNN_DATA_FLOAT) alpha = (float)alpha, beta = (float)beta;
    tu_scalar al = tu_sc(t, alpha), be = tu_sc(t, beta);

    void *x = tu_alloc(t, (size_t)vx.span);
    tu_fill_uniform(x, t, (size_t)vx.span, -4, 4);
    if (iter % 5 == 0)
        for (int64_t i = 0; i < vx.span; i++)
            if (tu_int(0, 15) == 0) tu_put(x, t, (size_t)i, NAN);
    void *y0 = tu_alloc(t, (size_t)vy.span);
    if (beta == 0.0)
        tu_poison(y0, t, (size_t)vy.span);
    else
        tu_fill_uniform(y0, t, (size_t)vy.span, -1, 1);
    void *y1 = dup_buf(y0, t, vy.span), *y2 = dup_buf(y0, t, vy.span);

    TU_OK(pdnnSetNumThreads(H, 1));
    TU_OK(pdnnActivationForward(H, ad, &al, vx.d, x, &be, vy.d, y1));
    TU_OK(pdnnSetNumThreads(H, 2));
    TU_OK(pdnnActivationForward(H, ad, &al, vx.d, x, &be, vy.d, y2));
    TU_CHECK(tu_bitwise_equal(y1, y2, (size_t)vy.span * tu_esize(t)),
             "fwd iter %d: 1 and 2 threads differ", iter);
    check_gaps(&vy, t, y0, y1, "fwd");

    double tol = t == PDNN_DATA_DOUBLE ? 1e-13 : 2e-7;
    double fl = t == PDNN_DATA_DOUBLE ? 1e-300 : 1e-37;
    long bad = 0;
    for (int64_t i = 0; i < vy.numel; i++) {
        long double xv = tu_get(x, t, (size_t)tu_view_off(&vx, i));
        long double yo = tu_get(y0, t, (size_t)tu_view_off(&vy, i));
        long double v = o_fwd(&a, xv);
        long double want = alpha * v + (beta != 0 ? beta * yo : 0.0L);
        long double scale = fabsl(alpha * v) + fabsl(beta != 0 ? beta * yo : 0.0L);
        double got = tu_get(y1, t, (size_t)tu_view_off(&vy, i));
        if (!close_to(got, want, scale, tol, fl)) {
            if (bad++ < 3)
                TU_CHECK(0, "fwd iter %d mode %d prop %d dtype %d: x=%.17Lg got %.17g want "
                         "%.17Lg (alpha %g beta %g)", iter, (int)a.mode, a.prop, (int)t, xv,
                         got, want, alpha, beta);
        }
    }
    TU_CHECK(bad == 0, "fwd iter %d: %ld mismatches", iter, bad);

    /* in place: x == y with one descriptor gives the out-of-place result */
    if (beta == 0.0 && vx.numel > 0) {
        void *xy = dup_buf(x, t, vx.span);
        void *ref = tu_alloc(t, (size_t)vx.span);
        memcpy(ref, x, (size_t)vx.span * tu_esize(t));
        TU_OK(pdnnActivationForward(H, ad, &al, vx.d, x, &be, vx.d, ref));
        TU_OK(pdnnActivationForward(H, ad, &al, vx.d, xy, &be, vx.d, xy));
        TU_CHECK(tu_bitwise_equal(ref, xy, (size_t)vx.span * tu_esize(t)),
                 "fwd iter %d: in place differs", iter);
        free(xy);
        free(ref);
    }
    free(x), free(y0), free(y1), free(y2);
    pdnnDestroyTensorDescriptor(vx.d);
    pdnnDestroyTensorDescriptor(vy.d);
    pdnnDestroyActivationDescriptor(ad);
}

/* ------------------------------------------------------------------ backward, random */

static void bwd_random(int iter)
{
    pdnnDataType_t t = tu_int(0, 1) ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
    int nb = tu_int(1, 5), dims[PDNN_DIM_MAX];
    random_dims(nb, dims, 1);
    tu_view vx, vy, vdy, vdx;
    tu_view_make(&vdx, t, nb, dims, random_kind());
    bool same = tu_int(0, 1);
    tu_view *vs[3] = {&vx, &vy, &vdy};
    for (int k = 0; k < 3; k++) {
        if (same)
            tu_view_same(vs[k], &vdx, t);
        else
            tu_view_make(vs[k], t, nb, dims, random_kind());
    }
    actp a = random_act();
    pdnnActivationDescriptor_t ad = make_act(&a);
    double alpha = tu_int(0, 1) ? 1.0 : tu_uniform(-2, 2);
    int br = tu_int(0, 9);
    double beta = br < 4 ? 0.0 : br < 6 ? 1.0 : tu_uniform(-2, 2);
    if (t == PDNN_DATA_FLOAT) alpha = (float)alpha, beta = (float)beta;
    tu_scalar al = tu_sc(t, alpha), be = tu_sc(t, beta);

    void *x = tu_alloc(t, (size_t)vx.span), *y = tu_alloc(t, (size_t)vy.span);
    void *dy = tu_alloc(t, (size_t)vdy.span);
    tu_fill_uniform(x, t, (size_t)vx.span, -4, 4);
    tu_fill_uniform(y, t, (size_t)vy.span, -1, 1);
    tu_fill_uniform(dy, t, (size_t)vdy.span, -2, 2);
    if (iter % 5 == 0)
        for (int64_t i = 0; i < vx.span; i++) {
            if (tu_int(0, 15) == 0) tu_put(x, t, (size_t)i, NAN);
            if (i < vdy.span && tu_int(0, 31) == 0) tu_put(dy, t, (size_t)i, NAN);
        }
    for (int64_t i = 0; i < vx.numel; i++) /* y = act(x), as the forward pass gives it */
        tu_put(y, t, (size_t)tu_view_off(&vy, i),
               (double)o_fwd(&a, tu_get(x, t, (size_t)tu_view_off(&vx, i))));
    void *dx0 = tu_alloc(t, (size_t)vdx.span);
    if (beta == 0.0)
        tu_poison(dx0, t, (size_t)vdx.span);
    else
        tu_fill_uniform(dx0, t, (size_t)vdx.span, -1, 1);
    void *dx1 = dup_buf(dx0, t, vdx.span), *dx2 = dup_buf(dx0, t, vdx.span);

    TU_OK(pdnnSetNumThreads(H, 1));
    TU_OK(pdnnActivationBackward(H, ad, &al, vy.d, y, vdy.d, dy, vx.d, x, &be, vdx.d, dx1));
    TU_OK(pdnnSetNumThreads(H, 2));
    TU_OK(pdnnActivationBackward(H, ad, &al, vy.d, y, vdy.d, dy, vx.d, x, &be, vdx.d, dx2));
    size_t bytes = (size_t)vdx.span * tu_esize(t);
    TU_CHECK(tu_bitwise_equal(dx1, dx2, bytes), "bwd iter %d: 1 and 2 threads differ", iter);
    check_gaps(&vdx, t, dx0, dx1, "bwd");

    double tol = t == PDNN_DATA_DOUBLE ? 1e-13 : 2e-7;
    double fl = t == PDNN_DATA_DOUBLE ? 1e-300 : 1e-37;
    long bad = 0;
    for (int64_t i = 0; i < vdx.numel; i++) {
        long double xv = tu_get(x, t, (size_t)tu_view_off(&vx, i));
        long double yv = tu_get(y, t, (size_t)tu_view_off(&vy, i));
        long double g = tu_get(dy, t, (size_t)tu_view_off(&vdy, i));
        long double d0 = tu_get(dx0, t, (size_t)tu_view_off(&vdx, i));
        long double v = o_bwd(&a, xv, yv, g);
        long double want = alpha * v + (beta != 0 ? beta * d0 : 0.0L);
        long double gs = fabsl(o_grad(&a, xv, yv)) + 1.0L + fabsl(a.coef);
        long double scale = fabsl(alpha * g) * gs + fabsl(beta != 0 ? beta * d0 : 0.0L);
        if (isnan(scale)) scale = fabsl(want); /* NaN dy that a piecewise mode masked */
        double got = tu_get(dx1, t, (size_t)tu_view_off(&vdx, i));
        if (!close_to(got, want, scale, tol, fl)) {
            if (bad++ < 3)
                TU_CHECK(0, "bwd iter %d mode %d prop %d dtype %d: x=%.17Lg y=%.17Lg dy=%.17Lg "
                         "got %.17g want %.17Lg", iter, (int)a.mode, a.prop, (int)t, xv, yv,
                         g, got, want);
        }
    }
    TU_CHECK(bad == 0, "bwd iter %d: %ld mismatches", iter, bad);

    /* in place: dx == dy with one descriptor */
    if (beta == 0.0 && vdy.numel > 0) {
        void *ref = tu_alloc(t, (size_t)vdy.span), *g = dup_buf(dy, t, vdy.span);
        size_t es = tu_esize(t);
        TU_OK(pdnnActivationBackward(H, ad, &al, vy.d, y, vdy.d, dy, vx.d, x, &be, vdy.d, ref));
        TU_OK(pdnnActivationBackward(H, ad, &al, vy.d, y, vdy.d, g, vx.d, x, &be, vdy.d, g));
        unsigned char *m = mask_of(&vdy);
        long diff = 0;
        for (int64_t i = 0; i < vdy.span; i++)
            if (m[i] && memcmp((char *)ref + i * es, (char *)g + i * es, es))
                diff++;
        TU_CHECK(diff == 0, "bwd iter %d: in place differs at %ld elements", iter, diff);
        free(m), free(ref), free(g);
    }
    free(x), free(y), free(dy), free(dx0), free(dx1), free(dx2);
    for (int k = 0; k < 3; k++) pdnnDestroyTensorDescriptor(vs[k]->d);
    pdnnDestroyTensorDescriptor(vdx.d);
    pdnnDestroyActivationDescriptor(ad);
}

/* ------------------------------------------ the dense fast path equals the reference */

static void fast_vs_ref(void)
{
    for (int iter = 0; iter < 60; iter++) {
        pdnnDataType_t t = iter % 2 ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        int nb = tu_int(1, 5), dims[PDNN_DIM_MAX];
        random_dims(nb, dims, 0);
        tu_view p, g;
        tu_view_make(&p, t, nb, dims, iter % 4 < 2 ? TU_LAYOUT_PACKED : TU_LAYOUT_CHANNELS_LAST);
        tu_view_make(&g, t, nb, dims, TU_LAYOUT_GAPPED);
        for (int tries = 0; tries < 10 && g.span == g.numel; tries++) {
            pdnnDestroyTensorDescriptor(g.d); /* want gaps, so that the reference runs */
            tu_view_make(&g, t, nb, dims, TU_LAYOUT_GAPPED);
        }
        int mi = iter % (NMODES + 3); /* every mode, RELU more often */
        pdnnActivationMode_t want = mi < NMODES ? MODES[mi] : PDNN_ACTIVATION_RELU;
        actp a;
        do a = random_act();
        while (a.mode != want);
        pdnnActivationDescriptor_t ad = make_act(&a);
        double alpha = iter % 3 ? (float)tu_uniform(-2, 2) : 1.0;
        double beta = iter % 3 ? (float)tu_uniform(-2, 2) : 0.0;
        tu_scalar al = tu_sc(t, alpha), be = tu_sc(t, beta);
        void *xp = tu_alloc(t, (size_t)p.span), *xg = tu_alloc(t, (size_t)g.span);
        void *yp = tu_alloc(t, (size_t)p.span), *yg = tu_alloc(t, (size_t)g.span);
        void *dp = tu_alloc(t, (size_t)p.span), *dg = tu_alloc(t, (size_t)g.span);
        for (int64_t i = 0; i < p.numel; i++) {
            double xv = tu_int(0, 19) ? tu_uniform(-5, 5) : NAN;
            double yv = tu_uniform(-1, 1), dv = tu_uniform(-1, 1);
            tu_put(xp, t, (size_t)tu_view_off(&p, i), xv);
            tu_put(xg, t, (size_t)tu_view_off(&g, i), xv);
            tu_put(yp, t, (size_t)tu_view_off(&p, i), yv);
            tu_put(yg, t, (size_t)tu_view_off(&g, i), yv);
            tu_put(dp, t, (size_t)tu_view_off(&p, i), dv);
            tu_put(dg, t, (size_t)tu_view_off(&g, i), dv);
        }
        /* forward into y, then backward with y, dy = d, x into d (in place) */
        TU_OK(pdnnActivationForward(H, ad, &al, p.d, xp, &be, p.d, yp));
        TU_OK(pdnnActivationForward(H, ad, &al, g.d, xg, &be, g.d, yg));
        TU_OK(pdnnActivationBackward(H, ad, &al, p.d, yp, p.d, dp, p.d, xp, &be, p.d, dp));
        TU_OK(pdnnActivationBackward(H, ad, &al, g.d, yg, g.d, dg, g.d, xg, &be, g.d, dg));
        long bad = 0;
        for (int64_t i = 0; i < p.numel; i++) {
            double a1 = tu_get(yp, t, (size_t)tu_view_off(&p, i));
            double a2 = tu_get(yg, t, (size_t)tu_view_off(&g, i));
            double b1 = tu_get(dp, t, (size_t)tu_view_off(&p, i));
            double b2 = tu_get(dg, t, (size_t)tu_view_off(&g, i));
            if (memcmp(&a1, &a2, sizeof a1) || memcmp(&b1, &b2, sizeof b1)) bad++;
        }
        TU_CHECK(bad == 0, "fast vs ref iter %d mode %d: %ld elements differ", iter,
                 (int)a.mode, bad);
        free(xp), free(xg), free(yp), free(yg), free(dp), free(dg);
        pdnnDestroyTensorDescriptor(p.d);
        pdnnDestroyTensorDescriptor(g.d);
        pdnnDestroyActivationDescriptor(ad);
    }
}

/* ------------------------------------------------- finite differences in DOUBLE */

static void finite_differences(void)
{
    const pdnnDataType_t t = PDNN_DATA_DOUBLE;
    const double h = 1e-5;
    for (int mi = 0; mi < NMODES; mi++) {
        actp a = {MODES[mi], 1, 1.0, 1.0};
        if (a.mode == PDNN_ACTIVATION_CLIPPED_RELU) a.coef = 2.5;
        if (a.mode == PDNN_ACTIVATION_ELU) a.coef = 0.7;
        if (a.mode == PDNN_ACTIVATION_SWISH) a.sb = 1.7;
        pdnnActivationDescriptor_t ad = make_act(&a);
        int dims[4] = {2, 3, 4, 5};
        pdnnTensorDescriptor_t d = tu_tensor4d(t, PDNN_TENSOR_NCHW, 2, 3, 4, 5);
        const int n = 120;
        double *x = tu_alloc(t, n), *xp = tu_alloc(t, n), *xm = tu_alloc(t, n);
        double *y = tu_alloc(t, n), *yp = tu_alloc(t, n), *ym = tu_alloc(t, n);
        double *dy = tu_alloc(t, n), *dx = tu_alloc(t, n);
        (void)dims;
        for (int i = 0; i < n; i++) {
            double v;
            do v = tu_uniform(-4, 4);
            while (fabs(v) < 1e-3 || fabs(v - a.coef) < 1e-3);
            x[i] = v, xp[i] = v + h, xm[i] = v - h, dy[i] = tu_uniform(-2, 2);
        }
        double one = 1.0, zero = 0.0;
        TU_OK(pdnnActivationForward(H, ad, &one, d, x, &zero, d, y));
        TU_OK(pdnnActivationForward(H, ad, &one, d, xp, &zero, d, yp));
        TU_OK(pdnnActivationForward(H, ad, &one, d, xm, &zero, d, ym));
        TU_OK(pdnnActivationBackward(H, ad, &one, d, y, d, dy, d, x, &zero, d, dx));
        double worst = 0;
        for (int i = 0; i < n; i++) {
            double num = (yp[i] - ym[i]) / (2 * h) * dy[i];
            double e = fabs(num - dx[i]) / (1.0 + fabs(num));
            if (e > worst) worst = e;
        }
        TU_CHECK(worst < 1e-7, "finite differences, mode %d: worst error %g", (int)a.mode,
                 worst);
        free(x), free(xp), free(xm), free(y), free(yp), free(ym), free(dy), free(dx);
        pdnnDestroyTensorDescriptor(d);
        pdnnDestroyActivationDescriptor(ad);
    }
}

/* ------------------------------------------------------------ hand-worked values */

static void run1(pdnnDataType_t t, actp a, const double *x, int n, double alpha, double beta,
                 const double *y0, double *out)
{
    pdnnActivationDescriptor_t ad = make_act(&a);
    int dims[1] = {n};
    pdnnTensorDescriptor_t d = tu_tensor(t, 1, dims, NULL);
    void *xb = tu_alloc(t, n), *yb = tu_alloc(t, n);
    for (int i = 0; i < n; i++) tu_put(xb, t, i, x[i]), tu_put(yb, t, i, y0 ? y0[i] : NAN);
    tu_scalar al = tu_sc(t, alpha), be = tu_sc(t, beta);
    TU_OK(pdnnActivationForward(H, ad, &al, d, xb, &be, d, yb));
    for (int i = 0; i < n; i++) out[i] = tu_get(yb, t, i);
    free(xb), free(yb);
    pdnnDestroyTensorDescriptor(d);
    pdnnDestroyActivationDescriptor(ad);
}

static void run1_bwd(pdnnDataType_t t, actp a, const double *x, const double *y,
                     const double *dy, int n, double *out)
{
    pdnnActivationDescriptor_t ad = make_act(&a);
    int dims[1] = {n};
    pdnnTensorDescriptor_t d = tu_tensor(t, 1, dims, NULL);
    void *xb = tu_alloc(t, n), *yb = tu_alloc(t, n), *gb = tu_alloc(t, n), *db = tu_alloc(t, n);
    for (int i = 0; i < n; i++)
        tu_put(xb, t, i, x[i]), tu_put(yb, t, i, y[i]), tu_put(gb, t, i, dy[i]),
            tu_put(db, t, i, NAN);
    tu_scalar one = tu_sc(t, 1), zero = tu_sc(t, 0);
    TU_OK(pdnnActivationBackward(H, ad, &one, d, yb, d, gb, d, xb, &zero, d, db));
    for (int i = 0; i < n; i++) out[i] = tu_get(db, t, i);
    free(xb), free(yb), free(gb), free(db);
    pdnnDestroyTensorDescriptor(d);
    pdnnDestroyActivationDescriptor(ad);
}

static void expect(const double *got, const double *want, int n, double tol, const char *what)
{
    for (int i = 0; i < n; i++) {
        bool ok = isnan(want[i]) ? isnan(got[i])
                  : isinf(want[i]) ? got[i] == want[i]
                                   : fabs(got[i] - want[i]) <= tol * (1 + fabs(want[i]));
        TU_CHECK(ok, "%s[%d]: got %.17g want %.17g", what, i, got[i], want[i]);
    }
}

static void hand_worked(void)
{
    double out[8];
    for (int ti = 0; ti < 2; ti++) {
        pdnnDataType_t t = ti ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        double tol = ti ? 1e-15 : 1e-7;
        /* RELU, exact blending on small integers: 2 * relu(x) + 1 * y */
        double x1[5] = {-2, -0.5, 0, 0.5, 3}, y1[5] = {1, 1, 1, 1, 1};
        double w1[5] = {1, 1, 1, 2, 7};
        run1(t, (actp){PDNN_ACTIVATION_RELU, 0, 0, 1}, x1, 5, 2, 1, y1, out);
        expect(out, w1, 5, 0, "relu blend");
        /* CLIPPED_RELU coef 1 and its gradient (0 at the threshold, as PyTorch) */
        double x2[4] = {-1, 0.25, 1, 7}, w2[4] = {0, 0.25, 1, 1};
        run1(t, (actp){PDNN_ACTIVATION_CLIPPED_RELU, 0, 1, 1}, x2, 4, 1, 0, NULL, out);
        expect(out, w2, 4, 0, "clipped relu");
        double g2[4] = {5, 5, 5, 5}, wg2[4] = {0, 5, 0, 0};
        run1_bwd(t, (actp){PDNN_ACTIVATION_CLIPPED_RELU, 0, 1, 1}, x2, w2, g2, 4, out);
        expect(out, wg2, 4, 0, "clipped relu grad");
        /* SIGMOID(0) = 1/2, slope 1/4; TANH(0) = 0, slope 1 */
        double z[1] = {0}, half[1] = {0.5}, q[1] = {0.25}, zero[1] = {0}, one[1] = {1};
        run1(t, (actp){PDNN_ACTIVATION_SIGMOID, 0, 0, 1}, z, 1, 1, 0, NULL, out);
        expect(out, half, 1, 0, "sigmoid(0)");
        run1_bwd(t, (actp){PDNN_ACTIVATION_SIGMOID, 0, 0, 1}, z, half, one, 1, out);
        expect(out, q, 1, 0, "sigmoid'(0)");
        run1(t, (actp){PDNN_ACTIVATION_TANH, 0, 0, 1}, z, 1, 1, 0, NULL, out);
        expect(out, zero, 1, 0, "tanh(0)");
        run1_bwd(t, (actp){PDNN_ACTIVATION_TANH, 0, 0, 1}, z, zero, one, 1, out);
        expect(out, one, 1, 0, "tanh'(0)");
        /* ELU alpha 2 at -ln 2: 2 (1/2 - 1) = -1, slope 2 * 1/2 = 1 */
        double xe[1] = {-0.69314718055994530942}, we[1] = {-1};
        run1(t, (actp){PDNN_ACTIVATION_ELU, 0, 2, 1}, xe, 1, 1, 0, NULL, out);
        expect(out, we, 1, tol, "elu");
        run1_bwd(t, (actp){PDNN_ACTIVATION_ELU, 0, 2, 1}, xe, we, one, 1, out);
        expect(out, one, 1, tol, "elu'");
        /* SWISH beta 2: swish(0) = 0 with slope 1/2; swish(1) = sigmoid(2) */
        double xs[2] = {0, 1}, ws[2] = {0, 0.8807970779778823};
        run1(t, (actp){PDNN_ACTIVATION_SWISH, 0, 0, 2}, xs, 2, 1, 0, NULL, out);
        expect(out, ws, 2, tol, "swish");
        run1_bwd(t, (actp){PDNN_ACTIVATION_SWISH, 0, 0, 2}, z, zero, one, 1, out);
        expect(out, half, 1, tol, "swish'(0)");
        /* GELU: Phi(1) = 0.8413447460685429; tanh form at +-1 */
        double xg[3] = {1, -1, 0}, wg[3] = {0.8413447460685429, -0.15865525393145707, 0};
        run1(t, (actp){PDNN_ACTIVATION_GELU_ERF, 0, 0, 1}, xg, 3, 1, 0, NULL, out);
        expect(out, wg, 3, tol, "gelu erf");
        double wt[3] = {0.8411919906082768, -0.15880800939172324, 0};
        run1(t, (actp){PDNN_ACTIVATION_GELU_TANH, 0, 0, 1}, xg, 3, 1, 0, NULL, out);
        expect(out, wt, 3, tol, "gelu tanh");
        run1_bwd(t, (actp){PDNN_ACTIVATION_GELU_ERF, 0, 0, 1}, z, zero, one, 1, out);
        expect(out, half, 1, tol, "gelu erf'(0)");
        run1_bwd(t, (actp){PDNN_ACTIVATION_GELU_TANH, 0, 0, 1}, z, zero, one, 1, out);
        expect(out, half, 1, tol, "gelu tanh'(0)");
        /* IDENTITY is accepted by ActivationForward (a pdnn extension of cuDNN) */
        double xi[3] = {-3, 0, 5};
        run1(t, (actp){PDNN_ACTIVATION_IDENTITY, 0, 0, 1}, xi, 3, 1, 0, NULL, out);
        expect(out, xi, 3, 0, "identity");
    }
}

/* ------------------------------------------------- NaN and infinite inputs */

static void nan_and_inf(void)
{
    const double inf = INFINITY;
    double out[3];
    for (int mi = 0; mi < NMODES; mi++) {
        pdnnActivationMode_t m = MODES[mi];
        for (int prop = 0; prop < 2; prop++) {
            actp a = {m, prop, m == PDNN_ACTIVATION_ELU ? 1.5 : 2.0, 1.0};
            double x[3] = {NAN, -inf, inf};
            run1(PDNN_DATA_DOUBLE, a, x, 3, 1, 0, NULL, out);
            bool zero_nan = piecewise(m) && !prop;
            TU_CHECK(zero_nan ? out[0] == 0 : isnan(out[0]), "mode %d prop %d: f(NaN) = %g",
                     (int)m, prop, out[0]);
            double lo = m == PDNN_ACTIVATION_TANH       ? -1
                        : m == PDNN_ACTIVATION_ELU      ? -1.5
                        : m == PDNN_ACTIVATION_IDENTITY ? -inf
                                                        : 0;
            double hi = m == PDNN_ACTIVATION_SIGMOID || m == PDNN_ACTIVATION_TANH ? 1
                        : m == PDNN_ACTIVATION_CLIPPED_RELU                       ? 2
                                                                                  : inf;
            TU_CHECK(out[1] == lo && out[2] == hi, "mode %d: f(-inf), f(inf) = %g %g", (int)m,
                     out[1], out[2]);
            double y[3] = {out[0], out[1], out[2]}, dy[3] = {1, 1, 1};
            run1_bwd(PDNN_DATA_DOUBLE, a, x, y, dy, 3, out);
            if (m == PDNN_ACTIVATION_IDENTITY)
                TU_CHECK(out[0] == 1, "identity'(NaN) = %g", out[0]);
            else
                TU_CHECK(zero_nan ? out[0] == 0 : isnan(out[0]), "mode %d prop %d: f'(NaN) = %g",
                         (int)m, prop, out[0]);
            double glo = m == PDNN_ACTIVATION_IDENTITY ? 1 : 0;
            double ghi = m == PDNN_ACTIVATION_RELU || m == PDNN_ACTIVATION_ELU ||
                                 m == PDNN_ACTIVATION_IDENTITY || m == PDNN_ACTIVATION_SWISH ||
                                 m == PDNN_ACTIVATION_GELU_ERF || m == PDNN_ACTIVATION_GELU_TANH
                             ? 1
                             : 0;
            TU_CHECK(out[1] == glo && out[2] == ghi, "mode %d: f'(-inf), f'(inf) = %g %g",
                     (int)m, out[1], out[2]);
        }
    }
    /* RELU backward selects: where x <= 0 a NaN or Inf dy gives 0 (PyTorch) */
    double x[3] = {-1, 2, -3}, y[3] = {0, 2, 0}, dy[3] = {NAN, NAN, inf};
    run1_bwd(PDNN_DATA_FLOAT, (actp){PDNN_ACTIVATION_RELU, 1, 0, 1}, x, y, dy, 3, out);
    TU_CHECK(out[0] == 0 && isnan(out[1]) && out[2] == 0, "relu' with NaN dy: %g %g %g",
             out[0], out[1], out[2]);
}

/* ---------------------------------------------- zero-sized tensors, rank 8 */

static void edge_shapes(void)
{
    actp a = {PDNN_ACTIVATION_TANH, 1, 0, 1};
    pdnnActivationDescriptor_t ad = make_act(&a);
    int zd[4] = {2, 0, 3, 3};
    pdnnTensorDescriptor_t z = tu_tensor(PDNN_DATA_FLOAT, 4, zd, NULL);
    float one = 1, zero = 0;
    TU_OK(pdnnActivationForward(H, ad, &one, z, NULL, &zero, z, NULL));
    TU_OK(pdnnActivationBackward(H, ad, &one, z, NULL, z, NULL, z, NULL, &zero, z, NULL));
    pdnnDestroyTensorDescriptor(z);
    /* rank 8, one thread vs two on a large enough tensor to split */
    int d8[8] = {2, 3, 2, 2, 3, 2, 2, 3};
    pdnnTensorDescriptor_t d = tu_tensor(PDNN_DATA_DOUBLE, 8, d8, NULL);
    size_t n = 2 * 3 * 2 * 2 * 3 * 2 * 2 * 3;
    double *x = tu_alloc(PDNN_DATA_DOUBLE, n), *y = tu_alloc(PDNN_DATA_DOUBLE, n);
    tu_fill_uniform(x, PDNN_DATA_DOUBLE, n, -3, 3);
    double o = 1, b = 0;
    TU_OK(pdnnActivationForward(H, ad, &o, d, x, &b, d, y));
    long bad = 0;
    for (size_t i = 0; i < n; i++) bad += fabs(y[i] - tanh(x[i])) > 1e-15;
    TU_CHECK(bad == 0, "rank 8: %ld wrong", bad);
    free(x), free(y);
    pdnnDestroyTensorDescriptor(d);
    /* large flat tensor: chunks split across threads */
    int big[1] = {50000};
    d = tu_tensor(PDNN_DATA_FLOAT, 1, big, NULL);
    float *bx = tu_alloc(PDNN_DATA_FLOAT, 50000), *b1 = tu_alloc(PDNN_DATA_FLOAT, 50000),
          *b2 = tu_alloc(PDNN_DATA_FLOAT, 50000);
    tu_fill_uniform(bx, PDNN_DATA_FLOAT, 50000, -3, 3);
    TU_OK(pdnnSetNumThreads(H, 1));
    TU_OK(pdnnActivationForward(H, ad, &one, d, bx, &zero, d, b1));
    TU_OK(pdnnSetNumThreads(H, 2));
    TU_OK(pdnnActivationForward(H, ad, &one, d, bx, &zero, d, b2));
    TU_CHECK(tu_bitwise_equal(b1, b2, 50000 * 4), "large: 1 vs 2 threads differ");
    free(bx), free(b1), free(b2);
    pdnnDestroyTensorDescriptor(d);
    pdnnDestroyActivationDescriptor(ad);
}

/* Exact data: piecewise-linear modes on small integers, integer alpha/beta -> 0 error. */
static void exact_integers(void)
{
    const pdnnActivationMode_t ms[3] = {PDNN_ACTIVATION_RELU, PDNN_ACTIVATION_IDENTITY,
                                        PDNN_ACTIVATION_CLIPPED_RELU};
    for (int k = 0; k < 3; k++) {
        pdnnDataType_t t = PDNN_DATA_FLOAT;
        actp a = {ms[k], 0, 3, 1};
        pdnnActivationDescriptor_t ad = make_act(&a);
        pdnnTensorDescriptor_t d = tu_tensor4d(t, PDNN_TENSOR_NHWC, 3, 5, 4, 7);
        size_t n = 3 * 5 * 4 * 7;
        void *x = tu_alloc(t, n), *y = tu_alloc(t, n);
        tu_fill_int(x, t, n, -6, 6);
        tu_fill_int(y, t, n, -6, 6);
        double *ref = malloc(n * sizeof(double));
        for (size_t i = 0; i < n; i++)
            ref[i] = 2 * (double)o_fwd(&a, tu_get(x, t, i)) - 3 * tu_get(y, t, i);
        float al = 2, be = -3;
        TU_OK(pdnnActivationForward(H, ad, &al, d, x, &be, d, y));
        TU_CHECK(tu_count_mismatch(ref, y, t, n) == 0, "exact mode %d", (int)ms[k]);
        free(x), free(y), free(ref);
        pdnnDestroyTensorDescriptor(d);
        pdnnDestroyActivationDescriptor(ad);
    }
}

int main(void)
{
    tu_seed(20240611);
    TU_OK(pdnnCreate(&H));
    hand_worked();
    nan_and_inf();
    exact_integers();
    edge_shapes();
    finite_differences();
    fast_vs_ref();
    for (int i = 0; i < 300; i++) fwd_random(i);
    for (int i = 0; i < 300; i++) bwd_random(i);
    pdnnDestroy(H);
    return tu_finish("ops/activation");
}
