/* Convolutions with few input channels on zero-padded phase planes, AVX2
 * ("cpu:direct_fewc_pad": forward PDNN_CONVOLUTION_FWD_ALGO_DIRECT).
 *
 * The problems: FLOAT at the AVX2 level exactly (at AVX-512, cpu:direct_fewc's masked
 * 16-lane planes and the 64-lane GEMM tiles serve them), one group, 1 to FEWP_C_MAX
 * input channels, at least FEWP_K_MIN output channels, 1-d or 2-d, any stride up to
 * FEWP_STRIDE_MAX, any dilation and padding, at most FEWP_T_MAX filter taps over the
 * input channels, packed KCRS or KRSC filters, convolution or cross-correlation, y with a
 * unit column stride (x any strides). The first layers of image networks: LeNet's 5 x 5
 * 1 -> 32 on 28 x 28, VGG-16's 3 x 3 3 -> 64 on 224 x 224, MobileNet-v2's 3 x 3 stride-2
 * 3 -> 32 stem, ResNet-50's 7 x 7 stride-2 3 -> 64 stem.
 *
 * There im2col + GEMM packs columns of only C R S (9-147) elements, and a 6-row tile of
 * the 6 x 16 AVX2 kernel reloads them for every 6 output channels. Here every image is
 * first copied, zero-padded, into its stride-phase planes: plane (a, b) of channel c
 * holds padded x at rows i sh + a and columns j sw + b (sh, sw the strides), Pr rows of
 * Lp columns (Lp >= the output width rounded up to 8 plus the widest column reach), so
 * that tap (r, s) of output (p, q) reads plane ((r dh) mod sh, (s dw) mod sw) at row
 * p + floor(r dh / sh), column q + floor(s dw / sw): for 8 outputs of a row, 8
 * consecutive elements at a fixed offset from the output's flat position p Lp + q. The
 * micro-kernel (cpu/ukernels/pplane) keeps 4 output channels x
 * 3 vectors of 8 outputs in registers: per tap 3 unaligned loads, 4 broadcasts, 12
 * fused multiply-adds, no masks; a row's last vector stores its valid lanes only.
 * Padding taps add w * 0, as im2col's zeros do in the GEMM paths (an Inf or NaN weight
 * then also reaches border outputs; the reference skips them).
 *
 * Threads split the copy by plane rows, then (image, band of FEWP_BAND vectors) items,
 * every item computing all output channels in blocks of 4, each block over the band; every output is one chain of fused
 * multiply-adds over c, then the taps in filter order, so results do not depend on the
 * thread count; exact on small integers.
 *
 * Workspace: the filter in tap order (K x C x taps elements) and the phase
 * planes of a chunk of images (FEWP_CHUNK_BYTES, or one image). */
#include <stdint.h>
#include <string.h>

#include "core/par.h"
#include "core/registry.h"
#include "cpu/isa.h"
#include "cpu/ukernels/deinterleave/deinterleave.h"
#include "cpu/ukernels/pplane/pplane_ukernels.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_path.h"
#include "ops/conv/cpu/conv_cpu_gemm.h"

#define FEWP_C_MAX 4      /* input channels at most */
#define FEWP_K_MIN 8      /* output channels at least */
#define FEWP_T_MAX 256    /* filter taps over the input channels at most */
#define FEWP_STRIDE_MAX 4 /* stride along each dim at most (stride phases: up to 16) */
#define MR PDNN_PPLANE_MR
#define LANES 8
/* Vectors of 8 outputs an item, at most (a multiple of the kernel's 3): every block of 4
 * output channels runs over all of them before the next block, so that each output
 * plane is written along a contiguous stretch (planes a multiple of 4 KiB apart,
 * VGG-16's 224 x 224, fall into one L1 set: a tile of every channel at a time thrashed
 * it). Fewer where that leaves less than FEWP_ITEMS_PER_THREAD items a thread (the
 * bands change no sum). */
