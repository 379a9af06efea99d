/* Two-way deinterleave and interleave (internal), one ISA a file:
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

/* The inverse, two-way interleave:
 *   dst[2 * i] = even[i]   for i < (n + 1) / 2
 *   dst[2 * i + 1] = odd[i]   for i < n / 2
 * Writes dst[0 .. n) and nothing else, reads only those elements of even and odd; no
 * overlaps; n may be 0. Used to merge the two column phases of a strided backward
 * data's dx rows (conv_cpu_gemm_bwd_data.c). */
typedef void (*pdnn_f32_interleave2_fn)(const float *even, const float *odd, size_t n,
                                        float *dst);

void pdnn_f32_interleave2__scalar(const float *even, const float *odd, size_t n, float *dst);
void pdnn_f32_interleave2__avx2(const float *even, const float *odd, size_t n, float *dst);
void pdnn_f32_interleave2__avx512(const float *even, const float *odd, size_t n, float *dst);

pdnn_f32_interleave2_fn pdnn_f32_interleave2_select(void);

#endif
