/* The GEMM convolutions (cpu:gemm: forward, backward data, backward filter) against an
 * independent naive oracle written here, over random shapes and named edge cases:
 * 1-d/2-d/3-d, groups (depthwise with multiplier 2), stride above the kernel,
 * dilation, padding wider than the kernel and asymmetric, convolution and
 * cross-correlation, NCHW / NHWC / gapped strides for x and y, KCRS and KRSC filters,
 * FLOAT and DOUBLE, K-blocks and im2col chunks crossing images, zero-sized channels.
 * Small-integer data must match exactly; gaps of the inputs hold NaN (never read),
 * gaps of the output must stay unwritten, the output holds NaN when beta == 0; random
 * data runs with 1 and 2 threads must agree bitwise. The implementations are called
 * through their registry entries with exactly the workspace they declare; the last
 * part goes through the public API (pdnnConvolutionForward & co.). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "ops/conv/conv_problem.h"
#include "testutil.h"
#include "tu_layout.h"

extern const pdnn_impl pdnn_conv_fwd_cpu_gemm;
extern const pdnn_impl pdnn_conv_bwd_data_cpu_gemm;
extern const pdnn_impl pdnn_conv_bwd_filter_cpu_gemm;

#define SENTINEL 555.0

typedef struct {
    pdnnDataType_t t;
    int nsp, n, g, cg, kg;
    int in[3], kern[3], out[3], str[3], dil[3], pb[3], pe[3];
    bool flip, krsc;
    int xkind, ykind; /* TU_LAYOUT_* */
} shape;

typedef struct {
    int nb;
    int dims[5], st[5];
    int64_t span;
} layout;

static void make_layout(layout *l, int nb, int d0, int d1, const int *sp, int kind)
{
    l->nb = nb;
    l->dims[0] = d0;
    l->dims[1] = d1;
    for (int i = 2; i < nb; i++) l->dims[i] = sp[i - 2];
    tu_layout_strides(nb, l->dims, kind, l->st);
    l->span = tu_layout_span(nb, l->dims, l->st);
}

/* Offset of (a, b, spatial s[0..nsp-1]). */
static int64_t off_of(const layout *l, int64_t a, int64_t b, const int64_t *s)
{
    int64_t o = a * l->st[0] + b * l->st[1];
    for (int i = 2; i < l->nb; i++) o += s[i - 2] * l->st[i];
    return o;
}

/* Calls f for every spatial index of sizes dims[0..nsp-1] (row-major). */
static bool next_index(int nsp, const int *dims, int64_t *idx)
{
    for (int d = nsp - 1; d >= 0; d--) {
        if (++idx[d] < dims[d]) return true;
        idx[d] = 0;
    }
    return false;
}

static bool any_zero(int nsp, const int *dims)
{
    for (int d = 0; d < nsp; d++)
        if (dims[d] == 0) return true;
    return false;
}

typedef struct {
    shape s;
    layout x, y, w;
    pdnn_conv_problem p;
} conv_setup;

static void setup(conv_setup *cs, const shape *s, pdnn_conv_dir dir)
{
    cs->s = *s;
    make_layout(&cs->x, s->nsp + 2, s->n, s->g * s->cg, s->in, s->xkind);
    make_layout(&cs->y, s->nsp + 2, s->n, s->g * s->kg, s->out, s->ykind);
    make_layout(&cs->w, s->nsp + 2, s->g * s->kg, s->cg, s->kern,
                s->krsc ? TU_LAYOUT_CHANNELS_LAST : TU_LAYOUT_PACKED);
    pdnn_conv_problem *p = &cs->p;
    memset(p, 0, sizeof *p);
    p->dir = dir;
    p->dtype = p->compute = s->t;
    p->nsp = s->nsp;
    p->n = s->n;
    p->g = s->g;
    p->c = (int64_t)s->g * s->cg;
    p->k = (int64_t)s->g * s->kg;
    for (int d = 0; d < s->nsp; d++) {
        p->in[d] = s->in[d];
        p->kern[d] = s->kern[d];
        p->out[d] = s->out[d];
        p->stride[d] = s->str[d];
        p->dil[d] = s->dil[d];
        p->pad_b[d] = s->pb[d];
        p->pad_e[d] = s->pe[d];
    }
    p->flip = s->flip;
    for (int i = 0; i < s->nsp + 2; i++) {
        p->xs[i] = cs->x.st[i];
        p->ys[i] = cs->y.st[i];
        p->ws[i] = cs->w.st[i];
    }
    p->wfmt = s->krsc ? PDNN_TENSOR_NHWC : PDNN_TENSOR_NCHW;
}

