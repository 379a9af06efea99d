/* pdnnLossForward / pdnnLossBackward against an independent double oracle (the loss as
 * PyTorch defines it: -sum_c q_c log softmax(x)_c with the smoothed target distribution
 * q; nll = -x[target]; mse = (x - t)^2), at random ranks (N x C, N x C x d1 [x d2]),
 * layouts (packed, gapped, channels-last), both target forms, INT32 and INT64 labels,
 * ignore index (a negative one and a real class), label smoothing, every reduction,
 * alpha/beta blending with NaN-poisoned outputs, dy given or implied; hand-worked values
 * with exact data; central finite differences in DOUBLE; huge logits (1e4, 1e30);
 * empty batches and all-ignored means; 1 vs 2 threads bitwise. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_layout.h"

static pdnnHandle_t H;

/* A tensor: logical dims, strides, data type and a buffer of its span. */
typedef struct {
    int nb, dims[PDNN_DIM_MAX], st[PDNN_DIM_MAX];
    pdnnDataType_t t;
    pdnnTensorDescriptor_t d;
    void *p;
    int64_t numel, span;
} ten;

static ten mk(pdnnDataType_t t, int nb, const int *dims, int layout)
{
    ten x;
    memset(&x, 0, sizeof x);
    x.nb = nb;
    x.t = t;
    memcpy(x.dims, dims, sizeof(int) * (size_t)nb);
    tu_layout_strides(nb, dims, layout, x.st);
    x.d = tu_tensor(t, nb, dims, x.st);
    x.numel = tu_layout_numel(nb, dims);
    x.span = tu_layout_span(nb, dims, x.st);
    x.p = tu_alloc(t, (size_t)x.span);
    return x;
}

static void drop(ten *x)
{
    pdnnDestroyTensorDescriptor(x->d);
    free(x->p);
}

static int64_t off(const ten *x, int64_t i) { return tu_layout_offset(x->nb, x->dims, x->st, i); }

static double get(const ten *x, int64_t i)
{
    int64_t o = off(x, i);
    switch (x->t) {
    case PDNN_DATA_DOUBLE: return ((double *)x->p)[o];
    case PDNN_DATA_INT32: return ((int32_t *)x->p)[o];
    case PDNN_DATA_INT64: return (double)((int64_t *)x->p)[o];
    default: return ((float *)x->p)[o];
    }
}

static void set(ten *x, int64_t i, double v)
{
    int64_t o = off(x, i);
    switch (x->t) {
    case PDNN_DATA_DOUBLE: ((double *)x->p)[o] = v; break;
    case PDNN_DATA_INT32: ((int32_t *)x->p)[o] = (int32_t)v; break;
    case PDNN_DATA_INT64: ((int64_t *)x->p)[o] = (int64_t)v; break;
    default: ((float *)x->p)[o] = (float)v; break;
    }
}

static void poison(ten *x)
{
    for (int64_t i = 0; i < x->numel; i++) set(x, i, NAN);
}

/* ------------------------------------------------------------------ the oracle */

typedef struct {
    pdnnLossMode_t mode;
    pdnnLossReduction_t red;
    int64_t ignore;
    double eps;
} lossp;

/* Per-row losses (class losses: rows = N * S; MSE: numel) into l[], and the number of
 * counted rows. x and t are logical arrays. */
static int64_t o_rows(const lossp *P, int64_t N, int64_t C, int64_t S, const double *x,
                      const double *t, double *l)
{
    int64_t rows = P->mode == PDNN_LOSS_MSE ? N * C * S : N * S, cnt = 0;
    for (int64_t r = 0; r < rows; r++) {
        if (P->mode == PDNN_LOSS_MSE) {
            l[r] = (x[r] - t[r]) * (x[r] - t[r]);
            cnt++;
            continue;
        }
        int64_t n = r / S, s = r % S, k = (int64_t)t[r];
        if (k == P->ignore) {
            l[r] = 0;
            continue;
        }
        cnt++;
        if (P->mode == PDNN_LOSS_NLL) {
            l[r] = -x[(n * C + k) * S + s];
            continue;
        }
        double m = -INFINITY, z = 0;
        for (int64_t c = 0; c < C; c++) m = fmax(m, x[(n * C + c) * S + s]);
        for (int64_t c = 0; c < C; c++) z += exp(x[(n * C + c) * S + s] - m);
        double lse = m + log(z), acc = 0;
        for (int64_t c = 0; c < C; c++) {
            double q = (1 - P->eps) * (c == k) + P->eps / (double)C;
            acc -= q * (x[(n * C + c) * S + s] - lse);
        }
        l[r] = acc;
    }
    return cnt;
}

