/* Row-vector 3 x 3 depthwise convolution (conv_cpu_direct_dw_row.h), AVX-512: the NCHW
 * planes read in place, each row ceil(W / 16) vectors; a source row's three
 * column-shifted vectors (one masked load, the lanes past the row never read, and two
 * lane shifts) serve the three output rows they reach, so a 16-column piece of output
 * costs 9 multiply-adds and one load, against the masked flat path's 9 multiply-adds, 9
 * loads and 9 masks (dwrow_ukernels.h).
 *  - forward: source x, destination y, taps in (r, c) order;
 *  - backward data: the correlation of dy with the rotated filter (tap (r, c) is the
 *    filter's (2 - r, 2 - c));
 *  - backward filter: each tap's sums kept as 16 lanes in registers over the images in
 *    order and the rows, then the lanes summed in a fixed tree.
 * Rows of RW_WMIN to 32 columns (MobileNet-v2's 7x7, 14x14 and 28x28 layers; 1 thread
 * CPU clock against the masked flat and channel-block paths: 14x14 x 576 forward mb1 49
 * -> 21 us, mb32 1.72 -> 1.12 ms; 28x28 x 192 forward mb32 1.94 -> 1.49 ms, backward
 * filter 1.94 -> 1.54 ms; 7x7 x 960 kernels alone, forward 25.5 -> 21 us mb1, 0.87 ->
 * 0.74 ms mb32 (rows of up to 8 columns of two planes in one vector: 15.3 us, 0.57 ms),
 * backward filter mb32 1.01 -> 0.44 ms (two planes a vector), mb1 against the channel
 * blocks 25 -> 24 us, mb4 89 -> 61 us). Narrower rows than RW_WMIN are left to the
 * other paths (not measured). (A variant with two 7-column rows of one plane a vector, 36 instead of 63
 * multiply-adds a 7x7 plane, measured 25% slower than one row a vector, with 1, 2 or 4
 * planes interleaved, and no faster with lane shifts instead of shifted loads: not kept;
 * two planes a vector with lane shifts measured 1.4x faster: kept, rows up to 8.)
 * Rows past 32 columns run in strips of 4 vectors down the plane (forward, backward
 * data; the first strip prefetching whole rows 8 ahead for the others) or vector by
 * vector along each row (backward filter, the dy rows loaded at each vector). AMD Zen 4,
 * 2 threads, against the masked flat path, lowest of 3-5 alternating runs: MobileNet-v2
 * b1_dw (112 x 112 x 32) forward mb1 84 -> 42 us, mb32 2.52 -> 2.32 ms, backward filter
 * mb1 80 -> 40 us, mb32 2.70 -> 2.09 ms; b3_dw (56 x 56 x 144) forward mb1 86 -> 53 us,
 * mb32 3.84 -> 1.94 ms, backward filter mb1 83 -> 58 us, mb32 even (3.6 ms); without the
 * prefetch b1_dw forward mb32 ran 4.4 ms (its strips no stream for the hardware
 * prefetcher). A destination larger than PDNN_CONV_STREAM_BYTES (beta == 0), rows of
 * whole vectors on 64-byte aligned planes, is stored non-temporally, no line of it read
 * for ownership first: b1_dw forward mb32 (51 MB of y), 2 threads, Zen 4, best of 4
 * alternating runs 4.97 -> 2.68 ms (56-column rows, half of them not starting a cache
 * line, mixed plain and streaming stores: 3.64 -> 4.39 ms, so they stay cached).
 * Threads split (image, channel) planes (forward, backward data; calls of up to RW_GROUP
 * consecutive channels) or blocks of up to RW_WBLOCK channels, at least two (backward
 * filter); every output is one chain in an order fixed by the problem, so results do not
 * depend on the thread count or the blocks; exact on small integers. */
#include <stdatomic.h>
#include <stdint.h>

#include "core/par.h"
#include "cpu/isa.h"
#include "cpu/ukernels/dwconv/dwrow_ukernels.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_row.h"
#include "ops/conv/cpu/conv_cpu_gemm.h" /* PDNN_CONV_STREAM_BYTES */

#define RW_GROUP 8   /* planes a kernel call (forward, backward data) */
#define RW_WBLOCK 32 /* channels a kernel call at most (backward filter) */
#define RW_WMIN 7    /* row width at least */

typedef struct {
    int64_t H, W;
    int64_t wo[9]; /* filter offset within a channel of tap t = 3 r + c */
    bool wseq;     /* wo[t] == t */
} rw_geom;

static int64_t rw_min(int64_t a, int64_t b) { return a < b ? a : b; }

/* The problem's geometry in R; false when it is outside this file's set (the header). */
static bool rw_init(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G, rw_geom *R)
{
    if (p->dtype != PDNN_DATA_FLOAT || p->c != p->g || p->k != p->g || p->g == 0) return false;
    if (pdnn_cpu_isa() < PDNN_ISA_AVX512) return false;
    if (G->kern[0] != 1 || G->in[0] != 1 || G->out[0] != 1 || G->pad[0] != 0) return false;
    if (G->xs[4] != 1 || G->ys[4] != 1 || (G->xs[1] == 1 && G->ys[1] == 1)) return false;
    if (G->kern[1] != 3 || G->kern[2] != 3 || G->str[1] != 1 || G->str[2] != 1 ||
        G->dil[1] != 1 || G->dil[2] != 1 || G->pad[1] != 1 || G->pad[2] != 1)
        return false;
    const int64_t H = G->in[1], W = G->in[2];
    if (G->out[1] != H || G->out[2] != W || W < RW_WMIN) return false;
    if ((H > 1 && (G->xs[3] != W || G->ys[3] != W))) return false;
    R->H = H;
    R->W = W;
    const bool bwd = p->dir == PDNN_CONV_BWD_DATA;
    R->wseq = true;
    for (int t = 0; t < 9; t++) {
        const int r = t / 3, c = t % 3;
        R->wo[t] = bwd ? pdnn_dw_tap_off(p, G, 2 - r, 2 - c) : pdnn_dw_tap_off(p, G, r, c);
        R->wseq = R->wseq && R->wo[t] == t;
    }
    return true;
}