/* Input position read by output o through tap r in dim d, or -1 outside. */
static int64_t in_pos(const shape *s, int d, int64_t o, int64_t r)
{
    int64_t e = s->flip ? s->kern[d] - 1 - r : r;
    int64_t i = o * s->str[d] - s->pb[d] + e * s->dil[d];
    return i >= 0 && i < s->in[d] ? i : -1;
}

/* The oracle: acc (indexed by dst offsets) = the unscaled result of the direction. */
static void oracle(const conv_setup *cs, pdnn_conv_dir dir, const void *src, const void *wei,
                   double *acc)
{
    const shape *s = &cs->s;
    const pdnnDataType_t t = s->t;
    if (any_zero(s->nsp, s->out) || any_zero(s->nsp, s->kern)) return;
    for (int n = 0; n < s->n; n++)
        for (int grp = 0; grp < s->g; grp++)
            for (int kk = 0; kk < s->kg; kk++) {
                const int k = grp * s->kg + kk;
                int64_t o[3] = {0, 0, 0};
                do {
                    const int64_t yo = off_of(&cs->y, n, k, o);
                    for (int c = 0; c < s->cg; c++) {
                        const int ci = grp * s->cg + c;
                        int64_t r[3] = {0, 0, 0};
                        do {
                            int64_t ip[3];
                            bool inside = true;
                            for (int d = 0; d < s->nsp; d++) {
                                ip[d] = in_pos(s, d, o[d], r[d]);
                                inside = inside && ip[d] >= 0;
                            }
                            if (!inside) continue;
                            const int64_t xo = off_of(&cs->x, n, ci, ip);
                            const int64_t wo = off_of(&cs->w, k, c, r);
                            if (dir == PDNN_CONV_FWD)
                                acc[yo] += tu_get(src, t, (size_t)xo) * tu_get(wei, t, (size_t)wo);
                            else if (dir == PDNN_CONV_BWD_DATA)
                                acc[xo] += tu_get(src, t, (size_t)yo) * tu_get(wei, t, (size_t)wo);
                            else
                                acc[wo] += tu_get(src, t, (size_t)xo) * tu_get(wei, t, (size_t)yo);
                        } while (next_index(s->nsp, s->kern, r));
                    }
                } while (next_index(s->nsp, s->out, o));
            }
}

/* Marks the logical elements of a layout in mask (span entries). */
static void mark(const layout *l, char *mask)
{
    int64_t numel = tu_layout_numel(l->nb, l->dims);
    for (int64_t i = 0; i < numel; i++) mask[tu_layout_offset(l->nb, l->dims, l->st, i)] = 1;
}

/* Buffer over a layout: logical elements from the generator, gaps NaN (inputs) or
 * SENTINEL (outputs). */
static void *make_buf(pdnnDataType_t t, const layout *l, bool ints, bool output, double beta)
{
    size_t span = (size_t)l->span;
    void *p = tu_alloc(t, span);
    char *mask = calloc(span ? span : 1, 1);
    mark(l, mask);
    for (size_t i = 0; i < span; i++) {
        double v;
        if (!mask[i])
            v = output ? SENTINEL : NAN;
        else if (output && beta == 0)
            v = NAN;
        else
            v = ints ? tu_int(-3, 3) : tu_uniform(-1, 1);
        tu_put(p, t, i, v);
    }
    free(mask);
    return p;
}

static const pdnn_impl *impl_of(pdnn_conv_dir dir)
{
    return dir == PDNN_CONV_FWD        ? &pdnn_conv_fwd_cpu_gemm
           : dir == PDNN_CONV_BWD_DATA ? &pdnn_conv_bwd_data_cpu_gemm
                                       : &pdnn_conv_bwd_filter_cpu_gemm;
}

static const char *dir_name(pdnn_conv_dir dir)
{
    return dir == PDNN_CONV_FWD ? "fwd" : dir == PDNN_CONV_BWD_DATA ? "bwd_data" : "bwd_filter";
}

