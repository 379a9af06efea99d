/* Direct forward convolution with the output channels along the vector lanes
 * ("cpu:direct_kvec": forward PDNN_CONVOLUTION_FWD_ALGO_DIRECT; backward data
 * PDNN_CONVOLUTION_BWD_DATA_ALGO_0, at stride 1 through its forward form, otherwise (a
 * stride above 1, or padding beyond the filter's reach) in transposed mode: dx's channels
 * along the lanes, each dx row's column phases a run of tiles whose pixels are the stride
 * apart in dx and read consecutive dy columns, any strides; see tm_form and the end of
 * this file).
 *
 * The problems: FLOAT, AVX-512, one group, at least KVEC_K_MIN output channels, 1-d or
 * 2-d, column stride 1 or 2 (any row stride), any dilation and
 * padding, at most KVEC_TAPS_MAX filter taps a channel, packed KCRS or KRSC filters,
 * convolution or cross-correlation, y planes stored flat (unit column stride, rows one
 * after the other: NCHW-like; channel and image strides any), x any strides. The 3 x 3
 * stride-2 layers of ResNet-50 (res3a/res4a/res5a_branch2b: 128-512 channels on 28 x 28
 * to 7 x 7 outputs), where im2col + GEMM first gathers every column of x at stride 2
 * (2.25 x x's size a call) and the GEMM kernels then run 140-165 GFLOP/s a core, and
 * ResNet-50's 7 x 7 stride-2 3 -> 64 stem (147 taps: beyond cpu:direct_fewc's 64; on
 * GEMM, B read in place from the padded grid by unaligned loads, ~150). At column
 * stride 1 (the same tiles, pixels one column apart) it is a DIRECT forward for the
 * stride-1 layers, which the cost model leaves to Winograd and GEMM (2 threads, Intel
 * AVX-512: LeNet's conv2 at minibatch 1 71 us against Winograd's 79, one thread 133
 * against 95; ResNet-50's stride-1 3 x 3 layers 1.1-2.6x slower than Winograd or GEMM
 * at minibatch 1 and 32), and pdnnFindConvolutionForwardAlgorithm times; but on 7 x 7
 * outputs at minibatch 1 (ResNet-50's res5b_branch2b, forward and backward data), where
 * GEMM's 64-column panels hold 49 columns and a fifth of the products read the padding,
 * the model ranks it first.
 *
 * Here x is not gathered: each image is copied once, zero-padded, into planes of every
 * row and column an output reaches (row i of a plane is x's row i - pad_top, column j
 * x's column j - pad_left), and the micro-kernel (cpu/ukernels/kvec) keeps a tile of up
 * to 14 consecutive output pixels of one row x 32 output channels (or 7 x 64 where rows
 * of 7 pixels would leave half of the wider tile empty) in registers: per tap, two
 * (four) vectors of the transposed filter and one broadcast padded-x value a pixel, the
 * column stride apart (as oneDNN's direct kernels on its blocked layouts, Georganas et al.,
 * SC18). The filter is packed once a call, transposed into blocks of 16 nv output
 * channels: wt[((b C + c) taps + j) 16 nv + l] = w of output channel 16 nv b + l, input
 * channel c, tap j (0 past K); with one image in one band a block (every block of the
 * filter used by one item) each item packs its chunks itself as it goes, into a buffer
 * on its stack that stays in L1 (in transposed mode, up to KVEC_TM_SCALE times larger,
 * in L2) (no pass writing the whole filter and reading it back: 9.4 MiB on
 * res5b_branch2b).
 *
 * Items: (image, block of 16 nv output channels, band of output rows). An item sums
 * over the input channels in chunks of cb (its filter chunk, ~18 KiB, stays in L1
 * while the band's tiles run through it), the running sums of the band's pixels in a
 * pixel-major scratch slot, which at the end is transposed into y's planes with alpha
 * and beta (kvec_store; by non-temporal stores where y is larger than
 * PDNN_CONV_STREAM_BYTES and beta == 0). Each tile leaves out the products that read
 * the padding where its tap classes tell them (a filter row outside x for the tile's
 * output row; a filter column outside x for the tile's first or last pixel, or for all
 * its pixels: every padding product of 3 x 3 layers with 1 pixel of padding); any other
 * adds w * 0, as im2col's zeros do in the GEMM paths (an Inf or NaN weight then also
 * reaches those border outputs; the reference skips them).
 *
 * Sums: every output is, per chunk of KVEC_CB input channels, one chain of fused
 * multiply-adds over the channels (outer) and the taps in filter order (inner; those
 * left out skipped), continued from the previous chunk's value (chunks fixed by the
 * problem alone), so results do not depend on the thread count or the bands; exact on
 * small integers.
 *
 * Threads split the filter's packing by channel block, each chunk's padded copy by
 * rows and its items, one scratch slot a thread (at most KVEC_SLOTS_MAX threads).
 *
 * Workspace: the packed filter (K rounded up to 16 nv, x C x taps floats; none when the
 * items pack it), the padded planes of a chunk of images (KVEC_CHUNK_BYTES, or one
 * image) and the scratch slots (min(items of a chunk, KVEC_SLOTS_MAX) x band rows x Q x
 * 16 nv floats, a slot at most ~KVEC_YT_BYTES unless one output row is larger). */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "core/par.h"
