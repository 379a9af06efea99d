/* Depthwise-convolution micro-kernels (internal): plain C loops compiled once per ISA
 * (<type>_dwconv__<isa>.c, gcc vectorizes them at the file's ISA), chosen at run time.
 * Used by src/ops/conv/cpu/conv_cpu_direct_dw.c.
 *
 * Every sum adds its terms in the order written (t increasing, then j), each product
 * rounded before its addition (no fused multiply-add: -std=c11 contracts nothing), so
 * the results are the same at every ISA; vectors only run many outputs side by side.
 * blend(o, acc) stores alpha * acc, plus beta * o when beta != 0 (o unread when
 * beta == 0), a separate multiply and add. Unit strides unless a stride is given;
 * n may be 0. */
#ifndef PDNN_UKERNELS_DWCONV_H
#define PDNN_UKERNELS_DWCONV_H

#include <stddef.h>

/* Lanes of the dot16 kernels (fixed: it sets the summation order). */
#define PDNN_DWCONV_LANES 16

/* Flat kernel: outputs computed in blocks up to a multiple of this many elements; taps
 * held at once (more run as further passes that add to y). */
#define PDNN_DWCONV_FLAT_PAD 64
#define PDNN_DWCONV_FLAT_TAPS 16

#define PDNN_DWCONV_DECLARE(T, S, isa)                                                     \
    /* y[f] = sum_{t < ntap} w[t] * x[t][f] for f < n rounded up to a multiple of         \
     * PDNN_DWCONV_FLAT_PAD (x read and y written that far; ntap == 0: zeros) */          \
    void pdnn_##S##_dwconv_flat__##isa(size_t n, size_t ntap, const T *const *x,           \
                                       const T *w, T *y);                                  \
    /* y[o] = blend(y[o], sum_{t < ntap} w[t] * x[t][o * st]), o < n */                    \
    void pdnn_##S##_dwconv_row__##isa(size_t n, size_t ntap, const T *const *x, const T *w, \
                                      size_t st, T *y, T alpha, T beta);                   \
    /* out[c] = blend(out[c], sum_{t < ntap} w[t][c] * s[t][c]), c < n */                  \
    void pdnn_##S##_dwconv_chan__##isa(size_t n, size_t ntap, const T *const *s,           \
                                       const T *const *w, T *out, T alpha, T beta);        \
    /* acc[j % 16] += a[j] * b[j * st], j < n in increasing order */                       \
    void pdnn_##S##_dwconv_dot16__##isa(size_t n, const T *a, const T *b, size_t st, T *acc); \
    /* acc[t * 16 + j % 16] += a[j] * b[t][j], t < ntap, j < n in increasing order */       \
    void pdnn_##S##_dwconv_dot16n__##isa(size_t n, size_t ntap, const T *a,                \
                                         const T *const *b, T *acc);                       \
    /* acc[c] += a[c] * b[c], c < n */                                                     \
    void pdnn_##S##_dwconv_mac__##isa(size_t n, const T *a, const T *b, T *acc);           \
    /* acc[t * ld + c] += a[c] * b[t][c], t < ntap (in order), c < n */                    \
    void pdnn_##S##_dwconv_macn__##isa(size_t n, size_t ntap, const T *a,                  \
                                       const T *const *b, T *acc, size_t ld);              \
    /* acc[j] += w * x[j], j < n */                                                        \
    void pdnn_##S##_dwconv_axpy__##isa(size_t n, T w, const T *x, T *acc);

PDNN_DWCONV_DECLARE(float, f32, scalar)
PDNN_DWCONV_DECLARE(float, f32, avx2)
PDNN_DWCONV_DECLARE(float, f32, avx512)
PDNN_DWCONV_DECLARE(double, f64, scalar)
PDNN_DWCONV_DECLARE(double, f64, avx2)
PDNN_DWCONV_DECLARE(double, f64, avx512)

#define PDNN_DWCONV_TABLE(T, S)                                                            \
    typedef struct {                                                                       \
        void (*row)(size_t, size_t, const T *const *, const T *, size_t, T *, T, T);       \
        void (*chan)(size_t, size_t, const T *const *, const T *const *, T *, T, T);       \
        void (*dot16)(size_t, const T *, const T *, size_t, T *);                          \
        void (*dot16n)(size_t, size_t, const T *, const T *const *, T *);                  \
        void (*mac)(size_t, const T *, const T *, T *);                                    \
        void (*macn)(size_t, size_t, const T *, const T *const *, T *, size_t);            \
        void (*axpy)(size_t, T, const T *, T *);                                           \
        void (*flat)(size_t, size_t, const T *const *, const T *, T *);                    \
    } pdnn_##S##_dwconv_ukernels;

PDNN_DWCONV_TABLE(float, f32)
PDNN_DWCONV_TABLE(double, f64)

/* The kernels for pdnn_cpu_isa(). */
const pdnn_f32_dwconv_ukernels *pdnn_f32_dwconv_select(void);
const pdnn_f64_dwconv_ukernels *pdnn_f64_dwconv_select(void);

#endif