static void describe(const conv_setup *cs, char *buf, size_t n)
{
    const shape *s = &cs->s;
    snprintf(buf, n,
             "%s nsp=%d n=%d g=%d cg=%d kg=%d in=%dx%dx%d k=%dx%dx%d out=%dx%dx%d s=%d,%d,%d "
             "d=%d,%d,%d pb=%d,%d,%d pe=%d,%d,%d flip=%d krsc=%d x%d y%d",
             s->t == PDNN_DATA_DOUBLE ? "f64" : "f32", s->nsp, s->n, s->g, s->cg, s->kg, s->in[0],
             s->in[1], s->in[2], s->kern[0], s->kern[1], s->kern[2], s->out[0], s->out[1],
             s->out[2], s->str[0], s->str[1], s->str[2], s->dil[0], s->dil[1], s->dil[2],
             s->pb[0], s->pb[1], s->pb[2], s->pe[0], s->pe[1], s->pe[2], s->flip, s->krsc,
             s->xkind, s->ykind);
}

static pdnnStatus_t run_impl(const pdnn_impl *im, const pdnn_conv_problem *p, const void *src,
                             const void *wei, void *dst, double alpha, double beta, int nt)
{
    size_t wsb = im->workspace ? im->workspace(p) : 0;
    void *ws = wsb ? malloc(wsb) : NULL;
    pdnn_conv_args a = {src, wei, dst, alpha, beta};
    pdnn_ctx ctx = {nt, ws, wsb};
    pdnnStatus_t st = im->exec(p, &a, &ctx);
    free(ws);
    return st;
}

static long ncases;

static void check_dir(const shape *s, pdnn_conv_dir dir, bool ints, double alpha, double beta)
{
    conv_setup cs;
    setup(&cs, s, dir);
    const pdnnDataType_t t = s->t;
    const layout *ls = dir == PDNN_CONV_BWD_DATA ? &cs.y : &cs.x;
    const layout *lw = dir == PDNN_CONV_BWD_FILTER ? &cs.y : &cs.w;
    const layout *ld = dir == PDNN_CONV_FWD ? &cs.y : dir == PDNN_CONV_BWD_DATA ? &cs.x : &cs.w;
    void *src = make_buf(t, ls, ints, false, 0);
    void *wei = make_buf(t, lw, ints, false, 0);
    void *dst0 = make_buf(t, ld, ints, true, beta);
    const size_t dn = (size_t)(ld->span ? ld->span : 1);
    char *mask = calloc(dn, 1);
    mark(ld, mask);
    double *ref = calloc(dn, sizeof(double));
    oracle(&cs, dir, src, wei, ref);
    for (size_t i = 0; i < dn; i++) {
        if (!mask[i]) {
            ref[i] = tu_get(dst0, t, i); /* gaps: untouched */
            continue;
        }
        double r = alpha * ref[i];
        if (beta != 0) r += beta * tu_get(dst0, t, i);
        ref[i] = r;
    }
    char desc[400];
    describe(&cs, desc, sizeof desc);
    const pdnn_impl *im = impl_of(dir);
    const char *why = NULL;
    bool ok = im->supports(&cs.p, &why);
    TU_CHECK(ok, "%s %s: not supported (%s)", dir_name(dir), desc, why ? why : "?");
    if (ok) {
        const size_t bytes = dn * tu_esize(t);
        void *d1 = malloc(bytes), *d2 = malloc(bytes);
        memcpy(d1, dst0, bytes);
        memcpy(d2, dst0, bytes);
        TU_CHECK(run_impl(im, &cs.p, src, wei, d1, alpha, beta, 1) == PDNN_STATUS_SUCCESS,
                 "%s exec failed", dir_name(dir));
        if (ints) {
            size_t bad = tu_count_mismatch(ref, d1, t, dn);
            TU_CHECK(bad == 0, "%s %s ints a=%g b=%g: %zu of %zu mismatch", dir_name(dir), desc,
                     alpha, beta, bad, dn);
        } else {
            double err = tu_rel_err(ref, d1, t, dn);
            TU_CHECK(err <= (t == PDNN_DATA_DOUBLE ? 1e-12 : 1e-5), "%s %s: rel err %.3g",
                     dir_name(dir), desc, err);
            TU_CHECK(run_impl(im, &cs.p, src, wei, d2, alpha, beta, 2) == PDNN_STATUS_SUCCESS,
                     "%s exec failed", dir_name(dir));
            TU_CHECK(tu_bitwise_equal(d1, d2, bytes), "%s %s: 1 and 2 threads differ",
                     dir_name(dir), desc);
        }
        free(d1);
        free(d2);
    }
    ncases++;
    free(mask);
    free(ref);
    free(src);
    free(wei);
    free(dst0);
}