#define FEWP_BAND 48
#define FEWP_ITEMS_PER_THREAD 4
/* Multiply-adds below which one thread runs the call (a team costs a few us). */
#define FEWP_MIN_WORK_PER_THREAD (1 << 17)
/* Bytes of phase planes of a chunk of images, at most (one image at least), and of one
 * image's. */
#define FEWP_CHUNK_BYTES ((int64_t)2 << 20)
#define FEWP_IMAGE_BYTES_MAX ((int64_t)256 << 20)

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

typedef struct {
    pdnn_conv_geom3 G;
    int64_t n, c, k, r, s, taps, T; /* taps: r * s; T: c * taps */
    int64_t sh, sw;                 /* strides (phases a dim) */
    int64_t pr, lp;                 /* rows and row length of a phase plane */
    int64_t plane;                  /* elements of one image's planes */
    int64_t qv, nvec;               /* 8-output vectors a row, an image */
    int64_t nbi;                    /* images a chunk */
} fewp_geom;

static void geom_of(const pdnn_conv_problem *p, fewp_geom *f)
{
    pdnn_conv_widen(p, &f->G);
    const pdnn_conv_geom3 *G = &f->G;
    f->n = p->n;
    f->c = G->cg;
    f->k = G->kg;
    f->r = G->kern[1];
    f->s = G->kern[2];
    f->taps = f->r * f->s;
    f->T = f->c * f->taps;
    f->sh = G->str[1] > 0 ? G->str[1] : 1;
    f->sw = G->str[2] > 0 ? G->str[2] : 1;
    const int64_t maxr = (f->r - 1) * G->dil[1] / f->sh, maxc = (f->s - 1) * G->dil[2] / f->sw;
    f->pr = G->out[1] + maxr;
    f->lp = cdiv(cdiv(G->out[2], LANES) * LANES + maxc, LANES) * LANES;
    f->plane = f->c * f->sh * f->sw * f->pr * f->lp;
    f->qv = cdiv(G->out[2], LANES);
    f->nvec = G->out[1] * f->qv;
    const int64_t img = f->plane * (int64_t)sizeof(float);
    f->nbi = img > 0 && FEWP_CHUNK_BYTES / img > 1 ? FEWP_CHUNK_BYTES / img : 1;
    if (f->nbi > f->n) f->nbi = f->n > 0 ? f->n : 1;
}

static bool fwd_supports(const void *prob, const char **why)
{
    const pdnn_conv_problem *p = prob;
    if (!pdnn_conv_gemm_supports(p, PDNN_CONV_FWD, why)) return false;
    if (p->dtype != PDNN_DATA_FLOAT) {
        *why = "data type other than FLOAT";
        return false;
    }
    if (pdnn_cpu_isa() != PDNN_ISA_AVX2) {
        *why = "an AVX2 path: the CPU level in use is not AVX2 (AVX-512: cpu:direct_fewc)";
        return false;
    }
    fewp_geom f;
    geom_of(p, &f);
    const pdnn_conv_geom3 *G = &f.G;
    if (p->nsp > 2 || G->out[0] != 1 || G->kern[0] != 1) {
        *why = "more than 2 spatial dims";
        return false;
    }
    if (p->g != 1 || f.c > FEWP_C_MAX || f.k < FEWP_K_MIN) {
        *why = "not one group of 1-4 input channels and at least 8 output channels";
        return false;
    }
    for (int d = 1; d < 3; d++)
        if (G->str[d] < 1 || G->str[d] > FEWP_STRIDE_MAX || G->dil[d] < 1) {
            *why = "stride above 4";
            return false;
        }
    if (f.T > FEWP_T_MAX) {
        *why = "more than 256 filter taps over the input channels";
        return false;
    }
    if (G->ys[4] != 1 && G->out[2] > 1) {
        *why = "y's columns not contiguous (unit column stride)";
        return false;
    }
    if ((double)f.plane * sizeof(float) > (double)FEWP_IMAGE_BYTES_MAX) {
        *why = "phase planes of one image above 256 MiB";
        return false;
    }
    return true;
}

