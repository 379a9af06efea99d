/* Convolutions with few input channels on masked flat planes ("cpu:direct_fewc": forward
 * PDNN_CONVOLUTION_FWD_ALGO_DIRECT).
 *
 * The problems: FLOAT, AVX-512, one group, 1 to FEWC_C_MAX input channels, at least
 * FEWC_K_MIN output channels, 1-d or 2-d, dilation 1, stride 1 or 2 along each dim,
 * filters of at most FEWC_RS_MAX taps a channel and FEWC_T_MAX over the channels (rows
 * and columns of at most PDNN_DWMF_TAPS), packed KCRS or KRSC filters, convolution or
 * cross-correlation, y planes stored flat (unit column stride, rows one after the other:
 * NCHW-like; channel and image strides any), x rows with a unit column stride. At stride
 * 1 along both dims, x planes stored flat and its rows as wide as the output rows
 * (padding before + after = filter width - 1: "same" columns), read in place; otherwise
 * the output rows at least half as wide as the input rows (ceil(W / stride) <= Q). The
 * first layers of image networks: LeNet's 5 x 5 1 -> 32 on 28 x 28, VGG's 3 x 3 3 -> 64
 * on 224 x 224, MobileNet's 3 x 3 stride-2 3 -> 32 stem.
 *
 * There im2col + GEMM has few taps per column (25-27) for its packing to pay: the
 * panel packing took ~25% of LeNet conv1's time and the 6-row tiles computed 36 rows for
 * 32. Here nothing is packed but the filter: every output plane is one flat grid of
 * 16-output vectors, tap (r, s) of input channel c reads the channel's source plane at
 * a fixed flat offset from the output element, under a mask of the lanes whose source
 * pixel lies inside it (the masks of the depthwise flat path,
 * cpu/ukernels/dwconv/dwmf_ukernels.h, built once a call for every grid vector and tap);
 * the micro-kernel keeps 8 output channels x 3 vectors in registers (cpu/ukernels/fewc).
 * The source plane is x itself at stride 1 (offset (r - pad_top) W + s - pad_left, with
 * W == Q); at stride 2 along a dim, x's rows (columns) are first split into their two
 * stride phases, each phase plane Q wide, so that tap (r, s) reads phase ((r - pad_top)
 * mod 2, ...) at offset floor((r - pad_top) / 2) Q + ...: a copy of x by chunks of
 * images in the workspace (the GEMM path's deinterleave kernel). Padding taps are never
 * read and add nothing (not w * 0: an Inf weight reaches no border output through them,
 * as in the reference).
 *
 * Padded mode: where every weight is finite and the output rows are whole vectors or
 * nearly (ceil(Q / 16) 16 <= 17 Q / 16: VGG's 224 and MobileNet's 112 columns, not
 * LeNet's 28), x is copied by chunks of images into zero-padded planes, one a stride
 * phase (rows and columns wide enough for every tap of every output), and the output
 * grid is each row's vectors; the kernel then loads and multiplies without masks
 * (cpu/ukernels/fewc's _pad kernel; masked loads and multiply-adds cost it 20-40% on
 * L1-resident data: VGG-16's conv1_1, minibatch 1, 1 thread, 1.56 -> 1.37 ms). A padding
 * tap then adds w * 0, a zero, which changes no sum (but for the sign of a zero) when w
 * is finite; with an Inf or NaN weight the masked planes above serve the call.
 *
 * Column stride 2 in the padded mode's set, its taps at column offsets -1 .. 2 from 2 ow
 * (padding before the columns 0 or 1, at most 4 filter columns: MobileNet-v2's stem):
 * x is not copied at all (s2_exec). For each tile of grid vectors the tap vectors are
 * gathered from x in place into a stack buffer (per vector and filter row, aligned
 * masked loads of the row's columns, their even and odd lanes split by permutes and
 * shifted one lane for the offsets -1 and 2: cpu/ukernels/fewc's _s2_taps), and the _pad
 * kernel runs on that buffer for every block of 8 output channels; the sums are the
 * padded mode's. Against the phase-plane copies, 2 threads, Intel Xeon 6/207, best of
 * 3 alternating runs: the stem at minibatch 1 0.118 -> 0.102 ms (1 thread 0.230 ->
 * 0.199), at minibatch 32 3.63 -> 2.96 ms (x read once instead of copied and read again;
 * oneDNN 0.064 / 2.1 ms).
 *
 * Threads split (image, 48-output tile) items (the masked planes: equal shares of a
 * chunk's grid vectors, in tiles of up to 3 vectors within an image, and the masks of a
 * share of the vectors, built in the parallel region: LeNet's conv1 at minibatch 1 has
 * 49 vectors, 9 and 8 tiles of 3 a thread before; and, at stride 2 or in the padded mode
 * but for s2_exec, the chunk's rows to copy), every item computing all output channels
 * in blocks of 8; every output is one chain of fused multiply-adds over c, then the taps
 * in filter order, so results do not depend on the thread count; exact on small
 * integers.
 *
 * Workspace: the packed filter (K rounded up to 8, x C x taps elements), then the larger
 * of: the masks (ceil(P Q / 16) x taps 16-bit words) and, at stride 2, the phase planes of
 * a chunk of images (FEWC_CHUNK_BYTES, or one image); the padded mode's grid tables (P
 * ceil(Q / 16) x 18 bytes) and padded planes of a chunk of images (not for s2_exec:
 * only the tables; the masked planes stay for non-finite weights).
 *
 * The backward filter of these problems: conv_cpu_direct_bcast.c. */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "core/par.h"
