/* Winograd F(4x4, 3x3) and F(4x4, 5x5) engine: see conv_cpu_wino.h. */
#include <string.h>

#include "core/par.h"
#include "cpu/cache.h"
#include "ops/conv/cpu/conv_cpu_gemm.h" /* scratch arena */
#include "ops/conv/cpu/conv_cpu_wino.h"

/* ---- kernels */

#define WINO_SET(v, isa) WINO_SET_B(v, isa, NULL, NULL)
#define WINO_SET_B(v, isa, dzb, incol)                                                     \
    {PDNN_ISA_##isa##_ID,                                                                  \
     {pdnn_f32_wino##v##_in__##isa, pdnn_f32_wino##v##_flt__##isa,                         \
      pdnn_f32_wino##v##_out__##isa, pdnn_f32_wino##v##_dyt__##isa,                        \
      pdnn_f32_wino##v##_fltinv__##isa, pdnn_f32_wino##v##_deint__##isa},                  \
     {pdnn_f64_wino##v##_in__##isa, pdnn_f64_wino##v##_flt__##isa,                         \
      pdnn_f64_wino##v##_out__##isa, pdnn_f64_wino##v##_dyt__##isa,                        \
      pdnn_f64_wino##v##_fltinv__##isa, pdnn_f64_wino##v##_deint__##isa},                  \
     pdnn_f32_wino##v##_deintz__##isa, pdnn_f64_wino##v##_deintz__##isa,                    \
     pdnn_f32_wino##v##_inter__##isa, pdnn_f64_wino##v##_inter__##isa, dzb, incol,          \
     pdnn_f32_wino_gather__##isa}
#define PDNN_ISA_avx512_ID PDNN_ISA_AVX512
#define PDNN_ISA_avx2_ID PDNN_ISA_AVX2
#define PDNN_ISA_scalar_ID PDNN_ISA_SCALAR

/* Per variant (F(4x4, 3x3), F(4x4, 5x5)), best ISA first. */
static const pdnn_wino_kernels wino_kernels[2][3] = {
    {WINO_SET_B(4x3, avx512, pdnn_f32_wino4x3_deintzb__avx512, pdnn_f32_wino4x3_incol__avx512),
     WINO_SET(4x3, avx2), WINO_SET(4x3, scalar)},
    {WINO_SET(4x5, avx512), WINO_SET(4x5, avx2), WINO_SET(4x5, scalar)},
};

static const pdnn_wino_kernels *kernels_select(int r)
{
    const pdnn_isa isa = pdnn_cpu_isa();
    const pdnn_wino_kernels *k = wino_kernels[r == 5];
    for (int i = 0; i < 3; i++)
        if (k[i].isa <= isa) return &k[i];
    return &k[2];
}

void pdnn_wino_transform(const pdnn_wino_geom *g, pdnn_wino_op op, size_t n, const void *s,
                         ptrdiff_t ss, void *d, ptrdiff_t ds)
{
    if (g->es == sizeof(float))
        g->tk->f32[op](n, s, ss, d, ds);
    else
        g->tk->f64[op](n, s, ss, d, ds);
}

/* ---- problem */

bool pdnn_wino_supports(const pdnn_conv_problem *p, pdnn_conv_dir dir, int r,
                        const char **why)
{
    const bool r5 = r == 5;
    if (p->dir != dir) {
        *why = "wrong convolution direction";
        return false;
    }
    if (p->nsp != 2) {
        *why = r5 ? "Winograd F(4x4,5x5) computes 2-d convolutions only"
                  : "Winograd F(4x4,3x3) computes 2-d convolutions only";
        return false;
    }
    if (p->kern[0] != r || p->kern[1] != r) {
        *why = r5 ? "Winograd F(4x4,5x5) needs a 5x5 filter"
                  : "Winograd F(4x4,3x3) needs a 3x3 filter";
        return false;
    }
    if (p->stride[0] != 1 || p->stride[1] != 1) {
        *why = r5 ? "Winograd F(4x4,5x5) needs stride 1" : "Winograd F(4x4,3x3) needs stride 1";
        return false;
    }
    if (p->dil[0] != 1 || p->dil[1] != 1) {
        *why = r5 ? "Winograd F(4x4,5x5) needs dilation 1"
                  : "Winograd F(4x4,3x3) needs dilation 1";
        return false;
    }
    if (p->dtype != PDNN_DATA_FLOAT && p->dtype != PDNN_DATA_DOUBLE) {
        *why = "data type other than FLOAT or DOUBLE";
        return false;
    }
    if (p->compute != p->dtype) {
        *why = "accumulation type differs from the data type (FLOAT data, DOUBLE compute)";
        return false;
    }
    if (p->g < 1 || p->c % p->g || p->k % p->g) {
        *why = "channels not divisible by the group count";
        return false;
    }
    /* tile counts, padded channel counts and offsets stay far inside 64 bits */
    const int64_t lim = (int64_t)1 << 40;
    if (p->n > lim || p->c > lim || p->k > lim || p->in[0] > lim || p->in[1] > lim ||
        p->out[0] > lim || p->out[1] > lim || pdnn_conv_gemm_mul3(p->n, p->out[0], p->out[1]) < 0 ||
        pdnn_conv_gemm_mul3(p->n, p->in[0], p->in[1]) < 0) {
        *why = "sizes overflow 64 bits";
        return false;
    }
    return true;
}

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

void pdnn_wino_geom_init(const pdnn_conv_problem *p, pdnn_wino_geom *g)
{
    memset(g, 0, sizeof *g);
    g->r = p->nsp == 2 && p->kern[0] == 5 && p->kern[1] == 5 ? 5 : 3;
    g->alpha = 4 + g->r - 1;
    g->xi = g->alpha * g->alpha;
    g->uk = pdnn_gemm_ukernel_select(p->dtype);
    g->tk = kernels_select(g->r);
    g->es = p->dtype == PDNN_DATA_DOUBLE ? sizeof(double) : sizeof(float);
    g->n = p->n;
    g->g = p->g;
    const int64_t cg = p->c / p->g, kg = p->k / p->g;
    g->wrs = p->ws[2];
    g->wss = p->ws[3];
    g->wgs = kg * p->ws[0];
    if (p->dir == PDNN_CONV_BWD_DATA) {
        /* dx = conv(dy, w rotated, K and C swapped), padding r - 1 - pad */
        g->cg = kg;
        g->kg = cg;
        g->ih = p->out[0];
        g->iw = p->out[1];
        g->oh = p->in[0];
        g->ow = p->in[1];
        g->ph = g->r - 1 - p->pad_b[0];
        g->pw = g->r - 1 - p->pad_b[1];
        for (int i = 0; i < 4; i++) g->xs[i] = p->ys[i], g->ys[i] = p->xs[i];
        g->wos = p->ws[1];
        g->wis = p->ws[0];
        g->rot = !p->flip;
    } else {
        /* forward: x -> y; backward filter: x and dy, the tiles over dy */
        g->cg = cg;
        g->kg = kg;
        g->ih = p->in[0];
        g->iw = p->in[1];
        g->oh = p->out[0];
        g->ow = p->out[1];
        g->ph = p->pad_b[0];
        g->pw = p->pad_b[1];
        for (int i = 0; i < 4; i++) g->xs[i] = p->xs[i], g->ys[i] = p->ys[i];
        g->wos = p->ws[0];
        g->wis = p->ws[1];
        g->rot = p->flip;
    }
    g->th = cdiv(g->oh, 4);
    g->tw = cdiv(g->ow, 4);
    g->tpi = g->th * g->tw;
    g->ntiles = g->n * g->tpi;
}

/* ---- element access: es is a compile-time constant after inlining */

#define PDNN_INLINE static inline __attribute__((always_inline))

/* y = r + beta y along a strided row (y never read when beta == 0): the blend of the
 * output rows whose columns are not contiguous (unit-stride rows take the transform
 * set's inter kernel, which blends). */
#define WINO_BLEND(T, sfx)                                                                  \
    static void blend_##sfx(int64_t n, const T *restrict r, T *restrict y, int64_t ys,      \
                            T beta)                                                         \
    {                                                                                       \
        if (beta == 0)                                                                      \
            for (int64_t k = 0; k < n; k++) y[k * ys] = r[k];                               \
        else                                                                                \
            for (int64_t k = 0; k < n; k++) y[k * ys] = r[k] + beta * y[k * ys];            \
    }
WINO_BLEND(float, f32)
WINO_BLEND(double, f64)

/* Prefetch of the cache lines of bytes [p, p + n): for reading into L2 (rw 0) or for
 * writing (1). */
static inline void prefetch_row(const char *p, int64_t n, int rw)
{
    for (int64_t k = 0; k < n; k += 64) {
        if (rw)
            __builtin_prefetch(p + k, 1);
        else
            __builtin_prefetch(p + k, 0, 2);
    }
    if (rw)
        __builtin_prefetch(p + n - 1, 1);
    else
        __builtin_prefetch(p + n - 1, 0, 2);
}

/* A run of lanes: consecutive tiles of one tile row (image n, row ty, columns tx ..). */
typedef struct {
    int64_t n, ty, tx, len;
} wino_run;

/* The run starting at tile t, at most max lanes. */
static wino_run run_at(const pdnn_wino_geom *g, int64_t t, int64_t max)
{
    wino_run r;
    const int64_t rem = t % g->tpi;
    r.n = t / g->tpi;
    r.ty = rem / g->tw;
    r.tx = rem % g->tw;
    r.len = g->tw - r.tx < max ? g->tw - r.tx : max;
    return r;
}

/* One row of a run: 4 columns per tile plus the alpha - 4 the last window reads beyond. */
typedef union {
    double d[4 * PDNN_GEMM_NR_MAX + PDNN_WINO_ALPHA_MAX - 4];
    float f[4 * PDNN_GEMM_NR_MAX + PDNN_WINO_ALPHA_MAX - 4];
} wino_row;

/* alpha rows of a run, for the rows cut by the padding. */
#define WINO_ROW_LEN (4 * PDNN_GEMM_NR_MAX + PDNN_WINO_ALPHA_MAX - 4)
typedef union {
    double d[PDNN_WINO_ALPHA_MAX * WINO_ROW_LEN];
    float f[PDNN_WINO_ALPHA_MAX * WINO_ROW_LEN];
} wino_rows;

/* Zeros read in place of the input rows outside x. */
static const wino_row zero_row;

/* The alpha x alpha windows of tiles tile0 .. tile0 + nr - 1 of input channel cc into D
 * (element k of lane l at D[k * nr + l]); lanes past the last tile and the padding are
 * zeros. Per run of tiles of one tile row: with unit-stride rows in x, one call of the
 * deintz kernel deals the run's window rows to the lanes straight from x (the rows and
 * columns outside x read as zeros); other strides first copy each row into a row buffer
 * whose columns outside x are zeros (written only when the run's column range differs
 * from the previous run's), then deal it. */
PDNN_INLINE void gather_in(const pdnn_wino_geom *g, const char *x, int64_t cc, int64_t tile0,
                           int nr, char *D, size_t es)
{
    wino_rows rb;
    int64_t rb_w0 = 0, rb_wn = -1; /* the columns rb's zeros were written for */
    const int64_t nl = g->ntiles - tile0 < nr ? g->ntiles - tile0 : nr;
    const int a = g->alpha;
    const bool unit = g->xs[3] == 1;
    for (int64_t l = 0; l < nl;) {
        const wino_run r = run_at(g, tile0 + l, nl - l);
        const int64_t coff = r.n * g->xs[0] + cc * g->xs[1];
        const int64_t h0 = 4 * r.ty - g->ph, w0 = 4 * r.tx - g->pw;
        const int64_t wn = 4 * r.len + a - 4; /* columns w0 .. w0 + wn - 1 */
        int64_t pa = w0 > 0 ? w0 : 0, pb = w0 + wn < g->iw ? w0 + wn : g->iw;
        if (pb < pa) pb = pa; /* x columns [pa, pb) inside the run's */
        if (unit) {
            /* window rows [r0, r1) inside x */
            const int64_t r0 = h0 < 0 ? -h0 : 0;
            int64_t r1 = g->ih - h0 < a ? g->ih - h0 : a;
            if (r1 < r0) r1 = r0;
            const char *xr = r1 > r0 ? x + (coff + (h0 + r0) * g->xs[2] + pa) * (int64_t)es : x;
            if (pb > pa && cc + 1 < g->g * g->cg) /* the next unit's */
                for (int64_t i = r0; i < r1; i++)
                    prefetch_row(xr + (g->xs[1] + (i - r0) * g->xs[2]) * (int64_t)es,
                                 (pb - pa) * (int64_t)es, 0);
            char *dl = D + l * (int64_t)es;
            if (es == sizeof(float))
                (g->tk->f32_deintzb ? g->tk->f32_deintzb : g->tk->f32_deintz)(
                    (size_t)r.len, (const float *)xr, g->xs[2], r0, r1, pa - w0, pb - w0,
                    (float *)dl, nr);
            else
                g->tk->f64_deintz((size_t)r.len, (const double *)xr, g->xs[2], r0, r1, pa - w0,
                                  pb - w0, (double *)dl, nr);
            l += r.len;
            continue;
        }
        if (w0 != rb_w0 || wn != rb_wn) {
            for (int i = 0; i < a; i++) {
                char *row = (char *)&rb + i * WINO_ROW_LEN * (int64_t)es;
                for (int64_t c = 0; c < pa - w0; c++) pdnn_wino_zero_el(row, c, es);
                for (int64_t c = pb - w0; c < wn; c++) pdnn_wino_zero_el(row, c, es);
            }
            rb_w0 = w0;
            rb_wn = wn;
        }
        const char *src[PDNN_WINO_ALPHA_MAX];
        /* first every row of the run, then the deals: a row is not reloaded right after
         * its copy (store-forwarding stalls) */
        for (int i = 0; i < a; i++) {
            const int64_t h = h0 + i;
            if (h < 0 || h >= g->ih) {
                src[i] = (const char *)&zero_row;
                continue;
            }
            const char *xr = x + (coff + h * g->xs[2]) * (int64_t)es;
            char *row = (char *)&rb + i * WINO_ROW_LEN * (int64_t)es;
            char *d = row + (pa - w0) * (int64_t)es;
            for (int64_t c = 0; c < pb - pa; c++)
                pdnn_wino_copy_el(d, c, xr, (pa + c) * g->xs[3], es);
            src[i] = row;
        }
        for (int i = 0; i < a; i++)
            pdnn_wino_transform(g, PDNN_WINO_DEINT, (size_t)r.len, src[i], 4,
                                D + (a * i * nr + l) * (int64_t)es, nr);
        l += r.len;
    }
    for (int k = 0; k < g->xi; k++)
        for (int64_t l = nl; l < nr; l++) pdnn_wino_zero_el(D, k * nr + l, es);
}

/* Blends the 4x4 output tiles O (element k of lane l at O[k * nr + l]) of tiles
 * tile0 .. tile0 + nl - 1 into output channel kk: y = alpha * O + beta * y. Per run of
 * tiles of one tile row: where y's columns are contiguous, one call of the transform
 * set's inter kernel deals the run's output rows (up to 4: the bottom edge) straight into
 * y (the last tile cut by the right edge included); else per row into a row buffer,
 * then blended. */
PDNN_INLINE void scatter_out(const pdnn_wino_geom *g, const char *O, int64_t kk,
                             int64_t tile0, int64_t nl, int nr, char *y, double alpha,
                             double beta, size_t es)
{
    wino_row rb;
    const bool direct = g->ys[3] == 1;
    for (int64_t l = 0; l < nl;) {
        const wino_run r = run_at(g, tile0 + l, nl - l);
        const int64_t w0 = 4 * r.tx;
        const int64_t wc = g->ow - w0 < 4 * r.len ? g->ow - w0 : 4 * r.len;
        const int64_t nrow = g->oh - 4 * r.ty < 4 ? g->oh - 4 * r.ty : 4;
        const int64_t off = r.n * g->ys[0] + kk * g->ys[1] + 4 * r.ty * g->ys[2] + w0 * g->ys[3];
        if (direct) {
            if (kk + 1 < g->g * g->kg) /* the next unit's rows */
                for (int64_t i = 0; i < nrow; i++)
                    prefetch_row(y + (off + g->ys[1] + i * g->ys[2]) * (int64_t)es,
                                 wc * (int64_t)es, 1);
            if (es == sizeof(float))
                g->tk->f32_inter((size_t)wc, (size_t)nrow, (const float *)O + l, nr,
                                 (float *)y + off, g->ys[2], (float)alpha, (float)beta);
            else
                g->tk->f64_inter((size_t)wc, (size_t)nrow, (const double *)O + l, nr,
                                 (double *)y + off, g->ys[2], alpha, beta);
            l += r.len;
            continue;
        }
        for (int64_t i = 0; i < nrow; i++) {
            const int64_t oi = off + i * g->ys[2];
            if (es == sizeof(float)) {
                g->tk->f32_inter((size_t)wc, 1, (const float *)O + 4 * i * nr + l, nr, rb.f, 0,
                                 (float)alpha, 0.0f);
                blend_f32(wc, rb.f, (float *)y + oi, g->ys[3], (float)beta);
            } else {
                g->tk->f64_inter((size_t)wc, 1, (const double *)O + 4 * i * nr + l, nr, rb.d, 0,
                                 alpha, 0.0);
                blend_f64(wc, rb.d, (double *)y + oi, g->ys[3], beta);
            }
        }
        l += r.len;
    }
}

/* Scratch of one transform call on a thread's stack: alpha^2 rows of the widest panel. */
typedef union {
    double d[PDNN_WINO_XI_MAX * PDNN_GEMM_NR_MAX];
    float f[PDNN_WINO_XI_MAX * PDNN_GEMM_NR_MAX];
} wino_lanes;

void pdnn_wino_input_unit(const pdnn_wino_geom *g, const void *x, int64_t cc, int64_t tile0,
                          void *dst, int64_t dxs)
{
    wino_lanes D;
    const int nr = g->uk->nr;
    if (g->es == sizeof(float))
        gather_in(g, x, cc, tile0, nr, (char *)D.f, sizeof(float));
    else
        gather_in(g, x, cc, tile0, nr, (char *)D.d, sizeof(double));
    if (g->es == sizeof(float) && g->xs[3] == 1 && g->tk->f32_incol) /* D holds D B */
        g->tk->f32_incol((size_t)nr, D.f, nr, dst, dxs);
    else
        pdnn_wino_transform(g, PDNN_WINO_IN, (size_t)nr, &D, nr, dst, dxs);
}

/* ---- filter transform */

/* The f32 taps of a chunk's ne lanes (the first: input channel i, output channel
 * p * panel + oo) through the ISA's gather kernel, tap k of lane l at d[k * L + l];
 * false (nothing written) when an offset would not fit the kernel's int32. */
static bool gather_unit(const pdnn_wino_geom *g, const float *w, int64_t grp, int64_t p,
                        int64_t i, int64_t oo, int64_t ne, int panel, const int64_t *toff,
                        float *d, int L)
{
    int32_t off[64], t32[PDNN_WINO_R_MAX * PDNN_WINO_R_MAX];
    const int ntap = g->r * g->r;
    int64_t tmin = 0, tmax = 0;
    for (int k = 0; k < ntap; k++) {
        tmin = toff[k] < tmin ? toff[k] : tmin;
        tmax = toff[k] > tmax ? toff[k] : tmax;
    }
    if (tmin < INT32_MIN / 2 || tmax > INT32_MAX / 2 || ne > 64) return false;
    for (int64_t l = 0; l < ne; l++) {
        const int64_t o = p * panel + oo;
        const int64_t off64 = grp * g->wgs + o * g->wos + i * g->wis;
        if (o >= g->kg)
            off[l] = -1;
        else if (off64 + tmin < 0 || off64 > INT32_MAX / 2)
            return false;
        else
            off[l] = (int32_t)off64;
        if (++oo == panel) {
            oo = 0;
            i++;
        }
    }
    for (int k = 0; k < ntap; k++) t32[k] = (int32_t)toff[k];
    g->tk->f32_gather((size_t)ne, w, off, t32, (size_t)ntap, d, L);
    return true;
}

/* One chunk of one packed panel of U: lanes e = chunk * 64 .. of panel p (element e is
 * (input channel e / panel, output channel p * panel + e % panel), the panel's memory
 * order), so the transform writes each xi's part contiguously. Output channels past Kg
 * get zeros. */
PDNN_INLINE void filter_unit_t(const pdnn_wino_geom *g, const char *w, int64_t grp, int64_t p,
                               int64_t chunk, int panel, char *dst, int64_t dxs, size_t es)
{
    enum { L = 64 };
    union {
        double d[PDNN_WINO_R_MAX * PDNN_WINO_R_MAX * L];
        float f[PDNN_WINO_R_MAX * PDNN_WINO_R_MAX * L];
    } G;
    char *gp = (char *)&G;
    const int R = g->r, ntap = R * R;
    int64_t toff[PDNN_WINO_R_MAX * PDNN_WINO_R_MAX];
    for (int r = 0; r < R; r++)
        for (int s = 0; s < R; s++)
            toff[R * r + s] =
                (g->rot ? R - 1 - r : r) * g->wrs + (g->rot ? R - 1 - s : s) * g->wss;
    const int64_t e0 = chunk * L, ne = g->cg * panel - e0 < L ? g->cg * panel - e0 : L;
    /* lane l: input channel i, output channel o (counters, no division per lane) */
    int64_t i = e0 / panel, oo = e0 % panel;
    if (e0 + L < g->cg * panel) { /* the next chunk's filter taps (scattered in backward
                                   * data's filter: K and C swapped) */
        const int64_t i1 = (e0 + L) / panel, i2 = (e0 + 2 * L - 1) / panel;
        const int64_t oa = p * panel, ob = (p + 1) * panel < g->kg ? (p + 1) * panel : g->kg;
        for (int64_t ii = i1; ii <= i2 && ii < g->cg; ii++)
            for (int64_t o = oa; o < ob; o++) {
                const char *q = w + (grp * g->wgs + o * g->wos + ii * g->wis) * (int64_t)es;
                __builtin_prefetch(q + toff[0] * (int64_t)es, 0, 2);
                __builtin_prefetch(q + toff[ntap - 1] * (int64_t)es, 0, 2);
            }
    }
    const bool gathered = es == sizeof(float) && gather_unit(g, (const float *)w, grp, p, i,
                                                             oo, ne, panel, toff,
                                                             (float *)gp, L);
    for (int64_t l = 0; l < (gathered ? 0 : ne); l++) {
        const int64_t o = p * panel + oo;
        const int64_t off = grp * g->wgs + o * g->wos + i * g->wis;
        if (o >= g->kg)
            for (int k = 0; k < ntap; k++) pdnn_wino_zero_el(gp, k * L + l, es);
        else
            for (int k = 0; k < ntap; k++) pdnn_wino_copy_el(gp, k * L + l, w, off + toff[k], es);
        if (++oo == panel) {
            oo = 0;
            i++;
        }
    }
    pdnn_wino_transform(g, PDNN_WINO_FLT, (size_t)ne, gp, L, dst, dxs);
}

void pdnn_wino_filter_unit_at(const pdnn_wino_geom *g, const void *w, int64_t grp, int64_t p,
                              int64_t chunk, int panel, void *dst, int64_t dxs)
{
    if (g->es == sizeof(float))
        filter_unit_t(g, w, grp, p, chunk, panel, dst, dxs, sizeof(float));
    else
        filter_unit_t(g, w, grp, p, chunk, panel, dst, dxs, sizeof(double));
}

void pdnn_wino_filter_unit(const pdnn_wino_geom *g, const void *w, int64_t grp, int64_t p,
                           int64_t chunk, int panel, void *u, int64_t ups)
{
    pdnn_wino_filter_unit_at(
        g, w, grp, p, chunk, panel,
        (char *)u + (grp * g->xi * ups + p * g->cg * panel + chunk * 64) * (int64_t)g->es, ups);
}

void pdnn_wino_filter(const pdnn_wino_geom *g, const void *w, int panel, void *u, int64_t ups)
{
    const int64_t np = cdiv(g->kg, panel), nc = cdiv(g->cg * panel, 64);
#pragma omp for schedule(static)
    for (int64_t i = 0; i < g->g * np * nc; i++)
        pdnn_wino_filter_unit(g, w, i / (np * nc), (i / nc) % np, i % nc, panel, u, ups);
}

/* ---- forward-style convolution */

typedef struct {
    int64_t nq;   /* panels of tiles per block */
    bool own;     /* a panel's data fits one core's L2: threads take whole panels */
    int64_t nbp;  /* tiles per block (nq * nr) */
    int64_t ups;  /* elements of U per (group, xi): A panels of Kg x Cg */
    int64_t vxs;  /* elements of a panel's V per xi: B panels, [group][Cg][nr] */
    int64_t mxs;  /* elements of a panel's M per xi: [group][Kg][nr] */
    int64_t vps, mps; /* elements of one panel's V and M (every xi): panels one after
                       * the other, so a panel's data is contiguous */
    char *u, *v, *m;
} conv_bufs;

/* Panels a block holds at least when a panel's transformed tiles and products fit one
 * core's L2: with at least as many panels as threads, each thread runs whole panels
 * through the three stages (conv_run_t) and a panel's data stays in its core's cache
 * (ResNet-50 res2a_branch2b, 64 -> 64 channels, mb32 2 threads: 14.5 -> 10.6 ms). Larger
 * panels (more channels) measured slower that way (VGG-16 conv4_1, 256 -> 512: 58 ->
 * 72 ms): two panels' data then compete for the shared L3; the threads share one panel
 * there, stage by stage. */
#define WINO_MIN_PANELS 2

static void conv_layout(const pdnn_wino_geom *g, bool fused, pdnn_conv_gemm_arena *a,
                        conv_bufs *b)
{
    const int mr = g->uk->mr, nr = g->uk->nr;
    const int64_t C = g->g * g->cg, K = g->g * g->kg;
    const int64_t col = pdnn_conv_gemm_mul3(g->xi, C + K, (int64_t)g->es); /* bytes per tile */
    const size_t budget = fused ? pdnn_cpu_cache_sizes()->l2 : PDNN_WINO_NONFUSED_BYTES;
    int64_t nq = col > 0 ? (int64_t)(budget / (size_t)col) / nr : 1;
    const int64_t qmax = cdiv(g->ntiles, nr);
    b->own = col > 0 && (size_t)col * (size_t)nr <= pdnn_cpu_cache_sizes()->l2;
    if (b->own && nq < WINO_MIN_PANELS) nq = WINO_MIN_PANELS; /* panels for the threads */
    if (nq > qmax) nq = qmax;
    if (nq < 1) nq = 1;
    b->nq = nq;
    b->nbp = nq * nr;
    b->ups = pdnn_wino_xi_stride(pdnn_conv_gemm_mul3(cdiv(g->kg, mr) * mr, g->cg, 1), g->es);
    b->vxs = pdnn_wino_xi_stride(pdnn_conv_gemm_mul3(g->g, g->cg, nr), g->es);
    b->mxs = pdnn_wino_xi_stride(pdnn_conv_gemm_mul3(g->g, g->kg, nr), g->es);
    b->vps = b->vxs < 0 ? -1 : pdnn_conv_gemm_mul3(g->xi, b->vxs, 1);
    b->mps = b->mxs < 0 ? -1 : pdnn_conv_gemm_mul3(g->xi, b->mxs, 1);
    b->u = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->g, g->xi, b->ups), g->es);
    b->v = pdnn_conv_gemm_take(a, b->vps < 0 ? -1 : pdnn_conv_gemm_mul3(nq, b->vps, 1), g->es);
    b->m = pdnn_conv_gemm_take(a, b->mps < 0 ? -1 : pdnn_conv_gemm_mul3(nq, b->mps, 1), g->es);
}

