/* Depthwise 3 x 3 backward filter on AVX2 (conv_cpu_direct_dw_bw2.h): NCHW planes read in
 * place by the micro-kernel of dwbw_ukernels.h, one (image, channel) plane a call, its
 * nine taps' 8 lanes of sums loaded into registers and stored back (stride 2 by even and
 * odd column shuffles). A thread runs its channels in chunks of BW2_CHUNK, each chunk
 * image by image (planes in memory order), then sums each tap's lanes in a fixed tree
 * and blends them into dw. Threads split the channels: every tap's sum is one chain in
 * an order fixed by the problem (images, then the kernel's order), so results do not
 * depend on the thread count; exact on small integers. */
#include <stdint.h>

#include "core/par.h"
#include "cpu/isa.h"
#include "cpu/ukernels/dwconv/dwbw_ukernels.h"
#include "cpu/ukernels/transpose/transpose.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_bw2.h"

/* Channels a thread runs image by image (their accumulators, 288 bytes each, stay in L1
 * while the images' planes stream: channel by channel, each image's small plane lay a
 * whole image apart from the last, MobileNet-v2 7x7 at minibatch 32 14x slower). */
#define BW2_CHUNK 32
/* Planes of at most BW2_CB_MAXO output rows and columns run in channel blocks of 8
 * (bw2_cb; 28 x 28 measured slower there); their blocks a chunk (each image's planes of
 * the chunk's 1024 channels read as one stream: 7x7 at minibatch 32, 1 thread, 6.3 -> 4.3
 * ms against chunks of 4 blocks, noisy). */
#define BW2_CB_MAXO 16
#define BW2_CB_CHUNK 128
#define BW2_CB_PAD (2 * (BW2_CB_MAXO - 1) + 3) /* padded x rows, columns at most */
/* x and dy bytes from which the channel blocks prefetch the next block's planes (the
 * streams of 8 short planes at a time stall on memory: 7x7 at minibatch 32, 1 thread, 5.0
 * -> 1.5 ms, 14x14 9.1 -> 6.2; in cache, as at minibatch 1, the prefetches cost 5-10%) */
#define BW2_PF_BYTES (4.0 * 1024 * 1024)
#define BW2_PF_PLANE 256

/* The geometry this file serves (see the header). */
static bool bw2_geom(const pdnn_conv_problem *p, pdnn_conv_geom3 *G)
{
    if (p->dir != PDNN_CONV_BWD_FILTER || p->dtype != PDNN_DATA_FLOAT) return false;
    if (p->c != p->g || p->k != p->g || p->g == 0) return false;
    if (pdnn_cpu_isa() != PDNN_ISA_AVX2) return false;
    pdnn_conv_widen(p, G);
    if (G->kern[0] != 1 || G->in[0] != 1 || G->out[0] != 1 || G->pad[0] != 0) return false;
    if (G->kern[1] != 3 || G->kern[2] != 3 || G->dil[1] != 1 || G->dil[2] != 1) return false;
    if (G->str[1] != G->str[2] || (G->str[1] != 1 && G->str[1] != 2)) return false;
    if (G->pad[1] < 0 || G->pad[2] < 0) return false;
    if (G->xs[4] != 1 || G->ys[4] != 1 || (G->xs[1] == 1 && G->ys[1] == 1)) return false;
    return G->out[2] <= PDNN_DWBW2_MAXW && G->in[2] <= 2 * PDNN_DWBW2_MAXW;
}

bool pdnn_dwbw2_applies(const pdnn_conv_problem *p)
{
    pdnn_conv_geom3 G;
    return bw2_geom(p, &G);
}

/* The 8 lanes of a tap summed in a fixed tree: (l0 + l4 + (l2 + l6)) + (l1 + l5 + (l3 + l7)). */
static float bw2_lanesum8(const float *a)
{
    const float u0 = a[0] + a[4], u1 = a[1] + a[5], u2 = a[2] + a[6], u3 = a[3] + a[7];
    return (u0 + u2) + (u1 + u3);
}