/* Gradient oracle: dx (logical, x's size) for upstream dy (per row, or dy[0] reduced). */
static void o_grad(const lossp *P, int64_t N, int64_t C, int64_t S, const double *x,
                   const double *t, const double *dy, double *dx)
{
    int64_t rows = P->mode == PDNN_LOSS_MSE ? N * C * S : N * S, cnt = 0;
    for (int64_t r = 0; r < rows; r++)
        cnt += P->mode == PDNN_LOSS_MSE || (int64_t)t[r] != P->ignore;
    for (int64_t i = 0; i < N * C * S; i++) dx[i] = 0;
    for (int64_t r = 0; r < rows; r++) {
        double w = P->red == PDNN_LOSS_REDUCTION_NONE ? dy[r] : dy[0];
        if (P->red == PDNN_LOSS_REDUCTION_MEAN) w /= (double)cnt;
        if (P->mode == PDNN_LOSS_MSE) {
            dx[r] = 2 * (x[r] - t[r]) * w;
            continue;
        }
        int64_t n = r / S, s = r % S, k = (int64_t)t[r];
        if (k == P->ignore) continue;
        if (P->mode == PDNN_LOSS_NLL) {
            dx[(n * C + k) * S + s] = -w;
            continue;
        }
        double m = -INFINITY, z = 0;
        for (int64_t c = 0; c < C; c++) m = fmax(m, x[(n * C + c) * S + s]);
        for (int64_t c = 0; c < C; c++) z += exp(x[(n * C + c) * S + s] - m);
        for (int64_t c = 0; c < C; c++) {
            double p = exp(x[(n * C + c) * S + s] - m) / z;
            double q = (1 - P->eps) * (c == k) + P->eps / (double)C;
            dx[(n * C + c) * S + s] = (p - q) * w;
        }
    }
}

static pdnnLossDescriptor_t mkloss(const lossp *P)
{
    pdnnLossDescriptor_t L;
    pdnnCreateLossDescriptor(&L);
    TU_OK(pdnnSetLossDescriptor(L, P->mode, P->red, P->ignore, P->eps));
    return L;
}

/* ------------------------------------------------------------------ one random case */

typedef struct {
    lossp P;
    pdnnDataType_t t, tt;
    int nb, dims[5];        /* x dims */
    int tform;              /* 0: N x d..., 1: N x 1 x d... (class losses) */
    int layout;             /* for x; the others random */
    bool has_dy;
    double alpha, beta;
} lcase;

static void rows_dims(const lcase *c, int *nb, int *dims)
{
    if (c->P.mode == PDNN_LOSS_MSE) {
        *nb = c->nb;
        memcpy(dims, c->dims, sizeof(int) * (size_t)c->nb);
        return;
    }
    if (c->tform) {
        *nb = c->nb;
        memcpy(dims, c->dims, sizeof(int) * (size_t)c->nb);
        dims[1] = 1;
    } else {
        *nb = c->nb - 1;
        dims[0] = c->dims[0];
        for (int i = 2; i < c->nb; i++) dims[i - 1] = c->dims[i];
    }
}

static bool g_all_packed; /* steer random cases to the packed implementation */

static int rand_layout(void) { return g_all_packed ? TU_LAYOUT_PACKED : tu_int(0, 2); }

