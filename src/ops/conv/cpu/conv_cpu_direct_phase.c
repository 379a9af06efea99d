/* Backward data by stride phases on zero-padded dy planes, AVX2 ("cpu:direct_phase":
 * PDNN_CONVOLUTION_BWD_DATA_ALGO_0).
 *
 * The problems: FLOAT at the AVX2 level exactly (at AVX-512 the GEMM and Winograd paths
 * serve them), one group, 1-d or 2-d, stride 1 or 2 along each dim, any dilation and
 * padding, at most PHASE_TAPS_MAX filter taps a channel, packed KCRS or KRSC filters,
 * convolution or cross-correlation, dx with a unit column stride (dy any strides).
 *
 * dx(c, h, w) = sum_k sum_(r, s) w(k, c, r, s) dy(k, (h + pt - r dh) / sh,
 * (w + pl - s dw) / sw) over the taps whose quotients are whole and inside dy. Split dx by
 * stride phase (h = sh i + a, w = sw j + b): within phase (a, b) the taps that reach it
 * are fixed (those with (a + pt - r dh) mod sh == 0 and the like for columns), each a
 * fixed shift (dr, dc) of dy: dx_ab(c, i, j) = sum_k sum_taps w dy(k, i + dr, j + dc), a
 * correlation of dy with part of the filter, C output rows and K x taps long sums. Each
 * image's dy is first copied, zero-padded, into planes of Lp columns (Lp a multiple of
 * 8 past every vector's reach), so that 8 consecutive outputs of a phase row read 8
 * consecutive dy elements at each tap; the micro-kernel (cpu/ukernels/pplane) keeps 4 dx
 * channels x 3 vectors of 8 in registers, reading the filter in place (4 broadcasts a
 * tap, one from each channel's filter row: no transposed or packed copy, which at
 * minibatch 1 and 512 x 512 x 3 x 3 filters cost more than the arithmetic; the GEMM path
 * reads its columns across cache lines and pages). The sums go on in a scratch of the
 * dx phases, by chunks of PHASE_KC dy channels (a chunk's filter rows, a page or more
 * apart, stay in the TLB), and the phases are then written into dx (columns interleaved
 * at stride 2, rows by phase) with alpha and beta. The padding adds w * 0, as im2col's
 * zeros do in the GEMM paths.
 *
 * Threads split (image, block of 4 dx channels, phase, band of up to BAND vectors) items
 * in contiguous shares, each share by groups of GROUP_ITEMS items (their sums stay in
 * L2 while every chunk runs over them); every dx element is, per chunk, one chain of
 * fused multiply-adds over k (outer) and the phase's taps (inner) in filter order, added
 * to the running sum in chunk order (chunks fixed by K alone), so results do not depend
 * on the thread count; exact on small integers.
 *
 * Workspace: for a chunk of images (PHASE_CHUNK_BYTES, or one image), the padded dy
 * planes (K x rows x Lp) and the phase scratch (C x phases x rows x the phase width
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
#define MR PDNN_PPLANE_MR
#define LANES 8
#define BAND 48 /* vectors of 8 outputs a micro-kernel call at most (a multiple of 3) */
#define PHASE_KC 16 /* output channels (of dy) a chunk of the sums */
#define GROUP_ITEMS 16 /* items whose sums go on together (scratch <= 96 KiB) */
/* Multiply-adds below which one thread runs the call (a team costs a few us). */
#define PHASE_MIN_WORK_PER_THREAD (1 << 17)
#define PHASE_CHUNK_BYTES ((int64_t)4 << 20)
#define PHASE_IMAGE_BYTES_MAX ((int64_t)256 << 20)

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

typedef struct {
    int n;                       /* taps */
    int64_t toff[PHASE_TAPS_MAX]; /* dy offsets from the vector's base */
    int64_t woff[PHASE_TAPS_MAX]; /* filter offsets within a (k, c) */
} phase_taps;