#include "core/registry.h"
#include "cpu/ukernels/kvec/kvec_ukernels.h"
#include "cpu/ukernels/transpose/transpose.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_path.h"
#include "ops/conv/cpu/conv_cpu_gemm.h"

#define KVEC_K_MIN 16     /* output channels at least (one vector) */
#define KVEC_TAPS_MAX 64  /* filter taps a channel at most */
#define KVEC_PF_ROWS 8    /* filter rows whose x lines are prefetched, at most */
/* Bytes of a chunk's filter block (KVEC_CB channels x taps x 16 nv floats), about: it
 * stays in L1 (48 KiB) with the tiles' x lines (ResNet-50's 3 x 3 layers: 16 channels
 * a chunk at 32 output channels, 8 at 64) */
#define KVEC_WCHUNK_BYTES 18432
#define KVEC_YT_BYTES ((int64_t)192 << 10) /* bytes of a scratch slot, about */
#define KVEC_TM_SCALE 4 /* transposed mode: channels a chunk, at most times the forward's */
#define KVEC_CHUNK_BYTES ((int64_t)2 << 20) /* bytes of padded planes of a chunk */
#define KVEC_PACK_C 64    /* input channels a filter packing task */
#define KVEC_MIN_ITEMS 8  /* items of a chunk wanted (bands are cut to get them) */
#define KVEC_SLOTS_MAX 64 /* scratch slots, so threads, at most */
/* Multiply-adds below which one thread runs the call (a team costs a few us). */
#define KVEC_MIN_WORK_PER_THREAD (1 << 17)

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

typedef struct {
    pdnn_conv_geom3 G;
    int64_t n, c, k, r, s, taps; /* taps: r * s */
    int64_t P, Q;                /* output rows and columns */
    int64_t xs;                  /* column stride: 1 or 2 */
    int nv;                      /* vectors of 16 output channels a tile: 2 or 4 */
    int64_t px;                  /* pixels a tile at most */
    int64_t nkl, nkb;            /* output channels a block (16 nv), blocks */
    int64_t hp, wp, plane;       /* padded plane rows, columns, floats */
    int64_t cb;                  /* input channels a sum chunk */
    int64_t rows, bands;         /* output rows a band, bands an image */
    int64_t nbi;                 /* images a chunk */
    int64_t items, slots;        /* items of a full chunk, scratch slots */
    int64_t slot;                /* floats of a slot: rows Q nkl */
    bool fuse;                   /* each chunk of the filter packed where it is used */
    /* backward data at a stride above 1 (transposed mode, tm): the plane is dy's, with
     * lpad zero columns before; st, op: the problem's row and column strides and
     * padding before */
    bool tm;
    int64_t st[2], op[2], lpad, rpad;
} kv_geom;

