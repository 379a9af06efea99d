/* Stride-2 3 x 3 depthwise forward and backward filter with the x rows' column phases
 * in registers (internal), f32, AVX-512 only; used by
 * src/ops/conv/cpu/conv_cpu_direct_dw_s2f.c beside the phase-row buffer kernels of
 * dws2f_ukernels.h, for the same plans (pdnn_dws2f_plan) whose x rows fit the vectors
 * of a unit: W <= 16 at two planes a vector (np 2), W <= 32 at one (np 1).
 *
 * Each x row (of both planes at np 2) is loaded once (masked to its columns) and split
 * by three two-source permutes into its column phases r2 = 0, 1, 2 (lane j of a plane's
 * half: x column 2 j + r2 - p2); the phases of a row stay in registers for the output
 * rows that read it (x row 2 o + 2 - p1 of output row o is row 2 (o + 1) - p1 of the
 * next), so no phase row is stored and reloaded (dws2f's split writes three vectors a
 * row and every tap reloads one).
 * Sums: the same chains as dws2f_ukernels.h, tap by tap: forward, every output one chain
 * of fused multiply-adds from 0 in (r1, r2) order over the taps inside x (tap rows
 * outside x skipped, columns masked; no w * 0); backward filter, each tap's lanes one
 * chain in (image, output row) order, then dws2f's trees (dwtree_avx512.h). The bits
 * are those of the dws2f kernels. */
#ifndef PDNN_UKERNELS_DWS2R_H
#define PDNN_UKERNELS_DWS2R_H

#include <stdbool.h>
#include <stddef.h>

#include "cpu/ukernels/dwconv/dws2f_ukernels.h"

/* Whether plan pl's x rows fit these kernels' registers (W <= 16 at np 2, 32 at np 1). */
bool pdnn_f32_dws2r_fits__avx512(const pdnn_dws2f_plan *pl);

/* dws2f's fwd (the same arguments and results; no buffer) for plans that fit. */
void pdnn_f32_dws2r_fwd__avx512(const pdnn_dws2f_plan *pl, size_t np, const float *x,
                                ptrdiff_t xcs, const float *w, ptrdiff_t wcs, float *y,
                                ptrdiff_t ycs, float alpha, float beta);

/* dws2f's bwdf (the same arguments and results; no buffer) for plans that fit. */
void pdnn_f32_dws2r_bwdf__avx512(const pdnn_dws2f_plan *pl, size_t np, size_t nimg,
                                 const float *x, ptrdiff_t xcs, ptrdiff_t xns, const float *dy,
                                 ptrdiff_t ycs, ptrdiff_t yns, float *sum);

#endif
