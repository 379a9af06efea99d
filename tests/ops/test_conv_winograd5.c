/* The Winograd F(4x4, 5x5) convolutions (cpu:winograd_f4x5 and
 * cpu:winograd_nonfused_f4x5: forward, backward data, backward filter) against the
 * independent oracle of tests/common/tu_conv.h, within their documented relative error
 * bound (PDNN_WINO5_TOL_F32 / _F64, conv_cpu_wino.h) on uniform(-1, 1) data, through the
 * Winograd harness of tests/common/tu_wino.h (a case by hand, refusals with a reason, the
 * shared edges, random 5x5 stride-1 shapes with padding 0..4, sizes that are not
 * multiples of the 4x4 tile, groups, both modes, NCHW / NHWC / gapped x and y, KCRS and
 * KRSC, FLOAT and DOUBLE, the public API). The edges here: padding wider than the kernel
 * (backward data's padding 4 - pad < 0), more tiles than one fused block, the main job's
 * layer (32 -> 64 channels, 14x14, padding 2) on one image, backward filter sums over
 * several chunks. The harness poisons outputs with NaN when beta == 0, keeps output
 * gaps, reads no input gap and checks 1 vs 2 threads bitwise. */
#include "cpu/isa.h"
#include "ops/conv/cpu/conv_cpu_wino.h"
#include "tu_layout.h"
#include "tu_wino.h"

extern const pdnn_impl pdnn_conv_fwd_cpu_wino5;
extern const pdnn_impl pdnn_conv_fwd_cpu_wino5_nonfused;
extern const pdnn_impl pdnn_conv_bwd_data_cpu_wino5;
extern const pdnn_impl pdnn_conv_bwd_data_cpu_wino5_nonfused;
extern const pdnn_impl pdnn_conv_bwd_filter_cpu_wino5_nonfused;

static void test_edges(const tu_wino *w, pdnnDataType_t t)
{
    /* padding wider than the kernel, asymmetric (backward data's padding is negative) */
    tu_conv_shape s = tu_conv_shape2d(t, 2, 1, 2, 3, 5, 6, 5, 5, 1, 6, 1);
    s.pe[0] = 1;
    s.pb[1] = 0;
    tu_conv_finish_shape(&s);
    tu_wino_check_all(w, &s);
    /* 75 tiles: more than one panel, more than one fused block (tu_wino_run shrinks the
     * L2 size the blocks are cut for), 2 threads */
    s = tu_conv_shape2d(t, 3, 2, 6, 8, 18, 19, 5, 5, 1, 2, 1);
    s.ykind = TU_LAYOUT_GAPPED;
    tu_wino_check_all(w, &s);
    /* the main job's conv2 on one image (FLOAT): 16 tiles, the channel-lane form on
     * a channel-minor copy of x in both directions (backward data: 32 output
     * channels, the narrower GEMM tile); on 32 images the tile-lane form (with AVX-512's
     * 64-lane tiles; AVX2's 16 lanes keep the tile lanes) */
    if (t == PDNN_DATA_FLOAT) {
        const bool wide = pdnn_cpu_isa() >= PDNN_ISA_AVX512;
        s = tu_conv_shape2d(t, 1, 1, 32, 64, 14, 14, 5, 5, 1, 2, 1);
        TU_CHECK(!wide || (tu_wino_route(&s, PDNN_CONV_FWD) == 't' &&
                           tu_wino_route(&s, PDNN_CONV_BWD_DATA) == 't'),
                 "LeNet conv2, 1 image: the transposed channel-lane route");
        tu_wino_check_all(w, &s);
        s.n = 32;
        TU_CHECK(tu_wino_route(&s, PDNN_CONV_FWD) == 'l' &&
                     tu_wino_route(&s, PDNN_CONV_BWD_DATA) == 'l',
                 "LeNet conv2, 32 images: the tile-lane route");
        s.n = 1;
        s.xkind = s.ykind = TU_LAYOUT_CHANNELS_LAST;
        TU_CHECK(tu_wino_route(&s, PDNN_CONV_FWD) == 'c',
                 "LeNet conv2 NHWC: the channel-lane route");
    }
    /* backward filter: 5 x 64 tiles, several chunks of tiles, 2 threads */
    s = tu_conv_shape2d(t, 5, 1, 4, 8, 32, 30, 5, 5, 1, 2, 1);
    tu_wino_check(w, TU_WINO_BWD_FILTER_NONFUSED, &s, 1.0, 0.0);
    tu_wino_check(w, TU_WINO_BWD_FILTER_NONFUSED, &s, -1.0, 0.5);
}

/* x = 6x6 ones, w = 5x5 ones, padding 2: y[i][j] = n(i) n(j), n = (3, 4, 5, 5, 4, 3) the
 * taps of a row inside x; with dy = 6x6 ones, dw[r][s] = m(r) m(s), m = (4, 5, 6, 5, 4)
 * the output rows whose tap r lies inside x. */
static const int hand_n[6] = {3, 4, 5, 5, 4, 3}, hand_m[5] = {4, 5, 6, 5, 4};

int main(void)
{
    static const tu_wino w = {
        .label = "conv winograd 5x5",
        .k = 5,
        .tol_f32 = PDNN_WINO5_TOL_F32,
        .tol_f64 = PDNN_WINO5_TOL_F64,
        .channel_lanes = false,
        .im = {&pdnn_conv_fwd_cpu_wino5, &pdnn_conv_fwd_cpu_wino5_nonfused,
               &pdnn_conv_bwd_data_cpu_wino5, &pdnn_conv_bwd_data_cpu_wino5_nonfused,
               &pdnn_conv_bwd_filter_cpu_wino5_nonfused},
        .hand_n = hand_n,
        .hand_m = hand_m,
    };
    return tu_wino_run(&w, 5555, test_edges, "ops/conv_winograd5");
}