#include "core/registry.h"
#include "cpu/ukernels/dwconv/dwmf_ukernels.h"
#include "cpu/ukernels/fewc/fewc_ukernels.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_path.h"
#include "ops/conv/cpu/conv_cpu_gemm.h"

#define FEWC_C_MAX 4   /* input channels at most */
#define FEWC_K_MIN 8   /* output channels at least (one register tile's rows) */
#define FEWC_RS_MAX 49 /* filter taps a channel at most */
/* Taps of all channels at most: above, the GEMM path's in-place B tiles measured faster
 * (ResNet-50's 7 x 7 stride-2 3 -> 64 stem, 147 taps: 1.81 against 1.61 ms, minibatch 1,
 * 1 thread) */
#define FEWC_T_MAX 64
#define MR PDNN_FEWC_MR
#define NV PDNN_FEWC_NV
#define LANES 16
/* Multiply-adds below which one thread runs the call (a team costs a few us). */
#define FEWC_MIN_WORK_PER_THREAD (1 << 17)
/* Bytes of phase planes of a chunk of images at stride 2, at most (one image at least). */
#define FEWC_CHUNK_BYTES ((int64_t)2 << 20)

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

typedef struct {
    pdnn_conv_geom3 G;
    int64_t n, c, k, r, s, taps; /* taps: r * s */
    int64_t npix, nvec;          /* output pixels of a plane, 16-output grid vectors */
    bool split;                  /* x copied into stride-phase planes (a stride of 2) */
    int64_t plane;               /* split: elements of one channel's phase planes */
    int64_t nbi;                 /* split: images a chunk */
    /* the zero-padded planes (the padded mode, pad_exec): rows [r_lo, r_lo + hg) and
     * columns [c_lo, c_lo + wg) of each stride phase; the output grid P rows of qv
     * vectors */
    bool pad_ok;                 /* the padded planes serve the problem (finite weights) */
    bool s2reg;                  /* pad_ok at column stride 2: x read in place instead, its
                                  * column phases made in registers (s2_exec) */
    int64_t r_lo, hg, c_lo, wg;
    int64_t nph, pscs;           /* phases (sr sc), floats of one channel's planes */
    int64_t qv, pnbi, gvec;      /* vectors a row, images a chunk, vectors an image */
} fewc_geom;

/* Source index o * st + t - pad along a dim of stride st (1 or 2) and size n: the phase
 * (t - pad) mod st, the offset floor((t - pad) / st) from o in it, and its length. */
static void tap_phase(int64_t t, int64_t pad, int64_t st, int64_t n, int64_t *ph, int64_t *off,
                      int64_t *len)
{
    const int64_t e = t - pad;
    *ph = ((e % st) + st) % st;
    *off = (e - *ph) / st;
    *len = (n - *ph + st - 1) / st;
}

/* The padded planes along a dim of nt taps, padding pad, stride st (1 or 2), n input
 * and out output elements: every tap's phase offset (tap_phase) and every phase element
 * of x fall in [lo, lo + len): output o reads element o + off - lo of its phase's padded
 * line, x's phase element e lies at e - lo, the rest are zeros. */
static void pad_dim(int64_t nt, int64_t pad, int64_t st, int64_t n, int64_t out, int64_t *lo,
                    int64_t *len)
{
    int64_t omin = 0, omax = 0;
    for (int64_t t = 0; t < nt; t++) {
        int64_t ph, off, l;
        tap_phase(t, pad, st, n, &ph, &off, &l);
        if (t == 0 || off < omin) omin = off;
        if (t == 0 || off > omax) omax = off;
    }
    const int64_t longest = cdiv(n, st); /* phase 0's elements */
    const int64_t hi = out - 1 + omax > longest - 1 ? out - 1 + omax : longest - 1;
    *lo = omin < 0 ? omin : 0;
    *len = hi - *lo + 1;
}

