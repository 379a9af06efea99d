/* The row-blocked schedule of the 1x1 ldb path's forward (conv_cpu_direct_1x1_ldb.c,
 * a_blocked: a filter larger than half of L2 runs in row blocks that stay in L2, row
 * block before image) on small shapes: the L2 size is set to 64 KiB (PDNN_CACHE_L2, read
 * once, before any query), so a filter of more than 8192 elements takes it. Forward:
 * several row blocks with a partial MR panel, the GEMV tail (7 x 7), stride-2 compact
 * chunks, groups; and outside it: one image, backward data (on the ldb path with more
 * than 512 columns: 17 x 17, 7 x 7, stride 2 with dx scattered, batched short images;
 * row blocks measured no faster there), with this small L2's pixel blocks. Each against the oracle of tu_conv.h with three alpha /
 * beta pairs, small-integer data exact, 1 and 2 threads bitwise (the harness). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>

#include "cpu/cache.h"
#include "ops/conv/cpu/conv_cpu_direct_1x1.h"
#include "tu_conv.h"
#include "tu_layout.h"

extern const pdnn_impl pdnn_conv_fwd_cpu_direct_1x1;
extern const pdnn_impl pdnn_conv_bwd_data_cpu_direct_1x1;

/* The ldb path (not the GEMV or transposed ones) with row blocks (want) or without. */
static void check(int n, int g, int cg, int kg, int h, int w, int str, pdnn_conv_dir dir, bool want)
{
    tu_conv_shape s = tu_conv_shape2d(PDNN_DATA_FLOAT, n, g, cg, kg, h, w, 1, 1, str, 0, 1);
    s.xkind = s.ykind = TU_LAYOUT_PACKED;
    tu_conv_setup cs;
    tu_conv_setup_init(&cs, &s, dir);
    pdnn_conv_gemm_geom gm;
    pdnn_conv_gemm_geom_init(&cs.p, &gm);
    char d[256];
    tu_conv_describe(&s, d, sizeof d);
    const bool ldb = pdnn_conv_1x1_ldb_applies(&gm) && !pdnn_conv_1x1_gemv_applies(&cs.p, &gm) &&
                     (dir != PDNN_CONV_BWD_DATA || !pdnn_conv_1x1_bwdd_t_applies(&cs.p, &gm));
    TU_CHECK(ldb, "%s %s: not the ldb path", tu_conv_dir_name(dir), d);
    TU_CHECK(pdnn_conv_1x1_ldb_a_blocked(&gm, dir) == want, "%s %s: row blocks %s", tu_conv_dir_name(dir), d,
             want ? "not taken" : "taken");
    const pdnn_impl *im = dir == PDNN_CONV_FWD ? &pdnn_conv_fwd_cpu_direct_1x1 : &pdnn_conv_bwd_data_cpu_direct_1x1;
    static const double ab[3][2] = {{1.0, 0.0}, {2.0, -1.5}, {-0.5, 1.0}};
    for (int i = 0; i < 3; i++) tu_conv_check(im, &s, dir, i != 2, ab[i][0], ab[i][1], 0.0, true);
}

int main(void)
{
    setenv("PDNN_CACHE_L2", "65536", 1);
    tu_seed(4242);
    TU_CHECK(pdnn_cpu_cache_sizes()->l2 == 65536, "L2 size override not taken");
    const pdnn_conv_dir fw = PDNN_CONV_FWD, bd = PDNN_CONV_BWD_DATA;
    /* forward: 90 rows in blocks of 48 (the last panel partial), 5 x 5 */
    check(3, 1, 100, 90, 5, 5, 1, fw, true);
    check(2, 1, 90, 100, 7, 7, 1, fw, true);  /* 48 pixels + the GEMV tail */
    check(2, 1, 100, 90, 9, 9, 2, fw, true);  /* stride 2: compact chunks */
    check(2, 2, 50, 200, 3, 3, 1, fw, true);  /* groups: a row block order per group */
    check(1, 1, 100, 90, 5, 5, 1, fw, false); /* one image: no reuse */
    /* backward data, W^T packed: 578 and 539 columns, stride 2 (dx scattered, pixels no
     * output reads), short images with many channels (batched) */
    check(2, 1, 100, 90, 17, 17, 1, bd, false);
    check(11, 1, 90, 100, 7, 7, 1, bd, false);
    check(3, 1, 100, 90, 28, 28, 2, bd, false);
    check(2, 1, 600, 600, 3, 3, 1, bd, false);
    printf("conv 1x1 row blocks: %ld direction cases\n", tu_conv_cases());
    return tu_finish("ops/conv_1x1_rowblocks");
}
