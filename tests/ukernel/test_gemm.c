/* The internal GEMM (src/gemm) and its micro-kernels against a naive double oracle:
 * every tile-edge remainder, transposes, leading dimensions wider than the matrix
 * (the gaps hold NaN and must stay unread, C's gaps must stay unwritten), alpha/beta
 * (beta == 0 with NaN in C), zero sizes, K across the KC block boundary, shapes over
 * several MC and NC blocks, small-integer data (exact) and random data (1 vs 2 vs 3
 * threads bitwise, including tile-edge shapes big enough to be split between threads).
 * Each micro-kernel this CPU runs is tested (scalar, AVX2, AVX-512 for FLOAT and
 * DOUBLE), via PDNN_MAX_CPU_ISA, and each cap is checked to select its own kernel. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm/gemm.h"
#include "testutil.h"
#include "cpu/isa.h"

static const pdnn_gemm_ukernel *cur_uk; /* the kernel under test (for messages) */

static size_t esz(pdnnDataType_t t) { return t == PDNN_DATA_DOUBLE ? 8 : 4; }

/* Stored matrix of r x c logical elements with leading dim ld: NaN in the gaps. */
static void *make_mat(pdnnDataType_t t, int64_t r, int64_t c, int64_t ld, bool ints)
{
    size_t n = (size_t)(r > 0 ? r : 1) * (size_t)ld;
    void *p = tu_alloc(t, n);
    tu_poison(p, t, n);
    for (int64_t i = 0; i < r; i++)
        for (int64_t j = 0; j < c; j++)
            tu_put(p, t, (size_t)(i * ld + j), ints ? tu_int(-3, 3) : tu_uniform(-1, 1));
    return p;
}

typedef struct {
    pdnnDataType_t t;
    bool ta, tb, ints;
    int64_t m, n, k, lda, ldb, ldc;
    double alpha, beta;
} gcase;

static double opa(const gcase *g, const void *a, int64_t i, int64_t kk)
{
    return tu_get(a, g->t, (size_t)(g->ta ? kk * g->lda + i : i * g->lda + kk));
}

static double opb(const gcase *g, const void *b, int64_t kk, int64_t j)
{
    return tu_get(b, g->t, (size_t)(g->tb ? j * g->ldb + kk : kk * g->ldb + j));
}

#define SENTINEL 777.0

static void run_case(const gcase *g)
{
    const pdnnDataType_t t = g->t;
    const int64_t ar = g->ta ? g->k : g->m, ac = g->ta ? g->m : g->k;
    const int64_t br = g->tb ? g->n : g->k, bc = g->tb ? g->k : g->n;
    void *a = make_mat(t, ar, ac, g->lda, g->ints);
    void *b = make_mat(t, br, bc, g->ldb, g->ints);
    const size_t cn = (size_t)(g->m > 0 ? g->m : 1) * (size_t)g->ldc;
    void *c0 = tu_alloc(t, cn);
    for (size_t i = 0; i < cn; i++) tu_put(c0, t, i, SENTINEL);
    for (int64_t i = 0; i < g->m; i++)
        for (int64_t j = 0; j < g->n; j++)
            tu_put(c0, t, (size_t)(i * g->ldc + j),
                   g->beta == 0 ? NAN : g->ints ? tu_int(-4, 4) : tu_uniform(-1, 1));
    double *ref = malloc(cn * sizeof(double));
    for (size_t i = 0; i < cn; i++) ref[i] = tu_get(c0, t, i);
    for (int64_t i = 0; i < g->m; i++)
        for (int64_t j = 0; j < g->n; j++) {
            double s = 0;
            for (int64_t kk = 0; kk < g->k; kk++) s += opa(g, a, i, kk) * opb(g, b, kk, j);
            double r = g->alpha * s;
            if (g->beta != 0) r += g->beta * ref[i * g->ldc + j];
            ref[i * g->ldc + j] = r;
        }

    void *first = NULL;
    const int threads[3] = {1, 2, 3};
    /* 3 threads oversubscribe 2 cores: only for the smaller products */
    const int nthr = g->m * g->n * g->k > 3000000 ? 2 : 3;
    for (int ti = 0; ti < nthr; ti++) {
        void *c = tu_alloc(t, cn);
        memcpy(c, c0, cn * esz(t));
        size_t sb = pdnn_gemm_scratch_size(t, g->m, g->n, g->k, threads[ti]);
        TU_CHECK(sb != SIZE_MAX, "scratch size overflow");
        char *scratch = malloc(sb + 3);
        pdnn_gemm(t, g->ta, g->tb, g->m, g->n, g->k, g->alpha, a, g->lda, b, g->ldb, g->beta, c,
                  g->ldc, sb ? scratch + 3 : NULL, threads[ti]);
        free(scratch);
        if (ti == 0) {
            size_t bad = g->ints ? tu_count_mismatch(ref, c, t, cn) : 0;
            double err = g->ints ? 0 : tu_rel_err(ref, c, t, cn);
            double tol = t == PDNN_DATA_DOUBLE ? 1e-13 : 2e-6;
            TU_CHECK(bad == 0 && err <= tol,
                     "%s %s m=%lld n=%lld k=%lld ta=%d tb=%d ld=%lld/%lld/%lld a=%g b=%g: "
                     "%zu mismatches, rel err %.3g",
                     cur_uk->name, g->ints ? "ints" : "random", (long long)g->m,
                     (long long)g->n, (long long)g->k, g->ta, g->tb, (long long)g->lda,
                     (long long)g->ldb, (long long)g->ldc, g->alpha, g->beta, bad, err);
            first = c;
        } else {
            TU_CHECK(tu_bitwise_equal(first, c, cn * esz(t)),
                     "%s m=%lld n=%lld k=%lld: %d threads differ from 1 thread", cur_uk->name,
                     (long long)g->m, (long long)g->n, (long long)g->k, threads[ti]);
            free(c);
        }
    }
    free(first);
    free(ref);
    free(c0);
    free(a);
    free(b);
}

