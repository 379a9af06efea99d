/* GEMM micro-kernels (internal), named as in XNNPACK:
 * pdnn_<type>_gemm_ukernel_<MR>x<NR>__<isa>, one ISA per file.
 *
 * A micro-kernel computes one MR x NR tile of C from packed panels:
 *   acc[i][j] = sum_{k < kc} a[k * MR + i] * b[k * NR + j]   (k in increasing order)
 *   C[i][j]   = alpha * acc[i][j] + beta * C[i][j]   for i < mr, j < nr
 * with C[i][j] at c[i * rs_c + j * cs_c]. When beta == 0, C is never read. Rows i >= mr
 * and columns j >= nr of the panels are computed but never stored (the packers fill
 * them with zeros). kc may be 0 (acc = 0). The epilogue multiplies and adds separately
 * (no fused multiply-add), so a tile stored through a scratch tile with alpha = 1,
 * beta = 0 and blended afterwards gives the same bits as a direct store. */
#ifndef PDNN_UKERNELS_GEMM_H
#define PDNN_UKERNELS_GEMM_H

#include <stddef.h>

typedef void (*pdnn_f32_gemm_ukernel_fn)(size_t mr, size_t nr, size_t kc,
                                         const float *a, const float *b, float *c,
                                         ptrdiff_t rs_c, ptrdiff_t cs_c, float alpha,
                                         float beta);
typedef void (*pdnn_f64_gemm_ukernel_fn)(size_t mr, size_t nr, size_t kc,
                                         const double *a, const double *b, double *c,
                                         ptrdiff_t rs_c, ptrdiff_t cs_c, double alpha,
                                         double beta);

/* Plain C, auto-vectorized for baseline x86-64 (SSE2). */
void pdnn_f32_gemm_ukernel_6x8__scalar(size_t mr, size_t nr, size_t kc, const float *a,
                                       const float *b, float *c, ptrdiff_t rs_c,
                                       ptrdiff_t cs_c, float alpha, float beta);
void pdnn_f64_gemm_ukernel_4x8__scalar(size_t mr, size_t nr, size_t kc, const double *a,
                                       const double *b, double *c, ptrdiff_t rs_c,
                                       ptrdiff_t cs_c, double alpha, double beta);

#endif