size_t pdnn_wino_conv_workspace(const pdnn_conv_problem *p, bool fused)
{
    pdnn_wino_geom g;
    pdnn_wino_geom_init(p, &g);
    if (pdnn_wino_channel_lanes(&g)) return pdnn_wino_cl_workspace(&g, fused);
    if (pdnn_wino_cl_transposed(&g)) return pdnn_wino_clt_workspace(&g, fused);
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    conv_bufs b;
    conv_layout(&g, fused, &a, &b);
    return pdnn_conv_gemm_arena_bytes(&a);
}

/* Output transform of output channel kk (all groups) for panel q of the block starting
 * at tile tb0 (its products in panel slot sl), blended into y. */
PDNN_INLINE void output_unit(const pdnn_wino_geom *g, const conv_bufs *b, char *y, int64_t kk,
                             int64_t tb0, int64_t q, int64_t sl, double alpha, double beta,
                             size_t es)
{
    wino_lanes O;
    const int nr = g->uk->nr;
    const int64_t t0 = tb0 + q * nr;
    const int64_t nl = g->ntiles - t0 < nr ? g->ntiles - t0 : nr;
    if (nl <= 0) return;
    const char *m = b->m + (sl * b->mps + kk * nr) * (int64_t)es;
    pdnn_wino_transform(g, PDNN_WINO_OUT, (size_t)nl, m, b->mxs, &O, nr);
    scatter_out(g, (const char *)&O, kk, t0, nl, nr, y, alpha, beta, es);
}

