/* Pooling forward and backward against an independent double-precision oracle: random
 * 1-d/2-d/3-d problems in every mode over NCHW, NHWC, gapped and permuted layouts, the
 * named edge cases (padding, ceil mode, stride above window, dilation, 1x1 output,
 * batch 1, zero-sized dims), NaN inputs and NaN-poisoned outputs, beta blending, 1 vs 2
 * threads bitwise, central finite differences in DOUBLE, and cases worked by hand. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_layout.h"

#define MAXSP 3
#define MAXNB (MAXSP + 2)

typedef struct {
    pdnnDataType_t t;
    int nsp, n, c;
    int in[MAXSP], win[MAXSP], pb[MAXSP], pe[MAXSP], st[MAXSP], dil[MAXSP];
    int ceil;
    pdnnPoolingMode_t mode;
    pdnnNanPropagation_t nan;
} pcfg;

/* A tensor's memory layout: logical dims (N, C, spatial...) and element strides. */
typedef struct {
    int nb;
    int dim[MAXNB];
    int str[MAXNB];
    size_t span; /* elements spanned (>= 1 for allocation) */
} lay;

static pdnnHandle_t H;

/* ------------------------------------------------------------------ oracle */

static int eff(const pcfg *c, int d) { return (c->win[d] - 1) * c->dil[d] + 1; }

/* Output size along d, written from the definition: floor mode counts the windows that
 * fit in the padded input; ceil mode also counts a last partial window, unless it
 * would start at or after the end of the real input (in the end padding). */
static int out_size(const pcfg *c, int d)
{
    if (c->in[d] == 0) return 0;
    int avail = c->in[d] + c->pb[d] + c->pe[d] - eff(c, d);
    int o = avail / c->st[d] + 1;
    if (c->ceil && avail % c->st[d] != 0) {
        o++;
        if ((o - 1) * c->st[d] - c->pb[d] >= c->in[d]) o--;
    }
    return o;
}

static size_t prod(const int *v, int n)
{
    size_t p = 1;
    for (int i = 0; i < n; i++) p *= (size_t)v[i];
    return p;
}

static void dims_of(const pcfg *c, bool out, int *dim)
{
    dim[0] = c->n;
    dim[1] = c->c;
    for (int d = 0; d < c->nsp; d++) dim[2 + d] = out ? out_size(c, d) : c->in[d];
}

/* Row-major index over dims of a logical (n, c, sp) position. */
static size_t lin(const int *dim, int nb, int n, int ch, const int *sp)
{
    size_t i = (size_t)n * dim[1] + ch;
    for (int d = 0; d < nb - 2; d++) i = i * dim[2 + d] + sp[d];
    return i;
}

/* Forward of one window: value and argmax (logical x index, or -1). */
static double oracle_window(const pcfg *c, const double *x, int n, int ch, const int *o,
                            long *arg)
{
    int xd[MAXNB], k[MAXSP] = {0}, pos[MAXSP];
    dims_of(c, false, xd);
    double sum = 0, best = 0;
    long cnt_real = 0, cnt_pad = 0, first_real = -1, first_nan = -1, best_i = -1;
    do {
        bool real = true, inpad = true;
        for (int d = 0; d < c->nsp; d++) {
            pos[d] = o[d] * c->st[d] - c->pb[d] + k[d] * c->dil[d];
            real &= pos[d] >= 0 && pos[d] < c->in[d];
            inpad &= pos[d] >= -c->pb[d] && pos[d] < c->in[d] + c->pe[d];
        }
        cnt_pad += inpad;
        if (!real) continue;
        long xi = (long)lin(xd, c->nsp + 2, n, ch, pos);
        double v = x[xi];
        cnt_real++;
        sum += v;
        if (first_real < 0) first_real = xi;
        if (isnan(v)) {
            if (first_nan < 0) first_nan = xi;
        } else if (best_i < 0 || v > best) {
            best = v;
            best_i = xi;
        }
    } while (tu_next_index(k, c->win, c->nsp));
    if (c->mode == PDNN_POOLING_MAX || c->mode == PDNN_POOLING_MAX_DETERMINISTIC) {
        if (cnt_real == 0) {
            *arg = -1;
            return -INFINITY; /* a dilated window that holds only padding */
        }
        if (first_nan >= 0 && (c->nan == PDNN_PROPAGATE_NAN || best_i < 0)) {
            *arg = c->nan == PDNN_PROPAGATE_NAN ? first_nan : first_real;
            return NAN;
        }
        *arg = best_i;
        return best;
    }
    *arg = -1;
    long cnt = c->mode == PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING ? cnt_pad : cnt_real;
    return cnt ? sum / (double)cnt : 0.0;
}

static void oracle_fwd(const pcfg *c, const double *x, double *y)
{
    int yd[MAXNB], idx[MAXNB] = {0};
    dims_of(c, true, yd);
    size_t ny = prod(yd, c->nsp + 2);
    for (size_t i = 0; i < ny; i++, tu_next_index(idx, yd, c->nsp + 2)) {
        long arg;
        y[i] = oracle_window(c, x, idx[0], idx[1], idx + 2, &arg);
    }
}

/* Backward as a scatter: each window sends its gradient to its argmax (max) or
 * evenly to its real positions (average). */
static void oracle_bwd(const pcfg *c, const double *x, const double *dy, double *gx)
{
    int xd[MAXNB], yd[MAXNB], idx[MAXNB] = {0};
    dims_of(c, false, xd);
    dims_of(c, true, yd);
    size_t nx = prod(xd, c->nsp + 2), ny = prod(yd, c->nsp + 2);
    memset(gx, 0, nx * sizeof *gx);
    bool is_max = c->mode == PDNN_POOLING_MAX || c->mode == PDNN_POOLING_MAX_DETERMINISTIC;
    for (size_t i = 0; i < ny; i++, tu_next_index(idx, yd, c->nsp + 2)) {
        long arg;
        oracle_window(c, x, idx[0], idx[1], idx + 2, &arg);
        if (is_max) {
            if (arg >= 0) gx[arg] += dy[i];
            continue;
        }
        /* average: count as the forward does, then spread over the real taps */
        long cnt_real = 0, cnt_pad = 0;
        int k[MAXSP] = {0}, pos[MAXSP];
        for (int pass = 0; pass < 2; pass++) {
            double share = 0;
            if (pass == 1) {
                long cnt = c->mode == PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING ? cnt_pad
                                                                                 : cnt_real;
                if (!cnt) break;
                share = dy[i] / (double)cnt;
            }
            memset(k, 0, sizeof k);
            do {
                bool real = true, inpad = true;
                for (int d = 0; d < c->nsp; d++) {
                    pos[d] = idx[2 + d] * c->st[d] - c->pb[d] + k[d] * c->dil[d];
                    real &= pos[d] >= 0 && pos[d] < c->in[d];
                    inpad &= pos[d] < c->in[d] + c->pe[d];
                }
                if (pass == 0) {
                    cnt_real += real;
                    cnt_pad += inpad;
                } else if (real) {
                    gx[lin(xd, c->nsp + 2, idx[0], idx[1], pos)] += share;
                }
            } while (tu_next_index(k, c->win, c->nsp));
        }
    }
}