static void run_case(const lcase *c)
{
    pdnnDataType_t t = c->t;
    int64_t N = c->dims[0], C = c->dims[1], S = 1;
    for (int i = 2; i < c->nb; i++) S *= c->dims[i];
    ten x = mk(t, c->nb, c->dims, c->layout);
    int rnb, rd[5];
    rows_dims(c, &rnb, rd);
    ten tg = c->P.mode == PDNN_LOSS_MSE ? mk(t, c->nb, c->dims, rand_layout())
                                         : mk(c->tt, rnb, rd, rand_layout());
    int one[3] = {1, 1, 1};
    bool red = c->P.red != PDNN_LOSS_REDUCTION_NONE;
    ten y = red ? mk(t, tu_int(1, 3), one, 0) : mk(t, rnb, rd, rand_layout());
    ten dy = red ? mk(t, tu_int(1, 3), one, 0) : mk(t, rnb, rd, rand_layout());
    ten dx = mk(t, c->nb, c->dims, rand_layout());
    int64_t nx = x.numel, rows = tg.numel;
    double *xo = calloc((size_t)nx + 1, 8), *to = calloc((size_t)rows + 1, 8);
    double *l = calloc((size_t)rows + 1, 8), *dyo = calloc((size_t)y.numel + 1, 8);
    double *ref = calloc((size_t)nx + 1, 8), *old = calloc((size_t)nx + y.numel + 1, 8);
    for (int64_t i = 0; i < nx; i++) {
        set(&x, i, tu_uniform(-4, 4));
        xo[i] = get(&x, i);
    }
    for (int64_t r = 0; r < rows; r++) {
        if (c->P.mode == PDNN_LOSS_MSE)
            set(&tg, r, tu_uniform(-4, 4));
        else
            set(&tg, r, tu_int(0, 4) == 0 ? (double)c->P.ignore : tu_int(0, (int)C - 1));
        to[r] = get(&tg, r);
    }
    for (int64_t i = 0; i < y.numel; i++) {
        set(&dy, i, tu_uniform(-2, 2));
        dyo[i] = c->has_dy ? get(&dy, i) : 1.0;
    }
    pdnnLossDescriptor_t L = mkloss(&c->P);
    tu_scalar al = tu_sc(t, c->alpha), be = tu_sc(t, c->beta);
    double tol = t == PDNN_DATA_DOUBLE ? 1e-12 : 2e-6;

    /* forward */
    int64_t cnt = o_rows(&c->P, N, C, S, xo, to, l);
    if (c->beta == 0) poison(&y);
    for (int64_t i = 0; i < y.numel; i++) {
        if (c->beta != 0) set(&y, i, tu_uniform(-1, 1));
        old[i] = c->beta != 0 ? get(&y, i) : 0;
    }
    double *yref = calloc((size_t)y.numel + 1, 8);
    if (red) {
        double s = 0;
        for (int64_t r = 0; r < rows; r++) s += l[r];
        double v = c->P.red == PDNN_LOSS_REDUCTION_MEAN ? s / (double)cnt : s;
        yref[0] = c->alpha * v + c->beta * old[0];
    } else {
        for (int64_t r = 0; r < rows; r++) yref[r] = c->alpha * l[r] + c->beta * old[r];
    }
    TU_OK(pdnnLossForward(H, L, &al, x.d, x.p, tg.d, tg.p, &be, y.d, y.p));
    double *yo = calloc((size_t)y.numel + 1, 8);
    for (int64_t i = 0; i < y.numel; i++) yo[i] = get(&y, i);
    double e = tu_rel_err(yref, yo, PDNN_DATA_DOUBLE, (size_t)y.numel);
    TU_CHECK(e <= tol, "fwd mode %d red %d %s nb %d N %lld C %lld S %lld eps %g: err %g",
             c->P.mode, c->P.red, t == PDNN_DATA_DOUBLE ? "f64" : "f32", c->nb,
             (long long)N, (long long)C, (long long)S, c->P.eps, e);

    /* backward */
    o_grad(&c->P, N, C, S, xo, to, dyo, ref);
    if (c->beta == 0) poison(&dx);
    for (int64_t i = 0; i < nx; i++) {
        if (c->beta != 0) set(&dx, i, tu_uniform(-1, 1));
        ref[i] = c->alpha * ref[i] + (c->beta != 0 ? c->beta * get(&dx, i) : 0);
    }
    TU_OK(pdnnLossBackward(H, L, &al, x.d, x.p, tg.d, tg.p, c->has_dy ? dy.d : NULL,
                           c->has_dy ? dy.p : NULL, &be, dx.d, dx.p));
    double *dxo = calloc((size_t)nx + 1, 8);
    for (int64_t i = 0; i < nx; i++) dxo[i] = get(&dx, i);
    e = tu_rel_err(ref, dxo, PDNN_DATA_DOUBLE, (size_t)nx);
    TU_CHECK(e <= tol, "bwd mode %d red %d %s nb %d N %lld C %lld S %lld eps %g dy %d: err %g",
             c->P.mode, c->P.red, t == PDNN_DATA_DOUBLE ? "f64" : "f32", c->nb,
             (long long)N, (long long)C, (long long)S, c->P.eps, c->has_dy, e);

    pdnnDestroyLossDescriptor(L);
    free(xo), free(to), free(l), free(dyo), free(ref), free(old), free(yref), free(yo);
    free(dxo);
    drop(&x), drop(&tg), drop(&y), drop(&dy), drop(&dx);
}

