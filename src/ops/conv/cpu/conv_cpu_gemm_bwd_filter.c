/* Backward filter by GEMM ("cpu:gemm", PDNN_CONVOLUTION_BWD_FILTER_ALGO_1).
 *
 * At least 128 output pixels per image: the images are copied in chunks into zero-padded
 * buffers split by stride phases (conv_cpu_gemm.h). Output pixel o sits at lane
 * q = (o0 * q1 + o1) * q2 + o2 (q[] the indices per phase; the padded dims for stride 1),
 * and tap e reads the padded input at q + off(e), whatever the stride: so with dY
 * extended by zeros to every lane q < Q (Q = lane(out - 1) + 1, the lanes past a row's
 * end hold 0),
 *   dW_g^T[(c, e) x Kg] = sum over images and lanes q of xpad[c, q + off(e)] * dYext^T[q x Kg],
 * a GEMM whose A rows are read in place from the padded copy: a micro-kernel tile takes
 * mr consecutive taps of the filter's order, each row at its tap's offset (the
 * micro-kernels' _ao entry), unit step along q; with Kg at most half the tile's width a
 * narrower tile (12 x 32 at AVX-512 f32) keeps the columns full. dYext^T is packed into
 * B panels (NCHW rows through the transpose kernel): per image, threads splitting its
 * lanes, or, for small filters, per KC block of lanes by the item that uses it. The
 * sums run over parts (whole images; for small filters, fixed segments of each image's
 * lanes) dealt to fixed slots (part v in slot v % slots, a dW^T each, in
 * the workspace): threads split (slot, tap tiles) items; each item sums its slot's
 * parts in order and every part's lanes in fixed PDNN_GEMM_KC blocks, and the slots are
 * added in order at the end (by 32 x 32 blocks, transposed), so results do not depend
 * on the thread count: dW = alpha * (sum of the slots)^T + beta * dW.
 *
 * Fewer output pixels per image (7x7 maps; fully connected layers as 1x1 maps), by
 * im2col + GEMM: per group g: dW_g[Kg x T] = alpha * dY_g[Kg x N*P] * col_g^T[N*P x T] + beta * dW_g
 * (conv_cpu_gemm.h). The reduction over the batch and the pixels is one GEMM K
 * dimension, the columns (n, p) in increasing order, cut into PDNN_GEMM_KC blocks at
 * fixed places: for each block every group's dY rows and im2col^T columns are packed
 * (threads split panels), then threads split the dW tiles and add the block's
 * products to dW (the first block blends with beta; dW unread when beta == 0). So the
 * sum runs in one fixed order whatever the thread count.
 *
 * Workspace: in place: the tap offsets, one chunk of padded images and (whole images)
 * their packed dY^T (~512 KiB, or at least the images that fill the slots), and the
 * slots' dW^T (4, or 8 for small filters, times K * C/g * prod(kern) elements); small
 * filters also take 64 KiB of each thread's stack. Otherwise: the tap table
 * and one K block of packed dY and im2col^T for every group (~ (K + C * prod(kern)) * 256
 * elements). */
#include <string.h>

#include "ops/conv/cpu/conv_cpu_gemm.h"
#include "core/registry.h"
#include "cpu/ukernels/transpose/transpose.h"

typedef struct {
    pdnn_conv_gemm_tap *tab;
    char *ap; /* packed dY block, group g at ap + g * apg */
    char *bp; /* packed im2col^T block, group g at bp + g * bpg */
} bwdf_bufs;

static void bwdf_layout(const pdnn_conv_gemm_geom *g, pdnn_conv_gemm_arena *a, bwdf_bufs *b)
{
    b->tab = pdnn_conv_gemm_take(a, g->taps, sizeof(pdnn_conv_gemm_tap));
    b->ap = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->g, g->geo.kg + PDNN_GEMM_MR_MAX,
                                                       PDNN_GEMM_KC),
                                g->es);
    b->bp = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->g, g->taps + PDNN_GEMM_NR_MAX,
                                                       PDNN_GEMM_KC),
                                g->es);
}