/* ------------------------------------------------------------------ layouts */

/* kind 0: packed NCHW; 1: packed channels-last; 2: NCHW with gaps; 3: permuted with gaps */
static void make_lay(lay *L, int nb, const int *dim, int kind)
{
    int order[MAXNB]; /* outermost first */
    L->nb = nb;
    memcpy(L->dim, dim, sizeof(int) * nb);
    for (int i = 0; i < nb; i++) order[i] = i;
    if (kind == 1) {
        order[0] = 0;
        for (int i = 2; i < nb; i++) order[i - 1] = i;
        order[nb - 1] = 1;
    } else if (kind == 3) {
        for (int i = nb - 1; i > 0; i--) {
            int j = tu_int(0, i), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    }
    int s = kind >= 2 ? tu_int(1, 2) : 1;
    for (int i = nb - 1; i >= 0; i--) {
        L->str[order[i]] = s;
        s *= dim[order[i]] > 0 ? dim[order[i]] : 1;
        if (kind >= 2) s += tu_int(0, 3);
    }
    size_t last = 0;
    bool empty = false;
    for (int i = 0; i < nb; i++) {
        if (dim[i] == 0) empty = true;
        else last += (size_t)(dim[i] - 1) * L->str[i];
    }
    L->span = empty ? 1 : last + 1;
}

static size_t lay_off(const lay *L, const int *idx)
{
    size_t o = 0;
    for (int i = 0; i < L->nb; i++) o += (size_t)idx[i] * L->str[i];
    return o;
}

static pdnnTensorDescriptor_t lay_desc(const lay *L, pdnnDataType_t t)
{
    return tu_tensor(t, L->nb, L->dim, L->str);
}

/* Logical <-> memory copies. */
static void to_mem(const lay *L, const double *v, void *m, pdnnDataType_t t)
{
    int idx[MAXNB] = {0};
    size_t n = prod(L->dim, L->nb);
    for (size_t i = 0; i < n; i++, tu_next_index(idx, L->dim, L->nb))
        tu_put(m, t, lay_off(L, idx), v[i]);
}

static void from_mem(const lay *L, const void *m, double *v, pdnnDataType_t t)
{
    int idx[MAXNB] = {0};
    size_t n = prod(L->dim, L->nb);
    for (size_t i = 0; i < n; i++, tu_next_index(idx, L->dim, L->nb))
        v[i] = tu_get(m, t, lay_off(L, idx));
}

/* True when the elements no index addresses are bitwise unchanged. */
static bool gaps_untouched(const lay *L, const void *now, const void *before, pdnnDataType_t t)
{
    size_t es = tu_esize(t);
    char *mask = calloc(L->span, 1);
    int idx[MAXNB] = {0};
    size_t n = prod(L->dim, L->nb);
    for (size_t i = 0; i < n; i++, tu_next_index(idx, L->dim, L->nb)) mask[lay_off(L, idx)] = 1;
    bool ok = true;
    for (size_t i = 0; i < L->span && ok; i++)
        if (!mask[i]) ok = !memcmp((const char *)now + i * es, (const char *)before + i * es, es);
    free(mask);
    return ok;
}

/* ------------------------------------------------------------------ library calls */

static pdnnPoolingDescriptor_t make_pool(const pcfg *c)
{
    pdnnPoolingDescriptor_t p;
    TU_OK(pdnnCreatePoolingDescriptor(&p));
    TU_OK(pdnnSetPoolingNdDescriptorEx(p, c->mode, c->nan, c->nsp, c->win, c->pb, c->pe,
                                       c->st, c->dil, c->ceil));
    return p;
}

static void cfg_str(const pcfg *c, char *b, size_t n)
{
    size_t o = (size_t)snprintf(b, n, "%s mode%d nan%d ceil%d n%d c%d", 
                                c->t == PDNN_DATA_DOUBLE ? "f64" : "f32", (int)c->mode,
                                (int)c->nan, c->ceil, c->n, c->c);
    for (int d = 0; d < c->nsp && o < n; d++)
        o += (size_t)snprintf(b + o, n - o, " [in%d k%d s%d p%d/%d d%d]", c->in[d], c->win[d],
                              c->st[d], c->pb[d], c->pe[d], c->dil[d]);
}

static bool is_max_mode(pdnnPoolingMode_t m)
{
    return m == PDNN_POOLING_MAX || m == PDNN_POOLING_MAX_DETERMINISTIC;
}

/* One configuration, forward and backward, with given layouts and data kind.
 * exact: small-integer data (max results exact); nan_in: some x elements are NaN.
 * Returns the logical forward output (caller frees) for cross-layout checks, and the
 * logical backward output in *bwd_out when bwd_out is not NULL. */
static double *check_cfg(const pcfg *c, const int kinds[4], bool exact, bool nan_in,
                         double alpha, double beta, double **bwd_out)
{
    char desc[400];
    cfg_str(c, desc, sizeof desc);
    pdnnDataType_t t = c->t;
    int xd[MAXNB], yd[MAXNB], nb = c->nsp + 2;
    dims_of(c, false, xd);
    dims_of(c, true, yd);
    size_t nx = prod(xd, nb), ny = prod(yd, nb);
    double *xl = calloc(nx + 1, sizeof(double)), *yl = calloc(ny + 1, sizeof(double));
    double *y0 = calloc(ny + 1, sizeof(double)), *dyl = calloc(ny + 1, sizeof(double));
    double *dx0 = calloc(nx + 1, sizeof(double)), *gx = calloc(nx + 1, sizeof(double));
    double *ref = calloc((nx > ny ? nx : ny) + 1, sizeof(double));
    double *out = calloc((nx > ny ? nx : ny) + 1, sizeof(double));
    for (size_t i = 0; i < nx; i++) {
        xl[i] = exact ? tu_int(-4, 4) : tu_uniform(-2, 2);
        if (nan_in && tu_int(0, 9) == 0) xl[i] = NAN;
        dx0[i] = tu_int(-3, 3);
    }
    for (size_t i = 0; i < ny; i++) {
        y0[i] = tu_int(-3, 3);
        dyl[i] = exact ? tu_int(-5, 5) : tu_uniform(-1, 1);
    }
    /* the oracle sees the values as stored in t */
    if (t == PDNN_DATA_FLOAT) {
        for (size_t i = 0; i < nx; i++) xl[i] = (float)xl[i];
        for (size_t i = 0; i < ny; i++) dyl[i] = (float)dyl[i];
    }
    /* layouts after the data, so that the data does not depend on them */
    lay Lx, Ly, Ldy, Ldx;
    make_lay(&Lx, nb, xd, kinds[0]);
    make_lay(&Ly, nb, yd, kinds[1]);
    make_lay(&Ldy, nb, yd, kinds[2]);
    make_lay(&Ldx, nb, xd, kinds[3]);
    pdnnTensorDescriptor_t xdsc = lay_desc(&Lx, t), ydsc = lay_desc(&Ly, t);
    pdnnTensorDescriptor_t ddy = lay_desc(&Ldy, t), ddx = lay_desc(&Ldx, t);
    pdnnPoolingDescriptor_t pool = make_pool(c);

    /* the library agrees on the output size */
    int got[MAXNB];
    TU_OK(pdnnGetPoolingNdForwardOutputDim(pool, xdsc, nb, got));
    for (int i = 0; i < nb; i++)
        TU_CHECK(got[i] == yd[i], "%s: output dim %d is %d, oracle %d", desc, i, got[i], yd[i]);

    tu_scalar sa = tu_sc(t, alpha), sb = tu_sc(t, beta);

    /* ---- forward */
    void *x = tu_alloc(t, Lx.span), *y[2], *ybefore = tu_alloc(t, Ly.span);
    tu_poison(x, t, Lx.span); /* gaps NaN: reading one would show */
    to_mem(&Lx, xl, x, t);
    tu_poison(ybefore, t, Ly.span);
    if (beta != 0) to_mem(&Ly, y0, ybefore, t);
    size_t ybytes = Ly.span * tu_esize(t);
    for (int k = 0; k < 2; k++) {
        y[k] = tu_alloc(t, Ly.span);
        memcpy(y[k], ybefore, ybytes);
        TU_OK(pdnnSetNumThreads(H, k + 1));
        TU_OK(pdnnPoolingForward(H, pool, &sa, xdsc, x, &sb, ydsc, y[k]));
    }
    TU_CHECK(tu_bitwise_equal(y[0], y[1], ybytes), "%s: forward 1 vs 2 threads differ", desc);
    TU_CHECK(gaps_untouched(&Ly, y[0], ybefore, t), "%s: forward wrote outside y", desc);
    oracle_fwd(c, xl, yl);
    for (size_t i = 0; i < ny; i++) ref[i] = alpha * yl[i] + (beta != 0 ? beta * y0[i] : 0);
    from_mem(&Ly, y[0], out, t);
    double *fwd_out = calloc(ny + 1, sizeof(double));
    memcpy(fwd_out, out, ny * sizeof(double));
    double tol = t == PDNN_DATA_DOUBLE ? 1e-13 : 2e-6;
    if (exact && is_max_mode(c->mode)) {
        size_t mism = 0;
        for (size_t i = 0; i < ny; i++) {
            double r = t == PDNN_DATA_DOUBLE ? ref[i] : (double)(float)ref[i];
            if (!(out[i] == r || (isnan(out[i]) && isnan(r)))) mism++;
        }
        TU_CHECK(mism == 0, "%s: forward max has %zu inexact elements", desc, mism);
    } else {
        double e = tu_rel_err(ref, out, PDNN_DATA_DOUBLE, ny);
        TU_CHECK(e <= tol, "%s: forward rel err %g", desc, e);
    }

    /* ---- backward */
    void *dy = tu_alloc(t, Ldy.span), *dx[2], *dxbefore = tu_alloc(t, Ldx.span);
    tu_poison(dy, t, Ldy.span);
    to_mem(&Ldy, dyl, dy, t);
    tu_poison(dxbefore, t, Ldx.span);
    if (beta != 0) to_mem(&Ldx, dx0, dxbefore, t);
    size_t dxbytes = Ldx.span * tu_esize(t);
    for (int k = 0; k < 2; k++) {
        dx[k] = tu_alloc(t, Ldx.span);
        memcpy(dx[k], dxbefore, dxbytes);
        TU_OK(pdnnSetNumThreads(H, k + 1));
        TU_OK(pdnnPoolingBackward(H, pool, &sa, ydsc, y[0], ddy, dy, xdsc, x, &sb, ddx, dx[k]));
    }
    TU_CHECK(tu_bitwise_equal(dx[0], dx[1], dxbytes), "%s: backward 1 vs 2 threads differ",
             desc);
    TU_CHECK(gaps_untouched(&Ldx, dx[0], dxbefore, t), "%s: backward wrote outside dx", desc);
    oracle_bwd(c, xl, dyl, gx);
    for (size_t i = 0; i < nx; i++) ref[i] = alpha * gx[i] + (beta != 0 ? beta * dx0[i] : 0);
    from_mem(&Ldx, dx[0], out, t);
    if (exact && is_max_mode(c->mode)) {
        size_t mism = 0;
        for (size_t i = 0; i < nx; i++) {
            double r = t == PDNN_DATA_DOUBLE ? ref[i] : (double)(float)ref[i];
            if (out[i] != r) mism++;
        }
        TU_CHECK(mism == 0, "%s: backward max has %zu inexact elements", desc, mism);
    } else {
        double e = tu_rel_err(ref, out, PDNN_DATA_DOUBLE, nx);
        TU_CHECK(e <= tol, "%s: backward rel err %g", desc, e);
    }

    if (bwd_out) {
        *bwd_out = calloc(nx + 1, sizeof(double));
        memcpy(*bwd_out, out, nx * sizeof(double));
    }
    for (int k = 0; k < 2; k++) free(y[k]), free(dx[k]);
    free(x), free(ybefore), free(dy), free(dxbefore);
    free(xl), free(yl), free(y0), free(dyl), free(dx0), free(gx), free(ref), free(out);
    pdnnDestroyTensorDescriptor(xdsc);
    pdnnDestroyTensorDescriptor(ydsc);
    pdnnDestroyTensorDescriptor(ddy);
    pdnnDestroyTensorDescriptor(ddx);
    pdnnDestroyPoolingDescriptor(pool);
    return fwd_out;
}

/* ------------------------------------------------------------------ random problems */

static void rand_cfg(pcfg *c, pdnnDataType_t t)
{
    memset(c, 0, sizeof *c);
    c->t = t;
    int r = tu_int(0, 9);
    c->nsp = r < 2 ? 1 : r < 8 ? 2 : 3;
    c->n = tu_int(1, 3);
    c->c = tu_int(1, 4);
    c->mode = (pdnnPoolingMode_t)tu_int(0, 3);
    c->nan = (pdnnNanPropagation_t)tu_int(0, 1);
    c->ceil = tu_int(0, 2) == 0;
    bool sym = tu_int(0, 1);
    for (int d = 0; d < MAXSP; d++) { /* all three, so that callers may change nsp */
        c->win[d] = tu_int(1, c->nsp == 3 ? 3 : 4);
        c->dil[d] = tu_int(0, 4) == 0 ? tu_int(2, 3) : 1;
        c->st[d] = tu_int(1, 4);
        int e = eff(c, d), pmax = e - 1 < 2 ? e - 1 : 2;
        c->pb[d] = tu_int(0, pmax);
        c->pe[d] = sym ? c->pb[d] : tu_int(0, pmax);
        int lo = e - c->pb[d] - c->pe[d];
        if (lo < 1) lo = 1;
        c->in[d] = tu_int(lo, lo + (c->nsp == 3 ? 3 : 7));
    }
}

static void test_random(void)
{
    for (int it = 0; it < 400; it++) {
        pcfg c;
        rand_cfg(&c, it % 3 == 2 ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT);
        int kinds[4];
        for (int i = 0; i < 4; i++) kinds[i] = tu_int(0, 5) < 3 ? 0 : tu_int(1, 3);
        static const double alphas[] = {1, 1, 2, -0.5}, betas[] = {0, 0, 1, -3};
        double alpha = alphas[tu_int(0, 3)], beta = betas[tu_int(0, 3)];
        bool exact = tu_int(0, 1), nan_in = tu_int(0, 4) == 0;
        free(check_cfg(&c, kinds, exact, nan_in, alpha, beta, NULL));
    }
}

/* The optimized paths (packed NCHW FLOAT 2-d, contiguous channels) and the general
 * path give bitwise equal results, forward and backward. */
static void test_fast_vs_general(void)
{
    for (int it = 0; it < 90; it++) {
        pcfg c;
        rand_cfg(&c, PDNN_DATA_FLOAT);
        if (it % 3 != 2) { /* 2-d undilated for the NCHW path; else any for NHWC */
            c.nsp = 2;
            for (int d = 0; d < 2; d++) {
                c.dil[d] = 1;
                if (c.pb[d] >= c.win[d]) c.pb[d] = c.win[d] - 1;
                if (c.pe[d] >= c.win[d]) c.pe[d] = c.win[d] - 1;
                if (c.in[d] < c.win[d]) c.in[d] = c.win[d];
                if (it % 2) c.st[d] = c.win[d] + tu_int(0, 1); /* non-overlapping */
            }
        }
        if (it % 5 == 0) { /* 2x2 stride 2 */
            c.nsp = 2;
            c.win[0] = c.win[1] = c.st[0] = c.st[1] = 2, c.dil[0] = c.dil[1] = 1;
            c.pb[0] = c.pb[1] = c.pe[0] = c.pe[1] = 0;
            c.in[0] = tu_int(2, 9), c.in[1] = tu_int(2, 9);
        }
        c.c = tu_int(2, 5);
        uint64_t seed = 1000 + (uint64_t)it;
        static const int layouts[3][4] = {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}};
        double *f[3], *b[3];
        double beta = it % 2 ? 0.0 : 2.0;
        for (int l = 0; l < 3; l++) {
            tu_seed(seed);
            f[l] = check_cfg(&c, layouts[l], false, it % 3 == 0, 1.5, beta, &b[l]);
        }
        int xd[MAXNB], yd[MAXNB];
        dims_of(&c, false, xd);
        dims_of(&c, true, yd);
        size_t ny = prod(yd, c.nsp + 2), nx = prod(xd, c.nsp + 2);
        char desc[400];
        cfg_str(&c, desc, sizeof desc);
        for (int l = 1; l < 3; l++) {
            TU_CHECK(!memcmp(f[0], f[l], ny * sizeof(double)), "%s: forward layout %d differs",
                     desc, l);
            TU_CHECK(!memcmp(b[0], b[l], nx * sizeof(double)), "%s: backward layout %d differs",
                     desc, l);
        }
        for (int l = 0; l < 3; l++) free(f[l]), free(b[l]);
    }
}

