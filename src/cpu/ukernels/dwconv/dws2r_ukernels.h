/* Stride-2 3 x 3 depthwise forward and backward filter with the x rows' column phases
 * in registers (internal), f32, AVX-512 only; used by
 * src/ops/conv/cpu/conv_cpu_direct_dw_s2f.c for the plans of dws2f_ukernels.h: output
 * rows of up to 7 columns two planes a vector (x rows of at most 16 columns), 8 to 15 one
 * plane (x rows of at most 32), 16 to 32 one plane at two vectors a row.
 *
 * Each x row (of both planes at np 2) is loaded once (masked to its columns) and split
 * by three two-source permutes into its column phases r2 = 0, 1, 2 (lane j of a plane's
 * half: x column 2 j + r2 - p2); the phases of a row stay in registers for the output
 * rows that read it (x row 2 o + 2 - p1 of output row o is row 2 (o + 1) - p1 of the
 * next), so no phase row is stored and reloaded (session 7's kernels wrote three
 * vectors a row to a buffer and every tap reloaded one). At two vectors a row, vector k
 * loads x columns 32 k - p2 .. + 31 (two masked loads), its phases 0 and 1 are their
 * even and odd columns (two permutes) and phase 2 the even ones a lane on (valignd with
 * the next vector's even columns, the last with column 64 - p2 loaded alone); the
 * backward filter adds both vectors' products into the same 9 accumulators (vector 0,
 * then 1, per output row).
 * Sums: the same chains as session 7's kernels, tap by tap: forward, every output one
 * chain of fused multiply-adds from 0 in (r1, r2) order over the taps inside x (tap rows
 * outside x skipped, columns masked; no w * 0); backward filter, each tap's lanes one
 * chain in (image, output row) order, then the trees of dwtree_avx512.h. The forward's
 * bits are those of the other stride-2 paths (dws2_ukernels.h, dws2p_ukernels.h). */
#ifndef PDNN_UKERNELS_DWS2R_H
#define PDNN_UKERNELS_DWS2R_H

#include <stddef.h>

#include "cpu/ukernels/dwconv/dws2f_ukernels.h"

/* For planes p < np: y_p = alpha conv(x_p, w_p) (+ beta y_p when beta != 0; y unread when
 * beta == 0), x_p = x + p xcs, y_p = y + p ycs, w_p = w + p wcs (9 taps). */
void pdnn_f32_dws2r_fwd__avx512(const pdnn_dws2f_plan *pl, size_t np, const float *x,
                                ptrdiff_t xcs, const float *w, ptrdiff_t wcs, float *y,
                                ptrdiff_t ycs, float alpha, float beta);

/* bwdf, for planes p < np: sum[9 p + r1 3 + r2] = the sum over the images n < nimg and
 * the outputs (o, j) of dy_p(o, j) x_p(2 o + r1 - p1, 2 j + r2 - p2) over the taps inside
 * x, image n's planes at x + p xcs + n xns, dy + p ycs + n yns; each tap's lanes (output
 * columns, and the planes' halves at np 2 in the plan) a chain in (image, row) order,
 * then summed in the trees of dwtree_avx512.h. */
void pdnn_f32_dws2r_bwdf__avx512(const pdnn_dws2f_plan *pl, size_t np, size_t nimg,
                                 const float *x, ptrdiff_t xcs, ptrdiff_t xns, const float *dy,
                                 ptrdiff_t ycs, ptrdiff_t yns, float *sum);

#endif
