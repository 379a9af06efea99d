/* Stride-2 depthwise micro-kernels for small planes (internal), f32, AVX-512 only: two
 * output rows a vector; used by src/ops/conv/cpu/conv_cpu_direct_dw_s2p.c. The geometry
 * is dws2_ukernels.h's pdnn_dws2_geom (kh x kw taps, stride 2, unit dilation, p1 rows and
 * p2 columns of padding before; w in (r1, r2) order as a cross-correlation), for planes
 * whose output rows fit twice in a vector with their taps: OW <= 8, 2 (OW - 1) + kw <= 16,
 * and x rows of at most 16 columns (W <= 16). No copies and no scratch:
 *  - fwd: output rows o, o + 1 in lanes [0, OW) and [OW, 2 OW); for tap row r1, x rows
 *    2 o + r1 - p1 and that + 2 loaded as 16 columns from -p2 (A, B), every tap column
 *    r2 one two-source permute of (A, B) (lane l < OW: column 2 l + r2 - p2 of A, lane
 *    OW + l: of B) and one masked multiply-add;
 *  - bwdd: one dx row a vector; its taps r1 with dx row i = 2 o + r1 - p1, the dy row o
 *    loaded once, the tap columns taken in pairs (2 k, 2 k + 1), which feed dx columns of
 *    opposite parities: one one-source permute (lane j: dy column floor((j + p2 - 2 k) /
 *    2)) and one multiply-add with the pair's weights blended by lane parity;
 *  - bwdf: the forward's permuted x taps times dy rows o, o + 1 (loaded into the same
 *    lanes), the kh kw sums kept as 16 lanes in registers over the images and the
 *    plane, then summed in a fixed tree.
 * Taps outside x (dy) add nothing (masked, no w * 0). Sums: every output lane is one
 * chain of fused multiply-adds in (r1, r2) order (fwd, bwdd), in (image, row pair)
 * order (bwdf, then lanes l and l + 8, then l and l + 4, then (0 + 2) + (1 + 3)), fixed
 * by the problem. Masked-off lanes' addresses may lie outside every buffer (never
 * touched). */
#ifndef PDNN_UKERNELS_DWS2P_H
#define PDNN_UKERNELS_DWS2P_H

#include <stddef.h>
#include <stdint.h>

#include "cpu/ukernels/dwconv/dws2_ukernels.h"

#define PDNN_DWS2P_KMAX PDNN_DWS2_KMAX

/* A problem's permute indices and lane masks, the same for every plane. */
typedef struct {
    pdnn_dws2_geom g;
    /* fwd, bwdf: fidx[r2]: the two-source permute of tap column r2; km[r2]: the lanes
     * (< 2 OW) whose column lies inside x; la: the load lanes (columns l - p2 inside a
     * row); lo, hi: the lanes of the first and the second row of a pair */
    int32_t fidx[PDNN_DWS2P_KMAX][16];
    uint16_t km[PDNN_DWS2P_KMAX], la, lo, hi;
    /* bwdd, tap column pair k: didx[k]: the permute; dm[k]: the dx lanes (< W) whose tap
     * column of the pair (2 k or 2 k + 1 by parity, < kw) reads a dy column inside dy;
     * dpar[k]: the lanes that take column 2 k; ld: dy load lanes (< OW); st: dx lanes */
    int nk;
    int32_t didx[(PDNN_DWS2P_KMAX + 1) / 2][16];
    uint16_t dm[(PDNN_DWS2P_KMAX + 1) / 2], dpar[(PDNN_DWS2P_KMAX + 1) / 2], ld, st;
} pdnn_dws2p_plan;

/* The plan of g; false when g is outside the set above. */
int pdnn_f32_dws2p_plan__avx512(const pdnn_dws2_geom *g, pdnn_dws2p_plan *pl);

/* For planes p < np: y_p = alpha conv(x_p, w_p) (+ beta y_p when beta != 0; y unread when
 * beta == 0), x_p = x + p xcs, y_p = y + p ycs, w_p = w + p wcs (kh kw taps). */
void pdnn_f32_dws2p_fwd__avx512(const pdnn_dws2p_plan *pl, size_t np, const float *x,
                                ptrdiff_t xcs, const float *w, ptrdiff_t wcs, float *y,
                                ptrdiff_t ycs, float alpha, float beta);
/* For planes p < np: dx_p = alpha convT(dy_p, w_p) (+ beta dx_p likewise): dx(i, j) = sum
 * over the taps with i = 2 o1 + r1 - p1, j = 2 o2 + r2 - p2 inside dy of w[r1 kw + r2]
 * dy(o1, o2). */
void pdnn_f32_dws2p_bwdd__avx512(const pdnn_dws2p_plan *pl, size_t np, const float *dy,
                                 ptrdiff_t ycs, const float *w, ptrdiff_t wcs, float *dx,
                                 ptrdiff_t xcs, float alpha, float beta);
/* One channel: sum[r1 kw + r2] = the sum over the images n < nimg and the outputs
 * (o1, o2) of dy(o1, o2) x(2 o1 + r1 - p1, 2 o2 + r2 - p2) (taps inside x), image n's
 * planes at x + n xns, dy + n yns. */
void pdnn_f32_dws2p_bwdf__avx512(const pdnn_dws2p_plan *pl, size_t nimg, const float *x,
                                 ptrdiff_t xns, const float *dy, ptrdiff_t yns, float *sum);

#endif
