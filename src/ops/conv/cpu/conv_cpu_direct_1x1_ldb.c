/* Channel-major 1x1 convolutions with the data read in place ("ldb" micro-kernels):
 * the fast path of conv_cpu_direct_1x1.c's forward and backward data for FLOAT tensors
 * whose output pixels are contiguous in both x and y within an image (NCHW-like with
 * unit stride, no cropping). Per image n and group:
 *   forward:       Y_n[Kg x P] = W[Kg x Cg] * X_n[Cg x P]
 *   backward data: dX_n[Cg x P] = W^T[Cg x Kg] * dY_n[Kg x P]
 * A (the filter) is read in place (6 rows broadcast; 8 in the forward with 16 or 32
 * output channels, the 8 x 32 kernel of cpu/ukernels/conv1x1), B (the data: channel rows of P
 * contiguous pixels) in place by the ldb kernel, in blocks of LDB_TASK_KC channels x a
 * few 64-pixel panels (an eighth of L2; LDB_KC and half of L2 where the filter is the
 * larger operand, as each pixel block reads all of it); the calls of a block share out
 * the prefetch of the next block (a few rows each, spread over their steps), so the data
 * streams in while the block is computed. A's rows contiguous (forward), the last 1-4
 * pixels past whole vectors of the image are GEMV-kernel dot products of A's rows (in L1
 * after the tile) with those pixels' columns of B (backward data: W^T then transposed
 * into whole rows, not packed in panels, so that its rows are contiguous). The forward
 * packs nothing and takes no workspace; where x's rows are not 64 bytes apart (14 x 14
 * images: 196 floats; AVX-512's 6 x 64 and AVX2's 6 x 16 kernels), the first row panel
 * of each block runs the kernel's copying form,
 * which also writes the B it reads into contiguous panels on the stack (copy_rows), and
 * the other row panels read those (whole cache lines, no split loads). A forward
 * filter larger than half of L2 runs in row blocks that stay in L2 across the images
 * (a_blocked), in LDB_TASK_KC blocks.
 *
 * The sum over the channels runs in equal blocks of at most LDB_TASK_KC (or LDB_KC) at
 * fixed places (the first blends with beta, later ones add), each block in increasing
 * order: results depend only on the data (and, through a_blocked and a 7 x 7 image's
 * blocks, the L2 and L1 sizes), never on the tiling or the thread count (threads split
 * images, pixel panels and row blocks of the output; the tail pixels are the shape's).
 * Exact on small integers. An output (y, or dx read in place) beyond the caches, summed
 * in one channel block with beta == 0, is stored non-temporally (ldb_stream). */
#include "ops/conv/cpu/conv_cpu_direct_1x1.h"

#include <stdatomic.h>

#include "core/par.h"
#include "cpu/cache.h"
#include "cpu/ukernels/conv1x1/conv1x1_ukernels.h"
#include "cpu/ukernels/transpose/transpose.h"
#include "ops/conv/cpu/conv_cpu_panel.h"

/* Channel block of the sums: LDB_TASK_KC in the forward / backward data tasks where the
 * data (B) is the larger operand (a KC x 64 panel of B: 32 KiB, L1), LDB_KC where the
 * filter (A, streamed along its rows: longer runs) is, where the output streams (sums of
 * up to LDB_KC channels in one block: c_streams), and in the other schedules. */
#define LDB_TASK_KC 128
#define LDB_KC 256
/* Pixel blocks of a split are whole vectors of this many pixels (AVX-512's 16). */
#define LDB_VEC 16
/* At most this many pixels past the last whole vector (7 x 7: 1 past 48; 14 x 14: 4
 * past 192) are dotted by the GEMV kernel instead of a vector of mostly empty lanes
 * (forward at minibatch 1, one thread: 7 x 7 layers 13-43% faster, 14 x 14 about 6%). */
#define LDB_TAIL_MAX 4
/* Products (multiply-adds) below which the split is not searched (ldb_tiles). */
#define LDB_SEARCH_MACS ((double)(1 << 25))
/* The split's cost model: products (flop/s) and operand traffic (bytes/s) of a thread. */
#define LDB_FLOPS 150e9
#define LDB_BYTES 10e9
/* Bytes of the compact copies of x (dx) of a chunk of images, at most (one image at
 * least). */
#define LDB_CHUNK_BYTES ((size_t)1 << 20)
/* Channels a sum at most for y's non-temporal stores below the last-level cache's size
 * (ldb_stream). */
#define LDB_STREAM_K 128
/* ... and a last-level cache of at most this many bytes (Zen 4's 32 MiB a CCX, measured;
 * not the Intel machine's 260 MiB, where streaming y of its size measured slower). */
#define LDB_STREAM_L3 ((double)(64 << 20))
/* Bytes of a chunk of side-by-side images (both sides), at most (one image at least). */
#define LDB_BATCH_BYTES ((size_t)4 << 20)
/* Pixels side by side a batched chunk aims at. */
#define LDB_BATCH_PIX 512
/* Bytes of a filter backward data reads in place on the 8 x 32 kernel (in L1). */
#define LDB_SMALL_A (32 << 10)
/* Rows of W^T a transpose writes (backward data, rows_t). */
#define T_ROWS 64
/* Outputs a stride-2 gather deinterleaves at a time (its odd half on the stack). */
#define GATHER_RUN 256
/* Backward data packs W^T when each of its elements serves at least this many pixel
 * panels (below, one pass reads it in place for less). */
#define LDB_PACK_REUSE 8
/* Floats of a task's copied block of B, at most (on the stack, 256 KiB: kc rows of
 * whole panels; the pixel blocks of a copying run are capped to fit). */
#define LDB_PACK_FLOATS (64 << 10)

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

bool pdnn_conv_1x1_pixel_step(const pdnn_conv_geom3 *G, const int64_t st[3], int64_t *step)
{
    int64_t s = 0, inner = 1;
    for (int d = 2; d >= 0; d--) {
        if (G->out[d] == 1) continue;
        if (s == 0)
            s = st[d];
        else if (st[d] != s * inner)
            return false;
        inner *= G->out[d];
    }
    *step = s == 0 ? 1 : s;
    return true;
}

/* Output pixels contiguous in t within an image (strides st)? */
static bool pix_contig(const pdnn_conv_geom3 *G, const int64_t st[3])
{
    int64_t step;
    return pdnn_conv_1x1_pixel_step(G, st, &step) && step == 1;
}

static void x_steps(const pdnn_conv_geom3 *G, int64_t st[3])
{
    for (int d = 0; d < 3; d++) st[d] = G->str[d] * G->xs[2 + d];
}

/* x's side goes through a compact copy (its output pixels are not contiguous, or some x
 * pixels are read by no output). */
bool pdnn_conv_1x1_ldb_x_compact(const pdnn_conv_gemm_geom *g)
{
    int64_t st[3];
    x_steps(&g->geo, st);
    return !(pix_contig(&g->geo, st) && g->npix == g->nin);
}

bool pdnn_conv_1x1_ldb_applies(const pdnn_conv_gemm_geom *g)
{
    const pdnn_conv_geom3 *G = &g->geo;
    if (g->t != PDNN_DATA_FLOAT || pdnn_conv_1x1_pixel_major(g)) return false;
    return pix_contig(G, G->ys + 2);
}

/* Images per compact chunk. */
static int64_t chunk_imgs(const pdnn_conv_gemm_geom *g)
{
    const int64_t per = max64(g->g * g->geo.cg * g->npix, 1);
    return max64(1, min64(g->n, (int64_t)(LDB_CHUNK_BYTES / sizeof(float)) / per));
}

static const pdnn_gemm_ldb_ukernel *ldb_kernel(int64_t m, int64_t k, bool fwd, bool ystream);
static bool c_streams(const pdnn_conv_gemm_geom *g, pdnn_conv_dir dir);

/* The forward's x rows, as the unbatched schedule reads them (x itself or the compact
 * chunk), are not all 64 bytes apart, on more than one pixel panel, with AVX-512's 6 x 64
 * kernel on more than one row panel: where its blocks are copied (copy_rows) unless the
 * filter is row-blocked. Shape only. */
static bool fwd_rows_unaligned(const pdnn_conv_gemm_geom *g)
{
    const pdnn_conv_geom3 *G = &g->geo;
    const pdnn_gemm_ldb_ukernel *uk = ldb_kernel(G->kg, G->cg, true, c_streams(g, PDNN_CONV_FWD));
    if (uk->f32 != pdnn_f32_gemm_ldb_ukernel_6x64__avx512 || G->kg <= uk->mr || g->npix <= uk->nr) return false;
    if (pdnn_conv_1x1_ldb_x_compact(g)) return g->npix % LDB_VEC != 0;
    return (G->xs[0] | G->xs[1] | G->cg * G->xs[1]) % LDB_VEC != 0;
}

