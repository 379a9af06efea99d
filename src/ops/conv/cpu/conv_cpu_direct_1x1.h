/* Shared pieces of the direct 1x1 convolutions (conv_cpu_direct_1x1*.c, internal). */
#ifndef PDNN_CONV_CPU_DIRECT_1X1_H
#define PDNN_CONV_CPU_DIRECT_1X1_H

#include "cpu/ukernels/gemm/gemm_ldb_ukernels.h"
#include "cpu/ukernels/gemm/gemv_ukernels.h"
#include "ops/conv/cpu/conv_cpu_gemm.h"

/* The 1x1 family in direction dir: pdnn_conv_gemm_supports, every filter dim 1, no
 * padding before, and no output pixel reading the padding after. */
bool pdnn_conv_1x1_family(const pdnn_conv_problem *p, pdnn_conv_dir dir, const char **why);

/* x and y both have unit channel stride (channels-last): the pixel-major engine. */
bool pdnn_conv_1x1_pixel_major(const pdnn_conv_gemm_geom *g);

/* Output pixels o -> sum_d o_d st_d (over the output dims) evenly spaced? Sets *step
 * (1 when there is a single pixel). */
bool pdnn_conv_1x1_pixel_step(const pdnn_conv_geom3 *G, const int64_t st[3], int64_t *step);

/* The ldb fast path (conv_cpu_direct_1x1_ldb.c) applies: FLOAT, not pixel-major, y's
 * output pixels contiguous within an image (x any: where its pixels are not, or some
 * are read by no output, x / dx goes through compact copies, a chunk of images at a
 * time). */
bool pdnn_conv_1x1_ldb_applies(const pdnn_conv_gemm_geom *g);
/* Its workspace in direction dir: the compact chunk, and for backward data W^T packed as
 * GEMM A panels of every group; SIZE_MAX on overflow. */
size_t pdnn_conv_1x1_ldb_workspace(const pdnn_conv_gemm_geom *g, pdnn_conv_dir dir);
/* Runs forward (dir FWD: src x, dst y) or backward data (src dy, dst dx, every dx element
 * written) on that path with nt threads and workspace ws. */
void pdnn_conv_1x1_ldb_run(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                           pdnn_conv_dir dir, const pdnn_conv_args *arg, void *ws, int nt);

/* Forward with a filter larger than half of L2 (than L2 where x's rows are not 64 bytes
 * apart, on AVX-512: they are copied instead) and several images (x groups): the ldb
 * path runs row blocks of the filter that stay in L2, row block before image. */
bool pdnn_conv_1x1_ldb_a_blocked(const pdnn_conv_gemm_geom *g, pdnn_conv_dir dir);
/* Short images with many channels on both sides at minibatch > 1: the ldb path runs a
 * chunk of images side by side (both sides copied). */
bool pdnn_conv_1x1_ldb_batched(const pdnn_conv_gemm_geom *g, pdnn_conv_dir dir);
/* The ldb path's forward copies B's blocks into contiguous panels as its first row
 * panel reads them (the copying 6 x 64 kernel, AVX-512, more than 6 output channels, not
 * row-blocked) because x's rows on that path (x itself, the compact or the batched
 * copies) are not all 64 bytes apart, for x at a 64-byte aligned address (a misaligned
 * x is copied too). */
bool pdnn_conv_1x1_ldb_b_copied(const pdnn_conv_gemm_geom *g, pdnn_conv_dir dir);
/* x's side goes through compact copies on the ldb path: its output pixels are not
 * contiguous within an image, or some x pixels are read by no output (stride > 1). */
bool pdnn_conv_1x1_ldb_x_compact(const pdnn_conv_gemm_geom *g);
/* One channel row of x (dx) of one image <-> its compact row of the output pixels (row[o]
 * for output pixel o): gather (xs -> row), else scatter (row -> xd: alpha * row + beta *
 * dx at the pixels read, beta * dx (0 when beta == 0) at the others). FLOAT. */
void pdnn_conv_1x1_compact_row(const pdnn_conv_gemm_geom *g, bool gather, const float *xs,
                               float *xd, float *row, float alpha, float beta);

