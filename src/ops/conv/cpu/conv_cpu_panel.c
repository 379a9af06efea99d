/* Column-panel GEMM engines of the direct 1x1 and implicit GEMM convolutions: see
 * conv_cpu_panel.h. */
#include "ops/conv/cpu/conv_cpu_panel.h"

#include "cpu/cache.h"

#define PDNN_INLINE static inline __attribute__((always_inline))

/* Rows of a pixel-major task block, at most. */
#define PM_ROWS_MAX 256

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

int64_t pdnn_conv_pe_kc(const pdnn_gemm_ukernel *uk, size_t es)
{
    const int64_t fit = (int64_t)(PDNN_CONV_PE_SLICE_BYTES / ((size_t)uk->nr * es));
    return min64(PDNN_GEMM_KC, fit);
}

void pdnn_conv_pe_cols_at(const pdnn_conv_gemm_geom *g, int64_t col0, int64_t n,
                          pdnn_conv_pe_cols *c)
{
    const pdnn_conv_geom3 *G = &g->geo;
    int64_t img = col0 / g->npix, o[3];
    pdnn_conv_gemm_pix(g, col0 % g->npix, o);
    bool interior = true;
    c->n = n;
    for (int64_t j = 0; j < n; j++) {
        int64_t xo = img * G->xs[0], yo = img * G->ys[0];
        for (int d = 0; d < 3; d++) {
            const int64_t cd = o[d] * G->str[d] - G->pad[d];
            c->xc[d][j] = cd;
            xo += cd * G->xs[2 + d];
            yo += o[d] * G->ys[2 + d];
            interior = interior && cd >= 0 && cd + (G->kern[d] - 1) * G->dil[d] < G->in[d];
        }
        c->xo[j] = xo;
        c->yo[j] = yo;
        pdnn_conv_gemm_pix_step(g, o, &img, 1);
    }
    c->interior = interior;
}

bool pdnn_conv_pe_uniform(const int64_t *off, int64_t n, int64_t *step)
{
    *step = n > 1 ? off[1] - off[0] : 1;
    for (int64_t j = 2; j < n; j++)
        if (off[j] - off[j - 1] != *step) return false;
    return true;
}

/* ---- gather */

#define GATHER_BODY(T)                                                                   \
    do {                                                                                 \
        const T *s = src;                                                                \
        T *d = dst;                                                                      \
        int64_t cstep, rstep;                                                            \
        const bool cuni = pdnn_conv_pe_uniform(co, ncol, &cstep);                        \
        const bool runi = pdnn_conv_pe_uniform(ro, nrow, &rstep);                        \
        if (!(cuni && cstep == 1) && runi && rstep == 1 && ncol > 1) {                   \
            /* a transpose: read along the rows' adjacent elements, 8 columns a pass */   \
            int64_t j = 0;                                                               \
            for (; j + 8 <= ncol; j += 8) {                                              \
                const T *s0 = s + ro[0];                                                 \
                for (int64_t r = 0; r < nrow; r++)                                       \
                    for (int jj = 0; jj < 8; jj++) d[r * w + j + jj] = s0[co[j + jj] + r];  \
            }                                                                            \
            for (; j < ncol; j++) {                                                      \
                const T *sj = s + ro[0] + co[j];                                         \
                for (int64_t r = 0; r < nrow; r++) d[r * w + j] = sj[r];                 \
            }                                                                            \
            if (ncol < w)                                                                \
                for (int64_t r = 0; r < nrow; r++)                                       \
                    for (int64_t jj = ncol; jj < w; jj++) d[r * w + jj] = 0;             \
            break;                                                                       \
        }                                                                                \
        for (int64_t r = 0; r < nrow; r++) {                                             \
            T *restrict dr = d + r * w;                                                  \
            const T *restrict sr = s + ro[r];                                            \
            int64_t j = 0;                                                               \
            if (cuni && cstep == 1) {                                                    \
                sr += co[0];                                                             \
                for (; j < ncol; j++) dr[j] = sr[j];                                     \
                /* the next panel's part of this row, usually next in memory: fetched \
                 * now, since rows far apart defeat the hardware prefetchers */          \
                for (int64_t b = 0; b < ncol * (int64_t)sizeof(T); b += 64)              \
                    __builtin_prefetch((const char *)(sr + ncol) + b);                   \
            } else if (cuni) {                                                           \
                sr += co[0];                                                             \
                for (; j < ncol; j++) dr[j] = sr[j * cstep];                             \
            } else {                                                                     \
                for (; j < ncol; j++) dr[j] = sr[co[j]];                                 \
            }                                                                            \
            for (; j < w; j++) dr[j] = 0;                                                \
        }                                                                                \
    } while (0)

