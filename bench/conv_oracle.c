/* Plain-loop convolution oracle of the bench drivers (see conv_oracle.h). */
#include "conv_oracle.h"

#include <string.h>

void conv_layout_packed(const conv_desc *d, bool nhwc, conv_layout *l)
{
    memset(l, 0, sizeof *l);
    const int ns = d->nsp;
    int64_t cg = d->ic / d->g;
    if (!nhwc) {
        int64_t sx = 1, sy = 1, sw = 1;
        for (int i = ns - 1; i >= 0; i--) {
            l->xs[2 + i] = sx;
            l->ys[2 + i] = sy;
            l->ws[2 + i] = sw;
            sx *= d->in[i];
            sy *= d->out[i];
            sw *= d->k[i];
        }
        l->xs[1] = sx;
        l->ys[1] = sy;
        l->ws[1] = sw;
        l->xs[0] = sx * d->ic;
        l->ys[0] = sy * d->oc;
        l->ws[0] = sw * cg;
    } else {
        int64_t sx = d->ic, sy = d->oc, sw = cg;
        l->xs[1] = l->ys[1] = l->ws[1] = 1;
        for (int i = ns - 1; i >= 0; i--) {
            l->xs[2 + i] = sx;
            l->ys[2 + i] = sy;
            l->ws[2 + i] = sw;
            sx *= d->in[i];
            sy *= d->out[i];
            sw *= d->k[i];
        }
        l->xs[0] = sx;
        l->ys[0] = sy;
        l->ws[0] = sw;
    }
}

/* The problem widened to 3 spatial dims (missing leading dims: size 1, stride 0). */
typedef struct {
    int64_t in[3], out[3], k[3], s[3], dil[3], pb[3];
    int64_t xs[5], ys[5], ws[5];
} geom;

static void widen(const conv_desc *d, const conv_layout *l, geom *g)
{
    int off = 3 - d->nsp;
    for (int i = 0; i < 3; i++) {
        int j = i - off;
        g->in[i] = j >= 0 ? d->in[j] : 1;
        g->out[i] = j >= 0 ? d->out[j] : 1;
        g->k[i] = j >= 0 ? d->k[j] : 1;
        g->s[i] = j >= 0 ? d->s[j] : 1;
        g->dil[i] = j >= 0 ? d->dil[j] : 1;
        g->pb[i] = j >= 0 ? d->pb[j] : 0;
        g->xs[2 + i] = j >= 0 ? l->xs[2 + j] : 0;
        g->ys[2 + i] = j >= 0 ? l->ys[2 + j] : 0;
        g->ws[2 + i] = j >= 0 ? l->ws[2 + j] : 0;
    }
    for (int i = 0; i < 2; i++) {
        g->xs[i] = l->xs[i];
        g->ys[i] = l->ys[i];
        g->ws[i] = l->ws[i];
    }
}

