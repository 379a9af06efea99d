/* The FLOAT fast paths of cpu:direct_1x1 one by one, each on shapes that must take it
 * (the path's applies() is checked first, so a changed heuristic fails here instead of
 * silently testing another path), against the independent oracle of tu_conv.h:
 *  - transposed backward data (conv_cpu_direct_1x1_bwdd_t.c, dX^T = dY^T W): few
 *    columns, K blocks past 256, channel remainders of the 64 / 16 / 8 lanes, an odd
 *    count of channel blocks (halved for two threads), groups, stride 2 and gapped dx
 *    (scattered, pixels no output reads), 1-d and 3-d, batch 2-3;
 *    and the shapes just outside it (more columns, batched short images), which must
 *    still be right through the other paths;
 *  - the ldb path (conv_cpu_direct_1x1_ldb.c), forward and backward data: few images
 *    split among the threads by rows and by pixel blocks, both channel blocks, stride-2
 *    gathers (short rows, runs past 256), gapped x, batched short images; its 8 x 32
 *    kernel (forward with 8-56 output channels, backward data with 8-56 channels of a
 *    small filter), the sums' equal channel blocks, backward
 *    data's tail of 1-4 pixels (W^T transposed into rows); backward data's batched
 *    short images with dx's pixels contiguous (written in one pass) and gapped (scattered);
 *    the forward's B blocks copied into panels where x's rows are not 64 bytes apart;
 *  - backward filter: the dot-product path up to 8192 filter elements (AVX-512; one
 *    pass, or pixel blocks with the lanes kept between them, in one part or two split
 *    mid-image), the GEMM form past it (on
 *    the 12 x 32 kernel where its tiles are fuller; one image's blocks balanced between
 *    the threads), its K blocks across short images (FLOAT and DOUBLE); on AVX2 the
 *    GEMM form with the pixels as the sum (conv_cpu_direct_1x1_bwdf_a2.c).
 * Each with alpha / beta pairs (beta == 0 on a NaN-poisoned output, beta != 0 blended),
 * small-integer data exact and random data within 1e-5, 1 and 2 threads bitwise (the
 * harness). Run again under PDNN_MAX_CPU_ISA=avx2 and scalar (tests/CMakeLists.txt). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "cpu/cache.h"
#include "cpu/isa.h"
#include "ops/conv/cpu/conv_cpu_direct_1x1.h"
#include "tu_conv.h"
#include "tu_layout.h"

extern const pdnn_impl pdnn_conv_fwd_cpu_direct_1x1;
extern const pdnn_impl pdnn_conv_bwd_data_cpu_direct_1x1;
extern const pdnn_impl pdnn_conv_bwd_filter_cpu_direct_1x1;

static const pdnn_impl *const im1x1[3] = {&pdnn_conv_fwd_cpu_direct_1x1,
                                          &pdnn_conv_bwd_data_cpu_direct_1x1,
                                          &pdnn_conv_bwd_filter_cpu_direct_1x1};

typedef bool (*path_fn)(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g);

static bool takes_bwdd_t(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g)
{
    return pdnn_conv_1x1_bwdd_t_applies(p, g);
}

static bool takes_ldb(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g)
{
    return pdnn_conv_1x1_ldb_applies(g) && !pdnn_conv_1x1_gemv_applies(p, g) &&
           (p->dir != PDNN_CONV_BWD_DATA || !pdnn_conv_1x1_bwdd_t_applies(p, g));
}

static bool takes_dot(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g)
{
    (void)p;
    return pdnn_conv_1x1_dot_applies(g);
}

static bool takes_a2(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g)
{
    return !pdnn_conv_1x1_ldb_bwdf_applies(p, g) && !pdnn_conv_1x1_dot_applies(g) &&
           pdnn_conv_1x1_bwdf_a2_applies(g);
}

static bool any_path(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g)
{
    (void)p;
    (void)g;
    return true;
}

static tu_conv_shape shape(int n, int g, int cg, int kg, int h, int w, int str, int xkind)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, n, g, cg, kg, h, w, 1, 1, str, 0, 1);
    s.xkind = xkind;
    s.ykind = TU_LAYOUT_PACKED;
    return s;
}

/* Does the path take s in direction dir? */
static bool path_is(const tu_conv_shape *s, pdnn_conv_dir dir, path_fn takes)
{
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, s, dir);
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(&cs.p, &g);
    return takes(&cs.p, &g);
}

