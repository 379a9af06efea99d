/* Forward convolution by im2col + GEMM ("cpu:gemm", PDNN_CONVOLUTION_FWD_ALGO_GEMM).
 *
 * Per group g: Y_g[Kg x N*P] = W_g[Kg x T] * col_g[T x N*P] (conv_cpu_gemm.h). The
 * filter rows of every group are packed once into GEMM A panels (or, when the columns
 * are few in all, read in place). The images are taken in chunks: each chunk is first
 * copied into a zero-padded buffer (every input plane widened by the padding, so no tap
 * ever needs a bounds check; images without padding are read in place, or copied whole
 * when the batch has gaps between them), then its
 * columns (n, p) are gathered in chunks of at most ~4 MiB straight into GEMM B panels:
 * within one output row the columns of a tap read the padded plane at a fixed step (the
 * stride; the padded planes are stored split into stride phases, which makes that
 * step 1: conv_cpu_gemm.h), so a panel is a few contiguous runs per tap
 * (src/cpu/ukernels/pack). f32 layers of width stride 2 skip the padded copy: their
 * panels are gathered from x itself (direct_s2 below). With
 * enough panels for the threads, each thread packs a panel and multiplies it by the
 * whole filter while it is in its cache; otherwise threads split the packing by panel
 * and the product by output tile. A chunk's last few columns (at most 32 past its full
 * panels) go through a narrower tile with the same rows when the ISA has one (AVX-512
 * f32: 6 x 16), not a mostly empty 64-wide panel; at most 4 of them, with an f32 filter
 * read in place, through GEMV micro-kernels (one dot product along T per row and
 * column). Threads split the padding by plane; each y element is one sum over T in a
 * fixed order (PDNN_GEMM_KC blocks, or the GEMV kernel's), so results do not depend on
 * the thread count. y is written once per K block, never read when beta == 0 (later blocks
 * add to the partial sums already stored).
 *
 * The same core runs backward data at stride 1 (conv_cpu_gemm_bwd_data.c): there the
 * problem is the forward form of dx = conv(dy, W rotated, K and C swapped), and the
 * filter is read transposed from the original problem's layout.
 *
 * Workspace: the tap offsets, the packed filter (~ K * T elements; none for few columns,
 * where the filter is read in place), one chunk of padded images (<= ~512 KiB unless
 * one image is larger; none for direct_s2, which has its tap table instead) and one
 * chunk of packed columns (<= ~4 MiB unless a single panel is larger; in the
 * panel-at-a-time order each thread reuses one panel's slot of it). */
#include <string.h>

#include "ops/conv/cpu/conv_cpu_gemm.h"
#include "core/par.h"
#include "core/registry.h"
#include "cpu/ukernels/gemm/gemv_ukernels.h"
#include "cpu/ukernels/pack/pack_runs.h"
#include "cpu/ukernels/pack/pack_s2.h"
#include "cpu/ukernels/transpose/transpose.h"


typedef struct {
    int64_t *poff;           /* tap offsets in the padded buffer (what the packers read) */
    ptrdiff_t *soff;         /* transposed filter: offset of each tap's weight */
    char *wp;                /* packed W, group g at wp + g * apg elements */
    char *pad;               /* one chunk of padded images */
    char *bp;                /* one chunk of packed columns */
    pdnn_pack_s2_tap *s2t;   /* the taps of the stride-2 row packer (direct_s2) */
} fwd_bufs;

static int64_t fwd_chunk(const pdnn_conv_gemm_geom *g)
{
    return pdnn_conv_gemm_chunk_cols(g->taps, g->es, g->ncols);
}

/* Images per padded chunk: what fits PDNN_CONV_GEMM_PAD_CHUNK_BYTES, but at least enough
 * images for PAD_MIN_PANELS column panels. A chunk's last panel is partly empty and
 * the micro-kernel computes all its lanes, so one image of few output pixels per chunk
 * would waste a large share of the products (ResNet-50 res4a_branch2b: 196 columns in
 * 4 panels of 64, 31% computed for nothing; with 6 images, 1176 columns in 19 panels,
 * 3%). */
#define PAD_MIN_PANELS 16
static int64_t pad_images(const pdnn_conv_gemm_geom *g, const pdnn_conv_gemm_padgeom *pg)
{
    if (pg->img <= 0) return g->n > 0 ? g->n : 1;
    int64_t nb = (int64_t)(PDNN_CONV_GEMM_PAD_CHUNK_BYTES / g->es) / pg->img;
    const int64_t want =
        g->npix > 0 ? (PAD_MIN_PANELS * (int64_t)g->uk->nr + g->npix - 1) / g->npix : 1;
    if (nb < want) nb = want;
    return nb < g->n ? nb : (g->n > 0 ? g->n : 1);
}

/* Whether the filter is packed into A panels: unless the columns are few in all (small
 * batches of small images), where the micro-kernels read it in place (as rows, or, read
 * transposed for backward data, at the taps' column offsets): a packed filter is read,
 * written and read again, and the products of few columns do not amortize that. At
 * most PACK_MIN_PANELS panels of columns, reading in place measured faster (1 thread,
 * minibatch 1: ResNet-50 res4a_branch2b forward 2.05 -> 1.88 ms, res4b_branch2b
 * backward data 2.20 -> 1.76 ms, VGG-16 conv5_1 forward 7.8 -> 6.9 ms; 784 columns
 * 2-3% faster; 3136 columns even). The phased backward data packs its phases' filters
 * itself (apre) above 2 panels. */
#define PACK_MIN_PANELS 16
static bool pack_filter(const pdnn_conv_gemm_geom *g)
{
    return g->ncols > PACK_MIN_PANELS * (int64_t)g->uk->nr;
}

/* Whether the packed filter of one group stays in a core's L2 cache while a panel of
 * columns runs through it (the panel-at-a-time order); larger filters go through output
 * blocks, whose A block is reused across several panels. */
static bool filter_fits(const pdnn_conv_gemm_geom *g)
{
    return g->geo.kg * g->taps * (int64_t)g->es <= ((int64_t)1 << 20);
}