static double ld(const void *p, bool dbl, int64_t i)
{
    return dbl ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

static void st(void *p, bool dbl, int64_t i, double v)
{
    if (dbl)
        ((double *)p)[i] = v;
    else
        ((float *)p)[i] = (float)v;
}

/* input coordinate of output o and tap t in one dim, or -1 outside the input */
static int64_t in_coord(const geom *g, int dim, int64_t o, int64_t t)
{
    int64_t i = o * g->s[dim] - g->pb[dim] + t * g->dil[dim];
    return i >= 0 && i < g->in[dim] ? i : -1;
}

static void fwd(const conv_desc *d, const geom *g, bool dbl, const void *x, const void *w,
                void *y, const void *bias)
{
    const int64_t cg = d->ic / d->g, kg = d->oc / d->g;
#pragma omp parallel for collapse(2) schedule(dynamic)
    for (int64_t n = 0; n < d->mb; n++)
        for (int64_t k = 0; k < d->oc; k++) {
            const int64_t c0 = (k / kg) * cg;
            for (int64_t o0 = 0; o0 < g->out[0]; o0++)
                for (int64_t o1 = 0; o1 < g->out[1]; o1++)
                    for (int64_t o2 = 0; o2 < g->out[2]; o2++) {
                        double acc = bias ? ld(bias, dbl, k) : 0.0;
                        for (int64_t c = 0; c < cg; c++)
                            for (int64_t t0 = 0; t0 < g->k[0]; t0++) {
                                int64_t i0 = in_coord(g, 0, o0, t0);
                                if (i0 < 0) continue;
                                for (int64_t t1 = 0; t1 < g->k[1]; t1++) {
                                    int64_t i1 = in_coord(g, 1, o1, t1);
                                    if (i1 < 0) continue;
                                    for (int64_t t2 = 0; t2 < g->k[2]; t2++) {
                                        int64_t i2 = in_coord(g, 2, o2, t2);
                                        if (i2 < 0) continue;
                                        acc += ld(x, dbl,
                                                  n * g->xs[0] + (c0 + c) * g->xs[1] +
                                                      i0 * g->xs[2] + i1 * g->xs[3] +
                                                      i2 * g->xs[4]) *
                                               ld(w, dbl,
                                                  k * g->ws[0] + c * g->ws[1] + t0 * g->ws[2] +
                                                      t1 * g->ws[3] + t2 * g->ws[4]);
                                    }
                                }
                            }
                        st(y, dbl,
                           n * g->ys[0] + k * g->ys[1] + o0 * g->ys[2] + o1 * g->ys[3] +
                               o2 * g->ys[4],
                           acc);
                    }
        }
}

/* output coordinate that reads input i through tap t in one dim, or -1 */
static int64_t out_coord(const geom *g, int dim, int64_t i, int64_t t)
{
    int64_t num = i + g->pb[dim] - t * g->dil[dim];
    if (num < 0 || num % g->s[dim]) return -1;
    int64_t o = num / g->s[dim];
    return o < g->out[dim] ? o : -1;
}

static void bwd_data(const conv_desc *d, const geom *g, bool dbl, void *x, const void *w,
                     const void *y)
{
    const int64_t cg = d->ic / d->g, kg = d->oc / d->g;
#pragma omp parallel for collapse(2) schedule(dynamic)
    for (int64_t n = 0; n < d->mb; n++)
        for (int64_t c = 0; c < d->ic; c++) {
            const int64_t grp = c / cg, cl = c % cg;
            for (int64_t i0 = 0; i0 < g->in[0]; i0++)
                for (int64_t i1 = 0; i1 < g->in[1]; i1++)
                    for (int64_t i2 = 0; i2 < g->in[2]; i2++) {
                        double acc = 0.0;
                        for (int64_t kk = 0; kk < kg; kk++) {
                            const int64_t k = grp * kg + kk;
                            for (int64_t t0 = 0; t0 < g->k[0]; t0++) {
                                int64_t o0 = out_coord(g, 0, i0, t0);
                                if (o0 < 0) continue;
                                for (int64_t t1 = 0; t1 < g->k[1]; t1++) {
                                    int64_t o1 = out_coord(g, 1, i1, t1);
                                    if (o1 < 0) continue;
                                    for (int64_t t2 = 0; t2 < g->k[2]; t2++) {
                                        int64_t o2 = out_coord(g, 2, i2, t2);
                                        if (o2 < 0) continue;
                                        acc += ld(y, dbl,
                                                  n * g->ys[0] + k * g->ys[1] + o0 * g->ys[2] +
                                                      o1 * g->ys[3] + o2 * g->ys[4]) *
                                               ld(w, dbl,
                                                  k * g->ws[0] + cl * g->ws[1] + t0 * g->ws[2] +
                                                      t1 * g->ws[3] + t2 * g->ws[4]);
                                    }
                                }
                            }
                        }
                        st(x, dbl,
                           n * g->xs[0] + c * g->xs[1] + i0 * g->xs[2] + i1 * g->xs[3] +
                               i2 * g->xs[4],
                           acc);
                    }
        }
}

static void bwd_filter(const conv_desc *d, const geom *g, bool dbl, const void *x, void *w,
                       const void *y)
{
    const int64_t cg = d->ic / d->g, kg = d->oc / d->g;
#pragma omp parallel for collapse(2) schedule(dynamic)
    for (int64_t k = 0; k < d->oc; k++)
        for (int64_t c = 0; c < cg; c++) {
            const int64_t cx = (k / kg) * cg + c;
            for (int64_t t0 = 0; t0 < g->k[0]; t0++)
                for (int64_t t1 = 0; t1 < g->k[1]; t1++)
                    for (int64_t t2 = 0; t2 < g->k[2]; t2++) {
                        double acc = 0.0;
                        for (int64_t n = 0; n < d->mb; n++)
                            for (int64_t o0 = 0; o0 < g->out[0]; o0++) {
                                int64_t i0 = in_coord(g, 0, o0, t0);
                                if (i0 < 0) continue;
                                for (int64_t o1 = 0; o1 < g->out[1]; o1++) {
                                    int64_t i1 = in_coord(g, 1, o1, t1);
                                    if (i1 < 0) continue;
                                    for (int64_t o2 = 0; o2 < g->out[2]; o2++) {
                                        int64_t i2 = in_coord(g, 2, o2, t2);
                                        if (i2 < 0) continue;
                                        acc += ld(x, dbl,
                                                  n * g->xs[0] + cx * g->xs[1] + i0 * g->xs[2] +
                                                      i1 * g->xs[3] + i2 * g->xs[4]) *
                                               ld(y, dbl,
                                                  n * g->ys[0] + k * g->ys[1] + o0 * g->ys[2] +
                                                      o1 * g->ys[3] + o2 * g->ys[4]);
                                    }
                                }
                            }
                        st(w, dbl,
                           k * g->ws[0] + c * g->ws[1] + t0 * g->ws[2] + t1 * g->ws[3] +
                               t2 * g->ws[4],
                           acc);
                    }
        }
}

void conv_oracle(const conv_desc *d, const conv_layout *l, bench_dir dir, bool dbl, void *x,
                 void *w, void *y, const void *bias)
{
    geom g;
    widen(d, l, &g);
    switch (dir) {
    case BENCH_FWD_D: fwd(d, &g, dbl, x, w, y, NULL); break;
    case BENCH_FWD_B: fwd(d, &g, dbl, x, w, y, bias); break;
    case BENCH_BWD_D: bwd_data(d, &g, dbl, x, w, y); break;
    case BENCH_BWD_W: bwd_filter(d, &g, dbl, x, w, y); break;
    }
}