static void random_case(pdnnDataType_t t, int64_t m, int64_t n, int64_t k, bool ints)
{
    gcase g;
    g.t = t;
    g.ta = tu_int(0, 1);
    g.tb = tu_int(0, 1);
    g.ints = ints;
    g.m = m;
    g.n = n;
    g.k = k;
    g.lda = (g.ta ? m : k) + (tu_int(0, 2) ? 0 : tu_int(1, 5));
    g.ldb = (g.tb ? k : n) + (tu_int(0, 2) ? 0 : tu_int(1, 5));
    g.ldc = n + (tu_int(0, 2) ? 0 : tu_int(1, 5));
    if (g.lda < 1) g.lda = 1;
    if (g.ldb < 1) g.ldb = 1;
    if (g.ldc < 1) g.ldc = 1;
    static const double alphas[] = {1.0, -2.0, 0.5, 3.0};
    static const double betas[] = {0.0, 0.0, 1.0, -1.5, 0.5};
    g.alpha = alphas[tu_int(0, 3)];
    g.beta = betas[tu_int(0, 4)];
    run_case(&g);
}

/* The micro-kernel alone: every mr x nr remainder, general C strides, beta == 0 with
 * NaN, cells outside the tile untouched; A as a packed panel, as mr rows of a row-major
 * matrix and as mr columns of a column-major one (each allocated to its last element, so
 * a read of a row past mr is an out-of-bounds read for the sanitizers). */