/* Checks s in direction dir: the path must (want) or must not take it, then the entry
 * against the oracle with three alpha / beta pairs, small integers and random data. */
static void check_path(const tu_conv_shape *s, pdnn_conv_dir dir, path_fn takes, bool want)
{
    char d[256];
    tu_conv_describe(s, d, sizeof d);
    TU_CHECK(path_is(s, dir, takes) == want, "%s %s: path %s", tu_conv_dir_name(dir), d,
             want ? "not taken" : "taken");
    static const double ab[3][2] = {{1.0, 0.0}, {2.0, -1.5}, {-0.5, 1.0}};
    for (int i = 0; i < 3; i++)
        tu_conv_check(im1x1[dir], s, dir, i != 2, ab[i][0], ab[i][1], 0.0, true);
}

static void test_bwdd_t(void)
{
    const pdnn_conv_dir bd = PDNN_CONV_BWD_DATA;
    tu_conv_shape s;
    /* 7 x 7 at batch 1: two 64-channel blocks (6 in the second), K blocks 256 + 44 */
    s = shape(1, 1, 70, 300, 7, 7, 1, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_bwdd_t, true);
    /* three channel blocks (odd: halved for two threads), last one partial; few k */
    s = shape(1, 1, 130, 9, 5, 3, 1, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_bwdd_t, true);
    /* fewer channels than a vector, one output channel */
    s = shape(1, 1, 5, 1, 4, 6, 1, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_bwdd_t, true);
    /* stride 2: dx 14 x 14 scattered from 7 x 7 (rows and columns no output reads) */
    s = shape(1, 1, 20, 40, 14, 14, 2, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_bwdd_t, true);
    /* stride 2 with odd sizes and the padding after no output reads; gapped dx */
    s = shape(2, 1, 5, 7, 9, 11, 2, TU_LAYOUT_GAPPED);
    s.pe[0] = s.pe[1] = 1;
    tu_conv_finish_shape(&s);
    check_path(&s, bd, takes_bwdd_t, true);
    s = shape(1, 1, 17, 33, 6, 7, 3, TU_LAYOUT_GAPPED);
    check_path(&s, bd, takes_bwdd_t, true);
    /* groups; batch 3 (columns of several images), KRSC filter (the same memory) */
    s = shape(3, 2, 33, 17, 4, 5, 1, TU_LAYOUT_PACKED);
    s.krsc = true;
    check_path(&s, bd, takes_bwdd_t, true);
    s = shape(2, 3, 64, 65, 3, 3, 1, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_bwdd_t, true);
    /* 512 columns exactly (the most), 1-d and 3-d */
    s = shape(1, 1, 65, 31, 16, 32, 1, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_bwdd_t, true);
    s = tu_conv_shape1d(PDNN_DATA_FLOAT, 2, 1, 9, 11, 40, 1, 1, 0, 1);
    check_path(&s, bd, takes_bwdd_t, true);
    s = shape(1, 1, 12, 10, 3, 5, 1, TU_LAYOUT_PACKED);
    s.nsp = 3;
    s.in[2] = 4;
    s.kern[2] = 1;
    s.str[2] = 1;
    s.dil[2] = 1;
    tu_conv_finish_shape(&s);
    check_path(&s, bd, takes_bwdd_t, true);
    /* convolution mode (a 1x1 filter flips to itself) */
    s = shape(1, 1, 24, 18, 6, 6, 1, TU_LAYOUT_PACKED);
    s.flip = true;
    check_path(&s, bd, takes_bwdd_t, true);
    /* outside the path: 513 columns, channels-last y, batched short images */
    s = shape(1, 1, 8, 9, 19, 27, 1, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_bwdd_t, false);
    s = shape(1, 1, 8, 9, 5, 5, 1, TU_LAYOUT_CHANNELS_LAST);
    s.ykind = TU_LAYOUT_CHANNELS_LAST;
    check_path(&s, bd, takes_bwdd_t, false);
    s = shape(3, 1, 600, 520, 3, 3, 1, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_bwdd_t, false);
}

