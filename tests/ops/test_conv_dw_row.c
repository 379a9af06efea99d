/* The row-vector 3x3 depthwise path (conv_cpu_direct_dw_row.c, rows as vectors read in
 * place by masked loads, AVX-512 only) against the
 * independent oracle of tests/common/tu_conv.h, run directly through a test entry whose
 * supports() is pdnn_dwrow_applies: widths from 7 (6 refused; up to 8: two
 * planes a vector, an odd last plane alone, the backward filter's pairs' tap sums 16 at a
 * time; up to 16: two planes a call; 17-32: two vectors, one plane; 33-130 columns: strips
 * of 4 vectors and a last strip of 1-4, the backward filter vector by vector, a whole or
 * partial last vector), heights 1-14 (one row: only
 * the middle tap row), channel counts that cross the 8-plane calls and pairs (a single last
 * plane; backward filter: blocks of up to 32 channels, their tap sums 16 at a time
 * across planes), minibatches 1-40 (the backward filter's images in registers), flip, KRSC
 * (gathered weights), gapped layouts (refused: rows or planes at other strides);
 * every direction where the documented rules say so, exact on small integers, beta != 0
 * and NaN-poisoned outputs (beta == 0), alpha 1 / 2 / -0.5 (the kernel's three store
 * modes), 1 and 2 threads bitwise (the harness). A destination beyond
 * PDNN_CONV_STREAM_BYTES (forward, backward data; alpha 1 and 2): stored non-temporally
 * where 64-byte aligned, the same bits as one float off alignment (plain stores) and as
 * the sums written out here. Then the same shapes through
 * cpu:direct_dw's dispatch at every ISA cap (PDNN_MAX_CPU_ISA: the other paths below
 * AVX-512). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_row.h"
#include "tu_conv.h"
#include "tu_layout.h"



static long path_runs; /* exec calls the path ran */

static bool rw_supports(const void *prob, const char **why)
{
    if (pdnn_dwrow_applies(prob)) return true;
    *why = "outside the row-vector path";
    return false;
}

static pdnnStatus_t rw_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    path_runs++;
    return pdnn_dw_path_run(&pdnn_dwrow_path, prob, args, ctx->nthreads)
               ? PDNN_STATUS_SUCCESS
               : PDNN_STATUS_INTERNAL_ERROR;
}

static const pdnn_impl rw_entry = {"test:dw_row", -1, PDNN_ISA_AVX512, PDNN_IMPL_DETERMINISTIC,
                                   rw_supports, NULL, rw_exec};

static const int cfg[][4] = {
    /* h, w, channels, n */
    {14, 14, 37, 3}, {7, 7, 19, 2},  {7, 7, 3, 16},   {7, 7, 5, 15},  {1, 8, 3, 98},
    {4, 6, 3, 40},   {9, 8, 3, 11},  {14, 14, 3, 40}, {1, 9, 3, 5},   {1, 16, 2, 3},
    {2, 17, 3, 2},   {3, 32, 2, 2},  {5, 31, 3, 1},   {4, 15, 5, 2},  {14, 16, 2, 4},
    {6, 8, 9, 1},    {3, 10, 4, 3},  {9, 12, 2, 2},   {2, 28, 3, 3},  {28, 28, 2, 1},
    {1, 30, 3, 2},   {11, 24, 1, 2}, {13, 9, 17, 1},  {8, 33, 2, 1},  {5, 40, 2, 1},
    {2, 13, 70, 2},  {3, 14, 33, 3},  {7, 7, 21, 16}, {5, 8, 36, 20}, {1, 33, 2, 2},
    {3, 48, 3, 1},   {9, 56, 2, 2},  {2, 63, 2, 1},   {4, 64, 3, 1},  {5, 65, 2, 2},
    {10, 80, 1, 1},  {12, 112, 2, 1}, {3, 130, 2, 1}, {2, 100, 3, 2}};