/* Forward, the filter (A, m x k, read in place) larger than half of L2 (than L2 where
 * x's rows are not 64 bytes apart: read through the copies, the filter streaming from
 * L3 costs less; ResNet-50 res5a_branch2a, 1024 -> 512 on 14 x 14, minibatch 32, one
 * thread: 48.2-48.4 -> 44.9-45.2 ms, res4a_branch1 55.8-56.1 -> 52.2-52.5) and several
 * images (x groups): otherwise every image would stream all of it from L3 again (its
 * rows a power of two apart share few L2 sets); the tasks then cover row blocks of A
 * that stay in L2 (half of it), row block before image (ldb_tiles, ldb_at). ResNet-50
 * res5b_branch2a (2048 -> 512 on 7 x 7) minibatch 32, one thread: 24.9 -> 22.5 ms.
 * Shape only, never the thread count. */
bool pdnn_conv_1x1_ldb_a_blocked(const pdnn_conv_gemm_geom *g, pdnn_conv_dir dir)
{
    if (dir != PDNN_CONV_FWD || g->n * g->g < 2) return false;
    const size_t l2 = pdnn_cpu_cache_sizes()->l2;
    const double abytes = (double)g->geo.kg * (double)g->geo.cg * sizeof(float);
    return abytes > (double)(fwd_rows_unaligned(g) ? l2 : l2 / 2);
}

/* Short images whose pixels fill SIMD vectors poorly (7 x 7: 49 of 64 lanes): a chunk of
 * images is copied side by side (channel rows of images x pixels) on both sides, so the
 * tiles run across images; not where the forward's filter is row-blocked (a_blocked:
 * faster on ResNet-50's 7 x 7 layers than the copies). */
bool pdnn_conv_1x1_ldb_batched(const pdnn_conv_gemm_geom *g, pdnn_conv_dir dir)
{
    if (pdnn_conv_1x1_ldb_a_blocked(g, dir)) return false;
    const int64_t np = g->npix, lanes = cdiv(np, 16) * 16, cg = g->geo.cg, kg = g->geo.kg;
    /* the copies cost about 32 (1 / cg + 1 / kg) of the products: only with many
     * channels on both sides (ResNet-50's 7 x 7 layers, not MobileNet's) */
    return g->n > 1 && np > 0 && np * 10 < lanes * 9 && (cg + kg) * 32 * 100 < 12 * cg * kg;
}

static int64_t batch_imgs(const pdnn_conv_gemm_geom *g)
{
    /* enough images for LDB_BATCH_PIX pixels side by side, within LDB_BATCH_BYTES */
    const int64_t per = max64(g->g * (g->geo.cg + g->geo.kg) * g->npix, 1);
    const int64_t want = min64(g->n, cdiv(LDB_BATCH_PIX, max64(g->npix, 1)));
    return max64(1, min64(want, (int64_t)(LDB_BATCH_BYTES / sizeof(float)) / per));
}

size_t pdnn_conv_1x1_ldb_workspace(const pdnn_conv_gemm_geom *g, pdnn_conv_dir dir)
{
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    if (dir == PDNN_CONV_BWD_DATA)
        pdnn_conv_gemm_take(&a, pdnn_conv_gemm_mul3(g->g, pdnn_gemm_packed_a_elems(g->uk, g->geo.cg, g->geo.kg), 1),
                            g->es);
    if (pdnn_conv_1x1_ldb_batched(g, dir)) { /* the two sides, as run_batched takes them */
        pdnn_conv_gemm_take(&a, pdnn_conv_gemm_mul3(batch_imgs(g), g->g * g->geo.cg, g->npix), g->es);
        pdnn_conv_gemm_take(&a, pdnn_conv_gemm_mul3(batch_imgs(g), g->g * g->geo.kg, g->npix), g->es);
    } else if (pdnn_conv_1x1_ldb_x_compact(g))
        pdnn_conv_gemm_take(&a, pdnn_conv_gemm_mul3(chunk_imgs(g), g->g * g->geo.cg, g->npix), g->es);
    return pdnn_conv_gemm_arena_bytes(&a);
}

typedef struct {
    const pdnn_gemm_ldb_ukernel *uk;
    int64_t m, k, np, g, n;
    const float *a; /* A(i, kk) at a + grp * a_gs + (i / mr) * a_ps + (i % mr) * a_rs + kk * a_cs */
    int64_t a_gs, a_ps, a_rs, a_cs;
    const float *b;
    int64_t b_ns, b_gs, ldb;
    float *c;
    int64_t c_ns, c_gs, rs_c;
    float alpha, beta;
    int64_t mbr, mb, pbx, pb, ntasks; /* row / pixel blocks (sizes, counts), tasks */
    int64_t rsub;                     /* rows of a task's C block (in L2) */
    int64_t kc;                       /* channel block of the sums */
    int64_t kcb;                      /* its blocks' size: kc, or the sum split evenly */
    int64_t tail;                     /* last pixels summed by the GEMV kernel */
    bool ablk;                        /* A in row blocks that stay in L2 (a_blocked) */
    bool rmaj;                        /* tasks ordered row block before image */
    bool bpack;                       /* B's block copied into contiguous panels */
    pdnn_f32_gemm_ldb_copy_ukernel_fn cpk; /* the kernel's copying form (bpack) */
    bool stream;                      /* C stored non-temporally (ldb_stream) */
    bool awide;                       /* A the larger operand (its rows past B's pixels) */
} ldb_run;

/* The copying form of the ldb kernel uk, where B's rows are copied (copy_rows): the
 * forward on AVX-512's 6 x 64 kernel or AVX2's 6 x 16 with more than one row panel (the
 * copy is read again), not where the filter is row-blocked (its block fills half of L2:
 * measured 2-3% slower with the copy beside it); else NULL. AVX2, one thread, minibatch
 * 1 (ResNet-50): 7 x 7 layers 15-27% faster copied, 14 x 14 2-9%, the stride-2
 * projections (compact rows of 196 and 49 pixels) 10-25%; backward data copied measured
 * no faster (mixed, -12% to +9%), so it reads in place as on AVX-512. */
static pdnn_f32_gemm_ldb_copy_ukernel_fn copy_kernel(const pdnn_gemm_ldb_ukernel *uk,
                                                     pdnn_conv_dir dir, bool ablk, int64_t m)
{
    if (dir != PDNN_CONV_FWD || ablk || m <= uk->mr) return NULL;
    if (uk->f32 == pdnn_f32_gemm_ldb_ukernel_6x16__avx2_fma) return pdnn_f32_gemm_ldb_copy_ukernel_6x16__avx2_fma;
    if (uk->f32 != pdnn_f32_gemm_ldb_ukernel_6x64__avx512) return NULL;
    return pdnn_f32_gemm_ldb_copy_ukernel_6x64__avx512;
}

/* B's block is copied into contiguous panels by the first row panel of each block (the
 * copying kernel) and read from there by the others: where the kernel has a copying form
 * and B's rows are not all 64-byte aligned (a row of 14 x 14 = 196 pixels: three of four
 * rows' vectors straddle two cache lines; the kernel alone runs 8% slower on them). Rows
 * that are aligned are read in place: copying them measured up to 25% slower (56 x 56
 * images), and so are images of a single pixel panel (AVX-512's 7 x 7: its block of B is
 * kept in L1 and read from there; copied, 1-2.5% slower; on AVX2 a 7 x 7 image is four
 * 16-pixel panels and is copied; AVX2 copies runs of one image only). Only the shape
 * and the data's
 * addresses decide, never the thread count; the copy changes no bit. */
static bool copy_rows(const ldb_run *r)
{
    /* AVX2's 6 x 16: one image a run only (MobileNet-v2's b8_project, 384 -> 64 on 14 x
     * 14, minibatch 32, one thread: 4.1-4.4 ms read in place, 6.4-6.9 copied; at
     * minibatch 1 even, and the 7 x 7 layers faster copied) */
    if (r->cpk == pdnn_f32_gemm_ldb_copy_ukernel_6x16__avx2_fma && r->n > 1) return false;
    return r->cpk && r->np > r->uk->nr &&
           ((r->ldb | r->b_ns | r->b_gs) % LDB_VEC != 0 || (uintptr_t)r->b % 64 != 0);
}

