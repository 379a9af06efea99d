/* Depthwise 3 x 3 backward-filter micro-kernel on NCHW planes (internal), f32, AVX2 only;
 * used by src/ops/conv/cpu/conv_cpu_direct_dw_bw2.c (the AVX2 machines' backward filter:
 * the AVX-512 paths there are not offered below AVX-512).
 *
 * One channel: its nimg images' x planes (H x W, rows xr apart, images xn apart) and dy
 * planes (m1 x m2, rows dr apart, images dn apart), stride s (1 or 2) on both axes, unit
 * dilation, p1 rows and p2 columns of padding before (the padding after: what the sizes
 * leave). x is read in place; every tap t = 3 r1 + r2 keeps 8 lanes of sums acc[8 t + l]
 * (loaded at the call's start, in registers over its images, stored at its end): lane l
 * of dy vector v (columns 8 v .. 8 v + 7) holds output column j = 8 v + l (stride 1) or
 * 8 v + pi(l), pi = 0 1 4 5 2 3 6 7 (stride 2), and gets dy[o1][j] * xpad[s o1 + r1][s j +
 * r2] for j < m2; lanes past m2, and x columns outside the row, load 0 (masked loads:
 * never read). x rows outside the plane (padding rows) are read as zeros: their taps add
 * dy * 0, as the channel-block path's zero-padded copies do (an Inf or NaN in dy then
 * reaches a tap whose pairings with it are all padding).
 *
 * Sums: each lane is one chain of fused multiply-adds in the order images n, then pairs
 * of dy rows (o1, o1 + 1) from o1 = 0 (an odd last row alone), then vectors v, then the
 * pair's first row before its second; the caller
 * continues the chains over calls (images in order) and sums the lanes in a fixed order.
 * So the result depends on the problem only, never on the thread count or the run;
 * exact on small integers. Offsets and strides in floats, may be negative. */
#ifndef PDNN_UKERNELS_DWBW_H
#define PDNN_UKERNELS_DWBW_H

#include <stddef.h>

#define PDNN_DWBW_LANES 8
/* Output columns m2 at most; x columns W at most 2 PDNN_DWBW_MAXW. */
#define PDNN_DWBW_MAXW 512

/* acc[8 (3 r1 + r2) + l] += the sum above over n < nimg, o1 < m1, j < m2 (lane l's
 * columns j) of dy[n dn + o1 dr + j] *
 * xpad[n][s o1 + r1][s j + r2], where xpad[n][i][k] = x[n xn + (i - p1) xr + k - p2] for
 * 0 <= i - p1 < H, 0 <= k - p2 < W, else 0. s is 1 or 2; m2 <= PDNN_DWBW_MAXW, W <= 2
 * PDNN_DWBW_MAXW; nimg, m1, m2 may be 0 (acc unchanged). */
void pdnn_f32_dwbw3_plane__avx2(size_t s, size_t nimg, const float *x, ptrdiff_t xn,
                                ptrdiff_t xr, size_t H, size_t W, size_t p1, size_t p2,
                                const float *dy, ptrdiff_t dn, ptrdiff_t dr, size_t m1,
                                size_t m2, float *acc);

/* Channel blocks (small planes): 8 channels a vector (lane c: channel c), one image.
 * xb: the x planes zero-padded, pixel (i, k) of the padded plane (row i = x row + p1,
 * column k = x column + p2) at xb[8 (i pw + k) + c]; db: dy, pixel (o1, o2) at
 * db[8 (o1 m2 + o2) + c]; both 32-byte aligned. acc[8 (3 r1 + r2) + c] += dy(o1, o2) *
 * xpad(s o1 + r1, s o2 + r2) over o1 < m1, o2 < m2 in increasing (o1, o2) order: one
 * chain of fused multiply-adds a lane (padding taps add dy * 0). */
void pdnn_f32_dwbw3_cb8__avx2(size_t s, size_t m1, size_t m2, const float *xb, size_t pw,
                              const float *db, float *acc);

#endif