static void test_ukernel(const pdnn_gemm_ukernel *uk)
{
    const pdnnDataType_t t = uk->dtype;
    const int MR = uk->mr, NR = uk->nr;
    static const int kcs[] = {0, 1, 3, 17, 64};
    for (int ki = 0; ki < 5; ki++) {
        const int kc = kcs[ki];
        void *a = tu_alloc(t, (size_t)(kc * MR + 1));
        void *b = tu_alloc(t, (size_t)(kc * NR + 1));
        tu_fill_int(a, t, (size_t)(kc * MR), -3, 3);
        tu_fill_int(b, t, (size_t)(kc * NR), -3, 3);
        for (int mr = 0; mr <= MR; mr++)
            for (int nr = 0; nr <= NR; nr++)
                for (int layout = 0; layout < 12; layout++) {
                    /* layout % 2 == 0: rows of NR+3; 1: C transposed in memory.
                     * layout / 2: A packed, A row-major (lda kc+2), A column-major (mr+1),
                     * A rows at offsets (the _ao entry: row i at (mr - 1 - i) * (kc + 3),
                     * rows in reverse order with gaps, unit step along k), A columns at
                     * offsets (the _ak entry: column kk at (kc - 1 - kk) * (MR + 3), rows
                     * 1 apart), A packed and B's rows read in place at offsets (the _bo
                     * entry: row kk at (kc - 1 - kk) * (NR + 5), the gaps NaN) */
                    const ptrdiff_t rs = layout % 2 ? 1 : NR + 3, cs = layout % 2 ? MR + 2 : 1;
                    const int al = layout / 2;
                    ptrdiff_t aoff[PDNN_GEMM_MR_MAX], koff[64];
                    for (int i = 0; i < mr; i++) aoff[i] = (ptrdiff_t)(mr - 1 - i) * (kc + 3);
                    for (int kk = 0; kk < kc; kk++) koff[kk] = (ptrdiff_t)(kc - 1 - kk) * (MR + 3);
                    const ptrdiff_t rs_a = al == 0 || al == 5 ? 1 : al == 1 ? kc + 2 : 1;
                    const ptrdiff_t cs_a = al == 0 || al == 5 ? MR
                                         : al == 1            ? 1
                                         : al == 2            ? mr + 1
                                                              : 1;
                    ptrdiff_t boff[64];
                    void *bw = NULL;
                    if (al == 5) { /* B's rows in reverse order, NR + 5 apart */
                        const size_t bn = (size_t)(kc * (NR + 5) + 1);
                        bw = tu_alloc(t, bn);
                        tu_poison(bw, t, bn);
                        for (int kk = 0; kk < kc; kk++) {
                            boff[kk] = (ptrdiff_t)(kc - 1 - kk) * (NR + 5);
                            for (int j = 0; j < NR; j++)
                                tu_put(bw, t, (size_t)(boff[kk] + j),
                                       tu_get(b, t, (size_t)(kk * NR + j)));
                        }
                    }
                    size_t an = al == 0 || al == 5 ? (size_t)(kc * MR)
                              : mr == 0 || kc == 0 ? 0
                              : al == 3 ? (size_t)((mr - 1) * (kc + 3) + kc)
                              : al == 4 ? (size_t)((kc - 1) * (MR + 3) + mr)
                              : (size_t)((mr - 1) * rs_a + (kc - 1) * cs_a + 1);
                    void *aw = al == 0 || al == 5 ? a : tu_alloc(t, an ? an : 1);
                    if (al != 0 && al != 5) {
                        tu_poison(aw, t, an ? an : 1);
                        for (int i = 0; i < mr; i++)
                            for (int kk = 0; kk < kc; kk++)
                                tu_put(aw, t,
                                       (size_t)(al == 3   ? aoff[i] + kk
                                                : al == 4 ? i + koff[kk]
                                                          : i * rs_a + kk * cs_a),
                                       tu_get(a, t, (size_t)(kk * MR + i)));
                    }
                    const size_t cn = (size_t)(MR + 2) * (size_t)(NR + 3);
                    const double beta = (mr + nr + layout / 2) % 2 ? 0.0 : -1.5, alpha = 2.0;
                    void *c = tu_alloc(t, cn);
                    double *ref = malloc(cn * sizeof(double));
                    for (size_t i = 0; i < cn; i++) tu_put(c, t, i, SENTINEL);
                    for (int i = 0; i < mr; i++)
                        for (int j = 0; j < nr; j++)
                            tu_put(c, t, (size_t)(i * rs + j * cs), beta == 0 ? NAN : i - j);
                    for (size_t i = 0; i < cn; i++) ref[i] = tu_get(c, t, i);
                    for (int i = 0; i < mr; i++)
                        for (int j = 0; j < nr; j++) {
                            double s = 0;
                            for (int kk = 0; kk < kc; kk++)
                                s += tu_get(a, t, (size_t)(kk * MR + i)) *
                                     tu_get(b, t, (size_t)(kk * NR + j));
                            double r = alpha * s;
                            if (beta != 0) r += beta * ref[i * rs + j * cs];
                            ref[i * rs + j * cs] = r;
                        }
                    if (t == PDNN_DATA_DOUBLE && al == 5)
                        uk->f64_bo((size_t)mr, (size_t)nr, (size_t)kc, aw, rs_a, cs_a, boff, bw, c,
                                   rs, cs, alpha, beta);
                    else if (al == 5)
                        uk->f32_bo((size_t)mr, (size_t)nr, (size_t)kc, aw, rs_a, cs_a, boff, bw, c,
                                   rs, cs, (float)alpha, (float)beta);
                    else if (t == PDNN_DATA_DOUBLE && al == 4)
                        uk->f64_ak((size_t)mr, (size_t)nr, (size_t)kc, aw, 1, koff, b, c, rs, cs,
                                   alpha, beta);
                    else if (al == 4)
                        uk->f32_ak((size_t)mr, (size_t)nr, (size_t)kc, aw, 1, koff, b, c, rs, cs,
                                   (float)alpha, (float)beta);
                    else if (t == PDNN_DATA_DOUBLE && al == 3)
                        uk->f64_ao((size_t)mr, (size_t)nr, (size_t)kc, aw, aoff, b, c, rs, cs,
                                   alpha, beta);
                    else if (t == PDNN_DATA_DOUBLE)
                        uk->f64((size_t)mr, (size_t)nr, (size_t)kc, aw, rs_a, cs_a, b, c, rs, cs,
                                alpha, beta);
                    else if (al == 3)
                        uk->f32_ao((size_t)mr, (size_t)nr, (size_t)kc, aw, aoff, b, c, rs, cs,
                                   (float)alpha, (float)beta);
                    else
                        uk->f32((size_t)mr, (size_t)nr, (size_t)kc, aw, rs_a, cs_a, b, c, rs, cs,
                                (float)alpha, (float)beta);
                    size_t bad = tu_count_mismatch(ref, c, t, cn);
                    TU_CHECK(bad == 0, "%s mr=%d nr=%d kc=%d layout %d: %zu mismatches", uk->name,
                             mr, nr, kc, layout, bad);
                    if (al != 0 && al != 5) free(aw);
                    free(bw);
                    free(c);
                    free(ref);
                }
        free(a);
        free(b);
    }
}

