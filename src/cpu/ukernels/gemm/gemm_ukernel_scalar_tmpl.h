/* Body of the plain-C GEMM micro-kernels (internal), included by each
 * f32/f64_gemm_<MR>x<NR>__scalar.c file after it defines:
 *   UK_FN  the function name   UK_T  float or double   UK_MR, UK_NR  the tile
 * gcc vectorizes it for SSE2. Contract in gemm_ukernels.h. */

void UK_FN(size_t mr, size_t nr, size_t kc, const UK_T *restrict a, ptrdiff_t rs_a,
           ptrdiff_t cs_a, const UK_T *restrict b, UK_T *restrict c, ptrdiff_t rs_c,
           ptrdiff_t cs_c, UK_T alpha, UK_T beta)
{
    if (mr == 0 || nr == 0) return;
    ptrdiff_t ao[UK_MR]; /* row offsets in A; rows past mr repeat row mr - 1 */
    for (int i = 0; i < UK_MR; i++)
        ao[i] = (ptrdiff_t)((size_t)i < mr ? (size_t)i : mr - 1) * rs_a;
    UK_T acc[UK_MR][UK_NR];
    for (int i = 0; i < UK_MR; i++)
        for (int j = 0; j < UK_NR; j++) acc[i][j] = 0;
    for (size_t k = 0; k < kc; k++) {
        UK_T bk[UK_NR];
        for (int j = 0; j < UK_NR; j++) bk[j] = b[j];
        for (int i = 0; i < UK_MR; i++) {
            const UK_T ai = a[ao[i]];
            for (int j = 0; j < UK_NR; j++) acc[i][j] += ai * bk[j];
        }
        a += cs_a;
        b += UK_NR;
    }
    if (mr == UK_MR && nr == UK_NR && cs_c == 1) {
        if (beta == 0) {
            for (int i = 0; i < UK_MR; i++)
                for (int j = 0; j < UK_NR; j++) c[i * rs_c + j] = alpha * acc[i][j];
        } else {
            for (int i = 0; i < UK_MR; i++)
                for (int j = 0; j < UK_NR; j++)
                    c[i * rs_c + j] = alpha * acc[i][j] + beta * c[i * rs_c + j];
        }
        return;
    }
    for (size_t i = 0; i < mr; i++) {
        for (size_t j = 0; j < nr; j++) {
            UK_T *p = c + (ptrdiff_t)i * rs_c + (ptrdiff_t)j * cs_c;
            UK_T v = alpha * acc[i][j];
            if (beta != 0) v += beta * *p;
            *p = v;
        }
    }
}
