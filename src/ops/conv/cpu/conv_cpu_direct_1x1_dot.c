/* Backward filter of NCHW-like 1x1 convolutions with a small filter, by dot products
 * along the pixels (part of "cpu:direct_1x1", conv_cpu_direct_1x1_bwd_filter.c):
 *   dW[k][c] = alpha * sum_n sum_p dy[n][k][p] * x[n][c][p] + beta * dW[k][c]
 * dy's and x's channel rows are read in place, contiguous along the pixels; the 6 x 4
 * dot-tile kernel (cpu/ukernels/conv1x1/conv1x1_ukernels.h) keeps 16 lane sums per filter
 * element in registers, the lanes cut at fixed places from each image's first pixel.
 *
 * Where dy and x fit in half of L2 (one image of 28 x 28 with 224 channels) each tile
 * runs every image and pixel in one call and writes its dW elements once, the lanes
 * added in the kernel's fixed tree: no workspace. Larger sums split the images' pixels,
 * in order, into 1 or DOT_PARTS parts fixed by the problem (dot_parts; a part's bounds
 * multiples of 16 pixels within an image), each run as blocks of DOT_KC pixels, tile by
 * tile within a block (the block's rows stay in cache), its lanes kept per tile in the
 * workspace between blocks and summed in the kernel's fixed tree after the part's last
 * block (a tile of MR x NR sums a part); at the end each tile's parts' sums are added
 * in part order into dW (the parts' lanes were once added lane by lane first: a pass
 * over parts x 1.5 KiB a tile, 12% of MobileNet-v2's b5_project at one thread, against
 * 96 bytes a tile now). Threads take the parts
 * first (each reads its share of dy and x), then runs of tiles within a part (whole tile
 * rows where there are enough); nothing depends on the thread count; exact on small
 * integers. Without the parts, MobileNet-v2's b1_project (16 x 32 filter) at minibatch 1
 * ran 1.37x faster on two threads than on one (oneDNN 2.2x): both threads read all of x.
 * Against the GEMM form it needs no transposed copy of either operand, which dominates
 * when one side has few channels. */
#include "ops/conv/cpu/conv_cpu_direct_1x1.h"

#include <string.h>

#include "core/par.h"
#include "cpu/cache.h"
#include "cpu/ukernels/conv1x1/conv1x1_ukernels.h"

/* Pixels per kernel call (a multiple of PDNN_DOT_LANES): long calls amortize the lane
 * sums' loads and stores (measured: 1024 ahead of 256 and 4096). */
#define DOT_KC 1024
/* Largest filter (elements, all groups) served: the lane sums take 64 bytes each, and
 * from 64 x 256 on the GEMM form is faster (ResNet-50 res2b_branch2a minibatch 32, one
 * thread: 35.8 -> 29.3 ms; 64 x 64 and 32 x 192 stay faster here: 7.2 against 8.5,
 * 2.6 against 3.2). */
#define DOT_MAX_ELEMS (8 * 1024)
/* Most channels on the smaller side: above it the GEMM form's copies are amortized.
 * Fewest pixels per image: with short rows the GEMM form is faster (14 x 14: 2x). */
#define DOT_MIN_PIX 512
#define DOT_MAX_SMALL 64

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

bool pdnn_conv_1x1_dot_applies(const pdnn_conv_gemm_geom *g)
{
    const pdnn_conv_geom3 *G = &g->geo;
    if (g->t != PDNN_DATA_FLOAT || pdnn_cpu_isa() < PDNN_ISA_AVX512) return false;
    if (g->npix < DOT_MIN_PIX || G->kg == 0 || G->cg == 0) return false;
    if (g->g * G->kg * G->cg > DOT_MAX_ELEMS || min64(G->kg, G->cg) > DOT_MAX_SMALL) return false;
    int64_t xst[3], yst[3], sx, sy;
    for (int d = 0; d < 3; d++) {
        xst[d] = G->str[d] * G->xs[2 + d];
        yst[d] = G->ys[2 + d];
    }
    return pdnn_conv_1x1_pixel_step(G, xst, &sx) && sx == 1 &&
           pdnn_conv_1x1_pixel_step(G, yst, &sy) && sy == 1;
}

#define MR PDNN_DOTR_MR
#define NR PDNN_DOTR_NR
/* floats of lane sums per tile */
#define SLOT (MR * NR * PDNN_DOTR_LANES)