static int64_t floordiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* Transposed mode (backward data without a forward form: a stride above 1, or padding
 * beyond the filter's reach): dx's channels along the lanes, each dx row's pixels by
 * column phase (the columns j = phi mod stride), a tile's pixels stride apart in dx and
 * reading consecutive dy columns; f's geometry is that of a
 * forward problem from dy (K channels, padded by lpad columns before and rpad after, no
 * rows) to dx (C channels, stride 1), its filter strides swapped. */
/* q: backward-data problem p as a forward one from dy to dx: channels, spatial sizes,
 * x / y strides and the filter's K / C strides swapped (the filter read in place);
 * stride, padding and flip left for the caller. */
static void swap_form(const pdnn_conv_problem *p, pdnn_conv_problem *q)
{
    *q = *p;
    q->dir = PDNN_CONV_FWD;
    q->c = p->k;
    q->k = p->c;
    for (int d = 0; d < p->nsp; d++) {
        q->in[d] = p->out[d];
        q->out[d] = p->in[d];
    }
    q->ws[0] = p->ws[1];
    q->ws[1] = p->ws[0];
    for (int i = 0; i < 2 + p->nsp; i++) {
        q->xs[i] = p->ys[i];
        q->ys[i] = p->xs[i];
    }
}

static void tm_form(const pdnn_conv_problem *p, pdnn_conv_problem *q, kv_geom *f)
{
    pdnn_conv_geom3 G0;
    pdnn_conv_widen(p, &G0);
    swap_form(p, q);
    f->st[0] = G0.str[1];
    f->st[1] = G0.str[2];
    f->op[0] = G0.pad[1];
    f->op[1] = G0.pad[2];
    /* dy columns a tile reads: from floor((pl - (S - 1) dil) / sw) (the first dx column,
     * the last filter column) to floor((W - 1 + pl) / sw) */
    const int64_t sw = G0.str[2], pl = G0.pad[2];
    const int64_t lo = floordiv(pl - (G0.kern[2] - 1) * G0.dil[2], sw);
    const int64_t hi = floordiv(G0.in[2] - 1 + pl, sw);
    f->lpad = lo < 0 ? -lo : 0;
    f->rpad = hi > G0.out[2] - 1 ? hi - (G0.out[2] - 1) : 0;
    for (int d = 0; d < p->nsp; d++) {
        const bool col = d == p->nsp - 1;
        q->stride[d] = 1;
        q->pad_b[d] = col ? f->lpad : 0;
        q->pad_e[d] = col ? f->rpad : 0;
    }
}

/* p: a forward problem, or a backward-data one (transposed mode). */
static void geom_of(const pdnn_conv_problem *p, kv_geom *f)
{
    f->tm = p->dir == PDNN_CONV_BWD_DATA;
    pdnn_conv_problem q;
    if (f->tm) tm_form(p, &q, f);
    pdnn_conv_widen(f->tm ? &q : p, &f->G);
    const pdnn_conv_geom3 *G = &f->G;
    f->n = p->n;
    f->c = G->cg;
    f->k = G->kg;
    f->r = G->kern[1];
    f->s = G->kern[2];
    f->taps = f->r * f->s;
    f->P = G->out[1];
    f->Q = G->out[2];
    f->xs = G->str[2];
    /* 7-pixel tiles of 64 channels where rows of 7k pixels would leave the 14-pixel
     * tiles half empty (7 x 7 outputs; in transposed mode a column phase's pixels) */
    const int64_t wph = f->tm ? cdiv(f->Q, f->st[1]) : f->Q;
    f->nv = wph % 14 != 0 && wph % 7 == 0 && f->k % 64 == 0 ? 4 : 2;
    f->px = f->nv == 4 ? PDNN_KVEC_PX4 : PDNN_KVEC_PX2;
    f->nkl = 16 * f->nv;
    f->nkb = cdiv(f->k, f->nkl);
    f->hp = f->P > 0 ? (f->P - 1) * G->str[1] + (f->r - 1) * G->dil[1] + 1 : 1;
    f->wp = f->Q > 0 ? (f->Q - 1) * f->xs + (f->s - 1) * G->dil[2] + 1 : 1;
    if (f->tm) { /* dy's rows, its columns with the padding (tm_form) */
        f->hp = G->in[1];
        f->wp = f->lpad + G->in[2] + f->rpad;
    }
    f->plane = f->hp * f->wp;
    const int64_t wrow = f->taps * f->nkl * (int64_t)sizeof(float);
    /* transposed mode: a tile's taps are about one in sh sw (the others left out), so
     * its calls take sh sw times the channels (at most KVEC_TM_SCALE), the chunk in L2
     * and what each call reads of it in L1 */
    int64_t scale = f->tm ? f->st[0] * f->st[1] : 1;
    if (scale > KVEC_TM_SCALE) scale = KVEC_TM_SCALE;
    f->cb = wrow > 0 && scale * KVEC_WCHUNK_BYTES / wrow > 1 ? scale * KVEC_WCHUNK_BYTES / wrow : 1;
    const double pimg = (double)f->c * (double)f->plane * sizeof(float);
    f->nbi = pimg > 0 && (double)KVEC_CHUNK_BYTES / pimg >= 2
                 ? (int64_t)((double)KVEC_CHUNK_BYTES / pimg)
                 : 1;
    if (f->nbi > f->n) f->nbi = f->n > 0 ? f->n : 1;
    /* bands: a slot of at most ~KVEC_YT_BYTES, and at least KVEC_MIN_ITEMS items a chunk
     * where the rows allow (the problem's sizes alone decide them) */
    const int64_t rowb = f->Q * f->nkl * (int64_t)sizeof(float);
    int64_t rmax = rowb > 0 && KVEC_YT_BYTES / rowb > 1 ? KVEC_YT_BYTES / rowb : 1;
    const int64_t P = f->P > 0 ? f->P : 1;
    int64_t bands = cdiv(P, rmax);
    const int64_t want = cdiv(KVEC_MIN_ITEMS, f->nbi * (f->nkb > 0 ? f->nkb : 1));
    if (bands < want) bands = want;
    if (bands > P) bands = P;
    f->rows = cdiv(P, bands);
    f->bands = cdiv(P, f->rows);
    f->items = f->nbi * f->nkb * f->bands;
    f->slots = f->items < KVEC_SLOTS_MAX ? f->items : KVEC_SLOTS_MAX;
    if (f->slots < 1) f->slots = 1;
    f->slot = f->rows * f->Q * f->nkl;
    /* one image in one band: each block of the filter serves one item, which packs it
     * chunk by chunk into its buffer just before its products (no pass writing the
     * whole packed filter to memory and reading it back: ResNet-50's 7 x 7 layers at
     * minibatch 1, a 9.4 MiB filter) */
    f->fuse = f->n * f->bands == 1;
}

/* The forward problem p within this path's rules (pdnn_conv_gemm_supports apart: the
 * forward form of a backward-data problem has its filter's K and C strides swapped). */
static bool kv_supports(const pdnn_conv_problem *p, const char **why)
{
    if (p->dtype != PDNN_DATA_FLOAT) {
        *why = "data type other than FLOAT";
        return false;
    }
    kv_geom f;
    geom_of(p, &f);
    const pdnn_conv_geom3 *G = &f.G;
    if (p->nsp > 2) {
        *why = "more than 2 spatial dims";
        return false;
    }
    if (p->g != 1 || f.k < KVEC_K_MIN) {
        *why = "not one group of at least 16 output channels";
        return false;
    }
    if (G->str[2] != 1 && G->str[2] != 2) {
        *why = "column stride other than 1 or 2";
        return false;
    }
    if (f.taps > KVEC_TAPS_MAX) {
        *why = "more than 64 filter taps a channel";
        return false;
    }
    if (G->ys[4] != 1 || (f.P > 1 && G->ys[3] != f.Q)) {
        *why = "y planes not stored flat (unit column stride, rows back to back)";
        return false;
    }
    const double ws = (double)f.nkb * f.nkl * f.c * f.taps + (double)f.nbi * f.c * f.plane +
                      (double)f.slots * f.slot;
    if (ws * sizeof(float) > 0x1p60) {
        *why = "workspace size overflows";
        return false;
    }
    return true;
}

static bool fwd_supports(const void *prob, const char **why)
{
    const pdnn_conv_problem *p = prob;
    return pdnn_conv_gemm_supports(p, PDNN_CONV_FWD, why) && kv_supports(p, why);
}

typedef struct {
    float *wt;  /* the packed filter (none when fused) */
    float *pad; /* padded planes of a chunk of images */
    float *yt;  /* scratch slots */
} kv_ws;

/* The workspace's parts, each from a 64-byte boundary (the caller's pointer rounded up:
 * a workspace from malloc may be 16-byte aligned); NULL ws: sizes only. Returns the
 * bytes. */
static int64_t ws_layout(const kv_geom *f, void *ws, kv_ws *l)
{
    if (ws) ws = pdnn_gemm_align_ptr(ws);
    const int64_t fb = (int64_t)sizeof(float);
    const int64_t o1 = f->fuse ? 0 : cdiv(f->nkb * f->nkl * f->c * f->taps * fb, 64) * 64;
    const int64_t o2 = o1 + cdiv(f->nbi * f->c * f->plane * fb, 64) * 64;
    const int64_t end = o2 + f->slots * f->slot * fb + 64; /* + the rounding */
    if (ws) {
        l->wt = (float *)ws;
        l->pad = (float *)((char *)ws + o1);
        l->yt = (float *)((char *)ws + o2);
    }
    return end;
}

static size_t kv_workspace(const void *prob)
{
    kv_geom f;
    geom_of(prob, &f);
    return (size_t)ws_layout(&f, NULL, NULL);
}

/* How the filter's taps lie: KV_PLAIN, channel after channel and the taps in order (KCRS,
 * cross-correlation): a block is one transpose; KV_TPLAIN, each input channel's output
 * channels after one another, their taps in order (the forward form of a KCRS backward-data
 * problem: ws[0] == taps): a transpose an input channel, its taps reversed when flipped;
 * else KV_TAPS, tap by tap. */
enum { KV_TAPS, KV_PLAIN, KV_TPLAIN };
static int filter_order(const pdnn_conv_problem *p, const kv_geom *f)
{
    const pdnn_conv_geom3 *G = &f->G;
    const bool sp = (f->r == 1 || G->ws[3] == f->s) && (f->s == 1 || G->ws[4] == 1);
    if (sp && !p->flip && G->ws[1] == f->taps) return KV_PLAIN;
    if (sp && G->ws[0] == f->taps) return KV_TPLAIN;
    return KV_TAPS;
}

/* Input channels [c0, c1) of output channel block b packed at d0 (channel c0's first tap;
 * zeros past K), by the 16 x 16 transpose kernel in the orders filter_order names, else
 * tap by tap. */
static void pack_filter(const pdnn_conv_problem *p, const kv_geom *f, const float *w, int order,
                        pdnn_f32_transpose_fn tr, int64_t b, int64_t c0, int64_t c1, float *d0)
{
    const pdnn_conv_geom3 *G = &f->G;
    const int64_t nk = f->k - b * f->nkl < f->nkl ? f->k - b * f->nkl : f->nkl;
    if (order == KV_TPLAIN) {
        /* channel c: the nk x taps block of its output channels, transposed into taps
         * rows of nkl lanes (the last row first when flipped) */
        const bool fl = p->flip;
        for (int64_t c = c0; c < c1; c++) {
            float *d = d0 + (c - c0) * f->taps * f->nkl;
            tr((size_t)nk, (size_t)f->taps, w + c * G->ws[1] + b * f->nkl * G->ws[0],
               (ptrdiff_t)G->ws[0], fl ? d + (f->taps - 1) * f->nkl : d,
               fl ? -(ptrdiff_t)f->nkl : (ptrdiff_t)f->nkl);
            if (nk < f->nkl)
                for (int64_t j = 0; j < f->taps; j++)
                    memset(d + j * f->nkl + nk, 0, (size_t)(f->nkl - nk) * sizeof(float));
        }
        return;
    }
    if (order == KV_PLAIN) {
        const int64_t cols = (c1 - c0) * f->taps;
        tr((size_t)nk, (size_t)cols, w + b * f->nkl * G->ws[0] + c0 * f->taps,
           (ptrdiff_t)G->ws[0], d0, (ptrdiff_t)f->nkl);
        if (nk < f->nkl)
            for (int64_t j = 0; j < cols; j++)
                memset(d0 + j * f->nkl + nk, 0, (size_t)(f->nkl - nk) * sizeof(float));
        return;
    }
    float *d = d0;
    for (int64_t c = c0; c < c1; c++)
        for (int64_t r = 0; r < f->r; r++)
            for (int64_t q = 0; q < f->s; q++) {
                const float *src = w + c * G->ws[1] + pdnn_dw_tap_off(p, G, r, q);
                for (int64_t l = 0; l < f->nkl; l++)
                    *d++ = l < nk ? src[(b * f->nkl + l) * G->ws[0]] : 0.0f;
            }
}

/* Row u = (ni C + c) hp + i of the chunk's padded planes (image ni of the chunk at x):
 * x's row i - pad_top from column -pad_left, zeros outside x. */
static void pad_row(const kv_geom *f, const float *x, int64_t u, float *pad)
{
    const pdnn_conv_geom3 *G = &f->G;
    const int64_t i = u % f->hp, c = u / f->hp % f->c, ni = u / (f->hp * f->c);
    float *d = pad + u * f->wp;
    const int64_t y = i - G->pad[1], W = G->in[2], pl = G->pad[2];
    if (y < 0 || y >= G->in[1]) {
        memset(d, 0, (size_t)f->wp * sizeof(float));
        return;
    }
    const float *src = x + ni * G->xs[0] + c * G->xs[1] + y * G->xs[3];
    /* columns j of the plane: x's column j - pl where 0 <= j - pl < W */
    const int64_t j0 = pl < f->wp ? pl : f->wp;
    int64_t j1 = pl + W < f->wp ? pl + W : f->wp;
    if (j1 < j0) j1 = j0;
    memset(d, 0, (size_t)j0 * sizeof(float));
    if (G->xs[4] == 1)
        memcpy(d + j0, src + (j0 - pl), (size_t)(j1 - j0) * sizeof(float));
    else
        for (int64_t j = j0; j < j1; j++) d[j] = src[(j - pl) * G->xs[4]];
    memset(d + j1, 0, (size_t)(f->wp - j1) * sizeof(float));
}

typedef struct {
    ptrdiff_t toff[KVEC_TAPS_MAX];   /* tap j's offset in a padded plane */
    ptrdiff_t pfo[3 * KVEC_PF_ROWS]; /* lines prefetched a channel ahead */
    size_t npf;
} kv_taps;

static void taps_setup(const kv_geom *f, kv_taps *t)
{
    const pdnn_conv_geom3 *G = &f->G;
    for (int64_t r = 0; r < f->r; r++)
        for (int64_t q = 0; q < f->s; q++)
            t->toff[r * f->s + q] = (ptrdiff_t)(r * G->dil[1] * f->wp + q * G->dil[2]);
    /* a full tile's source run in each filter row: its first, middle and last lines */
    const int64_t span = f->xs * (f->px - 1) + (f->s - 1) * G->dil[2] + 1;
    const int64_t nr = f->r < KVEC_PF_ROWS ? f->r : KVEC_PF_ROWS;
    t->npf = 0;
    for (int64_t r = 0; r < nr; r++) {
        const ptrdiff_t o = (ptrdiff_t)(r * G->dil[1] * f->wp);
        t->pfo[t->npf++] = o;
        t->pfo[t->npf++] = o + (ptrdiff_t)(span / 2);
        t->pfo[t->npf++] = o + (ptrdiff_t)(span - 1);
    }
}

/* The classes of the taps (kvec_ukernels.h) for the tile of np pixels from output
 * column q0 of output row p: a filter row whose input row lies outside x for this output
 * row, or a filter column whose input columns lie outside x for every pixel, is left
 * out; the tile's first or last pixel where its input column alone does. Those products
 * read the padded planes' zeros and add nothing (ResNet-50's 7 x 7 layers with 1 pixel of
 * padding: 18% of the products). */
static void tile_classes(const kv_geom *f, int64_t p, int64_t q0, int64_t np, unsigned char *cl)
{
    const pdnn_conv_geom3 *G = &f->G;
    const int64_t top = p * G->str[1] - G->pad[1], left = q0 * f->xs - G->pad[2];
    if (top >= 0 && top + (f->r - 1) * G->dil[1] < G->in[1] && left >= 0 &&
        left + (np - 1) * f->xs + (f->s - 1) * G->dil[2] < G->in[2]) {
        memset(cl, 0, (size_t)(f->r * f->s)); /* inside x: every tap (most tiles) */
        return;
    }
    for (int64_t r = 0; r < f->r; r++) {
        const int64_t ih = p * G->str[1] - G->pad[1] + r * G->dil[1];
        const bool row_out = ih < 0 || ih >= G->in[1];
        for (int64_t q = 0; q < f->s; q++) {
            const int64_t iw0 = q0 * f->xs - G->pad[2] + q * G->dil[2];
            const int64_t iw1 = iw0 + (np - 1) * f->xs;
            unsigned c = 0;
            if (row_out || iw1 < 0 || iw0 >= G->in[2])
                c = PDNN_KVEC_SKIP_TAP;
            else
                c = (iw0 < 0 ? PDNN_KVEC_SKIP_FIRST : 0u) |
                    (iw1 >= G->in[2] ? PDNN_KVEC_SKIP_LAST : 0u);
            cl[r * f->s + q] = (unsigned char)c;
        }
    }
}

/* Transposed mode: the source offsets and classes of the taps for the tile of np dx pixels
 * from column j0, stride apart, in dx row i. Filter row r reaches dx row i from dy row
 * (i + pad_top - r dil) / sh where that is whole and inside dy, else the tap is left
 * out; filter column s from dy column (j0 + pad_left - s dil) / sw + t for pixel t where
 * whole (for every pixel alike), else left out; the tile's first or last pixel left out
 * where its dy column lies outside dy (the others there read the plane's zero columns). */
static void tile_taps_tm(const kv_geom *f, int64_t i, int64_t j0, int64_t np, ptrdiff_t *toff,
                         unsigned char *cl)
{
    const pdnn_conv_geom3 *G = &f->G;
    const int64_t sh = f->st[0], sw = f->st[1], Hy = G->in[1], Wy = G->in[2];
    for (int64_t r = 0; r < f->r; r++) {
        const int64_t nr = i + f->op[0] - r * G->dil[1];
        const bool row = nr >= 0 && nr % sh == 0 && nr / sh < Hy;
        for (int64_t q = 0; q < f->s; q++) {
            const int64_t nq = j0 + f->op[1] - q * G->dil[2];
            const int64_t c = floordiv(nq, sw);
            const int64_t j = r * f->s + q;
            if (!row || nq - c * sw != 0 || c + np - 1 < 0 || c >= Wy) {
                cl[j] = (unsigned char)PDNN_KVEC_SKIP_TAP;
                toff[j] = 0;
                continue;
            }
            cl[j] = (unsigned char)((c < 0 ? PDNN_KVEC_SKIP_FIRST : 0u) |
                                    (c + np - 1 >= Wy ? PDNN_KVEC_SKIP_LAST : 0u));
            toff[j] = (ptrdiff_t)(nr / sh * f->wp + f->lpad + c);
        }
    }
}

/* What an item needs to pack its filter chunks itself (kv_geom.fuse). */
typedef struct {
    const pdnn_conv_problem *p;
    const float *w;
    int order; /* filter_order's */
    pdnn_f32_transpose_fn tr;
} kv_pack;

/* A chunk of the filter packed by its item (on its stack: measured faster than a buffer
 * in the workspace, 1.20 against 1.26-1.33 ms on res5b_branch2b at minibatch 1, 2 threads):
 * cb channels (KVEC_WCHUNK_BYTES' worth, in transposed mode up to KVEC_TM_SCALE times
 * that: 72 KiB), or one channel of at most KVEC_TAPS_MAX taps x 64 output channels */
#define KVEC_WBUF_FLOATS (KVEC_TM_SCALE * KVEC_WCHUNK_BYTES / 4 > KVEC_TAPS_MAX * 64     \
                              ? KVEC_TM_SCALE * KVEC_WCHUNK_BYTES / 4                        \
                              : KVEC_TAPS_MAX * 64)