/* Whether the output (y; backward data: dx read in place, not through the compact
 * copies) is stored non-temporally (the 6 x 64 kernel's _nt_ forms): beta ==
 * 0, the whole sum over the channels in one block (each output written once, never read
 * back), y larger than PDNN_CONV_STREAM_BYTES and either larger than the last-level
 * cache or, with short sums (at most LDB_STREAM_K channels) into whole cache lines (y's
 * base, channel and image strides multiples of 16 floats) and a last-level cache of at
 * most LDB_STREAM_L3 bytes, larger than a quarter of it.
 * The second case, Zen 4 (L3 32 MiB), mb32, 2 threads, best of 3 alternating runs, ms:
 * MobileNet-v2 b5_expand (32 channels, 19 MB of y) 2.25 -> 1.58, b2_project (96, 9.6 MB)
 * 2.86 -> 2.30, b1_project (32, 26 MB) 5.58 -> 4.91, ResNet-50 res2a_branch2a (64, 26
 * MB) 4.89 -> 4.41; with longer sums the stores weigh less and streaming measured
 * 1-5% slower (b3_project 144 channels, res3b_branch2a 512); y's 14 x 14 planes (rows
 * not 64-byte aligned) mix plain and streaming stores, measured 12% slower (b8_expand).
 * The first case, measured on
 * the AMD Zen 4 of docs/PERF.md (L3 32 MiB), mb32, 2 threads, GFLOP/s: MobileNet-v2
 * b2_expand (154 MB of y) 116-126 -> 143-177, b3_expand 161-163 -> 176-178, ResNet-50
 * res2a_branch2c 189-194 -> 210-212, res3a_branch2c 202-203 -> 209-220; on the Intel
 * machine (L3 260 MiB) streaming layers of 25-100 MB of y ran 5-20% slower, and the
 * rule leaves them cached (so does it on AVX2, where session 11 measured no gain; the
 * second case was not measured there, hence LDB_STREAM_L3). A
 * property of the call's sizes and the cache's; the same values are stored either way. */
static bool stream_rule(double ybytes, int64_t k, bool lines)
{
    const double l3 = (double)pdnn_cpu_cache_sizes()->l3;
    const bool short_sums = lines && k <= LDB_STREAM_K && l3 <= LDB_STREAM_L3;
    return ybytes > PDNN_CONV_STREAM_BYTES && (ybytes > l3 || (short_sums && ybytes > l3 / 4));
}

static bool ldb_stream(const ldb_run *r, const pdnn_conv_gemm_geom *g)
{
    if (r->uk->f32 != pdnn_f32_gemm_ldb_ukernel_6x64__avx512 || r->beta != 0.0f || r->kcb < r->k) return false;
    const double ybytes = (double)g->n * (double)g->g * (double)r->m * (double)r->np * sizeof(float);
    const bool lines = ((uintptr_t)r->c & 63) == 0 && r->rs_c % 16 == 0 && r->c_ns % 16 == 0 &&
                       r->c_gs % 16 == 0;
    return stream_rule(ybytes, r->k, lines);
}

/* The output (y; backward data: dx, written in place, not through the compact copies)
 * streams by the rule above as far as the shape tells (its base taken as aligned; beta
 * and the channel blocks aside): the choice of ldb_kernel. */
static bool c_streams(const pdnn_conv_gemm_geom *g, pdnn_conv_dir dir)
{
    const pdnn_conv_geom3 *G = &g->geo;
    const bool fwd = dir == PDNN_CONV_FWD;
    if (!fwd && (dir != PDNN_CONV_BWD_DATA || pdnn_conv_1x1_ldb_x_compact(g))) return false;
    const int64_t m = fwd ? G->kg : G->cg, *st = fwd ? G->ys : G->xs;
    const double bytes = (double)g->n * (double)g->g * (double)m * (double)g->npix * sizeof(float);
    const bool lines = st[1] % 16 == 0 && st[0] % 16 == 0 && (m * st[1]) % 16 == 0;
    return stream_rule(bytes, fwd ? G->cg : G->kg, lines);
}

/* Tasks u < t (over the items, per = mb * pb tasks an item) in the last row block of
 * their item, in the last pixel block, and in both. */
static void last_counts(int64_t t, int64_t mb, int64_t pb, int64_t c[3])
{
    const int64_t per = mb * pb;
    c[0] = (t / per) * pb + max64(0, t % per - (mb - 1) * pb);
    c[1] = t / pb;
    c[2] = t / per;
}

/* Estimated seconds of a split into row blocks of mbr and pixel blocks of pbx with nt
 * threads (static schedule: contiguous runs of tasks): the busiest thread's products,
 * plus the operands' traffic (each pixel block reads its rows of A, each row block its
 * pixels of B; A that fits in L2 is re-read from there, at a tenth of the cost, past
 * one read a thread). */
static double split_cost(const ldb_run *r, int64_t mbr, int64_t pbx, int nt, size_t l2)
{
    const int64_t mr = r->uk->mr, mb = cdiv(r->m, mbr), pb = cdiv(r->np, pbx);
    const int64_t items = r->g * r->n, per = mb * pb, ntasks = items * per;
    const int64_t base = ntasks / nt, extra = ntasks % nt;
    /* a task's rows (whole panels) times its pixels (whole vectors): the same for every
     * task but those of the last row block and of the last pixel block, so a thread's
     * run of tasks sums in closed form from the counts of those (the same integers as a
     * walk over every task, which cost each thread about 40 us of every call at two
     * threads: ResNet-50 res2a_branch2c, minibatch 1, ~70 candidate splits) */
    const int64_t rf = cdiv(mbr, mr) * mr, rl = cdiv(r->m - (mb - 1) * mbr, mr) * mr;
    const int64_t pf = cdiv(pbx, LDB_VEC) * LDB_VEC, pl = cdiv(r->np - (pb - 1) * pbx, LDB_VEC) * LDB_VEC;
    double worst = 0;
    int64_t t = 0, c0[3];
    last_counts(0, mb, pb, c0);
    for (int th = 0; th < nt; th++) {
        const int64_t cnt = base + (th < extra);
        int64_t c1[3];
        last_counts(t + cnt, mb, pb, c1);
        const int64_t nr_ = c1[0] - c0[0], np_ = c1[1] - c0[1], nb_ = c1[2] - c0[2];
        const int64_t load = rf * pf * (cnt - nr_ - np_ + nb_) + rl * pf * (nr_ - nb_) + rf * pl * (np_ - nb_) +
                             rl * pl * nb_;
        if ((double)load > worst) worst = (double)load;
        t += cnt;
        for (int i = 0; i < 3; i++) c0[i] = c1[i];
    }
    const double abytes = (double)r->m * (double)r->k * 4.0, bbytes = (double)r->k * (double)r->np * 4.0;
    /* A's first read by each thread comes from L3 (the pixel blocks of an item on
     * different threads: different cores' L2), only the re-reads by the same thread from
     * L2 (ResNet-50 res4b_branch2a, 1024 -> 256 on 14 x 14, mb1, two threads: 112 + 84
     * pixels a thread -> 132 rows a thread, 0.44 -> 0.34 ms) */
    const int64_t pown = min64(pb, nt);
    const double traffic = (double)items * ((double)pown * abytes +
                                            (double)(pb - pown) * abytes * (abytes * 2 > (double)l2 ? 1.0 : 0.1) +
                                            (double)mb * bbytes);
    return 2.0 * (double)r->k * worst / LDB_FLOPS + traffic / ((double)nt * LDB_BYTES);
}

/* The split of the output into tasks: pixel blocks of at most an eighth of L2 in a
 * LDB_TASK_KC block (the next one arrives beside it); with fewer images (x groups) than
 * 4 per thread, the row and pixel blocks (whole vectors) of the least split_cost. */