/* The ldb path (forward and backward data): its split of few images among the threads
 * (row blocks, pixel blocks of whole vectors that are not whole 64-pixel panels), the
 * channel block (128 where the data is the larger operand, 256 where the filter is),
 * C's rows in blocks, the stride-2 gathers (vector deinterleaves, in runs of 256), the
 * batched short images. */
static void test_ldb(void)
{
    const pdnn_conv_dir fw = PDNN_CONV_FWD, bd = PDNN_CONV_BWD_DATA;
    tu_conv_shape s;
    /* one image of 28 x 28 (pixel blocks 400 + 384 at two threads), 140 channels (a
     * block of 128 and a tail) */
    s = shape(1, 1, 140, 20, 28, 28, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb, true);
    check_path(&s, bd, takes_ldb, true);
    /* many rows, few pixels: the filter is the larger operand (row blocks, K blocks of
     * 256, C in row blocks) */
    s = shape(1, 1, 270, 400, 3, 3, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb, true);
    s = shape(2, 1, 20, 300, 15, 15, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb, true);
    /* stride 2 (compact copies): odd widths, a single output column, runs past 256 */
    s = shape(2, 1, 7, 9, 13, 13, 2, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb, true);
    s = shape(2, 1, 7, 9, 47, 45, 2, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_ldb, true);
    s = shape(1, 2, 5, 6, 9, 1, 2, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb, true);
    s = tu_conv_shape1d(PDNN_DATA_FLOAT, 2, 1, 3, 4, 1201, 1, 2, 0, 1);
    check_path(&s, fw, takes_ldb, true);
    check_path(&s, bd, takes_ldb, true);
    s = tu_conv_shape1d(PDNN_DATA_FLOAT, 1, 1, 3, 4, 1000, 1, 3, 0, 1);
    check_path(&s, fw, takes_ldb, true);
    /* gapped x: compact copies at stride 1 */
    s = shape(3, 1, 9, 14, 7, 9, 1, TU_LAYOUT_GAPPED);
    check_path(&s, fw, takes_ldb, true);
    /* the last 1-4 pixels past whole vectors dotted by the GEMV kernel (forward): 7 x 7,
     * 14 x 14, only a tail (3 pixels), 17 pixels, K blocks past 256, every row
     * remainder, pixel blocks split at two threads, KRSC */
    s = shape(1, 1, 300, 23, 7, 7, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb, true);
    s = shape(2, 1, 40, 13, 14, 14, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb, true);
    s = shape(1, 2, 17, 11, 1, 3, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb, true);
    s = shape(1, 1, 9, 700, 1, 17, 1, TU_LAYOUT_PACKED);
    s.krsc = true;
    check_path(&s, fw, takes_ldb, true);
    s = shape(1, 1, 20, 8, 18, 18, 2, TU_LAYOUT_PACKED); /* 81 pixels, compact */
    check_path(&s, fw, takes_ldb, true);
    /* batched short images, stride 2 (row-blocked instead where the filter is larger
     * than half of L2) */
    s = shape(3, 1, 600, 520, 5, 5, 2, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb, true);
}

/* The ldb path's 8 x 32 kernel (forward, AVX-512, 8, 16, 32 or 56 output channels:
 * fewer rows than in 6-row panels) at its edges: pixel panels of 32 with a masked last
 * vector, the GEMV tail, groups, stride 2; and the sums' equal channel blocks (129 =
 * 65 + 64, 150 = 75 + 75; a single pixel panel, 7 x 7 or 3 x 3: blocks that keep it in
 * L1, 600 = 4 x 150 with a 48 KiB L1), forward and backward data. */