static void finish_shape(shape *s)
{
    for (int d = 0; d < 3; d++) {
        if (d >= s->nsp) {
            s->in[d] = s->kern[d] = s->out[d] = s->str[d] = s->dil[d] = 1;
            s->pb[d] = s->pe[d] = 0;
            continue;
        }
        const int eff = (s->kern[d] - 1) * s->dil[d] + 1;
        s->out[d] = 1 + (s->in[d] + s->pb[d] + s->pe[d] - eff) / s->str[d];
    }
}

static void rand_shape(shape *s, pdnnDataType_t t)
{
    memset(s, 0, sizeof *s);
    s->t = t;
    s->nsp = tu_int(1, 3);
    s->n = tu_int(1, 3);
    s->g = tu_int(1, 3);
    s->cg = tu_int(1, 4);
    s->kg = tu_int(1, 5);
    const int maxin = s->nsp == 3 ? 5 : s->nsp == 2 ? 8 : 14;
    for (int d = 0; d < s->nsp; d++) {
        do {
            s->in[d] = tu_int(1, maxin);
            s->kern[d] = tu_int(1, s->nsp == 3 ? 2 : 3);
            s->dil[d] = tu_int(1, 2);
            s->str[d] = tu_int(1, 3);
            s->pb[d] = tu_int(0, 2);
            s->pe[d] = tu_int(0, 2);
        } while ((s->kern[d] - 1) * s->dil[d] + 1 > s->in[d] + s->pb[d] + s->pe[d]);
    }
    s->flip = tu_int(0, 1);
    s->krsc = tu_int(0, 1);
    s->xkind = tu_int(0, 2);
    s->ykind = tu_int(0, 2);
    finish_shape(s);
}

/* A 2-d shape (n, g, cg, kg, in h w, kernel r s, stride, pad, dilation). */
static shape shape2d(pdnnDataType_t t, int n, int g, int cg, int kg, int h, int w, int r,
                     int ks, int str, int pad, int dil)
{
    shape s;
    memset(&s, 0, sizeof s);
    s.t = t;
    s.nsp = 2;
    s.n = n;
    s.g = g;
    s.cg = cg;
    s.kg = kg;
    s.in[0] = h;
    s.in[1] = w;
    s.kern[0] = r;
    s.kern[1] = ks;
    for (int d = 0; d < 2; d++) s.str[d] = str, s.pb[d] = s.pe[d] = pad, s.dil[d] = dil;
    finish_shape(&s);
    return s;
}

static void check_all_dirs(const shape *s, bool ints)
{
    static const double alphas[] = {1.0, 2.0, -0.5};
    static const double betas[] = {0.0, 0.0, 1.0, -1.5, 0.5};
    for (int d = 0; d < 3; d++)
        check_dir(s, (pdnn_conv_dir)d, ints, alphas[tu_int(0, 2)], betas[tu_int(0, 4)]);
}

static void test_random(pdnnDataType_t t, int count)
{
    for (int i = 0; i < count; i++) {
        shape s;
        rand_shape(&s, t);
        check_all_dirs(&s, i % 3 != 2);
    }
}

