/* Shared pieces of the three GEMM convolutions (conv_cpu_gemm_{fwd,bwd_data,
 * bwd_filter}.c, internal): the problem widened to 3 spatial dims, the tap table, the
 * im2col packers that write GEMM panels straight from x or dy, scratch carving and the
 * split of the output into thread tasks.
 *
 * Matrix view (per group g, Cg = C/g, Kg = K/g, T = Cg * prod(kern) taps, columns
 * (n, pix) flattened over the batch and the output pixels):
 *   W_g[Kg x T]: the filter rows of group g, taps in the filter's memory order (KCRS:
 *               (c, spatial); KRSC: (spatial, c)), so W_g is row-major with ld = T;
 *   col_g[T x N*P]: col[t][(n, p)] = x[n, g*Cg + c(t), p*stride - pad + e(t)], e(t) the
 *               (flipped for PDNN_CONVOLUTION) dilated tap offset, 0 in the padding;
 *   fwd:        Y_g[Kg x N*P]  = W_g * col_g
 *   bwd data:   col_g = W_g^T * dY_g, then dx gathers col (col2im) in a fixed tap order;
 *   bwd filter: dW_g[Kg x T]  = dY_g * col_g^T, the N*P sum cut in fixed K blocks.
 * Threads split output tiles only and every sum runs in a fixed order, so results are
 * bitwise independent of the thread count. */
#ifndef PDNN_CONV_CPU_GEMM_H
#define PDNN_CONV_CPU_GEMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/par.h"
#include "core/registry.h"
#include "cpu/ukernels/deinterleave/deinterleave.h"
#include "gemm/gemm.h"
#include "ops/conv/conv_problem.h"

/* Target bytes of the per-chunk im2col / packed buffers (a chunk holds at least one
 * unit whatever its size). */
#define PDNN_CONV_GEMM_CHUNK_BYTES ((size_t)4 << 20)
/* Most columns of one task (bounds the column-offset arrays on the stack). */
#define PDNN_CONV_GEMM_NC_MAX 512

typedef struct {
    const pdnn_gemm_ukernel *uk;
    pdnnDataType_t t;
    size_t es;                  /* element bytes */
    int64_t n, g;
    pdnn_conv_geom3 geo;        /* widened to 3 dims; x: x or dx, y: y or dy */
    int64_t wk;                 /* filter elements per output channel (== taps) */
    bool cmajor;                /* KCRS: taps ordered (c, spatial), else (spatial, c) */
    int64_t ks;                 /* spatial taps per channel: prod(kern) */
    int64_t taps;               /* T = cg * ks */
    int64_t npix;               /* P = prod(out) */
    int64_t nin;                /* prod(in) */
    int64_t ncols;              /* N * P */
    bool ycol_affine;           /* y offset of column (n, p) == col * ycs (+ k * ys[1]) */
    bool ypix_affine;           /* within one image: n * ys[0] + p * ycs (NCHW y) */
    int64_t ycs;
} pdnn_conv_gemm_geom;

/* One tap: x offset relative to the pixel's origin (channel and dilated spatial
 * offset) and the spatial offsets themselves (for bounds checks). */
typedef struct {
    int64_t off;
    int64_t e[3];
} pdnn_conv_gemm_tap;

/* The supports() of the three entries: direction, rank 1..3, FLOAT or DOUBLE with
 * accumulation in the same type, packed KCRS or KRSC filter, workspace size
 * representable. */
bool pdnn_conv_gemm_supports(const pdnn_conv_problem *p, pdnn_conv_dir dir,
                             const char **why);
/* Fills g (selects the micro-kernel for the current ISA). */
void pdnn_conv_gemm_geom_init(const pdnn_conv_problem *p, pdnn_conv_gemm_geom *g);
/* The T taps of one group, in filter memory order. */
void pdnn_conv_gemm_taps(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                         pdnn_conv_gemm_tap *tab);
/* Taps k0 .. k0 + kc - 1 of that order (walked with counters: KCRS (c, r0, r1, r2),
 * KRSC (r0, r1, r2, c)). */
void pdnn_conv_gemm_taps_range(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                               int64_t k0, int64_t kc, pdnn_conv_gemm_tap *tab);

/* Output pixel p -> coordinates. */
static inline void pdnn_conv_gemm_pix(const pdnn_conv_gemm_geom *g, int64_t p, int64_t o[3])
{
    o[2] = p % g->geo.out[2];
    p /= g->geo.out[2];
    o[1] = p % g->geo.out[1];
    o[0] = p / g->geo.out[1];
}

