/* Winograd F(4x4, r x r) convolution engine shared by the Winograd entries (internal):
 * conv_cpu_wino_fwd.c (forward, fused and non-fused), conv_cpu_wino_bwd_data.c and
 * conv_cpu_wino_bwd_filter.c, for two tile variants of one geometry (g->r, g->alpha):
 *  - F(4x4, 3x3), alpha = 6 (the "_f4x3" entries): matrices, derivation (Lavin & Gray
 *    2016, interpolation points 0, 1, -1, 2, -2, infinity) and the backward-filter
 *    identity in src/cpu/ukernels/winograd/wino4x3_tmpl.h;
 *  - F(4x4, 5x5), alpha = 8 (the "_f4x5" entries): points 0, 1, -1, 2, -2, 1/2, -1/2,
 *    infinity, in src/cpu/ukernels/winograd/wino4x5_tmpl.h.
 * The transforms are plain-C micro-kernels compiled per ISA there. F(4x4, 5x5) rather
 * than F(2x2, 5x5) (alpha 6): 64 multiplies per 16 outputs instead of 36 per 4 (2.25x
 * fewer) and fewer transformed elements per output, for an error only about twice
 * F(4x4, 3x3)'s (bounds below).
 *
 * The convolution is cut into 4x4 output tiles, tile (ty, tx) of image n reading the
 * alpha x alpha input window at rows 4 ty - ph .., columns 4 tx - pw .. (zeros outside
 * the input); tiles are numbered (n, ty, tx), tx fastest. With xi = 0 .. alpha^2 - 1 the
 * elements of a transformed tile, per group:
 *   U[xi] (Kg x Cg) = (G g G^T)[xi]             filter transform
 *   V[xi] (Cg x T)  = (B^T d B)[xi]             input transform of the T tiles
 *   M[xi] (Kg x T)  = U[xi] V[xi]               alpha^2 GEMMs (the packed micro-kernels)
 *   y tile          = A^T M A                   output transform, then blended:
 *   y = alpha * result + beta * y (y never read when beta == 0).
 * Two forms of the same arithmetic per element:
 *  - tile lanes (conv_cpu_wino_common.c; NCHW-like layouts): transforms across 64 (nr)
 *    tiles, the windows of a run of tiles (one tile row) dealt from x's rows in one
 *    call of the deintz kernel (stride-4 groups; rows and columns outside x read as
 *    zeros; non-unit column strides through a zero-padded row buffer), the output
 *    tiles' columns dealt back into y's rows by the inter kernel (blended);
 *    V in GEMM B panels of tiles, U in A panels;
 *  - channel lanes (conv_cpu_wino_cl.c; channels contiguous, NHWC): transforms across
 *    channels, no shuffles; M^T = V^T U^T with V^T read in place, U^T in B panels (a
 *    12 x 32 GEMM tile for at most 32 output channels). NCHW-like x and y with few
 *    tiles (minibatch 1, small images), where the tile lanes would be mostly empty, take
 *    this form too, on a channel-minor copy of x in the workspace. With few tiles and a
 *    transformed filter larger than L2, this form makes U panel by panel in blocks of
 *    input channels that are multiplied while in cache (the panel schedule), instead
 *    of all of U first.
 * The filter transform gathers each lane's taps with the ISA's gather kernel (FLOAT) or
 * element by element (DOUBLE).
 * The tiles are processed in blocks (fused: V and M of a block about the L2 size; non-
 * fused: ~16 MiB): per block the threads split the input transform, the GEMMs (by xi,
 * group and tiles) and the output transform. Every output element is computed by one
 * thread in one fixed sequence of operations, the same whatever the block or the thread
 * count: results are bitwise independent of the thread count (they differ between ISA
 * levels, as the GEMM micro-kernels do, and between the two forms).
 *
 * Backward data is this forward convolution of dy with the filter rotated by 180
 * degrees, K and C swapped and padding r - 1 - pad (pdnn_wino_geom_init does the mapping:
 * the filter is read through strides, nothing is copied).
 *
 * Backward filter (conv_cpu_wino_bwd_filter.c) sums over the batch and the tiles:
 *   W[xi] (Cg x Kg) = sum_tiles V[xi] Z[xi]^T,   Z = A dY A^T (per dy tile)
 *   dw = G^T W G,
 * the sum in a fixed order of tile chunks (see there).
 *
 * Numerical error (relative, ||out - exact|| / ||exact||, uniform(-1, 1) data): see
 * PDNN_WINO_TOL_F32 / _F64 below. */