void pdnn_conv_pe_gather(size_t es, int w, int64_t nrow, int64_t ncol, const void *src,
                         const int64_t *ro, const int64_t *co, void *dst)
{
    if (es == sizeof(float))
        GATHER_BODY(float);
    else
        GATHER_BODY(double);
}

void pdnn_conv_pe_gather_rows(const pdnn_conv_pe_cm *e, int64_t grp,
                              const pdnn_conv_pe_cols *c, int64_t k0, int64_t kc, void *dst)
{
    int64_t ro[PDNN_GEMM_KC];
    const int64_t base = grp * e->s_gs + k0 * e->s_rs;
    for (int64_t r = 0; r < kc; r++) ro[r] = base + r * e->s_rs;
    pdnn_conv_pe_gather(e->g->es, e->g->uk->nr, kc, c->n, e->src, ro, e->c_is_x ? c->yo : c->xo,
                        dst);
}

/* Runs of a panel's columns along one x row: same image, o0 and o1, consecutive o2
 * (x origins a stride apart). */
typedef struct {
    int64_t j0, j1;
} col_run;

static int col_runs(const pdnn_conv_geom3 *G, const pdnn_conv_pe_cols *c, col_run *r)
{
    int n = 0;
    for (int64_t j = 0; j < c->n; j++) {
        if (j == 0 || c->xc[0][j] != c->xc[0][j - 1] || c->xc[1][j] != c->xc[1][j - 1] ||
            c->xc[2][j] != c->xc[2][j - 1] + G->str[2] ||
            c->xo[j] != c->xo[j - 1] + G->str[2] * G->xs[4]) {
            r[n].j0 = j;
            n++;
        }
        r[n - 1].j1 = j + 1;
    }
    return n;
}

/* One run of one tap: zeros where the tap falls outside x, a strided copy inside. */
#define GATHER_TAPS_BODY(T)                                                              \
    do {                                                                                 \
        const T *s = (const T *)x;                                                       \
        T *d = dst;                                                                      \
        const int64_t step = G->str[2] * G->xs[4];                                       \
        for (int64_t kk = 0; kk < kc; kk++, d += nr) {                                   \
            const pdnn_conv_gemm_tap *tp = tap + kk;                                     \
            for (int u = 0; u < nrun; u++) {                                             \
                const int64_t j0 = run[u].j0, j1 = run[u].j1;                            \
                int64_t lo = j1, hi = j1;                                                \
                if ((uint64_t)(c->xc[0][j0] + tp->e[0]) < (uint64_t)G->in[0] &&          \
                    (uint64_t)(c->xc[1][j0] + tp->e[1]) < (uint64_t)G->in[1]) {          \
                    /* 0 <= xc2 + (j - j0) s + e2 < in2 */                               \
                    const int64_t c2 = c->xc[2][j0] + tp->e[2], st = G->str[2];          \
                    lo = c2 >= 0 ? j0 : j0 + (-c2 + st - 1) / st;                        \
                    hi = c2 >= G->in[2] ? j0 : j0 + (G->in[2] - c2 + st - 1) / st;       \
                    if (lo > j1) lo = j1;                                                \
                    if (hi > j1) hi = j1;                                                \
                    if (hi < lo) hi = lo;                                                \
                }                                                                        \
                int64_t j = j0;                                                          \
                for (; j < lo; j++) d[j] = 0;                                            \
                if (hi > lo) {                                                           \
                    const T *sp = s + tp->off + c->xo[lo];                               \
                    if (step == 1)                                                       \
                        for (; j < hi; j++) d[j] = sp[j - lo];                           \
                    else                                                                 \
                        for (; j < hi; j++) d[j] = sp[(j - lo) * step];                  \
                }                                                                        \
                for (; j < j1; j++) d[j] = 0;                                            \
            }                                                                            \
            for (int64_t j = c->n; j < nr; j++) d[j] = 0;                                \
        }                                                                                \
    } while (0)