/* One item: image ni of the chunk (its padded planes at xi), output channel block b,
 * output rows [p0, p1); the filter packed at wt, or (pk) packed here chunk by chunk; the
 * sums in the slot t, then into y's planes at yb. */
static void run_item(const kv_geom *f, const kv_taps *tp, const float *xi, const float *wt,
                     const kv_pack *pk, int64_t b, int64_t p0, int64_t p1, float *t, float *yb,
                     float alpha, float beta, int stream)
{
    const pdnn_conv_geom3 *G = &f->G;
    const float *wk = wt ? wt + b * f->c * f->taps * f->nkl : NULL;
    const pdnn_f32_kvec_fn kern =
        f->xs == 1 ? pdnn_f32_kvec_s1__avx512 : pdnn_f32_kvec_s2__avx512;
    _Alignas(64) float wbuf[KVEC_WBUF_FLOATS];
    unsigned char cl[KVEC_TAPS_MAX];
    for (int64_t c0 = 0; c0 < f->c; c0 += f->cb) {
        const int64_t nc = f->c - c0 < f->cb ? f->c - c0 : f->cb;
        const float *wc = wk ? wk + c0 * f->taps * f->nkl : wbuf;
        if (pk) pack_filter(pk->p, f, pk->w, pk->order, pk->tr, b, c0, c0 + nc, wbuf);
        for (int64_t p = p0; p < p1; p++) {
            float *tr = t + (p - p0) * f->Q * f->nkl;
            if (f->tm) { /* each column phase's pixels, stride apart in the slot */
                const int64_t sw = f->st[1];
                ptrdiff_t toff[KVEC_TAPS_MAX];
                for (int64_t ph = 0; ph < sw && ph < f->Q; ph++) {
                    const int64_t nph = cdiv(f->Q - ph, sw);
                    for (int64_t t0 = 0; t0 < nph; t0 += f->px) {
                        const int64_t np = nph - t0 < f->px ? nph - t0 : f->px;
                        const int64_t j0 = ph + sw * t0;
                        tile_taps_tm(f, p, j0, np, toff, cl);
                        pdnn_f32_kvec_s1__avx512((size_t)np, (size_t)f->nv, (size_t)nc,
                                                 (size_t)f->taps, xi + c0 * f->plane,
                                                 (ptrdiff_t)f->plane, toff, cl, wc,
                                                 tr + j0 * f->nkl, (ptrdiff_t)(sw * f->nkl),
                                                 c0 == 0, NULL, 0);
                    }
                }
                continue;
            }
            const float *xr = xi + c0 * f->plane + p * G->str[1] * f->wp;
            for (int64_t q0 = 0; q0 < f->Q; q0 += f->px) {
                const int64_t np = f->Q - q0 < f->px ? f->Q - q0 : f->px;
                tile_classes(f, p, q0, np, cl);
                kern((size_t)np, (size_t)f->nv, (size_t)nc, (size_t)f->taps, xr + f->xs * q0,
                     (ptrdiff_t)f->plane, tp->toff, cl, wc, tr + q0 * f->nkl,
                     (ptrdiff_t)f->nkl, c0 == 0, tp->pfo, tp->npf);
            }
        }
    }
    const int64_t nk = f->k - b * f->nkl < f->nkl ? f->k - b * f->nkl : f->nkl;
    pdnn_f32_kvec_store__avx512((size_t)((p1 - p0) * f->Q), (size_t)nk, t, (ptrdiff_t)f->nkl,
                                yb + b * f->nkl * G->ys[1] + p0 * f->Q, (ptrdiff_t)G->ys[1],
                                alpha, beta, stream);
}