/* The 2x2 stride-2 path (packed NCHW FLOAT, no padding, floor mode: odd sizes leave a
 * last row / column that no window holds) against the oracle and bitwise against the
 * general path (the same problem with gapped strides), every mode, NaN inputs, the
 * plain alpha 1 / beta 0 loops and blending; then sizes large enough for 2 threads. */
static void test_2x2_stride2(void)
{
    static const double alphas[] = {1, 1, 2, -0.5, 1}, betas[] = {0, 0, 0, 1, -3};
    for (int it = 0; it < 70; it++) {
        pcfg c;
        memset(&c, 0, sizeof c);
        c.t = PDNN_DATA_FLOAT;
        c.nsp = 2;
        c.mode = (pdnnPoolingMode_t)(it % 4);
        c.nan = (pdnnNanPropagation_t)(it / 4 % 2);
        bool big = it >= 62;
        c.n = big ? 4 : tu_int(1, 3);
        c.c = big ? 8 : tu_int(1, 5);
        for (int d = 0; d < 2; d++) {
            c.win[d] = c.st[d] = 2, c.dil[d] = 1;
            c.in[d] = big ? 26 + tu_int(0, 3) : tu_int(2, 11);
        }
        int ab = it % 5;
        bool exact = it % 3 != 0, nan_in = it % 6 == 1;
        uint64_t seed = 5000 + (uint64_t)it;
        static const int layouts[2][4] = {{0, 0, 0, 0}, {2, 2, 2, 2}};
        double *f[2], *b[2];
        for (int l = 0; l < 2; l++) {
            tu_seed(seed);
            f[l] = check_cfg(&c, layouts[l], exact, nan_in, alphas[ab], betas[ab], &b[l]);
        }
        int xd[MAXNB], yd[MAXNB];
        dims_of(&c, false, xd);
        dims_of(&c, true, yd);
        char desc[400];
        cfg_str(&c, desc, sizeof desc);
        TU_CHECK(!memcmp(f[0], f[1], prod(yd, 4) * sizeof(double)),
                 "%s: 2x2 forward differs from the general path", desc);
        TU_CHECK(!memcmp(b[0], b[1], prod(xd, 4) * sizeof(double)),
                 "%s: 2x2 backward differs from the general path", desc);
        for (int l = 0; l < 2; l++) free(f[l]), free(b[l]);
    }

    /* by hand, one 2x2 window (plain loops): NaN rules, the first of equal values,
     * -0 in dy reaching dx as +0 (0.0 + dy, as the reference sums) */
    float one = 1, zero = 0, y, dy, dx[4];
    pdnnTensorDescriptor_t xt = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 1, 2, 2);
    pdnnTensorDescriptor_t yt = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 1, 1, 1);
    pdnnPoolingDescriptor_t p;
    TU_OK(pdnnCreatePoolingDescriptor(&p));
    const float xs[3][4] = {{NAN, 5, NAN, 7}, {3, 2, -1, 3}, {-0.0f, 0.0f, -1, -2}};
    for (int prop = 0; prop < 2; prop++) {
        TU_OK(pdnnSetPooling2dDescriptor(p, PDNN_POOLING_MAX, (pdnnNanPropagation_t)prop, 2, 2,
                                         0, 0, 2, 2));
        for (int k = 0; k < 3; k++) {
            TU_OK(pdnnPoolingForward(H, p, &one, xt, xs[k], &zero, yt, &y));
            dy = k == 2 ? -0.0f : 4;
            tu_poison(dx, PDNN_DATA_FLOAT, 4);
            TU_OK(pdnnPoolingBackward(H, p, &one, yt, &y, yt, &dy, xt, xs[k], &zero, xt, dx));
            int sel = k == 0 ? (prop ? 0 : 3) : 0; /* the first NaN, or the max 7 / first 3 */
            bool ok = k == 0 && prop ? isnan(y)
                                     : y == xs[k][sel] && !signbit(y) == !signbit(xs[k][sel]);
            for (int i = 0; i < 4; i++)
                ok = ok && dx[i] == (i == sel ? dy : 0.0f) && !signbit(dx[i]);
            TU_CHECK(ok, "2x2 by hand, case %d nan %d: y %g dx %g %g %g %g", k, prop, y, dx[0],
                     dx[1], dx[2], dx[3]);
        }
    }
    pdnnDestroyTensorDescriptor(xt), pdnnDestroyTensorDescriptor(yt);
    pdnnDestroyPoolingDescriptor(p);
}

