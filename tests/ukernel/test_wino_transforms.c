/* The Winograd transform micro-kernels (src/cpu/ukernels/winograd), F(4x4, 3x3) and
 * F(4x4, 5x5), f32 and f64, every ISA this CPU runs, against the transform matrices
 * written out below and applied naively in double:
 *  - the matrices themselves first: sum_p A^T[i][p] G[p][k] B^T[p][j] == [j == i + k]
 *    (in double: exact up to the rounding of G's fractions, within 16 ulps of the sum
 *    of the terms' magnitudes);
 *  - each kernel (in, flt, out, dyt, fltinv) on random data with lane counts 0, 1, a few,
 *    the 64-lane block and past it, gapped element strides: every element within a few
 *    ulps of the sum of its terms' magnitudes, and the lanes and gaps outside untouched;
 *  - deint (the window dealer, a copy): every lane count 0..40 (the masked 16-lane blocks
 *    of AVX-512 and their edges), window steps 4 and 5, exact, gaps untouched;
 *  - deintz (the window rows of a run cut by the padding): lane counts 0..70 (AVX-512
 *    blocks, the plain versions' 64-lane chunks), zero columns on the left, the right,
 *    both, every column and none, zero rows at the top, the bottom, all and none: exact,
 *    the rows read between guards, gaps untouched;
 *  - the f32 F(4x4, 3x3) AVX-512 split input transform (deintzb, incol): the same as
 *    deintz then in on exact data, lane counts 0..64, cut rows and columns;
 *  - inter (the output dealer): every column count 0..140 (the masked 64-column blocks
 *    of AVX-512, cut last tiles), 0 to 4 output rows, beta 0 (NaN in d must not leak)
 *    and beta != 0, lane-row strides ss of n/4 lanes and more: alpha * s then + beta * d
 *    rounded as two operations (bitwise), the columns past n and the gaps untouched;
 *  - gather (the filter taps into lanes, f32): lane counts 0..140, 1, 9 and 25 taps,
 *    random lane and tap offsets, negative lane offsets (zero lanes): exact, the gaps
 *    between rows untouched;
 *  - the composition: out(flt(g) . in(d)) is the 2-d correlation of d and g, and
 *    fltinv(in(d) . dyt(dy)) is the gradient sum_ij dy[i][j] d[i + r][j + s]
 *    (f64 within 1e-13 relative, f32 within 1e-5). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"
#include "cpu/ukernels/winograd/wino_ukernels.h"
#include "testutil.h"

enum { OP_IN, OP_FLT, OP_OUT, OP_DYT, OP_FLTINV, NOPS };
static const char *const op_names[NOPS] = {"in", "flt", "out", "dyt", "fltinv"};

typedef struct {
    const char *name;
    pdnn_isa isa;
    pdnn_f32_wino_fn f32[NOPS];
    pdnn_f64_wino_fn f64[NOPS];
    pdnn_f32_wino_fn f32_deint; /* the window dealer (a copy, checked apart) */
    pdnn_f64_wino_fn f64_deint;
    pdnn_f32_wino_deintz_fn f32_deintz; /* the dealer of rows cut by the padding */
    pdnn_f64_wino_deintz_fn f64_deintz;
    pdnn_f32_wino_inter_fn f32_inter; /* the output dealer (alpha, beta blend) */
    pdnn_f64_wino_inter_fn f64_inter;
} kset;

