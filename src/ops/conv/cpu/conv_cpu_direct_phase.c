/* Direct convolutions on zero-padded stride-phase planes, AVX2 ("cpu:direct_phase":
 * forward PDNN_CONVOLUTION_FWD_ALGO_DIRECT, backward data
 * PDNN_CONVOLUTION_BWD_DATA_ALGO_0).
 *
 * The problems: FLOAT at the AVX2 level exactly (at AVX-512, cpu:direct_fewc and the
 * GEMM and Winograd paths serve them), one group, no 1x1 filter (cpu:direct_1x1), 1-d or
 * 2-d, stride up to FWD_STRIDE_MAX (forward) or 2 (backward data) along each dim, any
 * dilation and padding, at most PHASE_TAPS_MAX filter taps a channel, packed KCRS or
 * KRSC filters, convolution or cross-correlation, the output (y; dx) with a unit column
 * stride, the input (x; dy) any strides. The cost model ranks the forward first for 1-4
 * input channels (the stems: LeNet's 5 x 5 1 -> 32, VGG-16's 3 x 3 3 -> 64,
 * MobileNet-v2's stride-2 3 -> 32, ResNet-50's 7 x 7 stride-2 3 -> 64, where im2col +
 * GEMM packs columns of only 9-147 elements) and the backward data for the stems and
 * the 3 x 3 layers with few columns (ResNet-50's on 7 x 7 - 14 x 14 at minibatch 1).
 *
 * Forward: each image's x is first copied, zero-padded, into its stride-phase planes:
 * plane (a, b) of channel c holds padded x at rows i sh + a and columns j sw + b, so that
 * tap (r, s) of output (p, q) reads plane ((r dh) mod sh, (s dw) mod sw) at row p +
 * floor(r dh / sh), column q + floor(s dw / sw): for 8 outputs of a row, 8 consecutive
 * elements at a fixed offset from the output's position.
 *
 * Backward data:
 * dx(c, h, w) = sum_k sum_(r, s) w(k, c, r, s) dy(k, (h + pt - r dh) / sh,
 * (w + pl - s dw) / sw) over the taps whose quotients are whole and inside dy. Split dx by
 * stride phase (h = sh i + a, w = sw j + b): within phase (a, b) the taps that reach it
 * are fixed (those with (a + pt - r dh) mod sh == 0 and the like for columns), each a
 * fixed shift (dr, dc) of dy: dx_ab(c, i, j) = sum_k sum_taps w dy(k, i + dr, j + dc), a
 * correlation of dy with part of the filter, C output rows and K x taps long sums. Each
 * image's dy is first copied, zero-padded, into planes of Lp columns (Lp a multiple of
 * 8 past every vector's reach), so that 8 consecutive outputs of a phase row read 8
 * consecutive dy elements at each tap.
 *
 * Both: the micro-kernel (cpu/ukernels/pplane) keeps 4 output channels x 3 vectors of 8
 * in registers, reading the filter in place (4 broadcasts a tap, one from each output
 * channel's filter row: no transposed or packed copy, which at minibatch 1 and 512 x 512
 * x 3 x 3 filters cost more than the arithmetic; GEMM's backward data reads its columns
 * across cache lines and pages); a row's last vector stores its valid lanes. With at
 * most PHASE_KC sum groups (input channels; dy channels) and one output phase the sums
 * are written to the output at once (alpha, beta); otherwise they go on in a scratch of
 * the output phases, by chunks of PHASE_KC groups (twice as many with several output
 * phases; a chunk's filter rows, a page or more apart, stay in the TLB), and the phases are then written into the output (columns
 * interleaved at stride 2, rows by phase) with alpha and beta. The padding adds w * 0, as
 * im2col's zeros do in the GEMM paths (an Inf or NaN weight then also reaches border
 * outputs; the reference skips them).
 *
 * Threads split (image, block of 4 output channels, phase, band of up to BAND vectors)
 * items in contiguous shares, each share by groups of GROUP_ITEMS items (their sums stay
 * in L2 while every chunk runs over them); every output element is, per chunk, one chain
 * of fused multiply-adds over the sum groups (outer) and the phase's taps (inner) in
 * filter order, added to the running sum in chunk order (chunks fixed by the problem
 * alone), so results do not depend on the thread count; exact on small integers.
 *
 * Workspace: for a chunk of images (PHASE_CHUNK_BYTES, or one image), the source planes
 * (forward: C x stride phases x rows x Lp; backward data: K x rows x Lp) and, unless
 * written at once, the scratch (output channels x phases x rows x the phase width
 * rounded up to 8). */
