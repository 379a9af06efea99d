/* f32 tap gather of the Winograd filter transform (wino_ukernels.h), plain C: the
 * reference of the vector kernels (one element at a time, lane by lane). */
#include "cpu/ukernels/winograd/wino_ukernels.h"

void pdnn_f32_wino_gather__scalar(size_t n, const float *restrict s,
                                  const int32_t *restrict off, const int32_t *restrict toff,
                                  size_t ntap, float *restrict d, ptrdiff_t ds)
{
    for (size_t l = 0; l < n; l++)
        for (size_t k = 0; k < ntap; k++)
            d[(ptrdiff_t)k * ds + (ptrdiff_t)l] = off[l] < 0 ? 0.0f : s[off[l] + toff[k]];
}