static void test_ldb_blocks(void)
{
    const pdnn_conv_dir fw = PDNN_CONV_FWD, bd = PDNN_CONV_BWD_DATA;
    tu_conv_shape s;
    s = shape(2, 1, 20, 16, 9, 9, 1, TU_LAYOUT_PACKED); /* 81 pixels: 32 + 32 + 16 + 1 */
    check_path(&s, fw, takes_ldb, true);
    s = shape(1, 1, 150, 32, 28, 28, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb, true);
    check_path(&s, bd, takes_ldb, true);
    s = shape(1, 1, 33, 8, 5, 5, 1, TU_LAYOUT_PACKED); /* 25 pixels, one masked panel */
    check_path(&s, fw, takes_ldb, true);
    s = shape(1, 2, 17, 56, 6, 6, 1, TU_LAYOUT_PACKED); /* 32 + the 4-pixel tail */
    s.krsc = true;
    check_path(&s, fw, takes_ldb, true);
    s = shape(2, 1, 40, 32, 13, 13, 2, TU_LAYOUT_PACKED); /* compact copies */
    check_path(&s, fw, takes_ldb, true);
    s = shape(1, 1, 129, 16, 1, 40, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb, true);
    /* a single pixel panel: blocks of the channels in L1 */
    s = shape(1, 1, 600, 20, 7, 7, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb, true);
    s = shape(1, 1, 520, 13, 3, 3, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb, true);
    s = shape(11, 1, 30, 300, 7, 7, 1, TU_LAYOUT_PACKED); /* 539 columns */
    check_path(&s, bd, takes_ldb, true);
    /* backward data on the 8 x 32 kernel (16 and 32 channels of dx, a small filter read
     * in place), with a tail, groups, stride 2 */
    s = shape(3, 1, 16, 96, 25, 25, 1, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_ldb, true);
    s = shape(7, 2, 32, 20, 9, 9, 1, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_ldb, true);
    s = shape(3, 1, 8, 5, 30, 30, 2, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_ldb, true);
    /* backward data with a tail of 1-4 pixels (W^T in whole rows, the GEMV tail): 7 x 7,
     * 14 x 14, 18 and 35 pixels, groups, K blocks, stride 2 (dx scattered), batch 2 of
     * 17 x 17 (289: tail 1) */
    s = shape(11, 1, 70, 40, 7, 7, 1, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_ldb, true);
    s = shape(3, 2, 13, 300, 14, 14, 1, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_ldb, true);
    s = shape(30, 1, 20, 9, 3, 6, 1, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_ldb, true);
    s = shape(17, 1, 7, 11, 1, 35, 1, TU_LAYOUT_PACKED);
    s.krsc = true;
    check_path(&s, bd, takes_ldb, true);
    s = shape(3, 1, 25, 19, 28, 28, 2, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_ldb, true);
    s = shape(2, 1, 65, 33, 17, 17, 1, TU_LAYOUT_GAPPED);
    check_path(&s, bd, takes_ldb, true);
}

static bool takes_ldb_batched_contig(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g)
{
    return takes_ldb(p, g) && pdnn_conv_1x1_ldb_batched(g, p->dir) && !pdnn_conv_1x1_ldb_x_compact(g);
}

static bool takes_ldb_batched_compact(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g)
{
    return takes_ldb(p, g) && pdnn_conv_1x1_ldb_batched(g, p->dir) && pdnn_conv_1x1_ldb_x_compact(g);
}

/* The batched short images with x's pixels contiguous and all read: dx's rows written
 * (alpha * sum + beta * dx) and x's copied in one pass, not through the compact rows'
 * scatter / gather; and beside them the scatter (gapped dx, stride 2). Channels just
 * past the batched path's least (about 540 each), few pixels. */
static void test_ldb_batched(void)
{
    const pdnn_conv_dir bd = PDNN_CONV_BWD_DATA;
    tu_conv_shape s;
    s = shape(2, 1, 600, 520, 3, 3, 1, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_ldb_batched_contig, true);
    s = shape(3, 1, 610, 530, 3, 2, 1, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_ldb_batched_contig, true);
    s = shape(2, 1, 600, 520, 3, 4, 1, TU_LAYOUT_GAPPED);
    check_path(&s, bd, takes_ldb_batched_compact, true);
    s = shape(2, 1, 600, 520, 5, 5, 2, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_ldb_batched_compact, true);
}