/* One pass over dy and x per tile (lanes in registers): both fit in half of L2. */
static bool dot_one_pass(const pdnn_conv_gemm_geom *g)
{
    const size_t bytes = (size_t)(g->n * g->npix) * (size_t)(g->g * (g->geo.kg + g->geo.cg)) * sizeof(float);
    return bytes <= pdnn_cpu_cache_sizes()->l2 / 2;
}

/* Parts of the sum beyond one pass: DOT_PARTS where the threads' runs of tile rows (K
 * rows) would each read most of the operands (at least twice as many input channels as
 * output channels, or under 4 tile rows), else 1. Fixed by the problem: the bits do not
 * depend on the thread count. (ResNet-50's res2a_branch2a, 64 x 64, ran 5-10% slower
 * with two.) */
#define DOT_PARTS 2

static int64_t dot_parts(const pdnn_conv_gemm_geom *g)
{
    if (dot_one_pass(g)) return 1;
    const int64_t kg = g->geo.kg;
    return 2 * kg <= g->geo.cg || g->g * cdiv(kg, MR) < 4 ? DOT_PARTS : 1;
}

/* Beyond one pass: per part and tile, its lanes between blocks (SLOT floats) and its
 * sums after the last block (MR x NR). */
size_t pdnn_conv_1x1_dot_workspace(const pdnn_conv_gemm_geom *g)
{
    if (dot_one_pass(g)) return 0;
    const int64_t tiles = g->g * cdiv(g->geo.kg, MR) * cdiv(g->geo.cg, NR);
    return (size_t)(dot_parts(g) * tiles) * (SLOT + MR * NR) * sizeof(float) + 64;
}

/* Where part pt of parts starts: image *n, pixel *q (a multiple of 16; pt == parts: the
 * end, image n). The parts split the images' pixels, in order, into equal runs. */
static void part_start(const pdnn_conv_gemm_geom *g, int64_t pt, int64_t parts, int64_t *n,
                       int64_t *q)
{
    const int64_t f = g->n * g->npix * pt / parts;
    *n = f / g->npix;
    *q = f % g->npix / PDNN_DOTR_LANES * PDNN_DOTR_LANES;
}

/* Tile u: its group, first output and input channel, rows and columns. */
typedef struct {
    int64_t grp, k0, c0, mm, nn;
} dot_tile;

static dot_tile tile_at(const pdnn_conv_gemm_geom *g, int64_t u)
{
    const int64_t kg = g->geo.kg, cg = g->geo.cg, mt = cdiv(kg, MR), ct = cdiv(cg, NR);
    dot_tile t;
    t.grp = u / (mt * ct);
    t.k0 = (u / ct) % mt * MR;
    t.c0 = u % ct * NR;
    t.mm = min64(MR, kg - t.k0);
    t.nn = min64(NR, cg - t.c0);
    return t;
}

/* Tile u's sums (MR x NR, rows NR apart; nparts of them, pstride floats apart, added in
 * part order) written to dW: alpha * s + beta * dW (dW unread when beta == 0). */
static void tile_put(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g, int64_t u,
                     const float *s0, int64_t nparts, int64_t pstride, float *dw, float alpha,
                     float beta)
{
    const dot_tile t = tile_at(g, u);
    const int64_t kg = g->geo.kg, ws0 = p->ws[0], ws1 = p->ws[1];
    for (int64_t i = 0; i < t.mm; i++)
        for (int64_t j = 0; j < t.nn; j++) {
            float s = s0[i * NR + j];
            for (int64_t pt = 1; pt < nparts; pt++) s += s0[pt * pstride + i * NR + j];
            float *e = dw + (t.grp * kg + t.k0 + i) * ws0 + (t.c0 + j) * ws1;
            float v = alpha * s;
            if (beta != 0) {
                const float w = beta * *e;
                v = v + w;
            }
            *e = v;
        }
}

/* Tile u's lanes summed and written to dW (one pass into a dW with strided columns). */
static void dot_put(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g, int64_t u,
                    float *lanes, float *dw, float alpha, float beta)
{
    const dot_tile t = tile_at(g, u);
    float tile[MR * NR];
    /* no step (kc 0): a and b are not read */
    static const float none[1] = {0.0f};
    pdnn_f32_dotr_ukernel_6x4__avx512((size_t)t.mm, (size_t)t.nn, 1, 0, none, 0, 0, none, 0, 0,
                                      lanes, PDNN_DOTR_LOAD, tile, NR, 1.0f, 0.0f);
    tile_put(p, g, u, tile, 1, 0, dw, alpha, beta);
}