static void test_random(void)
{
    tu_seed(11);
    for (int it = 0; it < 600; it++) {
        lcase c;
        memset(&c, 0, sizeof c);
        c.P.mode = (pdnnLossMode_t)(it % 3);
        c.P.red = (pdnnLossReduction_t)((it / 3) % 3);
        c.P.ignore = tu_int(0, 1) ? -100 : tu_int(0, 2);
        c.P.eps = c.P.mode == PDNN_LOSS_SOFTMAX_CROSS_ENTROPY && tu_int(0, 1) ? tu_uniform(0, 1) : 0;
        c.t = (it / 9) % 2 ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        c.tt = tu_int(0, 1) ? PDNN_DATA_INT64 : PDNN_DATA_INT32;
        c.nb = tu_int(2, 4);
        c.dims[0] = tu_int(1, 5);
        c.dims[1] = tu_int(1, 7);
        for (int i = 2; i < c.nb; i++) c.dims[i] = tu_int(1, 3);
        if (c.P.ignore >= c.dims[1]) c.P.ignore = -100;
        c.tform = tu_int(0, 1);
        g_all_packed = tu_int(0, 1);
        c.layout = rand_layout();
        c.has_dy = tu_int(0, 2) != 0;
        c.alpha = tu_int(0, 3) ? tu_uniform(0.5, 2) : 1;
        c.beta = tu_int(0, 1) ? 0 : tu_uniform(-1, 1);
        run_case(&c);
    }
    g_all_packed = false;
}

/* ------------------------------------------------------------------ worked by hand */

