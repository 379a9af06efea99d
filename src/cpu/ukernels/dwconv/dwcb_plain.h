/* Plain-C bodies of the channel-blocked pack, unpack and flat plane (dwcb_ukernels.h), included by
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

void DWCB_NAME(flat)(size_t n1, size_t n2, const float *x, ptrdiff_t xs1, ptrdiff_t pfo, float *xp, size_t ph,
                     size_t pw, size_t p1, size_t p2, size_t ntap, const ptrdiff_t *toff,
                     const float *w, float *yf, size_t m1, size_t m2, float *y, ptrdiff_t ys1,
                     float alpha, float beta)
{
    enum { L = PDNN_DWCB_LANES };
    (void)pfo;
    const size_t r1 = p1 < ph ? (n1 < ph - p1 ? n1 : ph - p1) : 0;
    const size_t c1 = p2 < pw ? (n2 < pw - p2 ? n2 : pw - p2) : 0;
    for (size_t i = 0; i < r1; i++) {
        float *restrict d = xp + (i + p1) * pw + p2;
        const float *restrict s = x + (ptrdiff_t)i * xs1;
        for (size_t j = 0; j < c1; j++) d[j] = s[j];
    }
    const size_t nf = m1 ? (m1 - 1) * pw + m2 : 0;
    for (size_t f = 0; f < nf; f += L) {
        float a[L] = {0};
        for (size_t t = 0; t < ntap; t++) {
            const float *restrict xt = xp + f + toff[t];
            const float wt = w[t];
            for (int c = 0; c < L; c++) {
                const float m = wt * xt[c];
                a[c] = a[c] + m;
            }
        }
        for (int c = 0; c < L; c++) yf[f + (size_t)c] = a[c];
    }
    for (size_t o1 = 0; o1 < m1; o1++) {
        float *restrict d = y + (ptrdiff_t)o1 * ys1;
        const float *restrict s = yf + o1 * pw;
        if (beta != 0)
            for (size_t p = 0; p < m2; p++) {
                const float v = alpha * s[p], u = beta * d[p];
                d[p] = v + u;
            }
        else
            for (size_t p = 0; p < m2; p++) d[p] = alpha * s[p];
    }
}

void DWCB_NAME(flat2)(size_t n1, size_t n2, const float *x, ptrdiff_t xs1, ptrdiff_t pfo, float *xp, size_t ph,
                      size_t pw, size_t p1, size_t p2, const float *w, size_t m1, size_t m2,
                      float *y, ptrdiff_t ys1, float alpha, float beta)
{
    (void)pfo;
    const size_t r1 = p1 < ph ? (n1 < ph - p1 ? n1 : ph - p1) : 0;
    const size_t c1 = p2 < pw ? (n2 < pw - p2 ? n2 : pw - p2) : 0;
    for (size_t i = 0; i < r1; i++) {
        float *restrict d = xp + (i + p1) * pw + p2;
        const float *restrict s = x + (ptrdiff_t)i * xs1;
        for (size_t j = 0; j < c1; j++) d[j] = s[j];
    }
    for (size_t o1 = 0; o1 < m1; o1++) {
        float *restrict d = y + (ptrdiff_t)o1 * ys1;
        for (size_t o2 = 0; o2 < m2; o2++) {
            const float *restrict s = xp + 2 * o1 * pw + 2 * o2;
            float a = 0;
            for (size_t t = 0; t < 9; t++) {
                const float m = w[t] * s[(t / 3) * pw + t % 3];
                a = a + m;
            }
            float v = alpha * a;
            if (beta != 0) {
                const float u = beta * d[o2];
                v = v + u;
            }
            d[o2] = v;
        }
    }
}

void DWCB_NAME(flatw)(size_t n1, size_t n2, const float *x, ptrdiff_t xs1, ptrdiff_t pfo,
                      float *xp, size_t ph, size_t pw, size_t p1, size_t p2, size_t ntap,
                      const ptrdiff_t *toff, const float *dy, ptrdiff_t ds1, size_t m1,
                      size_t m2, float *acc)
{
    enum { L = PDNN_DWCB_LANES };
    (void)pfo;
    const size_t r1 = p1 < ph ? (n1 < ph - p1 ? n1 : ph - p1) : 0;
    const size_t c1 = p2 < pw ? (n2 < pw - p2 ? n2 : pw - p2) : 0;
    for (size_t i = 0; i < r1; i++) {
        float *restrict d = xp + (i + p1) * pw + p2;
        const float *restrict s = x + (ptrdiff_t)i * xs1;
        for (size_t j = 0; j < c1; j++) d[j] = s[j];
    }
    for (size_t t = 0; t < ntap; t++) {
        float *restrict a = acc + t * L;
        for (size_t c = 0; c < m2; c += L) {
            const size_t nl = m2 - c < L ? m2 - c : L;
            for (size_t o1 = 0; o1 < m1; o1++) {
                const float *restrict dr = dy + (ptrdiff_t)o1 * ds1 + c;
                const float *restrict xr = xp + o1 * pw + c + toff[t];
                for (size_t l = 0; l < nl; l++) {
                    const float m = dr[l] * xr[l];
                    a[l] = a[l] + m;
                }
            }
        }
    }
}