static void geom_of(const pdnn_conv_problem *p, fewc_geom *f)
{
    pdnn_conv_widen(p, &f->G);
    f->n = p->n;
    f->c = f->G.cg;
    f->k = f->G.kg;
    f->r = f->G.kern[1];
    f->s = f->G.kern[2];
    f->taps = f->r * f->s;
    f->npix = f->G.out[1] * f->G.out[2];
    f->nvec = cdiv(f->npix, LANES);
    f->split = f->G.str[1] != 1 || f->G.str[2] != 1;
    /* phase planes: str[2] column phases, each of all H rows (row phases one after the
     * other), Q wide */
    f->plane = f->G.str[2] * f->G.in[1] * f->G.out[2];
    const int64_t img = f->c * f->plane * (int64_t)sizeof(float);
    f->nbi = img > 0 && FEWC_CHUNK_BYTES / img > 1 ? FEWC_CHUNK_BYTES / img : 1;
    if (f->nbi > f->n) f->nbi = f->n > 0 ? f->n : 1;
    const pdnn_conv_geom3 *G = &f->G;
    pad_dim(f->r, G->pad[1], G->str[1], G->in[1], G->out[1], &f->r_lo, &f->hg);
    pad_dim(f->s, G->pad[2], G->str[2], G->in[2], G->out[2], &f->c_lo, &f->wg);
    f->nph = G->str[1] * G->str[2];
    const double pimg = (double)f->c * (double)f->nph * (double)f->hg * (double)f->wg * 4.0;
    /* at most 1/16 more grid columns than output columns (LeNet's 28 in 32 ran slower
     * than the masked kernel), sizes far from overflowing */
    f->qv = cdiv(G->out[2], LANES);
    f->pad_ok = 16 * f->qv * LANES <= 17 * G->out[2] &&
                pimg * (double)(f->n > 0 ? f->n : 1) < 0x1p60 &&
                (double)f->G.out[1] * (double)f->wg < 0x1p40;
    f->pscs = f->pad_ok ? f->nph * f->hg * f->wg : 0;
    f->pnbi = 1;
    if (f->pad_ok && pimg > 0 && (double)FEWC_CHUNK_BYTES / pimg >= 2)
        f->pnbi = (int64_t)((double)FEWC_CHUNK_BYTES / pimg);
    if (f->pnbi > f->n) f->pnbi = f->n > 0 ? f->n : 1;
    f->gvec = f->pad_ok ? G->out[1] * f->qv : 0;
    f->s2reg = f->pad_ok && G->str[2] == 2 && PDNN_FEWC_S2_FITS(f->s, G->pad[2]);
}

static bool fwd_supports(const void *prob, const char **why)
{
    const pdnn_conv_problem *p = prob;
    if (!pdnn_conv_gemm_supports(p, PDNN_CONV_FWD, why)) return false;
    fewc_geom f;
    geom_of(p, &f);
    const pdnn_conv_geom3 *G = &f.G;
    if (p->dtype != PDNN_DATA_FLOAT) {
        *why = "data type other than FLOAT";
        return false;
    }
    if (p->nsp > 2 || G->out[0] != 1 || G->kern[0] != 1) {
        *why = "more than 2 spatial dims";
        return false;
    }
    if (p->g != 1 || f.c > FEWC_C_MAX || f.k < FEWC_K_MIN) {
        *why = "not one group of 1-4 input channels and at least 8 output channels";
        return false;
    }
    for (int d = 1; d < 3; d++)
        if (G->str[d] < 1 || G->str[d] > 2 || G->dil[d] != 1) {
            *why = "stride other than 1 or 2, or dilation other than 1";
            return false;
        }
    if (!f.split && G->out[2] != G->in[2]) {
        *why = "output rows not as wide as the input rows (stride 1)";
        return false;
    }
    if (f.split && cdiv(G->in[2], G->str[2]) > G->out[2]) {
        *why = "output rows narrower than the input rows' stride phases";
        return false;
    }
    if (f.taps > FEWC_RS_MAX || f.r > PDNN_DWMF_TAPS || f.s > PDNN_DWMF_TAPS) {
        *why = "more than 49 filter taps a channel";
        return false;
    }
    if (f.c * f.taps > FEWC_T_MAX) {
        *why = "more than 64 filter taps over the input channels";
        return false;
    }
    const bool one_row = G->in[1] == 1 && G->out[1] == 1; /* 1-d: no row stride */
    if (G->xs[4] != 1 || G->ys[4] != 1 ||
        (!one_row && ((!f.split && G->xs[3] != G->in[2]) || G->ys[3] != G->out[2]))) {
        *why = "x or y planes not stored flat (unit column stride, rows back to back)";
        return false;
    }
    /* the flat offsets and masks are 32-bit in the mask builder */
    if (f.npix > INT32_MAX / 2 || G->in[1] * G->in[2] > INT32_MAX / 2) {
        *why = "planes of more than 2^30 pixels";
        return false;
    }
    if ((double)f.nbi * (double)f.c * (double)f.plane * sizeof(float) > 0x1p62) {
        *why = "workspace size overflows";
        return false;
    }
    return true;
}

