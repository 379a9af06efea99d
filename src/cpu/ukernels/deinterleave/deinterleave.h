/* Two-way deinterleave (internal), one ISA a file:
 *   even[i] = src[2 * i]       for i < (n + 1) / 2
 *   odd[i]  = src[2 * i + 1]   for i < n / 2
 * Reads src[0 .. n) and nothing past it (the tails are masked), writes nothing else of
 * even or odd; the three ranges must not overlap; n may be 0. A pure copy of values, so
 * every ISA gives the same bits. Used to split the rows of a zero-padded copy into its
 * two stride phases (stride-2 convolutions, conv_cpu_gemm.h), where the rows are short
 * (tens of elements) and a compiler-vectorized strided loop never leaves its scalar
 * tail. */
#ifndef PDNN_UKERNELS_DEINTERLEAVE_H
#define PDNN_UKERNELS_DEINTERLEAVE_H

#include <stddef.h>

typedef void (*pdnn_f32_deinterleave2_fn)(const float *src, size_t n, float *even, float *odd);

void pdnn_f32_deinterleave2__scalar(const float *src, size_t n, float *even, float *odd);
void pdnn_f32_deinterleave2__avx2(const float *src, size_t n, float *even, float *odd);
void pdnn_f32_deinterleave2__avx512(const float *src, size_t n, float *even, float *odd);

/* The kernel of pdnn_cpu_isa(). */
pdnn_f32_deinterleave2_fn pdnn_f32_deinterleave2_select(void);

#endif
