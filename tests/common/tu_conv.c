/* Convolution test harness: see tu_conv.h. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "tu_conv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"
#include "tu_layout.h"

#define SENTINEL 555.0

static long ncases;

long tu_conv_cases(void) { return ncases; }

static void make_layout(tu_conv_layout *l, int nb, int d0, int d1, const int *sp, int kind)
{
    l->nb = nb;
    l->dims[0] = d0;
    l->dims[1] = d1;
    for (int i = 2; i < nb; i++) l->dims[i] = sp[i - 2];
    tu_layout_strides(nb, l->dims, kind, l->st);
    l->span = tu_layout_span(nb, l->dims, l->st);
}

/* Offset of (a, b, spatial s[0..nsp-1]). */
static int64_t off_of(const tu_conv_layout *l, int64_t a, int64_t b, const int64_t *s)
{
    int64_t o = a * l->st[0] + b * l->st[1];
    for (int i = 2; i < l->nb; i++) o += s[i - 2] * l->st[i];
    return o;
}

/* Next spatial index of sizes dims[0..nsp-1] (row-major); false after the last. */
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

void tu_conv_setup_init(tu_conv_setup *cs, const tu_conv_shape *s, pdnn_conv_dir dir)
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
static int64_t in_pos(const tu_conv_shape *s, int d, int64_t o, int64_t r)
{
    int64_t e = s->flip ? s->kern[d] - 1 - r : r;
    int64_t i = o * s->str[d] - s->pb[d] + e * s->dil[d];
    return i >= 0 && i < s->in[d] ? i : -1;
}

/* The oracle: acc (indexed by dst offsets) += the unscaled result of the direction,
 * straight from the definition y[n,k,o] = sum_{c,r} x[n,c,o*s-p+e(r)*d] w[k,c,r]. */
