/* The Winograd F(4x4, 3x3) convolutions (cpu:winograd_f4x3 and
 * cpu:winograd_nonfused_f4x3: forward, backward data, backward filter) against the
 * independent oracle of tests/common/tu_conv.h, within their documented relative error
 * bound (PDNN_WINO_TOL_F32 / _F64, conv_cpu_wino.h) on uniform(-1, 1) data, through the
 * Winograd harness of tests/common/tu_wino.h (a case by hand, refusals with a reason, the
 * shared edges, random 3x3 stride-1 shapes with padding 0..2, sizes that are not
 * multiples of the 4x4 tile, groups, both modes, NCHW / NHWC / gapped x and y, KCRS and
 * KRSC, FLOAT and DOUBLE, the public API). Every third random shape has channels-last x
 * and y (the channel-lane form, else the tile-lane form). The edges here: padding wider
 * than the kernel (backward data's padding 2 - pad < 0), more tiles than one GEMM panel
 * and one fused block in both forms, backward filter sums over several chunks of tiles
 * in both forms. The harness poisons outputs with NaN when beta == 0, keeps output gaps,
 * reads no input gap and checks 1 vs 2 threads bitwise. */
#include "cpu/isa.h"
#include "ops/conv/cpu/conv_cpu_wino.h"
#include "tu_layout.h"
#include "tu_wino.h"

extern const pdnn_impl pdnn_conv_fwd_cpu_wino;
extern const pdnn_impl pdnn_conv_fwd_cpu_wino_nonfused;
extern const pdnn_impl pdnn_conv_bwd_data_cpu_wino;
extern const pdnn_impl pdnn_conv_bwd_data_cpu_wino_nonfused;
extern const pdnn_impl pdnn_conv_bwd_filter_cpu_wino_nonfused;

static void test_edges(const tu_wino *w, pdnnDataType_t t)
{
    /* padding wider than the kernel, asymmetric (backward data's padding is negative) */
    tu_conv_shape s = tu_conv_shape2d(t, 2, 1, 2, 3, 5, 6, 3, 3, 1, 3, 1);
    s.pe[0] = 1;
    s.pb[1] = 4;
    tu_conv_finish_shape(&s);
    tu_wino_check_all(w, &s);
    /* 75 tiles: more than one panel, more than one fused block (tu_wino_run shrinks the
     * L2 size the blocks are cut for), 2 threads; then channels-last (channel lanes:
     * blocks of 96 tiles, so 3 images of 36 tiles cross one) */
    s = tu_conv_shape2d(t, 3, 2, 20, 24, 18, 19, 3, 3, 1, 1, 1);
    s.ykind = TU_LAYOUT_GAPPED;
    tu_wino_check_all(w, &s);
    s = tu_conv_shape2d(t, 3, 2, 12, 16, 22, 23, 3, 3, 1, 1, 1);
    s.xkind = s.ykind = TU_LAYOUT_CHANNELS_LAST;
    s.flip = true;
    TU_CHECK(tu_wino_panel_block(&s, PDNN_CONV_FWD) == 0, "groups: the stage schedule");
    tu_wino_check_all(w, &s);
    /* few tiles (one image of 10 x 10: 9; two of 7 x 9: 12), NCHW: the channel-lane form
     * on a channel-minor copy of x, with the narrower GEMM tile (24 output channels) and
     * without (40); then gapped y rows (columns contiguous: the same route) */
    s = tu_conv_shape2d(t, 1, 1, 16, 24, 10, 10, 3, 3, 1, 1, 1);
    const bool wide = pdnn_cpu_isa() >= PDNN_ISA_AVX512; /* AVX2's 16 lanes: tile lanes */
    TU_CHECK(!wide || tu_wino_route(&s, PDNN_CONV_FWD) == 't', "9 tiles: the transposed route");
    /* (its U, 74 KiB in FLOAT, is larger than the harness's 64 KiB L2: the panel
     * schedule, in blocks of 2 input channels) */
    TU_CHECK(!wide || t != PDNN_DATA_FLOAT || tu_wino_panel_block(&s, PDNN_CONV_FWD) == 2,
             "9 tiles: the panel schedule, blocks of 2 channels (%lld)",
             (long long)tu_wino_panel_block(&s, PDNN_CONV_FWD));
    tu_wino_check_all(w, &s);
    /* the panel schedule with 3 panels (the last one cut; FLOAT: one input channel a
     * block, DOUBLE: 2) */
    s = tu_conv_shape2d(t, 1, 1, 5, 140, 6, 7, 3, 3, 1, 1, 1);
    TU_CHECK(!wide || tu_wino_panel_block(&s, PDNN_CONV_FWD) > 0, "140 outputs: panels");
    tu_wino_check_all(w, &s);
    s = tu_conv_shape2d(t, 2, 1, 20, 40, 7, 9, 3, 3, 1, 1, 1);
    TU_CHECK(!wide || (tu_wino_route(&s, PDNN_CONV_FWD) == 't' &&
                       tu_wino_route(&s, PDNN_CONV_BWD_DATA) == 't'),
             "12 tiles: the transposed route");
    tu_wino_check_all(w, &s);
    s.xkind = s.ykind = TU_LAYOUT_GAPPED;
    tu_wino_check_all(w, &s);
    /* backward filter: 5 x 64 tiles, more than one chunk of 256 tiles, 2 threads */
    s = tu_conv_shape2d(t, 5, 1, 8, 16, 32, 30, 3, 3, 1, 1, 1);
    tu_wino_check(w, TU_WINO_BWD_FILTER_NONFUSED, &s, 1.0, 0.0);
    tu_wino_check(w, TU_WINO_BWD_FILTER_NONFUSED, &s, -1.0, 0.5);
    s.xkind = s.ykind = TU_LAYOUT_CHANNELS_LAST; /* channel lanes */
    s.krsc = true;
    tu_wino_check(w, TU_WINO_BWD_FILTER_NONFUSED, &s, 2.0, 0.0);
}

/* x = 4x4 ones, w = 3x3 ones, padding 1: a row of y sees 2, 3, 3, 2 taps of a row inside
 * x, so y = 4, 6, 6, 4 at the corners and edges, 9 inside; with dy = 4x4 ones, a filter
 * row's tap lies inside x for 3, 4, 3 output rows, so dw = 9, 12, 9 / 12, 16, 12 / ... */
static const int hand_n[4] = {2, 3, 3, 2}, hand_m[3] = {3, 4, 3};

int main(void)
{
    static const tu_wino w = {
        .label = "conv winograd",
        .k = 3,
        .tol_f32 = PDNN_WINO_TOL_F32,
        .tol_f64 = PDNN_WINO_TOL_F64,
        .channel_lanes = true,
        .im = {&pdnn_conv_fwd_cpu_wino, &pdnn_conv_fwd_cpu_wino_nonfused,
               &pdnn_conv_bwd_data_cpu_wino, &pdnn_conv_bwd_data_cpu_wino_nonfused,
               &pdnn_conv_bwd_filter_cpu_wino_nonfused},
        .hand_n = hand_n,
        .hand_m = hand_m,
    };
    return tu_wino_run(&w, 4343, test_edges, "ops/conv_winograd");
}