/* ---- stride 1 */

/* The sums run over "parts": whole images, or, for small filters, fixed segments of
 * SEG_LANES lanes of each image (part v = image * segments + segment). Part v is summed
 * into slot v % slots (each slot a dW^T of its own, the slots added in order at the
 * end), SLOTS slots for whole images, SEG_SLOTS for segments; nothing of this depends on
 * the thread count.
 * - Whole images: threads take (slot, tap tile) pairs, so a filter with few tiles (one
 *   input channel: 5 tiles for 5x5) still keeps every thread busy.
 * - Segments (filters of at most SEG_FILTER elements: the stems, 3 -> 64 channels
 *   with 7x7 taps): threads take slots, and an item runs every tap tile of its group and
 *   panel on one KC block of lanes before the next; the item packs that block of dY^T
 *   itself, into its thread's stack, where all the tiles read it from L1 (with tile
 *   by tile passes over an image's packed dY^T, MiBs for a 112x112 map, it came from
 *   memory for every 6 taps). */
#define SLOTS 4
#define SEG_SLOTS 8
#define SEG_LANES (8 * PDNN_GEMM_KC)
#define SEG_FILTER ((int64_t)1 << 16)

/* Whether the path above serves p: enough output pixels per image. */
static bool in_place_applies(const pdnn_conv_problem *p)
{
    int64_t q = 1;
    for (int d = 0; d < p->nsp; d++) q *= p->out[d];
    /* each micro-kernel call sums one image's lanes: with few output pixels per image
     * (7x7 maps, fully connected layers as 1x1 maps) the im2col path, whose sums run
     * across images, is faster (2x at 7x7: 60 against 125 GFLOP/s for ResNet-50's 3x3
     * layers on 7x7 maps, mb32, 1 thread) */
    return q >= 128;
}

/* The geometry of the in-place path. */
typedef struct {
    pdnn_conv_gemm_padgeom pg;
    int64_t q;      /* lanes per image */
    int64_t nkp;    /* B panels per group (ceil(Kg / nr)) */
    int64_t nbi;    /* images per chunk */
    int64_t ntt;    /* tap tiles per group: ceil(T / mr) */
    int64_t nseg;   /* parts per image: segments of SEG_LANES lanes, or 1 (whole images) */
    int64_t nslots; /* SEG_SLOTS or SLOTS */
    int64_t tpi;    /* tap tiles per item: ntt (segments) or 1 */
    int64_t nrb;    /* whole images: lane ranges a packed dY^T panel is cut into (the
                     * threads split them); segments: 0, the items pack their blocks */
} unit_geom;

/* The micro-kernel of the in-place path: a narrower tile when Kg fills half the
 * general one's columns or less. */
static void unit_kernel(pdnn_conv_gemm_geom *g)
{
    if (g->geo.kg <= g->uk->nr / 2) g->uk = pdnn_gemm_ukernel_select_nr(g->t, g->uk->nr / 2);
}