static void test_hand(void)
{
    float one = 1, zero = 0;
    /* NLL on exact data: rows {-1,-2,-3}, {-4,-5,-6}; targets 2, 0 -> 3, 4 */
    int xd[2] = {2, 3}, td[1] = {2};
    pdnnTensorDescriptor_t xD = tu_tensor(PDNN_DATA_FLOAT, 2, xd, NULL);
    pdnnTensorDescriptor_t tD = tu_tensor(PDNN_DATA_INT32, 1, td, NULL);
    pdnnTensorDescriptor_t yN = tu_tensor(PDNN_DATA_FLOAT, 1, td, NULL);
    int od[1] = {1};
    pdnnTensorDescriptor_t y1 = tu_tensor(PDNN_DATA_FLOAT, 1, od, NULL);
    float x[6] = {-1, -2, -3, -4, -5, -6}, y[2], dx[6];
    int32_t tg[2] = {2, 0};
    lossp P = {PDNN_LOSS_NLL, PDNN_LOSS_REDUCTION_NONE, -100, 0};
    pdnnLossDescriptor_t L = mkloss(&P);
    TU_OK(pdnnLossForward(H, L, &one, xD, x, tD, tg, &zero, yN, y));
    TU_CHECK(y[0] == 3 && y[1] == 4, "nll none %g %g", y[0], y[1]);
    P.red = PDNN_LOSS_REDUCTION_MEAN;
    TU_OK(pdnnSetLossDescriptor(L, P.mode, P.red, P.ignore, 0));
    TU_OK(pdnnLossForward(H, L, &one, xD, x, tD, tg, &zero, y1, y));
    TU_CHECK(y[0] == 3.5f, "nll mean %g", y[0]);
    TU_OK(pdnnLossBackward(H, L, &one, xD, x, tD, tg, NULL, NULL, &zero, xD, dx));
    float want[6] = {0, 0, -0.5f, -0.5f, 0, 0};
    TU_CHECK(!memcmp(dx, want, sizeof want), "nll mean grad");
    /* ignore index 2: the mean divides by the one remaining target */
    TU_OK(pdnnSetLossDescriptor(L, PDNN_LOSS_NLL, PDNN_LOSS_REDUCTION_MEAN, 2, 0));
    TU_OK(pdnnLossForward(H, L, &one, xD, x, tD, tg, &zero, y1, y));
    TU_CHECK(y[0] == 4, "nll mean with ignore %g", y[0]);
    /* MSE on exact data: x {1,2,3} t {0,4,3} -> 1,4,0; mean 5/3; sum 5; grad 2(x-t)/3 */
    int md[1] = {3};
    pdnnTensorDescriptor_t mD = tu_tensor(PDNN_DATA_FLOAT, 1, md, NULL);
    float mx[3] = {1, 2, 3}, mt[3] = {0, 4, 3}, my[3], mdx[3];
    TU_OK(pdnnSetLossDescriptor(L, PDNN_LOSS_MSE, PDNN_LOSS_REDUCTION_NONE, -100, 0));
    TU_OK(pdnnLossForward(H, L, &one, mD, mx, mD, mt, &zero, mD, my));
    TU_CHECK(my[0] == 1 && my[1] == 4 && my[2] == 0, "mse none");
    TU_OK(pdnnSetLossDescriptor(L, PDNN_LOSS_MSE, PDNN_LOSS_REDUCTION_SUM, -100, 0));
    TU_OK(pdnnLossForward(H, L, &one, mD, mx, mD, mt, &zero, y1, my));
    TU_CHECK(my[0] == 5, "mse sum %g", my[0]);
    TU_OK(pdnnLossBackward(H, L, &one, mD, mx, mD, mt, NULL, NULL, &zero, mD, mdx));
    TU_CHECK(mdx[0] == 2 && mdx[1] == -4 && mdx[2] == 0, "mse sum grad");
    TU_OK(pdnnSetLossDescriptor(L, PDNN_LOSS_MSE, PDNN_LOSS_REDUCTION_MEAN, -100, 0));
    TU_OK(pdnnLossForward(H, L, &one, mD, mx, mD, mt, &zero, y1, my));
    TU_CHECK(my[0] == 5.0f / 3.0f, "mse mean %g", my[0]);
    /* cross-entropy: logits {0, ln 3} -> p = {1/4, 3/4}; target 1 -> -ln(3/4);
     * smoothing 0.5 -> 0.75 * -ln(3/4) + 0.25 * -ln(1/4) */
    double cx[2] = {0, log(3.0)}, cy, cdx[2], d1 = 1, d0 = 0;
    int cd[2] = {1, 2}, ct1[1] = {1};
    pdnnTensorDescriptor_t cD = tu_tensor(PDNN_DATA_DOUBLE, 2, cd, NULL);
    pdnnTensorDescriptor_t ctD = tu_tensor(PDNN_DATA_INT64, 1, ct1, NULL);
    pdnnTensorDescriptor_t cyD = tu_tensor(PDNN_DATA_DOUBLE, 1, ct1, NULL);
    int64_t ct[1] = {1};
    TU_OK(pdnnSetLossDescriptor(L, PDNN_LOSS_SOFTMAX_CROSS_ENTROPY, PDNN_LOSS_REDUCTION_SUM,
                                -100, 0));
    TU_OK(pdnnLossForward(H, L, &d1, cD, cx, ctD, ct, &d0, cyD, &cy));
    TU_CHECK(fabs(cy - -log(0.75)) < 1e-15, "ce %.17g", cy);
    TU_OK(pdnnLossBackward(H, L, &d1, cD, cx, ctD, ct, NULL, NULL, &d0, cD, cdx));
    TU_CHECK(fabs(cdx[0] - 0.25) < 1e-15 && fabs(cdx[1] + 0.25) < 1e-15, "ce grad %g %g",
             cdx[0], cdx[1]);
    TU_OK(pdnnSetLossDescriptor(L, PDNN_LOSS_SOFTMAX_CROSS_ENTROPY, PDNN_LOSS_REDUCTION_SUM,
                                -100, 0.5));
    TU_OK(pdnnLossForward(H, L, &d1, cD, cx, ctD, ct, &d0, cyD, &cy));
    TU_CHECK(fabs(cy - (0.75 * -log(0.75) + 0.25 * -log(0.25))) < 1e-15, "ce smooth %.17g", cy);
    TU_OK(pdnnLossBackward(H, L, &d1, cD, cx, ctD, ct, NULL, NULL, &d0, cD, cdx));
    TU_CHECK(fabs(cdx[0] - 0.0) < 1e-15 && fabs(cdx[1] - 0.0) < 1e-15, "ce smooth grad %g %g",
             cdx[0], cdx[1]); /* p = q = {1/4, 3/4} */
    pdnnDestroyLossDescriptor(L);
    pdnnDestroyTensorDescriptor(xD), pdnnDestroyTensorDescriptor(tD);
    pdnnDestroyTensorDescriptor(yN), pdnnDestroyTensorDescriptor(y1);
    pdnnDestroyTensorDescriptor(mD), pdnnDestroyTensorDescriptor(cD);
    pdnnDestroyTensorDescriptor(ctD), pdnnDestroyTensorDescriptor(cyD);
}

/* ------------------------------------------------------------------ finite differences */