static bool takes_ldb_copy(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g)
{
    return takes_ldb(p, g) && pdnn_conv_1x1_ldb_b_copied(g, p->dir);
}

static bool takes_ldb_a_blocked(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g)
{
    return takes_ldb(p, g) && pdnn_conv_1x1_ldb_a_blocked(g, p->dir);
}

/* The forward's row blocks of a filter larger than half of L2 (sized from this
 * machine's L2; skipped where that would make a slow test): the tasks row block before
 * image, uneven row blocks and their last partial MR panel, the GEMV tail, stride-2
 * compact chunks, groups; batch 1 and backward data are not row-blocked; with x's rows
 * copied (not 64 bytes apart), only a filter larger than L2 is. */
static void test_ldb_a_blocked(void)
{
    const pdnn_conv_dir fw = PDNN_CONV_FWD, bd = PDNN_CONV_BWD_DATA;
    const int64_t half = (int64_t)(pdnn_cpu_cache_sizes()->l2 / 2 / sizeof(float));
    if (half > 600 * 1200) {
        printf("conv 1x1 paths: L2 too large for the row-blocked cases, skipped\n");
        return;
    }
    tu_conv_shape s;
    const int cg = 300, kg = (int)(half / cg) + 7; /* just past half of L2 */
    s = shape(3, 1, cg, kg, 1, 3, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb_a_blocked, true);
    s = shape(2, 1, kg + 5, cg - 1, 1, 17, 1, TU_LAYOUT_PACKED); /* 16 pixels + the tail */
    check_path(&s, fw, takes_ldb_a_blocked, true);
    s = shape(2, 1, 2 * cg, kg / 2 + 1, 5, 4, 2, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb_a_blocked, true);
    s = shape(2, 2, cg, kg, 1, 2, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb_a_blocked, true);
    s = shape(1, 1, cg, kg, 1, 3, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb_a_blocked, false);
    s = shape(2, 1, cg, kg, 1, 3, 1, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_ldb_a_blocked, false);
    /* x's rows not 64 bytes apart (9 x 9, copied on AVX-512): row blocks only past L2 */
    const bool avx512 = pdnn_cpu_isa() >= PDNN_ISA_AVX512;
    /* (the choice only: both schedules are checked above and in test_ldb_copy) */
    s = shape(2, 1, cg, kg, 9, 9, 1, TU_LAYOUT_PACKED);
    TU_CHECK(path_is(&s, fw, takes_ldb_a_blocked) == !avx512, "filter past half of L2, rows copied: row blocks");
    TU_CHECK(path_is(&s, fw, takes_ldb_copy) == avx512, "filter past half of L2, rows not copied");
    s = shape(2, 1, cg, 2 * kg, 9, 9, 1, TU_LAYOUT_PACKED);
    TU_CHECK(path_is(&s, fw, takes_ldb_a_blocked), "filter past L2: no row blocks");
    TU_CHECK(!path_is(&s, fw, takes_ldb_copy), "filter past L2: rows copied");
}

/* The forward's copied B blocks (rows not 64 bytes apart; AVX-512's copying 6 x 64
 * kernel or AVX2's 6 x 16, the first row panel copies, the others read the copy): 14 x 14
 * with the GEMV tail and a partial last row panel, panels of 64 + 16 + a 1-pixel tail,
 * 64 + 32 + a 4-pixel tail, a masked last panel (75 = 64 + 11), K blocks (the copy made
 * again per block), C in row blocks (rows past half of L2: the copy made again per row
 * block), pixel blocks split at two threads, groups, stride-2 compact rows (9 x 9),
 * gapped x; and not where the rows are aligned (16 x 16), nor for 6 rows or fewer, nor
 * in backward data; on AVX-512 not for a single pixel panel (7 x 7) nor with the 8 x 32
 * kernel (16 rows), which AVX2 (four 16-pixel panels, the 6 x 16 kernel) copies. The
 * scalar kernel has no copying form. */
