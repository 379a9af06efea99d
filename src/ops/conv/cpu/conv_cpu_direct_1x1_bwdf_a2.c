/* Backward filter of NCHW-like 1x1 convolutions on AVX2 (part of "cpu:direct_1x1",
 * conv_cpu_direct_1x1_bwd_filter.c):
 *   dW[k][c] = alpha * sum_n sum_p dy[n][k][p] * x[n][c][p] + beta * dW[k][c]
 * as a GEMM with the pixels as the sum: the side with more channels is A (its rows read
 * in place, contiguous along the pixels, broadcast by the 6 x 16 ldb kernel), the other
 * B, transposed block by block (BK pixels of one image, from the image's start) into
 * pixel-major panels of 16 channels on the stack (the ldb kernel's B, kc x 16 each);
 * the ldb strip kernel sums each block into a dW-sized buffer S[A's channel][B's
 * channel] (the first block with beta 0, the others adding: one rounding a block), and
 * S is blended into dw at the end (alpha, beta, dw's strides). BK depends on B's
 * channels only (the block about 64 KiB), so the sums do not depend on the thread
 * count. Threads split S: by B's 16-channel panels where they divide evenly (each
 * thread transposes only its own channels), else by A's 6-row panels (each thread
 * transposes all of B for itself). Against the generic GEMM path
 * (bwdf_task_inplace): the transposed side is the one with fewer channels, and no
 * per-column offsets (MobileNet-v2 b1_project, one thread: 22% of the time in
 * pdnn_conv_pe_cols_at, 22% in transposes of the 32-channel side). Exact on small
 * integers. */
#include "ops/conv/cpu/conv_cpu_direct_1x1.h"

#include "core/par.h"
#include "cpu/isa.h"
#include "cpu/ukernels/conv1x1/conv1x1_ukernels.h"
#include "cpu/ukernels/transpose/transpose.h"

#define A2_MR 6
#define A2_NR 16
/* most pixels a block: a 16-channel panel of B (16 KiB) stays in L1 while every A row
 * panel runs across it */
#define A2_BK 256
/* fewest pixels an image with two images or more */
#define A2_MIN_PIX_BATCH 512

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

bool pdnn_conv_1x1_bwdf_a2_applies(const pdnn_conv_gemm_geom *g)
{
    const pdnn_conv_geom3 *G = &g->geo;
    if (g->t != PDNN_DATA_FLOAT || pdnn_cpu_isa() != PDNN_ISA_AVX2 || g->g != 1) return false;
    if (G->kg == 0 || G->cg == 0 || g->npix == 0 || g->n == 0) return false;
    /* several short images: the generic form's K blocks across images were faster
     * (MobileNet-v2 mb32, one thread: b11_project 384 -> 96, 14 x 14, 9.9 against
     * 14.2 ms; b7 / b8 / b15_project 0.7-0.8x) */
    if (g->n > 1 && g->npix < A2_MIN_PIX_BATCH) return false;
    int64_t xst[3], yst[3], sx, sy;
    for (int d = 0; d < 3; d++) {
        xst[d] = G->str[d] * G->xs[2 + d];
        yst[d] = G->ys[2 + d];
    }
    return pdnn_conv_1x1_pixel_step(G, xst, &sx) && sx == 1 &&
           pdnn_conv_1x1_pixel_step(G, yst, &sy) && sy == 1;
}

/* A = x (B = dy^T, the sums in S, transposed, then blended) where transposing dy instead
 * of x saves more (about 0.4 cycles an element) than S's pass costs (about 3 cycles a
 * filter element); else A = dy, written straight into dw where its channels are
 * contiguous. */
static bool a2_a_is_x(const pdnn_conv_gemm_geom *g)
{
    const double kg = (double)g->geo.kg, cg = (double)g->geo.cg;
    return cg > kg && 0.4 * (cg - kg) * (double)g->n * (double)g->npix > 3.0 * kg * cg;
}

static bool a2_direct(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g)
{
    return !a2_a_is_x(g) && p->ws[1] == 1;
}

size_t pdnn_conv_1x1_bwdf_a2_workspace(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g)
{
    if (a2_direct(p, g)) return 0;
    const double e = (double)g->geo.kg * (double)g->geo.cg;
    if (e * sizeof(float) + 64 > (double)SIZE_MAX / 2) return SIZE_MAX;
    return (size_t)(g->geo.kg * g->geo.cg) * sizeof(float) + 64;
}