static pdnnStatus_t fwd_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *arg = args;
    kv_geom f;
    geom_of(p, &f);
    const pdnn_conv_geom3 *G = &f.G;
    if (f.n == 0 || f.k == 0 || f.P == 0 || f.Q == 0) return PDNN_STATUS_SUCCESS;
    kv_ws l = {NULL, NULL, NULL};
    ws_layout(&f, ctx->ws, &l);
    kv_taps tp;
    taps_setup(&f, &tp);

    const double work = (double)f.n * (double)f.k * (double)f.c * (double)f.taps *
                        (double)f.P * (double)f.Q;
    int nt = pdnn_par_threads(ctx->nthreads, f.items, work, KVEC_MIN_WORK_PER_THREAD);
    if (nt > f.slots) nt = (int)f.slots;
    const float *x = arg->src, *w = arg->wei;
    float *y = arg->dst;
    const float alpha = (float)arg->alpha, beta = (float)arg->beta;
    const int64_t nbi = f.nbi, per_img = f.nkb * f.bands;
    const int order = filter_order(p, &f);
    const pdnn_f32_transpose_fn tr = pdnn_f32_transpose_select();
    const int64_t npc = cdiv(f.c, KVEC_PACK_C); /* packing tasks a block */
    const kv_pack pk = {p, w, order, tr};
    /* y beyond the caches: its whole aligned runs by non-temporal stores */
    const int stream = beta == 0.0f && (double)f.n * (double)f.k * (double)f.P * (double)f.Q *
                                               sizeof(float) > PDNN_CONV_STREAM_BYTES;