static void unit_geom_init(const pdnn_conv_gemm_geom *g, unit_geom *u)
{
    const int mr = g->uk->mr, nr = g->uk->nr;
    pdnn_conv_gemm_padgeom_init(g, &u->pg);
    const int64_t *out = g->geo.out;
    if (g->npix == 0) {
        u->q = 0;
    } else {
        const int64_t last[3] = {out[0] - 1, out[1] - 1, out[2] - 1};
        u->q = pdnn_conv_gemm_pad_lane(&u->pg, last) + 1;
    }
    u->nkp = (g->geo.kg + nr - 1) / nr;
    u->ntt = (g->taps + mr - 1) / mr;
    const bool seg = g->g * g->taps * g->geo.kg <= SEG_FILTER;
    u->nseg = seg ? (u->q + SEG_LANES - 1) / SEG_LANES : 1;
    if (u->nseg < 1) u->nseg = 1;
    u->nslots = seg ? SEG_SLOTS : SLOTS;
    u->tpi = seg ? u->ntt : 1;
    u->nrb = seg ? 0 : 8;
    /* images per chunk: padded x and packed dY^T within the chunk target */
    const int64_t bimg = u->nrb == 0 ? 0 : pdnn_conv_gemm_mul3(g->g * u->nkp * nr, u->q, 1);
    const int64_t per = u->pg.img < 0 || bimg < 0 ? -1 : u->pg.img + bimg;
    int64_t nb = per > 0 ? (int64_t)(PDNN_CONV_GEMM_PAD_CHUNK_BYTES / g->es) / per : 1;
    if (nb < 1) nb = 1;
    /* items per chunk: with whole images and few tiles (a stem: 3 input channels, a few
     * tap tiles), a chunk of SLOTS images gives the threads SLOTS times the items; with
     * segments, a chunk of at least 2 * SEG_SLOTS parts fills every slot, most of them
     * twice (the slots' sums, and so the results, do not depend on the chunking) */
    if (u->nseg == 1 && g->g * u->ntt * u->nkp < 4 && nb < SLOTS) nb = SLOTS;
    if (u->nseg > 1 && nb * u->nseg < 2 * SEG_SLOTS) nb = (2 * SEG_SLOTS + u->nseg - 1) / u->nseg;
    u->nbi = per < 0 ? -1 : (nb < g->n ? nb : (g->n > 0 ? g->n : 1));
}

typedef struct {
    int64_t *poff; /* the taps' offsets in a padded image, filter order */
    char *pad;     /* nbi padded images */
    char *bp;      /* per image, group and panel: q x nr packed dYext^T */
    char *dwt;     /* nslots dW^T: slot s, group g at (s * groups + g) * taps * kg, row t
                    * (filter tap order), column k */
} unit_bufs;

static void unit_layout(const pdnn_conv_gemm_geom *g, const unit_geom *u,
                        pdnn_conv_gemm_arena *a, unit_bufs *b)
{
    const int64_t slack = PDNN_GEMM_NR_MAX; /* lanes a tile may read past Q: none, kept safe */
    b->poff = pdnn_conv_gemm_take(a, g->taps, sizeof(int64_t));
    b->pad = pdnn_conv_gemm_take(
        a, u->nbi < 0 ? -1 : pdnn_conv_gemm_mul3(u->nbi, u->pg.img, 1) + slack, g->es);
    b->bp = pdnn_conv_gemm_take(
        a,
        u->nbi < 0 || u->nrb == 0
            ? (u->nbi < 0 ? -1 : 0)
            : pdnn_conv_gemm_mul3(u->nbi * g->g, u->nkp * g->uk->nr, u->q),
        g->es);
    b->dwt = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(u->nslots * g->g, g->taps, g->geo.kg),
                                 g->es);
}

static size_t unit_workspace(const pdnn_conv_problem *p)
{
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(p, &g);
    unit_kernel(&g);
    unit_geom u;
    unit_geom_init(&g, &u);
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    unit_bufs b;
    unit_layout(&g, &u, &a, &b);
    return pdnn_conv_gemm_arena_bytes(&a);
}

/* Packs lanes l0 .. l1 - 1 of image n's dY of group grp, panel kp (channels kp*nr ..)
 * as B rows of nr: dst[(l - l0) * nr + j] = dy[n, grp*kg + kp*nr + j, pixel of lane l],
 * 0 where lane l has no pixel or j >= kg. Lane l lies in row l / q2 of the phase grid
 * ((o0, o1) = (row / q1, row % q1): phase-grid rows past out[1] have no pixels) at
 * column l % q2 (no pixel from out[2] on). */