static void test_fd(void)
{
    tu_seed(23);
    for (int it = 0; it < 36; it++) {
        lossp P = {(pdnnLossMode_t)(it % 3), (pdnnLossReduction_t)((it / 3) % 3), 1,
                   it % 3 == 0 && (it / 9) % 2 ? 0.3 : 0};
        int nb = 2 + (it / 18), dims[3] = {tu_int(1, 3), tu_int(2, 5), tu_int(1, 3)};
        ten x = mk(PDNN_DATA_DOUBLE, nb, dims, rand_layout());
        int rnb = P.mode == PDNN_LOSS_MSE ? nb : nb - 1, rd[3];
        if (P.mode == PDNN_LOSS_MSE)
            memcpy(rd, dims, sizeof rd);
        else
            rd[0] = dims[0], rd[1] = dims[2];
        ten tg = mk(P.mode == PDNN_LOSS_MSE ? PDNN_DATA_DOUBLE : PDNN_DATA_INT32, rnb, rd,
                    rand_layout());
        int one[1] = {1};
        bool red = P.red != PDNN_LOSS_REDUCTION_NONE;
        ten y = red ? mk(PDNN_DATA_DOUBLE, 1, one, 0) : mk(PDNN_DATA_DOUBLE, rnb, rd, 0);
        ten dy = red ? mk(PDNN_DATA_DOUBLE, 1, one, 0) : mk(PDNN_DATA_DOUBLE, rnb, rd, 0);
        ten dx = mk(PDNN_DATA_DOUBLE, nb, dims, rand_layout());
        for (int64_t i = 0; i < x.numel; i++) set(&x, i, tu_uniform(-3, 3));
        for (int64_t r = 0; r < tg.numel; r++)
            set(&tg, r, P.mode == PDNN_LOSS_MSE ? tu_uniform(-3, 3)
                                                : r == 0 ? 0 : tu_int(0, dims[1] - 1));
        for (int64_t i = 0; i < dy.numel; i++) set(&dy, i, tu_uniform(-2, 2));
        pdnnLossDescriptor_t L = mkloss(&P);
        double d1 = 1, d0 = 0, h = 1e-5, worst = 0, scale = 0;
        TU_OK(pdnnLossBackward(H, L, &d1, x.d, x.p, tg.d, tg.p, dy.d, dy.p, &d0, dx.d, dx.p));
        for (int64_t i = 0; i < x.numel; i++) {
            double x0 = get(&x, i), j[2];
            for (int sgn = 0; sgn < 2; sgn++) {
                set(&x, i, x0 + (sgn ? -h : h));
                pdnnLossForward(H, L, &d1, x.d, x.p, tg.d, tg.p, &d0, y.d, y.p);
                j[sgn] = 0;
                for (int64_t k = 0; k < y.numel; k++) j[sgn] += get(&dy, k) * get(&y, k);
            }
            set(&x, i, x0);
            double fd = (j[0] - j[1]) / (2 * h), an = get(&dx, i);
            worst = fmax(worst, fabs(fd - an));
            scale = fmax(scale, fabs(an));
        }
        TU_CHECK(worst <= 1e-7 * fmax(1, scale), "fd mode %d red %d eps %g nb %d: |fd - dx| %g",
                 P.mode, P.red, P.eps, nb, worst);
        pdnnDestroyLossDescriptor(L);
        drop(&x), drop(&tg), drop(&y), drop(&dy), drop(&dx);
    }
}

/* ------------------------------------------------------------------ huge logits */

static void test_huge(void)
{
    for (int ti = 0; ti < 2; ti++) {
        pdnnDataType_t t = ti ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        double big = ti ? 1e300 : 1e30;
        double vals[3][4] = {{1e4, -1e4, 0, 1e4 - 1}, {-1e4, -1e4 - 2, -1e4 + 3, -1e4},
                             {big, -big, big, 0}};
        int dims[2] = {3, 4}, td[1] = {3}, one[1] = {1};
        ten x = mk(t, 2, dims, 0), dx = mk(t, 2, dims, 0), y = mk(t, 1, one, 0);
        ten tg = mk(PDNN_DATA_INT32, 1, td, 0);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++) set(&x, r * 4 + c, vals[r][c]);
        set(&tg, 0, 3), set(&tg, 1, 2), set(&tg, 2, 3);
        double xo[12], to[3] = {3, 2, 3}, l[3], ref[12], dyo[1] = {1}, d[12];
        for (int i = 0; i < 12; i++) xo[i] = get(&x, i);
        lossp P = {PDNN_LOSS_SOFTMAX_CROSS_ENTROPY, PDNN_LOSS_REDUCTION_SUM, -100, 0.1};
        pdnnLossDescriptor_t L = mkloss(&P);
        tu_scalar a1 = tu_sc(t, 1), b0 = tu_sc(t, 0);
        TU_OK(pdnnLossForward(H, L, &a1, x.d, x.p, tg.d, tg.p, &b0, y.d, y.p));
        o_rows(&P, 3, 4, 1, xo, to, l);
        double want = l[0] + l[1] + l[2], got = get(&y, 0);
        TU_CHECK(isfinite(got) && isfinite(want), "huge logits finite: %g (oracle %g)", got, want);
        TU_CHECK(fabs(got - want) <= 1e-6 * fabs(want), "huge logits %s: %.9g vs %.9g",
                 ti ? "f64" : "f32", got, want);
        TU_OK(pdnnLossBackward(H, L, &a1, x.d, x.p, tg.d, tg.p, NULL, NULL, &b0, dx.d, dx.p));
        o_grad(&P, 3, 4, 1, xo, to, dyo, ref);
        for (int i = 0; i < 12; i++) d[i] = get(&dx, i);
        bool fin = true;
        for (int i = 0; i < 12; i++) fin = fin && isfinite(d[i]);
        TU_CHECK(fin, "huge logits: finite gradient");
        TU_CHECK(tu_rel_err(ref, d, PDNN_DATA_DOUBLE, 12) <= 1e-6, "huge logits grad %s",
                 ti ? "f64" : "f32");
        pdnnDestroyLossDescriptor(L);
        drop(&x), drop(&dx), drop(&y), drop(&tg);
    }
}