static void test_edges(pdnnDataType_t t)
{
    shape s;
    /* batch 1, 1x1 spatial */
    s = shape2d(t, 1, 1, 3, 4, 1, 1, 1, 1, 1, 0, 1);
    check_all_dirs(&s, true);
    /* padding wider than the kernel, asymmetric */
    s = shape2d(t, 2, 1, 2, 3, 3, 4, 1, 2, 1, 3, 1);
    s.pe[1] = 0;
    finish_shape(&s);
    check_all_dirs(&s, true);
    /* stride above the kernel */
    s = shape2d(t, 2, 1, 2, 3, 9, 10, 2, 2, 3, 0, 1);
    check_all_dirs(&s, true);
    /* groups == channels, multiplier 2 (depthwise) */
    s = shape2d(t, 2, 4, 1, 2, 6, 5, 3, 3, 1, 1, 1);
    s.krsc = true;
    s.xkind = s.ykind = TU_LAYOUT_CHANNELS_LAST;
    check_all_dirs(&s, true);
    /* dilation */
    s = shape2d(t, 1, 2, 2, 2, 9, 9, 3, 3, 1, 2, 3);
    s.flip = true;
    check_all_dirs(&s, true);
    /* T = 288 > KC: several K blocks in fwd, M > MC in bwd data */
    s = shape2d(t, 2, 1, 32, 7, 6, 5, 3, 3, 1, 1, 1);
    check_all_dirs(&s, true);
    s.xkind = TU_LAYOUT_GAPPED;
    s.ykind = TU_LAYOUT_GAPPED;
    check_all_dirs(&s, false);
    /* bwd filter: N*P = 512 columns = two K blocks */
    s = shape2d(t, 2, 2, 3, 3, 16, 16, 3, 3, 1, 1, 1);
    s.ykind = TU_LAYOUT_GAPPED;
    check_dir(&s, PDNN_CONV_BWD_FILTER, true, 1.0, 0.5);
    check_dir(&s, PDNN_CONV_BWD_FILTER, false, 1.0, 0.0);
    /* im2col chunks smaller than N*P (fwd: 896 of 972 columns in FLOAT), images per
     * chunk < N (bwd data: 2 of 3 images) */
    if (t == PDNN_DATA_FLOAT) {
        s = shape2d(t, 3, 1, 128, 1, 18, 18, 3, 3, 1, 1, 1);
        s.ykind = TU_LAYOUT_GAPPED;
        check_dir(&s, PDNN_CONV_FWD, true, 1.0, 0.0);
        check_dir(&s, PDNN_CONV_BWD_DATA, false, -1.0, 1.0);
    }
    /* 3-d, channels-last, KRSC, convolution mode */
    memset(&s, 0, sizeof s);
    s.t = t;
    s.nsp = 3;
    s.n = 2;
    s.g = 2;
    s.cg = 3;
    s.kg = 2;
    for (int d = 0; d < 3; d++) {
        s.in[d] = 4 + d;
        s.kern[d] = 2 + (d == 1);
        s.str[d] = 1 + (d == 2);
        s.dil[d] = 1;
        s.pb[d] = d;
        s.pe[d] = 1;
    }
    s.flip = true;
    s.krsc = true;
    s.xkind = s.ykind = TU_LAYOUT_CHANNELS_LAST;
    finish_shape(&s);
    check_all_dirs(&s, true);
    check_all_dirs(&s, false);
    /* long 1-d rows: whole im2col panels inside x with a fixed step of 1 and of 2 */
    for (int st = 1; st <= 2; st++) {
        memset(&s, 0, sizeof s);
        s.t = t;
        s.nsp = 1;
        s.n = 2;
        s.g = 1;
        s.cg = 3;
        s.kg = 2;
        s.in[0] = 40;
        s.kern[0] = 3;
        s.str[0] = st;
        s.dil[0] = 2;
        s.pb[0] = 1;
        finish_shape(&s);
        check_all_dirs(&s, true);
    }
    /* zero output channels: fwd and bwd filter write nothing, bwd data dx = beta * dx */
    s = shape2d(t, 2, 1, 2, 0, 4, 4, 3, 3, 1, 1, 1);
    check_all_dirs(&s, true);
}

/* A tiny case by hand: x = [1 2 3 4] (1-d), w = [1 10], stride 1, no padding.
 * cross-correlation y = [21 32 43]; convolution (flipped) y = [12 23 34]. */