static void pack_dyt(const pdnn_conv_gemm_geom *g, const unit_geom *u, const char *dy, int64_t n,
                     int64_t grp, int64_t kp, int64_t l0, int64_t l1, pdnn_f32_transpose_fn tr,
                     char *dst)
{
    const int nr = g->uk->nr;
    const size_t es = g->es;
    const int64_t k0 = grp * g->geo.kg + kp * nr;
    const int64_t nk = g->geo.kg - kp * nr < nr ? g->geo.kg - kp * nr : nr;
    const int64_t *ys = g->geo.ys, *out = g->geo.out;
    const int64_t q1 = u->pg.q[1], q2 = u->pg.q[2];
    for (int64_t row = l0 / q2; row * q2 < l1; row++) {
        const int64_t o0 = row / q1, o1 = row % q1;
        const int64_t a = row * q2 > l0 ? row * q2 : l0;        /* the row's lanes in range */
        const int64_t e = (row + 1) * q2 < l1 ? (row + 1) * q2 : l1;
        int64_t v0 = a, v1 = a;                                  /* its lanes with a pixel */
        if (o0 < out[0] && o1 < out[1]) {
            v1 = row * q2 + out[2] < e ? row * q2 + out[2] : e;
            if (v1 < v0) v1 = v0;
        }
        char *d = dst + (v0 - l0) * nr * (int64_t)es;
        if (nk < nr) memset(d, 0, (size_t)((v1 - v0) * nr) * es); /* the columns past kg */
        memset(dst + (v1 - l0) * nr * (int64_t)es, 0, (size_t)((e - v1) * nr) * es);
        if (v1 == v0) continue;
        const int64_t len = v1 - v0, c0 = v0 - row * q2;
        const int64_t s0 = n * ys[0] + k0 * ys[1] + o0 * ys[2] + o1 * ys[3] + c0 * ys[4];
        if (es == sizeof(float) && (ys[4] == 1 || len == 1)) {
            /* NCHW: the row's nk x len block, transposed by SIMD blocks */
            tr((size_t)nk, (size_t)len, (const float *)dy + s0, ys[1], (float *)d, nr);
            continue;
        }
        for (int64_t o2 = 0; o2 < len; o2++) {
            const int64_t so = s0 + o2 * ys[4];
            if (es == sizeof(float)) {
                float *dd = (float *)d + o2 * nr;
                const float *sp = (const float *)dy + so;
                for (int64_t j = 0; j < nk; j++) dd[j] = sp[j * ys[1]];
            } else {
                double *dd = (double *)d + o2 * nr;
                const double *sp = (const double *)dy + so;
                for (int64_t j = 0; j < nk; j++) dd[j] = sp[j * ys[1]];
            }
        }
    }
}

/* One block of the slots' sum (unit_exec's end): taps t0 .. t0 + SB - 1 and channels
 * k0 .. k0 + SB - 1 of group grp (clipped at T and kg). The later slots are added to
 * slot 0 in slot order, in place, along dW^T's rows; the block is then transposed
 * (f32: the SIMD transpose kernel), into dW itself when alpha == 1 and beta == 0, else
 * into a local tile blended into dW's rows: dW[k][t] = alpha * sum + beta * dW[k][t]
 * (dW unread when beta == 0). Row by row, the transposed reads would take a cache line
 * per element. */
