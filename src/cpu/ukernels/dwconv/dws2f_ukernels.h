/* Stride-2 3 x 3 depthwise forward through phase planes (internal), f32, AVX-512 only;
 * used by src/ops/conv/cpu/conv_cpu_direct_dw_s2f.c. The geometry is dws2_ukernels.h's
 * pdnn_dws2_geom with kh = kw = 3 (stride 2, unit dilation, p1 rows and p2 columns of
 * padding before, w in (r1, r2) order as a cross-correlation), output rows of at most
 * 15 columns (wider ones, two vectors a row, measured slower than the in-place permutes
 * of dws2_ukernels.h: MobileNet-v2 56x56 -> 28x28, minibatch 1, 1 thread, 73 -> 95 us,
 * the phase buffers and the x rows no longer fitting L1 together).
 *
 * The x rows are split once into phase rows of nv vectors (64-byte aligned): padded row
 * pr = i + p1 of x row i goes to row phase a = pr % 2, row u = pr / 2, as three column
 * phases b = r2: element j holds padded column 2 j + r2 (x column 2 j + r2 - p2; zero
 * outside x). Output (o, j), tap (r1, r2) then reads phase (r1 % 2, r2) at row
 * o + r1 / 2, element j: every tap of 16 outputs is one aligned load and one
 * multiply-add (no unaligned loads, no permutes per tap; the split costs two permutes
 * and a lane shift per 32 x columns). Output rows of up to 7 columns put two planes in
 * a vector (lanes 0-7 plane q, 8-15 plane q + 1; weights blended by half), rows of 8 to
 * 15 one plane (the split and the kernel are written for nv vectors a row; nv = 1
 * only).
 * Taps outside x add nothing (tap rows outside x skipped, columns masked; no w * 0):
 * every output is one chain of fused multiply-adds from 0 in (r1, r2) order over the
 * taps inside x, as in dws2_ukernels.h and dws2p_ukernels.h (the same bits). */
#ifndef PDNN_UKERNELS_DWS2F_H
#define PDNN_UKERNELS_DWS2F_H

#include <stddef.h>
#include <stdint.h>

#include "cpu/ukernels/dwconv/dws2_ukernels.h"

/* Phase rows of a buffer at most ((OH + 1) nv; two buffers of 6 x that x 16 floats):
 * output rows up to 64 a plane. */
#define PDNN_DWS2F_ROWS 65
#define PDNN_DWS2F_BUF (2 * 6 * PDNN_DWS2F_ROWS * 16)

typedef struct {
    pdnn_dws2_geom g;
    int np, nv;        /* planes a vector: 2 (OW <= 7) or 1; vectors an output row */
    int64_t eh, i1;    /* phase rows (OH + 1); x rows split (those some output reads) */
    ptrdiff_t ps;      /* floats a phase (eh 16 nv); a buffer holds 6 */
    uint16_t la[4];    /* the lanes of the x row loads inside x (np 2: la[0], per plane) */
    uint16_t km[2][3]; /* vector k's output lanes whose tap column r2 lies inside x */
    uint16_t st[2];    /* the output lanes stored: np 2: st[0] plane q, st[1] plane q + 1;
                        * np 1: st[k] vector k */
} pdnn_dws2f_plan;

/* The plan of g; 0 when g is outside the set (kh, kw != 3, OW > 15, OH > 64). */
int pdnn_f32_dws2f_plan__avx512(const pdnn_dws2_geom *g, pdnn_dws2f_plan *pl);

/* For planes p < np: y_p = alpha conv(x_p, w_p) (+ beta y_p when beta != 0; y unread when
 * beta == 0), x_p = x + p xcs, y_p = y + p ycs, w_p = w + p wcs (9 taps). buf:
 * PDNN_DWS2F_BUF floats, 64-byte aligned, any contents. */
void pdnn_f32_dws2f_fwd__avx512(const pdnn_dws2f_plan *pl, size_t np, const float *x,
                                ptrdiff_t xcs, const float *w, ptrdiff_t wcs, float *y,
                                ptrdiff_t ycs, float alpha, float beta, float *buf);

/* bwdf, for planes p < np: sum[9 p + r1 3 + r2] = the sum over the images n < nimg and
 * the outputs (o, j) of dy_p(o, j) x_p(2 o + r1 - p1, 2 j + r2 - p2) over the taps inside
 * x, image n's planes at x + p xcs + n xns, dy + p ycs + n yns; each tap's lanes (output
 * columns, and the planes' halves at np 2 in the plan) a chain in (image, row) order,
 * then summed in the trees of dwtree_avx512.h. buf as fwd's. */
void pdnn_f32_dws2f_bwdf__avx512(const pdnn_dws2f_plan *pl, size_t np, size_t nimg,
                                 const float *x, ptrdiff_t xcs, ptrdiff_t xns, const float *dy,
                                 ptrdiff_t ycs, ptrdiff_t yns, float *buf, float *sum);

#endif