void pdnn_conv_pe_gather_taps(const pdnn_conv_gemm_geom *g, const char *x,
                              const pdnn_conv_pe_cols *c, const pdnn_conv_gemm_tap *tap,
                              int64_t kc, void *dst)
{
    const int64_t nr = g->uk->nr;
    if (c->interior) { /* no bounds checks: the plain gather with its fast paths */
        int64_t ro[PDNN_GEMM_KC];
        for (int64_t kk = 0; kk < kc; kk++) ro[kk] = tap[kk].off;
        pdnn_conv_pe_gather(g->es, (int)nr, kc, c->n, x, ro, c->xo, dst);
        return;
    }
    const pdnn_conv_geom3 *G = &g->geo;
    col_run run[PDNN_GEMM_NR_MAX];
    const int nrun = col_runs(G, c, run);
    if (g->es == sizeof(float))
        GATHER_TAPS_BODY(float);
    else
        GATHER_TAPS_BODY(double);
}

/* ---- micro-kernel and stores */

void pdnn_conv_pe_ukernel(const pdnn_gemm_ukernel *uk, int64_t mm, int64_t nn, int64_t kc,
                          const void *a, int64_t rs_a, int64_t cs_a, const void *b, void *c,
                          int64_t rs_c, int64_t cs_c, double alpha, double beta)
{
    if (uk->f32)
        uk->f32((size_t)mm, (size_t)nn, (size_t)kc, a, (ptrdiff_t)rs_a, (ptrdiff_t)cs_a, b, c,
                (ptrdiff_t)rs_c, (ptrdiff_t)cs_c, (float)alpha, (float)beta);
    else
        uk->f64((size_t)mm, (size_t)nn, (size_t)kc, a, (ptrdiff_t)rs_a, (ptrdiff_t)cs_a, b, c,
                (ptrdiff_t)rs_c, (ptrdiff_t)cs_c, alpha, beta);
}

/* d[j] = alpha * t[j] (+ beta * d[j]) for j < n: the micro-kernel's epilogue on a tile
 * computed with alpha = 1, beta = 0 (a separate multiply and add, in the data type). */
#define BLEND_RUN(T)                                                                     \
    do {                                                                                 \
        T *restrict dd = (T *)d;                                                         \
        const T *restrict tt = (const T *)t;                                             \
        const T al = (T)alpha, be = (T)beta;                                             \
        if (be != 0)                                                                     \
            for (int64_t j = 0; j < n; j++) {                                            \
                T v = al * tt[j];                                                        \
                T u = be * dd[j];                                                        \
                dd[j] = v + u;                                                           \
            }                                                                            \
        else                                                                             \
            for (int64_t j = 0; j < n; j++) dd[j] = al * tt[j];                          \
    } while (0)

static void blend_run(size_t es, char *d, const char *t, int64_t n, double alpha, double beta)
{
    if (es == sizeof(float))
        BLEND_RUN(float);
    else
        BLEND_RUN(double);
}