void pdnn_conv_1x1_bwdf_a2_run(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                               const pdnn_conv_args *arg, void *ws, int nt)
{
    const pdnn_conv_geom3 *G = &g->geo;
    const int64_t kg = G->kg, cg = G->cg, np = g->npix, nimg = g->n;
    const bool a_is_x = a2_a_is_x(g), direct = a2_direct(p, g);
    const int64_t ma = a_is_x ? cg : kg, nb = a_is_x ? kg : cg;
    const float *xa = arg->src, *ya = arg->wei;
    const float *A = a_is_x ? xa : ya, *B = a_is_x ? ya : xa;
    const int64_t a_cs = a_is_x ? G->xs[1] : G->ys[1], a_is = a_is_x ? G->xs[0] : G->ys[0];
    const int64_t b_cs = a_is_x ? G->ys[1] : G->xs[1], b_is = a_is_x ? G->ys[0] : G->xs[0];
    const float alpha = (float)arg->alpha, beta = (float)arg->beta;
    float *dw = arg->dst;
    const int64_t ws0 = p->ws[0], ws1 = p->ws[1];
    /* the sums: dw itself (rows ws0 apart) or S (rows nb apart) */
    float *S = direct ? dw : (float *)(((uintptr_t)ws + 63) & ~(uintptr_t)63);
    const int64_t ldc = direct ? ws0 : nb;
    const float al = direct ? alpha : 1.0f, be0 = direct ? beta : 0.0f;
    /* pixels a block: at most A2_BK, a multiple of 16, the image split evenly (depends
     * on the problem only) */
    const int64_t nblk = cdiv(np, A2_BK);
    const int64_t bk = min64(cdiv(cdiv(np, nblk), 16) * 16, np);
    /* blocks (n, block) in order, each C tile summing them one after the other (several
     * short images in one block, A2_BK / bk of them, measured at mb32, were still slower
     * than the generic form: not taken) */
    const int64_t nu = nimg * nblk;
    const int64_t npan = cdiv(nb, A2_NR), nrp = cdiv(ma, A2_MR);
    const int ntt = nt > 1 ? nt : 1;
    /* by B's panels where they split evenly (no transposes repeated), else A's rows */
    const bool by_cols = ntt > 1 && npan % ntt == 0 && (nb % A2_NR == 0 || npan >= 4 * ntt);
    const int64_t ntasks = ntt > 1 ? (by_cols ? ntt : min64(ntt, nrp)) : 1;
    PDNN_PAR_FOR(nt, t, ntasks, {
        int64_t q0 = 0, q1 = npan, r0 = 0, r1 = ma;
        if (by_cols) {
            q0 = npan * t / ntasks;
            q1 = npan * (t + 1) / ntasks;
        } else {
            r0 = nrp * t / ntasks * A2_MR;
            r1 = min64(ma, nrp * (t + 1) / ntasks * A2_MR);
        }
        _Alignas(64) float bt[A2_BK * A2_NR];
        for (int64_t u = 0; u < nu; u++) {
            const int64_t n = u / nblk, p0 = u % nblk * bk, kc = min64(bk, np - p0);
            for (int64_t q = q0; q < q1; q++) {
                /* B's panel of the block: kc pixels x 16 channels */
                const int64_t j = q * A2_NR, w = min64(A2_NR, nb - j);
                pdnn_f32_transpose__avx2((size_t)w, (size_t)kc, B + n * b_is + j * b_cs + p0, b_cs, bt, A2_NR);
                for (int64_t i = r0; i < r1; i += A2_MR)
                    pdnn_f32_ldb_strip_6x16__avx2_fma((size_t)min64(A2_MR, r1 - i), (size_t)w, (size_t)kc,
                                                      A + n * a_is + p0 + i * a_cs, a_cs, 1, bt, A2_NR, 0,
                                                      S + i * ldc + j, ldc, al, u == 0 ? be0 : 1.0f, NULL, 0);
            }
        }
        if (!direct) {
            /* blend this task's part of S into dw, 8 rows of S at a time across its
             * columns (S transposed when A is x: dw's rows then advance 8 channels at a
             * time) */
            const int64_t c0 = q0 * A2_NR, c1 = min64(nb, q1 * A2_NR);
            for (int64_t i0 = r0; i0 < r1; i0 += 8)
                for (int64_t j = c0; j < c1; j++)
                    for (int64_t i = i0; i < min64(r1, i0 + 8); i++) {
                        const int64_t k = a_is_x ? j : i, c = a_is_x ? i : j;
                        float *e = dw + k * ws0 + c * ws1;
                        float v = alpha * S[i * nb + j];
                        if (beta != 0) {
                            const float u = beta * *e;
                            v = v + u;
                        }
                        *e = v;
                    }
        }
    });
}