/* ------------------------------------------------------------------ edges */

static void test_edges(void)
{
    float one = 1, zero = 0;
    int xd[2] = {0, 5}, td[1] = {0}, od[1] = {1};
    pdnnTensorDescriptor_t xD = tu_tensor(PDNN_DATA_FLOAT, 2, xd, NULL);
    pdnnTensorDescriptor_t tD = tu_tensor(PDNN_DATA_INT32, 1, td, NULL);
    pdnnTensorDescriptor_t y1 = tu_tensor(PDNN_DATA_FLOAT, 1, od, NULL);
    lossp P = {PDNN_LOSS_SOFTMAX_CROSS_ENTROPY, PDNN_LOSS_REDUCTION_NONE, -100, 0};
    pdnnLossDescriptor_t L = mkloss(&P);
    float y = 7;
    /* empty batch: NONE writes nothing (NULL data allowed), SUM is 0, MEAN NaN (0/0) */
    pdnnTensorDescriptor_t y0 = tu_tensor(PDNN_DATA_FLOAT, 1, td, NULL);
    TU_OK(pdnnLossForward(H, L, &one, xD, NULL, tD, NULL, &zero, y0, NULL));
    TU_OK(pdnnSetLossDescriptor(L, P.mode, PDNN_LOSS_REDUCTION_SUM, -100, 0));
    TU_OK(pdnnLossForward(H, L, &one, xD, NULL, tD, NULL, &zero, y1, &y));
    TU_CHECK(y == 0, "empty sum %g", y);
    TU_OK(pdnnSetLossDescriptor(L, P.mode, PDNN_LOSS_REDUCTION_MEAN, -100, 0));
    TU_OK(pdnnLossForward(H, L, &one, xD, NULL, tD, NULL, &zero, y1, &y));
    TU_CHECK(isnan(y), "empty mean %g", y);
    TU_OK(pdnnLossBackward(H, L, &one, xD, NULL, tD, NULL, NULL, NULL, &zero, xD, NULL));
    /* every target ignored: mean NaN, gradient 0 */
    int xd2[2] = {2, 3}, td2[1] = {2};
    pdnnTensorDescriptor_t x2 = tu_tensor(PDNN_DATA_FLOAT, 2, xd2, NULL);
    pdnnTensorDescriptor_t t2 = tu_tensor(PDNN_DATA_INT32, 1, td2, NULL);
    float xv[6] = {1, 2, 3, 4, 5, 6}, dx[6];
    int32_t tv[2] = {-100, -100};
    TU_OK(pdnnLossForward(H, L, &one, x2, xv, t2, tv, &zero, y1, &y));
    TU_CHECK(isnan(y), "all ignored mean %g", y);
    tu_poison(dx, PDNN_DATA_FLOAT, 6);
    TU_OK(pdnnLossBackward(H, L, &one, x2, xv, t2, tv, NULL, NULL, &zero, x2, dx));
    bool zeros = true;
    for (int i = 0; i < 6; i++) zeros = zeros && dx[i] == 0;
    TU_CHECK(zeros, "all ignored: zero gradient");
    /* 1 x 1 classes: log-softmax of one class is 0 */
    int xd3[2] = {1, 1}, td3[1] = {1};
    pdnnTensorDescriptor_t x3 = tu_tensor(PDNN_DATA_FLOAT, 2, xd3, NULL);
    pdnnTensorDescriptor_t t3 = tu_tensor(PDNN_DATA_INT32, 1, td3, NULL);
    float xv3 = 123.5f;
    int32_t tv3 = 0;
    TU_OK(pdnnLossForward(H, L, &one, x3, &xv3, t3, &tv3, &zero, y1, &y));
    TU_CHECK(y == 0, "one class %g", y);
    pdnnDestroyLossDescriptor(L);
    pdnnDestroyTensorDescriptor(xD), pdnnDestroyTensorDescriptor(tD);
    pdnnDestroyTensorDescriptor(y1), pdnnDestroyTensorDescriptor(x2);
    pdnnDestroyTensorDescriptor(t2), pdnnDestroyTensorDescriptor(x3);
    pdnnDestroyTensorDescriptor(t3), pdnnDestroyTensorDescriptor(y0);
}