void pdnn_conv_pe_store_cols(const pdnn_gemm_ukernel *uk, size_t es, int64_t mm, int64_t nn,
                             int64_t kc, const void *a, int64_t rs_a, int64_t cs_a,
                             const void *b, char *c, int64_t rs, const int64_t *co,
                             double alpha, double beta)
{
    int64_t step;
    if (pdnn_conv_pe_uniform(co, nn, &step)) {
        pdnn_conv_pe_ukernel(uk, mm, nn, kc, a, rs_a, cs_a, b, c + co[0] * (int64_t)es, rs,
                             step, alpha, beta);
        return;
    }
    _Alignas(64) char tile[PDNN_GEMM_MR_MAX * PDNN_GEMM_NR_MAX * sizeof(double)];
    const int64_t nr = uk->nr;
    pdnn_conv_pe_ukernel(uk, mm, nn, kc, a, rs_a, cs_a, b, tile, nr, 1, 1.0, 0.0);
    for (int64_t j = 0; j < nn;) { /* runs of adjacent columns */
        int64_t j1 = j + 1;
        while (j1 < nn && co[j1] == co[j1 - 1] + 1) j1++;
        for (int64_t i = 0; i < mm; i++)
            blend_run(es, c + (i * rs + co[j]) * (int64_t)es, tile + (i * nr + j) * (int64_t)es,
                      j1 - j, alpha, beta);
        j = j1;
    }
}

void pdnn_conv_pe_store_rows(const pdnn_gemm_ukernel *uk, size_t es, int64_t mm, int64_t nn,
                             int64_t kc, const void *a, int64_t rs_a, int64_t cs_a,
                             const void *b, char *c, const int64_t *ro, double alpha,
                             double beta)
{
    int64_t step;
    if (pdnn_conv_pe_uniform(ro, mm, &step)) {
        pdnn_conv_pe_ukernel(uk, mm, nn, kc, a, rs_a, cs_a, b, c + ro[0] * (int64_t)es, step, 1,
                             alpha, beta);
        return;
    }
    _Alignas(64) char tile[PDNN_GEMM_MR_MAX * PDNN_GEMM_NR_MAX * sizeof(double)];
    const int64_t nr = uk->nr;
    pdnn_conv_pe_ukernel(uk, mm, nn, kc, a, rs_a, cs_a, b, tile, nr, 1, 1.0, 0.0);
    for (int64_t i = 0; i < mm; i++)
        blend_run(es, c + ro[i] * (int64_t)es, tile + i * nr * (int64_t)es, nn, alpha, beta);
}

/* ---- channel-major engine */

/* Rows of A kept in L2 across the column panels of a task: about half of L2. */
static int64_t a_block_rows(const pdnn_gemm_ukernel *uk, int64_t k, size_t es)
{
    const size_t l2 = pdnn_cpu_cache_sizes()->l2;
    const int64_t rows = (int64_t)(l2 / 2 / ((size_t)max64(k, 1) * es));
    return max64(uk->mr, rows / uk->mr * uk->mr);
}

pdnn_conv_pe_tiles pdnn_conv_pe_cm_tiles(const pdnn_conv_pe_cm *e, int nthreads)
{
    const pdnn_gemm_ukernel *uk = e->g->uk;
    const int64_t mr = uk->mr, np = cdiv(e->g->ncols, uk->nr);
    const int64_t want = nthreads > 1 ? 4 * (int64_t)nthreads : 1;
    pdnn_conv_pe_tiles t;
    t.mbr = min64(max64(cdiv(e->m, mr), 1) * mr, a_block_rows(uk, e->k, e->g->es));
    t.cbp = 8;
    for (;;) {
        t.mb = max64(cdiv(e->m, t.mbr), 1);
        t.cb = cdiv(np, t.cbp);
        t.ntasks = e->g->g * t.mb * t.cb;
        if (t.ntasks >= want) break;
        if (t.cbp > 1)
            t.cbp = cdiv(t.cbp, 2);
        else if (t.mbr > mr)
            t.mbr = cdiv(cdiv(t.mbr, 2), mr) * mr;
        else
            break;
    }
    return t;
}