static tu_conv_shape cfg_shape(int i)
{
    const int *c = cfg[i];
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, c[3], c[2], 1, 1, c[0], c[1], 3, 3, 1, 1, 1);
    s.flip = i % 3 == 1;
    s.krsc = i % 4 == 2;
    tu_conv_finish_shape(&s);
    return s;
}

/* The documented rules (conv_cpu_direct_dw_row.c) for a packed 3x3 "same" shape. */
static bool rw_expected(const tu_conv_shape *s, pdnn_conv_dir dir)
{
    (void)dir;
    return s->in[1] >= 7;
}

static void test_path(void)
{
    const bool avx512 = pdnn_cpu_isa() >= PDNN_ISA_AVX512;
    static const double al[] = {1, 2, -0.5}, be[] = {0, 0.5, 0, -1.5};
    int ran = 0;
    const long runs0 = path_runs;
    for (int i = 0; i < (int)(sizeof cfg / sizeof cfg[0]); i++) {
        const int *c = cfg[i];
        const tu_conv_shape s = cfg_shape(i);
        for (int d = 0; d < 3; d++) {
            const pdnn_conv_dir dir = (pdnn_conv_dir)d;
            tu_conv_setup cs;
            tu_conv_setup_init(&cs, &s, dir);
            const bool want = avx512 && rw_expected(&s, dir);
            TU_CHECK(pdnn_dwrow_applies(&cs.p) == want, "row path %dx%d %s: applies %d, expected %d",
                     c[0], c[1], tu_conv_dir_name(dir), !want, want);
            if (!want) continue;
            for (int k = 0; k < 2; k++)
                tu_conv_check(&rw_entry, &s, dir, (i + k) % 5 != 4, al[(i + d + k) % 3],
                              be[(i + 2 * d + k) % 4], 0, true);
            ran++;
        }
    }
    /* each check runs the entry twice (1 and 2 threads) */
    TU_CHECK(!avx512 || (ran >= 70 && path_runs - runs0 >= 4 * ran),
             "row path: %d direction cases, %ld path runs", ran, path_runs - runs0);
    /* refused: stride 2, padding 0, dilation 2, 5x5, multiplier 2, NHWC, gapped rows,
     * double, 1-d */
    tu_conv_shape rs[9];
    rs[0] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 2, 1, 1);
    rs[1] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 1, 0, 1);
    rs[2] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 1, 2, 2);
    rs[3] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 5, 5, 1, 2, 1);
    rs[4] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 2, 14, 14, 3, 3, 1, 1, 1);
    rs[5] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 1, 1, 1);
    rs[5].xkind = rs[5].ykind = TU_LAYOUT_CHANNELS_LAST;
    rs[6] = tu_conv_shape2d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 14, 3, 3, 1, 1, 1);
    rs[6].xkind = rs[6].ykind = TU_LAYOUT_GAPPED;
    rs[7] = tu_conv_shape2d(PDNN_DATA_DOUBLE, 2, 3, 1, 1, 14, 14, 3, 3, 1, 1, 1);
    rs[8] = tu_conv_shape1d(PDNN_DATA_FLOAT, 2, 3, 1, 1, 14, 3, 1, 1, 1);
    for (int i = 0; i < 9; i++) {
        tu_conv_finish_shape(&rs[i]);
        for (int d = 0; d < 3; d++) {
            tu_conv_setup cs;
            tu_conv_setup_init(&cs, &rs[i], (pdnn_conv_dir)d);
            /* a gapped layout may keep the rows back to back: only its strided rows refused */
            if (i == 6 && cs.p.xs[2] == 14 && cs.p.ys[2] == 14 && cs.p.xs[3] == 1 &&
                cs.p.ys[3] == 1)
                continue;
            TU_CHECK(!pdnn_dwrow_applies(&cs.p), "row path: refusal %d %s", i,
                     tu_conv_dir_name((pdnn_conv_dir)d));
        }
    }
}

