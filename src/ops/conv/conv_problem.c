/* The convolution problem's key string (benchdnn's problem syntax plus pdnn tags). */
#include <stdio.h>

#include "ops/conv/conv_problem.h"

/* Appends to buf at *off, never past n; keeps *off <= n. */
static void put(char *buf, size_t n, size_t *off, const char *fmt, long long v)
{
    if (*off >= n) return;
    int r = snprintf(buf + *off, n - *off, fmt, v);
    if (r < 0) return;
    *off += (size_t)r;
    if (*off > n) *off = n;
}

static void put_str(char *buf, size_t n, size_t *off, const char *s)
{
    if (*off >= n) return;
    int r = snprintf(buf + *off, n - *off, "%s", s);
    if (r < 0) return;
    *off += (size_t)r;
    if (*off > n) *off = n;
}

/* Packed strides of N, C, spatial in NCHW (channels second) or NHWC order. */
static void packed(const pdnn_conv_problem *p, int64_t ch, const int64_t *sp, bool nhwc,
                   int64_t *s)
{
    int nsp = p->nsp;
    int64_t acc = 1;
    if (nhwc) {
        s[1] = acc;
        acc *= ch;
        for (int i = nsp - 1; i >= 0; i--) s[2 + i] = acc, acc *= sp[i];
    } else {
        for (int i = nsp - 1; i >= 0; i--) s[2 + i] = acc, acc *= sp[i];
        s[1] = acc;
        acc *= ch;
    }
    s[0] = acc;
}

static bool same_strides(const int64_t *a, const int64_t *b, int nb, int64_t n)
{
    /* a stride of the size-1 batch dim does not matter */
    for (int i = 0; i < nb; i++)
        if (a[i] != b[i] && !(i == 0 && n == 1)) return false;
    return true;
}

/* "_xnhwc" / "" (NCHW packed) / "_xs60:20:5:1" for general strides. */
static void layout_tag(const pdnn_conv_problem *p, char tag, const int64_t *st, int64_t ch,
                       const int64_t *sp, char *buf, size_t n, size_t *off)
{
    int64_t nchw[2 + PDNN_CONV_SP_MAX], nhwc[2 + PDNN_CONV_SP_MAX];
    packed(p, ch, sp, false, nchw);
    packed(p, ch, sp, true, nhwc);
    if (same_strides(st, nchw, 2 + p->nsp, p->n)) return;
    char t[4] = {'_', tag, '\0', '\0'};
    put_str(buf, n, off, t);
    if (same_strides(st, nhwc, 2 + p->nsp, p->n)) {
        put_str(buf, n, off, "nhwc");
        return;
    }
    for (int i = 0; i < 2 + p->nsp; i++) put(buf, n, off, i ? ":%lld" : "s%lld", st[i]);
}

void pdnn_conv_widen(const pdnn_conv_problem *p, pdnn_conv_geom3 *g)
{
    const int lead = PDNN_CONV_SP_MAX - p->nsp;
    for (int i = 0; i < PDNN_CONV_SP_MAX; i++) {
        const int j = i - lead;
        const bool has = j >= 0;
        g->in[i] = has ? p->in[j] : 1;
        g->kern[i] = has ? p->kern[j] : 1;
        g->out[i] = has ? p->out[j] : 1;
        g->str[i] = has ? p->stride[j] : 1;
        g->dil[i] = has ? p->dil[j] : 1;
        g->pad[i] = has ? p->pad_b[j] : 0;
        g->xs[2 + i] = has ? p->xs[2 + j] : 0;
        g->ys[2 + i] = has ? p->ys[2 + j] : 0;
        g->ws[2 + i] = has ? p->ws[2 + j] : 0;
    }
    for (int i = 0; i < 2; i++) g->xs[i] = p->xs[i], g->ys[i] = p->ys[i], g->ws[i] = p->ws[i];
    g->cg = p->c / p->g;
    g->kg = p->k / p->g;
}

void pdnn_conv_problem_key(const pdnn_conv_problem *p, char *buf, size_t n)
{
    static const char *const names3[] = {"d", "h", "w"};
    size_t off = 0;
    if (n == 0) return;
    buf[0] = '\0';
    int nsp = p->nsp < 1 ? 1 : (p->nsp > PDNN_CONV_SP_MAX ? PDNN_CONV_SP_MAX : p->nsp);
    const char *const *nm = names3 + (PDNN_CONV_SP_MAX - nsp);
    char f[16];

    put(buf, n, &off, "mb%lld", p->n);
    put(buf, n, &off, "ic%lld", p->c);
    for (int i = 0; i < nsp; i++) {
        snprintf(f, sizeof f, "i%s%%lld", nm[i]);
        put(buf, n, &off, f, p->in[i]);
    }
    put(buf, n, &off, "oc%lld", p->k);
    for (int i = 0; i < nsp; i++) {
        snprintf(f, sizeof f, "o%s%%lld", nm[i]);
        put(buf, n, &off, f, p->out[i]);
    }
    for (int i = 0; i < nsp; i++) {
        snprintf(f, sizeof f, "k%s%%lld", nm[i]);
        put(buf, n, &off, f, p->kern[i]);
    }
    for (int i = 0; i < nsp; i++) {
        snprintf(f, sizeof f, "s%s%%lld", nm[i]);
        put(buf, n, &off, f, p->stride[i]);
    }
    for (int i = 0; i < nsp; i++) {
        snprintf(f, sizeof f, "p%s%%lld", nm[i]);
        put(buf, n, &off, f, p->pad_b[i]);
    }
    for (int i = 0; i < nsp; i++) {
        snprintf(f, sizeof f, "d%s%%lld", nm[i]);
        put(buf, n, &off, f, p->dil[i] - 1);
    }
    put(buf, n, &off, "g%lld", p->g);
    put_str(buf, n, &off, "_");
    put_str(buf, n, &off, pdnn_dtype_name(p->dtype));
    put_str(buf, n, &off, p->dir == PDNN_CONV_FWD        ? "_fwd"
                          : p->dir == PDNN_CONV_BWD_DATA ? "_bwd_d"
                                                         : "_bwd_w");
    /* pdnn tags, only where the problem differs from the canonical one */
    if (p->compute != p->dtype) {
        put_str(buf, n, &off, "_acc");
        put_str(buf, n, &off, pdnn_dtype_name(p->compute));
    }
    if (p->flip) put_str(buf, n, &off, "_flip");
    if (p->wfmt == PDNN_TENSOR_NHWC) put_str(buf, n, &off, "_wkrsc");
    layout_tag(p, 'x', p->xs, p->c, p->in, buf, n, &off);
    layout_tag(p, 'y', p->ys, p->k, p->out, buf, n, &off);
}