#ifndef PDNN_CONV_CPU_WINO_H
#define PDNN_CONV_CPU_WINO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/registry.h"
#include "cpu/ukernels/winograd/wino_ukernels.h"
#include "gemm/gemm.h"
#include "ops/conv/conv_problem.h"

/* Documented error bounds (relative L2 error against the exact result on uniform(-1, 1)
 * data) of every F(4x4, 3x3) Winograd entry, all directions and ISA levels; the tests
 * check them.
 * Measured on 2-d shapes from 1 to 1024 channels, 6x6 to 56x56 images, 1 to 64 images,
 * padding 0 to 2 (backward filter: sums over up to 6272 tiles), NCHW: the largest errors
 * were 3.4e-6 forward, 3.3e-6 backward data and backward filter (FLOAT), 6.6e-15 and
 * 1.2e-14 (DOUBLE); the bounds leave a margin of about 6 and 4. For comparison, the exact
 * algorithms' FLOAT error on the same data is about 1e-7. The error grows slowly with the
 * channel count (the transformed values carry the factors 1/4 .. 1/24 of G and 4 .. 8 of
 * B^T and A^T). */
#define PDNN_WINO_TOL_F32 2e-5
#define PDNN_WINO_TOL_F64 5e-14

/* The same for the F(4x4, 5x5) entries (tests/ops/test_conv_winograd5.c checks them).
 * Measured on NCHW shapes from 1 to 1024 channels, 9x9 to 56x56 images, 1 to 64 images,
 * padding 0 to 4 (backward filter: sums over up to 6272 tiles): the largest errors were
 * 6.7e-6 forward (2048 input channels), 6.4e-6 backward data (1024 output channels),
 * 6.2e-6 backward filter (6272 tiles) (FLOAT), 1.5e-14, 1.2e-14 and 1.1e-14 (DOUBLE):
 * about twice F(4x4, 3x3)'s; the bounds leave a margin of about 6 and 7. On the main
 * job's layer (32 -> 64 channels, 14x14, 64 images) FLOAT: 2.6e-6, 3.2e-6, 5.6e-6; the
 * exact algorithms' FLOAT error there is about 2.5e-7. */
#define PDNN_WINO5_TOL_F32 4e-5
#define PDNN_WINO5_TOL_F64 1e-13

/* Bounds of the variants: filter taps r, points alpha = 4 + r - 1, alpha^2 elements of
 * a transformed tile. */
#define PDNN_WINO_R_MAX 5
#define PDNN_WINO_ALPHA_MAX 8
#define PDNN_WINO_XI_MAX 64

/* Below this many multiply-adds of the GEMMs a convolution runs on one thread (the
 * stages' barriers would cost more than the second thread saves). */
#define PDNN_WINO_MIN_WORK (1 << 20)

/* Transforms of one type and ISA, indexed by pdnn_wino_op. */
typedef enum {
    PDNN_WINO_IN = 0,
    PDNN_WINO_FLT,
    PDNN_WINO_OUT,
    PDNN_WINO_DYT,
    PDNN_WINO_FLTINV,
    PDNN_WINO_DEINT,
    PDNN_WINO_NOPS
} pdnn_wino_op;

typedef struct {
    pdnn_isa isa;
    pdnn_f32_wino_fn f32[PDNN_WINO_NOPS];
    pdnn_f64_wino_fn f64[PDNN_WINO_NOPS];
    pdnn_f32_wino_deintz_fn f32_deintz; /* deint of a row cut by the padding */
    pdnn_f64_wino_deintz_fn f64_deintz;
    pdnn_f32_wino_inter_fn f32_inter; /* the output tiles' columns into y rows */
    pdnn_f64_wino_inter_fn f64_inter;
    /* the split input transform (f32 F(4x4, 3x3) AVX-512, else NULL): deintzb deals the
     * windows times B, incol applies B^T (wino_ukernels.h) */
    pdnn_f32_wino_deintz_fn f32_deintzb;
    pdnn_f32_wino_fn f32_incol;
    pdnn_f32_wino_gather_fn f32_gather; /* the filter taps into lanes (f32 only) */
} pdnn_wino_kernels;