#include <string.h>

#include "core/par.h"
#include "core/registry.h"
#include "cpu/isa.h"
#include "cpu/ukernels/deinterleave/deinterleave.h"
#include "cpu/ukernels/pplane/pplane_ukernels.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_path.h"
#include "ops/conv/cpu/conv_cpu_gemm.h"

#define PHASE_TAPS_MAX 64 /* filter taps a channel at most */
#define FWD_STRIDE_MAX 4  /* forward: stride along each dim at most (x phases: up to 16) */
#define MR PDNN_PPLANE_MR
#define LANES 8
#define BAND 48 /* vectors of 8 outputs a micro-kernel call at most (a multiple of 3) */
/* Sum groups (dy channels; forward: x channels) a chunk of the sums; twice as many with
 * several output phases (each phase sums 1-4 taps a group: the scratch's loads and
 * stores weigh more; ResNet-50's res5a_branch2b at minibatch 1, 1 thread: 5.5 against
 * 6.0 ms; 4 times as many: no better) */
#define PHASE_KC 16
#define GROUP_ITEMS 16 /* items whose sums go on together (scratch <= 96 KiB) */
/* Multiply-adds below which one thread runs the call (a team costs a few us). */
#define PHASE_MIN_WORK_PER_THREAD (1 << 17)
#define PHASE_CHUNK_BYTES ((int64_t)4 << 20)
#define PHASE_IMAGE_BYTES_MAX ((int64_t)256 << 20)

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

typedef struct {
    int n;                        /* taps */
    int64_t toff[PHASE_TAPS_MAX]; /* source offsets from the vector's base */
    int64_t woff[PHASE_TAPS_MAX]; /* filter offsets within a (k, c) */
    bool wid;                     /* woff[j] == j (passed as NULL: a load less a tap) */
} phase_taps;

typedef struct {
    pdnn_conv_geom3 G;
    bool fwd;
    int64_t n, rows, groups;  /* output rows (K; backward data C), sum groups (C; K) */
    const int64_t *os;        /* the output's strides (y; dx) */
    int64_t H, W;             /* the output plane */
    int64_t osh, osw;         /* output phases along each dim (backward data: strides) */
    int64_t hp[2], wp[2];     /* output rows of row phase a, columns of column phase b */
    int64_t xsh, xsw;         /* forward: x's stride phases along each dim */
    int64_t pt, pl;           /* backward data: dy rows (columns) of zeros before */
    int64_t pr, lp;           /* rows and row length of a source plane */
    int64_t sgs;              /* source elements of one sum group */
    int64_t hm, wv;           /* scratch: rows (max hp), row length (max wp rounded to 8) */
    int64_t srcimg, scimg;    /* elements of an image's source planes, scratch */
    int64_t nbi;              /* images a chunk */
    bool direct;              /* one output phase and one chunk: sums stored in the output */
    int64_t wrs, wgs;         /* filter strides of an output row, of a sum group */
} phase_geom;

/* Dx row phase a along dim d: the taps t with (a + pad - t dil) mod st == 0 and their
 * shifts (a + pad - t dil) / st. Returns the count. */
static int dim_taps(const pdnn_conv_geom3 *G, int d, int64_t a, int64_t *tap, int64_t *sh)
{
    int m = 0;
    for (int64_t t = 0; t < G->kern[d]; t++) {
        const int64_t e = a + G->pad[d] - t * G->dil[d];
        if (((e % G->str[d]) + G->str[d]) % G->str[d]) continue;
        tap[m] = t;
        sh[m++] = e / G->str[d];
    }
    return m;
}

static void finish_geom(phase_geom *f)
{
    f->direct = f->osh * f->osw == 1 && f->groups <= PHASE_KC;
    f->scimg = f->direct ? 0 : f->osh * f->osw * f->rows * f->hm * f->wv;
    const int64_t img = (f->srcimg + f->scimg) * (int64_t)sizeof(float);
    f->nbi = img > 0 && PHASE_CHUNK_BYTES / img > 1 ? PHASE_CHUNK_BYTES / img : 1;
    if (f->nbi > f->n) f->nbi = f->n > 0 ? f->n : 1;
}