/* ------------------------------------------------------------------ threads */

static void test_threads(void)
{
    tu_seed(5);
    int dims[3] = {150, 40, 3}, td[2] = {150, 3}, one[1] = {1};
    for (int m = 0; m < 3; m++) {
        lossp P = {(pdnnLossMode_t)m, PDNN_LOSS_REDUCTION_MEAN, 0, m == 0 ? 0.2 : 0};
        ten x = mk(PDNN_DATA_FLOAT, 3, dims, 0);
        ten tg = m == PDNN_LOSS_MSE ? mk(PDNN_DATA_FLOAT, 3, dims, 0) : mk(PDNN_DATA_INT32, 2, td, 0);
        ten y = mk(PDNN_DATA_FLOAT, 1, one, 0);
        ten yn = m == PDNN_LOSS_MSE ? mk(PDNN_DATA_FLOAT, 3, dims, 0) : mk(PDNN_DATA_FLOAT, 2, td, 0);
        ten dx1 = mk(PDNN_DATA_FLOAT, 3, dims, 0), dx2 = mk(PDNN_DATA_FLOAT, 3, dims, 0);
        tu_fill_uniform(x.p, PDNN_DATA_FLOAT, (size_t)x.numel, -5, 5);
        for (int64_t r = 0; r < tg.numel; r++)
            set(&tg, r, m == PDNN_LOSS_MSE ? tu_uniform(-5, 5) : tu_int(0, 39));
        pdnnLossDescriptor_t L = mkloss(&P);
        float a = 1, b = 0, r1[2], *n1 = malloc(sizeof(float) * (size_t)yn.numel);
        for (int nt = 1; nt <= 2; nt++) {
            TU_OK(pdnnSetNumThreads(H, nt));
            TU_OK(pdnnSetLossDescriptor(L, P.mode, PDNN_LOSS_REDUCTION_MEAN, 0, P.eps));
            TU_OK(pdnnLossForward(H, L, &a, x.d, x.p, tg.d, tg.p, &b, y.d, y.p));
            TU_OK(pdnnSetLossDescriptor(L, P.mode, PDNN_LOSS_REDUCTION_NONE, 0, P.eps));
            TU_OK(pdnnLossForward(H, L, &a, x.d, x.p, tg.d, tg.p, &b, yn.d, yn.p));
            TU_OK(pdnnSetLossDescriptor(L, P.mode, PDNN_LOSS_REDUCTION_MEAN, 0, P.eps));
            TU_OK(pdnnLossBackward(H, L, &a, x.d, x.p, tg.d, tg.p, NULL, NULL, &b,
                                   nt == 1 ? dx1.d : dx2.d, nt == 1 ? dx1.p : dx2.p));
            if (nt == 1) {
                r1[0] = ((float *)y.p)[0];
                memcpy(n1, yn.p, sizeof(float) * (size_t)yn.numel);
            } else {
                r1[1] = ((float *)y.p)[0];
            }
        }
        TU_CHECK(!memcmp(&r1[0], &r1[1], sizeof(float)), "mode %d mean: 1 vs 2 threads", m);
        TU_CHECK(tu_bitwise_equal(n1, yn.p, sizeof(float) * (size_t)yn.numel),
                 "mode %d none: 1 vs 2 threads", m);
        TU_CHECK(tu_bitwise_equal(dx1.p, dx2.p, sizeof(float) * (size_t)dx1.numel),
                 "mode %d backward: 1 vs 2 threads", m);
        free(n1);
        pdnnDestroyLossDescriptor(L);
        drop(&x), drop(&tg), drop(&y), drop(&yn), drop(&dx1), drop(&dx2);
    }
    TU_OK(pdnnSetNumThreads(H, 2));
}

int main(void)
{
    TU_OK(pdnnCreate(&H));
    TU_OK(pdnnSetNumThreads(H, 2));
    test_hand();
    test_random();
    test_fd();
    test_huge();
    test_edges();
    test_threads();
    pdnnDestroy(H);
    return tu_finish("ops/loss");
}
