/* Two-way deinterleave and interleave (deinterleave.h), plain C. */
#include "cpu/ukernels/deinterleave/deinterleave.h"

void pdnn_f32_deinterleave2__scalar(const float *src, size_t n, float *even, float *odd)
{
    size_t i = 0;
    for (; 2 * i + 1 < n; i++) {
        even[i] = src[2 * i];
        odd[i] = src[2 * i + 1];
    }
    if (2 * i < n) even[i] = src[2 * i];
}

void pdnn_f32_interleave2__scalar(const float *even, const float *odd, size_t n, float *dst)
{
    size_t i = 0;
    for (; 2 * i + 1 < n; i++) {
        dst[2 * i] = even[i];
        dst[2 * i + 1] = odd[i];
    }
    if (2 * i < n) dst[2 * i] = even[i];
}