/* ---- B read in place: lanes over the padded grid
 *
 * With few output channels a group (stems: 3 -> 32 or 64 channels; LeNet's 1 -> 32)
 * each packed B element serves few multiply-adds and the packing is 15-30% of the
 * time. The B panels are then not packed: the micro-kernel's _bo entry reads tap t's
 * row of a panel at pad + poff[t] + lane, where the lanes of an image are its output
 * pixels laid on the padded (phase-split) grid, lane o[1] * q[2] + o[2]: a tap's lanes
 * are then consecutive elements of the padded copy. The grid's columns o[2] >= Q are
 * computed for nothing and never stored (at most 1/BO_WASTE of the lanes: ResNet-50's
 * stem 3 of 115, MobileNet-v2's 1 of 113; LeNet's 4 of 32 measured no faster than
 * packing). The K blocks, alpha and beta go as in the packed path (same bits); a tile
 * within one output row is stored by the micro-kernel, the others through a local tile
 * stored by output row runs (src/cpu/ukernels/pack). Used where the taps are at least
 * half the rows (the tile's stores against the panel's packing: VGG-16 conv1_1, 27
 * taps for 64 rows, measured slower). 1 thread: ResNet-50 stem mb32 65 -> 57 ms,
 * MobileNet-v2's 11.6 -> 10.4 ms (mb1 0.31 -> 0.27 ms). 2-d and 1-d problems
 * with unit-stride y rows whose images are copied into the padded buffer (the reads
 * past an image stay inside the buffer: it has bo_slack elements more). */
#define BO_MAX_ROWS 64
#define BO_WASTE 16

static bool use_bo(const pdnn_conv_gemm_geom *g, const pdnn_conv_gemm_padgeom *pg, bool wt)
{
    if (wt || g->taps == 0 || g->geo.kg > BO_MAX_ROWS || g->geo.out[0] != 1) return false;
    if (2 * g->taps < g->geo.kg) return false;
    if (g->geo.ys[4] != 1 && g->geo.out[2] > 1) return false;
    if (pdnn_conv_gemm_pad_is_copy(g, pg) || pg->img <= 0) return false;
    return (pg->q[2] - g->geo.out[2]) * BO_WASTE <= pg->q[2];
}

/* ---- B packed straight from x at width stride 2
 *
 * The padded copy of a stride-2 layer is its input dealt into two column phases: one
 * more pass over x, and a chunk of padded images larger than L2 for the run packer to
 * read (ResNet-50's 3 x 3 stride-2 layers at minibatch 32, 1 thread: padding and phase
 * split 8-11% of the time, the run packer 6-13%). f32 panels are instead gathered from
 * x itself by the stride-2 row packer (src/cpu/ukernels/pack/pack_s2.h: lane offsets
 * shared by every tap, the padding masked to zeros; any column stride, so NHWC too);
 * no padded copy is made and the columns are chunked over the whole batch. In the
 * panel-at-a-time order, the next panel's x (NCHW rows: a few lines per channel, a
 * plane apart, which the hardware prefetchers miss) is prefetched in slices
 * between row blocks of the current panel's product, which hides its latency (1
 * thread, res3a_branch2b: 63.8 -> 60.6 ms). The panels hold the same values as the
 * padded path's: same sums, same bits. 1 thread, minibatch 32, ResNet-50
 * res3a/res4a/res5a_branch2b: 65.3/60.8/59.6 -> 60.1/57.2/54.8 ms. */
/* Row blocks of the product between two slices of the next panel's fetch. */
#define S2_SLICE_BLOCKS 4
static bool direct_s2(const pdnn_conv_gemm_geom *g, const pdnn_conv_gemm_padgeom *pg, bool wt)
{
    return g->es == sizeof(float) && !wt && g->taps > 0 && g->geo.str[2] == 2 &&
           !use_bo(g, pg, wt);
}

/* Elements past the last image a tile may read: its lanes past the image's last pixel
 * (< nr), the grid columns past Q of the last row (< q[2]) and, for a tile stored
 * directly, its B shifted by up to nr lanes. */
static int64_t bo_slack(const pdnn_conv_gemm_geom *g, const pdnn_conv_gemm_padgeom *pg)
{
    return 2 * PDNN_GEMM_NR_MAX + pg->q[2];
}

static void fwd_layout(const pdnn_conv_gemm_geom *g, bool wt, pdnn_conv_gemm_arena *a,
                       fwd_bufs *b)
{
    pdnn_conv_gemm_padgeom pg;
    pdnn_conv_gemm_padgeom_init(g, &pg);
    b->poff = pdnn_conv_gemm_take(a, g->taps, sizeof(int64_t));
    b->soff = wt ? pdnn_conv_gemm_take(a, g->taps, sizeof(ptrdiff_t)) : NULL;
    b->wp = pdnn_conv_gemm_take(
        a, pack_filter(g) ? pdnn_conv_gemm_mul3(g->g, g->geo.kg + PDNN_GEMM_MR_MAX, g->taps) : 0,
        g->es);
    const bool s2 = direct_s2(g, &pg, wt);
    b->s2t = pdnn_conv_gemm_take(
        a, s2 ? pdnn_conv_gemm_mul3(g->taps, sizeof(pdnn_pack_s2_tap) / sizeof(int64_t), 1) : 0,
        sizeof(int64_t));
    int64_t pimg = pg.img < 0 ? -1 : pdnn_conv_gemm_mul3(pad_images(g, &pg), pg.img, 1);
    if (pimg >= 0 && use_bo(g, &pg, wt)) pimg += bo_slack(g, &pg);
    b->pad = pdnn_conv_gemm_take(a, s2 ? 0 : pimg, g->es);
    b->bp = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(1, fwd_chunk(g) + PDNN_GEMM_NR_MAX,
                                                       g->taps),
                                g->es);
}

size_t pdnn_conv_gemm_fwd_workspace(const pdnn_conv_problem *p, bool wt)
{
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(p, &g);
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    fwd_bufs b;
    fwd_layout(&g, wt, &a, &b);
    return pdnn_conv_gemm_arena_bytes(&a);
}

static size_t fwd_workspace(const void *prob)
{
    return pdnn_conv_gemm_fwd_workspace(prob, false);
}

static bool fwd_supports(const void *prob, const char **why)
{
    if (!pdnn_conv_gemm_supports(prob, PDNN_CONV_FWD, why)) return false;
    if (fwd_workspace(prob) == SIZE_MAX) {
        *why = "workspace size overflows";
        return false;
    }
    return true;
}

#define PDNN_INLINE static inline __attribute__((always_inline))