static void oracle(const tu_conv_setup *cs, pdnn_conv_dir dir, const void *src, const void *wei,
                   double *acc)
{
    const tu_conv_shape *s = &cs->s;
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
static void mark(const tu_conv_layout *l, char *mask)
{
    int64_t numel = tu_layout_numel(l->nb, l->dims);
    for (int64_t i = 0; i < numel; i++) mask[tu_layout_offset(l->nb, l->dims, l->st, i)] = 1;
}

/* Buffer over a layout: logical elements from the generator, gaps NaN (inputs) or
 * SENTINEL (outputs); an output read by nothing (beta == 0) holds NaN. */
static void *make_buf(pdnnDataType_t t, const tu_conv_layout *l, bool ints, bool output,
                      double beta)
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

const char *tu_conv_dir_name(pdnn_conv_dir dir)
{
    return dir == PDNN_CONV_FWD ? "fwd" : dir == PDNN_CONV_BWD_DATA ? "bwd_data" : "bwd_filter";
}

void tu_conv_describe(const tu_conv_shape *s, char *buf, size_t n)
{
    snprintf(buf, n,
             "%s nsp=%d n=%d g=%d cg=%d kg=%d in=%dx%dx%d k=%dx%dx%d out=%dx%dx%d s=%d,%d,%d "
             "d=%d,%d,%d pb=%d,%d,%d pe=%d,%d,%d flip=%d krsc=%d x%d y%d",
             s->t == PDNN_DATA_DOUBLE ? "f64" : "f32", s->nsp, s->n, s->g, s->cg, s->kg, s->in[0],
             s->in[1], s->in[2], s->kern[0], s->kern[1], s->kern[2], s->out[0], s->out[1],
             s->out[2], s->str[0], s->str[1], s->str[2], s->dil[0], s->dil[1], s->dil[2],
             s->pb[0], s->pb[1], s->pb[2], s->pe[0], s->pe[1], s->pe[2], s->flip, s->krsc,
             s->xkind, s->ykind);
}

pdnnStatus_t tu_conv_run_impl(const pdnn_impl *im, const pdnn_conv_problem *p, const void *src,
                              const void *wei, void *dst, double alpha, double beta, int nt)
{
    size_t wsb = pdnn_impl_workspace(im, p);
    void *ws = wsb ? malloc(wsb) : NULL;
    pdnn_conv_args a = {src, wei, dst, alpha, beta};
    pdnn_ctx ctx = {nt, ws, wsb};
    pdnnStatus_t st = im->exec(p, &a, &ctx);
    free(ws);
    return st;
}

/* Buffers and the expected result of one check. */
typedef struct {
    tu_conv_setup cs;
    const tu_conv_layout *ld;
    void *src, *wei, *dst0;
    double *ref;
    size_t dn, bytes;
    char desc[400];
} conv_case;

static void case_init(conv_case *k, const tu_conv_shape *s, pdnn_conv_dir dir, bool ints,
                      double alpha, double beta)
{
    tu_conv_setup *cs = &k->cs;
    tu_conv_setup_init(cs, s, dir);
    const pdnnDataType_t t = s->t;
    const tu_conv_layout *ls = dir == PDNN_CONV_BWD_DATA ? &cs->y : &cs->x;
    const tu_conv_layout *lw = dir == PDNN_CONV_BWD_FILTER ? &cs->y : &cs->w;
    k->ld = dir == PDNN_CONV_FWD ? &cs->y : dir == PDNN_CONV_BWD_DATA ? &cs->x : &cs->w;
    k->src = make_buf(t, ls, ints, false, 0);
    k->wei = make_buf(t, lw, ints, false, 0);
    k->dst0 = make_buf(t, k->ld, ints, true, beta);
    k->dn = (size_t)(k->ld->span ? k->ld->span : 1);
    k->bytes = k->dn * tu_esize(t);
    char *mask = calloc(k->dn, 1);
    mark(k->ld, mask);
    k->ref = calloc(k->dn, sizeof(double));
    oracle(cs, dir, k->src, k->wei, k->ref);
    for (size_t i = 0; i < k->dn; i++) {
        double r = tu_get(k->dst0, t, i); /* gaps: untouched */
        if (mask[i]) r = alpha * k->ref[i] + (beta != 0 ? beta * r : 0.0);
        k->ref[i] = r;
    }
    free(mask);
    tu_conv_describe(s, k->desc, sizeof k->desc);
}

static void case_free(conv_case *k)
{
    free(k->ref);
    free(k->src);
    free(k->wei);
    free(k->dst0);
}

/* Compares one result with the expected one; the tag names the caller. */
static void case_compare(const conv_case *k, pdnn_conv_dir dir, const void *out, bool ints,
                         double tol, const char *tag)
{
    const pdnnDataType_t t = k->cs.s.t;
    if (ints && tol == 0) {
        size_t bad = tu_count_mismatch(k->ref, out, t, k->dn);
        TU_CHECK(bad == 0, "%s %s %s ints: %zu of %zu mismatch", tag, tu_conv_dir_name(dir),
                 k->desc, bad, k->dn);
    } else {
        const double lim = tol > 0 ? tol : t == PDNN_DATA_DOUBLE ? 1e-12 : 1e-5;
        const double err = tu_rel_err(k->ref, out, t, k->dn);
        TU_CHECK(err <= lim, "%s %s %s: rel err %.3g > %.3g", tag, tu_conv_dir_name(dir),
                 k->desc, err, lim);
    }
}

bool tu_conv_check(const pdnn_impl *im, const tu_conv_shape *s, pdnn_conv_dir dir, bool ints,
                   double alpha, double beta, double tol, bool must_support)
{
    /* the supports() question on the very strides that run (a gapped layout's strides
     * are drawn at random by each setup) */
    conv_case k;
    case_init(&k, s, dir, ints, alpha, beta);
    const char *why = NULL;
    if (!im->supports(&k.cs.p, &why)) {
        TU_CHECK(!must_support, "%s %s %s: not supported (%s)", im->name, tu_conv_dir_name(dir),
                 k.desc, why ? why : "?");
        case_free(&k);
        return false;
    }
    /* 64-byte aligned, as a framework's tensors are: the paths' non-temporal stores of
     * whole aligned vectors (large outputs) then run here too */
    const size_t abytes = (k.bytes + 63) / 64 * 64;
    void *d1 = aligned_alloc(64, abytes ? abytes : 64), *d2 = aligned_alloc(64, abytes ? abytes : 64);
    TU_CHECK(d1 && d2, "out of memory (%zu bytes)", abytes);
    if (!d1 || !d2) exit(2);
    memcpy(d1, k.dst0, k.bytes);
    memcpy(d2, k.dst0, k.bytes);
    TU_CHECK(tu_conv_run_impl(im, &k.cs.p, k.src, k.wei, d1, alpha, beta, 1) ==
                 PDNN_STATUS_SUCCESS,
             "%s %s exec failed", im->name, tu_conv_dir_name(dir));
    case_compare(&k, dir, d1, ints, tol, im->name);
    TU_CHECK(tu_conv_run_impl(im, &k.cs.p, k.src, k.wei, d2, alpha, beta, 2) ==
                 PDNN_STATUS_SUCCESS,
             "%s %s exec failed (2 threads)", im->name, tu_conv_dir_name(dir));
    TU_CHECK(tu_bitwise_equal(d1, d2, k.bytes), "%s %s %s: 1 and 2 threads differ", im->name,
             tu_conv_dir_name(dir), k.desc);
    free(d1);
    free(d2);
    case_free(&k);
    ncases++;
    return true;
}

void tu_conv_descs_init(tu_conv_descs *d, const tu_conv_shape *s, pdnn_conv_dir dir)
{
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, s, dir);
    tu_conv_descs_from(d, &cs);
}

