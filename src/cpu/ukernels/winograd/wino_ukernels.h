/* Winograd F(4x4, 3x3) and F(4x4, 5x5) transform micro-kernels (internal), one ISA a
 * file, named as XNNPACK names its kernels: pdnn_<type>_wino<m>x<r>_<transform>__<isa>.
 *
 * Every kernel maps n independent lanes (l < n) of small matrices, each element of a
 * matrix a separate array of lanes: element e of lane l is read at s[e * ss + l] and
 * written at d[e * ds + l] (matrices row-major; lanes contiguous, so gcc vectorizes
 * the loop over lanes). Lanes are tiles or channels, as the caller arranges. With the
 * tile matrices of conv_cpu_wino.h (r x r filter g, alpha = 4 + r - 1: alpha x alpha
 * input tile D and product M, 4x4 output tile Y; r = 3: alpha 6, r = 5: alpha 8):
 *   in:     a x a -> a x a  V = B^T D B          (input transform)
 *   flt:    r x r -> a x a  U = G g G^T          (filter transform)
 *   out:    a x a -> 4 x 4  Y = A^T M A          (output transform)
 *   dyt:    4 x 4 -> a x a  Z = A dY A^T         (output-gradient transform, backward filter)
 *   fltinv: a x a -> r x r  dg = G^T W G         (filter-gradient transform, backward filter)
 *   deint:  d[e * ds + l] = s[l * ss + e] for e < a: lane l's window of a columns in one
 *           row of x, windows ss apart (ss = 4: the input tiles of one tile row), dealt
 *           to a rows of lanes (a copy; the only kernel with that layout for s)
 *   deintz (its own signature, pdnn_<type>_wino_deintz_fn): the a window rows of a run
 *           of tiles at once, deint with window step 4, the rows and columns outside
 *           x read as zeros: for i < a, e < a, l < n, j = 4 l + e,
 *           d[(a i + e) ds + l] = s[(i - r0) rs + j - lo] when r0 <= i < r1 and
 *           lo <= j < hi, else 0 (0 <= lo <= hi); s points at the first element read
 *           (row r0, column lo; nothing else outside rows r0 .. r1 - 1, columns
 *           lo .. hi - 1 is read)
 *   inter (its own signature, pdnn_<type>_wino_inter_fn): the inverse of deint for the
 *           output side, the 4 columns of each output tile of a run of tiles back into
 *           rows of y: for i < nrow (<= 4, output rows), k < n (columns),
 *           r = alpha * s[(4 i + k % 4) * ss + k / 4], then d[i * drs + k] = r when
 *           beta == 0 (d never read), else r + beta * d[i * drs + k] (unit-stride rows;
 *           n need not be a multiple of 4: the last tile cut)
 *   gather (its own signature, pdnn_f32_wino_gather_fn; variant-independent, one file
 *           per ISA): the filter taps into the flt kernel's lanes, for l < n, k < ntap:
 *           d[k * ds + l] = s[off[l] + toff[k]] when off[l] >= 0, else 0 (a copy;
 *           int32 offsets, the caller checks that they fit)
 * Each output is one fixed expression of its inputs (no FMA contraction under -std=c11),
 * the same for every lane, so results never depend on how lanes are grouped; they may
 * differ between ISA levels (vector width only; same operations). s and d must not
 * overlap; n may be 0. */
#ifndef PDNN_UKERNELS_WINO_H
#define PDNN_UKERNELS_WINO_H

#include <stddef.h>
#include <stdint.h>

typedef void (*pdnn_f32_wino_fn)(size_t n, const float *s, ptrdiff_t ss, float *d,
                                 ptrdiff_t ds);
typedef void (*pdnn_f64_wino_fn)(size_t n, const double *s, ptrdiff_t ss, double *d,
                                 ptrdiff_t ds);

typedef void (*pdnn_f32_wino_deintz_fn)(size_t n, const float *s, ptrdiff_t rs, ptrdiff_t r0,
                                        ptrdiff_t r1, ptrdiff_t lo, ptrdiff_t hi, float *d,
                                        ptrdiff_t ds);
typedef void (*pdnn_f64_wino_deintz_fn)(size_t n, const double *s, ptrdiff_t rs, ptrdiff_t r0,
                                        ptrdiff_t r1, ptrdiff_t lo, ptrdiff_t hi, double *d,
                                        ptrdiff_t ds);
typedef void (*pdnn_f32_wino_inter_fn)(size_t n, size_t nrow, const float *s, ptrdiff_t ss,
                                       float *d, ptrdiff_t drs, float alpha, float beta);
typedef void (*pdnn_f64_wino_inter_fn)(size_t n, size_t nrow, const double *s, ptrdiff_t ss,
                                       double *d, ptrdiff_t drs, double alpha, double beta);

typedef void (*pdnn_f32_wino_gather_fn)(size_t n, const float *s, const int32_t *off,
                                        const int32_t *toff, size_t ntap, float *d,
                                        ptrdiff_t ds);

#define PDNN_F32_WINO_UKERNEL(name) \
    void name(size_t n, const float *restrict s, ptrdiff_t ss, float *restrict d, ptrdiff_t ds)