static void ldb_tiles(ldb_run *r, size_t es, int nt)
{
    const int64_t mr = r->uk->mr, nr = r->uk->nr, np = max64(r->np, 1);
    const size_t l2 = pdnn_cpu_cache_sizes()->l2;
    const int64_t kc = min64(r->kc, max64(r->k, 1));
    /* B's block: an eighth of L2 (the next one arrives beside it), half of it when A
     * is the larger operand (each pixel block reads all of A's rows) */
    const size_t share = r->awide ? 2 : 8;
    int64_t pmax = max64(1, (int64_t)(l2 / share / ((size_t)(kc * nr) * es))) * nr;
    if (r->bpack) /* the copied block fits its stack buffer */
        pmax = min64(pmax, max64(1, LDB_PACK_FLOATS / (kc * nr)) * nr);
    const int64_t mfull = max64(cdiv(r->m, mr), 1) * mr;
    r->pbx = cdiv(cdiv(np, cdiv(np, pmax)), LDB_VEC) * LDB_VEC; /* equal blocks */
    r->mbr = mfull;
    const double macs = (double)r->g * (double)r->n * (double)r->m * (double)r->k * (double)np;
    if (nt > 1 && r->g * r->n < 4 * (int64_t)nt && macs < LDB_SEARCH_MACS) {
        /* small products: the search below would cost as much as the product (it walked
         * every task of ~70 candidate splits: a quarter of MobileNet-v2 b5_expand's time
         * at mb1, 2 threads; split_cost is now closed-form, the rule kept as it decides
         * the splits); a row block a thread when the rows are many (balanced,
         * whatever the pixels), else pixel blocks of whole vectors, two a thread */
        if (mfull >= 4 * mr * (int64_t)nt)
            r->mbr = cdiv(cdiv(mfull, nt), mr) * mr;
        else
            r->pbx = min64(r->pbx,
                           max64(LDB_VEC, cdiv(cdiv(np, 2 * (int64_t)nt), LDB_VEC) * LDB_VEC));
    } else if (nt > 1 && r->g * r->n < 4 * (int64_t)nt) {
        /* at least a task per thread (the traffic term can favour one task) */
        const int64_t items = r->g * r->n;
#define ENOUGH(mbr_, pbx_) (items * cdiv(r->m, (mbr_)) * cdiv(np, (pbx_)) >= (int64_t)nt)
        double best = ENOUGH(r->mbr, r->pbx) ? split_cost(r, r->mbr, r->pbx, nt, l2) : 1e300;
        for (int64_t sm = 1; sm <= 8; sm++)
            for (int64_t sp = cdiv(np, pmax); sp <= cdiv(np, pmax) + 8; sp++) {
                const int64_t mbr = cdiv(cdiv(mfull, sm), mr) * mr;
                const int64_t pbx = cdiv(cdiv(np, sp), LDB_VEC) * LDB_VEC;
                if ((sm > 1 && mbr == cdiv(cdiv(mfull, sm - 1), mr) * mr) || pbx > pmax) continue;
                if (!ENOUGH(mbr, pbx)) continue;
                const double c = split_cost(r, mbr, pbx, nt, l2);
                if (c < best * 0.999) best = c, r->mbr = mbr, r->pbx = pbx;
            }
#undef ENOUGH
    }
    r->rmaj = false;
    if (r->ablk) {
        const int64_t mbmax = max64(mr, (int64_t)(l2 / 2 / ((size_t)max64(r->k, 1) * es)) / mr * mr);
        const int64_t nbk = cdiv(mfull, mbmax);
        r->mbr = cdiv(cdiv(mfull, nbk), mr) * mr;
        r->rmaj = true;
    }
    r->mb = cdiv(r->m, r->mbr);
    r->pb = cdiv(np, r->pbx);
    r->ntasks = r->g * r->n * r->mb * r->pb;
    /* rows of C a task sums over every channel block before the next: all of them when
     * its block of C fits in half of L2, else a quarter of L2 of them */
    const size_t crow = (size_t)min64(r->pbx, np) * es;
    r->rsub = (size_t)r->mbr * crow <= l2 / 2 ? r->mbr : max64(1, (int64_t)(l2 / 4 / crow) / mr) * mr;
    /* pixels past the last whole vector, when few and A's rows contiguous: the tail */
    r->tail = r->a_cs == 1 && r->np % LDB_VEC <= LDB_TAIL_MAX ? r->np % LDB_VEC : 0;
    /* the sums' blocks: the fewest of at most kc channels, of equal size (no short last
     * block: 144 = 72 + 72, not 128 + 16); for a single pixel panel (7 x 7), as many
     * channels as keep its block of B in three quarters of L1 (at most LDB_KC), as
     * every row panel of A reads it (576 = 3 x 192, not 256 + 256 + 64) */
    int64_t kmax = r->kc;
    const int64_t kk = max64(r->k, 1), wv = r->np - r->tail;
    if (r->np <= nr && wv > 0) {
        const size_t l1 = pdnn_cpu_cache_sizes()->l1d;
        kmax = min64(LDB_KC, max64(LDB_VEC, (int64_t)(l1 * 3 / 4 / ((size_t)wv * es))));
    }
    r->kcb = cdiv(kk, cdiv(kk, kmax));
}

/* Task t's place: image, group, rows [i0, i1), pixels [p0, p1). */
typedef struct {
    int64_t n, grp, i0, i1, p0, p1;
} ldb_place;

static ldb_place ldb_at(const ldb_run *r, int64_t t)
{
    int64_t per = r->mb * r->pb, item = t / per, rem = t % per;
    if (r->rmaj) { /* (group, row block, image, pixel block) */
        const int64_t pg = r->mb * r->n * r->pb, grp = t / pg, u = t % pg;
        const int64_t rb = u / (r->n * r->pb), v = u % (r->n * r->pb);
        item = (v / r->pb) * r->g + grp;
        rem = rb * r->pb + v % r->pb;
    }
    ldb_place P;
    P.grp = item % r->g;
    P.n = item / r->g;
    P.i0 = (rem / r->pb) * r->mbr;
    P.i1 = min64(r->m, P.i0 + r->mbr);
    P.p0 = (rem % r->pb) * r->pbx;
    P.p1 = min64(r->np, P.p0 + r->pbx);
    return P;
}

/* Task t: rows [i0, i1) x pixels [p0, p1) of one image and group, in C blocks of rsub
 * rows; per channel block, each row panel of A runs across the pixel panels (B's block
 * stays in L2, C is written along its rows). The calls of a block share out the
 * prefetch of the next block of B (this task's next channel block, else the next
 * task's first), a few rows each, so that it streams in while the block is computed.
 * With bpack, the block is copied into contiguous panels (bp) by its first row panel's
 * calls, which read it in place, and read from there by the others. On AVX2 a row
 * panel's tiles are one call of the strip kernel (conv1x1_ukernels.h: the same tiles and
 * bits, without a call per 6 x 16 tile; not the copying row panel's), each row panel
 * reading B in place prefetching its share of the next block's rows across every panel
 * (those reading the copy prefetch nothing). */