/* Most columns (n, p) of the transposed backward data (conv_cpu_direct_1x1_bwdd_t.c). */
#define PDNN_CONV_1X1_T_COLS 512
/* Backward data with few columns, transposed (dX^T = dY^T W, W's rows read in place as
 * the ldb kernel's B): the ldb path's layouts (y's pixels contiguous within an image),
 * filter channels contiguous (ws[1] == 1), at most PDNN_CONV_1X1_T_COLS columns, not
 * batched. Workspace: a cols x NR tile per NR channels of every group. Every dx element
 * written. */
bool pdnn_conv_1x1_bwdd_t_applies(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g);
size_t pdnn_conv_1x1_bwdd_t_workspace(const pdnn_conv_gemm_geom *g);
void pdnn_conv_1x1_bwdd_t_run(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                              const pdnn_conv_args *arg, void *ws, int nt);

/* Backward filter with x and dy channels-contiguous, every column (n, p) a fixed step
 * after the previous one in both, and dW's channels contiguous (ws[1] == 1): FLOAT. */
bool pdnn_conv_1x1_ldb_bwdf_applies(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g);
/* Runs it (arg: src x, wei dy, dst dw) with nt threads; no workspace. */
void pdnn_conv_1x1_ldb_bwdf_run(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                                const pdnn_conv_args *arg, int nt);

/* Most columns (n, p) of the GEMV paths. */
#define PDNN_CONV_1X1_GEMV_COLS 4

/* Few columns (at most PDNN_CONV_1X1_GEMV_COLS), x and y channels-contiguous, filter
 * rows contiguous (ws[1] == 1), FLOAT: a fully connected layer at batch 1 to 4. */
bool pdnn_conv_1x1_gemv_applies(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g);
/* Most output channels a group for which the forward's GEMV path takes any number of
 * columns: a classifier's 10 outputs fill a sixth of the 6 x 64 tile's lanes (LeNet fc2
 * at minibatch 32: 6 us a call through the tile, ~1 us as dot products). */
#define PDNN_CONV_1X1_GEMV_FWD_KG 16
/* The forward's rule: pdnn_conv_1x1_gemv_applies, or any number of columns with at most
 * PDNN_CONV_1X1_GEMV_FWD_KG output channels a group. */
bool pdnn_conv_1x1_gemv_fwd_applies(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g);
/* Forward: each y(col, k) one GEMV-kernel dot product of filter row k with x's column;
 * backward data: dx's column = dy's column times W with W's rows read in place (ldb
 * kernel, one row). No workspace; dx pixels no output reads are the caller's. */
void pdnn_conv_1x1_gemv_fwd_run(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                                const pdnn_conv_args *arg, int nt);
void pdnn_conv_1x1_gemv_bwdd_run(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                                 const pdnn_conv_args *arg, int nt);

/* Backward filter by dot products along the pixels (conv_cpu_direct_1x1_dot.c): FLOAT on
 * AVX-512, x and dy pixels contiguous within an image, at least 512 pixels, a small
 * filter with few channels on one side. Workspace: the 16 lane sums of every filter
 * element and its sum for each of the sum's two parts (pdnn_conv_1x1_dot_workspace
 * bytes). */
bool pdnn_conv_1x1_dot_applies(const pdnn_conv_gemm_geom *g);
size_t pdnn_conv_1x1_dot_workspace(const pdnn_conv_gemm_geom *g);
void pdnn_conv_1x1_dot_run(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                           const pdnn_conv_args *arg, void *ws, int nt);

/* Backward filter on AVX2 (conv_cpu_direct_1x1_bwdf_a2.c): FLOAT, the CPU's ISA AVX2
 * (not AVX-512), one group, at least one image and pixel (512 pixels an image with
 * two images or more), x and dy pixels contiguous within an image. Workspace: none, or a dW-sized sum
 * (pdnn_conv_1x1_bwdf_a2_workspace bytes). */
bool pdnn_conv_1x1_bwdf_a2_applies(const pdnn_conv_gemm_geom *g);
size_t pdnn_conv_1x1_bwdf_a2_workspace(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g);
void pdnn_conv_1x1_bwdf_a2_run(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                               const pdnn_conv_args *arg, void *ws, int nt);

#endif