/* The workspace: the packed filter, then either the masks and the phase planes (stride
 * 2) or, for the padded mode, the grid vectors' offsets and store masks (soff, doff,
 * dmask) and the padded planes of a chunk of images with a tail of wg + 16 zeros (the
 * reads of a row's last vector's lanes past Q); each from a 64-byte boundary, the size
 * the larger of the two; NULL ws: sizes only. Returns the bytes. */
typedef struct {
    float *wp;
    uint16_t *masks;
    float *buf;
    ptrdiff_t *soff, *doff;
    uint16_t *dmask;
    float *pbuf;
} fewc_ws;

static int64_t pad_floats(const fewc_geom *f) { return f->pnbi * f->c * f->pscs + f->wg + LANES; }

static int64_t ws_layout(const fewc_geom *f, void *ws, fewc_ws *l)
{
    const int64_t wp = cdiv(f->k, MR) * MR * f->c * f->taps * (int64_t)sizeof(float);
    const int64_t masks = f->nvec * f->taps * (int64_t)sizeof(uint16_t);
    const int64_t split = f->split ? f->nbi * f->c * f->plane * (int64_t)sizeof(float) : 0;
    const int64_t o1 = cdiv(wp, 64) * 64, o2 = o1 + cdiv(masks, 64) * 64;
    const int64_t offs = cdiv(f->gvec * (int64_t)sizeof(ptrdiff_t), 64) * 64;
    const int64_t p2 = o1 + 2 * offs;
    const int64_t p3 = p2 + cdiv(f->gvec * (int64_t)sizeof(uint16_t), 64) * 64;
    const int64_t pend = f->s2reg    ? p3
                         : f->pad_ok ? p3 + pad_floats(f) * (int64_t)sizeof(float)
                                     : 0;
    if (ws) {
        l->wp = (float *)ws;
        l->masks = (uint16_t *)((char *)ws + o1);
        l->buf = (float *)((char *)ws + o2);
        l->soff = (ptrdiff_t *)((char *)ws + o1);
        l->doff = (ptrdiff_t *)((char *)ws + o1 + offs);
        l->dmask = (uint16_t *)((char *)ws + p2);
        l->pbuf = (float *)((char *)ws + p3);
    }
    return o2 + split > pend ? o2 + split : pend;
}

static size_t fewc_workspace(const void *prob)
{
    fewc_geom f;
    geom_of(prob, &f);
    return (size_t)ws_layout(&f, NULL, NULL);
}

/* Row y of channel c of image ni (of the chunk) into its phase planes at buf. */
static void split_row(const fewc_geom *f, const float *x, int64_t ni, int64_t c, int64_t y,
                      float *buf, pdnn_f32_deinterleave2_fn dei)
{
    const pdnn_conv_geom3 *G = &f->G;
    const int64_t H = G->in[1], W = G->in[2], Q = G->out[2];
    const int64_t sr = G->str[1], sc = G->str[2];
    /* the row's place among its row phase's rows (row phases one after the other) */
    const int64_t ph = y % sr, row = (ph ? (H + 1) / 2 : 0) + y / sr;
    const float *src = x + ni * G->xs[0] + c * G->xs[1] + y * G->xs[3];
    float *d = buf + (ni * f->c + c) * f->plane + row * Q;
    if (sc == 2)
        dei(src, (size_t)W, d, d + H * Q);
    else
        memcpy(d, src, (size_t)W * sizeof(float));
}