#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        int64_t tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        float *slot = l.yt + tid * f.slot;
        if (!f.fuse) {
#pragma omp for schedule(static)
            for (int64_t u = 0; u < f.nkb * npc; u++) {
                const int64_t b = u / npc, c0 = u % npc * KVEC_PACK_C;
                pack_filter(p, &f, w, order, tr, b, c0,
                            c0 + KVEC_PACK_C < f.c ? c0 + KVEC_PACK_C : f.c,
                            l.wt + (b * f.c + c0) * f.taps * f.nkl);
            }
        }
        for (int64_t n0 = 0; n0 < f.n; n0 += nbi) {
            const int64_t nimg = f.n - n0 < nbi ? f.n - n0 : nbi;
#pragma omp for schedule(static)
            for (int64_t u = 0; u < nimg * f.c * f.hp; u++)
                pad_row(&f, x + n0 * G->xs[0], u, l.pad);
#pragma omp for schedule(static)
            for (int64_t it = 0; it < nimg * per_img; it++) {
                /* block-major: a thread's share runs each filter block over the
                 * chunk's images, the block staying in its L2 */
                const int64_t b = it / (nimg * f.bands), ni = it / f.bands % nimg;
                const int64_t p0 = it % f.bands * f.rows;
                const int64_t p1 = p0 + f.rows < f.P ? p0 + f.rows : f.P;
                run_item(&f, &tp, l.pad + ni * f.c * f.plane, f.fuse ? NULL : l.wt,
                         f.fuse ? &pk : NULL, b, p0, p1, slot,
                         y + (n0 + ni) * G->ys[0], alpha, beta, stream);
            }
        }
        if (stream) atomic_thread_fence(memory_order_seq_cst); /* the streamed lines */
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_fwd_cpu_direct_kvec = {
    "cpu:direct_kvec", PDNN_CONVOLUTION_FWD_ALGO_DIRECT, PDNN_ISA_AVX512,
    PDNN_IMPL_DETERMINISTIC, fwd_supports, kv_workspace, fwd_exec,
};