/* Where the B panels are packed from: the chunk of padded images (pad: the buffer, or
 * x's images when they are the copies) read as runs at the tap offsets poff, or, with
 * s2 (direct_s2), x itself through the stride-2 row packer. */
typedef struct {
    const pdnn_conv_gemm_padgeom *pg;
    const int64_t *poff;
    pdnn_pack_runs_fn copy;
    const char *pad;
    pdnn_f32_pack_s2_fn s2;
    const pdnn_pack_s2_tap *s2taps;
    const float *x;
    int64_t xn; /* x's span in elements (what the fetches may touch) */
    int64_t s2h[2];
    int64_t tlo, thi; /* the taps' offsets from a run's origin: least and most (rows, col) */
} fwd_src;

/* B panel of columns col0 .. col0 + ncol - 1 (image-chunk local) of group grp from the
 * padded chunk: dst[t * nr + j] = pad[poff[t] + base(col0 + j)]. */
PDNN_INLINE void pack_runs(const pdnn_conv_gemm_geom *g, const fwd_src *sr, int64_t grp,
                           int64_t col0, int64_t ncol, int nr, char *dst, size_t es)
{
    /* run r: lanes j0 .. j0 + len - 1 read the padded buffer at base + l (planes split
     * into stride phases: output pixel o[2] + 1 reads one element further for every
     * tap) */
    const pdnn_conv_gemm_padgeom *pg = sr->pg;
    pdnn_pack_run runs[PDNN_GEMM_NR_MAX];
    int nrun = 0;
    {
        int64_t o[3];
        int64_t ni = col0 / g->npix;
        pdnn_conv_gemm_pix(g, col0 % g->npix, o);
        int64_t j = 0;
        while (j < ncol) {
            const int64_t len0 = g->geo.out[2] - o[2];
            const int64_t len = len0 < ncol - j ? len0 : ncol - j;
            runs[nrun].j0 = j;
            runs[nrun].len = len;
            runs[nrun].base = ni * pg->img + grp * g->geo.cg * pg->ps + pdnn_conv_gemm_pad_lane(pg, o);
            nrun++;
            j += len;
            pdnn_conv_gemm_pix_step(g, o, &ni, len);
        }
    }
    sr->copy(es, g->taps, sr->poff, sr->pad, nrun, runs, ncol, nr, dst);
}

/* The runs of columns col0 .. col0 + ncol - 1 of group grp for the stride-2 row packer:
 * one run per output row the columns meet, at that row's origin in x. Returns their
 * count. */
static int s2_runs(const pdnn_conv_gemm_geom *g, int64_t grp, int64_t col0, int64_t ncol,
                   pdnn_pack_s2_run *runs)
{
    const pdnn_conv_geom3 *G = &g->geo;
    int nrun = 0;
    int64_t o[3];
    int64_t ni = col0 / g->npix;
    pdnn_conv_gemm_pix(g, col0 % g->npix, o);
    for (int64_t j = 0; j < ncol;) {
        const int64_t len0 = G->out[2] - o[2];
        const int64_t len = len0 < ncol - j ? len0 : ncol - j;
        pdnn_pack_s2_run *r = &runs[nrun++];
        r->j0 = j;
        r->len = len;
        r->row[0] = o[0] * G->str[0] - G->pad[0];
        r->row[1] = o[1] * G->str[1] - G->pad[1];
        r->col = o[2] * 2 - G->pad[2];
        r->base = ni * G->xs[0] + grp * G->cg * G->xs[1] + r->row[0] * G->xs[2] +
                  r->row[1] * G->xs[3];
        j += len;
        pdnn_conv_gemm_pix_step(g, o, &ni, len);
    }
    return nrun;
}

/* The same panel read from x by the stride-2 row packer (f32). */
static void pack_s2(const pdnn_conv_gemm_geom *g, const fwd_src *sr, int64_t grp, int64_t col0,
                    int64_t ncol, int nr, float *dst)
{
    const pdnn_conv_geom3 *G = &g->geo;
    pdnn_pack_s2_run runs[PDNN_GEMM_NR_MAX];
    const int nrun = s2_runs(g, grp, col0, ncol, runs);
    sr->s2(g->taps, sr->s2taps, sr->x, G->xs[4], sr->s2h, G->in[2], nrun, runs, ncol, nr, dst);
}

/* The next panel's x, prefetched while the current one is multiplied: the
 * stride-2 packer reads x where it lies, and a panel's rows (all its channels, a few
 * kilobytes apart) come from memory in short runs the hardware prefetchers do not
 * follow; fetched in slices between the row blocks of the current panel's product,
 * their latency is hidden by it. Ranges of x offsets (channel 0 of the group) the
 * panel's runs read, at most one per run, merged when they overlap. */
static int s2_ranges(const pdnn_conv_gemm_geom *g, const fwd_src *sr, int64_t grp, int64_t col0,
                     int64_t ncol, int64_t *lo, int64_t *hi)
{
    pdnn_pack_s2_run runs[PDNN_GEMM_NR_MAX];
    const int nrun = s2_runs(g, grp, col0, ncol, runs);
    int n = 0;
    for (int i = 0; i < nrun; i++) {
        const int64_t base = runs[i].base + runs[i].col;
        const int64_t a = base + sr->tlo, b = base + sr->thi + 2 * runs[i].len;
        if (n > 0 && a <= hi[n - 1] + 16) {
            if (b > hi[n - 1]) hi[n - 1] = b;
        } else {
            lo[n] = a;
            hi[n++] = b;
        }
    }
    return n;
}

/* Channels c0 .. c1 - 1 of those ranges into the caches (prefetcht0: the packer took
 * 96 thousand cycles a panel after it against 108 thousand after prefetcht1 and 153
 * thousand without; demand loads 97 thousand, but they stall the product: res3a 1
 * thread CPU clock 62.3 ms against 60.6). */
static void s2_fetch(const pdnn_conv_gemm_geom *g, const fwd_src *sr, int n, const int64_t *lo,
                     const int64_t *hi, int64_t c0, int64_t c1)
{
    for (int64_t c = c0; c < c1; c++)
        for (int i = 0; i < n; i++) {
            int64_t a = lo[i] + c * g->geo.xs[1], b = hi[i] + c * g->geo.xs[1];
            if (a < 0) a = 0;
            if (b > sr->xn) b = sr->xn;
            if (a >= b) continue;
            for (; a < b; a += 16) __builtin_prefetch(sr->x + a, 0, 3);
        }
}