#define KSET(v, isa, id)                                                                     \
    {#v "__" #isa,                                                                           \
     id,                                                                                     \
     {pdnn_f32_wino##v##_in__##isa, pdnn_f32_wino##v##_flt__##isa,                           \
      pdnn_f32_wino##v##_out__##isa, pdnn_f32_wino##v##_dyt__##isa,                          \
      pdnn_f32_wino##v##_fltinv__##isa},                                                     \
     {pdnn_f64_wino##v##_in__##isa, pdnn_f64_wino##v##_flt__##isa,                           \
      pdnn_f64_wino##v##_out__##isa, pdnn_f64_wino##v##_dyt__##isa,                          \
      pdnn_f64_wino##v##_fltinv__##isa},                                                     \
     pdnn_f32_wino##v##_deint__##isa, pdnn_f64_wino##v##_deint__##isa,                      \
     pdnn_f32_wino##v##_deintz__##isa, pdnn_f64_wino##v##_deintz__##isa,                    \
     pdnn_f32_wino##v##_inter__##isa, pdnn_f64_wino##v##_inter__##isa}

/* One variant: r taps, alpha = 4 + r - 1 points, its matrices (row-major, alpha <= 8,
 * r <= 5) and its kernels at each ISA. */
typedef struct {
    int r, a;
    double bt[8][8]; /* B^T: a x a */
    double g[8][5];  /* G: a x r */
    double at[4][8]; /* A^T: 4 x a */
    kset k[3];
} variant;

#define S6 (1.0 / 6)
#define S12 (1.0 / 12)
#define S24 (1.0 / 24)
static const variant v43 = {
    3,
    6,
    {{4, 0, -5, 0, 1, 0},
     {0, -4, -4, 1, 1, 0},
     {0, 4, -4, -1, 1, 0},
     {0, -2, -1, 2, 1, 0},
     {0, 2, -1, -2, 1, 0},
     {0, 4, 0, -5, 0, 1}},
    {{0.25, 0, 0}, {-S6, -S6, -S6}, {-S6, S6, -S6}, {S24, S12, S6}, {S24, -S12, S6}, {0, 0, 1}},
    {{1, 1, 1, 1, 1, 0}, {0, 1, -1, 2, -2, 0}, {0, 1, 1, 4, 4, 0}, {0, 1, -1, 8, -8, 1}},
    {KSET(4x3, scalar, PDNN_ISA_SCALAR), KSET(4x3, avx2, PDNN_ISA_AVX2),
     KSET(4x3, avx512, PDNN_ISA_AVX512)},
};

/* F(4x4, 5x5), points 0, 1, -1, 2, -2, 1/2, -1/2, infinity; G = diag(c) Gi with
 * c = (1/4, -1/18, -1/18, 1/360, 1/360, 1/360, 1/360, 1/4) (wino4x5_tmpl.h). */
#define C1 (-1.0 / 18)
#define C3 (1.0 / 360)
static const variant v45 = {
    5,
    8,
    {{4, 0, -21, 0, 21, 0, -4, 0},
     {0, 4, 4, -17, -17, 4, 4, 0},
     {0, -4, 4, 17, -17, -4, 4, 0},
     {0, 2, 1, -10, -5, 8, 4, 0},
     {0, -2, 1, 10, -5, -8, 4, 0},
     {0, 4, 8, -5, -10, 1, 2, 0},
     {0, -4, 8, 5, -10, -1, 2, 0},
     {0, -4, 0, 21, 0, -21, 0, 4}},
    {{0.25, 0, 0, 0, 0},
     {C1, C1, C1, C1, C1},
     {C1, -C1, C1, -C1, C1},
     {C3, 2 * C3, 4 * C3, 8 * C3, 16 * C3},
     {C3, -2 * C3, 4 * C3, -8 * C3, 16 * C3},
     {16 * C3, 8 * C3, 4 * C3, 2 * C3, C3},
     {16 * C3, -8 * C3, 4 * C3, -2 * C3, C3},
     {0, 0, 0, 0, 0.25}},
    {{1, 1, 1, 1, 1, 8, 8, 0},
     {0, 1, -1, 2, -2, 4, -4, 0},
     {0, 1, 1, 4, 4, 2, 2, 0},
     {0, 1, -1, 8, -8, 1, -1, 1}},
    {KSET(4x5, scalar, PDNN_ISA_SCALAR), KSET(4x5, avx2, PDNN_ISA_AVX2),
     KSET(4x5, avx512, PDNN_ISA_AVX512)},
};

/* sum_p A^T[i][p] G[p][k] B^T[p][j] == [j == i + k] */
static void check_identity(const variant *v)
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < v->a; j++)
            for (int k = 0; k < v->r; k++) {
                double s = 0, mag = 0;
                for (int p = 0; p < v->a; p++) {
                    s += v->at[i][p] * v->g[p][k] * v->bt[p][j];
                    mag += fabs(v->at[i][p] * v->g[p][k] * v->bt[p][j]);
                }
                const double want = j == i + k ? 1.0 : 0.0;
                TU_CHECK(fabs(s - want) <= 16 * 0x1p-53 * mag, "F(4,%d) identity (%d,%d,%d): %.17g", v->r, i,
                         j, k, s);
            }
}

/* An operator as two matrices: out = L X R^T with L (no x ni), R (no2 x ni2); sizes of
 * the input ni x ni2 and output no x no2. */
typedef struct {
    int ni, ni2, no, no2;
    double l[8][8], rm[8][8];
} op_mats;

static void op_of(const variant *v, int op, op_mats *m)
{
    memset(m, 0, sizeof *m);
    const int a = v->a, r = v->r;
    switch (op) {
    case OP_IN: /* B^T D B */
        m->ni = m->ni2 = m->no = m->no2 = a;
        for (int p = 0; p < a; p++)
            for (int q = 0; q < a; q++) m->l[p][q] = m->rm[p][q] = v->bt[p][q];
        break;
    case OP_FLT: /* G g G^T */
        m->ni = m->ni2 = r;
        m->no = m->no2 = a;
        for (int p = 0; p < a; p++)
            for (int k = 0; k < r; k++) m->l[p][k] = m->rm[p][k] = v->g[p][k];
        break;
    case OP_OUT: /* A^T M A */
        m->ni = m->ni2 = a;
        m->no = m->no2 = 4;
        for (int i = 0; i < 4; i++)
            for (int p = 0; p < a; p++) m->l[i][p] = m->rm[i][p] = v->at[i][p];
        break;
    case OP_DYT: /* A dY A^T */
        m->ni = m->ni2 = 4;
        m->no = m->no2 = a;
        for (int p = 0; p < a; p++)
            for (int i = 0; i < 4; i++) m->l[p][i] = m->rm[p][i] = v->at[i][p];
        break;
    default: /* G^T W G */
        m->ni = m->ni2 = a;
        m->no = m->no2 = r;
        for (int k = 0; k < r; k++)
            for (int p = 0; p < a; p++) m->l[k][p] = m->rm[k][p] = v->g[p][k];
        break;
    }
}

/* out[e] (and the sum of its terms' magnitudes) of operator m on x (row-major). */
static void apply(const op_mats *m, const double *x, double *out, double *mag)
{
    for (int i = 0; i < m->no; i++)
        for (int j = 0; j < m->no2; j++) {
            double s = 0, a = 0;
            for (int p = 0; p < m->ni; p++)
                for (int q = 0; q < m->ni2; q++) {
                    const double t = m->l[i][p] * x[p * m->ni2 + q] * m->rm[j][q];
                    s += t;
                    a += fabs(t);
                }
            out[i * m->no2 + j] = s;
            mag[i * m->no2 + j] = a;
        }
}

/* Kernel op of set k at type t on n lanes, element strides ss / ds (>= n, gaps
 * poisoned / guarded). */
static void check_kernel(const variant *v, const kset *k, int op, pdnnDataType_t t, size_t n)
{
    op_mats m;
    op_of(v, op, &m);
    const size_t ss = n + (size_t)tu_int(0, 3), ds = n + (size_t)tu_int(0, 3);
    const int ni = m.ni * m.ni2, no = m.no * m.no2;
    const size_t sn = (size_t)ni * ss + 1, dn = (size_t)no * ds + 1;
    void *s = tu_alloc(t, sn), *d = tu_alloc(t, dn);
    tu_poison(s, t, sn);
    for (int e = 0; e < ni; e++)
        for (size_t l = 0; l < n; l++) tu_put(s, t, e * ss + l, tu_uniform(-1, 1));
    for (size_t i = 0; i < dn; i++) tu_put(d, t, i, 12345.0);
    if (t == PDNN_DATA_FLOAT)
        k->f32[op](n, s, (ptrdiff_t)ss, d, (ptrdiff_t)ds);
    else
        k->f64[op](n, s, (ptrdiff_t)ss, d, (ptrdiff_t)ds);
    const double eps = t == PDNN_DATA_FLOAT ? 0x1p-24 : 0x1p-53;
    double x[64], ref[64], mag[64];
    size_t bad = 0;
    double worst = 0;
    for (size_t l = 0; l < n; l++) {
        for (int e = 0; e < ni; e++) x[e] = tu_get(s, t, e * ss + l);
        apply(&m, x, ref, mag);
        for (int e = 0; e < no; e++) {
            const double got = tu_get(d, t, e * ds + l);
            const double err = fabs(got - ref[e]) / (mag[e] > 0 ? mag[e] : 1.0);
            if (!(err <= 32 * eps)) bad++;
            if (err > worst || err != err) worst = err;
        }
    }
    size_t touched = 0;
    for (int e = 0; e <= no; e++)
        for (size_t l = e == no ? 0 : n; l < (e == no ? 1 : ds); l++)
            if (tu_get(d, t, e * ds + l) != 12345.0) touched++;
    TU_CHECK(bad == 0, "F(4,%d) %s_%s %s n=%zu: %zu elements off (worst %.3g eps)", v->r,
             op_names[op], k->name, t == PDNN_DATA_FLOAT ? "f32" : "f64", n, bad, worst / eps);
    TU_CHECK(touched == 0, "F(4,%d) %s_%s n=%zu: %zu elements outside the lanes written", v->r,
             op_names[op], k->name, n, touched);
    free(s);
    free(d);
}

/* The kernels composed (n lanes): forward correlation and the filter gradient. */
static void check_composed(const variant *v, const kset *k, pdnnDataType_t t, size_t n)
{
    const int a = v->a, r = v->r, aa = a * a;
    void *dd = tu_alloc(t, (size_t)aa * n), *gg = tu_alloc(t, (size_t)r * r * n);
    void *dy = tu_alloc(t, 16 * n), *vv = tu_alloc(t, (size_t)aa * n);
    void *uu = tu_alloc(t, (size_t)aa * n), *yy = tu_alloc(t, 16 * n);
    void *dg = tu_alloc(t, (size_t)r * r * n);
    tu_fill_uniform(dd, t, (size_t)aa * n, -1, 1);
    tu_fill_uniform(gg, t, (size_t)r * r * n, -1, 1);
    tu_fill_uniform(dy, t, 16 * n, -1, 1);
    const ptrdiff_t pn = (ptrdiff_t)n;
    if (t == PDNN_DATA_FLOAT) {
        k->f32[OP_IN](n, dd, pn, vv, pn);
        k->f32[OP_FLT](n, gg, pn, uu, pn);
        for (size_t i = 0; i < (size_t)aa * n; i++) ((float *)uu)[i] *= ((float *)vv)[i];
        k->f32[OP_OUT](n, uu, pn, yy, pn);
        k->f32[OP_DYT](n, dy, pn, uu, pn);
        for (size_t i = 0; i < (size_t)aa * n; i++) ((float *)uu)[i] *= ((float *)vv)[i];
        k->f32[OP_FLTINV](n, uu, pn, dg, pn);
    } else {
        k->f64[OP_IN](n, dd, pn, vv, pn);
        k->f64[OP_FLT](n, gg, pn, uu, pn);
        for (size_t i = 0; i < (size_t)aa * n; i++) ((double *)uu)[i] *= ((double *)vv)[i];
        k->f64[OP_OUT](n, uu, pn, yy, pn);
        k->f64[OP_DYT](n, dy, pn, uu, pn);
        for (size_t i = 0; i < (size_t)aa * n; i++) ((double *)uu)[i] *= ((double *)vv)[i];
        k->f64[OP_FLTINV](n, uu, pn, dg, pn);
    }
    double *ry = calloc(16 * n, sizeof(double)), *rg = calloc((size_t)r * r * n, sizeof(double));
    for (size_t l = 0; l < n; l++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                for (int p = 0; p < r; p++)
                    for (int q = 0; q < r; q++) {
                        const double dv = tu_get(dd, t, (size_t)((i + p) * a + j + q) * n + l);
                        ry[(size_t)(4 * i + j) * n + l] += dv * tu_get(gg, t, (size_t)(p * r + q) * n + l);
                        rg[(size_t)(p * r + q) * n + l] += dv * tu_get(dy, t, (size_t)(4 * i + j) * n + l);
                    }
    const double tol = t == PDNN_DATA_FLOAT ? 1e-5 : 1e-13;
    const double ey = tu_rel_err(ry, yy, t, 16 * n), eg = tu_rel_err(rg, dg, t, (size_t)r * r * n);
    TU_CHECK(ey <= tol, "F(4,%d) %s composed forward: relative error %.3g", v->r, k->name, ey);
    TU_CHECK(eg <= tol, "F(4,%d) %s composed filter gradient: relative error %.3g", v->r, k->name,
             eg);
    free(ry);
    free(rg);
    free(dd);
    free(gg);
    free(dy);
    free(vv);
    free(uu);
    free(yy);
    free(dg);
}

/* deint: d[e * ds + l] == s[l * ss + e] exactly for e < alpha, l < n; the gaps of d
 * (ds > n) untouched; s holds exactly the (n - 1) * ss + alpha elements read. */
static void check_deint(const variant *v, const kset *k, pdnnDataType_t t, size_t n,
                        ptrdiff_t ss)
{
    const int a = v->a;
    const ptrdiff_t ds = (ptrdiff_t)n + 3;
    const size_t ns = n ? (n - 1) * (size_t)ss + (size_t)a : 1, nd = (size_t)a * (size_t)ds;
    double *src = malloc(ns * sizeof(double)), *dst = malloc(nd * sizeof(double));
    float *sf = malloc(ns * sizeof(float)), *df = malloc(nd * sizeof(float));
    for (size_t i = 0; i < ns; i++) {
        src[i] = (double)(rand() % 2001 - 1000);
        sf[i] = (float)src[i];
    }
    for (size_t i = 0; i < nd; i++) {
        dst[i] = -7777.0;
        df[i] = -7777.0f;
    }
    if (t == PDNN_DATA_FLOAT)
        k->f32_deint(n, sf, ss, df, ds);
    else
        k->f64_deint(n, src, ss, dst, ds);
    int bad = 0;
    for (int e = 0; e < a; e++)
        for (ptrdiff_t l = 0; l < ds; l++) {
            const double want = (size_t)l < n ? src[(size_t)l * (size_t)ss + (size_t)e] : -7777.0;
            const double got = t == PDNN_DATA_FLOAT ? (double)df[e * ds + l] : dst[e * ds + l];
            if (got != want) bad++;
        }
    char what[128];
    snprintf(what, sizeof what, "%s deint %s n=%zu ss=%td", k->name,
             t == PDNN_DATA_FLOAT ? "f32" : "f64", n, ss);
    TU_CHECK(bad == 0, what);
    free(src);
    free(dst);
    free(sf);
    free(df);
}

/* deintz: d[(a i + e) ds + l] == (r0 <= i < r1 && lo <= 4 l + e < hi ?
 * s[(i - r0) rs + 4 l + e - lo] : 0) exactly; the rows read lie in one buffer between
 * guards of nonzero values (a read past the rows' ends or between them shows as a nonzero
 * where a zero belongs). */
static void check_deintz(const variant *v, const kset *k, pdnnDataType_t t, size_t n,
                         ptrdiff_t r0, ptrdiff_t r1, ptrdiff_t lo, ptrdiff_t hi)
{
    const int a = v->a;
    enum { G = 80 };
    const ptrdiff_t ds = (ptrdiff_t)n + 3, w = hi - lo, rs = w + 7; /* 7 guards between rows */
    const size_t nr = (size_t)(r1 - r0), ns = nr * (size_t)rs + 2 * G;
    const size_t nd = (size_t)a * (size_t)a * (size_t)ds;
    double *sall = malloc(ns * sizeof(double)), *dst = malloc(nd * sizeof(double));
    float *sfall = malloc(ns * sizeof(float)), *df = malloc(nd * sizeof(float));
    double *src = sall + G;
    float *sf = sfall + G;
    for (size_t i = 0; i < ns; i++) {
        const ptrdiff_t p = (ptrdiff_t)i - G;
        const bool in = p >= 0 && p < (ptrdiff_t)nr * rs && p % rs < w;
        sall[i] = in ? (double)(rand() % 2001 - 1000) + 0.5 : 4242.0;
        sfall[i] = (float)sall[i];
    }
    for (size_t i = 0; i < nd; i++) {
        dst[i] = -7777.0;
        df[i] = -7777.0f;
    }
    if (t == PDNN_DATA_FLOAT)
        k->f32_deintz(n, sf, rs, r0, r1, lo, hi, df, ds);
    else
        k->f64_deintz(n, src, rs, r0, r1, lo, hi, dst, ds);
    int bad = 0;
    for (int i = 0; i < a; i++)
        for (int e = 0; e < a; e++)
            for (ptrdiff_t l = 0; l < ds; l++) {
                const ptrdiff_t j = 4 * l + e;
                const bool in = i >= r0 && i < r1 && j >= lo && j < hi;
                const double want = (size_t)l >= n ? -7777.0 : in ? src[(i - r0) * rs + j - lo] : 0.0;
                const ptrdiff_t di = (a * i + e) * ds + l;
                const double got = t == PDNN_DATA_FLOAT ? (double)df[di] : dst[di];
                if (got != want) bad++;
            }
    char what[160];
    snprintf(what, sizeof what, "%s deintz %s n=%zu rows %td..%td lo=%td hi=%td", k->name,
             t == PDNN_DATA_FLOAT ? "f32" : "f64", n, r0, r1, lo, hi);
    TU_CHECK(bad == 0, what);
    free(sall);
    free(dst);
    free(sfall);
    free(df);
}

/* The f32 F(4x4, 3x3) AVX-512 split input transform: incol(deintzb(x)) ==
 * in(deintz(x)) for x of half-integers (every intermediate exact in float, so the two
 * orders of B^T D B agree bitwise); deintz and in are checked against the oracle above. */
static void check_split_in(size_t n, ptrdiff_t r0, ptrdiff_t r1, ptrdiff_t lo, ptrdiff_t hi)
{
    enum { A = 6, NR = 64 };
    const ptrdiff_t rs = hi - lo + 3;
    const size_t ns = (size_t)(r1 - r0) * (size_t)rs + 1;
    float *x = malloc(ns * sizeof(float));
    for (size_t i = 0; i < ns; i++) x[i] = (float)(rand() % 2001 - 1000) * 0.5f;
    static float d1[A * A * NR], d2[A * A * NR], v1[A * A * NR], v2[A * A * NR];
    for (size_t i = 0; i < A * A * NR; i++) d1[i] = d2[i] = v1[i] = v2[i] = -7777.0f;
    pdnn_f32_wino4x3_deintz__avx512(n, x, rs, r0, r1, lo, hi, d1, NR);
    pdnn_f32_wino4x3_in__avx512(n, d1, NR, v1, NR);
    pdnn_f32_wino4x3_deintzb__avx512(n, x, rs, r0, r1, lo, hi, d2, NR);
    pdnn_f32_wino4x3_incol__avx512(n, d2, NR, v2, NR);
    int bad = 0;
    for (size_t i = 0; i < A * A * NR; i++)
        if (v1[i] != v2[i]) bad++;
    char what[128];
    snprintf(what, sizeof what, "4x3__avx512 deintzb+incol n=%zu rows %td..%td lo=%td hi=%td",
             n, r0, r1, lo, hi);
    TU_CHECK(bad == 0, what);
    free(x);
}

/* inter: d[i * drs + k] == alpha * s[(4 i + k % 4) * ss + k / 4] (+ beta * d[..] when
 * beta != 0) for i < nrow, k < n, rounded as the kernel documents (bitwise); the rest
 * of d (columns past n, the gaps between rows) untouched; with beta == 0 the written
 * part of d starts as NaN. s holds exactly the 15 * ss + ceil(n / 4) elements read. */
static void check_inter(const kset *k, pdnnDataType_t t, size_t n, size_t nrow, ptrdiff_t ss,
                        double beta)
{
    const size_t nl = (n + 3) / 4, ns = 15 * (size_t)ss + nl + 1;
    const ptrdiff_t drs = (ptrdiff_t)n + 5;
    const size_t nd = 4 * (size_t)drs;
    const double alpha = 0.75;
    double *src = malloc(ns * sizeof(double)), *dst = malloc(nd * sizeof(double));
    double *d0 = malloc(nd * sizeof(double));
    float *sf = malloc(ns * sizeof(float)), *df = malloc(nd * sizeof(float));
    for (size_t i = 0; i < ns; i++) {
        src[i] = (double)(rand() % 2001 - 1000) / 64.0 + 1.0 / 3.0;
        sf[i] = (float)src[i];
        src[i] = t == PDNN_DATA_FLOAT ? (double)sf[i] : src[i];
    }
    for (size_t i = 0; i < nd; i++) {
        const bool w = i % (size_t)drs < n && i / (size_t)drs < nrow; /* written */
        d0[i] = w && beta == 0 ? NAN : (double)(rand() % 2001 - 1000) / 32.0 + 0.1;
        df[i] = (float)d0[i];
        d0[i] = t == PDNN_DATA_FLOAT ? (double)df[i] : d0[i];
        dst[i] = d0[i];
    }
    if (t == PDNN_DATA_FLOAT)
        k->f32_inter(n, nrow, sf, ss, df, drs, (float)alpha, (float)beta);
    else
        k->f64_inter(n, nrow, src, ss, dst, drs, alpha, beta);
    int bad = 0;
    for (size_t i = 0; i < nd; i++) {
        const size_t row = i / (size_t)drs, c = i % (size_t)drs;
        const bool w = c < n && row < nrow;
        const double sv = w ? src[(4 * row + c % 4) * (size_t)ss + c / 4] : 0;
        double want;
        if (!w)
            want = d0[i];
        else if (t == PDNN_DATA_FLOAT) {
            const float r = (float)alpha * (float)sv;
            want = beta == 0 ? r : (double)(r + (float)beta * (float)d0[i]);
        } else {
            const double r = alpha * sv;
            want = beta == 0 ? r : r + beta * d0[i];
        }
        const double got = t == PDNN_DATA_FLOAT ? (double)df[i] : dst[i];
        if (!(got == want || (isnan(got) && isnan(want)))) bad++;
    }
    char what[128];
    snprintf(what, sizeof what, "%s inter %s n=%zu nrow=%zu ss=%td beta=%g", k->name,
             t == PDNN_DATA_FLOAT ? "f32" : "f64", n, nrow, ss, beta);
    TU_CHECK(bad == 0, what);
    free(src);
    free(dst);
    free(d0);
    free(sf);
    free(df);
}

/* The filter-tap gather (f32, variant-independent) of one ISA: n lanes at random
 * offsets (some negative: zero lanes), ntap taps at random offsets (as a rotated filter's:
 * some decreasing), rows ds >= n apart; exact, the gaps between rows untouched. */
static void check_gather(const char *isa, pdnn_f32_wino_gather_fn fn, size_t n, size_t ntap)
{
    enum { NS = 4000 };
    float *s = malloc(NS * sizeof(float));
    for (int i = 0; i < NS; i++) s[i] = (float)(rand() % 20001 - 10000);
    int32_t off[140], toff[25];
    for (size_t l = 0; l < n; l++) off[l] = l % 7 == 3 ? -1 - (int32_t)(l % 2) : rand() % 3000;
    for (size_t k = 0; k < ntap; k++) toff[k] = (int32_t)(k % 2 ? 999 - 3 * k : 40 * k);
    const ptrdiff_t ds = (ptrdiff_t)n + 3;
    const size_t nd = ntap * (size_t)ds + 1;
    float *d = malloc(nd * sizeof(float));
    for (size_t i = 0; i < nd; i++) d[i] = -7.5f;
    fn(n, s, off, toff, ntap, d, ds);
    size_t bad = 0;
    for (size_t k = 0; k <= ntap; k++)
        for (ptrdiff_t l = 0; l < ds && k * (size_t)ds + (size_t)l < nd; l++) {
            const bool in = k < ntap && (size_t)l < n;
            const float want = !in ? -7.5f : off[l] < 0 ? 0.0f : s[off[l] + toff[k]];
            if (d[k * (size_t)ds + (size_t)l] != want) bad++;
        }
    TU_CHECK(bad == 0, "gather %s n=%zu ntap=%zu: %zu wrong", isa, n, ntap, bad);
    free(s);
    free(d);
}

int main(void)
{
    tu_seed(5150);
    {
        const struct {
            const char *name;
            pdnn_isa isa;
            pdnn_f32_wino_gather_fn fn;
        } gs[] = {{"scalar", PDNN_ISA_SCALAR, pdnn_f32_wino_gather__scalar},
                  {"avx2", PDNN_ISA_AVX2, pdnn_f32_wino_gather__avx2},
                  {"avx512", PDNN_ISA_AVX512, pdnn_f32_wino_gather__avx512}};
        for (int i = 0; i < 3; i++)
            if (gs[i].isa <= pdnn_cpu_isa_detected())
                for (size_t n = 0; n <= 140; n += n < 40 ? 1 : 25) {
                    check_gather(gs[i].name, gs[i].fn, n, 25);
                    check_gather(gs[i].name, gs[i].fn, n, 9);
                    check_gather(gs[i].name, gs[i].fn, n, 1);
                }
    }
    static const size_t lanes[] = {0, 1, 3, 16, 63, 64, 65, 130};
    const variant *vs[2] = {&v43, &v45};
    for (int vi = 0; vi < 2; vi++) {
        const variant *v = vs[vi];
        check_identity(v);
        for (int ki = 0; ki < 3; ki++) {
            const kset *k = &v->k[ki];
            if (k->isa > pdnn_cpu_isa_detected()) continue;
            for (int ti = 0; ti < 2; ti++) {
                const pdnnDataType_t t = ti ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
                for (int op = 0; op < NOPS; op++)
                    for (size_t li = 0; li < sizeof lanes / sizeof lanes[0]; li++)
                        check_kernel(v, k, op, t, lanes[li]);
                check_composed(v, k, t, 70);
                for (size_t n = 0; n <= 40; n++) {
                    check_deint(v, k, t, n, 4);
                    check_deint(v, k, t, n, 5);
                }
                for (size_t n = 0; n <= 70; n++) {
                    const ptrdiff_t nj = 4 * (ptrdiff_t)n + v->a - 4; /* elements dealt */
                    const ptrdiff_t cut[][2] = {{0, nj},     {1, nj},     {2, nj - 2},
                                                {0, nj - 1}, {3, nj - 5}, {0, 0},
                                                {1, 4},      {nj, nj}};
                    const ptrdiff_t rows[][2] = {{0, v->a}, {1, v->a}, {0, v->a - 2},
                                                 {2, 3},      {0, 0},      {v->a, v->a}};
                    for (size_t ci = 0; ci < sizeof cut / sizeof cut[0]; ci++) {
                        const ptrdiff_t lo = cut[ci][0] < 0 ? 0 : cut[ci][0];
                        const ptrdiff_t hi = cut[ci][1] < lo ? lo : cut[ci][1];
                        const size_t ri = (ci + n) % (sizeof rows / sizeof rows[0]);
                        check_deintz(v, k, t, n, 0, v->a, lo, hi);
                        check_deintz(v, k, t, n, rows[ri][0], rows[ri][1], lo, hi);
                    }
                }
                for (size_t n = 0; n <= 140; n++) {
                    const ptrdiff_t nl = (ptrdiff_t)(n + 3) / 4;
                    check_inter(k, t, n, 4, nl, 0.0);
                    check_inter(k, t, n, 1 + n % 4, nl + 5, 0.0);
                    check_inter(k, t, n, 4 - n % 4, 64, -1.25);
                    check_inter(k, t, n, n % 5, nl + 1, 2.0);
                }
            }
        }
    }
    if (pdnn_cpu_isa_detected() >= PDNN_ISA_AVX512)
        for (size_t n = 0; n <= 64; n += (n < 18 ? 1 : 7)) {
            const ptrdiff_t nj = 4 * (ptrdiff_t)n + 2;
            check_split_in(n, 0, 6, 0, nj);
            check_split_in(n, 1, 6, 1, nj);
            check_split_in(n, 0, 4, 0, nj > 3 ? nj - 3 : 0);
            check_split_in(n, 2, 3, 2, nj > 2 ? nj - 1 : 2);
            check_split_in(n, 3, 3, 0, 0);
        }
    return tu_finish("ukernel/wino_transforms");
}