/* The GEMMs of panel q of the block at tb0 (its data in panel slot sl) for transform
 * point xi and group grp. */
PDNN_INLINE void panel_gemm(const pdnn_wino_geom *g, const conv_bufs *b, int64_t tb0, int64_t q,
                            int64_t sl, int64_t grp, int64_t xi, size_t es)
{
    const int nr = g->uk->nr, mr = g->uk->mr;
    const int64_t t0 = tb0 + q * nr;
    const int64_t nl = g->ntiles - t0 < nr ? g->ntiles - t0 : nr;
    pdnn_gemm_macro(g->uk, g->kg, nl, g->cg, b->u + (grp * g->xi + xi) * b->ups * (int64_t)es,
                    g->cg * mr, b->v + (sl * b->vps + xi * b->vxs + grp * g->cg * nr) * (int64_t)es,
                    g->cg * nr, b->m + (sl * b->mps + xi * b->mxs + grp * g->kg * nr) * (int64_t)es,
                    nr, 1, NULL, 1.0, 0.0);
}

/* The three stages of each block of tiles [tb0, tb0 + nbp), the caller's threads
 * sharing the work ("omp for" inside a parallel region). When a panel's data fits a
 * core's L2 and a block has at least as many panels as threads, each thread takes whole
 * panels through the three stages (one barrier a block; a panel's data stays in its
 * core's cache); otherwise the threads split each stage's units, with a barrier between
 * the stages. Each unit is the same work either way, so the results are the same. */
