/* Depthwise convolution on masked flat planes (conv_cpu_direct_dw_flat.h), AVX-512, stride
 * 1 with the output width equal to the input width ("same" columns; rows any): each NCHW
 * plane is one flat 1-d signal read in place, no transposes and no padded copy. The
 * destination plane (flat index f = i W + j) gets 16 elements a vector; tap t reads the
 * source plane at the fixed flat offset toff[t] = dr W + dc from f, under a mask of the
 * lanes whose source pixel lies inside it (row i + dr in [0, rows), column j + dc in
 * [0, W)): one masked load and one masked fused multiply-add a tap and vector, the masks
 * built once a call for every (vector, tap) (dwmf_ukernels.h). Padding taps add nothing.
 * 3 x 3 filters at unit dilation with padding 1 before (MobileNet's depthwise layers) take
 * planes of up to MF_GRID3_MAX elements (112 x 112: the channel-block path's packing cost
 * more). Taps are listed by increasing flat offset (backward data: the rotated filter's
 * order). (A kernel loading each tap row's source vector once and making its column taps
 * by lane shifts measured 5% faster on 56 x 56 planes in L2 but 10-30% slower at
 * minibatch 32, one plane's three row streams at a time against the masked loads' two
 * planes: not kept.)
 *  - forward: source x, destination y, dr = r dil - pad (rows), dc likewise;
 *  - backward data: the correlation of dy with the rotated filter, dr = pad - r dil;
 *  - backward filter: the forward's geometry, each tap's sums kept as 16 lanes (in
 *    registers) over the images in order and the plane, then the lanes summed in a fixed
 *    tree.
 * Threads split (image, channel) planes (forward, backward data; calls of up to MF_GROUP
 * consecutive channels, no software prefetch: planes lie back to back, a stream the
 * hardware follows; prefetching the next call's 7x7 planes measured 10% slower) or pairs
 * of channels (backward filter; small planes prefetched two images ahead in the kernel);
 * every output is one chain in an order fixed by the problem, so results do not depend on
 * the thread count; exact on small integers. */
#include <stdint.h>

#include "core/par.h"
#include "cpu/isa.h"
#include "cpu/ukernels/dwconv/dwmf_ukernels.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_flat.h"

#define L PDNN_DWMF_LANES
#define MF_TAPS PDNN_DWMF_TAPS
/* Destination plane elements at most (its masks table on the stack). */
#define MF_GRID_MAX 4096
/* ... and for 3 x 3 filters at unit dilation and padding 1 */
#define MF_GRID3_MAX 16384
#define MF_MASKS (MF_GRID_MAX / L * MF_TAPS > MF_GRID3_MAX / L * 9 ? MF_GRID_MAX / L * MF_TAPS \
                                                                  : MF_GRID3_MAX / L * 9)
#define MF_GROUP 8 /* planes a kernel call (forward, backward data) */
/* Where the other NCHW paths of conv_cpu_direct_dw_cb.c measure faster (1 thread,
 * MobileNet-v2 3x3 layers): forward and backward data of destination planes of
 * (MF_MID_LO, MF_MID_HI] elements with rows of at least 16 (cb_flat's padded rows share
 * each row's loads between 3 outputs: 28x28 at minibatch 32 1.8 vs 1.95 ms forward, 1.8 vs
 * 2.2 backward data); backward filter of fewer than MF_W_MIN output pixels a channel (all
 * images; channel blocks: 7x7 at minibatch 1 32 vs 38 us) or planes of (MF_W_LO, MF_MID_LO]
 * (cb_flatw's shared row loads: 14x14 at minibatch 32 1.0 vs 1.2 ms). */
#define MF_MID_LO 256
#define MF_MID_HI 1024
#define MF_W_MIN 784
#define MF_W_LO 128

/* The taps of a plane: t = r nc + c over the tap rows r < nr and columns c < nc. */
typedef struct {
    int nr, nc;
    int32_t dr[MF_TAPS], hr[MF_TAPS], dc[MF_TAPS], wc[MF_TAPS];
    ptrdiff_t rbase[MF_TAPS], cbase[MF_TAPS]; /* source offsets of a row / column */
    int64_t fr[MF_TAPS], fc[MF_TAPS];         /* filter row / column of a tap row / column */
    int64_t nout, W;                          /* destination elements, width (pitch) */
    int64_t ntap;
    ptrdiff_t toff[MF_TAPS];
    int64_t wo[MF_TAPS]; /* filter offset within a channel */
    bool wseq;           /* a channel's taps back to back in tap order (wo[t] == t) */
    uint16_t *masks;
} mf_grid;