/* Macro-kernel: direct store vs the column-offset (scatter) path give the same bits,
 * K across several KC blocks, with beta. */
static void test_macro_coff(const pdnn_gemm_ukernel *uk)
{
    const pdnnDataType_t t = uk->dtype;
    const int64_t m = 2 * uk->mr + 1, n = 3 * uk->nr - 2, k = 2 * PDNN_GEMM_KC + 7;
    void *a = tu_alloc(t, (size_t)(m * k)), *b = tu_alloc(t, (size_t)(k * n));
    tu_fill_uniform(a, t, (size_t)(m * k), -1, 1);
    tu_fill_uniform(b, t, (size_t)(k * n), -1, 1);
    void *ap = tu_alloc(t, (size_t)pdnn_gemm_packed_a_elems(uk, m, k));
    void *bp = tu_alloc(t, (size_t)pdnn_gemm_packed_b_elems(uk, k, n));
    pdnn_gemm_pack_a(uk, m, k, a, k, 1, ap);       /* A row-major */
    pdnn_gemm_pack_b(uk, k, n, b, 1, k, bp);       /* B stored transposed */
    const size_t cn = (size_t)(m * n);
    void *c1 = tu_alloc(t, cn), *c2 = tu_alloc(t, cn);
    tu_fill_uniform(c1, t, cn, -1, 1);
    int64_t *coff = malloc((size_t)n * sizeof(int64_t));
    for (int64_t j = 0; j < n; j++) coff[j] = (n - 1 - j); /* columns reversed */
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
            tu_put(c2, t, (size_t)(i * n + coff[j]), tu_get(c1, t, (size_t)(i * n + j)));
    pdnn_gemm_macro(uk, m, n, k, ap, k * uk->mr, bp, k * uk->nr, c1, n, 1, NULL, 1.5, -0.5);
    pdnn_gemm_macro(uk, m, n, k, ap, k * uk->mr, bp, k * uk->nr, c2, n, 0, coff, 1.5, -0.5);
    size_t bad = 0;
    double *ref = malloc(cn * sizeof(double));
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double v1 = tu_get(c1, t, (size_t)(i * n + j));
            double v2 = tu_get(c2, t, (size_t)(i * n + coff[j]));
            if (memcmp(&v1, &v2, sizeof v1)) bad++;
        }
    TU_CHECK(bad == 0, "%s: column-offset path differs from direct path in %zu elements",
             uk->name, bad);
    free(ref);
    free(coff);
    free(a);
    free(b);
    free(ap);
    free(bp);
    free(c1);
    free(c2);
}

