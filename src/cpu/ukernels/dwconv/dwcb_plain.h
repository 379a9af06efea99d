/* Plain-C bodies of the channel-blocked pack and unpack (dwcb_ukernels.h), included by
 * f32_dwcb__scalar.c and f32_dwcb__avx2.c with DWCB_NAME(op) naming their functions:
 * element copies the compiler vectorizes at the file's ISA. */

void DWCB_NAME(pack)(size_t nc, size_t n1, size_t n2, const float *src, ptrdiff_t ss1,
                     ptrdiff_t lds, float *dst, ptrdiff_t ds1)
{
    enum { L = PDNN_DWCB_LANES };
    for (size_t i = 0; i < n1; i++) {
        const float *s = src + (ptrdiff_t)i * ss1;
        for (size_t p = 0; p < n2; p++) {
            float *restrict d = dst + (ptrdiff_t)i * ds1 + p * L;
            for (size_t c = 0; c < nc; c++) d[c] = s[(ptrdiff_t)c * lds + (ptrdiff_t)p];
            for (size_t c = nc; c < L; c++) d[c] = 0;
        }
    }
}

void DWCB_NAME(unpack)(size_t nc, size_t n1, size_t n2, const float *src, ptrdiff_t ss1,
                       float *dst, ptrdiff_t ds1, ptrdiff_t ldd, float alpha, float beta)
{
    enum { L = PDNN_DWCB_LANES };
    for (size_t c = 0; c < nc; c++)
        for (size_t i = 0; i < n1; i++) {
            float *restrict d = dst + (ptrdiff_t)c * ldd + (ptrdiff_t)i * ds1;
            const float *s = src + (ptrdiff_t)i * ss1 + c;
            if (beta != 0)
                for (size_t p = 0; p < n2; p++) {
                    const float v = alpha * s[p * L], u = beta * d[p];
                    d[p] = v + u;
                }
            else
                for (size_t p = 0; p < n2; p++) d[p] = alpha * s[p * L];
        }
}