static void ldb_task(const ldb_run *r, int64_t t)
{
    const int64_t mr = r->uk->mr, nr = r->uk->nr;
    const ldb_place P = ldb_at(r, t);
    const float *ag = r->a + P.grp * r->a_gs;
    const float *bg = r->b + P.n * r->b_ns + P.grp * r->b_gs;
    float *cg = r->c + P.n * r->c_ns + P.grp * r->c_gs;
    /* the image's last r->tail pixels, when this task has them: GEMV kernel dot products
     * of A's rows with their columns of B, not a vector of mostly empty lanes */
    const int64_t pend = P.p1 == r->np ? P.p1 - r->tail : P.p1, ntail = P.p1 - pend;
    const pdnn_gemv_ukernel *gv = ntail ? pdnn_gemv_ukernel_select_f32() : NULL;
    _Alignas(64) float xt[LDB_TAIL_MAX * LDB_KC];
    _Alignas(64) float bp[LDB_PACK_FLOATS];
    /* AVX2's 6 x 16 tiles of a row panel in one strip call (but the copying row panel's) */
    const bool strip = r->uk->f32 == pdnn_f32_gemm_ldb_ukernel_6x16__avx2_fma;
    for (int64_t ib = P.i0; ib < P.i1; ib += r->rsub) { /* C's rows stay in L2 */
        const int64_t ie = min64(P.i1, ib + r->rsub);
        const int64_t calls = cdiv(ie - ib, mr) * cdiv(P.p1 - P.p0, nr);
        int64_t pc = 0;
        do {
            const int64_t kc = min64(r->kcb, r->k - pc);
            const float beff = pc == 0 ? r->beta : 1.0f;
            const float *nb = NULL; /* the next block: nk rows of npn panels */
            int64_t nk = 0, npn = 0;
            if (pc + kc < r->k || ie < P.i1) {
                const int64_t pn = pc + kc < r->k ? pc + kc : 0;
                nb = bg + pn * r->ldb + P.p0;
                nk = min64(r->kcb, r->k - pn);
                npn = cdiv(P.p1 - P.p0, nr);
            } else if (t + 1 < r->ntasks) {
                const ldb_place N = ldb_at(r, t + 1);
                nb = r->b + N.n * r->b_ns + N.grp * r->b_gs + N.p0;
                nk = min64(r->kcb, r->k);
                npn = cdiv(N.p1 - N.p0, nr);
            }
            /* cpp calls a panel of it, rpc rows each */
            const int64_t cpp = npn > 0 ? max64(1, calls / npn) : 1, rpc = cdiv(nk, cpp);
            /* strip calls: rps rows of every panel each */
            const int64_t rps = cdiv(nk, cdiv(ie - ib, mr));
            int64_t call = 0;
            for (int64_t j = 0; j < ntail; j++) /* the tail pixels' columns of B */
                for (int64_t kk = 0; kk < kc; kk++) xt[j * kc + kk] = bg[(pc + kk) * r->ldb + pend + j];
            for (int64_t i = ib; i < ie; i += mr) {
                const float *a = ag + (i / mr) * r->a_ps + pc * r->a_cs;
                float *c = cg + i * r->rs_c;
                /* with bpack, the first row panel reads B in place and copies it to bp
                 * (panel after panel, kc rows of nr), the others read the copy */
                const bool cp = r->bpack && i == ib, inb = !r->bpack || cp;
                if (strip && !cp) { /* the row panel's tiles in one call: B in place, each
                                     * tile with its rows of the next block's panel, or
                                     * the copy's panels (no prefetch) */
                    const int64_t r0 = ((i - ib) / mr) * rps;
                    const bool pf = inb && nb && r0 < nk;
                    pdnn_f32_ldb_strip_6x16__avx2_fma((size_t)min64(mr, ie - i), (size_t)(pend - P.p0), (size_t)kc, a,
                                                      r->a_rs, r->a_cs, inb ? bg + pc * r->ldb + P.p0 : bp,
                                                      inb ? r->ldb : nr, inb ? nr : kc * nr, c + P.p0, r->rs_c,
                                                      r->alpha, beff, pf ? nb + r0 * r->ldb : NULL,
                                                      pf ? (size_t)min64(rps, nk - r0) : 0);
                }
                for (int64_t q = P.p0; (!strip || cp) && q < pend; q += nr, call++) {
                    const float *b = inb ? bg + pc * r->ldb + q : bp + (q - P.p0) * kc;
                    const int64_t pan = call / cpp, r0 = (call % cpp) * rpc;
                    const bool pf = nb && pan < npn && r0 < nk;
                    const float *pfp = pf ? nb + r0 * r->ldb + pan * nr : NULL;
                    const size_t pfn = pf ? (size_t)min64(rpc, nk - r0) : 0;
                    if (cp)
                        (r->stream ? pdnn_f32_gemm_ldb_copy_nt_ukernel_6x64__avx512 : r->cpk)(
                            (size_t)min64(mr, ie - i), (size_t)min64(nr, pend - q), (size_t)kc, a, r->a_rs,
                            r->a_cs, b, r->ldb, c + q, r->rs_c, r->alpha, beff, pfp, pfn, bp + (q - P.p0) * kc);
                    else
                        (r->stream ? pdnn_f32_gemm_ldb_nt_ukernel_6x64__avx512 : r->uk->f32)(
                            (size_t)min64(mr, ie - i), (size_t)min64(nr, pend - q), (size_t)kc, a, r->a_rs,
                            r->a_cs, b, inb ? r->ldb : nr, c + q, r->rs_c, r->alpha, beff, pfp, pfn);
                }
                for (int64_t j = 0; j < ntail; j++) /* A's rows (in L1 now) dot each tail column */
                    for (int64_t i2 = 0; i2 < min64(mr, ie - i); i2 += gv->mr)
                        gv->f32((size_t)min64(gv->mr, min64(mr, ie - i) - i2), (size_t)kc, a + i2 * r->a_rs,
                                r->a_rs, xt + j * kc, c + i2 * r->rs_c + pend + j, r->rs_c, r->alpha, beff);
            }
            pc += kc;
        } while (pc < r->k);
    }
}

/* Compact rows: buf[(i * cgt + c) * np + o] <-> x[(n0 + i) * xs0 + c * xs1 + pixel of o]
 * for the images of a chunk, every channel of every group (cgt). Forward gathers;
 * backward data scatters alpha * buf + beta * dx and gives the pixels no output reads
 * beta * dx (0 when beta == 0). */
void pdnn_conv_1x1_compact_row(const pdnn_conv_gemm_geom *g, bool gather, const float *xs,
                               float *xd, float *row, float alpha, float beta)
{
    const pdnn_conv_geom3 *G = &g->geo;
    if (gather) {
        int64_t o = 0;
        const int64_t st = G->str[2] * G->xs[4], n2 = G->out[2];
        /* stride 2 along contiguous rows: vector deinterleaves (the odd half into a
         * scratch), GATHER_RUN outputs at a time */
        const pdnn_f32_deinterleave2_fn di = st == 2 ? pdnn_f32_deinterleave2_select() : NULL;
        float odd[GATHER_RUN];
        for (int64_t o0 = 0; o0 < G->out[0]; o0++)
            for (int64_t o1 = 0; o1 < G->out[1]; o1++, o += n2) {
                const float *s = xs + o0 * G->str[0] * G->xs[2] + o1 * G->str[1] * G->xs[3];
                if (di)
                    for (int64_t c0 = 0; c0 < n2; c0 += GATHER_RUN) {
                        const int64_t cn = min64(GATHER_RUN, n2 - c0);
                        di(s + 2 * c0, (size_t)(2 * cn - 1), row + o + c0, odd);
                    }
                else
                    for (int64_t o2 = 0; o2 < n2; o2++) row[o + o2] = s[o2 * st];
            }
        return;
    }
    for (int64_t i0 = 0; i0 < G->in[0]; i0++)
        for (int64_t i1 = 0; i1 < G->in[1]; i1++) {
            float *d = xd + i0 * G->xs[2] + i1 * G->xs[3];
            const bool hit = i0 % G->str[0] == 0 && i0 / G->str[0] < G->out[0] &&
                             i1 % G->str[1] == 0 && i1 / G->str[1] < G->out[1];
            const float *r = row + ((i0 / G->str[0]) * G->out[1] + i1 / G->str[1]) * G->out[2];
            if (G->xs[4] == 1) { /* contiguous row: beta * dx (or 0) in vectors, then the
                                  * read pixels get alpha * sum added (the same roundings) */
                if (beta != 0)
                    for (int64_t i2 = 0; i2 < G->in[2]; i2++) d[i2] = beta * d[i2];
                else
                    for (int64_t i2 = 0; i2 < G->in[2]; i2++) d[i2] = 0.0f;
                if (!hit) continue;
                const int64_t s2 = G->str[2];
                if (beta != 0)
                    for (int64_t o = 0; o < G->out[2]; o++) {
                        const float v = alpha * r[o];
                        d[o * s2] = v + d[o * s2];
                    }
                else
                    for (int64_t o = 0; o < G->out[2]; o++) d[o * s2] = alpha * r[o];
                continue;
            }
            int64_t ph = 0, o2 = 0; /* i2 % str[2], i2 / str[2] (without divisions) */
            for (int64_t i2 = 0; i2 < G->in[2]; i2++) {
                float *e = d + i2 * G->xs[4];
                float v;
                if (hit && ph == 0 && o2 < G->out[2]) {
                    v = alpha * r[o2++];
                    if (beta != 0) {
                        const float u = beta * *e;
                        v = v + u;
                    }
                } else {
                    v = beta != 0 ? beta * *e : 0.0f;
                }
                *e = v;
                if (++ph == G->str[2]) ph = 0;
            }
        }
}

/* The batched schedule (see batched()): per chunk of nn images, B's side copied to ib
 * (row ch: nn * np pixels, image after image), the product into ob with alpha 1, beta 0,
 * then blended into y (forward) or scattered into dx. */