/* The taps' row and column offsets and extents in their source planes, for the masks. */
typedef struct {
    int32_t dr[PDNN_DWMF_TAPS], hr[PDNN_DWMF_TAPS], dc[PDNN_DWMF_TAPS], wc[PDNN_DWMF_TAPS];
} fewc_taps;

/* The source offsets toff of every tap (r s + q) from an output element, and what the
 * masks of the (grid vector, tap) pairs are built from (mask_range). */
static void taps_setup(const fewc_geom *f, ptrdiff_t *toff, fewc_taps *tx)
{
    const pdnn_conv_geom3 *G = &f->G;
    int32_t *dr = tx->dr, *hr = tx->hr, *dc = tx->dc, *wc = tx->wc;
    int64_t rbase[PDNN_DWMF_TAPS], cbase[PDNN_DWMF_TAPS]; /* phase planes' offsets */
    const int64_t Q = G->out[2];
    for (int64_t r = 0; r < f->r; r++) {
        int64_t ph, off, len;
        tap_phase(r, G->pad[1], G->str[1], G->in[1], &ph, &off, &len);
        dr[r] = (int32_t)off;
        hr[r] = (int32_t)len;
        rbase[r] = (ph ? (G->in[1] + 1) / 2 : 0) * Q; /* row phase 1 after phase 0's rows */
    }
    for (int64_t q = 0; q < f->s; q++) {
        int64_t ph, off, len;
        tap_phase(q, G->pad[2], G->str[2], G->in[2], &ph, &off, &len);
        dc[q] = (int32_t)off;
        wc[q] = (int32_t)len;
        cbase[q] = ph * G->in[1] * Q; /* column phase planes of H rows each */
    }
    /* in place (stride 1): rows W == Q apart, no phases */
    for (int64_t r = 0; r < f->r; r++)
        for (int64_t q = 0; q < f->s; q++)
            toff[r * f->s + q] = rbase[r] + cbase[q] + dr[r] * Q + dc[q];
}

/* The masks of grid vectors v0 <= v < v1 (every tap). */
static void mask_range(const fewc_geom *f, const fewc_taps *tx, int64_t v0, int64_t v1,
                       uint16_t *masks)
{
    const size_t Q = (size_t)f->G.out[2];
    pdnn_f32_dwmf_masks_range__avx512((size_t)f->npix, Q, Q, (size_t)f->r, tx->dr, tx->hr,
                                      (size_t)f->s, tx->dc, tx->wc, (size_t)v0, (size_t)v1,
                                      masks);
}

/* Padded mode: row i of the padded planes of row phase phr of channel c of image ni (of
 * the chunk at x), for u = ((ni C + c) sr + phr) hg + i: x's row y = (r_lo + i) sr + phr
 * split into its column phases at column -c_lo of their rows, zeros elsewhere (all of
 * them where y lies outside x). */
static void pad_row(const fewc_geom *f, const float *x, int64_t u, float *pbuf,
                    pdnn_f32_deinterleave2_fn dei)
{
    const pdnn_conv_geom3 *G = &f->G;
    const int64_t sr = G->str[1], sc = G->str[2], W = G->in[2], wg = f->wg;
    const int64_t i = u % f->hg, phr = u / f->hg % sr, c = u / (f->hg * sr) % f->c;
    const int64_t ni = u / (f->hg * sr * f->c), y = (f->r_lo + i) * sr + phr;
    const int64_t pl = f->hg * wg; /* one phase plane */
    float *d = pbuf + (ni * f->c + c) * f->pscs + phr * sc * pl + i * wg;
    if (y < 0 || y >= G->in[1]) {
        for (int64_t pc = 0; pc < sc; pc++) memset(d + pc * pl, 0, (size_t)wg * sizeof(float));
        return;
    }
    const float *src = x + ni * G->xs[0] + c * G->xs[1] + y * G->xs[3];
    const int64_t lo = -f->c_lo;
    if (sc == 2)
        dei(src, (size_t)W, d + lo, d + pl + lo);
    else
        memcpy(d + lo, src, (size_t)W * sizeof(float));
    for (int64_t pc = 0; pc < sc; pc++) {
        const int64_t len = (W - pc + sc - 1) / sc;
        memset(d + pc * pl, 0, (size_t)lo * sizeof(float));
        memset(d + pc * pl + lo + len, 0, (size_t)(wg - lo - len) * sizeof(float));
    }
}

/* The output grid (the padded mode, s2_exec): each grid vector's offset in the padded
 * planes (soff) and in y's output plane (doff), with its lanes inside the row (dmask). */