static void test_by_hand(void)
{
    shape s;
    memset(&s, 0, sizeof s);
    s.t = PDNN_DATA_FLOAT;
    s.nsp = 1;
    s.n = s.g = s.cg = s.kg = 1;
    s.in[0] = 4;
    s.kern[0] = 2;
    s.str[0] = s.dil[0] = 1;
    finish_shape(&s);
    const float x[4] = {1, 2, 3, 4}, w[2] = {1, 10};
    for (int flip = 0; flip < 2; flip++) {
        s.flip = flip;
        conv_setup cs;
        setup(&cs, &s, PDNN_CONV_FWD);
        float y[3] = {NAN, NAN, NAN};
        TU_CHECK(run_impl(&pdnn_conv_fwd_cpu_gemm, &cs.p, x, w, y, 1.0, 0.0, 1) ==
                     PDNN_STATUS_SUCCESS,
                 "hand fwd");
        const float *want = flip ? (const float[]){12, 23, 34} : (const float[]){21, 32, 43};
        TU_CHECK(y[0] == want[0] && y[1] == want[1] && y[2] == want[2],
                 "hand fwd flip=%d: %g %g %g", flip, y[0], y[1], y[2]);
        /* bwd data of dy = [1 1 1]: cross-correlation dx = [1 11 11 10] */
        const float dy[3] = {1, 1, 1};
        float dx[4] = {NAN, NAN, NAN, NAN};
        setup(&cs, &s, PDNN_CONV_BWD_DATA);
        run_impl(&pdnn_conv_bwd_data_cpu_gemm, &cs.p, dy, w, dx, 1.0, 0.0, 1);
        const float *wdx = flip ? (const float[]){10, 11, 11, 1} : (const float[]){1, 11, 11, 10};
        TU_CHECK(dx[0] == wdx[0] && dx[1] == wdx[1] && dx[2] == wdx[2] && dx[3] == wdx[3],
                 "hand bwd data flip=%d: %g %g %g %g", flip, dx[0], dx[1], dx[2], dx[3]);
        /* bwd filter with dy = [1 0 2]: cross-correlation dw = [1+6, 2+8] = [7 10] */
        const float dy2[3] = {1, 0, 2};
        float dw[2] = {NAN, NAN};
        setup(&cs, &s, PDNN_CONV_BWD_FILTER);
        run_impl(&pdnn_conv_bwd_filter_cpu_gemm, &cs.p, x, dy2, dw, 1.0, 0.0, 1);
        TU_CHECK(flip ? (dw[0] == 10 && dw[1] == 7) : (dw[0] == 7 && dw[1] == 10),
                 "hand bwd filter flip=%d: %g %g", flip, dw[0], dw[1]);
    }
}

static void test_refusals(void)
{
    shape s = shape2d(PDNN_DATA_FLOAT, 1, 1, 2, 2, 4, 4, 3, 3, 1, 1, 1);
    conv_setup cs;
    setup(&cs, &s, PDNN_CONV_FWD);
    const char *why = NULL;
    cs.p.compute = PDNN_DATA_DOUBLE;
    TU_CHECK(!pdnn_conv_fwd_cpu_gemm.supports(&cs.p, &why) && why && *why,
             "FLOAT data with DOUBLE accumulation must be refused with a reason");
    setup(&cs, &s, PDNN_CONV_FWD);
    cs.p.dtype = cs.p.compute = PDNN_DATA_HALF;
    why = NULL;
    TU_CHECK(!pdnn_conv_fwd_cpu_gemm.supports(&cs.p, &why) && why, "HALF refused");
    setup(&cs, &s, PDNN_CONV_FWD);
    cs.p.ws[3] = 5; /* not a packed filter */
    why = NULL;
    TU_CHECK(!pdnn_conv_fwd_cpu_gemm.supports(&cs.p, &why) && why, "gapped filter refused");
    setup(&cs, &s, PDNN_CONV_BWD_DATA);
    why = NULL;
    TU_CHECK(!pdnn_conv_fwd_cpu_gemm.supports(&cs.p, &why) && why, "wrong direction refused");
}

/* ---- through the public API: descriptors, workspace query, dispatch by algorithm */

static pdnnHandle_t handle;