/* Forward: x copied into its stride-phase planes, plane (a, b) of channel c holding
 * padded x at rows i sh + a, columns j sw + b; tap (r, s) of output (p, q) reads plane
 * ((r dh) mod sh, (s dw) mod sw) at row p + floor(r dh / sh), column q + floor(s dw /
 * sw). */
static void geom_fwd(const pdnn_conv_problem *p, phase_geom *f)
{
    pdnn_conv_widen(p, &f->G);
    const pdnn_conv_geom3 *G = &f->G;
    f->fwd = true;
    f->n = p->n;
    f->rows = G->kg;
    f->groups = G->cg;
    f->os = G->ys;
    f->H = G->out[1];
    f->W = G->out[2];
    f->osh = f->osw = 1;
    f->hp[0] = f->H;
    f->wp[0] = f->W;
    f->hp[1] = f->wp[1] = 0;
    f->xsh = G->str[1] > 0 ? G->str[1] : 1;
    f->xsw = G->str[2] > 0 ? G->str[2] : 1;
    f->pt = f->pl = 0;
    const int64_t maxr = (G->kern[1] - 1) * G->dil[1] / f->xsh;
    const int64_t maxc = (G->kern[2] - 1) * G->dil[2] / f->xsw;
    f->pr = f->H + maxr;
    f->hm = f->H;
    f->wv = cdiv(f->W, LANES) * LANES;
    f->lp = cdiv(f->wv + maxc, LANES) * LANES;
    f->sgs = f->xsh * f->xsw * f->pr * f->lp;
    f->srcimg = f->groups * f->sgs;
    f->wrs = G->ws[0];
    f->wgs = G->ws[1];
    finish_geom(f);
}

/* Backward data: dy copied, zero-padded, into planes of lp columns. */
static void geom_bwd_data(const pdnn_conv_problem *p, phase_geom *f)
{
    pdnn_conv_widen(p, &f->G);
    const pdnn_conv_geom3 *G = &f->G;
    f->fwd = false;
    f->n = p->n;
    f->rows = G->cg;
    f->groups = G->kg;
    f->os = G->xs;
    f->H = G->in[1];
    f->W = G->in[2];
    f->osh = G->str[1] > 0 ? G->str[1] : 1;
    f->osw = G->str[2] > 0 ? G->str[2] : 1;
    f->xsh = f->xsw = 1;
    /* the shifts' range over every phase: dy row i + shift for dx phase row i */
    int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, ext[3] = {0, 0, 0};
    for (int d = 1; d < 3; d++) {
        const int64_t st = G->str[d] > 0 ? G->str[d] : 1;
        bool any = false;
        for (int64_t a = 0; a < 2; a++) {
            int64_t tap[PHASE_TAPS_MAX], s[PHASE_TAPS_MAX];
            const int m =
                a < st && G->kern[d] <= PHASE_TAPS_MAX ? dim_taps(G, d, a, tap, s) : 0;
            const int64_t len = a < st && G->in[d] > a ? cdiv(G->in[d] - a, st) : 0;
            if (d == 1)
                f->hp[a] = len;
            else
                f->wp[a] = len;
            if (len > ext[d]) ext[d] = len;
            for (int i = 0; i < m; i++) {
                lo[d] = !any || s[i] < lo[d] ? s[i] : lo[d];
                hi[d] = !any || s[i] > hi[d] ? s[i] : hi[d];
                any = true;
            }
        }
    }
    f->pt = lo[1] < 0 ? -lo[1] : 0;
    f->pl = lo[2] < 0 ? -lo[2] : 0;
    /* rows read: phase row i + shift + pt for i < ext, shift <= hi */
    f->pr = ext[1] + (hi[1] > 0 ? hi[1] : 0) + f->pt;
    f->hm = ext[1];
    f->wv = cdiv(ext[2], LANES) * LANES;
    f->lp = cdiv(f->wv + (hi[2] > 0 ? hi[2] : 0) + f->pl, LANES) * LANES;
    f->sgs = f->pr * f->lp;
    f->srcimg = f->groups * f->sgs;
    f->wrs = G->ws[1];
    f->wgs = G->ws[0];
    finish_geom(f);
}