/* The workspace: the packed filter, then the phase planes, each from a 64-byte
 * boundary; NULL ws: sizes only. Returns the bytes. */
static int64_t ws_layout(const fewp_geom *f, void *ws, float **wp, float **buf)
{
    const int64_t wpb = f->k * f->T * (int64_t)sizeof(float);
    const int64_t o1 = cdiv(wpb, 64) * 64;
    if (ws) {
        *wp = (float *)ws;
        *buf = (float *)((char *)ws + o1);
    }
    return o1 + f->nbi * f->plane * (int64_t)sizeof(float);
}

static size_t fewp_workspace(const void *prob)
{
    fewp_geom f;
    geom_of(prob, &f);
    return (size_t)ws_layout(&f, NULL, NULL, NULL);
}

/* Plane row i of row phase a of channel c of image x (its sw column phases) into d (the
 * channel's planes of that image): padded x row i sh + a, column phases b at j sw + b. */
static void fill_row(const fewp_geom *f, const float *x, int64_t c, int64_t a, int64_t i,
                     float *d, pdnn_f32_deinterleave2_fn dei)
{
    const pdnn_conv_geom3 *G = &f->G;
    const int64_t H = G->in[1], W = G->in[2], pl = G->pad[2], lp = f->lp, sw = f->sw;
    const int64_t u = i * f->sh + a - G->pad[1]; /* x row */
    const int64_t pstride = f->pr * lp;          /* one plane */
    float *row0 = d + ((c * f->sh + a) * sw) * pstride + i * lp;
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
    if (sw <= 2 && xc == 1) {
        /* phase b holds x columns v = j sw + b - pl: its first, from column (pl + b') / sw
         * for the first x column of that phase */
        if (sw == 1) {
            memset(row0, 0, (size_t)(pl < lp ? pl : lp) * sizeof(float));
            if (v1 > 0) memcpy(row0 + pl, xr, (size_t)v1 * sizeof(float));
            const int64_t e = pl + v1 > 0 ? pl + v1 : 0;
            if (e < lp) memset(row0 + e, 0, (size_t)(lp - e) * sizeof(float));
            return;
        }
        float *pe = row0 + (pl % 2) * pstride, *po = row0 + ((pl + 1) % 2) * pstride;
        const int64_t je = pl / 2, jo = (pl + 1) / 2; /* first columns of x's even, odd */
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

static pdnnStatus_t fwd_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *arg = args;
    fewp_geom f;
    geom_of(p, &f);
    const pdnn_conv_geom3 *G = &f.G;
    if (f.n == 0 || f.k == 0 || f.nvec == 0) return PDNN_STATUS_SUCCESS;
    const int64_t kb = cdiv(f.k, MR), T = f.T;
    float *wp = NULL, *buf = NULL;
    ws_layout(&f, ctx->ws, &wp, &buf);

    /* the filter: wp[k T + c taps + r s + q] = w of output channel k, input channel c,
     * at the tap that source tap (r, q) meets (the filter flipped for convolution) */
    const float *w = arg->wei;
    for (int64_t k = 0; k < f.k; k++)
        for (int64_t c = 0; c < f.c; c++)
            for (int64_t r = 0; r < f.r; r++)
                for (int64_t q = 0; q < f.s; q++)
                    wp[k * T + (c * f.r + r) * f.s + q] =
                        w[k * G->ws[0] + c * G->ws[1] + pdnn_dw_tap_off(p, G, r, q)];
    /* tap (c, r, q): plane ((r dh) mod sh, (q dw) mod sw) of channel c, shifted by
     * floor(r dh / sh) rows and floor(q dw / sw) columns */
    ptrdiff_t toff[FEWP_T_MAX], woff[FEWP_T_MAX];
    const int64_t pstride = f.pr * f.lp;
    for (int64_t c = 0; c < f.c; c++)
        for (int64_t r = 0; r < f.r; r++)
            for (int64_t q = 0; q < f.s; q++) {
                const int64_t er = r * G->dil[1], ec = q * G->dil[2];
                const int64_t pl = (c * f.sh + er % f.sh) * f.sw + ec % f.sw;
                toff[(c * f.r + r) * f.s + q] =
                    (ptrdiff_t)(pl * pstride + er / f.sh * f.lp + ec / f.sw);
                woff[(c * f.r + r) * f.s + q] = (c * f.r + r) * f.s + q;
            }

    const double work = (double)f.n * (double)f.k * (double)T * (double)f.nvec * LANES;
    int64_t band = cdiv(cdiv(f.n * f.nvec, (int64_t)ctx->nthreads * FEWP_ITEMS_PER_THREAD), 3) * 3;
    band = band > FEWP_BAND ? FEWP_BAND : band;
    const int64_t bands = cdiv(f.nvec, band);
    const int nt = pdnn_par_threads(ctx->nthreads, f.n * bands, work, FEWP_MIN_WORK_PER_THREAD);
    const float *x = arg->src;
    float *y = arg->dst;
    const float alpha = (float)arg->alpha, beta = (float)arg->beta;
    const pdnn_f32_deinterleave2_fn dei = pdnn_f32_deinterleave2_select();
    const int64_t rows = f.c * f.sh * f.pr; /* plane rows to fill an image */
    const int64_t Q = G->out[2];

#pragma omp parallel num_threads(nt) if (nt > 1)
    for (int64_t n0 = 0; n0 < f.n; n0 += f.nbi) {
        const int64_t nimg = f.n - n0 < f.nbi ? f.n - n0 : f.nbi;
#pragma omp for schedule(static)
        for (int64_t u = 0; u < nimg * rows; u++) {
            const int64_t ni = u / rows, ci = u % rows / (f.sh * f.pr);
            const int64_t a = u % (f.sh * f.pr) / f.pr, i = u % f.pr;
            fill_row(&f, x + (n0 + ni) * G->xs[0], ci, a, i, buf + ni * f.plane, dei);
        }
#pragma omp for schedule(static)
        for (int64_t it = 0; it < nimg * bands; it++) {
            const int64_t ni = it / bands, v0 = it % bands * band;
            const int64_t nv = f.nvec - v0 < band ? f.nvec - v0 : band;
            const float *src[FEWP_BAND];
            float *dst[FEWP_BAND];
            size_t nval[FEWP_BAND];
            for (int64_t v = 0; v < nv; v++) {
                const int64_t oh = (v0 + v) / f.qv, q0 = (v0 + v) % f.qv * LANES;
                src[v] = buf + ni * f.plane + oh * f.lp + q0;
                dst[v] = y + (n0 + ni) * G->ys[0] + oh * G->ys[3] + q0;
                nval[v] = (size_t)(Q - q0 < LANES ? Q - q0 : LANES);
            }
            for (int64_t b = 0; b < kb; b++) {
                const int64_t mr = f.k - b * MR < MR ? f.k - b * MR : MR;
                if (b > 0)
                    for (int64_t v = 0; v < nv; v++) dst[v] += MR * G->ys[1];
                pdnn_f32_pplane_4x24__avx2((size_t)mr, (size_t)nv, 1, (size_t)T, src, 0, toff,
                                           wp + b * MR * T, T, 0, woff, dst, (ptrdiff_t)G->ys[1],
                                           nval, alpha, beta);
            }
        }
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_fwd_cpu_direct_fewc_pad = {
    "cpu:direct_fewc_pad", PDNN_CONVOLUTION_FWD_ALGO_DIRECT, PDNN_ISA_AVX2,
    PDNN_IMPL_DETERMINISTIC, fwd_supports, fewp_workspace, fwd_exec,
};