static void grid_setup(const fewc_geom *f, ptrdiff_t *soff, ptrdiff_t *doff, uint16_t *dmask)
{
    const pdnn_conv_geom3 *G = &f->G;
    const int64_t wg = f->wg, Q = G->out[2];
    for (int64_t v = 0; v < f->gvec; v++) {
        const int64_t oh = v / f->qv, ow = v % f->qv * LANES;
        const int64_t n = Q - ow < LANES ? Q - ow : LANES;
        soff[v] = (ptrdiff_t)(oh * wg + ow);
        doff[v] = (ptrdiff_t)(oh * G->ys[3] + ow);
        dmask[v] = (uint16_t)(n >= LANES ? 0xFFFFu : (1u << n) - 1u);
    }
}

/* Padded mode: the taps' offsets in the padded planes and the output grid. */
static void pad_setup(const fewc_geom *f, ptrdiff_t *toff, ptrdiff_t *soff, ptrdiff_t *doff,
                      uint16_t *dmask)
{
    const pdnn_conv_geom3 *G = &f->G;
    const int64_t wg = f->wg, pl = f->hg * wg;
    for (int64_t r = 0; r < f->r; r++) {
        int64_t phr, offr, len;
        tap_phase(r, G->pad[1], G->str[1], G->in[1], &phr, &offr, &len);
        for (int64_t q = 0; q < f->s; q++) {
            int64_t phc, offc;
            tap_phase(q, G->pad[2], G->str[2], G->in[2], &phc, &offc, &len);
            toff[r * f->s + q] = (phr * G->str[2] + phc) * pl + (offr - f->r_lo) * wg +
                                 (offc - f->c_lo);
        }
    }
    grid_setup(f, soff, doff, dmask);
}

/* The team of the padded mode and s2_exec: items (image, tile of NV grid vectors). */
static int grid_threads(const fewc_geom *f, int nthreads)
{
    const double work = (double)f->n * (double)f->k * (double)(f->c * f->taps) *
                        (double)f->gvec * LANES;
    return pdnn_par_threads(nthreads, f->n * cdiv(f->gvec, NV), work, FEWC_MIN_WORK_PER_THREAD);
}

/* Whether y lies beyond the caches (beta == 0): its whole vectors by non-temporal
 * stores (the padded mode, s2_exec). */
static int y_streams(const fewc_geom *f, float beta)
{
    return beta == 0.0f &&
           (double)f->n * (double)f->k * (double)f->npix * sizeof(float) > PDNN_CONV_STREAM_BYTES;
}

static pdnnStatus_t pad_exec(const fewc_geom *f, const pdnn_conv_args *arg, const pdnn_ctx *ctx,
                             const fewc_ws *l)
{
    const pdnn_conv_geom3 *G = &f->G;
    const int64_t kb = cdiv(f->k, MR), T = f->c * f->taps;
    ptrdiff_t toff[FEWC_RS_MAX];
    pad_setup(f, toff, l->soff, l->doff, l->dmask);
    float *pbuf = l->pbuf;
    memset(pbuf + f->pnbi * f->c * f->pscs, 0, (size_t)(f->wg + LANES) * sizeof(float));

    const int64_t tiles = cdiv(f->gvec, NV);
    const int nt = grid_threads(f, ctx->nthreads);
    const float *x = arg->src;
    float *y = arg->dst;
    const float alpha = (float)arg->alpha, beta = (float)arg->beta;
    const pdnn_f32_deinterleave2_fn dei = pdnn_f32_deinterleave2_select();
    const int64_t nbi = f->pnbi, rows = f->c * G->str[1] * f->hg;
    const float *wp = l->wp;
    const ptrdiff_t *soff = l->soff, *doff = l->doff;
    const uint16_t *dmask = l->dmask;

    const int stream = y_streams(f, beta);

#pragma omp parallel num_threads(nt) if (nt > 1)
    {
    for (int64_t n0 = 0; n0 < f->n; n0 += nbi) {
        const int64_t nimg = f->n - n0 < nbi ? f->n - n0 : nbi;
#pragma omp for schedule(static)
        for (int64_t u = 0; u < nimg * rows; u++) pad_row(f, x + n0 * G->xs[0], u, pbuf, dei);
#pragma omp for schedule(static)
        for (int64_t it = 0; it < nimg * tiles; it++) {
            const int64_t ni = it / tiles, v0 = (it % tiles) * NV;
            const int64_t nv = f->gvec - v0 < NV ? f->gvec - v0 : NV;
            const float *src = pbuf + ni * f->c * f->pscs;
            float *dst = y + (n0 + ni) * G->ys[0];
            for (int64_t b = 0; b < kb; b++) {
                const int64_t mr = f->k - b * MR < MR ? f->k - b * MR : MR;
                pdnn_f32_fewc_8x48_pad__avx512((size_t)mr, (size_t)nv, (size_t)f->c,
                                               (size_t)f->taps, src, (ptrdiff_t)f->pscs, toff,
                                               wp + b * T * MR, dst + b * MR * G->ys[1],
                                               (ptrdiff_t)G->ys[1], soff + v0, doff + v0,
                                               dmask + v0, alpha, beta, stream);
            }
        }
    }
    if (stream) atomic_thread_fence(memory_order_seq_cst); /* the streamed lines */
    }
    return PDNN_STATUS_SUCCESS;
}