/* Steps output pixel o of image *ni on by len pixels along its row (len <= out[2] -
 * o[2]): past the row's end to the next row, plane and image. */
static inline void pdnn_conv_gemm_pix_step(const pdnn_conv_gemm_geom *g, int64_t o[3],
                                           int64_t *ni, int64_t len)
{
    if ((o[2] += len) < g->geo.out[2]) return;
    o[2] = 0;
    if (++o[1] < g->geo.out[1]) return;
    o[1] = 0;
    if (++o[0] < g->geo.out[0]) return;
    o[0] = 0;
    ++*ni;
}

/* Offsets in y (dy) of columns (n, p) = col0 .. col0 + n - 1, channel 0 (one division
 * for the first column, then stepped). */
void pdnn_conv_gemm_ycol_offs(const pdnn_conv_gemm_geom *g, int64_t col0, int64_t n,
                              int64_t *off);

/* ---- scratch carving: the same calls size the workspace (base NULL) and cut it */
typedef struct {
    char *base;
    size_t off;
    bool overflow;
} pdnn_conv_gemm_arena;

/* a * b * c, or -1 on overflow (which pdnn_conv_gemm_take turns into SIZE_MAX). */
int64_t pdnn_conv_gemm_mul3(int64_t a, int64_t b, int64_t c);
/* count elements of es bytes, PDNN_GEMM_ALIGN-aligned; NULL when sizing. A negative
 * count marks the arena overflowed. */
void *pdnn_conv_gemm_take(pdnn_conv_gemm_arena *a, int64_t count, size_t es);
/* Bytes the arena used plus alignment slack for any base; SIZE_MAX on overflow. */
size_t pdnn_conv_gemm_arena_bytes(const pdnn_conv_gemm_arena *a);
/* An arena over ws (aligned up). */
pdnn_conv_gemm_arena pdnn_conv_gemm_arena_on(void *ws);

/* Columns per chunk for a buffer of rows_per_col elements per column, at least one
 * panel, at most total (a multiple of PDNN_GEMM_NR_MAX below total). */
int64_t pdnn_conv_gemm_chunk_cols(int64_t rows_per_col, size_t es, int64_t total);

/* ---- packers (one panel each; dst is the panel) */

/* Where column (n, p) reads x: the input coordinates of tap 0 (o * stride - pad), the
 * x offset there for channel 0 of group 0 (possibly outside x, only read after bounds
 * checks) and whether every tap lies inside x. */
typedef struct {
    int64_t base;
    int64_t c[3];
    bool interior;
} pdnn_conv_gemm_origin;

/* Origins of columns col0 .. col0 + n - 1. */
void pdnn_conv_gemm_origins(const pdnn_conv_gemm_geom *g, int64_t col0, int64_t n,
                            pdnn_conv_gemm_origin *o);
/* bwd filter B panel from x: dst[kk * nr + j] = col_g[t0 + j][col0 + kk] for kk < kc,
 * j < ntap (<= nr), org[kk] the origin of column col0 + kk; zero taps up to nr. */
void pdnn_conv_gemm_im2col_panel_t(const pdnn_conv_gemm_geom *g, const pdnn_conv_gemm_tap *tab,
                                   const void *x, int64_t grp, const pdnn_conv_gemm_origin *org,
                                   int64_t kc, int64_t t0, int64_t ntap, void *dst);
/* Generic panel of w lanes and ns steps: dst[s * w + l] = src[lo(l) + so(s)] with
 * lo(l) = loff ? loff[l] : l * ls and so(s) = soff ? soff[s] : s * ss, for l < nl
 * (<= w), s < ns; lanes nl..w-1 are zero. */
void pdnn_conv_gemm_pack_panel(size_t es, int w, int64_t nl, int64_t ns, const void *src,
                               int64_t ls, const int64_t *loff, int64_t ss,
                               const int64_t *soff, void *dst);

/* ---- zero-padded copies: every input plane widened by the padding to pd[] =
 * (out - 1) * stride + (kern - 1) * dil + 1 elements per dim, zeros outside x (a
 * negative padding crops), so that no tap needs a bounds check, and split by stride
 * phases: along dim d, padded coordinate j lies in phase j % str[d] at index j / str[d]
 * (q[d] = ceil(pd[d] / str[d]) indices a phase). A channel plane holds the prod(str)
 * phase blocks one after the other (phase (a, b, c) at ((a * ph1 + b) * ph2 + c) * pq,
 * pq = q0 * q1 * q2), each row-major [q0][q1][q2]. So padded coordinate o * str + e,
 * the tap e of output pixel o, lies at lane(o) + pdnn_conv_gemm_pad_off(e) with
 * lane(o) = (o0 * q1 + o1) * q2 + o2: every stride reads like stride 1 (with stride 1
 * everywhere the plane is the plain padded plane, row-major [pd0][pd1][pd2]). Images one
 * after the other, channels of all groups in order: (n, c) at n * img + c * ps. */