void tu_conv_descs_from(tu_conv_descs *d, const tu_conv_setup *setup)
{
    d->cs = *setup;
    const tu_conv_setup *cs = &d->cs;
    const tu_conv_shape *s = &cs->s;
    d->xd = tu_tensor(s->t, cs->x.nb, cs->x.dims, cs->x.st);
    d->yd = tu_tensor(s->t, cs->y.nb, cs->y.dims, cs->y.st);
    TU_OK(pdnnCreateFilterDescriptor(&d->wd));
    TU_OK(pdnnSetFilterNdDescriptor(d->wd, s->t, s->krsc ? PDNN_TENSOR_NHWC : PDNN_TENSOR_NCHW,
                                    cs->w.nb, cs->w.dims));
    TU_OK(pdnnCreateConvolutionDescriptor(&d->cd));
    TU_OK(pdnnSetConvolutionNdDescriptorEx(d->cd, s->nsp, s->pb, s->pe, s->str, s->dil,
                                           s->flip ? PDNN_CONVOLUTION : PDNN_CROSS_CORRELATION,
                                           s->t));
    TU_OK(pdnnSetConvolutionGroupCount(d->cd, s->g));
}

void tu_conv_descs_free(tu_conv_descs *d)
{
    pdnnDestroyTensorDescriptor(d->xd);
    pdnnDestroyTensorDescriptor(d->yd);
    pdnnDestroyFilterDescriptor(d->wd);
    pdnnDestroyConvolutionDescriptor(d->cd);
}