/* Column panels sharing one pass over the rows (their slices fill the stack buffer
 * when K is small). */
#define CM_GROUP_MAX 4

void pdnn_conv_pe_cm_task(const pdnn_conv_pe_cm *e, const pdnn_conv_pe_tiles *tl, int64_t t)
{
    const pdnn_conv_gemm_geom *g = e->g;
    const pdnn_gemm_ukernel *uk = g->uk;
    const int64_t mr = uk->mr, nr = uk->nr, es = (int64_t)g->es;
    const int64_t per = tl->mb * tl->cb, grp = t / per, r = t % per;
    const int64_t i0 = (r / tl->cb) * tl->mbr, i1 = min64(e->m, i0 + tl->mbr);
    const int64_t q0 = (r % tl->cb) * tl->cbp, q1 = min64(cdiv(g->ncols, nr), q0 + tl->cbp);
    if (i0 >= i1) return;
    const int64_t kcmax = pdnn_conv_pe_kc(uk, g->es);
    const int64_t slice = min64(kcmax, max64(e->k, 1)) * nr * es; /* bytes of a full slice */
    const int64_t gmax = min64(CM_GROUP_MAX, max64(1, (int64_t)PDNN_CONV_PE_SLICE_BYTES / slice));
    _Alignas(64) char bbuf[PDNN_CONV_PE_SLICE_BYTES];
    pdnn_conv_pe_cols cols[CM_GROUP_MAX];
    char *cg = e->dst + grp * e->d_gs * es;
    const char *ag = e->a + grp * e->a_gs * es;
    for (int64_t qa = q0; qa < q1; qa += gmax) {
        const int64_t ng = min64(gmax, q1 - qa);
        for (int64_t u = 0; u < ng; u++) {
            const int64_t col0 = (qa + u) * nr, ncol = min64(nr, g->ncols - col0);
            if (e->cols)
                e->cols(e, col0, ncol, &cols[u]);
            else
                pdnn_conv_pe_cols_at(g, col0, ncol, &cols[u]);
        }
        int64_t pc = 0;
        do {
            const int64_t kc = min64(kcmax, e->k - pc);
            for (int64_t u = 0; u < ng && kc > 0; u++)
                e->gather(e, grp, &cols[u], pc, kc, bbuf + u * kc * nr * es);
            const double beff = pc == 0 ? e->beta : 1.0;
            for (int64_t i = i0; i < i1; i += mr) {
                const char *a = ag + ((i / mr) * e->a_ps + pc * e->a_cs) * es;
                for (int64_t u = 0; u < ng; u++)
                    pdnn_conv_pe_store_cols(uk, g->es, min64(mr, i1 - i), cols[u].n, kc, a, e->a_rs,
                                            e->a_cs, bbuf + u * kc * nr * es, cg + i * e->d_rs * es,
                                            e->d_rs, e->c_is_x ? cols[u].xo : cols[u].yo, e->alpha,
                                            beff);
            }
            pc += kc;
        } while (pc < e->k);
    }
}

/* ---- pixel-major engine */

pdnn_conv_pe_tiles pdnn_conv_pe_pm_tiles(const pdnn_conv_pe_pm *e, int nthreads)
{
    const pdnn_gemm_ukernel *uk = e->g->uk;
    const int64_t mr = uk->mr, nr = uk->nr, np = cdiv(e->n2, nr);
    const int64_t want = nthreads > 1 ? 4 * (int64_t)nthreads : 1;
    const size_t l2 = pdnn_cpu_cache_sizes()->l2;
    const int64_t kc = min64(pdnn_conv_pe_kc(uk, e->g->es), max64(e->k, 1));
    pdnn_conv_pe_tiles t;
    t.mbr = min64(PM_ROWS_MAX / mr, 16) * mr;
    /* a KC x (cbp * NR) block of B takes about half of L2 */
    t.cbp = max64(1, (int64_t)(l2 / 2 / ((size_t)(kc * nr) * e->g->es)));
    t.cbp = min64(t.cbp, max64(np, 1));
    for (;;) {
        t.mb = cdiv(e->g->ncols, t.mbr);
        t.cb = max64(cdiv(np, t.cbp), 1);
        t.ntasks = e->g->g * t.mb * t.cb;
        if (t.ntasks >= want) break;
        if (t.mbr > mr)
            t.mbr = cdiv(cdiv(t.mbr, 2), mr) * mr;
        else if (t.cbp > 1)
            t.cbp = cdiv(t.cbp, 2);
        else
            break;
    }
    return t;
}