/* ---- backward data: at stride 1 the forward form; otherwise transposed mode (tm_form)
 *
 * dx is the forward convolution of dy with the filter's K and C swapped and its taps
 * rotated by 180 degrees (flip toggled), padded by (kern - 1) dil - pad on each side
 * (conv_cpu_gemm_bwd_data.c does the same for GEMM): here the form's filter strides
 * describe the caller's filter in place (its input channels K, ws[1] = the original
 * ws[0]; its output channels C, ws[0] = the original ws[1]), so a KCRS filter packs by
 * one transpose an input channel (KV_TPLAIN). Every dx element is one sum over K x taps,
 * all of them written (alpha, beta). */

/* The forward form q of the backward-data problem p; false when it has none: a stride
 * above 1, or padding beyond (kern - 1) dil (the form's would be negative). */
static bool bwdd_form(const pdnn_conv_problem *p, pdnn_conv_problem *q)
{
    swap_form(p, q);
    q->flip = !p->flip;
    for (int d = 0; d < p->nsp; d++) {
        q->pad_b[d] = (p->kern[d] - 1) * p->dil[d] - p->pad_b[d];
        q->pad_e[d] = (p->kern[d] - 1) * p->dil[d] - p->pad_e[d];
        if (p->stride[d] != 1 || q->pad_b[d] < 0 || q->pad_e[d] < 0) return false;
    }
    return true;
}