/* 6 images x 64 channels of 56 x 112: 9.6 MB a tensor, rows of 7 whole vectors. */
static void test_stream(void)
{
    if (pdnn_cpu_isa() < PDNN_ISA_AVX512) return;
    enum { N = 6, C = 64, H = 56, W = 112 };
    const size_t plane = (size_t)H * W, tot = (size_t)N * C * plane;
    float *src = malloc(tot * sizeof(float)), *w = malloc(C * 9 * sizeof(float));
    float *ref = malloc(tot * sizeof(float));
    float *a = aligned_alloc(64, (tot + 16) * sizeof(float));
    float *b = aligned_alloc(64, (tot + 16) * sizeof(float));
    TU_CHECK(src && w && ref && a && b, "stream: out of memory");
    if (!(src && w && ref && a && b)) goto done;
    for (size_t i = 0; i < tot; i++) src[i] = (float)(int)tu_uniform(-3, 4);
    for (int i = 0; i < C * 9; i++) w[i] = (float)(int)tu_uniform(-2, 3);
    for (int d = 0; d < 2; d++) {
        const bool bwd = d == 1;
        tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, N, C, 1, 1, H, W, 3, 3, 1, 1, 1);
        tu_conv_finish_shape(&s);
        tu_conv_setup cs;
        tu_conv_setup_init(&cs, &s, bwd ? PDNN_CONV_BWD_DATA : PDNN_CONV_FWD);
        const float alpha = bwd ? 2.0f : 1.0f;
        /* dst[i][j] = alpha sum w[t] src[i + r - 1][j + c - 1] (backward data: the
         * rotated filter), small integers: exact in any order */
        for (size_t pl = 0; pl < (size_t)N * C; pl++) {
            const float *sp = src + pl * plane, *wp = w + (pl % C) * 9;
            for (int i = 0; i < H; i++)
                for (int j = 0; j < W; j++) {
                    float acc = 0;
                    for (int r = 0; r < 3; r++)
                        for (int c = 0; c < 3; c++) {
                            const int y = i + r - 1, x = j + c - 1;
                            if (y < 0 || y >= H || x < 0 || x >= W) continue;
                            acc += wp[bwd ? 8 - (3 * r + c) : 3 * r + c] * sp[y * W + x];
                        }
                    ref[pl * plane + (size_t)i * W + (size_t)j] = alpha * acc;
                }
        }
        bool ok = bwd ? pdnn_dwrow_bwd_data(&cs.p, src, w, a, alpha, 0, 2) &&
                            pdnn_dwrow_bwd_data(&cs.p, src, w, b + 1, alpha, 0, 2)
                      : pdnn_dwrow_fwd(&cs.p, src, w, a, alpha, 0, 2) &&
                            pdnn_dwrow_fwd(&cs.p, src, w, b + 1, alpha, 0, 2);
        TU_CHECK(ok, "stream %s: the path refused", tu_conv_dir_name(cs.p.dir));
        TU_CHECK(memcmp(a, b + 1, tot * sizeof(float)) == 0,
                 "stream %s: aligned (streamed) and unaligned destinations differ",
                 tu_conv_dir_name(cs.p.dir));
        size_t bad = 0;
        for (size_t i = 0; i < tot; i++) bad += a[i] != ref[i];
        TU_CHECK(bad == 0, "stream %s: %zu of %zu outputs differ from the sums",
                 tu_conv_dir_name(cs.p.dir), bad, tot);
    }
done:
    free(src);
    free(w);
    free(ref);
    free(a);
    free(b);
}

int main(void)
{
    tu_seed(1414);
    const char *cap = getenv("PDNN_MAX_CPU_ISA");
    test_path();
    test_stream();
    /* the shapes through the family's dispatch, at every ISA cap the CPU has */
    tu_conv_check_family_caps(&tu_conv_family_dw, (int)(sizeof cfg / sizeof cfg[0]), cfg_shape,
                              cap && *cap);
    printf("conv dw row vectors: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_dw_row");
}