void pdnn_conv_pe_pm_task(const pdnn_conv_pe_pm *e, const pdnn_conv_pe_tiles *tl, int64_t t)
{
    const pdnn_conv_gemm_geom *g = e->g;
    const pdnn_gemm_ukernel *uk = g->uk;
    const int64_t mr = uk->mr, nr = uk->nr, es = (int64_t)g->es;
    const int64_t per = tl->mb * tl->cb, grp = t / per, r = t % per;
    const int64_t r0 = (r / tl->cb) * tl->mbr, r1 = min64(g->ncols, r0 + tl->mbr);
    const int64_t q0 = (r % tl->cb) * tl->cbp, q1 = min64(cdiv(e->n2, nr), q0 + tl->cbp);
    if (r0 >= r1 || q0 >= q1) return;
    int64_t so[PM_ROWS_MAX], dof[PM_ROWS_MAX];
    {
        pdnn_conv_pe_cols cols;
        for (int64_t c0 = r0; c0 < r1; c0 += PDNN_GEMM_NR_MAX) {
            const int64_t n = min64(PDNN_GEMM_NR_MAX, r1 - c0);
            pdnn_conv_pe_cols_at(g, c0, n, &cols);
            for (int64_t j = 0; j < n; j++) {
                so[c0 - r0 + j] = e->a_is_x ? cols.xo[j] : cols.yo[j];
                dof[c0 - r0 + j] = e->a_is_x ? cols.yo[j] : cols.xo[j];
            }
        }
    }
    const int64_t kcmax = pdnn_conv_pe_kc(uk, g->es);
    _Alignas(64) char apan[PDNN_GEMM_MR_MAX * PDNN_GEMM_KC * sizeof(double)];
    const char *sg = e->src + grp * e->s_gs * es;
    const char *bg = e->bp + grp * e->b_gs * es;
    char *dg = e->dst + grp * e->d_gs * es;
    int64_t pc = 0;
    do {
        const int64_t kc = min64(kcmax, e->k - pc);
        const double beff = pc == 0 ? e->beta : 1.0;
        for (int64_t i = r0; i < r1; i += mr) {
            const int64_t mm = min64(mr, r1 - i);
            const int64_t *ro = so + (i - r0);
            const char *a = apan;
            int64_t rs_a = 1, cs_a = mr, step;
            if (kc > 0 && pdnn_conv_pe_uniform(ro, mm, &step)) { /* rows read in place */
                a = sg + (ro[0] + pc) * es;
                rs_a = step;
                cs_a = 1;
            } else if (kc > 0) { /* rows not evenly spaced: packed */
                int64_t ks[PDNN_GEMM_KC];
                for (int64_t kk = 0; kk < kc; kk++) ks[kk] = pc + kk;
                pdnn_conv_pe_gather(g->es, (int)mr, kc, mm, sg, ks, ro, apan);
            }
            for (int64_t q = q0; q < q1; q++) {
                const int64_t nn = min64(nr, e->n2 - q * nr);
                const char *b = bg + (q * e->k * nr + pc * nr) * es;
                pdnn_conv_pe_store_rows(uk, g->es, mm, nn, kc, a, rs_a, cs_a, b,
                                        dg + q * nr * es, dof + (i - r0), e->alpha, beff);
            }
        }
        pc += kc;
    } while (pc < e->k);
}