/* Packs one B panel (either element type). */
static void pack_panel(const pdnn_conv_gemm_geom *g, const fwd_src *sr, int64_t grp,
                       int64_t col0, int64_t ncol, char *dst)
{
    if (sr->s2)
        pack_s2(g, sr, grp, col0, ncol, g->uk->nr, (float *)dst);
    else if (g->es == sizeof(float))
        pack_runs(g, sr, grp, col0, ncol, g->uk->nr, dst, sizeof(float));
    else
        pack_runs(g, sr, grp, col0, ncol, g->uk->nr, dst, sizeof(double));
}

/* The GEMV tail: a chunk's last few columns (at most GEMV_TAIL past its full panels),
 * f32 with the filter rows read in place (few columns in all: minibatch 1), each
 * multiplied by the filter rows as one matrix-vector product (the GEMV micro-kernel's
 * rows dotted with the column along T, cpu/ukernels/gemm/gemv_ukernels.h) rather than
 * through a tile of 16 lanes with 4 of them used: 14 x 14 pixels leave 4 columns past 3
 * panels, which took the 6 x 16 tile ~11% of the time for 2% of the products. The
 * columns are packed as a panel of their own width and transposed, each into T
 * contiguous elements, in the panel slot; their sums are the GEMV kernel's (lanes along
 * T, then a fixed tree), exact on small integers and independent of the thread count. */
#define GEMV_TAIL 4

static void pack_cols(const pdnn_conv_gemm_geom *g, const fwd_src *sr, int64_t grp,
                      int64_t col0, int64_t ncol, char *dst)
{
    /* packed as a panel ncol wide (runs along the pixels), after the columns' place in
     * the slot (which holds T x nr elements), then transposed into it */
    const int64_t T = g->taps;
    float *tmp = (float *)dst + GEMV_TAIL * T;
    if (sr->s2)
        pack_s2(g, sr, grp, col0, ncol, (int)ncol, tmp);
    else
        pack_runs(g, sr, grp, col0, ncol, (int)ncol, (char *)tmp, sizeof(float));
    pdnn_f32_transpose_select()((size_t)T, (size_t)ncol, tmp, (ptrdiff_t)ncol, (float *)dst,
                                (ptrdiff_t)T);
}

/* y rows i0 .. i0 + mm - 1 of group grp at the n (<= GEMV_TAIL) columns gcol.. of the
 * batch, from the filter rows a (T apart) and the columns packed by pack_cols at xp. */
static void gemv_tail(const pdnn_conv_gemm_geom *g, const pdnn_gemv_ukernel *gv,
                      const float *a, const float *xp, float *y, int64_t grp, int64_t i0,
                      int64_t mm, int64_t gcol, int64_t n, float alpha, float beta)
{
    const int64_t T = g->taps, ys1 = g->geo.ys[1];
    int64_t coff[GEMV_TAIL];
    pdnn_conv_gemm_ycol_offs(g, gcol, n, coff);
    float *yc = y + (grp * g->geo.kg + i0) * ys1;
    if (gv->f32_x4) {
        _Static_assert(_Generic((int64_t *)0, ptrdiff_t *: 1, default: 0),
                       "column offsets (int64_t) passed as the kernel's ptrdiff_t offsets");
        for (int64_t i = 0; i < mm; i += gv->mr) {
            const int64_t rows = mm - i < gv->mr ? mm - i : gv->mr;
            gv->f32_x4((size_t)rows, (size_t)n, (size_t)T, a + i * T, (ptrdiff_t)T, xp,
                       (ptrdiff_t)T, yc + i * ys1, (ptrdiff_t)ys1, (const ptrdiff_t *)coff,
                       alpha, beta);
        }
        return;
    }
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < mm; i += gv->mr) {
            const int64_t rows = mm - i < gv->mr ? mm - i : gv->mr;
            gv->f32((size_t)rows, (size_t)T, a + i * T, (ptrdiff_t)T, xp + j * T,
                    yc + i * ys1 + coff[j], (ptrdiff_t)ys1, alpha, beta);
        }
}

/* y rows i0 .. i0 + mm - 1 of group grp, columns gcol .. gcol + nn - 1 of the batch:
 * alpha * A * B + beta * y, A the filter rows from i0 on (packed panels, a_ps = T * mr,
 * or the filter itself, a_ps = -T, or, with ako, rows -a_ps apart and columns at ako),
 * B packed panels. */
static void fwd_block(const pdnn_conv_gemm_geom *g, const char *ap, int64_t a_ps,
                      const ptrdiff_t *ako, const char *bp, char *y, int64_t grp, int64_t i0,
                      int64_t mm, int64_t gcol, int64_t nn, double alpha, double beta)
{
    const pdnn_gemm_ukernel *uk = g->uk;
    const int64_t T = g->taps;
    const size_t es = g->es;
    char *c = y + (grp * g->geo.kg + i0) * g->geo.ys[1] * (int64_t)es;
    if (g->ycol_affine || (g->ypix_affine && gcol / g->npix == (gcol + nn - 1) / g->npix)) {
        /* the columns are evenly spaced in y (within one image at least) */
        c += (g->ycol_affine ? gcol * g->ycs
                             : gcol / g->npix * g->geo.ys[0] + gcol % g->npix * g->ycs) *
             (int64_t)es;
        if (ako)
            pdnn_gemm_macro_ak(uk, mm, nn, T, ap, -a_ps, ako, bp, T * uk->nr, c, g->geo.ys[1],
                               g->ycs, NULL, alpha, beta);
        else
            pdnn_gemm_macro(uk, mm, nn, T, ap, a_ps, bp, T * uk->nr, c, g->geo.ys[1], g->ycs,
                            NULL, alpha, beta);
    } else {
        int64_t coff[PDNN_CONV_GEMM_NC_MAX];
        pdnn_conv_gemm_ycol_offs(g, gcol, nn, coff);
        if (ako)
            pdnn_gemm_macro_ak(uk, mm, nn, T, ap, -a_ps, ako, bp, T * uk->nr, c, g->geo.ys[1], 0,
                               coff, alpha, beta);
        else
            pdnn_gemm_macro(uk, mm, nn, T, ap, a_ps, bp, T * uk->nr, c, g->geo.ys[1], 0, coff,
                            alpha, beta);
    }
}