#define SB 32
#define SLOT_SUM(TT, NAME, TRANSPOSE)                                                      \
    static void NAME(char *dwt, int64_t nslot, int64_t sstride, int64_t T, int64_t kg,     \
                     int64_t grp, int64_t t0, int64_t k0, TT alpha, TT beta, char *dw,     \
                     pdnn_f32_transpose_fn trf)                                            \
    {                                                                                      \
        const int64_t nt = T - t0 < SB ? T - t0 : SB, nk = kg - k0 < SB ? kg - k0 : SB;    \
        TT *s0 = (TT *)dwt + (grp * T + t0) * kg + k0;                                     \
        for (int64_t sl = 1; sl < nslot; sl++)                                             \
            for (int64_t t = 0; t < nt; t++)                                               \
                for (int64_t k = 0; k < nk; k++) s0[t * kg + k] += s0[sl * sstride + t * kg + k]; \
        TT *d = (TT *)dw + (grp * kg + k0) * T + t0;                                       \
        if (alpha == 1 && beta == 0) {                                                     \
            TRANSPOSE(nt, nk, s0, kg, d, T);                                               \
            return;                                                                        \
        }                                                                                  \
        TT tr[SB * SB];                                                                    \
        TRANSPOSE(nt, nk, s0, kg, tr, SB);                                                 \
        for (int64_t k = 0; k < nk; k++)                                                   \
            for (int64_t t = 0; t < nt; t++) {                                             \
                TT v = alpha * tr[k * SB + t];                                             \
                if (beta != 0) v += beta * d[k * T + t];                                   \
                d[k * T + t] = v;                                                          \
            }                                                                              \
    }
#define TR_F32(r, c, src, lds, dst, ldd) trf((size_t)(r), (size_t)(c), src, lds, dst, ldd)
#define TR_F64(r, c, src, lds, dst, ldd)                                                   \
    ((void)trf, pdnn_f64_transpose((size_t)(r), (size_t)(c), src, lds, dst, ldd))
SLOT_SUM(float, slot_sum_f32, TR_F32)
SLOT_SUM(double, slot_sum_f64, TR_F64)
#undef TR_F32
#undef TR_F64
#undef SLOT_SUM

static pdnnStatus_t unit_exec(const pdnn_conv_problem *p, const pdnn_conv_args *arg,
                              const pdnn_ctx *ctx)
{
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(p, &g);
    unit_kernel(&g);
    unit_geom u;
    unit_geom_init(&g, &u);
    pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ctx->ws);
    unit_bufs b;
    unit_layout(&g, &u, &ar, &b);

    const pdnn_gemm_ukernel *uk = g.uk;
    const int mr = uk->mr, nr = uk->nr;
    const size_t es = g.es;
    const int64_t T = g.taps, kg = g.geo.kg, cg = g.geo.cg, Q = u.q;
    const int64_t nich = (g.n + u.nbi - 1) / u.nbi;
    pdnn_conv_gemm_pad_taps(p, &g, &u.pg, b.poff);
    const int64_t bimg = g.g * u.nkp * nr * Q; /* packed dY^T elements per image (whole images) */
    const char *x = arg->src, *dy = arg->wei;
    char *dw = arg->dst;
    const int nt = ctx->nthreads;
    const bool whole = pdnn_conv_gemm_pad_is_copy(&g, &u.pg); /* images copied whole */
    /* the zero lanes past the last image may be read by nothing, but keep them defined */
    memset(b.pad + u.nbi * u.pg.img * (int64_t)es, 0, PDNN_GEMM_NR_MAX * es);
    const pdnn_f32_transpose_fn trf = pdnn_f32_transpose_select();