PDNN_INLINE void conv_run_t(const pdnn_wino_geom *g, const conv_bufs *b, const char *x,
                            const char *w, char *y, double alpha, double beta, size_t es)
{
    const int nr = g->uk->nr, mr = g->uk->mr;
    const int64_t C = g->g * g->cg, K = g->g * g->kg, nq = b->nq;
    const int64_t nblk = cdiv(g->ntiles, b->nbp);
    pdnn_wino_filter(g, w, mr, b->u, b->ups);
    const int nt = omp_get_num_threads();
    if (b->own && nq >= nt) {
        /* panel q in thread q % nt, its data in that thread's slot (the panel
         * slot q % nt, the same for all its panels: one panel's worth of memory a thread) */
        for (int64_t blk = 0; blk < nblk; blk++) {
            const int64_t tb0 = blk * b->nbp;
#pragma omp for schedule(static, 1)
            for (int64_t q = 0; q < nq; q++) {
                if (tb0 + q * nr >= g->ntiles) continue;
                const int64_t sl = q % nt;
                for (int64_t cc = 0; cc < C; cc++)
                    pdnn_wino_input_unit(g, x, cc, tb0 + q * nr,
                                         b->v + (sl * b->vps + cc * nr) * (int64_t)es, b->vxs);
                for (int64_t xi = 0; xi < g->xi; xi++)
                    for (int64_t grp = 0; grp < g->g; grp++)
                        panel_gemm(g, b, tb0, q, sl, grp, xi, es);
                for (int64_t kk = 0; kk < K; kk++)
                    output_unit(g, b, y, kk, tb0, q, sl, alpha, beta, es);
            }
        }
        return;
    }
    for (int64_t blk = 0; blk < nblk; blk++) {
        const int64_t tb0 = blk * b->nbp;
#pragma omp for schedule(static)
        for (int64_t i = 0; i < C * nq; i++) {
            const int64_t cc = i / nq, q = i % nq, grp = cc / g->cg, c = cc % g->cg;
            if (tb0 + q * nr >= g->ntiles) continue;
            pdnn_wino_input_unit(g, x, cc, tb0 + q * nr,
                                 b->v + (q * b->vps + (grp * g->cg + c) * nr) * (int64_t)es, b->vxs);
        }
#pragma omp for schedule(static)
        for (int64_t i = 0; i < g->xi * g->g * nq; i++) {
            const int64_t q = i % nq, grp = (i / nq) % g->g, xi = i / (nq * g->g);
            if (tb0 + q * nr >= g->ntiles) continue;
            panel_gemm(g, b, tb0, q, q, grp, xi, es);
        }
#pragma omp for schedule(static)
        for (int64_t i = 0; i < K * nq; i++)
            output_unit(g, b, y, i / nq, tb0, i % nq, i % nq, alpha, beta, es);
    }
}