static void geom_of(const pdnn_conv_problem *p, phase_geom *f)
{
    if (p->dir == PDNN_CONV_FWD)
        geom_fwd(p, f);
    else
        geom_bwd_data(p, f);
}

static bool phase_supports(const pdnn_conv_problem *p, pdnn_conv_dir dir, const char **why)
{
    if (!pdnn_conv_gemm_supports(p, dir, why)) return false;
    if (p->dtype != PDNN_DATA_FLOAT) {
        *why = "data type other than FLOAT";
        return false;
    }
    if (pdnn_cpu_isa() != PDNN_ISA_AVX2) {
        *why = "an AVX2 path: the CPU level in use is not AVX2";
        return false;
    }
    if (p->nsp > 2) {
        *why = "more than 2 spatial dims";
        return false;
    }
    if (p->g != 1) {
        *why = "more than one group";
        return false;
    }
    phase_geom f;
    geom_of(p, &f);
    const pdnn_conv_geom3 *G = &f.G;
    const int64_t smax = dir == PDNN_CONV_FWD ? FWD_STRIDE_MAX : 2;
    for (int d = 1; d < 3; d++)
        if (G->str[d] < 1 || G->str[d] > smax) {
            *why = dir == PDNN_CONV_FWD ? "stride above 4" : "stride other than 1 or 2";
            return false;
        }
    if (G->kern[1] * G->kern[2] > PHASE_TAPS_MAX) {
        *why = "more than 64 filter taps a channel";
        return false;
    }
    if (G->kern[1] * G->kern[2] == 1) {
        *why = "a 1 x 1 filter (cpu:direct_1x1)";
        return false;
    }
    if (f.os[4] != 1 && f.W > 1) {
        *why = dir == PDNN_CONV_FWD ? "y's columns not contiguous (unit column stride)"
                                    : "dx's columns not contiguous (unit column stride)";
        return false;
    }
    if ((double)(f.srcimg + f.scimg) * sizeof(float) > (double)PHASE_IMAGE_BYTES_MAX) {
        *why = "source planes and scratch of one image above 256 MiB";
        return false;
    }
    return true;
}

static bool fwd_supports(const void *prob, const char **why)
{
    return phase_supports(prob, PDNN_CONV_FWD, why);
}

static bool bwd_data_supports(const void *prob, const char **why)
{
    return phase_supports(prob, PDNN_CONV_BWD_DATA, why);
}

static size_t phase_workspace(const void *prob)
{
    phase_geom f;
    geom_of(prob, &f);
    return (size_t)(f.nbi * (f.srcimg + f.scimg) * (int64_t)sizeof(float));
}

/* Backward data: padded dy row u of channel k of image dy into its plane row d. */
static void fill_dy_row(const phase_geom *f, const float *dy, int64_t k, int64_t u, float *d)
{
    const pdnn_conv_geom3 *G = &f->G;
    const int64_t P = G->out[1], Q = G->out[2], row = u - f->pt;
    if (row < 0 || row >= P) {
        memset(d, 0, (size_t)f->lp * sizeof(float));
        return;
    }
    const float *s = dy + k * G->ys[1] + row * G->ys[3];
    int64_t n = f->lp - f->pl < Q ? f->lp - f->pl : Q; /* dy columns that land in the row */
    if (n < 0) n = 0;
    memset(d, 0, (size_t)(f->pl < f->lp ? f->pl : f->lp) * sizeof(float));
    if (G->ys[4] == 1)
        memcpy(d + f->pl, s, (size_t)n * sizeof(float));
    else
        for (int64_t j = 0; j < n; j++) d[f->pl + j] = s[j * G->ys[4]];
    if (f->pl + n < f->lp) memset(d + f->pl + n, 0, (size_t)(f->lp - f->pl - n) * sizeof(float));
}

/* Forward: plane row i of row phase a of channel c of image x (its column phases) into
 * d (the channel's planes of that image): padded x row i sh + a, column phase b at
 * columns j sw + b. */