static void api_check(const shape *s, pdnn_conv_dir dir, bool ints, double alpha, double beta)
{
    conv_setup cs;
    setup(&cs, s, dir);
    const pdnnDataType_t t = s->t;
    pdnnTensorDescriptor_t xd = tu_tensor(t, cs.x.nb, cs.x.dims, cs.x.st);
    pdnnTensorDescriptor_t yd = tu_tensor(t, cs.y.nb, cs.y.dims, cs.y.st);
    pdnnFilterDescriptor_t wd;
    pdnnConvolutionDescriptor_t cd;
    TU_OK(pdnnCreateFilterDescriptor(&wd));
    TU_OK(pdnnSetFilterNdDescriptor(wd, t, s->krsc ? PDNN_TENSOR_NHWC : PDNN_TENSOR_NCHW,
                                    cs.w.nb, cs.w.dims));
    TU_OK(pdnnCreateConvolutionDescriptor(&cd));
    TU_OK(pdnnSetConvolutionNdDescriptorEx(cd, s->nsp, s->pb, s->pe, s->str, s->dil,
                                           s->flip ? PDNN_CONVOLUTION : PDNN_CROSS_CORRELATION,
                                           t));
    TU_OK(pdnnSetConvolutionGroupCount(cd, s->g));

    const layout *ls = dir == PDNN_CONV_BWD_DATA ? &cs.y : &cs.x;
    const layout *lw = dir == PDNN_CONV_BWD_FILTER ? &cs.y : &cs.w;
    const layout *ld = dir == PDNN_CONV_FWD ? &cs.y : dir == PDNN_CONV_BWD_DATA ? &cs.x : &cs.w;
    void *src = make_buf(t, ls, ints, false, 0);
    void *wei = make_buf(t, lw, ints, false, 0);
    void *dst0 = make_buf(t, ld, ints, true, beta);
    const size_t dn = (size_t)(ld->span ? ld->span : 1);
    const size_t bytes = dn * tu_esize(t);
    char *mask = calloc(dn, 1);
    mark(ld, mask);
    double *ref = calloc(dn, sizeof(double));
    oracle(&cs, dir, src, wei, ref);
    for (size_t i = 0; i < dn; i++) {
        double r = tu_get(dst0, t, i);
        if (mask[i]) r = alpha * ref[i] + (beta != 0 ? beta * r : 0.0);
        ref[i] = r;
    }
    tu_scalar al = tu_sc(t, alpha), be = tu_sc(t, beta);
    size_t wsb = 0;
    if (dir == PDNN_CONV_FWD)
        TU_OK(pdnnGetConvolutionForwardWorkspaceSize(handle, xd, wd, cd, yd,
                                                     PDNN_CONVOLUTION_FWD_ALGO_GEMM, &wsb));
    else if (dir == PDNN_CONV_BWD_DATA)
        TU_OK(pdnnGetConvolutionBackwardDataWorkspaceSize(handle, wd, yd, cd, xd,
                                                          PDNN_CONVOLUTION_BWD_DATA_ALGO_1, &wsb));
    else
        TU_OK(pdnnGetConvolutionBackwardFilterWorkspaceSize(
            handle, xd, yd, cd, wd, PDNN_CONVOLUTION_BWD_FILTER_ALGO_1, &wsb));
    TU_CHECK(wsb == impl_of(dir)->workspace(&cs.p), "%s: API workspace %zu, entry %zu",
             dir_name(dir), wsb, impl_of(dir)->workspace(&cs.p));
    void *out[2];
    for (int run = 0; run < 3; run++) {
        /* run 0: 1 thread; run 1: 2 threads; run 2: workspace one byte short */
        const size_t give = run == 2 ? wsb - 1 : wsb;
        if (run == 2 && wsb == 0) break;
        void *ws = malloc(wsb ? wsb : 1);
        void *d = malloc(bytes);
        memcpy(d, dst0, bytes);
        TU_OK(pdnnSetNumThreads(handle, run == 1 ? 2 : 1));
        pdnnStatus_t st;
        if (dir == PDNN_CONV_FWD)
            st = pdnnConvolutionForward(handle, &al, xd, src, wd, wei, cd,
                                        PDNN_CONVOLUTION_FWD_ALGO_GEMM, ws, give, &be, yd, d);
        else if (dir == PDNN_CONV_BWD_DATA)
            st = pdnnConvolutionBackwardData(handle, &al, wd, wei, yd, src, cd,
                                             PDNN_CONVOLUTION_BWD_DATA_ALGO_1, ws, give, &be, xd,
                                             d);
        else
            st = pdnnConvolutionBackwardFilter(handle, &al, xd, src, yd, wei, cd,
                                               PDNN_CONVOLUTION_BWD_FILTER_ALGO_1, ws, give, &be,
                                               wd, d);
        free(ws);
        if (run == 2) {
            TU_CHECK(PDNN_STATUS_CATEGORY(st) == PDNN_STATUS_BAD_PARAM,
                     "%s: workspace one byte short -> %s", dir_name(dir), pdnnGetErrorString(st));
            TU_CHECK(tu_bitwise_equal(d, dst0, bytes), "%s: output written on failure",
                     dir_name(dir));
            free(d);
            break;
        }
        TU_CHECK(st == PDNN_STATUS_SUCCESS, "%s via API -> %s", dir_name(dir),
                 pdnnGetErrorString(st));
        out[run] = d;
    }
    char desc[400];
    describe(&cs, desc, sizeof desc);
    if (ints)
        TU_CHECK(tu_count_mismatch(ref, out[0], t, dn) == 0, "API %s %s: mismatch",
                 dir_name(dir), desc);
    else
        TU_CHECK(tu_rel_err(ref, out[0], t, dn) <= (t == PDNN_DATA_DOUBLE ? 1e-12 : 1e-5),
                 "API %s %s: rel err %.3g", dir_name(dir), desc, tu_rel_err(ref, out[0], t, dn));
    TU_CHECK(tu_bitwise_equal(out[0], out[1], bytes), "API %s %s: 1 and 2 threads differ",
             dir_name(dir), desc);
    free(out[0]);
    free(out[1]);
    free(mask);
    free(ref);
    free(src);
    free(wei);
    free(dst0);
    pdnnDestroyTensorDescriptor(xd);
    pdnnDestroyTensorDescriptor(yd);
    pdnnDestroyFilterDescriptor(wd);
    pdnnDestroyConvolutionDescriptor(cd);
}

