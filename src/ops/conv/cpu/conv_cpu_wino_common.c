/* Winograd F(4x4, 3x3) engine: see conv_cpu_wino.h. */
#include <string.h>

#include "core/par.h"
#include "cpu/cache.h"
#include "ops/conv/cpu/conv_cpu_gemm.h" /* scratch arena */
#include "ops/conv/cpu/conv_cpu_wino.h"

#define XI 36 /* elements of a transformed tile */
/* V + M bytes of a non-fused block (at least one panel of tiles). */
#define NONFUSED_BLOCK_BYTES ((size_t)16 << 20)

/* ---- kernels */

#define WINO_SET(isa)                                                                      \
    {PDNN_ISA_##isa##_ID,                                                                  \
     {pdnn_f32_wino4x3_in__##isa, pdnn_f32_wino4x3_flt__##isa, pdnn_f32_wino4x3_out__##isa, \
      pdnn_f32_wino4x3_dyt__##isa, pdnn_f32_wino4x3_fltinv__##isa},                         \
     {pdnn_f64_wino4x3_in__##isa, pdnn_f64_wino4x3_flt__##isa, pdnn_f64_wino4x3_out__##isa, \
      pdnn_f64_wino4x3_dyt__##isa, pdnn_f64_wino4x3_fltinv__##isa}}
#define PDNN_ISA_avx512_ID PDNN_ISA_AVX512
#define PDNN_ISA_avx2_ID PDNN_ISA_AVX2
#define PDNN_ISA_scalar_ID PDNN_ISA_SCALAR

static const pdnn_wino_kernels wino_kernels[] = {WINO_SET(avx512), WINO_SET(avx2),
                                                 WINO_SET(scalar)};

static const pdnn_wino_kernels *kernels_select(void)
{
    const pdnn_isa isa = pdnn_cpu_isa();
    const size_t nk = sizeof wino_kernels / sizeof wino_kernels[0];
    for (size_t i = 0; i < nk; i++)
        if (wino_kernels[i].isa <= isa) return &wino_kernels[i];
    return &wino_kernels[nk - 1];
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

bool pdnn_wino_supports(const pdnn_conv_problem *p, pdnn_conv_dir dir, const char **why)
{
    if (p->dir != dir) {
        *why = "wrong convolution direction";
        return false;
    }
    if (p->nsp != 2) {
        *why = "Winograd F(4x4,3x3) computes 2-d convolutions only";
        return false;
    }
    if (p->kern[0] != 3 || p->kern[1] != 3) {
        *why = "Winograd F(4x4,3x3) needs a 3x3 filter";
        return false;
    }
    if (p->stride[0] != 1 || p->stride[1] != 1) {
        *why = "Winograd F(4x4,3x3) needs stride 1";
        return false;
    }
    if (p->dil[0] != 1 || p->dil[1] != 1) {
        *why = "Winograd F(4x4,3x3) needs dilation 1";
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
    g->uk = pdnn_gemm_ukernel_select(p->dtype);
    g->tk = kernels_select();
    g->es = p->dtype == PDNN_DATA_DOUBLE ? sizeof(double) : sizeof(float);
    g->n = p->n;
    g->g = p->g;
    const int64_t cg = p->c / p->g, kg = p->k / p->g;
    g->wrs = p->ws[2];
    g->wss = p->ws[3];
    g->wgs = kg * p->ws[0];
    if (p->dir == PDNN_CONV_BWD_DATA) {
        /* dx = conv(dy, w rotated, K and C swapped), padding 2 - pad */
        g->cg = kg;
        g->kg = cg;
        g->ih = p->out[0];
        g->iw = p->out[1];
        g->oh = p->in[0];
        g->ow = p->in[1];
        g->ph = 2 - p->pad_b[0];
        g->pw = 2 - p->pad_b[1];
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

static uint8_t clamp6(int64_t v) { return (uint8_t)(v < 0 ? 0 : v > 6 ? 6 : v); }

void pdnn_wino_tiles(const pdnn_wino_geom *g, int64_t t0, int64_t t1, pdnn_wino_tile *tab)
{
    for (int64_t t = t0; t < t1; t++) {
        const int64_t n = t / g->tpi, r = t % g->tpi, ty = r / g->tw, tx = r % g->tw;
        const int64_t h0 = 4 * ty - g->ph, w0 = 4 * tx - g->pw;
        pdnn_wino_tile *e = &tab[t - t0];
        e->xo = n * g->xs[0] + h0 * g->xs[2] + w0 * g->xs[3];
        e->yo = n * g->ys[0] + 4 * ty * g->ys[2] + 4 * tx * g->ys[3];
        e->i0 = clamp6(-h0);
        e->i1 = clamp6(g->ih - h0);
        e->j0 = clamp6(-w0);
        e->j1 = clamp6(g->iw - w0);
        if (e->i1 < e->i0) e->i1 = e->i0;
        if (e->j1 < e->j0) e->j1 = e->j0;
        e->oi = (uint8_t)(g->oh - 4 * ty < 4 ? g->oh - 4 * ty : 4);
        e->oj = (uint8_t)(g->ow - 4 * tx < 4 ? g->ow - 4 * tx : 4);
    }
}

/* ---- element access: es is a compile-time constant after inlining */

#define PDNN_INLINE static inline __attribute__((always_inline))

PDNN_INLINE void copy_el(char *d, int64_t di, const char *s, int64_t si, size_t es)
{
    if (es == sizeof(float))
        ((float *)d)[di] = ((const float *)s)[si];
    else
        ((double *)d)[di] = ((const double *)s)[si];
}

PDNN_INLINE void zero_el(char *d, int64_t di, size_t es)
{
    if (es == sizeof(float))
        ((float *)d)[di] = 0.0f;
    else
        ((double *)d)[di] = 0.0;
}

/* d[di] = alpha * s[si] + beta * d[di] in the element type (d unread when beta == 0) */
PDNN_INLINE void blend_el(char *d, int64_t di, const char *s, int64_t si, double alpha,
                          double beta, size_t es)
{
    if (es == sizeof(float)) {
        float v = (float)alpha * ((const float *)s)[si];
        if (beta != 0.0) v += (float)beta * ((float *)d)[di];
        ((float *)d)[di] = v;
    } else {
        double v = alpha * ((const double *)s)[si];
        if (beta != 0.0) v += beta * ((double *)d)[di];
        ((double *)d)[di] = v;
    }
}

/* The 6x6 windows of tiles tile0 .. tile0 + nr - 1 of input channel cc into D (element
 * k of lane l at D[k * nr + l]); lanes past the last tile and the padding are zeros. */
PDNN_INLINE void gather_in(const pdnn_wino_geom *g, const pdnn_wino_tile *tab, const char *x,
                           int64_t cc, int64_t tile0, int nr, char *D, size_t es)
{
    const int64_t coff = cc * g->xs[1], hs = g->xs[2], ws = g->xs[3];
    const int64_t nl = g->ntiles - tile0 < nr ? g->ntiles - tile0 : nr;
    for (int l = 0; l < nr; l++) {
        if (l >= nl) {
            for (int k = 0; k < XI; k++) zero_el(D, k * nr + l, es);
            continue;
        }
        const pdnn_wino_tile *e = &tab[tile0 + l];
        const int64_t base = e->xo + coff;
        if (e->i0 == 0 && e->i1 == 6 && e->j0 == 0 && e->j1 == 6) {
            for (int i = 0; i < 6; i++)
                for (int j = 0; j < 6; j++)
                    copy_el(D, (6 * i + j) * nr + l, x, base + i * hs + j * ws, es);
            continue;
        }
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 6; j++) {
                if (i >= e->i0 && i < e->i1 && j >= e->j0 && j < e->j1)
                    copy_el(D, (6 * i + j) * nr + l, x, base + i * hs + j * ws, es);
                else
                    zero_el(D, (6 * i + j) * nr + l, es);
            }
    }
}

/* Scratch of one transform call on a thread's stack: 36 rows of the widest panel. */
typedef union {
    double d[XI * PDNN_GEMM_NR_MAX];
    float f[XI * PDNN_GEMM_NR_MAX];
} wino_lanes;

void pdnn_wino_input_unit(const pdnn_wino_geom *g, const pdnn_wino_tile *tab, const void *x,
                          int64_t cc, int64_t tile0, void *dst, int64_t dxs)
{
    wino_lanes D;
    const int nr = g->uk->nr;
    if (g->es == sizeof(float))
        gather_in(g, tab, x, cc, tile0, nr, (char *)D.f, sizeof(float));
    else
        gather_in(g, tab, x, cc, tile0, nr, (char *)D.d, sizeof(double));
    pdnn_wino_transform(g, PDNN_WINO_IN, (size_t)nr, &D, nr, dst, dxs);
}

/* ---- forward-style convolution */

typedef struct {
    int64_t nq;   /* panels of tiles per block */
    int64_t nbp;  /* tiles per block (nq * nr) */
    int64_t ups;  /* elements of U per (group, xi): A panels of Kg x Cg */
    int64_t vxs;  /* elements of V per xi: B panels, [group][panel][Cg][nr] */
    int64_t mxs;  /* elements of M per xi: [group][Kg][nbp] */
    pdnn_wino_tile *tab;
    char *u, *v, *m;
} conv_bufs;

static void conv_layout(const pdnn_wino_geom *g, bool fused, pdnn_conv_gemm_arena *a,
                        conv_bufs *b)
{
    const int mr = g->uk->mr, nr = g->uk->nr;
    const int64_t C = g->g * g->cg, K = g->g * g->kg;
    const int64_t col = pdnn_conv_gemm_mul3(XI, C + K, (int64_t)g->es); /* bytes per tile */
    const size_t budget = fused ? pdnn_cpu_cache_sizes()->l2 : NONFUSED_BLOCK_BYTES;
    int64_t nq = col > 0 ? (int64_t)(budget / (size_t)col) / nr : 1;
    const int64_t qmax = cdiv(g->ntiles, nr);
    if (nq > qmax) nq = qmax;
    if (nq < 1) nq = 1;
    b->nq = nq;
    b->nbp = nq * nr;
    b->ups = pdnn_conv_gemm_mul3(cdiv(g->kg, mr) * mr, g->cg, 1);
    b->vxs = pdnn_conv_gemm_mul3(g->g * nq, g->cg, nr);
    b->mxs = pdnn_conv_gemm_mul3(g->g * g->kg, b->nbp, 1);
    b->tab = pdnn_conv_gemm_take(a, g->ntiles, sizeof(pdnn_wino_tile));
    b->u = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->g, XI, b->ups), g->es);
    b->v = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(XI, b->vxs, 1), g->es);
    b->m = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(XI, b->mxs, 1), g->es);
}

size_t pdnn_wino_conv_workspace(const pdnn_conv_problem *p, bool fused)
{
    pdnn_wino_geom g;
    pdnn_wino_geom_init(p, &g);
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    conv_bufs b;
    conv_layout(&g, fused, &a, &b);
    return pdnn_conv_gemm_arena_bytes(&a);
}

/* U of output channel o of group grp: the filter transform of its Cg input channels in
 * chunks of up to 64 lanes, scattered into the A panels of every xi. */
PDNN_INLINE void filter_unit(const pdnn_wino_geom *g, const conv_bufs *b, const char *w,
                             int64_t grp, int64_t o, size_t es)
{
    enum { L = 64 };
    union {
        double d[9 * L];
        float f[9 * L];
    } G;
    wino_lanes T;
    char *gp = (char *)&G, *tp = (char *)&T;
    const int mr = g->uk->mr;
    int64_t toff[9];
    for (int r = 0; r < 3; r++)
        for (int s = 0; s < 3; s++)
            toff[3 * r + s] = (g->rot ? 2 - r : r) * g->wrs + (g->rot ? 2 - s : s) * g->wss;
    const int64_t wbase = grp * g->wgs + o * g->wos;
    char *ubase = b->u + ((grp * XI) * b->ups + (o / mr) * g->cg * mr + o % mr) * (int64_t)es;
    for (int64_t i0 = 0; i0 < g->cg; i0 += L) {
        const int64_t nl = g->cg - i0 < L ? g->cg - i0 : L;
        for (int k = 0; k < 9; k++)
            for (int64_t l = 0; l < nl; l++)
                copy_el(gp, k * L + l, w, wbase + (i0 + l) * g->wis + toff[k], es);
        pdnn_wino_transform(g, PDNN_WINO_FLT, (size_t)nl, gp, L, tp, L);
        for (int xi = 0; xi < XI; xi++) {
            char *u = ubase + (xi * b->ups + i0 * mr) * (int64_t)es;
            for (int64_t l = 0; l < nl; l++) copy_el(u, l * mr, tp, xi * L + l, es);
        }
    }
}

/* Output transform of output channel kk (all groups) for panel q of the block starting
 * at tile tb0, blended into y. */
PDNN_INLINE void output_unit(const pdnn_wino_geom *g, const conv_bufs *b, char *y, int64_t kk,
                             int64_t tb0, int64_t q, double alpha, double beta, size_t es)
{
    wino_lanes O;
    char *op = (char *)&O;
    const int nr = g->uk->nr;
    const int64_t t0 = tb0 + q * nr;
    const int64_t nl = g->ntiles - t0 < nr ? g->ntiles - t0 : nr;
    if (nl <= 0) return;
    const char *m = b->m + (kk * b->nbp + q * nr) * (int64_t)es;
    pdnn_wino_transform(g, PDNN_WINO_OUT, (size_t)nl, m, b->mxs, op, nr);
    const int64_t koff = kk * g->ys[1], hs = g->ys[2], ws = g->ys[3];
    for (int64_t l = 0; l < nl; l++) {
        const pdnn_wino_tile *e = &b->tab[t0 + l];
        const int64_t base = e->yo + koff;
        for (int i = 0; i < e->oi; i++)
            for (int j = 0; j < e->oj; j++)
                blend_el(y, base + i * hs + j * ws, op, (4 * i + j) * nr + l, alpha, beta, es);
    }
}

/* The three stages of one block of tiles [tb0, tb0 + nbp) as loops over units that
 * the caller's threads share ("omp for" inside a parallel region). */
PDNN_INLINE void conv_run_t(const pdnn_wino_geom *g, const conv_bufs *b, const char *x,
                            const char *w, char *y, double alpha, double beta, size_t es)
{
    const int nr = g->uk->nr, mr = g->uk->mr;
    const int64_t C = g->g * g->cg, K = g->g * g->kg, nq = b->nq;
    const int64_t nblk = cdiv(g->ntiles, b->nbp);
    const int64_t tchunk = 256;
#pragma omp for schedule(static)
    for (int64_t t = 0; t < g->ntiles; t += tchunk)
        pdnn_wino_tiles(g, t, t + tchunk < g->ntiles ? t + tchunk : g->ntiles, b->tab + t);
#pragma omp for schedule(static)
    for (int64_t i = 0; i < K; i++) filter_unit(g, b, w, i / g->kg, i % g->kg, es);
    for (int64_t blk = 0; blk < nblk; blk++) {
        const int64_t tb0 = blk * b->nbp;
#pragma omp for schedule(static)
        for (int64_t i = 0; i < C * nq; i++) {
            const int64_t cc = i / nq, q = i % nq, grp = cc / g->cg, c = cc % g->cg;
            if (tb0 + q * nr >= g->ntiles) continue;
            pdnn_wino_input_unit(g, b->tab, x, cc, tb0 + q * nr,
                                 b->v + ((grp * nq + q) * g->cg + c) * nr * (int64_t)es, b->vxs);
        }
#pragma omp for schedule(static)
        for (int64_t i = 0; i < XI * g->g * nq; i++) {
            const int64_t q = i % nq, grp = (i / nq) % g->g, xi = i / (nq * g->g);
            const int64_t t0 = tb0 + q * nr;
            if (t0 >= g->ntiles) continue;
            const int64_t nl = g->ntiles - t0 < nr ? g->ntiles - t0 : nr;
            pdnn_gemm_macro(g->uk, g->kg, nl, g->cg, b->u + (grp * XI + xi) * b->ups * (int64_t)es,
                            g->cg * mr,
                            b->v + (xi * b->vxs + (grp * nq + q) * g->cg * nr) * (int64_t)es,
                            g->cg * nr,
                            b->m + (xi * b->mxs + grp * g->kg * b->nbp + q * nr) * (int64_t)es,
                            b->nbp, 1, NULL, 1.0, 0.0);
        }
#pragma omp for schedule(static)
        for (int64_t i = 0; i < K * nq; i++)
            output_unit(g, b, y, i / nq, tb0, i % nq, alpha, beta, es);
    }
}

pdnnStatus_t pdnn_wino_conv_exec(const pdnn_conv_problem *p, const pdnn_conv_args *a,
                                 const pdnn_ctx *ctx, bool fused)
{
    pdnn_wino_geom g;
    pdnn_wino_geom_init(p, &g);
    if (g.ntiles == 0 || g.kg == 0) return PDNN_STATUS_SUCCESS; /* the output is empty */
    pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ctx->ws);
    conv_bufs b;
    conv_layout(&g, fused, &ar, &b);
    /* the GEMMs' multiply-adds; several barriers per block cost more below the limit */
    const double work = (double)XI * (double)(g.g * g.cg + 1) * (double)g.kg * (double)g.ntiles;
    const int nt = pdnn_par_threads(ctx->nthreads, g.ntiles * g.g * g.kg, work, PDNN_WINO_MIN_WORK);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        if (g.es == sizeof(float))
            conv_run_t(&g, &b, a->src, a->wei, a->dst, a->alpha, a->beta, sizeof(float));
        else
            conv_run_t(&g, &b, a->src, a->wei, a->dst, a->alpha, a->beta, sizeof(double));
    }
    return PDNN_STATUS_SUCCESS;
}