/* Prefetch of the n floats from p (a plane: rows to the last one's end). */
static void bw2_prefetch(const float *p, int64_t n)
{
    for (int64_t o = 0; o < n; o += 16) __builtin_prefetch(p + o, 0, 3);
}

/* Small planes in channel blocks: per block of 8 channels and image, every x row
 * transposed channels-minor into a zero-padded buffer (pixel (i, k) at xb[8 (i pw + k)]),
 * dy likewise (unpadded), then one 8-lane multiply-add a tap and pixel
 * (pdnn_f32_dwbw3_cb8__avx2); the lanes are the channels, so no lane sums. Threads split
 * the blocks; a thread runs its blocks BW2_CB_CHUNK at a time image by image, large
 * problems prefetching the next block's planes. */
static void bw2_cb(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G, const float *x,
                   const float *dy, float *dw, const int64_t *wo, float alpha, float beta,
                   int nthreads)
{
    const int64_t m1 = G->out[1], m2 = G->out[2], s = G->str[1];
    const int64_t ph = s * (m1 - 1) + 3, pw = s * (m2 - 1) + 3;
    const int64_t p1 = G->pad[1], p2 = G->pad[2];
    /* the x rows and columns some tap reads */
    const int64_t ni = G->in[1] < ph - p1 ? G->in[1] : ph - p1;
    const int64_t nj = G->in[2] < pw - p2 ? G->in[2] : pw - p2;
    const int64_t C = p->g, nblk = (C + 7) / 8;
    const bool dflat = m1 == 1 || G->ys[3] == m2; /* dy planes without gaps */
    /* prefetch where x and dy exceed the caches (BW2_PF_BYTES), of planes up to
     * BW2_PF_PLANE floats (larger ones the hardware prefetcher follows: 28x28 at minibatch
     * 32 measured 3.1 -> 3.9 ms with the prefetches) */
    const bool pf = (double)p->n * C * (G->in[1] * G->in[2] + m1 * m2) * sizeof(float) > BW2_PF_BYTES &&
                    G->in[1] * G->in[2] <= BW2_PF_PLANE;
    const int nt = pdnn_par_threads(nthreads, nblk, (double)p->n * C * m1 * m2 * 9, 32768.0);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        _Alignas(32) float xb[BW2_CB_PAD * BW2_CB_PAD * 8];
        _Alignas(32) float db[BW2_CB_MAXO * BW2_CB_MAXO * 8];
        float acc[BW2_CB_CHUNK * 72];
        for (int64_t j = 0; j < ph * pw * 8; j++) xb[j] = 0;
        int64_t k0, k1;
        pdnn_par_share(nblk, &k0, &k1);
        for (int64_t b = k0; b < k1; b += BW2_CB_CHUNK) {
            const int64_t nb = k1 - b < BW2_CB_CHUNK ? k1 - b : BW2_CB_CHUNK;
            for (int64_t j = 0; j < nb * 72; j++) acc[j] = 0;
            for (int64_t n = 0; n < p->n; n++)
                for (int64_t k = b; k < b + nb; k++) {
                    const int64_t c0 = 8 * k, nc = C - c0 < 8 ? C - c0 : 8;
                    const float *xs = x + n * G->xs[0] + c0 * G->xs[1];
                    const float *ds = dy + n * G->ys[0] + c0 * G->ys[1];
                    if (pf && k + 1 < b + nb) /* the next block's planes, while this one runs */
                        for (int64_t c = 8; c < 16 && c0 + c < C; c++) {
                            bw2_prefetch(xs + c * G->xs[1], ni * G->xs[3]);
                            bw2_prefetch(ds + c * G->ys[1], m1 * G->ys[3]);
                        }
                    for (int64_t i = 0; i < ni && nj > 0; i++)
                        pdnn_f32_transpose__avx2((size_t)nc, (size_t)nj, xs + i * G->xs[3],
                                                 (ptrdiff_t)G->xs[1], xb + ((i + p1) * pw + p2) * 8, 8);
                    if (dflat)
                        pdnn_f32_transpose__avx2((size_t)nc, (size_t)(m1 * m2), ds,
                                                 (ptrdiff_t)G->ys[1], db, 8);
                    else
                        for (int64_t o = 0; o < m1; o++)
                            pdnn_f32_transpose__avx2((size_t)nc, (size_t)m2, ds + o * G->ys[3],
                                                     (ptrdiff_t)G->ys[1], db + o * m2 * 8, 8);
                    pdnn_f32_dwbw3_cb8__avx2((size_t)s, (size_t)m1, (size_t)m2, xb, (size_t)pw, db,
                                             acc + (k - b) * 72);
                }
            for (int64_t k = b; k < b + nb; k++)
                for (int64_t c = 8 * k; c < C && c < 8 * k + 8; c++)
                    pdnn_dw_blend_taps(dw + c * G->ws[0], wo, 9, acc + (k - b) * 72 + (c - 8 * k), 8,
                                       alpha, beta);
        }
    }
}