/* Named edge cases through the random checker (every layout kind). */
static void test_edges(void)
{
    pcfg base;
    memset(&base, 0, sizeof base);
    base.t = PDNN_DATA_FLOAT;
    base.nsp = 2, base.n = 2, base.c = 3;
    for (int m = 0; m < 4; m++)
        for (int kind = 0; kind < 4; kind++) {
            int kinds[4] = {kind, kind, kind, kind};
            pcfg c = base;
            c.mode = (pdnnPoolingMode_t)m;
            /* padding on both sides, 3x3 stride 1 (overlapping) */
            c.in[0] = 5, c.in[1] = 6, c.win[0] = c.win[1] = 3, c.st[0] = c.st[1] = 1;
            c.pb[0] = c.pb[1] = c.pe[0] = c.pe[1] = 1, c.dil[0] = c.dil[1] = 1;
            free(check_cfg(&c, kinds, true, false, 1, 0, NULL));
            /* ceil mode with a partial last window, asymmetric padding */
            c.in[0] = 7, c.in[1] = 8, c.st[0] = c.st[1] = 2, c.pb[0] = 0, c.pe[0] = 2;
            c.ceil = 1;
            free(check_cfg(&c, kinds, true, false, 1, 1, NULL));
            /* stride larger than the window */
            c.ceil = 0, c.win[0] = c.win[1] = 2, c.st[0] = 3, c.st[1] = 4;
            c.pb[0] = c.pb[1] = c.pe[0] = c.pe[1] = 0;
            free(check_cfg(&c, kinds, true, false, 2, 0, NULL));
            /* dilation */
            c.win[0] = c.win[1] = 2, c.st[0] = c.st[1] = 1, c.dil[0] = 2, c.dil[1] = 3;
            free(check_cfg(&c, kinds, false, false, 1, 0, NULL));
            /* 1x1 output (global pooling), batch 1 */
            c.n = 1, c.dil[0] = c.dil[1] = 1, c.win[0] = c.in[0], c.win[1] = c.in[1];
            free(check_cfg(&c, kinds, true, false, 1, 0, NULL));
            /* 1x1 input, 1x1 window */
            c.in[0] = c.in[1] = c.win[0] = c.win[1] = 1;
            free(check_cfg(&c, kinds, true, false, 1, 0.5, NULL));
            /* 3-d and 1-d */
            pcfg d3 = c;
            d3.nsp = 3, d3.n = 2, d3.c = 2;
            for (int i = 0; i < 3; i++)
                d3.in[i] = 4 + i, d3.win[i] = 2, d3.st[i] = 2, d3.pb[i] = d3.pe[i] = i == 1,
                d3.dil[i] = 1;
            free(check_cfg(&d3, kinds, true, false, 1, 0, NULL));
            pcfg d1 = d3;
            d1.nsp = 1, d1.in[0] = 9, d1.win[0] = 3, d1.st[0] = 2, d1.pb[0] = 1, d1.pe[0] = 0;
            free(check_cfg(&d1, kinds, true, false, 1, 0, NULL));
            /* windows wider than a 256-column chunk, padding on both sides */
            pcfg wide = base;
            wide.mode = (pdnnPoolingMode_t)m, wide.n = 1, wide.c = 2;
            wide.in[0] = 3, wide.in[1] = 600, wide.win[0] = 2, wide.win[1] = 300;
            wide.st[0] = 1, wide.st[1] = 7, wide.pb[0] = 1, wide.pb[1] = 100;
            wide.pe[0] = 0, wide.pe[1] = 150, wide.dil[0] = wide.dil[1] = 1;
            free(check_cfg(&wide, kinds, true, false, 1, 0, NULL));
        }
}