/* The tail tile for a chunk's last columns: when they leave at most TAIL_MAX columns
 * past the full panels and the ISA has a narrower tile with the same rows (AVX-512 f32:
 * 6 x 16), they go through that tile, packed as panels of its width in the last full
 * panel's place (e.g. one image of 14 x 14 pixels at minibatch 1: 196 columns, 3 panels
 * of 64 and 4 columns, which the 6 x 64 tile would compute as 64). NULL otherwise. */
#define TAIL_MAX 32
static const pdnn_gemm_ukernel *tail_kernel(const pdnn_conv_gemm_geom *g)
{
    const pdnn_gemm_ukernel *tk = pdnn_gemm_ukernel_select_nr(g->t, 16);
    return tk && tk != g->uk && tk->mr == g->uk->mr && TAIL_MAX % tk->nr == 0 ? tk : NULL;
}

/* Packs the columns col0 .. col0 + ncol - 1 (ncol <= nr) of one panel slot at dst: one
 * panel of the general tile, or, with gt (the geometry with the tail tile), panels of
 * the tail tile's width one after the other. */
static void pack_slot(const pdnn_conv_gemm_geom *g, const pdnn_conv_gemm_geom *gt,
                      const fwd_src *sr, int64_t grp, int64_t col0, int64_t ncol, char *dst)
{
    if (!gt) {
        pack_panel(g, sr, grp, col0, ncol, dst);
        return;
    }
    const int tn = gt->uk->nr;
    for (int64_t j = 0; j < ncol; j += tn)
        pack_panel(gt, sr, grp, col0 + j, ncol - j < tn ? ncol - j : tn,
                   dst + j * g->taps * (int64_t)g->es);
}

/* The runs of a tile's valid lanes l0 .. l0 + nn - 1 (one per output row it meets):
 * tile columns j0 .. j0 + len - 1 are y pixels base .. base + len - 1 of channel 0 (y
 * rows unit-stride). Returns the count (at most nr / Q + 2). */
static int bo_runs(const pdnn_conv_gemm_geom *g, int64_t q2, int64_t l0, int64_t nn,
                   pdnn_pack_run *runs)
{
    const int64_t Q = g->geo.out[2];
    int64_t o1 = l0 / q2, o2 = l0 % q2;
    int nrun = 0;
    for (int64_t l = l0; l < l0 + nn;) {
        if (o2 < Q) {
            const int64_t len = Q - o2 < l0 + nn - l ? Q - o2 : l0 + nn - l;
            runs[nrun].j0 = l - l0;
            runs[nrun].len = len;
            runs[nrun].base = o1 * g->geo.ys[3] + o2;
            nrun++;
        }
        l += q2 - o2; /* the rest of the row, then the grid's columns past Q */
        o1++;
        o2 = 0;
    }
    return nrun;
}

/* The K blocks of one tile row block as pdnn_gemm_macro runs them (alpha each, beta
 * then 1), B in place: C = c, rows rs_c apart, unit-stride columns. */
static void bo_tile(const pdnn_gemm_ukernel *uk, size_t es, int64_t mm, int64_t nn, int64_t T,
                    const char *a, ptrdiff_t rs_a, ptrdiff_t cs_a, const int64_t *poff,
                    const char *b, char *c, int64_t rs_c, double alpha, double beta)
{
    for (int64_t pk = 0; pk < T; pk += PDNN_GEMM_KC) {
        const int64_t kc = T - pk < PDNN_GEMM_KC ? T - pk : PDNN_GEMM_KC;
        const double bk = pk == 0 ? beta : 1.0;
        if (es == sizeof(float))
            uk->f32_bo((size_t)mm, (size_t)nn, (size_t)kc, (const float *)a + pk * cs_a, rs_a,
                       cs_a, poff + pk, (const float *)b, (float *)c, rs_c, 1, (float)alpha,
                       (float)bk);
        else
            uk->f64_bo((size_t)mm, (size_t)nn, (size_t)kc, (const double *)a + pk * cs_a, rs_a,
                       cs_a, poff + pk, (const double *)b, (double *)c, rs_c, 1, alpha, bk);
    }
}

/* The products of one padded chunk (images n0 .. n0 + nimg - 1) with B read in place
 * (use_bo): items (image, group, tile of nr lanes) shared by the threads. A: row block i0
 * of group grp at abase + (grp * agrp + i0 * T) elements, packed panels (packa) or the
 * filter's rows. A tile whose valid lanes are one run (within one output row) is stored
 * by the micro-kernel itself, its B shifted to the run's first lane; the others go
 * through the local tile. */