static void run_batched(const pdnn_conv_gemm_geom *g, pdnn_conv_dir dir,
                        const pdnn_conv_args *arg, const ldb_run *r, pdnn_conv_gemm_arena *ar,
                        float *ap, int nt)
{
    const pdnn_conv_geom3 *G = &g->geo;
    const bool fwd = dir == PDNN_CONV_FWD;
    const int64_t np = g->npix, mr = r->uk->mr, ci = batch_imgs(g);
    const int64_t cin = g->g * r->k, cout = g->g * r->m; /* channels of B's and C's side */
    float *ib = pdnn_conv_gemm_take(ar, pdnn_conv_gemm_mul3(ci, cin, np), g->es);
    float *ob = pdnn_conv_gemm_take(ar, pdnn_conv_gemm_mul3(ci, cout, np), g->es);
    const bool pack = !fwd && r->k > 0 && g->uk->mr == mr && g->n * cdiv(np, r->uk->nr) >= LDB_PACK_REUSE;
    const int64_t mp = cdiv(r->m, mr), agsz = mp * mr * r->k;
    ldb_run rp = *r;
    if (pack) rp.a = ap, rp.a_gs = agsz, rp.a_ps = mr * r->k, rp.a_rs = 1, rp.a_cs = mr;
    rp.alpha = 1.0f, rp.beta = 0.0f;
    const float alpha = r->alpha, beta = r->beta;
    const bool xcomp = pdnn_conv_1x1_ldb_x_compact(g); /* x's side gathered / scattered */
    const float *src = arg->src;
    float *dst = arg->dst;
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        if (pack) {
#pragma omp for schedule(static)
            for (int64_t i = 0; i < r->g * mp; i++) {
                const int64_t grp = i / mp, q = i % mp, rows = min64(mr, r->m - q * mr);
                pdnn_gemm_pack_a(g->uk, rows, r->k, r->a + grp * r->a_gs + q * mr * r->a_rs, r->a_rs,
                                 r->a_cs, ap + grp * agsz + q * mr * r->k);
            }
        }
        for (int64_t n0 = 0; n0 < g->n; n0 += ci) {
            const int64_t nn = min64(ci, g->n - n0), len = nn * np;
#pragma omp for schedule(static)
            for (int64_t i = 0; i < nn * cin; i++) {
                const int64_t img = n0 + i % nn, ch = i / nn;
                float *d = ib + ch * len + (i % nn) * np;
                if (fwd && xcomp) {
                    pdnn_conv_1x1_compact_row(g, true, src + img * G->xs[0] + ch * G->xs[1], NULL, d, 1.0f, 0.0f);
                } else { /* dy's row, or x's when its pixels are contiguous and all read */
                    const float *sr = fwd ? src + img * G->xs[0] + ch * G->xs[1] : src + img * G->ys[0] + ch * G->ys[1];
                    for (int64_t q = 0; q < np; q++) d[q] = sr[q];
                }
            }
            ldb_run rc = rp;
            rc.n = 1, rc.np = len;
            rc.b = ib, rc.b_ns = 0, rc.b_gs = r->k * len, rc.ldb = len;
            rc.c = ob, rc.c_ns = 0, rc.c_gs = r->m * len, rc.rs_c = len;
            rc.bpack = copy_rows(&rc);
            ldb_tiles(&rc, g->es, nt);
#pragma omp for schedule(static)
            for (int64_t t = 0; t < rc.ntasks; t++) ldb_task(&rc, t);
#pragma omp for schedule(static)
            for (int64_t i = 0; i < nn * cout; i++) {
                const int64_t img = n0 + i % nn, ch = i / nn;
                const float *o = ob + ch * len + (i % nn) * np;
                if (!fwd && xcomp) {
                    pdnn_conv_1x1_compact_row(g, false, NULL, dst + img * G->xs[0] + ch * G->xs[1], (float *)o, alpha,
                                beta);
                    continue;
                }
                /* y's row, or dx's when its pixels are contiguous and all read (the
                 * scatter's arithmetic, alpha * o + beta * dx, in one pass: ResNet-50
                 * res5b_branch2a backward data, minibatch 32, one thread: 29.9 -> 26.2 ms) */
                float *yr = fwd ? dst + img * G->ys[0] + ch * G->ys[1] : dst + img * G->xs[0] + ch * G->xs[1];
                for (int64_t q = 0; q < np; q++) {
                    float v = alpha * o[q];
                    if (beta != 0) {
                        const float u = beta * yr[q];
                        v = v + u;
                    }
                    yr[q] = v;
                }
            }
        }
    }
}

/* The ldb kernel for A of m x k: the GEMM's (6 x 64 on AVX-512), or 8 x 32 where that
 * sums at least 5% fewer rows (16 and 32 channels: 18 and 36 rows in 6-row panels), in
 * the forward and in backward data with a filter of at most LDB_SMALL_A bytes (W^T then
 * read in place, from L1: MobileNet-v2 b1_project, b2_expand), but not where the output
 * streams (ystream, c_streams: the 6 x 64 kernel's _nt_ form, with its empty rows,
 * measured 8-15% faster than an 8 x 32 one, b1_project mb32, 2 threads, Zen 4: 3.30-3.59
 * against 3.86-4.14 ms; 5.3 ms with plain stores); the same arithmetic per element, so
 * the choice changes no bit. */
static const pdnn_gemm_ldb_ukernel *ldb_kernel(int64_t m, int64_t k, bool fwd, bool ystream)
{
    static const pdnn_gemm_ldb_ukernel k8 = {"pdnn_f32_gemm_ldb_ukernel_8x32__avx512", 8, 32,
                                             pdnn_f32_gemm_ldb_ukernel_8x32__avx512};
    const pdnn_gemm_ldb_ukernel *uk = pdnn_gemm_ldb_ukernel_select_f32();
    if ((fwd || (double)m * (double)k * sizeof(float) <= LDB_SMALL_A) && !ystream &&
        uk->f32 == pdnn_f32_gemm_ldb_ukernel_6x64__avx512 &&
        cdiv(m, k8.mr) * k8.mr * 20 <= cdiv(m, uk->mr) * uk->mr * 19)
        return &k8;
    return uk;
}

bool pdnn_conv_1x1_ldb_b_copied(const pdnn_conv_gemm_geom *g, pdnn_conv_dir dir)
{
    const pdnn_conv_geom3 *G = &g->geo;
    const int64_t np = g->npix;
    const bool fwd = dir == PDNN_CONV_FWD;
    ldb_run r = {.uk = ldb_kernel(G->kg, G->cg, fwd, c_streams(g, dir)), .np = np, .b = NULL};
    r.cpk = copy_kernel(r.uk, dir, pdnn_conv_1x1_ldb_a_blocked(g, dir), G->kg);
    if (pdnn_conv_1x1_ldb_batched(g, dir)) {
        r.np = r.ldb = batch_imgs(g) * np, r.b_ns = 0, r.b_gs = G->cg * r.ldb;
    } else if (pdnn_conv_1x1_ldb_x_compact(g)) {
        r.ldb = np, r.b_ns = g->g * G->cg * np, r.b_gs = G->cg * np;
    } else {
        r.ldb = G->xs[1], r.b_ns = G->xs[0], r.b_gs = G->cg * G->xs[1];
    }
    return copy_rows(&r);
}