/* Windows of about 2^31 positions lying almost wholly in the padding: a 1 x W input,
 * window 1 x K, padding K - 1, stride K, so each of the W outputs sees one real element
 * (checked by hand: max and EXCLUDE average pass x and dy through, INCLUDE divides by
 * K). A kernel that walked every tap of the window would take minutes per call here
 * (the ctest TIMEOUT catches that); also 2-d (K x K windows on a 2 x 2 input) and DOUBLE
 * (the reference). */
static void test_huge_window(void)
{
    const int K = 2000000000;
    const double dk = (double)K;
    float one = 1, zero = 0;
    double d1 = 1, d0 = 0;
    for (int twod = 0; twod < 2; twod++)
        for (int m = 0; m < 3; m++)
            for (int dbl = 0; dbl < 2; dbl++) {
                pdnnDataType_t t = dbl ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
                const int hh = twod ? 2 : 1, n = 2 * hh;
                pdnnPoolingDescriptor_t p;
                TU_OK(pdnnCreatePoolingDescriptor(&p));
                TU_OK(pdnnSetPooling2dDescriptor(p, (pdnnPoolingMode_t)m, PDNN_NOT_PROPAGATE_NAN,
                                                 twod ? K : 1, K, twod ? K - 1 : 0, K - 1,
                                                 twod ? K : 1, K));
                pdnnTensorDescriptor_t xt = tu_tensor4d(t, PDNN_TENSOR_NCHW, 1, 1, hh, 2);
                int on, oc, oh, ow;
                TU_OK(pdnnGetPooling2dForwardOutputDim(p, xt, &on, &oc, &oh, &ow));
                TU_CHECK(oh == hh && ow == 2, "huge window: output %dx%d", oh, ow);
                double xv[4] = {3, -5, 7, 2}, dyv[4] = {1, 2, -4, 8}, y[4], dx[4];
                float xf[4], dyf[4], yf[4], dxf[4];
                for (int i = 0; i < 4; i++) xf[i] = (float)xv[i], dyf[i] = (float)dyv[i];
                const void *xp = dbl ? (void *)xv : (void *)xf, *dyp = dbl ? (void *)dyv : (void *)dyf;
                void *yp = dbl ? (void *)y : (void *)yf, *dxp = dbl ? (void *)dx : (void *)dxf;
                const void *a = dbl ? (void *)&d1 : (void *)&one, *b = dbl ? (void *)&d0 : (void *)&zero;
                tu_poison(yp, t, 4), tu_poison(dxp, t, 4);
                TU_OK(pdnnPoolingForward(H, p, a, xt, xp, b, xt, yp));
                TU_OK(pdnnPoolingBackward(H, p, a, xt, yp, xt, dyp, xt, xp, b, xt, dxp));
                /* INCLUDE_PADDING counts the whole window: K (1-d) or K * K (2-d) */
                const double div = m == PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING
                                       ? (twod ? dk * dk : dk) : 1.0;
                int bad = 0;
                for (int i = 0; i < n; i++) {
                    double yv = dbl ? y[i] : yf[i], gv = dbl ? dx[i] : dxf[i];
                    double ey = xv[i] / div, eg = dyv[i] / div;
                    if (!dbl) ey = (float)ey, eg = (float)eg;
                    bad += yv != ey || gv != eg;
                }
                TU_CHECK(bad == 0, "huge window %s mode %d %s: %d wrong values",
                         twod ? "2-d" : "1-d", m, dbl ? "double" : "float", bad);
                pdnnDestroyTensorDescriptor(xt);
                pdnnDestroyPoolingDescriptor(p);
            }
}