/* Column stride 2, finite weights (f->s2reg): no copy of x; each tile's tap vectors
 * gathered from x in place into a stack buffer (their column phases made in registers,
 * fewc_ukernels.h's _s2_taps), then the _pad kernel over it for every block of 8
 * output channels. */
static pdnnStatus_t s2_exec(const fewc_geom *f, const pdnn_conv_args *arg, const pdnn_ctx *ctx,
                            const fewc_ws *l)
{
    const pdnn_conv_geom3 *G = &f->G;
    const int64_t kb = cdiv(f->k, MR), T = f->c * f->taps;
    grid_setup(f, l->soff, l->doff, l->dmask);
    ptrdiff_t toff[FEWC_RS_MAX];
    for (int64_t j = 0; j < f->taps; j++) toff[j] = (ptrdiff_t)(j * NV * LANES);
    const ptrdiff_t soff[NV] = {0, LANES, 2 * LANES};
    const int64_t tiles = cdiv(f->gvec, NV);
    const int nt = grid_threads(f, ctx->nthreads);
    pdnn_fewc_s2 g = {.x = arg->src, .xcs = (ptrdiff_t)G->xs[1], .xrs = (ptrdiff_t)G->xs[3],
                      .H = G->in[1], .W = G->in[2], .sr = G->str[1], .pt = G->pad[1],
                      .pl = G->pad[2], .nc = (size_t)f->c, .R = (size_t)f->r,
                      .S = (size_t)f->s, .qv = (size_t)f->qv};
    const float *x = arg->src;
    float *y = arg->dst;
    const float alpha = (float)arg->alpha, beta = (float)arg->beta;
    const int stream = y_streams(f, beta);
    const ptrdiff_t *doff = l->doff;
    const uint16_t *dmask = l->dmask;
#pragma omp parallel num_threads(nt) if (nt > 1) firstprivate(g)
    {
        _Alignas(64) float buf[FEWC_T_MAX * NV * LANES];
#pragma omp for schedule(static)
        for (int64_t it = 0; it < f->n * tiles; it++) {
            const int64_t ni = it / tiles, v0 = (it % tiles) * NV;
            const int64_t nv = f->gvec - v0 < NV ? f->gvec - v0 : NV;
            g.x = x + ni * G->xs[0];
            pdnn_f32_fewc_s2_taps__avx512(&g, (size_t)v0, (size_t)nv, buf);
            float *dst = y + ni * G->ys[0];
            for (int64_t b = 0; b < kb; b++) {
                const int64_t mr = f->k - b * MR < MR ? f->k - b * MR : MR;
                pdnn_f32_fewc_8x48_pad__avx512((size_t)mr, (size_t)nv, (size_t)f->c,
                                               (size_t)f->taps, buf,
                                               (ptrdiff_t)(f->taps * NV * LANES), toff,
                                               l->wp + b * T * MR, dst + b * MR * G->ys[1],
                                               (ptrdiff_t)G->ys[1], soff, doff + v0,
                                               dmask + v0, alpha, beta, stream);
            }
        }
        if (stream) atomic_thread_fence(memory_order_seq_cst); /* the streamed lines */
    }
    return PDNN_STATUS_SUCCESS;
}