static void test_api(void)
{
    TU_OK(pdnnCreate(&handle));
    for (int i = 0; i < 12; i++) {
        shape s;
        rand_shape(&s, i % 2 ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT);
        api_check(&s, (pdnn_conv_dir)(i % 3), i % 4 != 3, i % 3 ? 1.0 : -2.0, i % 5 ? 0.0 : 0.5);
    }
    /* the algorithm queries list GEMM with its workspace */
    shape s = shape2d(PDNN_DATA_FLOAT, 2, 1, 8, 8, 9, 9, 3, 3, 1, 1, 1);
    conv_setup cs;
    setup(&cs, &s, PDNN_CONV_FWD);
    pdnnTensorDescriptor_t xd = tu_tensor(s.t, 4, cs.x.dims, cs.x.st);
    pdnnTensorDescriptor_t yd = tu_tensor(s.t, 4, cs.y.dims, cs.y.st);
    pdnnFilterDescriptor_t wd;
    pdnnConvolutionDescriptor_t cd;
    TU_OK(pdnnCreateFilterDescriptor(&wd));
    TU_OK(pdnnSetFilterNdDescriptor(wd, s.t, PDNN_TENSOR_NCHW, 4, cs.w.dims));
    TU_OK(pdnnCreateConvolutionDescriptor(&cd));
    TU_OK(pdnnSetConvolutionNdDescriptorEx(cd, 2, s.pb, s.pe, s.str, s.dil,
                                           PDNN_CROSS_CORRELATION, s.t));
    pdnnConvolutionFwdAlgoPerf_t perf[PDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int got = 0;
    TU_OK(pdnnGetConvolutionForwardAlgorithm_v7(handle, xd, wd, cd, yd,
                                                PDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf));
    bool found = false;
    for (int i = 0; i < got; i++)
        if (perf[i].algo == PDNN_CONVOLUTION_FWD_ALGO_GEMM) {
            found = perf[i].status == PDNN_STATUS_SUCCESS &&
                    perf[i].memory == pdnn_conv_fwd_cpu_gemm.workspace(&cs.p) &&
                    perf[i].determinism == PDNN_DETERMINISTIC;
        }
    TU_CHECK(found, "Get_v7 does not list FWD_ALGO_GEMM as supported and deterministic");
    pdnnDestroyTensorDescriptor(xd);
    pdnnDestroyTensorDescriptor(yd);
    pdnnDestroyFilterDescriptor(wd);
    pdnnDestroyConvolutionDescriptor(cd);
    TU_OK(pdnnDestroy(handle));
}

int main(void)
{
    tu_seed(777);
    test_by_hand();
    test_refusals();
    for (int ti = 0; ti < 2; ti++) {
        pdnnDataType_t t = ti ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        test_edges(t);
        test_random(t, 50);
    }
    test_api();
    printf("conv gemm: %ld direction cases\n", ncases);
    return tu_finish("ops/conv_gemm");
}