/* Problems large enough to run on several threads (small ones run on one). */
static void test_threaded(void)
{
    for (int it = 0; it < 8; it++) {
        pcfg c;
        memset(&c, 0, sizeof c);
        c.t = it % 4 == 3 ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        c.mode = (pdnnPoolingMode_t)(it % 4);
        c.nan = (pdnnNanPropagation_t)(it % 2);
        c.n = 2, c.c = 8, c.nsp = it < 6 ? 2 : 3, c.ceil = it % 3 == 0;
        for (int d = 0; d < c.nsp; d++) {
            c.in[d] = c.nsp == 2 ? 40 + d : 16;
            c.win[d] = it % 2 ? 2 : 3, c.st[d] = it % 2 ? 2 : 1, c.dil[d] = 1;
            c.pb[d] = c.pe[d] = it % 2 ? 0 : 1;
        }
        int kinds[4];
        for (int i = 0; i < 4; i++) kinds[i] = it % 3 == 1 ? tu_int(1, 3) : 0;
        free(check_cfg(&c, kinds, it % 2 == 0, it == 5, 1, it % 4 == 1 ? 0.5 : 0, NULL));
    }
}

/* Zero-sized dims: success, nothing written. */
static void test_zero_sized(void)
{
    pdnnPoolingDescriptor_t p;
    TU_OK(pdnnCreatePoolingDescriptor(&p));
    TU_OK(pdnnSetPooling2dDescriptor(p, PDNN_POOLING_MAX, PDNN_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2));
    int cases[3][4] = {{0, 3, 4, 4}, {2, 0, 4, 4}, {2, 3, 0, 4}};
    for (int k = 0; k < 3; k++) {
        pdnnTensorDescriptor_t xd = tu_tensor(PDNN_DATA_FLOAT, 4, cases[k], NULL);
        int od[4];
        TU_OK(pdnnGetPoolingNdForwardOutputDim(p, xd, 4, od));
        TU_CHECK(od[0] == cases[k][0] && od[1] == cases[k][1] && od[2] == cases[k][2] / 2 &&
                     od[3] == 2, "zero-sized output dims %d %d %d %d", od[0], od[1], od[2],
                 od[3]);
        pdnnTensorDescriptor_t yd = tu_tensor(PDNN_DATA_FLOAT, 4, od, NULL);
        float sentinel = 7.0f, one = 1, zero = 0;
        TU_OK(pdnnPoolingForward(H, p, &one, xd, NULL, &zero, yd, NULL));
        TU_OK(pdnnPoolingForward(H, p, &one, xd, &sentinel, &zero, yd, &sentinel));
        TU_OK(pdnnPoolingBackward(H, p, &one, yd, NULL, yd, NULL, xd, NULL, &zero, xd, NULL));
        TU_CHECK(sentinel == 7.0f, "zero-sized call wrote");
        pdnnDestroyTensorDescriptor(xd);
        pdnnDestroyTensorDescriptor(yd);
    }
    pdnnDestroyPoolingDescriptor(p);
}

