/* Channel-blocked depthwise micro-kernels (dwcb_ukernels.h) in plain C for baseline
 * x86-64: 16-lane loops the compiler vectorizes (SSE2), a rounded product then an
 * addition; also the run-time choice of the kernels. */
#include "cpu/isa.h"
#include "cpu/ukernels/dwconv/dwcb_ukernels.h"

#define DWCB_NAME(op) pdnn_f32_dwcb_##op##__scalar
#include "cpu/ukernels/dwconv/dwcb_plain.h"

void pdnn_f32_dwcb_conv__scalar(size_t n1, size_t n2, size_t ntap, const ptrdiff_t *toff,
                                const float *w, const float *x, ptrdiff_t xs1, ptrdiff_t xs2,
                                float *y, ptrdiff_t ys1, ptrdiff_t ys2)
{
    enum { L = PDNN_DWCB_LANES };
    for (size_t o1 = 0; o1 < n1; o1++)
        for (size_t o2 = 0; o2 < n2; o2++) {
            const float *xo = x + (ptrdiff_t)o1 * xs1 + (ptrdiff_t)o2 * xs2;
            float a[L] = {0};
            for (size_t t = 0; t < ntap; t++) {
                const float *restrict xt = xo + toff[t], *restrict wt = w + t * L;
                for (int c = 0; c < L; c++) {
                    const float m = wt[c] * xt[c];
                    a[c] = a[c] + m;
                }
            }
            float *restrict yo = y + (ptrdiff_t)o1 * ys1 + (ptrdiff_t)o2 * ys2;
            for (int c = 0; c < L; c++) yo[c] = a[c];
        }
}

void pdnn_f32_dwcb_bwdf__scalar(size_t n1, size_t n2, size_t ntap, const ptrdiff_t *toff,
                                const float *x, ptrdiff_t xs1, ptrdiff_t xs2, const float *dy,
                                ptrdiff_t ds1, float *acc)
{
    enum { L = PDNN_DWCB_LANES };
    for (size_t t = 0; t < ntap; t++) {
        float a[L];
        float *restrict at = acc + t * L;
        for (int c = 0; c < L; c++) a[c] = at[c];
        for (size_t o1 = 0; o1 < n1; o1++)
            for (size_t o2 = 0; o2 < n2; o2++) {
                const float *restrict xt = x + (ptrdiff_t)o1 * xs1 + (ptrdiff_t)o2 * xs2 + toff[t];
                const float *restrict d = dy + (ptrdiff_t)o1 * ds1 + (ptrdiff_t)o2 * L;
                for (int c = 0; c < L; c++) {
                    const float m = d[c] * xt[c];
                    a[c] = a[c] + m;
                }
            }
        for (int c = 0; c < L; c++) at[c] = a[c];
    }
}

static const pdnn_f32_dwcb_ukernels tab[] = {
    {pdnn_f32_dwcb_conv__scalar, pdnn_f32_dwcb_bwdf__scalar, pdnn_f32_dwcb_pack__scalar,
     pdnn_f32_dwcb_unpack__scalar, pdnn_f32_dwcb_flat__scalar,
     pdnn_f32_dwcb_flat2__scalar,
     pdnn_f32_dwcb_flatw__scalar},
    {pdnn_f32_dwcb_conv__avx2, pdnn_f32_dwcb_bwdf__avx2, pdnn_f32_dwcb_pack__avx2,
     pdnn_f32_dwcb_unpack__avx2, pdnn_f32_dwcb_flat__avx2,
     pdnn_f32_dwcb_flat2__avx2,
     pdnn_f32_dwcb_flatw__avx2},
    {pdnn_f32_dwcb_conv__avx512, pdnn_f32_dwcb_bwdf__avx512, pdnn_f32_dwcb_pack__avx512,
     pdnn_f32_dwcb_unpack__avx512, pdnn_f32_dwcb_flat__avx512,
     pdnn_f32_dwcb_flat2__avx2, /* never reached: stride 2 runs in conv_cpu_direct_dw_s2.c */
     pdnn_f32_dwcb_flatw__avx512},
};

const pdnn_f32_dwcb_ukernels *pdnn_f32_dwcb_select(void)
{
    return &tab[pdnn_cpu_isa()];
}