pdnnStatus_t pdnn_wino_conv_exec(const pdnn_conv_problem *p, const pdnn_conv_args *a,
                                 const pdnn_ctx *ctx, bool fused)
{
    pdnn_wino_geom g;
    pdnn_wino_geom_init(p, &g);
    if (g.ntiles == 0 || g.kg == 0) return PDNN_STATUS_SUCCESS; /* the output is empty */
    /* the GEMMs' multiply-adds; several barriers per block cost more below the limit */
    const double work = (double)g.xi * (double)(g.g * g.cg + 1) * (double)g.kg * (double)g.ntiles;
    const int nt = pdnn_par_threads(ctx->nthreads, g.ntiles * g.g * g.kg, work, PDNN_WINO_MIN_WORK);
    if (pdnn_wino_channel_lanes(&g)) {
        pdnn_wino_cl_run(&g, fused, a, nt, ctx->ws);
        return PDNN_STATUS_SUCCESS;
    }
    if (pdnn_wino_cl_transposed(&g)) {
        pdnn_wino_clt_run(&g, fused, a, nt, ctx->ws);
        return PDNN_STATUS_SUCCESS;
    }
    pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ctx->ws);
    conv_bufs b;
    conv_layout(&g, fused, &ar, &b);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        if (g.es == sizeof(float))
            conv_run_t(&g, &b, a->src, a->wei, a->dst, a->alpha, a->beta, sizeof(float));
        else
            conv_run_t(&g, &b, a->src, a->wei, a->dst, a->alpha, a->beta, sizeof(double));
    }
    return PDNN_STATUS_SUCCESS;
}