typedef struct {
    pdnn_conv_geom3 G;
    int64_t n, c, k, sh, sw;
    int64_t hp[2], wp[2];  /* dx rows of row phase a, columns of column phase b */
    int64_t pt, pl;        /* dy rows (columns) of zeros before its first */
    int64_t pr, lp;        /* rows and row length of a padded dy plane */
    int64_t hm, wv;        /* scratch: rows (max hp), row length (max wp rounded to 8) */
    int64_t dyimg, scimg;  /* elements of an image's padded dy, scratch */
    int64_t nbi;           /* images a chunk */
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

static void geom_of(const pdnn_conv_problem *p, phase_geom *f)
{
    pdnn_conv_widen(p, &f->G);
    const pdnn_conv_geom3 *G = &f->G;
    f->n = p->n;
    f->c = G->cg;
    f->k = G->kg;
    f->sh = G->str[1] > 0 ? G->str[1] : 1;
    f->sw = G->str[2] > 0 ? G->str[2] : 1;
    /* the shifts' range over every phase: dy row i + shift for dx phase row i */
    int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, ext[3] = {0, 0, 0};
    for (int d = 1; d < 3; d++) {
        const int64_t st = G->str[d] > 0 ? G->str[d] : 1;
        bool any = false;
        for (int64_t a = 0; a < st && a < 2; a++) {
            int64_t tap[PHASE_TAPS_MAX], s[PHASE_TAPS_MAX];
            const int m = G->kern[d] <= PHASE_TAPS_MAX ? dim_taps(G, d, a, tap, s) : 0;
            const int64_t len = G->in[d] > a ? cdiv(G->in[d] - a, st) : 0;
            if (d == 1) f->hp[a] = len;
            else f->wp[a] = len;
            if (len > ext[d]) ext[d] = len;
            for (int i = 0; i < m; i++) {
                lo[d] = !any || s[i] < lo[d] ? s[i] : lo[d];
                hi[d] = !any || s[i] > hi[d] ? s[i] : hi[d];
                any = true;
            }
        }
        if (st < 2) {
            if (d == 1) f->hp[1] = 0;
            else f->wp[1] = 0;
        }
    }
    f->pt = lo[1] < 0 ? -lo[1] : 0;
    f->pl = lo[2] < 0 ? -lo[2] : 0;
    /* rows read: phase row i + shift + pt for i < ext, shift <= hi */
    f->pr = ext[1] + (hi[1] > 0 ? hi[1] : 0) + f->pt;
    f->wv = cdiv(ext[2], LANES) * LANES;
    f->lp = cdiv(f->wv + (hi[2] > 0 ? hi[2] : 0) + f->pl, LANES) * LANES;
    f->hm = ext[1];
    f->dyimg = f->k * f->pr * f->lp;
    f->scimg = f->sh * f->sw * f->c * f->hm * f->wv;
    const int64_t img = (f->dyimg + f->scimg) * (int64_t)sizeof(float);
    f->nbi = img > 0 && PHASE_CHUNK_BYTES / img > 1 ? PHASE_CHUNK_BYTES / img : 1;
    if (f->nbi > f->n) f->nbi = f->n > 0 ? f->n : 1;
}

static bool bwd_data_supports(const void *prob, const char **why)
{
    const pdnn_conv_problem *p = prob;
    if (!pdnn_conv_gemm_supports(p, PDNN_CONV_BWD_DATA, why)) return false;
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
    for (int d = 1; d < 3; d++)
        if (G->str[d] < 1 || G->str[d] > 2) {
            *why = "stride other than 1 or 2";
            return false;
        }
    if (G->kern[1] * G->kern[2] > PHASE_TAPS_MAX) {
        *why = "more than 64 filter taps a channel";
        return false;
    }
    if (G->xs[4] != 1 && G->in[2] > 1) {
        *why = "dx's columns not contiguous (unit column stride)";
        return false;
    }
    if ((double)(f.dyimg + f.scimg) * sizeof(float) > (double)PHASE_IMAGE_BYTES_MAX) {
        *why = "padded dy and phase scratch of one image above 256 MiB";
        return false;
    }
    return true;
}

static int64_t ws_bytes(const phase_geom *f)
{
    return f->nbi * (f->dyimg + f->scimg) * (int64_t)sizeof(float);
}

static size_t phase_workspace(const void *prob)
{
    phase_geom f;
    geom_of(prob, &f);
    return (size_t)ws_bytes(&f);
}

/* Padded dy row u of channel k of image dy into its plane row d. */
static void fill_row(const phase_geom *f, const float *dy, int64_t k, int64_t u, float *d)
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

/* The taps of dx phase (a, b): dy offsets (from the vector's base) and filter offsets. */
static void phase_setup(const pdnn_conv_problem *p, const phase_geom *f, int64_t a, int64_t b,
                        phase_taps *t)
{
    const pdnn_conv_geom3 *G = &f->G;
    int64_t rt[PHASE_TAPS_MAX], rs[PHASE_TAPS_MAX], ct[PHASE_TAPS_MAX], cs[PHASE_TAPS_MAX];
    const int mr = dim_taps(G, 1, a, rt, rs), mc = dim_taps(G, 2, b, ct, cs);
    t->n = 0;
    for (int i = 0; i < mr; i++)
        for (int j = 0; j < mc; j++) {
            t->toff[t->n] = rs[i] * f->lp + cs[j];
            t->woff[t->n] = pdnn_dw_tap_off(p, G, rt[i], ct[j]);
            t->n++;
        }
}

static pdnnStatus_t bwd_data_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *arg = args;
    phase_geom f;
    geom_of(p, &f);
    const pdnn_conv_geom3 *G = &f.G;
    const int64_t H = G->in[1], W = G->in[2];
    if (f.n == 0 || f.c == 0 || H * W == 0) return PDNN_STATUS_SUCCESS;
    const float *dy = arg->src, *w = arg->wei;
    float *dx = arg->dst;
    const float alpha = (float)arg->alpha, beta = (float)arg->beta;
    const int64_t nph = f.sh * f.sw, cb = cdiv(f.c, MR);

    phase_taps taps[4];
    int64_t nvec[4], qv[4];
    for (int64_t ph = 0; ph < nph; ph++) {
        phase_setup(p, &f, ph / f.sw, ph % f.sw, &taps[ph]);
        qv[ph] = cdiv(f.wp[ph % f.sw], LANES);
        nvec[ph] = f.hp[ph / f.sw] * qv[ph];
    }
    const double work = (double)f.n * (double)f.c * (double)f.k * (double)H * (double)W *
                        (double)(G->kern[1] * G->kern[2]) / (double)nph;
    int64_t vmax = 0;
    for (int64_t ph = 0; ph < nph; ph++) vmax = nvec[ph] > vmax ? nvec[ph] : vmax;
    const int64_t bands = cdiv(vmax, BAND), per_img = cb * nph * bands;
    const int nt = pdnn_par_threads(ctx->nthreads, f.n * per_img, work, PHASE_MIN_WORK_PER_THREAD);
    float *dyp = ctx->ws, *scr = dyp + f.nbi * f.dyimg;
    const pdnn_f32_interleave2_fn itl = pdnn_f32_interleave2_select();
    const int64_t dyrows = f.k * f.pr;

#pragma omp parallel num_threads(nt) if (nt > 1)
    for (int64_t n0 = 0; n0 < f.n; n0 += f.nbi) {
        const int64_t nimg = f.n - n0 < f.nbi ? f.n - n0 : f.nbi;
#pragma omp for schedule(static)
        for (int64_t u = 0; u < nimg * dyrows; u++) {
            const int64_t ni = u / dyrows, k = u % dyrows / f.pr, row = u % f.pr;
            fill_row(&f, dy + (n0 + ni) * G->ys[0], k, row,
                     dyp + ni * f.dyimg + (k * f.pr + row) * f.lp);
        }
        /* this thread's share of the (image, channel block, phase, band) items, in
         * groups of GROUP_ITEMS: every chunk of PHASE_KC output channels runs over the
         * group before the next (the chunk's filter rows, PHASE_KC pages apart, stay in
         * the TLB; the group's sums, going on in the scratch, in L2) */
        int64_t lo, hi;
        pdnn_par_share(nimg * per_img, &lo, &hi);
        for (int64_t g0 = lo; g0 < hi; g0 += GROUP_ITEMS) {
            const int64_t g1 = hi - g0 < GROUP_ITEMS ? hi : g0 + GROUP_ITEMS;
            for (int64_t k0 = 0; k0 < f.k; k0 += PHASE_KC) {
                const int64_t kc = f.k - k0 < PHASE_KC ? f.k - k0 : PHASE_KC;
                for (int64_t it = g0; it < g1; it++) {
                    const int64_t ni = it / per_img, c0 = it % per_img / (nph * bands) * MR;
                    const int64_t ph = it % (nph * bands) / bands, v0 = it % bands * BAND;
                    if (v0 >= nvec[ph]) continue;
                    const int64_t nv = nvec[ph] - v0 < BAND ? nvec[ph] - v0 : BAND;
                    const int64_t mr = f.c - c0 < MR ? f.c - c0 : MR;
                    const float *src[BAND];
                    float *dst[BAND];
                    size_t nval[BAND];
                    for (int64_t v = 0; v < nv; v++) {
                        const int64_t i = (v0 + v) / qv[ph], j0 = (v0 + v) % qv[ph] * LANES;
                        src[v] = dyp + ni * f.dyimg + (k0 * f.pr + i + f.pt) * f.lp + j0 + f.pl;
                        dst[v] = scr + ni * f.scimg + ((ph * f.c + c0) * f.hm + i) * f.wv + j0;
                        nval[v] = LANES;
                    }
                    const phase_taps *t = &taps[ph];
                    pdnn_f32_pplane_4x24__avx2(
                        (size_t)mr, (size_t)nv, (size_t)kc, (size_t)t->n, src,
                        (ptrdiff_t)(f.pr * f.lp), (const ptrdiff_t *)t->toff,
                        w + k0 * G->ws[0] + c0 * G->ws[1], (ptrdiff_t)G->ws[1],
                        (ptrdiff_t)G->ws[0], (const ptrdiff_t *)t->woff, dst,
                        (ptrdiff_t)(f.hm * f.wv), nval, 1.0f, k0 ? 1.0f : 0.0f);
                }
            }
        }
#pragma omp barrier
        /* the phases into dx's rows (columns interleaved at stride 2, rows by phase),
         * with alpha and beta */
#pragma omp for schedule(static)
        for (int64_t u = 0; u < nimg * f.c * H; u++) {
            const int64_t ni = u / (f.c * H), c = u / H % f.c, h = u % H;
            const int64_t a = h % f.sh, i = h / f.sh;
            const float *e = scr + ni * f.scimg + (((a * f.sw) * f.c + c) * f.hm + i) * f.wv;
            float *d = dx + (n0 + ni) * G->xs[0] + c * G->xs[1] + h * G->xs[3];
            if (f.sw == 2) {
                const float *o = e + f.c * f.hm * f.wv; /* column phase 1 */
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

const pdnn_impl pdnn_conv_bwd_data_cpu_direct_phase = {
    "cpu:direct_phase", PDNN_CONVOLUTION_BWD_DATA_ALGO_0, PDNN_ISA_AVX2,
    PDNN_IMPL_DETERMINISTIC, bwd_data_supports, phase_workspace, bwd_data_exec,
};