static void test_ldb_copy(void)
{
    const pdnn_conv_dir fw = PDNN_CONV_FWD, bd = PDNN_CONV_BWD_DATA;
    const bool avx512 = pdnn_cpu_isa() >= PDNN_ISA_AVX512, avx2 = pdnn_cpu_isa() == PDNN_ISA_AVX2;
    const bool copies = avx512 || avx2;
    tu_conv_shape s;
    s = shape(2, 1, 40, 20, 14, 14, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb_copy, copies);
    s = shape(1, 1, 33, 25, 9, 9, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb_copy, copies);
    s = shape(2, 1, 21, 25, 10, 10, 1, TU_LAYOUT_PACKED);
    s.krsc = true;
    check_path(&s, fw, takes_ldb_copy, copies);
    s = shape(1, 1, 19, 9, 5, 15, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb_copy, copies);
    s = shape(2, 1, 300, 130, 7, 11, 1, TU_LAYOUT_PACKED); /* 77 pixels, K blocks */
    check_path(&s, fw, takes_ldb_copy, copies);
    s = shape(1, 1, 3, 4100, 5, 15, 1, TU_LAYOUT_PACKED); /* C in row blocks */
    check_path(&s, fw, takes_ldb_copy, copies);
    s = shape(1, 1, 12, 30, 19, 19, 1, TU_LAYOUT_PACKED); /* 361 pixels, two threads */
    check_path(&s, fw, takes_ldb_copy, copies);
    s = shape(3, 2, 5, 25, 6, 13, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb_copy, copies);
    s = shape(2, 1, 17, 23, 17, 17, 2, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb_copy, copies);
    s = shape(2, 1, 9, 20, 7, 11, 1, TU_LAYOUT_GAPPED);
    check_path(&s, fw, takes_ldb_copy, copies);
    s = shape(2, 1, 20, 30, 16, 16, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb_copy, false);
    s = shape(2, 1, 20, 30, 7, 7, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb_copy, avx2);
    s = shape(2, 1, 20, 6, 14, 14, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb_copy, false);
    s = shape(2, 1, 20, 16, 14, 14, 1, TU_LAYOUT_PACKED);
    check_path(&s, fw, takes_ldb_copy, avx2);
    s = shape(2, 1, 20, 30, 14, 14, 1, TU_LAYOUT_PACKED);
    check_path(&s, bd, takes_ldb_copy, false);
}

/* The non-temporal stores (ldb_stream: the 6 x 64 kernel, beta == 0, one channel block,
 * the output past PDNN_CONV_STREAM_BYTES and the last-level cache, which main sets to 1
 * MiB through PDNN_CACHE_L3; the harness's outputs 64-byte aligned): 9.6 MB of y on
 * 112 x 112 images (aligned rows; 16 output channels: the 6 x 64 kernel instead of the
 * 8 x 32 one) and 9.4 MB on 14 x 14 images (the copied B panels, rows not 64-byte
 * aligned); 136 channels summed in one block of 256 (LDB_KC) instead of two (the output
 * streams); backward data's dx read in place, 9.6 MB (16 and 96 channels). */
static void test_ldb_stream(void)
{
    tu_conv_shape s = shape(2, 1, 24, 96, 112, 112, 1, TU_LAYOUT_PACKED);
    check_path(&s, PDNN_CONV_FWD, takes_ldb, true);
    s = shape(12, 1, 24, 16, 112, 112, 1, TU_LAYOUT_PACKED);
    check_path(&s, PDNN_CONV_FWD, takes_ldb, true);
    s = shape(64, 1, 20, 188, 14, 14, 1, TU_LAYOUT_PACKED);
    check_path(&s, PDNN_CONV_FWD, takes_ldb, true);
    s = shape(2, 1, 136, 96, 112, 112, 1, TU_LAYOUT_PACKED);
    check_path(&s, PDNN_CONV_FWD, takes_ldb, true);
    s = shape(2, 1, 96, 24, 112, 112, 1, TU_LAYOUT_PACKED);
    check_path(&s, PDNN_CONV_BWD_DATA, takes_ldb, true);
    s = shape(12, 1, 16, 24, 112, 112, 1, TU_LAYOUT_PACKED);
    check_path(&s, PDNN_CONV_BWD_DATA, takes_ldb, true);
}