static void fwd_bo_chunk(const pdnn_conv_gemm_geom *g, const pdnn_conv_gemm_padgeom *pg,
                         const int64_t *poff, const char *pad, int64_t n0, int64_t nimg,
                         const char *abase, int64_t agrp, bool packa, char *y, double alpha,
                         double beta)
{
    _Static_assert(_Generic((int64_t *)0, ptrdiff_t *: 1, default: 0),
                   "tap offsets (int64_t) passed as the kernels' ptrdiff_t offsets");
    const pdnn_gemm_ukernel *uk = g->uk;
    const int mr = uk->mr, nr = uk->nr;
    const size_t es = g->es;
    const int64_t T = g->taps, kg = g->geo.kg, q2 = pg->q[2], *ys = g->geo.ys;
    const int64_t lanes = (g->geo.out[1] - 1) * q2 + g->geo.out[2], ntile = (lanes + nr - 1) / nr;
    const ptrdiff_t rs_a = packa ? 1 : (ptrdiff_t)T, cs_a = packa ? mr : 1;
    const pdnn_pack_runs_fn load = pdnn_pack_runs_select();
    const pdnn_unpack_runs_fn store = pdnn_unpack_runs_select();
    int64_t yoff[PDNN_GEMM_MR_MAX]; /* the tile's rows in y */
    for (int i = 0; i < mr; i++) yoff[i] = i * ys[1];
#pragma omp for schedule(static)
    for (int64_t it = 0; it < nimg * g->g * ntile; it++) {
        const int64_t ni = it / (g->g * ntile), grp = it / ntile % g->g, l0 = it % ntile * nr;
        const int64_t nn = lanes - l0 < nr ? lanes - l0 : nr;
        const char *b = pad + (ni * pg->img + grp * g->geo.cg * pg->ps + l0) * (int64_t)es;
        _Alignas(64) char tile[PDNN_GEMM_MR_MAX * PDNN_GEMM_NR_MAX * sizeof(double)];
        pdnn_pack_run runs[PDNN_GEMM_NR_MAX + 2];
        const int nrun = bo_runs(g, q2, l0, nn, runs);
        for (int64_t i0 = 0; i0 < kg; i0 += mr) {
            const int64_t mm = kg - i0 < mr ? kg - i0 : mr;
            const char *a = abase + (grp * agrp + i0 * T) * (int64_t)es;
            char *yc = y + ((n0 + ni) * ys[0] + (grp * kg + i0) * ys[1]) * (int64_t)es;
            if (nrun == 1) {
                bo_tile(uk, es, mm, runs[0].len, T, a, rs_a, cs_a, poff,
                        b + runs[0].j0 * (int64_t)es, yc + runs[0].base * (int64_t)es, ys[1],
                        alpha, beta);
                continue;
            }
            /* y's lines of the tile fetched while the products are summed (as the
             * micro-kernel does for a C it stores itself) */
            for (int r = 0; r < nrun; r++)
                for (int64_t i = 0; i < mm; i++) {
                    const char *yr = yc + (i * ys[1] + runs[r].base) * (int64_t)es;
                    for (int64_t e = 0; e < runs[r].len * (int64_t)es; e += 64)
                        __builtin_prefetch(yr + e, 1);
                    __builtin_prefetch(yr + runs[r].len * (int64_t)es - 1, 1);
                }
            if (beta != 0) { /* y's cells into the tile, the lanes past Q zero */
                memset(tile, 0, (size_t)(mm * nr) * es);
                load(es, mm, yoff, yc, nrun, runs, nn, nr, tile);
            }
            bo_tile(uk, es, mm, nn, T, a, rs_a, cs_a, poff, b, tile, nr, alpha, beta);
            store(es, mm, yoff, yc, nrun, runs, nr, tile);
        }
    }
}

/* k's of the original filter packed at a time by the transposed filter's packing. */
#define WT_KB 16

pdnnStatus_t pdnn_conv_gemm_fwd_run(const pdnn_conv_problem *p, const pdnn_conv_problem *wsrc,
                                    const pdnn_conv_args *arg, const pdnn_ctx *ctx,
                                    const void *apre)
{
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(p, &g);
    if (g.ncols == 0 || g.geo.kg == 0) return PDNN_STATUS_SUCCESS; /* y has no elements */

    const bool wt = wsrc != NULL;
    pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ctx->ws);
    fwd_bufs b;
    fwd_layout(&g, wt, &ar, &b);
    pdnn_conv_gemm_padgeom pg;
    pdnn_conv_gemm_padgeom_init(&g, &pg);
    const bool s2 = direct_s2(&g, &pg, wt);
    if (!s2) pdnn_conv_gemm_pad_taps(p, &g, &pg, b.poff); /* tap offsets in the padded buffer */
    const pdnn_pack_runs_fn copy = pdnn_pack_runs_select();
    const bool whole = pdnn_conv_gemm_pad_is_copy(&g, &pg); /* images copied whole */
    const bool packa = apre != NULL || pack_filter(&g);
    const bool bo = use_bo(&g, &pg, wt);
    int64_t xspan = 1; /* x's span: its last element's offset + 1 (strides positive) */
    if (s2) {
        const pdnn_conv_geom3 *G = &g.geo;
        xspan += (g.n - 1) * G->xs[0] + (g.g * G->cg - 1) * G->xs[1];
        for (int d = 0; d < 3; d++) xspan += (G->in[d] - 1) * G->xs[2 + d];
    }
    int64_t xlo = 0, xhi = 0; /* the taps' least and most offsets from a run's origin */
    if (s2) /* the taps split into row offset, outer offsets and column */
        for (int64_t t = 0; t < g.taps; t++) {
            /* a tap of channel c > 0 is its spatial tap's of channel 0, one channel on
             * (the divisions of the tap walk once per spatial tap: 4608 taps took 2% of
             * res5a_branch2b at minibatch 1) */
            const int64_t sp = g.cmajor ? t % g.ks : t / g.geo.cg, c = g.cmajor ? t / g.ks : t % g.geo.cg;
            if (c > 0) {
                b.s2t[t] = b.s2t[g.cmajor ? t - g.ks : t - 1];
                b.s2t[t].off += g.geo.xs[1];
                continue;
            }
            pdnn_conv_gemm_tap tap;
            pdnn_conv_gemm_taps_range(p, &g, t, 1, &tap);
            b.s2t[t].off = tap.off - tap.e[2] * g.geo.xs[4];
            b.s2t[t].row[0] = tap.e[0];
            b.s2t[t].row[1] = tap.e[1];
            b.s2t[t].col = tap.e[2];
            b.s2t[t].cls = sp; /* the spatial tap */
        }
    if (s2) {
        /* over the spatial offsets only (channel 0): rows and columns */
        int64_t r0[2] = {0, 0}, r1[2] = {0, 0}, c0 = 0, c1 = 0;
        for (int64_t t = 0; t < g.taps; t++) {
            for (int d = 0; d < 2; d++) {
                if (b.s2t[t].row[d] < r0[d] || t == 0) r0[d] = b.s2t[t].row[d];
                if (b.s2t[t].row[d] > r1[d] || t == 0) r1[d] = b.s2t[t].row[d];
            }
            if (b.s2t[t].col < c0 || t == 0) c0 = b.s2t[t].col;
            if (b.s2t[t].col > c1 || t == 0) c1 = b.s2t[t].col;
        }
        xlo = r0[0] * g.geo.xs[2] + r0[1] * g.geo.xs[3] + c0;
        xhi = r1[0] * g.geo.xs[2] + r1[1] * g.geo.xs[3] + c1 + 1;
    }
    if (wt) {
        /* tap (k, spatial r) of output channel c reads the original filter at
         * k * ws[0] + c * ws[1] + r . ws[2..]; taps in (k, spatial) order */
        pdnn_conv_geom3 o;
        pdnn_conv_widen(wsrc, &o);
        int64_t t = 0;
        for (int64_t k = 0; k < g.geo.cg; k++)
            for (int64_t r0 = 0; r0 < g.geo.kern[0]; r0++)
                for (int64_t r1 = 0; r1 < g.geo.kern[1]; r1++)
                    for (int64_t r2 = 0; r2 < g.geo.kern[2]; r2++)
                        b.soff[t++] = k * o.ws[0] + r0 * o.ws[2] + r1 * o.ws[3] + r2 * o.ws[4];
    }
    const pdnn_gemm_ukernel *uk = g.uk;
    const int mr = uk->mr, nr = uk->nr;
    const size_t es = g.es;
    if (bo) /* what the tiles read past the last image: defined values */
        memset(b.pad + pad_images(&g, &pg) * pg.img * (int64_t)es, 0,
               (size_t)bo_slack(&g, &pg) * es);
    const int64_t T = g.taps, kg = g.geo.kg, mp = (kg + mr - 1) / mr, apg = mp * mr * T;
    pdnn_conv_gemm_geom gtail = g; /* the tail tile's geometry, when there is one */
    gtail.uk = tail_kernel(&g);
    const pdnn_gemv_ukernel *gv = es == sizeof(float) && !packa && !wt && T > 0 &&
                                          nr >= 2 * GEMV_TAIL /* pack_cols' room */
                                      ? pdnn_gemv_ukernel_select_f32()
                                      : NULL;
    /* images per chunk: all of them when nothing is padded */
    const int64_t nbi = s2 ? g.n : pad_images(&g, &pg), nich = (g.n + nbi - 1) / nbi;
    const int64_t chunk = fwd_chunk(&g);
    const char *x = arg->src, *w = arg->wei;
    /* A: packed panels; or the filter read in place: its rows, or, read transposed
     * (backward data), rows c ws[1] apart with the taps at soff */
    const int64_t a_ps = packa ? T * mr : wt ? -wsrc->ws[1] : -T;
    const ptrdiff_t *ako = !packa && wt ? b.soff : NULL;
    const int64_t wgs = wt ? (wsrc->k / wsrc->g) * wsrc->ws[0] : kg * T; /* a group's filter */
    const char *wp = apre ? (const char *)apre : b.wp; /* the packed filter */