void tu_conv_api_check_direct(pdnnHandle_t h, const tu_conv_shape *s, pdnn_conv_dir dir,
                              int algo, const pdnn_impl *im, double beta)
{
    tu_conv_descs d;
    tu_conv_descs_init(&d, s, dir);
    const pdnn_conv_problem *p = &d.cs.p;
    size_t wsb = 0;
    if (dir == PDNN_CONV_FWD)
        TU_OK(pdnnGetConvolutionForwardWorkspaceSize(h, d.xd, d.wd, d.cd, d.yd,
                                                     (pdnnConvolutionFwdAlgo_t)algo, &wsb));
    else if (dir == PDNN_CONV_BWD_DATA)
        TU_OK(pdnnGetConvolutionBackwardDataWorkspaceSize(
            h, d.wd, d.yd, d.cd, d.xd, (pdnnConvolutionBwdDataAlgo_t)algo, &wsb));
    else
        TU_OK(pdnnGetConvolutionBackwardFilterWorkspaceSize(
            h, d.xd, d.yd, d.cd, d.wd, (pdnnConvolutionBwdFilterAlgo_t)algo, &wsb));
    TU_CHECK(wsb == im->workspace(p), "%s %s: API workspace %zu, entry %zu", im->name,
             tu_conv_dir_name(dir), wsb, im->workspace(p));
    /* the operands in pdnn_conv_args' roles */
    const tu_conv_layout *ls = dir == PDNN_CONV_BWD_DATA ? &d.cs.y : &d.cs.x;
    const tu_conv_layout *lw = dir == PDNN_CONV_BWD_FILTER ? &d.cs.y : &d.cs.w;
    const tu_conv_layout *ld = dir == PDNN_CONV_FWD ? &d.cs.y
                               : dir == PDNN_CONV_BWD_DATA ? &d.cs.x : &d.cs.w;
    const size_t sn = (size_t)ls->span, wn = (size_t)lw->span, dn = (size_t)ld->span;
    float *src = malloc((sn ? sn : 1) * sizeof(float)), *wei = malloc((wn ? wn : 1) * sizeof(float));
    float *out[4], *ws = malloc(wsb ? wsb : 1);
    for (size_t i = 0; i < sn; i++) src[i] = (float)tu_int(-3, 3);
    for (size_t i = 0; i < wn; i++) wei[i] = (float)tu_int(-3, 3);
    for (int r = 0; r < 4; r++) {
        out[r] = malloc((dn ? dn : 1) * sizeof(float));
        for (size_t i = 0; i < dn; i++) out[r][i] = beta == 0 ? NAN : (float)(i % 7);
    }
    const float al = 1.0f, be = (float)beta;
    TU_OK(tu_conv_run_impl(im, p, src, wei, out[0], 1.0, beta, 1));
    for (int r = 1; r < 4; r++) {
        TU_OK(pdnnSetNumThreads(h, r == 2 ? 2 : 1));
        void *w = r == 3 ? NULL : ws;
        const size_t wb = r == 3 ? 0 : wsb;
        if (dir == PDNN_CONV_FWD)
            TU_OK(pdnnConvolutionForward(h, &al, d.xd, src, d.wd, wei, d.cd,
                                         (pdnnConvolutionFwdAlgo_t)algo, w, wb, &be, d.yd,
                                         out[r]));
        else if (dir == PDNN_CONV_BWD_DATA)
            TU_OK(pdnnConvolutionBackwardData(h, &al, d.wd, wei, d.yd, src, d.cd,
                                              (pdnnConvolutionBwdDataAlgo_t)algo, w, wb, &be,
                                              d.xd, out[r]));
        else
            TU_OK(pdnnConvolutionBackwardFilter(h, &al, d.xd, src, d.yd, wei, d.cd,
                                                (pdnnConvolutionBwdFilterAlgo_t)algo, w, wb, &be,
                                                d.wd, out[r]));
        TU_CHECK(tu_bitwise_equal(out[r], out[0], dn * sizeof(float)),
                 "%s %s: run %d (%s) differs from the entry's bits", im->name,
                 tu_conv_dir_name(dir), r,
                 r == 3 ? "no workspace" : r == 2 ? "2 threads" : "1 thread");
    }
    for (int r = 0; r < 4; r++) free(out[r]);
    free(src);
    free(wei);
    free(ws);
    tu_conv_descs_free(&d);
}