/* Backward filter of NCHW images of 512+ pixels: dot products along the pixels for
 * filters of at most 8192 elements (AVX-512), the GEMM form above. */
static void test_bwdf(void)
{
    const pdnn_conv_dir bw = PDNN_CONV_BWD_FILTER;
    const bool avx512 = pdnn_cpu_isa() >= PDNN_ISA_AVX512;
    tu_conv_shape s;
    s = shape(1, 1, 128, 64, 16, 32, 1, TU_LAYOUT_PACKED); /* 8192: the most */
    check_path(&s, bw, takes_dot, avx512);
    s = shape(1, 1, 129, 64, 16, 32, 1, TU_LAYOUT_PACKED);
    check_path(&s, bw, takes_dot, false);
    s = shape(2, 1, 64, 256, 23, 23, 1, TU_LAYOUT_PACKED); /* ResNet's 64 x 256 */
    check_path(&s, bw, takes_dot, false);
    s = shape(1, 2, 5, 30, 17, 31, 1, TU_LAYOUT_PACKED);
    check_path(&s, bw, takes_dot, avx512);
    /* the dot path's pixel blocks (dy and x past half of L2: lanes kept between blocks,
     * blocks restarting at each image), edge tiles of 1 row and 3 columns; one pass over
     * three images; a single tile row (threads split tiles, not rows) */
    s = shape(1, 1, 7, 13, 160, 170, 1, TU_LAYOUT_PACKED);
    check_path(&s, bw, takes_dot, avx512);
    s = shape(2, 1, 3, 5, 150, 150, 1, TU_LAYOUT_PACKED);
    check_path(&s, bw, takes_dot, avx512);
    s = shape(3, 1, 9, 8, 23, 25, 1, TU_LAYOUT_PACKED);
    check_path(&s, bw, takes_dot, avx512);
    s = shape(1, 1, 30, 4, 16, 33, 1, TU_LAYOUT_PACKED);
    check_path(&s, bw, takes_dot, avx512);
    /* past one pass: the sum in two parts split mid-image (three images of 61 x 67, a
     * 6 x 20 filter), and in one part (24 x 8: as many tile rows as the threads want) */
    s = shape(3, 1, 20, 6, 61, 67, 1, TU_LAYOUT_PACKED);
    check_path(&s, bw, takes_dot, avx512);
    s = shape(1, 1, 8, 24, 100, 110, 1, TU_LAYOUT_PACKED);
    check_path(&s, bw, takes_dot, avx512);
    /* the GEMM form's K blocks across short images (14 x 14: a block of 256 straddles
     * two images; 7 x 7 at stride 2: dx strided, gathered), runs of the transposes */
    s = shape(2, 1, 20, 300, 14, 14, 1, TU_LAYOUT_PACKED);
    check_path(&s, bw, any_path, true);
    s = shape(3, 1, 70, 130, 13, 13, 2, TU_LAYOUT_PACKED);
    check_path(&s, bw, any_path, true);
    /* the GEMM form on the 12 x 32 kernel (AVX-512: dW's 32-column tiles fuller than the
     * 6 x 64 kernel's either way), with a row remainder; one image at two threads: the
     * balanced row x column blocks (uneven counts of panels and row blocks) */
    s = shape(1, 1, 96, 30, 5, 7, 1, TU_LAYOUT_PACKED);
    check_path(&s, bw, any_path, true);
    s = shape(1, 1, 32, 100, 9, 9, 1, TU_LAYOUT_PACKED);
    check_path(&s, bw, any_path, true);
    s = shape(1, 1, 576, 96, 6, 6, 1, TU_LAYOUT_PACKED);
    check_path(&s, bw, any_path, true);
    s = shape(1, 1, 330, 70, 3, 5, 1, TU_LAYOUT_PACKED);
    check_path(&s, bw, any_path, true);
    /* MobileNet-v2's b7_project (192 -> 64 on 14 x 14): at two threads the 12 x 32
     * kernel in two blocks of 3 column panels, at one the 6 x 64 kernel: the same bits */
    s = shape(1, 1, 192, 64, 14, 14, 1, TU_LAYOUT_PACKED);
    check_path(&s, bw, any_path, true);
    s = shape(3, 2, 33, 17, 5, 6, 1, TU_LAYOUT_GAPPED);
    check_path(&s, bw, any_path, true);
    s.t = PDNN_DATA_DOUBLE;
    check_path(&s, bw, any_path, true);
    /* several images: the K blocks in two parts, each summed on its own and added in
     * order (1 and 2 blocks of 256-pixel images; 1 and 2 blocks across short images;
     * x as A, the sums blended into dw with beta; FLOAT and DOUBLE), one block only
     * (no second part); 1 and 2 threads give the same bits (tu_conv_check) */
    static const int parts[][5] = {
        /* n, cg (x), kg (dy), h, w */
        {3, 24, 40, 16, 16}, {5, 11, 70, 9, 13}, {3, 65, 64, 16, 16}, {2, 9, 14, 5, 5},
    };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        s = shape(parts[i][0], 1, parts[i][1], parts[i][2], parts[i][3], parts[i][4], 1, TU_LAYOUT_PACKED);
        check_path(&s, bw, any_path, true);
        if (i == 2) { /* x as A, DOUBLE */
            s.t = PDNN_DATA_DOUBLE;
            check_path(&s, bw, any_path, true);
        }
    }
}