typedef struct {
    int64_t pd[3];  /* padded dims */
    int64_t ph[3];  /* phases per dim (the stride) */
    int64_t q[3];   /* indices per phase: ceil(pd / ph) */
    int64_t pq;     /* elements of one phase block */
    int64_t ps, img; /* plane elements, image elements (-1: overflow) */
    pdnn_f32_deinterleave2_fn deal2; /* splits f32 rows into 2 phases (stride 2) */
} pdnn_conv_gemm_padgeom;

/* Offset within a channel plane of padded coordinate j. */
static inline int64_t pdnn_conv_gemm_pad_off(const pdnn_conv_gemm_padgeom *pg, const int64_t j[3])
{
    const int64_t *ph = pg->ph, *q = pg->q;
    return (((j[0] % ph[0]) * ph[1] + j[1] % ph[1]) * ph[2] + j[2] % ph[2]) * pg->pq +
           ((j[0] / ph[0]) * q[1] + j[1] / ph[1]) * q[2] + j[2] / ph[2];
}

/* Lane of output pixel o (its origin o * stride). */
static inline int64_t pdnn_conv_gemm_pad_lane(const pdnn_conv_gemm_padgeom *pg, const int64_t o[3])
{
    return (o[0] * pg->q[1] + o[1]) * pg->q[2] + o[2];
}

/* Target bytes of one chunk of padded images (a chunk holds at least one image). */
#define PDNN_CONV_GEMM_PAD_CHUNK_BYTES ((size_t)512 << 10)

/* Bytes of output above which the direct paths that write each output line once and
 * whole (cpu:direct_fewc's padded planes, cpu:direct_kvec) store it with non-temporal
 * stores where beta == 0: such an output does not stay in the caches anyway, and a
 * plain store first reads the line it writes (MobileNet-v2's stem, minibatch 32, 2
 * threads: 51 MiB of y, 3.4 -> 3.0 ms; per image it ran at minibatch 1's speed up to
 * minibatch 4, 6 MiB, and 15% slower from minibatch 8). A property of the call's sizes,
 * and the stores write the same values either way. */
#define PDNN_CONV_STREAM_BYTES ((double)(8 << 20))

void pdnn_conv_gemm_padgeom_init(const pdnn_conv_gemm_geom *g, pdnn_conv_gemm_padgeom *pg);
/* Offsets of the T taps of group 0 in a padded image (channel plane + pad_off of the
 * tap's dilated, possibly flipped, spatial offset), in filter memory order. */
void pdnn_conv_gemm_pad_taps(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                             const pdnn_conv_gemm_padgeom *pg, int64_t *poff);
/* True when the padded copy of an image is x's image itself, bit for bit (no padding,
 * no cropping, stride 1, the image packed): one copy of pg->img elements per image does. */
bool pdnn_conv_gemm_pad_is_copy(const pdnn_conv_gemm_geom *g, const pdnn_conv_gemm_padgeom *pg);
/* Plane (image n, channel c) of x (g's strides) into its padded copy dst. zeroed: dst
 * already holds a plane padded with this geometry (a later chunk of images in the same
 * buffer), whose padding zeros are then kept: only x's elements are written. */
void pdnn_conv_gemm_pad_plane(const pdnn_conv_gemm_geom *g, const pdnn_conv_gemm_padgeom *pg,
                              const void *x, int64_t n, int64_t c, void *dst, bool zeroed);

/* ---- the forward core (conv_cpu_gemm_fwd.c), also backward data at stride 1 */

/* Runs the forward GEMM convolution of p. wsrc NULL: the filter is p's own (packed KCRS
 * or KRSC). Otherwise p is the forward form of a backward-data problem wsrc (x = dy,
 * y = dx, channels swapped, flip toggled, stride 1) whose filter p's ws must describe
 * as packed KCRS of shape [C][K/g][spatial]; the weights are then read from arg->wei
 * in wsrc's layout: tap (k, r) of output channel c at k * ws[0] + c * ws[1] + r.
 * apre: NULL, or the filter already packed into the A panels the run would pack (per
 * group, ceil(Kg / mr) panels of mr rows x T taps, tap-major, rows past Kg zero: as
 * pdnn_conv_gemm_pack_panel lays them out), then used whatever the columns' count. */