static int rw_threads(int nthreads, int64_t units, double work)
{
    return pdnn_par_threads(nthreads, units, work, 32768.0);
}

/* Forward (src x, dst y) or backward data (src dy, dst dx). */
static bool rw_conv(const pdnn_conv_problem *p, bool bwd, const float *src, const float *w,
                    float *dst, float alpha, float beta, int nthreads)
{
    pdnn_conv_geom3 G;
    pdnn_conv_widen(p, &G);
    rw_geom R;
    if (!rw_init(p, &G, &R)) return false;
    const int64_t *ss = bwd ? G.ys : G.xs, *ds = bwd ? G.xs : G.ys;
    const int64_t C = p->g, units = p->n * C;
    const int nt = rw_threads(nthreads, units, (double)units * R.H * R.W * 9);
    /* whole cache lines of a destination beyond the caches stored non-temporally: rows
     * of whole vectors on 64-byte aligned planes */
    const int stream = beta == 0.0f && R.W % 16 == 0 && ds[1] % 16 == 0 && ds[0] % 16 == 0 &&
                       ((uintptr_t)dst & 63) == 0 &&
                       (double)units * (double)(R.H * R.W) * sizeof(float) > PDNN_CONV_STREAM_BYTES;
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        float wb[RW_GROUP * 9];
        int64_t u0, u1;
        pdnn_par_share(units, &u0, &u1);
        for (int64_t u = u0; u < u1;) {
            const int64_t n = u / C, c = u % C, np = rw_min(RW_GROUP, rw_min(C - c, u1 - u));
            ptrdiff_t wcs;
            const float *wp = pdnn_dw_taps(w, G.ws[0], c, np, R.wo, 9, R.wseq, wb, &wcs);
            pdnn_f32_dwrow_conv__avx512((size_t)np, src + n * ss[0] + c * ss[1],
                                        (ptrdiff_t)ss[1], wp, wcs, (size_t)R.H, (size_t)R.W,
                                        dst + n * ds[0] + c * ds[1], (ptrdiff_t)ds[1], alpha,
                                        beta, stream);
            u += np;
        }
        if (stream) atomic_thread_fence(memory_order_seq_cst); /* the streamed lines */
    }
    return true;
}

bool pdnn_dwrow_applies(const pdnn_conv_problem *p)
{
    pdnn_conv_geom3 G;
    pdnn_conv_widen(p, &G);
    rw_geom R;
    return rw_init(p, &G, &R);
}

bool pdnn_dwrow_fwd(const pdnn_conv_problem *p, const float *x, const float *w, float *y,
                    float alpha, float beta, int nthreads)
{
    return rw_conv(p, false, x, w, y, alpha, beta, nthreads);
}

bool pdnn_dwrow_bwd_data(const pdnn_conv_problem *p, const float *dy, const float *w,
                         float *dx, float alpha, float beta, int nthreads)
{
    return rw_conv(p, true, dy, w, dx, alpha, beta, nthreads);
}

bool pdnn_dwrow_bwd_filter(const pdnn_conv_problem *p, const float *x, const float *dy,
                           float *dw, float alpha, float beta, int nthreads)
{
    pdnn_conv_geom3 G;
    pdnn_conv_widen(p, &G);
    rw_geom R;
    if (!rw_init(p, &G, &R)) return false;
    /* blocks of up to RW_WBLOCK channels, at least two a thread */
    const int64_t C = p->g;
    int64_t cb = (C + nthreads - 1) / (nthreads > 0 ? nthreads : 1);
    cb = cb < 2 ? 2 : cb > RW_WBLOCK ? RW_WBLOCK : cb;
    const int64_t units = (C + cb - 1) / cb;
    const int nt = rw_threads(nthreads, units, (double)p->n * C * R.H * R.W * 9);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        float sum[RW_WBLOCK * 9];
        int64_t u0, u1;
        pdnn_par_share(units, &u0, &u1);
        for (int64_t u = u0; u < u1; u++) {
            const int64_t c = u * cb, np = rw_min(cb, C - c);
            pdnn_f32_dwrow_bwdf__avx512((size_t)np, x + c * G.xs[1], (ptrdiff_t)G.xs[1],
                                        (ptrdiff_t)G.xs[0], dy + c * G.ys[1],
                                        (ptrdiff_t)G.ys[1], (ptrdiff_t)G.ys[0], (size_t)p->n,
                                        (size_t)R.H, (size_t)R.W, sum);
            pdnn_dw_blend_block(dw + c * G.ws[0], G.ws[0], R.wo, 9, R.wseq, np, sum, alpha, beta);
        }
    }
    return true;
}

const pdnn_dw_path pdnn_dwrow_path = {
    pdnn_dwrow_applies, {pdnn_dwrow_fwd, pdnn_dwrow_bwd_data, pdnn_dwrow_bwd_filter}};