static pdnnStatus_t fwd_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *arg = args;
    fewc_geom f;
    geom_of(p, &f);
    const pdnn_conv_geom3 *G = &f.G;
    if (f.n == 0 || f.k == 0 || f.npix == 0) return PDNN_STATUS_SUCCESS;
    const int64_t kb = cdiv(f.k, MR), T = f.c * f.taps;
    fewc_ws l = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    ws_layout(&f, ctx->ws, &l);
    float *wp = l.wp, *buf = l.buf;
    uint16_t *masks = l.masks;

    /* the filter: wp[(b T + c taps + j) 8 + i] = w of output channel 8 b + i, input
     * channel c, at the tap that source tap j = r s + q (row r, column q) meets (the
     * filter flipped for convolution), 0 for channels past K */
    const float *w = arg->wei;
    bool finite = true;
    for (int64_t b = 0; b < kb; b++)
        for (int64_t c = 0; c < f.c; c++)
            for (int64_t r = 0; r < f.r; r++)
                for (int64_t q = 0; q < f.s; q++) {
                    const int64_t wo = c * G->ws[1] + pdnn_dw_tap_off(p, G, r, q);
                    float *d = wp + ((b * f.c + c) * f.taps + r * f.s + q) * MR;
                    for (int64_t i = 0; i < MR; i++) {
                        const int64_t kk = b * MR + i;
                        d[i] = kk < f.k ? w[kk * G->ws[0] + wo] : 0.0f;
                        finite = finite && isfinite(d[i]);
                    }
                }
    if (f.pad_ok && finite)
        return f.s2reg ? s2_exec(&f, arg, ctx, &l) : pad_exec(&f, arg, ctx, &l);
    ptrdiff_t toff[FEWC_RS_MAX];
    fewc_taps tx;
    taps_setup(&f, toff, &tx);

    const int64_t tiles = cdiv(f.nvec, NV);
    const double work = (double)f.n * (double)f.k * (double)T * (double)f.npix;
    const int nt = pdnn_par_threads(ctx->nthreads, f.n * tiles, work, FEWC_MIN_WORK_PER_THREAD);
    const float *x = arg->src;
    float *y = arg->dst;
    const float alpha = (float)arg->alpha, beta = (float)arg->beta;
    const pdnn_f32_deinterleave2_fn dei = pdnn_f32_deinterleave2_select();
    const int64_t nbi = f.split ? f.nbi : f.n; /* images a chunk */
    const ptrdiff_t scs = f.split ? (ptrdiff_t)f.plane : (ptrdiff_t)G->xs[1];

#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        /* the masks, each thread a share of the vectors (one image: the share it computes
         * below, no barrier; else all of them before any image) */
        int64_t m0, m1;
        pdnn_par_share(f.nvec, &m0, &m1);
        mask_range(&f, &tx, m0, m1, masks);
        if (f.n > 1) {
#pragma omp barrier
        }
        for (int64_t n0 = 0; n0 < f.n; n0 += nbi) {
            const int64_t nimg = f.n - n0 < nbi ? f.n - n0 : nbi;
            if (f.split) {
#pragma omp for schedule(static)
                for (int64_t u = 0; u < nimg * f.c * G->in[1]; u++)
                    split_row(&f, x + n0 * G->xs[0], u / (f.c * G->in[1]), u / G->in[1] % f.c,
                              u % G->in[1], buf, dei);
            }
            /* the chunk's grid vectors in equal shares, each in tiles of up to NV within
             * an image */
            int64_t g0, g1;
            pdnn_par_share(nimg * f.nvec, &g0, &g1);
            for (int64_t gv = g0; gv < g1;) {
                const int64_t ni = gv / f.nvec, v0 = gv % f.nvec;
                int64_t nv = f.nvec - v0 < NV ? f.nvec - v0 : NV;
                if (nv > g1 - gv) nv = g1 - gv;
                const int64_t nlast = v0 + nv == f.nvec ? f.npix - (f.nvec - 1) * LANES : LANES;
                const int64_t f0 = v0 * LANES;
                const float *src = f.split ? buf + ni * f.c * f.plane + f0
                                           : x + (n0 + ni) * G->xs[0] + f0;
                float *dst = y + (n0 + ni) * G->ys[0] + f0;
                for (int64_t b = 0; b < kb; b++) {
                    const int64_t mr = f.k - b * MR < MR ? f.k - b * MR : MR;
                    pdnn_f32_fewc_8x48__avx512((size_t)mr, (size_t)nv, (size_t)f.c,
                                               (size_t)f.taps, src, scs, toff,
                                               masks + v0 * f.taps, wp + b * T * MR,
                                               dst + b * MR * G->ys[1], (ptrdiff_t)G->ys[1],
                                               (size_t)nlast, alpha, beta);
                }
                gv += nv;
            }
            if (f.split) {
#pragma omp barrier
            }
        }
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_fwd_cpu_direct_fewc = {
    "cpu:direct_fewc", PDNN_CONVOLUTION_FWD_ALGO_DIRECT, PDNN_ISA_AVX512,
    PDNN_IMPL_DETERMINISTIC, fwd_supports, fewc_workspace, fwd_exec,
};