void tu_conv_check_ranked_first(pdnnHandle_t h, const tu_conv_shape *s, pdnn_conv_dir dir,
                                int algo, const pdnn_impl *im, const char *what)
{
    tu_conv_descs d;
    tu_conv_descs_init(&d, s, dir);
    int got = 0, first = -1;
    size_t mem = 0;
    if (dir == PDNN_CONV_FWD) {
        pdnnConvolutionFwdAlgoPerf_t r[PDNN_CONVOLUTION_FWD_ALGO_COUNT];
        TU_OK(pdnnGetConvolutionForwardAlgorithm_v7(h, d.xd, d.wd, d.cd, d.yd,
                                                    PDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, r));
        if (got > 0) first = (int)r[0].algo, mem = r[0].memory;
    } else if (dir == PDNN_CONV_BWD_DATA) {
        pdnnConvolutionBwdDataAlgoPerf_t r[PDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
        TU_OK(pdnnGetConvolutionBackwardDataAlgorithm_v7(
            h, d.wd, d.yd, d.cd, d.xd, PDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &got, r));
        if (got > 0) first = (int)r[0].algo, mem = r[0].memory;
    } else {
        pdnnConvolutionBwdFilterAlgoPerf_t r[PDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
        TU_OK(pdnnGetConvolutionBackwardFilterAlgorithm_v7(
            h, d.xd, d.yd, d.cd, d.wd, PDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &got, r));
        if (got > 0) first = (int)r[0].algo, mem = r[0].memory;
    }
    const size_t want = im->workspace(&d.cs.p);
    TU_CHECK(first == algo && mem == want,
             "%s %s: first algorithm %d (memory %zu), expected %d (%s, %zu)", what,
             tu_conv_dir_name(dir), first, mem, algo, im->name, want);
    tu_conv_descs_free(&d);
}

void tu_conv_api_check(pdnnHandle_t h, const tu_conv_shape *s, pdnn_conv_dir dir, int algo,
                       const pdnn_impl *im, bool ints, double alpha, double beta, double tol)
{
    conv_case k;
    case_init(&k, s, dir, ints, alpha, beta);
    const tu_conv_setup *cs = &k.cs;
    const pdnnDataType_t t = s->t;
    tu_conv_descs ds; /* on the case's strides */
    tu_conv_descs_from(&ds, cs);
    pdnnTensorDescriptor_t xd = ds.xd, yd = ds.yd;
    pdnnFilterDescriptor_t wd = ds.wd;
    pdnnConvolutionDescriptor_t cd = ds.cd;
    tu_scalar al = tu_sc(t, alpha), be = tu_sc(t, beta);
    size_t wsb = 0;
    if (dir == PDNN_CONV_FWD)
        TU_OK(pdnnGetConvolutionForwardWorkspaceSize(h, xd, wd, cd, yd,
                                                     (pdnnConvolutionFwdAlgo_t)algo, &wsb));
    else if (dir == PDNN_CONV_BWD_DATA)
        TU_OK(pdnnGetConvolutionBackwardDataWorkspaceSize(
            h, wd, yd, cd, xd, (pdnnConvolutionBwdDataAlgo_t)algo, &wsb));
    else
        TU_OK(pdnnGetConvolutionBackwardFilterWorkspaceSize(
            h, xd, yd, cd, wd, (pdnnConvolutionBwdFilterAlgo_t)algo, &wsb));
    if (im)
        TU_CHECK(wsb == pdnn_impl_workspace(im, &cs->p), "%s %s: API workspace %zu, entry %zu",
                 im->name, tu_conv_dir_name(dir), wsb, pdnn_impl_workspace(im, &cs->p));
    void *out[2] = {NULL, NULL};
    for (int run = 0; run < 3; run++) {
        /* run 0: 1 thread; run 1: 2 threads; run 2: workspace one byte short */
        const size_t give = run == 2 ? wsb - 1 : wsb;
        if (run == 2 && wsb == 0) break;
        void *ws = malloc(wsb ? wsb : 1);
        void *d = malloc(k.bytes);
        memcpy(d, k.dst0, k.bytes);
        TU_OK(pdnnSetNumThreads(h, run == 1 ? 2 : 1));
        pdnnStatus_t st;
        if (dir == PDNN_CONV_FWD)
            st = pdnnConvolutionForward(h, &al, xd, k.src, wd, k.wei, cd,
                                        (pdnnConvolutionFwdAlgo_t)algo, ws, give, &be, yd, d);
        else if (dir == PDNN_CONV_BWD_DATA)
            st = pdnnConvolutionBackwardData(h, &al, wd, k.wei, yd, k.src, cd,
                                             (pdnnConvolutionBwdDataAlgo_t)algo, ws, give, &be,
                                             xd, d);
        else
            st = pdnnConvolutionBackwardFilter(h, &al, xd, k.src, yd, k.wei, cd,
                                               (pdnnConvolutionBwdFilterAlgo_t)algo, ws, give,
                                               &be, wd, d);
        free(ws);
        if (run == 2) {
            TU_CHECK(PDNN_STATUS_CATEGORY(st) == PDNN_STATUS_BAD_PARAM,
                     "%s algo %d: workspace one byte short -> %s", tu_conv_dir_name(dir), algo,
                     pdnnGetErrorString(st));
            TU_CHECK(tu_bitwise_equal(d, k.dst0, k.bytes), "%s algo %d: output written on failure",
                     tu_conv_dir_name(dir), algo);
            free(d);
            break;
        }
        TU_CHECK(st == PDNN_STATUS_SUCCESS, "%s algo %d via API -> %s", tu_conv_dir_name(dir),
                 algo, pdnnGetErrorString(st));
        out[run] = d;
    }
    char tag[64];
    snprintf(tag, sizeof tag, "API algo %d", algo);
    case_compare(&k, dir, out[0], ints, tol, tag);
    TU_CHECK(tu_bitwise_equal(out[0], out[1], k.bytes), "API %s algo %d %s: 1 and 2 threads differ",
             tu_conv_dir_name(dir), algo, k.desc);
    free(out[0]);
    free(out[1]);
    case_free(&k);
    ncases++;
    tu_conv_descs_free(&ds);
}

void tu_conv_finish_shape(tu_conv_shape *s)
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

void tu_conv_rand_shape_in(tu_conv_shape *s, pdnnDataType_t t, int nsp, const tu_conv_ranges *r)
{
    memset(s, 0, sizeof *s);
    s->t = t;
    s->nsp = nsp;
    s->n = tu_int(1, 3);
    s->g = tu_int(1, r->g);
    s->cg = r->cg > 1 ? tu_int(1, r->cg) : 1;
    s->kg = tu_int(1, r->kg);
    for (int d = 0; d < nsp; d++) {
        do {
            s->in[d] = tu_int(1, r->in[nsp - 1]);
            s->kern[d] = tu_int(1, r->kern[nsp - 1]);
            s->dil[d] = tu_int(1, 2);
            s->str[d] = tu_int(1, 3);
            s->pb[d] = tu_int(0, r->pad);
            s->pe[d] = tu_int(0, r->pad);
        } while ((s->kern[d] - 1) * s->dil[d] + 1 > s->in[d] + s->pb[d] + s->pe[d]);
    }
    s->flip = tu_int(0, 1);
    s->krsc = tu_int(0, 1);
    s->xkind = tu_int(0, 2);
    s->ykind = tu_int(0, 2);
    tu_conv_finish_shape(s);
}

void tu_conv_rand_shape(tu_conv_shape *s, pdnnDataType_t t)
{
    static const tu_conv_ranges r = {.g = 3, .cg = 4, .kg = 5, .in = {14, 8, 5}, .kern = {3, 3, 2},
                                     .pad = 2};
    const int nsp = tu_int(1, 3);
    tu_conv_rand_shape_in(s, t, nsp, &r);
}

tu_conv_shape tu_conv_shape2d(pdnnDataType_t t, int n, int g, int cg, int kg, int h, int w,
                              int r, int ks, int str, int pad, int dil)
{
    tu_conv_shape s;
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
    tu_conv_finish_shape(&s);
    return s;
}

tu_conv_shape tu_conv_shape1d(pdnnDataType_t t, int n, int g, int cg, int kg, int w, int r,
                              int str, int pad, int dil)
{
    tu_conv_shape s = tu_conv_shape2d(t, n, g, cg, kg, w, 1, r, 1, str, pad, dil);
    s.nsp = 1;
    tu_conv_finish_shape(&s);
    return s;
}

extern const pdnn_impl pdnn_conv_fwd_cpu_direct_dw;
extern const pdnn_impl pdnn_conv_bwd_data_cpu_direct_dw;
extern const pdnn_impl pdnn_conv_bwd_filter_cpu_direct_dw;

const tu_conv_family tu_conv_family_dw = {
    {&pdnn_conv_fwd_cpu_direct_dw, &pdnn_conv_bwd_data_cpu_direct_dw,
     &pdnn_conv_bwd_filter_cpu_direct_dw},
    {PDNN_CONVOLUTION_FWD_ALGO_DIRECT, PDNN_CONVOLUTION_BWD_DATA_ALGO_0,
     PDNN_CONVOLUTION_BWD_FILTER_ALGO_0}};

static const pdnn_dw_path *dw_path;
static const char *dw_path_why;
long tu_conv_dw_path_runs;
bool tu_conv_dw_path_any_layout;

static bool dw_path_supports(const void *prob, const char **why)
{
    if (dw_path->applies(prob)) return true;
    const pdnn_impl *im = tu_conv_family_dw.im[((const pdnn_conv_problem *)prob)->dir];
    if (tu_conv_dw_path_any_layout && im->supports(prob, why)) return true;
    *why = dw_path_why;
    return false;
}

static pdnnStatus_t dw_path_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    if (!dw_path->applies(p)) {
        const pdnn_impl *im = tu_conv_family_dw.im[p->dir];
        pdnn_ctx c = *ctx;
        c.ws_bytes = im->workspace(prob);
        c.ws = c.ws_bytes ? malloc(c.ws_bytes) : NULL;
        const pdnnStatus_t st =
            c.ws_bytes && !c.ws ? PDNN_STATUS_ALLOC_FAILED : im->exec(prob, args, &c);
        free(c.ws);
        return st;
    }
    tu_conv_dw_path_runs++;
    return pdnn_dw_path_run(dw_path, p, args, ctx->nthreads) ? PDNN_STATUS_SUCCESS
                                                               : PDNN_STATUS_INTERNAL_ERROR;
}

const pdnn_impl *tu_conv_dw_path_entry(const pdnn_dw_path *path, const char *name,
                                       const char *why_not)
{
    static pdnn_impl entry = {NULL, -1, PDNN_ISA_AVX512, PDNN_IMPL_DETERMINISTIC,
                              dw_path_supports, NULL, dw_path_exec};
    dw_path = path;
    dw_path_why = why_not;
    entry.name = name;
    return &entry;
}

void tu_conv_check_family(const tu_conv_family *f, const tu_conv_shape *s, bool ints)
{
    static const double alphas[] = {1.0, 2.0, -0.5};
    static const double betas[] = {0.0, 0.0, 1.0, -1.5, 0.5};
    for (int d = 0; d < 3; d++) {
        if (!f->im[d]) continue;
        const double beta = betas[tu_int(0, 4)];
        const double alpha = alphas[tu_int(0, 2)];
        tu_conv_check(f->im[d], s, (pdnn_conv_dir)d, ints, alpha, beta, 0, true);
    }
}

void tu_conv_check_family_caps(const tu_conv_family *f, int n, tu_conv_shape (*shape)(int),
                               bool given)
{
    static const char *caps[] = {"avx512", "avx2", "scalar"};
    const int top = (int)pdnn_cpu_isa_detected();
    for (int k = 0; k < 3; k++) {
        if (given ? k > 0 : 2 - k > top) continue;
        if (!given) setenv("PDNN_MAX_CPU_ISA", caps[k], 1);
        if (!given) pdnn_cpu_isa_reread();
        for (int i = 0; i < n; i++) {
            const tu_conv_shape s = shape(i);
            tu_conv_check_family(f, &s, i % 5 != 3);
        }
    }
    if (!given) unsetenv("PDNN_MAX_CPU_ISA");
    if (!given) pdnn_cpu_isa_reread();
}

void tu_conv_check_edges(const tu_conv_family *f, pdnnDataType_t t)
{
    tu_conv_shape s;
    /* batch 1, 1x1 spatial */
    s = tu_conv_shape2d(t, 1, 1, 3, 4, 1, 1, 1, 1, 1, 0, 1);
    tu_conv_check_family(f, &s, true);
    /* padding wider than the kernel, asymmetric */
    s = tu_conv_shape2d(t, 2, 1, 2, 3, 3, 4, 1, 2, 1, 3, 1);
    s.pe[1] = 0;
    tu_conv_finish_shape(&s);
    tu_conv_check_family(f, &s, true);
    /* stride above the kernel */
    s = tu_conv_shape2d(t, 2, 1, 2, 3, 9, 10, 2, 2, 3, 0, 1);
    tu_conv_check_family(f, &s, true);
    /* groups == channels, multiplier 2 (depthwise), channels-last, KRSC */
    s = tu_conv_shape2d(t, 2, 4, 1, 2, 6, 5, 3, 3, 1, 1, 1);
    s.krsc = true;
    s.xkind = s.ykind = TU_LAYOUT_CHANNELS_LAST;
    tu_conv_check_family(f, &s, true);
    /* dilation, convolution mode */
    s = tu_conv_shape2d(t, 1, 2, 2, 2, 9, 9, 3, 3, 1, 2, 3);
    s.flip = true;
    tu_conv_check_family(f, &s, true);
    /* 288 taps > KC: several K blocks (forward), M > MC (backward data); gapped */
    s = tu_conv_shape2d(t, 2, 1, 32, 7, 6, 5, 3, 3, 1, 1, 1);
    tu_conv_check_family(f, &s, true);
    s.xkind = s.ykind = TU_LAYOUT_GAPPED;
    tu_conv_check_family(f, &s, false);
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
    tu_conv_finish_shape(&s);
    tu_conv_check_family(f, &s, true);
    tu_conv_check_family(f, &s, false);
    /* zero output channels */
    s = tu_conv_shape2d(t, 2, 1, 2, 0, 4, 4, 3, 3, 1, 1, 1);
    tu_conv_check_family(f, &s, true);
}

void tu_conv_check_refused(const pdnn_impl *im, const tu_conv_shape *s, pdnn_conv_dir dir,
                           const char *what)
{
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, s, dir);
    const char *why = NULL;
    const bool ok = im->supports(&cs.p, &why);
    TU_CHECK(!ok && why && why[0], "%s: supported (or no reason)", what);
}