/* ------------------------------------------------------------------ finite differences */

static double loss(pdnnPoolingDescriptor_t p, pdnnTensorDescriptor_t xd, const double *x,
                   pdnnTensorDescriptor_t yd, double *y, const double *r, size_t ny)
{
    double one = 1, zero = 0, l = 0;
    TU_OK(pdnnPoolingForward(H, p, &one, xd, x, &zero, yd, y));
    for (size_t i = 0; i < ny; i++) l += r[i] * y[i];
    return l;
}

static void test_finite_differences(void)
{
    for (int it = 0; it < 60; it++) {
        pcfg c;
        rand_cfg(&c, PDNN_DATA_DOUBLE);
        c.n = tu_int(1, 2), c.c = tu_int(1, 2);
        c.nan = PDNN_PROPAGATE_NAN;
        int xd[MAXNB], yd[MAXNB], nb = c.nsp + 2;
        dims_of(&c, false, xd);
        dims_of(&c, true, yd);
        size_t nx = prod(xd, nb), ny = prod(yd, nb);
        double *x = malloc(nx * sizeof *x), *y = malloc(ny * sizeof *y);
        double *r = malloc(ny * sizeof *r), *dx = malloc(nx * sizeof *dx);
        /* distinct values, gaps >= 0.009: no ties, no kink within +-h */
        for (size_t i = 0; i < nx; i++) x[i] = 0.01 * (double)i + tu_uniform(0, 0.001);
        for (size_t i = nx - 1; i > 0; i--) {
            size_t j = (size_t)tu_int(0, (int)i);
            double t = x[i];
            x[i] = x[j], x[j] = t;
        }
        for (size_t i = 0; i < ny; i++) r[i] = tu_uniform(-1, 1);
        pdnnTensorDescriptor_t xt = tu_tensor(PDNN_DATA_DOUBLE, nb, xd, NULL);
        pdnnTensorDescriptor_t yt = tu_tensor(PDNN_DATA_DOUBLE, nb, yd, NULL);
        pdnnPoolingDescriptor_t p = make_pool(&c);
        double l0 = loss(p, xt, x, yt, y, r, ny);
        if (!isfinite(l0)) { /* a dilated window of padding only: no derivative */
            free(x), free(y), free(r), free(dx);
            pdnnDestroyTensorDescriptor(xt), pdnnDestroyTensorDescriptor(yt);
            pdnnDestroyPoolingDescriptor(p);
            continue;
        }
        double one = 1, zero = 0, h = 1e-5, worst = 0;
        TU_OK(pdnnPoolingBackward(H, p, &one, yt, y, yt, r, xt, x, &zero, xt, dx));
        for (size_t i = 0; i < nx; i++) {
            double keep = x[i];
            x[i] = keep + h;
            double lp = loss(p, xt, x, yt, y, r, ny);
            x[i] = keep - h;
            double lm = loss(p, xt, x, yt, y, r, ny);
            x[i] = keep;
            double fd = (lp - lm) / (2 * h), e = fabs(fd - dx[i]) / (1 + fabs(fd));
            if (e > worst) worst = e;
        }
        char desc[400];
        cfg_str(&c, desc, sizeof desc);
        TU_CHECK(worst < 1e-8, "%s: finite differences differ by %g", desc, worst);
        free(x), free(y), free(r), free(dx);
        pdnnDestroyTensorDescriptor(xt), pdnnDestroyTensorDescriptor(yt);
        pdnnDestroyPoolingDescriptor(p);
    }
}

/* ------------------------------------------------------------------ worked by hand */

/* Runs a 1-d FLOAT pooling (N = C = 1) through the Ex descriptor; returns out size. */
static int pool1d(pdnnPoolingMode_t m, pdnnNanPropagation_t nan, int win, int st, int pb,
                  int pe, int dil, int ceil, const float *x, int in, float *y)
{
    pdnnPoolingDescriptor_t p;
    TU_OK(pdnnCreatePoolingDescriptor(&p));
    TU_OK(pdnnSetPoolingNdDescriptorEx(p, m, nan, 1, &win, &pb, &pe, &st, &dil, ceil));
    int xd[3] = {1, 1, in}, yd[3];
    pdnnTensorDescriptor_t xt = tu_tensor(PDNN_DATA_FLOAT, 3, xd, NULL);
    TU_OK(pdnnGetPoolingNdForwardOutputDim(p, xt, 3, yd));
    pdnnTensorDescriptor_t yt = tu_tensor(PDNN_DATA_FLOAT, 3, yd, NULL);
    float one = 1, zero = 0;
    tu_poison(y, PDNN_DATA_FLOAT, (size_t)yd[2]);
    TU_OK(pdnnPoolingForward(H, p, &one, xt, x, &zero, yt, y));
    pdnnDestroyTensorDescriptor(xt), pdnnDestroyTensorDescriptor(yt);
    pdnnDestroyPoolingDescriptor(p);
    return yd[2];
}

static bool feq(const float *a, const float *b, int n)
{
    for (int i = 0; i < n; i++)
        if (!(a[i] == b[i] || (isnan(a[i]) && isnan(b[i])))) return false;
    return true;
}

