/* Winograd F(4x4, 3x3) transform micro-kernels (internal), one ISA a file, named as
 * XNNPACK names its kernels: pdnn_<type>_wino4x3_<transform>__<isa>.
 *
 * Every kernel maps n independent lanes (l < n) of small matrices, each element of a
 * matrix a separate array of lanes: element e of lane l is read at s[e * ss + l] and
 * written at d[e * ds + l] (matrices row-major; lanes contiguous, so gcc vectorizes
 * the loop over lanes). Lanes are tiles or channels, as the caller arranges. With the
 * tile matrices of conv_cpu_wino.h (6x6 input tile D, 3x3 filter g, 6x6 product M, 4x4
 * output tile Y):
 *   in:     6x6 -> 6x6  V = B^T D B              (input transform)
 *   flt:    3x3 -> 6x6  U = G g G^T              (filter transform)
 *   out:    6x6 -> 4x4  Y = A^T M A              (output transform)
 *   dyt:    4x4 -> 6x6  Z = A dY A^T             (output-gradient transform, backward filter)
 *   fltinv: 6x6 -> 3x3  dg = G^T W G             (filter-gradient transform, backward filter)
 * Each output is one fixed expression of its inputs (no FMA contraction under -std=c11),
 * the same for every lane, so results never depend on how lanes are grouped; they may
 * differ between ISA levels (vector width only; same operations). s and d must not
 * overlap; n may be 0. */
#ifndef PDNN_UKERNELS_WINO_H
#define PDNN_UKERNELS_WINO_H

#include <stddef.h>

typedef void (*pdnn_f32_wino_fn)(size_t n, const float *s, ptrdiff_t ss, float *d,
                                 ptrdiff_t ds);
typedef void (*pdnn_f64_wino_fn)(size_t n, const double *s, ptrdiff_t ss, double *d,
                                 ptrdiff_t ds);

#define PDNN_F32_WINO_UKERNEL(name) \
    void name(size_t n, const float *restrict s, ptrdiff_t ss, float *restrict d, ptrdiff_t ds)
#define PDNN_F64_WINO_UKERNEL(name)                                                        \
    void name(size_t n, const double *restrict s, ptrdiff_t ss, double *restrict d,         \
              ptrdiff_t ds)

/* The five kernels of one type and ISA (wino4x3_tmpl.h defines them). */
#define PDNN_F32_WINO_SET(isa)                        \
    PDNN_F32_WINO_UKERNEL(pdnn_f32_wino4x3_in__##isa);  \
    PDNN_F32_WINO_UKERNEL(pdnn_f32_wino4x3_flt__##isa); \
    PDNN_F32_WINO_UKERNEL(pdnn_f32_wino4x3_out__##isa); \
    PDNN_F32_WINO_UKERNEL(pdnn_f32_wino4x3_dyt__##isa); \
    PDNN_F32_WINO_UKERNEL(pdnn_f32_wino4x3_fltinv__##isa)
#define PDNN_F64_WINO_SET(isa)                        \
    PDNN_F64_WINO_UKERNEL(pdnn_f64_wino4x3_in__##isa);  \
    PDNN_F64_WINO_UKERNEL(pdnn_f64_wino4x3_flt__##isa); \
    PDNN_F64_WINO_UKERNEL(pdnn_f64_wino4x3_out__##isa); \
    PDNN_F64_WINO_UKERNEL(pdnn_f64_wino4x3_dyt__##isa); \
    PDNN_F64_WINO_UKERNEL(pdnn_f64_wino4x3_fltinv__##isa)

/* Plain C compiled for baseline x86-64 (SSE2), for AVX2 + FMA3 and for AVX-512 (gcc
 * vectorizes the lanes at each width). */
PDNN_F32_WINO_SET(scalar);
PDNN_F32_WINO_SET(avx2);
PDNN_F32_WINO_SET(avx512);
PDNN_F64_WINO_SET(scalar);
PDNN_F64_WINO_SET(avx2);
PDNN_F64_WINO_SET(avx512);

#endif