#define PDNN_F64_WINO_UKERNEL(name)                                                        \
    void name(size_t n, const double *restrict s, ptrdiff_t ss, double *restrict d,         \
              ptrdiff_t ds)

/* The kernels of one type, variant (4x3: F(4x4, 3x3), wino4x3_tmpl.h; 4x5:
 * F(4x4, 5x5), wino4x5_tmpl.h) and ISA. */
#define PDNN_F32_WINO_SET(v, isa)                          \
    PDNN_F32_WINO_UKERNEL(pdnn_f32_wino##v##_in__##isa);   \
    PDNN_F32_WINO_UKERNEL(pdnn_f32_wino##v##_flt__##isa);  \
    PDNN_F32_WINO_UKERNEL(pdnn_f32_wino##v##_out__##isa);  \
    PDNN_F32_WINO_UKERNEL(pdnn_f32_wino##v##_dyt__##isa);  \
    PDNN_F32_WINO_UKERNEL(pdnn_f32_wino##v##_fltinv__##isa); \
    PDNN_F32_WINO_UKERNEL(pdnn_f32_wino##v##_deint__##isa); \
    void pdnn_f32_wino##v##_deintz__##isa(size_t n, const float *restrict s, ptrdiff_t rs, \
                                          ptrdiff_t r0, ptrdiff_t r1, ptrdiff_t lo, \
                                          ptrdiff_t hi, float *restrict d, ptrdiff_t ds); \
    void pdnn_f32_wino##v##_inter__##isa(size_t n, size_t nrow, const float *restrict s, \
                                         ptrdiff_t ss, float *restrict d, ptrdiff_t drs, \
                                         float alpha, float beta)
#define PDNN_F64_WINO_SET(v, isa)                          \
    PDNN_F64_WINO_UKERNEL(pdnn_f64_wino##v##_in__##isa);   \
    PDNN_F64_WINO_UKERNEL(pdnn_f64_wino##v##_flt__##isa);  \
    PDNN_F64_WINO_UKERNEL(pdnn_f64_wino##v##_out__##isa);  \
    PDNN_F64_WINO_UKERNEL(pdnn_f64_wino##v##_dyt__##isa);  \
    PDNN_F64_WINO_UKERNEL(pdnn_f64_wino##v##_fltinv__##isa); \
    PDNN_F64_WINO_UKERNEL(pdnn_f64_wino##v##_deint__##isa); \
    void pdnn_f64_wino##v##_deintz__##isa(size_t n, const double *restrict s, ptrdiff_t rs, \
                                          ptrdiff_t r0, ptrdiff_t r1, ptrdiff_t lo, \
                                          ptrdiff_t hi, double *restrict d, ptrdiff_t ds); \
    void pdnn_f64_wino##v##_inter__##isa(size_t n, size_t nrow, const double *restrict s, \
                                         ptrdiff_t ss, double *restrict d, ptrdiff_t drs, \
                                         double alpha, double beta)

/* Plain C compiled for baseline x86-64 (SSE2), for AVX2 + FMA3 and for AVX-512 (gcc
 * vectorizes the lanes at each width). */
/* The f32 F(4x4, 3x3) AVX-512 set's split input transform (wino4x3_tmpl.h): deintzb
 * (deintz's contract, then each window row times B) and incol (B^T down the columns;
 * the in kernel's contract, its input the row-transformed windows). */
void pdnn_f32_wino4x3_deintzb__avx512(size_t n, const float *restrict s, ptrdiff_t rs,
                                      ptrdiff_t r0, ptrdiff_t r1, ptrdiff_t lo, ptrdiff_t hi,
                                      float *restrict d, ptrdiff_t ds);
PDNN_F32_WINO_UKERNEL(pdnn_f32_wino4x3_incol__avx512);

#define PDNN_F32_WINO_GATHER(isa)                                                          \
    void pdnn_f32_wino_gather__##isa(size_t n, const float *restrict s,                    \
                                     const int32_t *restrict off,                          \
                                     const int32_t *restrict toff, size_t ntap,            \
                                     float *restrict d, ptrdiff_t ds)
PDNN_F32_WINO_GATHER(scalar);
PDNN_F32_WINO_GATHER(avx2);
PDNN_F32_WINO_GATHER(avx512);

PDNN_F32_WINO_SET(4x3, scalar);
PDNN_F32_WINO_SET(4x3, avx2);
PDNN_F32_WINO_SET(4x3, avx512);
PDNN_F64_WINO_SET(4x3, scalar);
PDNN_F64_WINO_SET(4x3, avx2);
PDNN_F64_WINO_SET(4x3, avx512);
PDNN_F32_WINO_SET(4x5, scalar);
PDNN_F32_WINO_SET(4x5, avx2);
PDNN_F32_WINO_SET(4x5, avx512);
PDNN_F64_WINO_SET(4x5, scalar);
PDNN_F64_WINO_SET(4x5, avx2);
PDNN_F64_WINO_SET(4x5, avx512);

#endif