#define a_at(grp, i0)                                                                      \
    (packa ? wp + ((grp) * apg + (i0) * T) * (int64_t)es                                   \
           : w + ((grp) * wgs + (i0) * -a_ps) * (int64_t)es)
    char *y = arg->dst;
    const double alpha = arg->alpha, beta = arg->beta;
    const int nt = ctx->nthreads;

#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        if (T > 0 && packa && !apre && !wt) {
#pragma omp for schedule(static)
            for (int64_t i = 0; i < g.g * mp; i++) {
                const int64_t grp = i / mp, q = i % mp;
                const int64_t rows = kg - q * mr < mr ? kg - q * mr : mr;
                pdnn_gemm_pack_a(uk, rows, T, w + (grp * kg + q * mr) * T * (int64_t)es, T, 1,
                                 b.wp + (grp * apg + q * mr * T) * (int64_t)es);
            }
        } else if (T > 0 && packa && !apre) {
            /* the transposed filter: rows are output channels c (the original's input
             * channels), taps (k, r) k-major. Each thread packs its share of the panels
             * by blocks of WT_KB k's, so that the original's rows k (C/g * taps long) are
             * read along, WT_KB at a time, rather than every panel jumping from k to k
             * (a page apart: the TLB, not the data, bounded it) */
            const int64_t kgo = wsrc->k / wsrc->g, rk = T / (kgo > 0 ? kgo : 1);
            int64_t lo, hi;
            pdnn_par_share(g.g * mp, &lo, &hi);
            for (int64_t k0 = 0; k0 < kgo; k0 += WT_KB) {
                const int64_t nk = kgo - k0 < WT_KB ? kgo - k0 : WT_KB;
                for (int64_t i = lo; i < hi; i++) {
                    const int64_t grp = i / mp, q = i % mp;
                    const int64_t rows = kg - q * mr < mr ? kg - q * mr : mr;
                    const char *src =
                        w + (grp * kgo * wsrc->ws[0] + q * mr * wsrc->ws[1]) * (int64_t)es;
                    char *dst = b.wp + (grp * apg + q * mr * T + k0 * rk * mr) * (int64_t)es;
                    pdnn_conv_gemm_pack_panel(es, mr, rows, nk * rk, src, wsrc->ws[1], NULL, 0,
                                              b.soff + k0 * rk, dst);
                }
            }
#pragma omp barrier
        }
        for (int64_t ic = 0; ic < nich; ic++) {
            const int64_t n0 = ic * nbi, nimg = g.n - n0 < nbi ? g.n - n0 : nbi;
            /* the chunk's padded images: x itself when its images are the copies (no
             * padding, packed images one after the other; the packers read nothing
             * past a run), else the buffer */
            const char *padc = b.pad;
            if (s2) {
                /* nothing padded: the packer reads x */
            } else if (T > 0 && whole && (nimg == 1 || g.geo.xs[0] == pg.img)) {
                padc = x + n0 * g.geo.xs[0] * (int64_t)es;
            } else if (T > 0 && whole) {
#pragma omp for schedule(static)
                for (int64_t ni = 0; ni < nimg; ni++)
                    memcpy(b.pad + ni * pg.img * (int64_t)es,
                           x + (n0 + ni) * g.geo.xs[0] * (int64_t)es, (size_t)pg.img * es);
            } else if (T > 0) {
#pragma omp for schedule(static)
                for (int64_t i = 0; i < nimg * g.g * g.geo.cg; i++) {
                    const int64_t ni = i / (g.g * g.geo.cg), c = i % (g.g * g.geo.cg);
                    pdnn_conv_gemm_pad_plane(&g, &pg, x, n0 + ni, c,
                                             b.pad + (ni * pg.img + c * pg.ps) * (int64_t)es,
                                             ic > 0);
                }
            }
            fwd_src src = {&pg, b.poff, copy, padc, NULL, b.s2t, (const float *)x, xspan,
                           {g.geo.in[0], g.geo.in[1]}, xlo, xhi};
            if (s2) src.s2 = pdnn_f32_pack_s2_select();
            if (bo) {
                fwd_bo_chunk(&g, &pg, b.poff, b.pad, n0, nimg, packa ? wp : w,
                             packa ? apg : wgs, packa, y, alpha, beta);
                continue;
            }
            const int64_t icols = nimg * g.npix, nch = (icols + chunk - 1) / chunk;
            for (int64_t ch = 0; ch < g.g * nch; ch++) {
                const int64_t grp = ch / nch, col0 = (ch % nch) * chunk;
                const int64_t ncol = icols - col0 < chunk ? icols - col0 : chunk;
                const int64_t gcol0 = n0 * g.npix + col0; /* column in the whole batch */
                const int64_t npan = (ncol + nr - 1) / nr;
                if (npan >= 4 * nt && filter_fits(&g)) {
                    /* enough panels for every thread: each packs a panel and multiplies
                     * it by the whole filter at once, while it sits in its cache */
                    /* each thread packs its panels into one slot of the buffer, its own
                     * (npan >= nt slots): the slot stays in its L2 from panel to panel, where a
                     * slot per panel would bring each panel's lines in from memory to be
                     * written (the buffer is larger than L2) */
                    int64_t tid = 0;
#ifdef _OPENMP
                    tid = omp_get_thread_num();
#endif
                    char *dst = b.bp + tid * T * nr * (int64_t)es;
#pragma omp for schedule(static)
                    for (int64_t q = 0; q < npan; q++) {
                        const int64_t n = ncol - q * nr < nr ? ncol - q * nr : nr;
                        if (gv && n <= GEMV_TAIL) {
                            pack_cols(&g, &src, grp, col0 + q * nr, n, dst);
                            gemv_tail(&g, gv, (const float *)a_at(grp, 0), (const float *)dst,
                                      (float *)y, grp, 0, kg, gcol0 + q * nr, n, (float)alpha,
                                      (float)beta);
                            continue;
                        }
                        const pdnn_conv_gemm_geom *gq = gtail.uk && n <= TAIL_MAX ? &gtail : &g;
                        if (T > 0)
                            pack_slot(&g, gq == &g ? NULL : gq, &src, grp,
                                      col0 + q * nr, n, dst);
                        const int64_t nxt = col0 + (q + 1) * nr; /* the next panel */
                        if (!s2 || nxt >= icols || g.geo.xs[4] != 1) {
                            fwd_block(gq, a_at(grp, 0), a_ps, ako, dst, y, grp, 0, kg,
                                      gcol0 + q * nr, n, alpha, beta);
                            continue;
                        }
                        /* the product by row slices, each followed by a slice of the next
                         * panel's channels fetched (the same sums: a y element's sum lies
                         * within one row block) */
                        int64_t rlo[PDNN_GEMM_NR_MAX], rhi[PDNN_GEMM_NR_MAX];
                        const int nrg = s2_ranges(&g, &src, grp, nxt,
                                                  icols - nxt < nr ? icols - nxt : nr, rlo, rhi);
                        const int64_t sl = S2_SLICE_BLOCKS * mr, ns = (kg + sl - 1) / sl;
                        for (int64_t si = 0; si < ns; si++) {
                            const int64_t i0 = si * sl, mm = kg - i0 < sl ? kg - i0 : sl;
                            fwd_block(gq, a_at(grp, i0), a_ps, ako, dst, y, grp, i0, mm,
                                      gcol0 + q * nr, n, alpha, beta);
                            s2_fetch(&g, &src, nrg, rlo, rhi, g.geo.cg * si / ns,
                                     g.geo.cg * (si + 1) / ns);
                        }
                    }
                    continue;
                }
                if (T > 0) {
#pragma omp for schedule(static)
                    for (int64_t q = 0; q < npan; q++) {
                        const int64_t n = ncol - q * nr < nr ? ncol - q * nr : nr;
                        char *dst = b.bp + q * T * nr * (int64_t)es;
                        if (gv && n <= GEMV_TAIL)
                            pack_cols(&g, &src, grp, col0 + q * nr, n, dst);
                        else
                            pack_slot(&g, gtail.uk && n <= TAIL_MAX ? &gtail : NULL, &src, grp,
                                      col0 + q * nr, n, dst);
                    }
                }
                /* tiles of this chunk's columns (a tiling for the full chunk would leave
                 * the tasks past a short chunk, one thread's share, empty) */
                const pdnn_conv_gemm_tiles tl = pdnn_conv_gemm_tiling(uk, kg, ncol, 1, nt);
                int64_t tlo, thi;
                pdnn_conv_gemm_task_share(&tl, uk, kg, ncol, &tlo, &thi);
                for (int64_t task = tlo; task < thi; task++) {
                    int64_t i0, mm, j0, nn;
                    if (!pdnn_conv_gemm_task(&tl, uk, task, kg, ncol, &i0, &mm, &j0, &nn)) continue;
                    /* the full panels, then (the chunk's last panel, packed for it) the
                     * tail tile */
                    const int64_t last = (ncol - 1) / nr * nr;
                    const bool vtail = gv && j0 + nn == ncol && ncol - last <= GEMV_TAIL;
                    const bool tail =
                        !vtail && gtail.uk && j0 + nn == ncol && ncol - last <= TAIL_MAX;
                    const int64_t nf = tail || vtail ? last - j0 : nn;
                    if (nf > 0)
                        fwd_block(&g, a_at(grp, i0), a_ps, ako, b.bp + j0 * T * (int64_t)es, y, grp,
                                  i0, mm, gcol0 + j0, nf, alpha, beta);
                    if (vtail)
                        gemv_tail(&g, gv, (const float *)a_at(grp, i0),
                                  (const float *)(b.bp + last * T * (int64_t)es), (float *)y, grp,
                                  i0, mm, gcol0 + last, ncol - last, (float)alpha, (float)beta);
                    if (tail)
                        fwd_block(&gtail, a_at(grp, i0), a_ps, ako, b.bp + last * T * (int64_t)es, y,
                                  grp, i0, mm, gcol0 + last, ncol - last, alpha, beta);
                }
#pragma omp barrier
            }
        }
    }
#undef a_at
    return PDNN_STATUS_SUCCESS;
}

static pdnnStatus_t fwd_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    return pdnn_conv_gemm_fwd_run(prob, NULL, args, ctx, NULL);
}

const pdnn_impl pdnn_conv_fwd_cpu_gemm = {
    "cpu:gemm", PDNN_CONVOLUTION_FWD_ALGO_GEMM, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, fwd_supports, fwd_workspace, fwd_exec,
};