void pdnn_conv_1x1_dot_run(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                           const pdnn_conv_args *arg, void *ws, int nt)
{
    const pdnn_conv_geom3 *G = &g->geo;
    const int64_t kg = G->kg, cg = G->cg, ws0 = p->ws[0], np = g->npix;
    const int64_t mt = cdiv(kg, MR), ct = cdiv(cg, NR), tiles = g->g * mt * ct;
    const bool one = dot_one_pass(g);
    const int64_t parts = dot_parts(g);
    float *part = one ? NULL : (float *)(((uintptr_t)ws + 63) & ~(uintptr_t)63);
    float *sums = one ? NULL : part + parts * tiles * SLOT; /* per part and tile, MR x NR */
    const float *x = arg->src, *dy = arg->wei;
    float *dw = arg->dst;
    const float alpha = (float)arg->alpha, beta = (float)arg->beta;
    const pdnn_f32_dotr_ukernel_fn uk = pdnn_f32_dotr_ukernel_6x4__avx512;
    /* the parts first, then runs of whole tile rows per task where each gets two or more */
    const int64_t rows = g->g * mt;
    const int64_t per = min64(tiles, nt > parts ? (nt + parts - 1) / parts : 1);
    PDNN_PAR_FOR(nt, t, parts * per, {
        const int64_t pt = t / per, q = t % per;
        int64_t t0 = tiles * q / per, t1 = tiles * (q + 1) / per;
        if (rows >= 2 * per) {
            t0 = rows * q / per * ct;
            t1 = rows * (q + 1) / per * ct;
        }
        int64_t n = 0, p0 = 0, ne = 0, pe = 0;
        if (!one) {
            part_start(g, pt, parts, &n, &p0);
            part_start(g, pt + 1, parts, &ne, &pe);
        }
        /* one pass: every image and pixel in one call a tile; else the part's blocks of
         * DOT_KC pixels (each image's from the part's first pixel in it; a part of no
         * pixel, which 512 pixels an image rule out, adds zeros) */
        if (!one && !(n < ne || (n == ne && p0 < pe)))
            memset(sums + (pt * tiles + t0) * MR * NR, 0,
                   (size_t)((t1 - t0) * MR * NR) * sizeof(float));
        for (bool first = true; one ? first : n < ne || (n == ne && p0 < pe); first = false) {
            const int64_t end = one ? np : n < ne ? np : pe;
            const int64_t kc = one ? np : min64(DOT_KC, end - p0);
            /* where the next block starts; a part's last block sums its lanes into the
             * part's tile of sums (the kernel's tree), the others keep them in the part's
             * slot */
            int64_t n2 = n, p2 = p0 + kc;
            if (p2 == np) {
                n2++;
                p2 = 0;
            }
            const bool last = one || !(n2 < ne || (n2 == ne && p2 < pe));
            const int mode =
                one ? 0 : (first ? 0 : PDNN_DOTR_LOAD) | (last ? 0 : PDNN_DOTR_STORE);
            for (int64_t u = t0; u < t1; u++) {
                const dot_tile tt = tile_at(g, u);
                const int64_t grp = tt.grp, k0 = tt.k0, c0 = tt.c0, mm = tt.mm, nn = tt.nn;
                /* one pass into a dW with strided columns: the lanes, then dot_put */
                float lanes[SLOT];
                const bool put = one && p->ws[1] != 1;
                float *c = one ? dw + (grp * kg + k0) * ws0 + c0
                               : sums + (pt * tiles + u) * MR * NR;
                uk((size_t)mm, (size_t)nn, one ? (size_t)g->n : 1, (size_t)kc,
                   dy + n * G->ys[0] + (grp * kg + k0) * G->ys[1] + p0, G->ys[1], G->ys[0],
                   x + n * G->xs[0] + (grp * cg + c0) * G->xs[1] + p0, G->xs[1], G->xs[0],
                   one ? lanes : part + (pt * tiles + u) * SLOT, put ? PDNN_DOTR_STORE : mode,
                   c, one ? ws0 : NR, one ? alpha : 1.0f, one ? beta : 0.0f);
                if (put) dot_put(p, g, u, lanes, dw, alpha, beta);
            }
            n = n2; /* the next block (one pass: the loop ends) */
            p0 = p2;
        }
    });
    if (one) return;
    /* each tile's parts' sums added in part order into dW */
    const int ntp = tiles >= 2 * nt ? nt : 1;
    PDNN_PAR_FOR(ntp, u, tiles, {
        tile_put(p, g, u, sums + u * MR * NR, parts, tiles * MR * NR, dw, alpha, beta);
    });
}