static void fill_x_row(const phase_geom *f, const float *x, int64_t c, int64_t a, int64_t i,
                       float *d, pdnn_f32_deinterleave2_fn dei)
{
    const pdnn_conv_geom3 *G = &f->G;
    const int64_t H = G->in[1], W = G->in[2], pl = G->pad[2], lp = f->lp, sw = f->xsw;
    const int64_t u = i * f->xsh + a - G->pad[1]; /* x row */
    const int64_t pstride = f->pr * lp;           /* one plane */
    float *row0 = d + ((c * f->xsh + a) * sw) * pstride + i * lp;
    if (u < 0 || u >= H) {
        for (int64_t b = 0; b < sw; b++) memset(row0 + b * pstride, 0, (size_t)lp * sizeof(float));
        return;
    }
    const float *xr = x + c * G->xs[1] + u * G->xs[3];
    const ptrdiff_t xc = (ptrdiff_t)G->xs[4];
    /* x columns v < v1 land in the planes' first lp columns (v + pl < sw lp) */
    int64_t v1 = sw * lp - pl;
    if (v1 > W) v1 = W;
    if (v1 < 0) v1 = 0;
    if (sw == 1 && xc == 1) {
        memset(row0, 0, (size_t)(pl < lp ? pl : lp) * sizeof(float));
        if (v1 > 0) memcpy(row0 + pl, xr, (size_t)v1 * sizeof(float));
        const int64_t e = pl + v1 > 0 ? pl + v1 : 0;
        if (e < lp) memset(row0 + e, 0, (size_t)(lp - e) * sizeof(float));
        return;
    }
    if (sw == 2 && xc == 1) {
        /* x's even columns land in phase pl mod 2 from column pl / 2, its odd ones in
         * the other phase from column (pl + 1) / 2 */
        float *pe = row0 + (pl % 2) * pstride, *po = row0 + ((pl + 1) % 2) * pstride;
        const int64_t je = pl / 2, jo = (pl + 1) / 2;
        const int64_t ne = (v1 + 1) / 2, no = v1 / 2;
        if (v1 > 0) dei(xr, (size_t)v1, pe + je, po + jo);
        memset(pe, 0, (size_t)(je < lp ? je : lp) * sizeof(float));
        memset(po, 0, (size_t)(jo < lp ? jo : lp) * sizeof(float));
        if (je + ne < lp) memset(pe + je + ne, 0, (size_t)(lp - je - ne) * sizeof(float));
        if (jo + no < lp) memset(po + jo + no, 0, (size_t)(lp - jo - no) * sizeof(float));
        return;
    }
    for (int64_t b = 0; b < sw; b++) {
        float *pb = row0 + b * pstride;
        for (int64_t j = 0; j < lp; j++) {
            const int64_t v = j * sw + b - pl;
            pb[j] = v >= 0 && v < W ? xr[v * xc] : 0.0f;
        }
    }
}

/* The taps of output phase (a, b): source offsets (from the vector's base) and filter
 * offsets. */
static void phase_setup(const pdnn_conv_problem *p, const phase_geom *f, int64_t a, int64_t b,
                        phase_taps *t)
{
    const pdnn_conv_geom3 *G = &f->G;
    t->n = 0;
    if (f->fwd) {
        for (int64_t r = 0; r < G->kern[1]; r++)
            for (int64_t q = 0; q < G->kern[2]; q++) {
                const int64_t er = r * G->dil[1], ec = q * G->dil[2];
                const int64_t pl = er % f->xsh * f->xsw + ec % f->xsw;
                t->toff[t->n] = pl * f->pr * f->lp + er / f->xsh * f->lp + ec / f->xsw;
                t->woff[t->n] = pdnn_dw_tap_off(p, G, r, q);
                t->n++;
            }
        t->wid = true;
        for (int j = 0; j < t->n; j++) t->wid = t->wid && t->woff[j] == j;
        return;
    }
    t->wid = false;
    int64_t rt[PHASE_TAPS_MAX], rs[PHASE_TAPS_MAX], ct[PHASE_TAPS_MAX], cs[PHASE_TAPS_MAX];
    const int mr = dim_taps(G, 1, a, rt, rs), mc = dim_taps(G, 2, b, ct, cs);
    for (int i = 0; i < mr; i++)
        for (int j = 0; j < mc; j++) {
            t->toff[t->n] = rs[i] * f->lp + cs[j];
            t->woff[t->n] = pdnn_dw_tap_off(p, G, rt[i], ct[j]);
            t->n++;
        }
}