/* pdnn_gemm_pack_a / _b against their documented layouts (gemm.h), element by element:
 * sizes across the panel edges, rows or columns contiguous or neither (the transpose
 * fast paths: A with unit column stride, B with unit row stride), lanes past m or n
 * zero; a pure copy, so exact. */
static void test_pack_layouts(const pdnn_gemm_ukernel *uk)
{
    const pdnnDataType_t t = uk->dtype;
    const int64_t sizes[][2] = {{1, 1}, {5, 3}, {17, 1}, {37, 70}, {64, 129}, {3, 200}};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int lay = 0; lay < 3; lay++) {
            const int64_t r = sizes[si][0], c = sizes[si][1]; /* a r x c matrix */
            /* lay 0: row-major (lead r+2), 1: column-major (lead c+3), 2: both strided */
            const int64_t rs = lay == 0 ? c + 2 : lay == 1 ? 1 : 2 * c + 1;
            const int64_t cs = lay == 0 ? 1 : lay == 1 ? r + 3 : 2;
            const size_t ns = (size_t)((r - 1) * rs + (c - 1) * cs + 1);
            void *src = tu_alloc(t, ns);
            tu_fill_uniform(src, t, ns, -1, 1);
            /* as A (m = r, k = c) and as B (k = r, n = c) */
            void *pa = tu_alloc(t, (size_t)pdnn_gemm_packed_a_elems(uk, r, c));
            void *pb = tu_alloc(t, (size_t)pdnn_gemm_packed_b_elems(uk, r, c));
            tu_poison(pa, t, (size_t)pdnn_gemm_packed_a_elems(uk, r, c)); /* NaN: all written */
            tu_poison(pb, t, (size_t)pdnn_gemm_packed_b_elems(uk, r, c));
            pdnn_gemm_pack_a(uk, r, c, src, rs, cs, pa);
            pdnn_gemm_pack_b(uk, r, c, src, rs, cs, pb);
            size_t bad = 0;
            const int64_t mr = uk->mr, nr = uk->nr;
            for (int64_t i = 0; i < (r + mr - 1) / mr * mr; i++)
                for (int64_t j = 0; j < c; j++) {
                    const double want = i < r ? tu_get(src, t, (size_t)(i * rs + j * cs)) : 0.0;
                    bad += tu_get(pa, t, (size_t)((i / mr) * c * mr + j * mr + i % mr)) != want;
                }
            for (int64_t i = 0; i < r; i++)
                for (int64_t j = 0; j < (c + nr - 1) / nr * nr; j++) {
                    const double want = j < c ? tu_get(src, t, (size_t)(i * rs + j * cs)) : 0.0;
                    bad += tu_get(pb, t, (size_t)((j / nr) * r * nr + i * nr + j % nr)) != want;
                }
            TU_CHECK(bad == 0, "%s pack %lldx%lld layout %d: %zu wrong", uk->name, (long long)r,
                     (long long)c, lay, bad);
            free(src);
            free(pa);
            free(pb);
        }
}

static void test_zero_sizes(pdnnDataType_t t)
{
    float fc[4] = {1, 2, 3, 4};
    double dc[4] = {1, 2, 3, 4};
    void *c = t == PDNN_DATA_DOUBLE ? (void *)dc : (void *)fc;
    TU_CHECK(pdnn_gemm_scratch_size(t, 0, 5, 5, 2) == 0, "scratch for m = 0");
    TU_CHECK(pdnn_gemm_scratch_size(t, 5, 0, 5, 2) == 0, "scratch for n = 0");
    pdnn_gemm(t, false, false, 0, 2, 3, 1.0, NULL, 3, NULL, 2, 0.0, c, 2, NULL, 2);
    pdnn_gemm(t, false, false, 2, 0, 3, 1.0, NULL, 3, NULL, 1, 0.0, c, 2, NULL, 2);
    for (int i = 0; i < 4; i++) TU_CHECK(tu_get(c, t, (size_t)i) == i + 1, "m or n = 0 wrote C");
    /* k = 0: C = beta * C; with beta == 0 NaN is overwritten by 0 */
    size_t sb = pdnn_gemm_scratch_size(t, 2, 2, 0, 2);
    void *s = malloc(sb);
    pdnn_gemm(t, false, true, 2, 2, 0, 1.0, NULL, 1, NULL, 1, -2.0, c, 2, s, 2);
    for (int i = 0; i < 4; i++)
        TU_CHECK(tu_get(c, t, (size_t)i) == -2.0 * (i + 1), "k = 0, beta = -2: %g",
                 tu_get(c, t, (size_t)i));
    tu_poison(c, t, 4);
    pdnn_gemm(t, true, false, 2, 2, 0, 1.0, NULL, 1, NULL, 1, 0.0, c, 2, s, 2);
    for (int i = 0; i < 4; i++) TU_CHECK(tu_get(c, t, (size_t)i) == 0.0, "k = 0, beta = 0");
    free(s);
}