/* The convolution as the engine runs it (direction already mapped). */
typedef struct {
    const pdnn_gemm_ukernel *uk;
    const pdnn_wino_kernels *tk;
    size_t es;              /* element bytes */
    int64_t n, g, cg, kg;   /* batch, groups, input and output channels per group */
    int64_t ih, iw, oh, ow; /* input and output spatial sizes */
    int64_t ph, pw;         /* the window of output (0, 0) starts at input (-ph, -pw) */
    int64_t xs[4], ys[4];   /* input and output strides (elements): N, C, H, W */
    /* filter element (group, out channel o, in channel i, tap r, s) at
     * grp * wgs + o * wos + i * wis + r' * wrs + s' * wss, (r', s') = rot ?
     * (R - 1 - r, R - 1 - s) : (r, s), R the filter size */
    int64_t wgs, wos, wis, wrs, wss;
    bool rot;
    int64_t th, tw, tpi, ntiles; /* tile rows, columns, tiles per image, all tiles */
    int r, alpha, xi; /* filter size, points (window size), alpha^2 */
} pdnn_wino_geom;

/* supports() of every Winograd entry: direction dir, 2-d, r x r filter (r = 3 or 5: the
 * entry's variant), stride 1, dilation 1, FLOAT or DOUBLE with accumulation in the same
 * type, sizes in range. */
bool pdnn_wino_supports(const pdnn_conv_problem *p, pdnn_conv_dir dir, int r,
                        const char **why);

/* The engine's view of p (any direction; the variant from the filter size: 5x5 takes
 * F(4x4, 5x5), anything else F(4x4, 3x3); selects the kernels for the current ISA). */
void pdnn_wino_geom_init(const pdnn_conv_problem *p, pdnn_wino_geom *g);

/* V + M bytes of a non-fused block (at least one panel of tiles); fused blocks: the L2
 * size. */
#define PDNN_WINO_NONFUSED_BYTES ((size_t)16 << 20)

/* Forward-style convolution (forward, backward data): workspace bytes (SIZE_MAX on
 * overflow) and run. fused: small blocks of tiles (kept in cache), else large ones.
 * Channels-contiguous x and y (NHWC) take the channel-lane form (conv_cpu_wino_cl.c),
 * any other layout the tile-lane form (conv_cpu_wino_common.c). */
size_t pdnn_wino_conv_workspace(const pdnn_conv_problem *p, bool fused);
pdnnStatus_t pdnn_wino_conv_exec(const pdnn_conv_problem *p, const pdnn_conv_args *a,
                                 const pdnn_ctx *ctx, bool fused);

/* Stride (elements) between the alpha^2 matrices of one transformed operand: n elements
 * rounded so that the stride is an odd number of 64-byte lines (the rows that one
 * transform call writes or reads then fall in different L1 sets, not in one set as with
 * power-of-2 strides). -1 stays -1 (overflow). */
static inline int64_t pdnn_wino_xi_stride(int64_t n, size_t es)
{
    if (n < 0 || n > (INT64_MAX >> 4) / (int64_t)es) return -1;
    const int64_t bytes = ((n * (int64_t)es + 127) & ~(int64_t)127) + 64;
    return bytes / (int64_t)es;
}

/* The transformed filter U, every group and xi, in packed GEMM panels of `panel` output
 * channels (mr: A panels of U; nr: B panels of U^T): element (o, i) of (grp, xi) at
 * u[(grp * alpha^2 + xi) * ups + (o / panel) * cg * panel + i * panel + o % panel], output
 * channels past Kg zero. A loop over units ("omp for") that the calling team shares;
 * pdnn_wino_filter_unit is one unit: 64 consecutive elements (chunk) of panel p. */