static pdnnStatus_t phase_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *arg = args;
    phase_geom f;
    geom_of(p, &f);
    const pdnn_conv_geom3 *G = &f.G;
    const int64_t H = f.H, W = f.W;
    if (f.n == 0 || f.rows == 0 || H * W == 0) return PDNN_STATUS_SUCCESS;
    const float *src = arg->src, *w = arg->wei;
    float *out = arg->dst;
    const float alpha = (float)arg->alpha, beta = (float)arg->beta;
    const int64_t nph = f.osh * f.osw, cb = cdiv(f.rows, MR);

    phase_taps taps[4];
    int64_t nvec[4], qv[4];
    for (int64_t ph = 0; ph < nph; ph++) {
        phase_setup(p, &f, ph / f.osw, ph % f.osw, &taps[ph]);
        qv[ph] = cdiv(f.wp[ph % f.osw], LANES);
        nvec[ph] = f.hp[ph / f.osw] * qv[ph];
    }
    int64_t vmax = 0;
    for (int64_t ph = 0; ph < nph; ph++) vmax = nvec[ph] > vmax ? nvec[ph] : vmax;
    /* bands: BAND vectors, fewer where that leaves less than 4 items a thread (they
     * change no sum) */
    int64_t band = cdiv(vmax < BAND ? vmax : BAND, 3) * 3;
    while (band > 3 && f.n * cb * nph * cdiv(vmax, band) < 4 * (int64_t)ctx->nthreads) band -= 3;
    const int64_t bands = cdiv(vmax, band), per_img = cb * nph * bands;
    const double work = (double)f.n * (double)f.rows * (double)f.groups * (double)H *
                        (double)W * (double)(G->kern[1] * G->kern[2]) / (double)nph;
    const int nt = pdnn_par_threads(ctx->nthreads, f.n * per_img, work, PHASE_MIN_WORK_PER_THREAD);
    float *sp = ctx->ws, *scr = sp + f.nbi * f.srcimg;
    const pdnn_f32_interleave2_fn itl = pdnn_f32_interleave2_select();
    const pdnn_f32_deinterleave2_fn dei = pdnn_f32_deinterleave2_select();
    /* source rows to fill an image: forward (channel, row phase, plane row), backward
     * data (dy channel, plane row) */
    const int64_t srows = f.fwd ? f.groups * f.xsh * f.pr : f.groups * f.pr;
    const int64_t kchunk = f.direct ? f.groups : nph > 1 ? 2 * PHASE_KC : PHASE_KC;
    const int64_t *os = f.os;