void pdnn_conv_1x1_ldb_run(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                           pdnn_conv_dir dir, const pdnn_conv_args *arg, void *ws, int nt)
{
    const pdnn_conv_geom3 *G = &g->geo;
    const int64_t cg = G->cg, kg = G->kg, ws0 = p->ws[0], ws1 = p->ws[1], np = g->npix;
    const bool fwd = dir == PDNN_CONV_FWD, compact = pdnn_conv_1x1_ldb_x_compact(g);
    ldb_run r = {
        .uk = ldb_kernel(fwd ? kg : cg, fwd ? cg : kg, fwd, c_streams(g, dir)), .np = np,
        .g = g->g, .n = g->n,
        .a = arg->wei, .a_gs = kg * ws0,
        .alpha = (float)arg->alpha, .beta = (float)arg->beta,
    };
    const int64_t mr = r.uk->mr;
    /* x's side: x itself, or the compact chunk (images cgt * np apart) */
    const int64_t cgt = g->g * cg;
    const int64_t x_ns = compact ? cgt * np : G->xs[0], x_cs = compact ? np : G->xs[1];
    if (fwd) { /* A = W (rows k), B = x, C = y */
        r.m = kg, r.k = cg, r.a_rs = ws0, r.a_cs = ws1;
        r.b = arg->src, r.b_ns = x_ns, r.b_gs = cg * x_cs, r.ldb = x_cs;
        r.c = arg->dst, r.c_ns = G->ys[0], r.c_gs = kg * G->ys[1], r.rs_c = G->ys[1];
    } else { /* A = W^T (rows c), B = dy, C = dx */
        r.m = cg, r.k = kg, r.a_rs = ws1, r.a_cs = ws0;
        r.b = arg->src, r.b_ns = G->ys[0], r.b_gs = kg * G->ys[1], r.ldb = G->ys[1];
        r.c = arg->dst, r.c_ns = x_ns, r.c_gs = cg * x_cs, r.rs_c = x_cs;
    }
    r.a_ps = mr * r.a_rs;
    /* the sums' channel block, from the operands' sizes a task item (one image, or a
     * batched chunk) has: A's rows m against B's pixels */
    const int64_t bpix = pdnn_conv_1x1_ldb_batched(g, dir) ? batch_imgs(g) * np : np;
    r.ablk = pdnn_conv_1x1_ldb_a_blocked(g, dir);
    r.awide = r.m > bpix && !r.ablk;
    r.kc = r.awide ? LDB_KC : LDB_TASK_KC;
    /* an output that streams (c_streams) takes its sum in one block of up to LDB_KC
     * channels (B's block then in L2, not L1) rather than two blocks that write it,
     * read it back and write it again: ResNet-50 mb32 2 threads, res3a_branch1 (256
     * channels, 51 MB of y) 48.6 -> 39.3 ms, res3a_branch2a 35.6 -> 33.7 ms */
    if (r.kc < r.k && r.k <= LDB_KC && c_streams(g, dir)) r.kc = LDB_KC;
    r.cpk = copy_kernel(r.uk, dir, r.ablk, r.m);
    if (r.m == 0 || r.n == 0 || np == 0) return;
    pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ws);
    /* backward data: W^T's rows are far apart and its columns a filter row apart, so it
     * is packed into MR-row panels (contiguous reads) when reused enough */
    float *ap = fwd ? NULL : pdnn_conv_gemm_take(&ar, pdnn_conv_gemm_mul3(g->g, pdnn_gemm_packed_a_elems(g->uk, cg, kg), 1), g->es);
    if (pdnn_conv_1x1_ldb_batched(g, dir)) {
        run_batched(g, dir, arg, &r, &ar, ap, nt);
        return;
    }
    float *buf = compact ? pdnn_conv_gemm_take(&ar, pdnn_conv_gemm_mul3(chunk_imgs(g), cgt, np), g->es) : NULL;
    const bool pack = !fwd && r.k > 0 && g->uk->mr == mr && r.n * cdiv(np, r.uk->nr) >= LDB_PACK_REUSE;
    const int64_t mp = cdiv(r.m, mr), agsz = mp * mr * r.k, ci = compact ? chunk_imgs(g) : g->n;
    ldb_run rp = r;
    /* with a tail of 1-4 pixels past whole vectors (7 x 7, 14 x 14) and W's channels
     * contiguous, W^T is transposed into whole rows instead (A's rows contiguous, as the
     * forward's W), so that the GEMV kernel sums the tail, not a vector of mostly empty
     * lanes */
    const int64_t tl = np % LDB_VEC;
    const bool rows_t = pack && r.a_rs == 1 && tl > 0 && tl <= LDB_TAIL_MAX;
    if (pack) rp.a = ap, rp.a_gs = agsz, rp.a_ps = mr * r.k, rp.a_rs = 1, rp.a_cs = mr;
    if (rows_t) rp.a_ps = mr * r.k, rp.a_rs = r.k, rp.a_cs = 1;
    if (compact && !fwd) rp.alpha = 1.0f, rp.beta = 0.0f; /* blended by the scatter */
    const float *xsrc = fwd ? arg->src : NULL;
    float *xdst = fwd ? NULL : arg->dst;
    const pdnn_f32_transpose_fn tr = rows_t ? pdnn_f32_transpose_select() : NULL;
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        if (rows_t) { /* row c of W^T: W's column c (T_ROWS columns a transpose) */
            const int64_t tb = cdiv(r.m, T_ROWS);
#pragma omp for schedule(static)
            for (int64_t i = 0; i < r.g * tb; i++) {
                const int64_t grp = i / tb, c0 = (i % tb) * T_ROWS;
                tr((size_t)r.k, (size_t)min64(T_ROWS, r.m - c0), r.a + grp * r.a_gs + c0, r.a_cs,
                   ap + grp * agsz + c0 * r.k, r.k);
            }
        } else if (pack) {
#pragma omp for schedule(static)
            for (int64_t i = 0; i < r.g * mp; i++) {
                const int64_t grp = i / mp, q = i % mp, rows = min64(mr, r.m - q * mr);
                pdnn_gemm_pack_a(g->uk, rows, r.k, r.a + grp * r.a_gs + q * mr * r.a_rs, r.a_rs,
                                 r.a_cs, ap + grp * agsz + q * mr * r.k);
            }
        }
        for (int64_t n0 = 0; n0 < g->n; n0 += ci) {
            ldb_run rc = rp;
            rc.n = min64(ci, g->n - n0);
            if (fwd) {
                rc.b = compact ? buf : rc.b + n0 * rc.b_ns;
                rc.c += n0 * rc.c_ns;
            } else {
                rc.b += n0 * rc.b_ns;
                rc.c = compact ? buf : rc.c + n0 * rc.c_ns;
            }
            if (compact && fwd) {
#pragma omp for schedule(static)
                for (int64_t i = 0; i < rc.n * cgt; i++)
                    pdnn_conv_1x1_compact_row(g, true, xsrc + (n0 + i / cgt) * G->xs[0] + (i % cgt) * G->xs[1], NULL,
                                buf + i * np, 1.0f, 0.0f);
            }
            rc.bpack = copy_rows(&rc);
            ldb_tiles(&rc, g->es, nt);
            rc.stream = (fwd || !compact) && ldb_stream(&rc, g);
#pragma omp for schedule(static)
            for (int64_t t = 0; t < rc.ntasks; t++) ldb_task(&rc, t);
            if (rc.stream) atomic_thread_fence(memory_order_seq_cst); /* the streamed lines */
            if (compact && !fwd) {
#pragma omp for schedule(static)
                for (int64_t i = 0; i < rc.n * cgt; i++)
                    pdnn_conv_1x1_compact_row(g, false, NULL, xdst + (n0 + i / cgt) * G->xs[0] + (i % cgt) * G->xs[1],
                                buf + i * np, r.alpha, r.beta);
            }
        }
    }
}

/* ---- backward filter, channels contiguous and columns evenly spaced (channels-last
 * packed, fully connected layers):
 *   dW[Kg x Cg] = alpha * sum_cols dY^T[Kg x cols] X[cols x Cg] + beta * dW
 * B = x read in place (row = column (n, p), ldb = its step), A = dY^T packed per task
 * into MR-row panels of one column block at a time, C = dW itself (the first block
 * blends with beta, later ones add): no buffer, no final pass. */

/* Rows of dW a backward-filter task covers at most (its A block on the stack). */
#define LDB_BWDF_ROWS 48

/* Columns (n, p) -> offset col * step in t (strides st of the output dims, image stride
 * s0)? */
static bool cols_uniform(const pdnn_conv_gemm_geom *g, const int64_t st[3], int64_t s0,
                         int64_t *step)
{
    if (!pdnn_conv_1x1_pixel_step(&g->geo, st, step)) return false;
    if (g->npix == 1) *step = s0; /* one pixel per image: the image stride */
    return g->n == 1 || s0 == g->npix * *step;
}

bool pdnn_conv_1x1_ldb_bwdf_applies(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g)
{
    const pdnn_conv_geom3 *G = &g->geo;
    if (g->t != PDNN_DATA_FLOAT || G->xs[1] != 1 || G->ys[1] != 1 || p->ws[1] != 1) return false;
    int64_t xst[3], yst[3], sx, sy;
    for (int d = 0; d < 3; d++) {
        xst[d] = G->str[d] * G->xs[2 + d];
        yst[d] = G->ys[2 + d];
    }
    /* (x rows a multiple of 1 KiB apart would share few L1 sets: the packed path) */
    return cols_uniform(g, xst, G->xs[0], &sx) && cols_uniform(g, yst, G->ys[0], &sy) &&
           sx >= G->cg * g->g && sy >= G->kg * g->g && sx % 256 != 0;
}

#define PACK_AT(kk0, kc, rows, src, cs, dst)                                             \
    do {                                                                                 \
        for (int64_t kk = 0; kk < (kc); kk++) {                                          \
            const float *s_ = (src) + (kk0 + kk) * (cs);                                 \
            for (int64_t q_ = 0; q_ * mr < (rows); q_++) {                               \
                float *d_ = (dst) + q_ * mr * (kc) + kk * mr;                            \
                const int64_t n_ = min64(mr, (rows) - q_ * mr);                          \
                int64_t i_ = 0;                                                          \
                for (; i_ < n_; i_++) d_[i_] = s_[q_ * mr + i_];                         \
                for (; i_ < mr; i_++) d_[i_] = 0;                                        \
            }                                                                            \
        }                                                                                \
    } while (0)