static int64_t mf_min(int64_t a, int64_t b) { return a < b ? a : b; }

/* One axis: k taps of dilation d, padding pad, over a source axis of n elements (pitch P);
 * filter tap r's offset sg (r d - pad) (sg = 1: forward; -1: backward data), listed by
 * increasing offset (backward data: filter taps from the last). */
static void mf_axis(int64_t k, int64_t d, int64_t pad, int64_t sg, int64_t n, int64_t P,
                    int32_t *dv, int32_t *hv, ptrdiff_t *base, int64_t *f)
{
    for (int64_t i = 0; i < k; i++) {
        const int64_t r = sg > 0 ? i : k - 1 - i, u = sg * (r * d - pad);
        dv[i] = (int32_t)u;
        hv[i] = (int32_t)n;
        base[i] = (ptrdiff_t)(u * P);
        f[i] = r;
    }
}

/* The problem's geometry in R (masks in masks); false, when it is outside this file's set:
 * f32 at AVX-512, multiplier 1, 1-d or 2-d, stride 1, output width = input width, planes
 * flat (rows back to back, unit column strides, not channels-last), at most MF_TAPS taps
 * and MF_GRID_MAX destination elements, not where the other paths are faster (above). */
static bool mf_geom(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G, bool bwd, mf_grid *R,
                    uint16_t *masks)
{
    if (p->dtype != PDNN_DATA_FLOAT || p->c != p->g || p->k != p->g || p->g == 0) return false;
    if (pdnn_cpu_isa() < PDNN_ISA_AVX512) return false;
    if (G->kern[0] != 1 || G->in[0] != 1 || G->out[0] != 1 || G->pad[0] != 0) return false;
    if (G->xs[4] != 1 || G->ys[4] != 1 || (G->xs[1] == 1 && G->ys[1] == 1)) return false;
    if (G->str[1] != 1 || G->str[2] != 1 || G->kern[1] * G->kern[2] > MF_TAPS) return false;
    const int64_t H = G->in[1], W = G->in[2], OH = G->out[1];
    if (G->out[2] != W || (H > 1 && G->xs[3] != W) || (OH > 1 && G->ys[3] != W)) return false;
    const int64_t sh = bwd ? OH : H, dh = bwd ? H : OH, sg = bwd ? -1 : 1;
    R->nout = dh * W;
    R->W = W;
    const bool k3 = G->kern[1] == 3 && G->kern[2] == 3 && G->dil[1] == 1 && G->dil[2] == 1 &&
                    G->pad[1] == 1 && G->pad[2] == 1;
    if (R->nout > (k3 ? MF_GRID3_MAX : MF_GRID_MAX)) return false;
    R->nr = (int)G->kern[1];
    R->nc = (int)G->kern[2];
    mf_axis(G->kern[1], G->dil[1], G->pad[1], sg, sh, W, R->dr, R->hr, R->rbase, R->fr);
    mf_axis(G->kern[2], G->dil[2], G->pad[2], sg, W, 1, R->dc, R->wc, R->cbase, R->fc);
    R->ntap = (int64_t)R->nr * R->nc;
    for (int r = 0; r < R->nr; r++)
        for (int c = 0; c < R->nc; c++) {
            R->toff[r * R->nc + c] = R->rbase[r] + R->cbase[c];
            R->wo[r * R->nc + c] = pdnn_dw_tap_off(p, G, R->fr[r], R->fc[c]);
        }
    if (p->dir == PDNN_CONV_BWD_FILTER) {
        if (p->n * R->nout < MF_W_MIN || (R->nout > MF_W_LO && R->nout <= MF_MID_LO)) return false;
    } else if (R->nout > MF_MID_LO && R->nout <= MF_MID_HI && W >= 16) {
        return false;
    }
    R->wseq = true;
    for (int64_t t = 0; t < R->ntap; t++) R->wseq = R->wseq && R->wo[t] == t;
    R->masks = masks;
    pdnn_f32_dwmf_masks__avx512((size_t)R->nout, (size_t)W, (size_t)W, (size_t)R->nr, R->dr,
                                R->hr, (size_t)R->nc, R->dc, R->wc, masks);
    return true;
}