#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        /* one KC block of packed lanes (segments), in this thread's stack */
        _Alignas(64) char lanes[PDNN_GEMM_KC * PDNN_GEMM_NR_MAX * sizeof(float)];
        const int64_t per_img = g.g * cg + g.g * u.nkp * u.nrb; /* planes, dY^T lane ranges */
        for (int64_t ic = 0; ic < nich; ic++) {
            const int64_t n0 = ic * u.nbi, nimg = g.n - n0 < u.nbi ? g.n - n0 : u.nbi;
#pragma omp for schedule(static)
            for (int64_t i = 0; i < nimg * per_img; i++) {
                const int64_t ni = i / per_img, r = i % per_img;
                if (r < g.g * cg && whole) {
                    if (r == 0) /* the image at once */
                        memcpy(b.pad + ni * u.pg.img * (int64_t)es,
                               x + (n0 + ni) * g.geo.xs[0] * (int64_t)es, (size_t)u.pg.img * es);
                } else if (r < g.g * cg) {
                    pdnn_conv_gemm_pad_plane(&g, &u.pg, x, n0 + ni, r,
                                             b.pad + (ni * u.pg.img + r * u.pg.ps) * (int64_t)es,
                                             ic > 0);
                } else {
                    const int64_t pnl = (r - g.g * cg) / u.nrb, rb = (r - g.g * cg) % u.nrb;
                    const int64_t l0 = Q * rb / u.nrb, l1 = Q * (rb + 1) / u.nrb;
                    pack_dyt(&g, &u, dy, n0 + ni, pnl / u.nkp, pnl % u.nkp, l0, l1, trf,
                             b.bp + (ni * bimg + pnl * nr * Q + l0 * nr) * (int64_t)es);
                }
            }
            /* items (tap tiles, slot) over the slots this chunk's parts fill (its parts
             * are consecutive: slots v0 % nslots on), slot fastest, dealt round robin;
             * each item sums its slot's parts of the chunk in order, each part's lanes
             * in KC blocks, every tile of the item on a block before the next block */
            const int64_t nv = nimg * u.nseg, v0 = n0 * u.nseg;
            const int64_t nsc = nv < u.nslots ? nv : u.nslots;
            /* tap tiles an item runs: all of them with segments, unless the chunk's parts
             * leave fewer than two items a thread (one 14x14 image at minibatch 1 is one
             * part: LeNet's conv2 ran on one thread); then items of fewer tiles, each
             * packing the same blocks of dY^T for its own. Every element still sums
             * its slot's parts in the same order. */
            int64_t tpi = u.tpi;
            const int64_t per_tiles = nsc * g.g * u.nkp, want = 2 * (int64_t)nt;
            if (tpi > 1 && per_tiles < want) {
                const int64_t split = (want + per_tiles - 1) / per_tiles;
                tpi = (u.ntt + split - 1) / split;
            }
            const int64_t nti = (u.ntt + tpi - 1) / tpi; /* items per (grp, kp) */
#pragma omp for schedule(static, 1)
            for (int64_t item = 0; item < nsc * g.g * u.nkp * nti; item++) {
                const int64_t slot = (v0 + item % nsc) % u.nslots, it = item / nsc;
                const int64_t grp = it / (u.nkp * nti), kp = it % (u.nkp * nti) / nti;
                const int64_t tt0 = it % nti * tpi;
                const int64_t tt1 = tt0 + tpi < u.ntt ? tt0 + tpi : u.ntt;
                const int64_t ncols = kg - kp * nr < nr ? kg - kp * nr : nr;
                for (int64_t vi = 0; vi < nv; vi++) {
                    if ((v0 + vi) % u.nslots != slot) continue;
                    const int64_t ni = vi / u.nseg, l0 = vi % u.nseg * SEG_LANES;
                    const int64_t l1 = u.nseg == 1 || Q - l0 < SEG_LANES ? Q : l0 + SEG_LANES;
                    const char *aimg = b.pad + (ni * u.pg.img + grp * cg * u.pg.ps) * (int64_t)es;
                    const char *bimgp =
                        u.nrb == 0 ? NULL
                                   : b.bp + (ni * bimg + (grp * u.nkp + kp) * nr * Q) * (int64_t)es;
                    for (int64_t q0 = l0; q0 < l1; q0 += PDNN_GEMM_KC) {
                        const int64_t kc = l1 - q0 < PDNN_GEMM_KC ? l1 - q0 : PDNN_GEMM_KC;
                        const bool first = v0 + vi == slot && q0 == l0; /* slot's first part */
                        /* B: the packed panel's rows q0 .., or (segments) this block of
                         * lanes packed here, where the item's tiles read it from L1 */
                        const char *bb = lanes;
                        if (u.nrb == 0) /* (f64 tiles are at most 32 wide: the block fits) */
                            pack_dyt(&g, &u, dy, n0 + ni, grp, kp, q0, q0 + kc, trf, lanes);
                        else
                            bb = bimgp + q0 * nr * (int64_t)es;
                        for (int64_t tt = tt0; tt < tt1; tt++) {
                            /* the tile's rows: taps t0 .. t0 + nrow - 1 (filter order),
                             * read in place at their offsets in the padded image; C: those
                             * rows of dW^T */
                            const int64_t t0 = tt * mr, nrow = T - t0 < mr ? T - t0 : mr;
                            ptrdiff_t ao[PDNN_GEMM_MR_MAX];
                            for (int64_t i = 0; i < nrow; i++)
                                ao[i] = (ptrdiff_t)(b.poff[t0 + i] - b.poff[t0]);
                            const char *a = aimg + (b.poff[t0] + q0) * (int64_t)es;
                            char *c = b.dwt +
                                      (((slot * g.g + grp) * T + t0) * kg + kp * nr) * (int64_t)es;
                            if (es == sizeof(float))
                                uk->f32_ao((size_t)nrow, (size_t)ncols, (size_t)kc,
                                           (const float *)a, ao, (const float *)bb,
                                           (float *)c, kg, 1, 1.0f, first ? 0.0f : 1.0f);
                            else
                                uk->f64_ao((size_t)nrow, (size_t)ncols, (size_t)kc,
                                           (const double *)a, ao, (const double *)bb,
                                           (double *)c, kg, 1, 1.0, first ? 0.0 : 1.0);
                        }
                    }
                }
            }
        }
        /* dW = alpha * (sum of the slots' dW^T, in slot order)^T + beta * dW, by blocks of
         * SB taps x SB channels (dW^T's rows are read along, dW's rows written along:
         * row by row, the transposed reads would take a cache line per element) */
        const int64_t nslot = g.n * u.nseg < u.nslots ? g.n * u.nseg : u.nslots;
        const int64_t ntb = (T + SB - 1) / SB, nkb = (kg + SB - 1) / SB;