void pdnn_conv_1x1_ldb_bwdf_run(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                                const pdnn_conv_args *arg, int nt)
{
    const pdnn_conv_geom3 *G = &g->geo;
    const pdnn_gemm_ldb_ukernel *uk = pdnn_gemm_ldb_ukernel_select_f32();
    const int64_t mr = uk->mr, nr = uk->nr, kg = G->kg, cg = G->cg, ws0 = p->ws[0];
    const int64_t ncols = g->ncols, np = cdiv(cg, nr);
    int64_t xst[3], yst[3], sx, sy;
    for (int d = 0; d < 3; d++) {
        xst[d] = G->str[d] * G->xs[2 + d];
        yst[d] = G->ys[2 + d];
    }
    cols_uniform(g, xst, G->xs[0], &sx);
    cols_uniform(g, yst, G->ys[0], &sy);
    const float *x = arg->src, *dy = arg->wei; /* bwd filter: wei holds dy */
    float *dw = arg->dst;
    const float alpha = (float)arg->alpha, beta = (float)arg->beta;
    if (ncols == 1 && pdnn_cpu_isa() >= PDNN_ISA_AVX512) {
        /* one column in all (a fully connected layer at batch 1): dW = dy x^T row by row,
         * each row one run of stores (the bits of the tiles below at a sum of one step);
         * tasks: (group, block of rows) */
        const int64_t rb = nt > 1 ? cdiv(kg, 4 * (int64_t)nt) : kg, nrb = cdiv(kg, rb);
        PDNN_PAR_FOR(nt, t, g->g * nrb, {
            const int64_t grp = t / nrb, i0 = t % nrb * rb, i1 = min64(kg, i0 + rb);
            pdnn_f32_outer_ukernel__avx512((size_t)(i1 - i0), (size_t)cg, dy + grp * kg + i0, 1,
                                           x + grp * cg, dw + (grp * kg + i0) * ws0, ws0, alpha,
                                           beta);
        });
        return;
    }
    /* tasks: (group, row block, panel block) */
    const int64_t want = nt > 1 ? 4 * (int64_t)nt : 1;
    int64_t mbr = min64(cdiv(kg, mr) * mr, LDB_BWDF_ROWS), pbp = np, mb, pb, ntasks;
    for (;;) {
        mb = cdiv(kg, mbr);
        pb = cdiv(np, pbp);
        ntasks = g->g * mb * pb;
        if (ntasks >= want) break;
        if (pbp > 1 && pbp * nr >= mbr)
            pbp = cdiv(pbp, 2);
        else if (mbr > mr)
            mbr = cdiv(cdiv(mbr, 2), mr) * mr;
        else if (pbp > 1)
            pbp = cdiv(pbp, 2);
        else
            break;
    }
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t t = 0; t < ntasks; t++) {
        const int64_t per = mb * pb, grp = t / per, r = t % per;
        const int64_t i0 = (r / pb) * mbr, i1 = min64(kg, i0 + mbr), rows = i1 - i0;
        const int64_t q0 = (r % pb) * pbp, q1 = min64(np, q0 + pbp);
        _Alignas(64) float apan[LDB_BWDF_ROWS * LDB_KC];
        const float *ysrc = dy + grp * kg + i0;
        const float *xg = x + grp * cg;
        float *cgp = dw + (grp * kg + i0) * ws0;
        int64_t pc = 0;
        do {
            const int64_t kc = min64(LDB_KC, ncols - pc);
            const float beff = pc == 0 ? beta : 1.0f;
            if (kc > 0) PACK_AT(pc, kc, rows, ysrc, sy, apan);
            for (int64_t q = q0; q < q1; q++) {
                const int64_t nn = min64(nr, cg - q * nr);
                const float *b = xg + pc * sx + q * nr;
                for (int64_t i = 0; i < rows; i += mr)
                    uk->f32((size_t)min64(mr, rows - i), (size_t)nn, (size_t)kc, apan + i * kc, 1,
                            mr, b, sx, cgp + i * ws0 + q * nr, ws0, alpha, beff,
                            i == 0 && q + 1 < q1 ? b + nr : NULL, (size_t)kc);
            }
            pc += kc;
        } while (pc < ncols);
    }
}

/* ---- few columns, channels contiguous (fully connected layers at small batch) */

bool pdnn_conv_1x1_gemv_applies(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g)
{
    return g->t == PDNN_DATA_FLOAT && pdnn_conv_1x1_pixel_major(g) && p->ws[1] == 1 &&
           g->ncols <= PDNN_CONV_1X1_GEMV_COLS;
}

bool pdnn_conv_1x1_gemv_fwd_applies(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g)
{
    return g->t == PDNN_DATA_FLOAT && pdnn_conv_1x1_pixel_major(g) && p->ws[1] == 1 &&
           (g->ncols <= PDNN_CONV_1X1_GEMV_COLS || g->geo.kg <= PDNN_CONV_1X1_GEMV_FWD_KG);
}

/* Column offsets in x and y of the (at most PDNN_CONV_1X1_GEMV_COLS) columns. */
static void few_cols(const pdnn_conv_gemm_geom *g, int64_t *xo, int64_t *yo)
{
    pdnn_conv_pe_cols c;
    pdnn_conv_pe_cols_at(g, 0, g->ncols, &c);
    for (int64_t j = 0; j < g->ncols; j++) {
        xo[j] = c.xo[j];
        yo[j] = c.yo[j];
    }
}

void pdnn_conv_1x1_gemv_fwd_run(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                                const pdnn_conv_args *arg, int nt)
{
    const pdnn_gemv_ukernel *uk = pdnn_gemv_ukernel_select_f32();
    const int64_t mr = uk->mr, kg = g->geo.kg, cg = g->geo.cg, ws0 = p->ws[0];
    const float *x = arg->src, *w = arg->wei;
    float *y = arg->dst;
    const float alpha = (float)arg->alpha, beta = (float)arg->beta;
    /* row blocks: one per thread and group at least, whole MR panels; columns by blocks
     * of at most PDNN_GEMM_NR_MAX */
    const int64_t nb = nt > 1 ? 4 * (int64_t)nt : 1;
    const int64_t rows = max64(mr, cdiv(cdiv(kg, nb), mr) * mr), mb = cdiv(kg, rows);
    const int64_t cb = cdiv(g->ncols, PDNN_GEMM_NR_MAX);
    PDNN_PAR_FOR(nt, t, g->g * mb * cb, {
        const int64_t grp = t / (mb * cb), ib = t / cb % mb, j0 = t % cb * PDNN_GEMM_NR_MAX;
        const int64_t i0 = ib * rows, i1 = min64(kg, i0 + rows);
        pdnn_conv_pe_cols c;
        pdnn_conv_pe_cols_at(g, j0, min64(PDNN_GEMM_NR_MAX, g->ncols - j0), &c);
        for (int64_t j = 0; j < c.n; j++)
            for (int64_t i = i0; i < i1; i += mr)
                uk->f32((size_t)min64(mr, i1 - i), (size_t)cg, w + (grp * kg + i) * ws0, ws0,
                        x + c.xo[j] + grp * cg, y + c.yo[j] + grp * kg + i, 1, alpha, beta);
    });
}

void pdnn_conv_1x1_gemv_bwdd_run(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                                 const pdnn_conv_args *arg, int nt)
{
    const pdnn_gemm_ldb_ukernel *uk = pdnn_gemm_ldb_ukernel_select_f32();
    const int64_t nr = uk->nr, kg = g->geo.kg, cg = g->geo.cg, ws0 = p->ws[0];
    int64_t xo[PDNN_CONV_1X1_GEMV_COLS], yo[PDNN_CONV_1X1_GEMV_COLS];
    few_cols(g, xo, yo);
    const float *dy = arg->src, *w = arg->wei;
    float *dx = arg->dst;
    const float alpha = (float)arg->alpha, beta = (float)arg->beta;
    const int64_t np = cdiv(cg, nr);
    /* dX(col, c) = sum_k dY(col, k) W[k][c]: one row per column, W's rows in place */
    PDNN_PAR_FOR(nt, t, g->g * np, {
        const int64_t grp = t / np, q = t % np, nn = min64(nr, cg - q * nr);
        for (int64_t j = 0; j < g->ncols; j++) {
            int64_t pc = 0;
            do {
                const int64_t kc = min64(LDB_KC, kg - pc);
                uk->f32(1, (size_t)nn, (size_t)kc, dy + yo[j] + grp * kg + pc, 0, 1,
                        w + (grp * kg + pc) * ws0 + q * nr, ws0, dx + xo[j] + grp * cg + q * nr, 0,
                        alpha, pc == 0 ? beta : 1.0f, NULL, 0);
                pc += kc;
            } while (pc < kg);
        }
    });
}