tu_conv_shape tu_conv_dw_plane_shape(const int c[7], int i)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, c[4], c[3], 1, 1, c[0], c[1], 3, 3, c[2],
                                      1, 1);
    s.pe[0] = s.pe[1] = c[5];
    s.flip = i % 3 == 1;
    s.krsc = i % 4 == 2;
    s.xkind = s.ykind = c[6] ? TU_LAYOUT_GAPPED : TU_LAYOUT_PACKED;
    tu_conv_finish_shape(&s);
    return s;
}

int tu_conv_dw_plane_sweep(const int (*cfg)[7], int n, const pdnn_impl *entry,
                           bool (*applies)(const pdnn_conv_problem *),
                           bool (*rule)(pdnn_conv_dir, const int *row), const char *what, long *runs)
{
    static const double al[] = {1, 2, -0.5}, be[] = {0, 0.5, 0, -1.5};
    int ran = 0;
    const long runs0 = tu_conv_dw_path_runs;
    for (int i = 0; i < n; i++) {
        const int *c = cfg[i];
        const tu_conv_shape s = tu_conv_dw_plane_shape(c, i);
        for (int d = 0; d < 3; d++) {
            const pdnn_conv_dir dir = (pdnn_conv_dir)d;
            tu_conv_setup cs;
            tu_conv_setup_init(&cs, &s, dir);
            /* a gapped layout may put the columns at a stride: refused */
            const bool unit = cs.p.xs[3] == 1 && cs.p.ys[3] == 1;
            const bool offered = rule(dir, c), want = offered && unit;
            TU_CHECK(applies(&cs.p) == want, "%s %dx%d s%d %s: applies %d, expected %d", what, c[0], c[1], c[2],
                     tu_conv_dir_name(dir), !want, want);
            if (want && !c[6]) {
                for (int k = 0; k < 2; k++)
                    tu_conv_check(entry, &s, dir, (i + k) % 5 != 4, al[(i + d + k) % 3], be[(i + 2 * d + k) % 4],
                                  0, true);
                ran++;
            } else if (offered && c[6]) {
                /* the check draws its own gapped layout: drawn until the path ran on one */
                const long r0 = tu_conv_dw_path_runs;
                tu_conv_dw_path_any_layout = true;
                for (int k = 0; k < 400 && tu_conv_dw_path_runs == r0; k++)
                    tu_conv_check(entry, &s, dir, i % 5 != 4, al[(i + d) % 3], be[(i + 2 * d) % 4], 0, true);
                tu_conv_dw_path_any_layout = false;
                TU_CHECK(tu_conv_dw_path_runs > r0, "%s %dx%d %s: no gapped layout ran", what, c[0], c[1],
                         tu_conv_dir_name(dir));
            }
        }
    }
    *runs = tu_conv_dw_path_runs - runs0;
    return ran;
}