static void test_by_hand(void)
{
    /* 4x4 ramp, 2x2 stride 2 */
    float x[16], y[4], dy[4] = {1, 2, 3, 4}, dx[16], one = 1, zero = 0;
    for (int i = 0; i < 16; i++) x[i] = (float)(i + 1);
    pdnnPoolingDescriptor_t p;
    TU_OK(pdnnCreatePoolingDescriptor(&p));
    pdnnTensorDescriptor_t xt = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 1, 4, 4);
    pdnnTensorDescriptor_t yt = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 1, 2, 2);
    TU_OK(pdnnSetPooling2dDescriptor(p, PDNN_POOLING_MAX, PDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2));
    TU_OK(pdnnPoolingForward(H, p, &one, xt, x, &zero, yt, y));
    float emax[4] = {6, 8, 14, 16};
    TU_CHECK(feq(y, emax, 4), "max 2x2: %g %g %g %g", y[0], y[1], y[2], y[3]);
    TU_OK(pdnnPoolingBackward(H, p, &one, yt, y, yt, dy, xt, x, &zero, xt, dx));
    float edx[16] = {0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4};
    TU_CHECK(feq(dx, edx, 16), "max 2x2 backward");
    TU_OK(pdnnSetPooling2dDescriptor(p, PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING,
                                     PDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2));
    TU_OK(pdnnPoolingForward(H, p, &one, xt, x, &zero, yt, y));
    float eavg[4] = {3.5f, 5.5f, 11.5f, 13.5f};
    TU_CHECK(feq(y, eavg, 4), "avg 2x2: %g %g %g %g", y[0], y[1], y[2], y[3]);
    TU_OK(pdnnPoolingBackward(H, p, &one, yt, y, yt, dy, xt, x, &zero, xt, dx));
    TU_CHECK(dx[0] == 0.25f && dx[5] == 0.25f && dx[2] == 0.5f && dx[15] == 1.0f,
             "avg 2x2 backward %g %g %g %g", dx[0], dx[5], dx[2], dx[15]);
    /* ties: all equal, the gradient goes to the first element of the window */
    for (int i = 0; i < 16; i++) x[i] = 5;
    TU_OK(pdnnSetPooling2dDescriptor(p, PDNN_POOLING_MAX_DETERMINISTIC, PDNN_PROPAGATE_NAN, 2,
                                     2, 0, 0, 2, 2));
    TU_OK(pdnnPoolingBackward(H, p, &one, yt, y, yt, dy, xt, x, &zero, xt, dx));
    float etie[16] = {1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4, 0, 0, 0, 0, 0};
    TU_CHECK(feq(dx, etie, 16), "ties go to the first element");
    pdnnDestroyTensorDescriptor(xt), pdnnDestroyTensorDescriptor(yt);
    pdnnDestroyPoolingDescriptor(p);

    /* 1-d, window 3, stride 2, padding 1/1, ceil mode: 3 outputs, the last window holds
     * x[3], one end-padding position and one position past the padded input */
    float a[4] = {1, 2, 3, 4}, o[8];
    int n = pool1d(PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, 0, 3, 2, 1, 1, 1, 1, a, 4, o);
    float e1[3] = {1, 3, 2};
    TU_CHECK(n == 3 && feq(o, e1, 3), "ceil include: n=%d %g %g %g", n, o[0], o[1], o[2]);
    n = pool1d(PDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, 0, 3, 2, 1, 1, 1, 1, a, 4, o);
    float e2[3] = {1.5f, 3, 4};
    TU_CHECK(n == 3 && feq(o, e2, 3), "ceil exclude: n=%d %g %g %g", n, o[0], o[1], o[2]);
    n = pool1d(PDNN_POOLING_MAX, 0, 3, 2, 1, 1, 1, 1, a, 4, o);
    float e3[3] = {2, 4, 4};
    TU_CHECK(n == 3 && feq(o, e3, 3), "ceil max: n=%d %g %g %g", n, o[0], o[1], o[2]);
    n = pool1d(PDNN_POOLING_MAX, 0, 3, 2, 1, 1, 1, 0, a, 4, o);
    TU_CHECK(n == 2 && feq(o, e3, 2), "floor max: n=%d", n);
    /* ceil mode adds a clipped window: [1..5], window 2 stride 2 -> 1.5 3.5 5 */
    float b[5] = {1, 2, 3, 4, 5};
    n = pool1d(PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, 0, 2, 2, 0, 0, 1, 1, b, 5, o);
    float e4[3] = {1.5f, 3.5f, 5};
    TU_CHECK(n == 3 && feq(o, e4, 3), "ceil clipped: n=%d %g %g %g", n, o[0], o[1], o[2]);
    /* ... but never a window starting in the end padding: in 5, window 2, stride 3,
     * padding 1/1 gives 2 outputs in ceil mode, not 3 */
    n = pool1d(PDNN_POOLING_MAX, 0, 2, 3, 1, 1, 1, 1, b, 5, o);
    float e5[2] = {1, 4};
    TU_CHECK(n == 2 && feq(o, e5, 2), "ceil drop: n=%d %g %g", n, o[0], o[1]);
    /* dilation 2: windows {0,2} {1,3} {2,4} */
    float d[5] = {1, 5, 2, 4, 3};
    n = pool1d(PDNN_POOLING_MAX, 0, 2, 1, 0, 0, 2, 0, d, 5, o);
    float e6[3] = {2, 5, 3};
    TU_CHECK(n == 3 && feq(o, e6, 3), "dilated max %g %g %g", o[0], o[1], o[2]);
    n = pool1d(PDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, 0, 2, 1, 0, 0, 2, 0, d, 5, o);
    float e7[3] = {1.5f, 4.5f, 2.5f};
    TU_CHECK(n == 3 && feq(o, e7, 3), "dilated avg %g %g %g", o[0], o[1], o[2]);
    /* a dilated window of padding only: max -inf, average 0 */
    float s1[1] = {3};
    n = pool1d(PDNN_POOLING_MAX, 0, 2, 1, 2, 1, 3, 0, s1, 1, o);
    TU_CHECK(n == 1 && o[0] == -INFINITY, "empty window max: n=%d %g", n, o[0]);
    n = pool1d(PDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, 0, 2, 1, 2, 1, 3, 0, s1, 1, o);
    TU_CHECK(n == 1 && o[0] == 0, "empty window avg: %g", o[0]);
    /* NaN: propagate or skip */
    float q[6] = {1, NAN, 3, NAN, NAN, NAN};
    n = pool1d(PDNN_POOLING_MAX, PDNN_PROPAGATE_NAN, 3, 3, 0, 0, 1, 0, q, 6, o);
    TU_CHECK(n == 2 && isnan(o[0]) && isnan(o[1]), "NaN propagate %g %g", o[0], o[1]);
    n = pool1d(PDNN_POOLING_MAX, PDNN_NOT_PROPAGATE_NAN, 3, 3, 0, 0, 1, 0, q, 6, o);
    TU_CHECK(n == 2 && o[0] == 3 && isnan(o[1]), "NaN not propagated %g %g", o[0], o[1]);
    n = pool1d(PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, 0, 3, 3, 0, 0, 1, 0, q, 6, o);
    TU_CHECK(isnan(o[0]), "NaN in an average");
}

int main(void)
{
    tu_seed(20240611);
    TU_OK(pdnnCreate(&H));
    test_by_hand();
    test_zero_sized();
    test_edges();
    test_random();
    test_threaded();
    test_fast_vs_general();
    test_2x2_stride2();
    test_finite_differences();
    test_huge_window();
    TU_OK(pdnnDestroy(H));
    return tu_finish("ops/test_pooling");
}