#pragma omp parallel num_threads(nt) if (nt > 1)
    for (int64_t n0 = 0; n0 < f.n; n0 += f.nbi) {
        const int64_t nimg = f.n - n0 < f.nbi ? f.n - n0 : f.nbi;
#pragma omp for schedule(static)
        for (int64_t u = 0; u < nimg * srows; u++) {
            const int64_t ni = u / srows, r = u % srows;
            const float *s = src + (n0 + ni) * (f.fwd ? G->xs[0] : G->ys[0]);
            if (f.fwd)
                fill_x_row(&f, s, r / (f.xsh * f.pr), r % (f.xsh * f.pr) / f.pr, r % f.pr,
                           sp + ni * f.srcimg, dei);
            else
                fill_dy_row(&f, s, r / f.pr, r % f.pr, sp + ni * f.srcimg + r * f.lp);
        }
        /* this thread's share of the (image, block of 4 output rows, phase, band) items,
         * in groups of GROUP_ITEMS: every chunk of PHASE_KC sum groups runs over the
         * group before the next (the chunk's filter rows, up to a page or more apart,
         * stay in the TLB; the group's sums, going on in the scratch, in L2) */
        int64_t lo, hi;
        pdnn_par_share(nimg * per_img, &lo, &hi);
        for (int64_t g0 = lo; g0 < hi; g0 += GROUP_ITEMS) {
            const int64_t g1 = hi - g0 < GROUP_ITEMS ? hi : g0 + GROUP_ITEMS;
            for (int64_t k0 = 0; k0 < f.groups; k0 += kchunk) {
                const int64_t kc = f.groups - k0 < kchunk ? f.groups - k0 : kchunk;
                for (int64_t it = g0; it < g1; it++) {
                    const int64_t ni = it / per_img, c0 = it % per_img / (nph * bands) * MR;
                    const int64_t ph = it % (nph * bands) / bands, v0 = it % bands * band;
                    if (v0 >= nvec[ph]) continue;
                    const int64_t nv = nvec[ph] - v0 < band ? nvec[ph] - v0 : band;
                    const int64_t mr = f.rows - c0 < MR ? f.rows - c0 : MR;
                    const int64_t wb = f.wp[ph % f.osw];
                    const float *sv[BAND];
                    float *dv[BAND];
                    size_t nval[BAND];
                    /* vector v0 + v at phase row i, column j0 (stepped: no divisions) */
                    int64_t i = v0 / qv[ph], j0 = v0 % qv[ph] * LANES;
                    for (int64_t v = 0; v < nv; v++, j0 += LANES) {
                        if (j0 >= qv[ph] * LANES) {
                            j0 = 0;
                            i++;
                        }
                        sv[v] = sp + ni * f.srcimg + k0 * f.sgs + (i + f.pt) * f.lp + j0 + f.pl;
                        if (f.direct) {
                            dv[v] = out + (n0 + ni) * os[0] + c0 * os[1] + i * os[3] + j0;
                            nval[v] = (size_t)(wb - j0 < LANES ? wb - j0 : LANES);
                        } else {
                            dv[v] = scr + ni * f.scimg + ((ph * f.rows + c0) * f.hm + i) * f.wv + j0;
                            nval[v] = LANES;
                        }
                    }
                    const phase_taps *t = &taps[ph];
                    pdnn_f32_pplane_4x24__avx2(
                        (size_t)mr, (size_t)nv, (size_t)kc, (size_t)t->n, sv, (ptrdiff_t)f.sgs,
                        (const ptrdiff_t *)t->toff, w + k0 * f.wgs + c0 * f.wrs,
                        (ptrdiff_t)f.wrs, (ptrdiff_t)f.wgs, t->wid ? NULL : (const ptrdiff_t *)t->woff, dv,
                        f.direct ? (ptrdiff_t)os[1] : (ptrdiff_t)(f.hm * f.wv), nval,
                        f.direct ? alpha : 1.0f, f.direct ? beta : k0 ? 1.0f : 0.0f);
                }
            }
        }
        /* every share done before the scratch is read or the planes refilled */
#pragma omp barrier
        if (f.direct) continue; /* (the team agrees: f is the same for all) */
        /* the phases into the output's rows (columns interleaved at stride 2, rows by
         * phase), with alpha and beta */
#pragma omp for schedule(static)
        for (int64_t u = 0; u < nimg * f.rows * H; u++) {
            const int64_t ni = u / (f.rows * H), c = u / H % f.rows, h = u % H;
            const int64_t a = h % f.osh, i = h / f.osh;
            const float *e = scr + ni * f.scimg + (((a * f.osw) * f.rows + c) * f.hm + i) * f.wv;
            float *d = out + (n0 + ni) * os[0] + c * os[1] + h * os[3];
            if (f.osw == 2) {
                const float *o = e + f.rows * f.hm * f.wv; /* column phase 1 */
                if (alpha == 1.0f && beta == 0) {
                    itl(e, o, (size_t)W, d);
                    continue;
                }
                for (int64_t x = 0; x < W; x++) {
                    const float v = alpha * (x % 2 ? o[x / 2] : e[x / 2]);
                    d[x] = beta != 0 ? v + beta * d[x] : v;
                }
            } else if (alpha == 1.0f && beta == 0) {
                memcpy(d, e, (size_t)W * sizeof(float));
            } else {
                for (int64_t x = 0; x < W; x++) {
                    const float v = alpha * e[x];
                    d[x] = beta != 0 ? v + beta * d[x] : v;
                }
            }
        }
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_fwd_cpu_direct_phase = {
    "cpu:direct_phase", PDNN_CONVOLUTION_FWD_ALGO_DIRECT, PDNN_ISA_AVX2,
    PDNN_IMPL_DETERMINISTIC, fwd_supports, phase_workspace, phase_exec,
};

const pdnn_impl pdnn_conv_bwd_data_cpu_direct_phase = {
    "cpu:direct_phase", PDNN_CONVOLUTION_BWD_DATA_ALGO_0, PDNN_ISA_AVX2,
    PDNN_IMPL_DETERMINISTIC, bwd_data_supports, phase_workspace, phase_exec,
};