bool pdnn_dwbw2_bwd_filter(const pdnn_conv_problem *p, const float *x, const float *dy,
                           float *dw, float alpha, float beta, int nthreads)
{
    pdnn_conv_geom3 G;
    if (!bw2_geom(p, &G)) return false;
    const int64_t C = p->g, m1 = G.out[1], m2 = G.out[2];
    int64_t wo[9];
    for (int64_t r1 = 0; r1 < 3; r1++)
        for (int64_t r2 = 0; r2 < 3; r2++) wo[3 * r1 + r2] = pdnn_dw_tap_off(p, &G, r1, r2);
    if (m1 <= BW2_CB_MAXO && m2 <= BW2_CB_MAXO) {
        bw2_cb(p, &G, x, dy, dw, wo, alpha, beta, nthreads);
        return true;
    }
    const int nt = pdnn_par_threads(nthreads, C, (double)p->n * C * m1 * m2 * 9, 32768.0);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        float acc[BW2_CHUNK * 72];
        int64_t c0, c1;
        pdnn_par_share(C, &c0, &c1);
        for (int64_t b = c0; b < c1; b += BW2_CHUNK) {
            const int64_t nc = c1 - b < BW2_CHUNK ? c1 - b : BW2_CHUNK;
            for (int64_t j = 0; j < nc * 72; j++) acc[j] = 0;
            for (int64_t n = 0; n < p->n; n++)
                for (int64_t c = b; c < b + nc; c++)
                    pdnn_f32_dwbw3_plane__avx2(
                        (size_t)G.str[1], 1, x + n * G.xs[0] + c * G.xs[1], (ptrdiff_t)G.xs[0],
                        (ptrdiff_t)G.xs[3], (size_t)G.in[1], (size_t)G.in[2], (size_t)G.pad[1],
                        (size_t)G.pad[2], dy + n * G.ys[0] + c * G.ys[1], (ptrdiff_t)G.ys[0],
                        (ptrdiff_t)G.ys[3], (size_t)m1, (size_t)m2, acc + (c - b) * 72);
            for (int64_t c = b; c < b + nc; c++) {
                float sum[9];
                for (int t = 0; t < 9; t++) sum[t] = bw2_lanesum8(acc + (c - b) * 72 + 8 * t);
                pdnn_dw_blend_taps(dw + c * G.ws[0], wo, 9, sum, 1, alpha, beta);
            }
        }
    }
    return true;
}

static bool bw2_none(const pdnn_conv_problem *p, const float *src, const float *wei, float *dst,
                     float alpha, float beta, int nthreads)
{
    return false;
}

const pdnn_dw_path pdnn_dwbw2_path = {pdnn_dwbw2_applies,
                                      {bw2_none, bw2_none, pdnn_dwbw2_bwd_filter}};
