/* The plan of the stride-2 3 x 3 depthwise kernels (internal), f32, AVX-512 only; used
 * by src/ops/conv/cpu/conv_cpu_direct_dw_s2f.c with the kernels of dws2r_ukernels.h. The
 * geometry is dws2_ukernels.h's pdnn_dws2_geom with kh = kw = 3 (stride 2, unit
 * dilation, p1 rows and p2 columns of padding before, w in (r1, r2) order as a
 * cross-correlation), output rows of at most 15 columns (wider ones measured slower than
 * the in-place permutes of dws2_ukernels.h: MobileNet-v2 56x56 -> 28x28, minibatch 1,
 * 1 thread, 73 -> 95 us with the phase-row buffers of session 7) and at most 64 rows.
 * Output rows of up to 7 columns put two planes in a vector (lanes 0-7 plane q, 8-15
 * plane q + 1; weights blended by half), rows of 8 to 15 one plane.
 * (Session 7's kernels split each x row into phase rows in a per-thread buffer, every
 * tap then one aligned load; session 9's keep the phases in registers, the same sums:
 * dws2r_ukernels.h.) */
#ifndef PDNN_UKERNELS_DWS2F_H
#define PDNN_UKERNELS_DWS2F_H

#include <stddef.h>
#include <stdint.h>

#include "cpu/ukernels/dwconv/dws2_ukernels.h"

/* Output rows a plane at most. */
#define PDNN_DWS2F_ROWS 64

typedef struct {
    pdnn_dws2_geom g;
    int np, nv;        /* planes a vector: 2 (OW <= 7) or 1; vectors an output row (1) */
    uint16_t km[2][3]; /* vector k's output lanes whose tap column r2 lies inside x */
    uint16_t st[2];    /* the output lanes stored: np 2: st[0] plane q, st[1] plane q + 1;
                        * np 1: st[k] vector k */
} pdnn_dws2f_plan;

/* The plan of g; 0 when g is outside the set (kh, kw != 3, OW > 15, OH > 64, x rows
 * wider than 16 columns at two planes a vector or 32 at one). */
int pdnn_f32_dws2f_plan__avx512(const pdnn_dws2_geom *g, pdnn_dws2f_plan *pl);

#endif