pdnnStatus_t pdnn_conv_gemm_fwd_run(const pdnn_conv_problem *p, const pdnn_conv_problem *wsrc,
                                    const pdnn_conv_args *arg, const pdnn_ctx *ctx,
                                    const void *apre);
/* Workspace of pdnn_conv_gemm_fwd_run (wt: wsrc not NULL); SIZE_MAX on overflow. */
size_t pdnn_conv_gemm_fwd_workspace(const pdnn_conv_problem *p, bool wt);

/* ---- output tasks: `outer` independent items of an m x n GEMM cut into blocks of
 * mcp A panels x ncp B panels, enough blocks for the threads. Task index ->
 * (item, mb index, nb index) by decode. */
typedef struct {
    int64_t mcp, ncp;   /* panels per block */
    int64_t mb, nb;     /* blocks per item */
    int64_t ntasks;
} pdnn_conv_gemm_tiles;

pdnn_conv_gemm_tiles pdnn_conv_gemm_tiling(const pdnn_gemm_ukernel *uk, int64_t m,
                                           int64_t n, int64_t outer, int nthreads);

/* The chunk of tasks a thread takes at a time ("schedule(static, chunk)") over several
 * items (the backward filter's groups): contiguous shares (each thread its own column
 * blocks: B read by one thread), or, with fewer column blocks than twice the threads,
 * one task at a time, round robin: the tasks run rows fastest, so each thread gets rows
 * of every column block. One item (forward, backward data) is shared by
 * pdnn_conv_gemm_task_share below. */
static inline int pdnn_conv_gemm_task_chunk(const pdnn_conv_gemm_tiles *tl, int nt)
{
    if (nt < 1) nt = 1;
    return tl->nb < 2 * nt ? 1 : (int)((tl->ntasks + nt - 1) / nt);
}

/* Thread t's tasks [*lo, *hi) of nthr threads, for one item (outer == 1) of an m x n
 * GEMM tiled by tl: contiguous in task order (rows fastest), of about equal products
 * (rows x columns, a block's columns rounded up to 16), each task (or each column
 * block) going to the thread whose share of the products holds its middle. Each column
 * block goes whole to one thread (which packed its B panels: they are in its cache),
 * unless splitting blocks between threads balances them better after a charge for
 * reading the other core's panels (conv_cpu_gemm_common.c): minibatch 1 on 14 x 14 is 3 panels and 4
 * columns, which whole blocks share as 128 against 68 columns (ResNet-50 res4b_branch2b
 * forward, 2 threads: 1.02 -> 0.83 ms). The shares depend only on the tiling and nthr;
 * no element's sum depends on them. */
void pdnn_conv_gemm_task_share_of(const pdnn_conv_gemm_tiles *tl, const pdnn_gemm_ukernel *uk,
                                  int64_t m, int64_t n, int64_t t, int64_t nthr, int64_t *lo,
                                  int64_t *hi);
/* The same for the calling thread of the team (thread t of nthr above). */
static inline void pdnn_conv_gemm_task_share(const pdnn_conv_gemm_tiles *tl,
                                             const pdnn_gemm_ukernel *uk, int64_t m, int64_t n,
                                             int64_t *lo, int64_t *hi)
{
    int64_t t = 0, nthr = 1;
#ifdef _OPENMP
    t = omp_get_thread_num();
    nthr = omp_get_num_threads();
#endif
    pdnn_conv_gemm_task_share_of(tl, uk, m, n, t, nthr, lo, hi);
}

/* The block of task r (within one item) of an m x n GEMM tiled by tl: rows i0 .. i0 +
 * mm - 1, columns j0 .. j0 + nn - 1; false when the block lies past the matrix (the
 * tiling was made for a larger n). */
static inline bool pdnn_conv_gemm_task(const pdnn_conv_gemm_tiles *tl, const pdnn_gemm_ukernel *uk,
                                       int64_t r, int64_t m, int64_t n, int64_t *i0, int64_t *mm,
                                       int64_t *j0, int64_t *nn)
{
    const int64_t bm = tl->mcp * uk->mr, bn = tl->ncp * uk->nr;
    *i0 = (r % tl->mb) * bm;
    *j0 = (r / tl->mb) * bn;
    if (*i0 >= m || *j0 >= n) return false;
    *mm = m - *i0 < bm ? m - *i0 : bm;
    *nn = n - *j0 < bn ? n - *j0 : bn;
    return true;
}

#endif