/* 2x2 by hand: [1 2; 3 4] * [5 6; 7 8] = [19 22; 43 50]. */
static void test_by_hand(void)
{
    const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
    float c[4] = {NAN, NAN, NAN, NAN};
    size_t sb = pdnn_gemm_scratch_size(PDNN_DATA_FLOAT, 2, 2, 2, 1);
    void *s = malloc(sb);
    pdnn_gemm(PDNN_DATA_FLOAT, false, false, 2, 2, 2, 1.0, a, 2, b, 2, 0.0, c, 2, s, 1);
    TU_CHECK(c[0] == 19 && c[1] == 22 && c[2] == 43 && c[3] == 50, "hand: %g %g %g %g", c[0],
             c[1], c[2], c[3]);
    /* A^T * B = [1 3; 2 4] * [5 6; 7 8] = [26 30; 38 44] */
    pdnn_gemm(PDNN_DATA_FLOAT, true, false, 2, 2, 2, 1.0, a, 2, b, 2, 0.0, c, 2, s, 1);
    TU_CHECK(c[0] == 26 && c[1] == 30 && c[2] == 38 && c[3] == 44, "hand A^T: %g %g %g %g",
             c[0], c[1], c[2], c[3]);
    free(s);
}

static void test_kernel_set(pdnnDataType_t t)
{
    const pdnn_gemm_ukernel *uk = pdnn_gemm_ukernel_select(t);
    TU_CHECK(uk != NULL && uk->dtype == t, "no kernel for %d", (int)t);
    if (!uk) return;
    cur_uk = uk;
    test_ukernel(uk);
    test_macro_coff(uk);
    /* every tile-edge remainder of M and N, small K, exact */
    for (int64_t m = 1; m <= 2 * uk->mr + 1; m++)
        for (int64_t n = 1; n <= 2 * uk->nr + 1; n++) random_case(t, m, n, tu_int(1, 9), true);
    /* K around the KC block boundary */
    static const int64_t ks[] = {0, 1, PDNN_GEMM_KC - 1, PDNN_GEMM_KC, PDNN_GEMM_KC + 1,
                                 2 * PDNN_GEMM_KC + 3};
    for (int i = 0; i < 6; i++) {
        random_case(t, tu_int(1, 20), tu_int(1, 40), ks[i], true);
        random_case(t, tu_int(1, 20), tu_int(1, 40), ks[i], false);
    }
    /* tile edges of M and N around 1, 2 and 3 tiles with K over two KC blocks: big
     * enough that 2 and 3 threads split the tiles (bitwise equal to 1 thread) */
    const int64_t mr = uk->mr, nr = uk->nr;
    const int64_t me[] = {1, mr - 1, mr, mr + 1, 2 * mr + 1, 3 * mr + 2, 5 * mr - 1};
    const int64_t ne[] = {1, nr - 1, nr, nr + 1, 2 * nr + 1, 3 * nr - 1, 4 * nr + 3};
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 7; j++) {
            if (me[i] < 1 || ne[j] < 1) continue;
            random_case(t, me[i], ne[j], PDNN_GEMM_KC + 1 + tu_int(0, 40), (i + j) % 2 == 0);
        }
    /* random shapes, a few spanning several MC and NC blocks */
    for (int i = 0; i < 30; i++)
        random_case(t, tu_int(0, 40), tu_int(0, 70), tu_int(0, 300), i % 2 == 0);
    random_case(t, 150, 300, 24, true);
    random_case(t, 160, 37, 270, false);
    random_case(t, 7, 1100, 9, false);
    /* over the cache-derived MC (~1000 rows) and NC (~4000 columns) block sizes */
    random_case(t, 1100, 23, 40, true);
    random_case(t, 1031, 19, 2 * PDNN_GEMM_KC + 9, false);
    random_case(t, 5, 4700, 30, true);
    random_case(t, 9, 8300, 3, false);
    test_zero_sizes(t);
}