#pragma omp for schedule(static)
        for (int64_t blk = 0; blk < g.g * ntb * nkb; blk++) {
            const int64_t grp = blk / (ntb * nkb), t0 = blk % (ntb * nkb) / nkb * SB;
            const int64_t k0 = blk % nkb * SB;
            if (es == sizeof(float))
                slot_sum_f32(b.dwt, nslot, g.g * T * kg, T, kg, grp, t0, k0, (float)arg->alpha,
                             (float)arg->beta, dw, trf);
            else
                slot_sum_f64(b.dwt, nslot, g.g * T * kg, T, kg, grp, t0, k0, arg->alpha,
                             arg->beta, dw, trf);
        }
    }
    return PDNN_STATUS_SUCCESS;
}

static size_t bwdf_workspace(const void *prob)
{
    if (in_place_applies(prob)) return unit_workspace(prob);
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(prob, &g);
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    bwdf_bufs b;
    bwdf_layout(&g, &a, &b);
    return pdnn_conv_gemm_arena_bytes(&a);
}

static bool bwdf_supports(const void *prob, const char **why)
{
    if (!pdnn_conv_gemm_supports(prob, PDNN_CONV_BWD_FILTER, why)) return false;
    if (bwdf_workspace(prob) == SIZE_MAX) {
        *why = "workspace size overflows";
        return false;
    }
    return true;
}

