/* Stride-2 depthwise micro-kernels on NCHW planes read in place (internal), f32, AVX-512
 * only; used by src/ops/conv/cpu/conv_cpu_direct_dw_s2.c. A plane is H x W (x, dx) or
 * OH x OW (y, dy), rows at a stride, unit column stride; kh x kw taps (kh, kw <=
 * PDNN_DWS2_KMAX) at stride 2 and unit dilation, p1 rows and p2 columns of padding
 * before; w holds the taps in (r1, r2) order as a cross-correlation: y(o1, o2) = sum
 * w[r1 kw + r2] x(2 o1 + r1 - p1, 2 o2 + r2 - p2) over the taps inside x. Taps outside
 * x add nothing (no w * 0). No copies and no scratch:
 *  - fwd: 32 x columns of a row loaded once per chunk of 16 - (kw - 1) / 2 outputs,
 *    every column tap one two-source permute (columns r2, r2 + 2, ...) shared by the
 *    up to ceil(kh / 2) outputs of a block of 4 output rows that read that x row;
 *  - bwdd: dx by chunks of 32 columns, its even and odd columns summed apart (each tap
 *    a masked load of a dy row at a fixed column shift), then interleaved by two
 *    permutes; dx row i gets the taps r1 with i + p1 - r1 even;
 *  - bwdf: the forward's column taps times the dy rows that read them, the kh kw sums
 *    kept as 16 lanes (in registers over the plane, in memory between planes).
 * Sums: every output lane is one chain of fused multiply-adds in (r1, r2) order (fwd,
 * bwdd), in (row, chunk) order (bwdf); fixed by the problem. Masked-off lanes'
 * addresses may lie outside every buffer (never touched). */
#ifndef PDNN_UKERNELS_DWS2_H
#define PDNN_UKERNELS_DWS2_H

#include <stddef.h>
#include <stdint.h>

#define PDNN_DWS2_KMAX 7

typedef struct {
    int64_t H, W, OH, OW; /* x (dx) and y (dy) planes */
    int64_t kh, kw, p1, p2;
    ptrdiff_t xs1, ys1; /* row strides in floats */
} pdnn_dws2_geom;

/* Up to PDNN_DWS2_CHUNKS chunks of output columns a row (fwd, bwdf: 16 - (kw - 1) / 2
 * outputs each, so OW <= 64 * 13 at least; bwdd: 32 dx columns each). */
#define PDNN_DWS2_CHUNKS 64

/* fwd / bwdf chunk: la, lb: the two loads' columns inside x; ko: the chunk's outputs;
 * km[r2]: those whose tap column r2 lies inside x */
typedef struct {
    uint16_t la, lb, ko, km[PDNN_DWS2_KMAX];
} pdnn_dws2_chunk;

/* A problem's lane masks and tap lists, the same for every plane (built once a call by
 * pdnn_f32_dws2_plan__avx512 from g). */
typedef struct {
    pdnn_dws2_geom g;
    int64_t nch, nl; /* fwd / bwdf chunks and their outputs */
    pdnn_dws2_chunk ch[PDNN_DWS2_CHUNKS];
    /* bwdd, chunk q of 32 dx columns (16 dy columns from m = 16 q): md[q][d + 3]: the
     * dy columns m + p2 / 2 + d + l inside dy (d in [-3, 1]); st[q][0 / 1]: the dx
     * columns of the two halves inside dx */
    int64_t nchd;
    uint16_t md[PDNN_DWS2_CHUNKS][5], st[PDNN_DWS2_CHUNKS][2];
} pdnn_dws2_plan;

/* The plan of g; false when g needs more chunks than the plan holds. */
int pdnn_f32_dws2_plan__avx512(const pdnn_dws2_geom *g, pdnn_dws2_plan *pl);

/* y = alpha conv(x) (+ beta y when beta != 0; y unread when beta == 0), one plane.
 * pfo != 0: the memory at x + pfo + (each row's offset) is prefetched row by row (the
 * next plane, or rows further on). */
void pdnn_f32_dws2_fwd__avx512(const pdnn_dws2_plan *pl, const float *x, const float *w,
                               float *y, float alpha, float beta, ptrdiff_t pfo);
/* dx = alpha convT(dy) (+ beta dx likewise), one plane: dx(i, j) = sum over the taps
 * with i = 2 o1 + r1 - p1, j = 2 o2 + r2 - p2 inside dy of w[r1 kw + r2] dy(o1, o2).
 * pfo: as fwd, for dy. */
void pdnn_f32_dws2_bwdd__avx512(const pdnn_dws2_plan *pl, const float *dy, const float *w,
                                float *dx, float alpha, float beta, ptrdiff_t pfo);
/* acc[16 (r1 kw + r2) + l] += the sum over the outputs (o1, o2) of lane l of dy(o1, o2)
 * x(2 o1 + r1 - p1, 2 o2 + r2 - p2), taps inside x only, one plane (each lane a chain in
 * (row, chunk) order). pfx, pfy: as fwd's pfo, for x and dy. */
void pdnn_f32_dws2_bwdf__avx512(const pdnn_dws2_plan *pl, const float *x, const float *dy,
                                ptrdiff_t pfx, ptrdiff_t pfy, float *acc);

#endif