/* The scratch size is bounded per thread whatever M, N and K, and the same for every
 * ISA (it is read before a kernel is chosen). */
static void test_scratch_bounds(void)
{
    const int64_t big = (int64_t)1 << 40;
    for (int ti = 0; ti < 2; ti++) {
        pdnnDataType_t t = ti ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        size_t s1 = pdnn_gemm_scratch_size(t, big, big, big, 1);
        size_t s4 = pdnn_gemm_scratch_size(t, big, big, big, 4);
        TU_CHECK(s1 > 0 && s1 < ((size_t)16 << 20), "scratch for huge sizes: %zu bytes", s1);
        TU_CHECK(s4 > s1 && s4 <= 4 * s1, "scratch for 4 threads: %zu bytes (1: %zu)", s4, s1);
        size_t sc[3];
        static const char *caps[] = {"scalar", "avx2", "avx512"};
        for (int ci = 0; ci < 3; ci++) {
            setenv("PDNN_MAX_CPU_ISA", caps[ci], 1);
            pdnn_cpu_isa_reread();
            sc[ci] = pdnn_gemm_scratch_size(t, 300, 700, 900, 2);
        }
        unsetenv("PDNN_MAX_CPU_ISA");
        pdnn_cpu_isa_reread();
        TU_CHECK(sc[0] == sc[1] && sc[1] == sc[2], "scratch depends on the ISA");
    }
}

int main(void)
{
    tu_seed(20240611);
    test_by_hand();
    test_scratch_bounds();
    static const char *caps[] = {"scalar", "avx2", "avx512"};
    const pdnn_gemm_ukernel *done[8];
    int ndone = 0;
    const pdnn_isa detected = pdnn_cpu_isa_detected();
    for (int ci = 0; ci < 3; ci++) {
        setenv("PDNN_MAX_CPU_ISA", caps[ci], 1);
        pdnn_cpu_isa_reread();
        const pdnn_isa want = (pdnn_isa)ci < detected ? (pdnn_isa)ci : detected;
        for (int ti = 0; ti < 2; ti++) {
            pdnnDataType_t t = ti ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
            const pdnn_gemm_ukernel *uk = pdnn_gemm_ukernel_select(t);
            TU_CHECK(uk && uk->isa == want, "cap %s selects %s (isa %s), expected an %s kernel",
                     caps[ci], uk ? uk->name : "nothing", uk ? pdnn_isa_name(uk->isa) : "-",
                     pdnn_isa_name(want));
            bool seen = false;
            for (int j = 0; j < ndone; j++) seen = seen || done[j] == uk;
            if (seen || !uk) continue;
            done[ndone++] = uk;
            printf("ukernel/gemm: %s\n", uk->name);
            test_kernel_set(t);
            test_pack_layouts(uk);
            /* the narrower tile this ISA offers for products of few columns */
            const pdnn_gemm_ukernel *nk = pdnn_gemm_ukernel_select_nr(t, uk->nr / 2);
            TU_CHECK(nk && nk->dtype == t && nk->isa == uk->isa, "narrow kernel of %s", uk->name);
            if (nk && nk != uk) {
                TU_CHECK(nk->nr <= uk->nr / 2, "%s: %d columns", nk->name, nk->nr);
                printf("ukernel/gemm: %s\n", nk->name);
                test_ukernel(nk);
            }
            /* and the tail tile for the last few columns (rows as the general one's) */
            const pdnn_gemm_ukernel *tk = pdnn_gemm_ukernel_select_nr(t, 16);
            TU_CHECK(tk && tk->dtype == t && tk->isa == uk->isa, "tail kernel of %s", uk->name);
            if (tk && tk != uk && tk != nk) {
                TU_CHECK(tk->nr <= 16 && tk->mr == uk->mr, "%s: %d x %d", tk->name, tk->mr, tk->nr);
                printf("ukernel/gemm: %s\n", tk->name);
                test_ukernel(tk);
            }
        }
    }
    TU_CHECK(ndone == 2 * ((int)detected + 1), "%d kernels tested for isa %s", ndone,
             pdnn_isa_name(detected));
    unsetenv("PDNN_MAX_CPU_ISA");
    pdnn_cpu_isa_reread();
    return tu_finish("ukernel/gemm");
}