static pdnnStatus_t bwdf_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *arg = args;
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(p, &g);
    if (g.geo.kg == 0 || g.taps == 0) return PDNN_STATUS_SUCCESS; /* dw has no elements */
    if (in_place_applies(p)) return unit_exec(p, arg, ctx);

    pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ctx->ws);
    bwdf_bufs b;
    bwdf_layout(&g, &ar, &b);
    pdnn_conv_gemm_taps(p, &g, b.tab);

    const pdnn_gemm_ukernel *uk = g.uk;
    const int mr = uk->mr, nr = uk->nr;
    const size_t es = g.es;
    const int64_t T = g.taps, kg = g.geo.kg, K = g.ncols;
    const int64_t mp = (kg + mr - 1) / mr, np = (T + nr - 1) / nr;
    const int64_t apg = mp * mr * PDNN_GEMM_KC, bpg = np * nr * PDNN_GEMM_KC;
    const pdnn_conv_gemm_tiles tl = pdnn_conv_gemm_tiling(uk, kg, T, g.g, ctx->nthreads);
    const int tch = pdnn_conv_gemm_task_chunk(&tl, ctx->nthreads);
    const char *x = arg->src, *dy = arg->wei;
    char *dw = arg->dst;
    const double alpha = arg->alpha, beta = arg->beta;
    const int nt = ctx->nthreads;

#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        int64_t pc = 0;
        do {
            const int64_t kc = K - pc < PDNN_GEMM_KC ? K - pc : PDNN_GEMM_KC;
            if (kc > 0) {
                pdnn_conv_gemm_origin org[PDNN_GEMM_KC]; /* each thread its own copy */
                pdnn_conv_gemm_origins(&g, pc, kc, org);
#pragma omp for schedule(static)
                for (int64_t i = 0; i < g.g * (mp + np); i++) {
                    const int64_t grp = i / (mp + np), q = i % (mp + np);
                    if (q < mp) { /* A = dY_g block: rows k, columns (n, p) */
                        const int64_t rows = kg - q * mr < mr ? kg - q * mr : mr;
                        const char *src = dy + (grp * kg + q * mr) * g.geo.ys[1] * (int64_t)es;
                        char *dst = b.ap + (grp * apg + q * mr * kc) * (int64_t)es;
                        if (g.ycol_affine) {
                            pdnn_conv_gemm_pack_panel(es, mr, rows, kc,
                                                      src + pc * g.ycs * (int64_t)es, g.geo.ys[1],
                                                      NULL, g.ycs, NULL, dst);
                        } else {
                            int64_t soff[PDNN_GEMM_KC];
                            pdnn_conv_gemm_ycol_offs(&g, pc, kc, soff);
                            pdnn_conv_gemm_pack_panel(es, mr, rows, kc, src, g.geo.ys[1], NULL, 0,
                                                      soff, dst);
                        }
                    } else { /* B = col_g^T block: rows (n, p), columns taps */
                        const int64_t t0 = (q - mp) * nr;
                        const int64_t ntap = T - t0 < nr ? T - t0 : nr;
                        pdnn_conv_gemm_im2col_panel_t(&g, b.tab, x, grp, org, kc, t0, ntap,
                                                      b.bp + (grp * bpg + t0 * kc) * (int64_t)es);
                    }
                }
            }
#pragma omp for schedule(static, tch)
            for (int64_t task = 0; task < tl.ntasks; task++) {
                const int64_t per = tl.mb * tl.nb, grp = task / per, r = task % per;
                int64_t i0, mm, j0, nn;
                if (!pdnn_conv_gemm_task(&tl, uk, r, kg, T, &i0, &mm, &j0, &nn)) continue;
                pdnn_gemm_macro(uk, mm, nn, kc, b.ap + (grp * apg + i0 * kc) * (int64_t)es,
                                kc * mr, b.bp + (grp * bpg + j0 * kc) * (int64_t)es, kc * nr,
                                dw + ((grp * kg + i0) * T + j0) * (int64_t)es, T, 1, NULL, alpha,
                                pc == 0 ? beta : 1.0);
            }
            pc += kc;
        } while (pc < K);
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_bwd_filter_cpu_gemm = {
    "cpu:gemm", PDNN_CONVOLUTION_BWD_FILTER_ALGO_1, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, bwdf_supports, bwdf_workspace, bwdf_exec,
};