/* The problem backward data runs: the forward form q where there is one (q set, true),
 * else p itself in transposed mode (kv_geom.tm, geom_of). */
static const pdnn_conv_problem *bwdd_run_as(const pdnn_conv_problem *p, pdnn_conv_problem *q)
{
    return bwdd_form(p, q) ? q : p;
}

static bool bwdd_supports(const void *prob, const char **why)
{
    const pdnn_conv_problem *p = prob;
    pdnn_conv_problem q;
    return pdnn_conv_gemm_supports(p, PDNN_CONV_BWD_DATA, why) &&
           kv_supports(bwdd_run_as(p, &q), why);
}

static size_t bwdd_workspace(const void *prob)
{
    pdnn_conv_problem q;
    return kv_workspace(bwdd_run_as(prob, &q));
}

/* src dy, wei w, dst dx: the forward form's x, w, y; or transposed mode */
static pdnnStatus_t bwdd_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    pdnn_conv_problem q;
    return fwd_exec(bwdd_run_as(prob, &q), args, ctx);
}

const pdnn_impl pdnn_conv_bwd_data_cpu_direct_kvec = {
    "cpu:direct_kvec", PDNN_CONVOLUTION_BWD_DATA_ALGO_0, PDNN_ISA_AVX512,
    PDNN_IMPL_DETERMINISTIC, bwdd_supports, bwdd_workspace, bwdd_exec,
};