static int mf_threads(int nthreads, int64_t units, double work)
{
    return pdnn_par_threads(nthreads, units, work, 32768.0);
}

/* Forward (src x, dst y) or backward data (src dy, dst dx). */
static bool mf_conv(const pdnn_conv_problem *p, bool bwd, const float *src, const float *w,
                    float *dst, float alpha, float beta, int nthreads)
{
    pdnn_conv_geom3 G;
    pdnn_conv_widen(p, &G);
    uint16_t masks[MF_MASKS];
    mf_grid R;
    if (!mf_geom(p, &G, bwd, &R, masks)) return false;
    const int64_t *ss = bwd ? G.ys : G.xs, *ds = bwd ? G.xs : G.ys;
    const int64_t C = p->g, units = p->n * C;
    const int nt = mf_threads(nthreads, units, (double)units * R.nout * R.ntap);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        float wb[MF_GROUP * MF_TAPS];
        int64_t u0, u1;
        pdnn_par_share(units, &u0, &u1);
        for (int64_t u = u0; u < u1;) {
            const int64_t n = u / C, c = u % C, np = mf_min(MF_GROUP, mf_min(C - c, u1 - u));
            ptrdiff_t wcs;
            const float *wp = pdnn_dw_taps(w, G.ws[0], c, np, R.wo, R.ntap, R.wseq, wb, &wcs);
            const float *s = src + n * ss[0] + c * ss[1];
            float *d = dst + n * ds[0] + c * ds[1];
            pdnn_f32_dwmf_conv__avx512((size_t)np, s, (ptrdiff_t)ss[1], (size_t)R.ntap, R.toff,
                                       R.masks, wp, wcs, (size_t)R.nout, d, (ptrdiff_t)ds[1],
                                       alpha, beta);
            u += np;
        }
    }
    return true;
}

bool pdnn_dwmf_applies(const pdnn_conv_problem *p)
{
    pdnn_conv_geom3 G;
    pdnn_conv_widen(p, &G);
    uint16_t masks[MF_MASKS];
    mf_grid R;
    return mf_geom(p, &G, p->dir == PDNN_CONV_BWD_DATA, &R, masks);
}

bool pdnn_dwmf_fwd(const pdnn_conv_problem *p, const float *x, const float *w, float *y,
                   float alpha, float beta, int nthreads)
{
    return mf_conv(p, false, x, w, y, alpha, beta, nthreads);
}

bool pdnn_dwmf_bwd_data(const pdnn_conv_problem *p, const float *dy, const float *w, float *dx,
                        float alpha, float beta, int nthreads)
{
    return mf_conv(p, true, dy, w, dx, alpha, beta, nthreads);
}

bool pdnn_dwmf_bwd_filter(const pdnn_conv_problem *p, const float *x, const float *dy,
                          float *dw, float alpha, float beta, int nthreads)
{
    pdnn_conv_geom3 G;
    pdnn_conv_widen(p, &G);
    uint16_t masks[MF_MASKS];
    mf_grid R;
    if (!mf_geom(p, &G, false, &R, masks)) return false;
    const int64_t C = p->g, units = (C + 1) / 2, T = R.ntap;
    const int nt = mf_threads(nthreads, units, (double)p->n * C * R.nout * T);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        float sum[2 * MF_TAPS];
        int64_t u0, u1;
        pdnn_par_share(units, &u0, &u1);
        for (int64_t u = u0; u < u1; u++) {
            const int64_t c = 2 * u, np = mf_min(2, C - c);
            pdnn_f32_dwmf_bwdf__avx512((size_t)np, x + c * G.xs[1], (ptrdiff_t)G.xs[1],
                                       (ptrdiff_t)G.xs[0], (size_t)T, R.toff, R.masks,
                                       dy + c * G.ys[1], (ptrdiff_t)G.ys[1], (ptrdiff_t)G.ys[0],
                                       (size_t)p->n, (size_t)R.nout, sum);
            pdnn_dw_blend_block(dw + c * G.ws[0], G.ws[0], R.wo, T, R.wseq, np, sum, alpha, beta);
        }
    }
    return true;
}

const pdnn_dw_path pdnn_dwmf_path = {pdnn_dwmf_applies,
                                     {pdnn_dwmf_fwd, pdnn_dwmf_bwd_data, pdnn_dwmf_bwd_filter}};