/* Backward filter on AVX2 (conv_cpu_direct_1x1_bwdf_a2.c): dy as A written straight into
 * dw (several images of 512+ pixels, pixel blocks with a tail, B's last panel of 1-4 channels, row
 * remainders), x as A through the transposed sums (B of 9 channels: one part panel),
 * threads by B's panels (16-channel multiples; 9 panels with a part one) and by A's
 * rows (fewer rows than threads x 6), three pixels; several short images, stride 2,
 * gapped x and groups not taken. */
static void test_bwdf_a2(void)
{
    const pdnn_conv_dir bw = PDNN_CONV_BWD_FILTER;
    const bool a2 = pdnn_cpu_isa() == PDNN_ISA_AVX2;
    static const int sh[][6] = {
        /* n, cg (x), kg (dy), h, w */
        {2, 40, 9, 20, 26},  {3, 20, 50, 16, 33}, {1, 33, 30, 19, 30}, {1, 100, 20, 5, 5},
        {2, 32, 48, 24, 24}, {1, 130, 140, 3, 3}, {1, 7, 5, 1, 3},     {1, 17, 4, 16, 17},
        {1, 64, 11, 40, 40},
    };
    for (size_t i = 0; i < sizeof sh / sizeof sh[0]; i++) {
        tu_conv_shape s = shape(sh[i][0], 1, sh[i][1], sh[i][2], sh[i][3], sh[i][4], 1, TU_LAYOUT_PACKED);
        check_path(&s, bw, takes_a2, a2);
    }
    tu_conv_shape s = shape(4, 1, 5, 3, 7, 7, 1, TU_LAYOUT_PACKED); /* short images */
    check_path(&s, bw, takes_a2, false);
    s = shape(2, 1, 12, 20, 9, 9, 2, TU_LAYOUT_PACKED);
    check_path(&s, bw, takes_a2, false);
    s = shape(2, 1, 12, 20, 9, 9, 1, TU_LAYOUT_GAPPED);
    check_path(&s, bw, takes_a2, false);
    s = shape(2, 2, 12, 20, 9, 9, 1, TU_LAYOUT_PACKED);
    check_path(&s, bw, takes_a2, false);
}

int main(void)
{
    tu_seed(1717);
    /* a last-level cache of 1 MiB (read by test_ldb_stream's rule only) */
    setenv("PDNN_CACHE_L3", "1048576", 1);
    test_bwdd_t();
    test_ldb();
    test_ldb_blocks();
    test_ldb_batched();
    test_ldb_a_blocked();
    test_ldb_copy();
    test_ldb_stream();
    test_bwdf();
    test_bwdf_a2();
    printf("conv 1x1 paths: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_1x1_paths");
}