void pdnn_wino_filter(const pdnn_wino_geom *g, const void *w, int panel, void *u, int64_t ups);
void pdnn_wino_filter_unit(const pdnn_wino_geom *g, const void *w, int64_t grp, int64_t p,
                           int64_t chunk, int panel, void *u, int64_t ups);
/* The same unit written elsewhere: its first lane's element xi at dst + xi * dxs. */
void pdnn_wino_filter_unit_at(const pdnn_wino_geom *g, const void *w, int64_t grp, int64_t p,
                              int64_t chunk, int panel, void *dst, int64_t dxs);

/* Element copies in the geometry's type (es constant after inlining). */
static inline __attribute__((always_inline)) void pdnn_wino_copy_el(char *d, int64_t di,
                                                                    const char *s, int64_t si,
                                                                    size_t es)
{
    if (es == sizeof(float))
        ((float *)d)[di] = ((const float *)s)[si];
    else
        ((double *)d)[di] = ((const double *)s)[si];
}

static inline __attribute__((always_inline)) void pdnn_wino_zero_el(char *d, int64_t di,
                                                                    size_t es)
{
    if (es == sizeof(float))
        ((float *)d)[di] = 0.0f;
    else
        ((double *)d)[di] = 0.0;
}

/* The channel-lane form (conv_cpu_wino_cl.c): for x and y whose channels are
 * contiguous (a single channel counts) unless their columns are (NCHW-like). */
static inline bool pdnn_wino_channel_lanes(const pdnn_wino_geom *g)
{
    const bool xc = g->xs[1] == 1 || g->g * g->cg == 1, yc = g->ys[1] == 1 || g->g * g->kg == 1;
    return xc && yc && !(g->xs[3] == 1 && g->ys[3] == 1);
}
size_t pdnn_wino_cl_workspace(const pdnn_wino_geom *g, bool fused);
/* Channel-lane input transform of channels c0 .. c0 + nc - 1 (the x channel stride must
 * be 1) of tile `tile`: element xi of channel c0 + l at dst[xi * dxs + l]. */
void pdnn_wino_cl_input(const pdnn_wino_geom *g, const void *x, int64_t tile, int64_t c0,
                        int64_t nc, void *dst, int64_t dxs);
void pdnn_wino_cl_run(const pdnn_wino_geom *g, bool fused, const pdnn_conv_args *a, int nt,
                      void *ws);
/* NCHW-like x and y (columns contiguous) where the channel-lane form computes fewer
 * empty GEMM lanes than the tile-lane form (few tiles: minibatch 1, small images): that
 * form run on a channel-minor copy of x in the workspace, y written in place
 * (conv_cpu_wino_cl.c). */
bool pdnn_wino_cl_transposed(const pdnn_wino_geom *g);
/* The channel-lane forms' schedule (for the tests): the input channels per block of the
 * panel schedule (one block of few tiles, a transformed filter larger than L2: each
 * output-channel panel of it made in blocks that stay in L2 and used at once), 0 for the
 * stage-by-stage schedule. */
int64_t pdnn_wino_cl_panel_block(const pdnn_wino_geom *g, bool fused);
size_t pdnn_wino_clt_workspace(const pdnn_wino_geom *g, bool fused);
void pdnn_wino_clt_run(const pdnn_wino_geom *g, bool fused, const pdnn_conv_args *a, int nt,
                       void *ws);

/* ---- pieces for the backward filter */

/* Transform op on n lanes (wino_ukernels.h), in the geometry's element type. */
void pdnn_wino_transform(const pdnn_wino_geom *g, pdnn_wino_op op, size_t n, const void *s,
                         ptrdiff_t ss, void *d, ptrdiff_t ds);
/* Input transform of channel cc (0 <= cc < g * cg) of the tiles tile0 .. tile0 + nr - 1
 * (nr = the micro-kernel's; tiles past the last are zeros): element xi of lane l at
 * dst[xi * dxs + l]. */
void pdnn_wino_input_unit(const pdnn_wino_geom *g, const void *x, int64_t cc, int64_t tile0,
                          void *dst, int64_t dxs);

#endif
