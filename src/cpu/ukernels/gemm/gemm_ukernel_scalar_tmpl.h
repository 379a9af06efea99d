/* Body of the plain-C GEMM micro-kernels (internal), included by each
 * f32/f64_gemm_<MR>x<NR>__scalar.c file after it defines:
 *   UK_FN  the function name   UK_T  float or double   UK_MR, UK_NR  the tile
 * gcc vectorizes it for SSE2. Four entry points, UK_FN, UK_FN_ao (A rows at offsets),
 * UK_FN_ak (A columns at offsets) and UK_FN_bo (B rows in place at offsets), one body.
 * Contract in gemm_ukernels.h. */

#define UK_CAT_(x, y) x##y
#define UK_CAT(x, y) UK_CAT_(x, y)

/* The body of the four entry points: ao[i] is row i's offset in A (rows past mr
 * repeat row mr - 1); column k at k * cs_a, or at ko[k] when ko is not NULL; B's row k
 * the packed panel's, or at b + bo[k] when bo is not NULL (constant NULLs in the other
 * entries, so the compiler drops the tests). */
static inline __attribute__((always_inline)) void
UK_CAT(UK_FN, _body)(size_t mr, size_t nr, size_t kc, const UK_T *restrict a,
                     const ptrdiff_t *ao, ptrdiff_t cs_a, const ptrdiff_t *ko,
                     const ptrdiff_t *bo, const UK_T *restrict b, UK_T *restrict c, ptrdiff_t rs_c, ptrdiff_t cs_c,
                     UK_T alpha, UK_T beta)
{
    UK_T acc[UK_MR][UK_NR];
    for (int i = 0; i < UK_MR; i++)
        for (int j = 0; j < UK_NR; j++) acc[i][j] = 0;
    for (size_t k = 0; k < kc; k++) {
        UK_T bk[UK_NR];
        const UK_T *brow = bo ? b + bo[k] : b;
        for (int j = 0; j < UK_NR; j++) bk[j] = brow[j];
        const UK_T *ak = ko ? a + ko[k] : a;
        for (int i = 0; i < UK_MR; i++) {
            const UK_T ai = ak[ao[i]];
            for (int j = 0; j < UK_NR; j++) acc[i][j] += ai * bk[j];
        }
        if (!ko) a += cs_a;
        if (!bo) b += UK_NR;
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

void UK_FN(size_t mr, size_t nr, size_t kc, const UK_T *restrict a, ptrdiff_t rs_a,
           ptrdiff_t cs_a, const UK_T *restrict b, UK_T *restrict c, ptrdiff_t rs_c,
           ptrdiff_t cs_c, UK_T alpha, UK_T beta)
{
    if (mr == 0 || nr == 0) return;
    ptrdiff_t ao[UK_MR];
    for (int i = 0; i < UK_MR; i++)
        ao[i] = (ptrdiff_t)((size_t)i < mr ? (size_t)i : mr - 1) * rs_a;
    UK_CAT(UK_FN, _body)(mr, nr, kc, a, ao, cs_a, NULL, NULL, b, c, rs_c, cs_c, alpha, beta);
}

void UK_CAT(UK_FN, _ao)(size_t mr, size_t nr, size_t kc, const UK_T *restrict a,
                        const ptrdiff_t *aoff, const UK_T *restrict b, UK_T *restrict c,
                        ptrdiff_t rs_c, ptrdiff_t cs_c, UK_T alpha, UK_T beta)
{
    if (mr == 0 || nr == 0) return;
    ptrdiff_t ao[UK_MR];
    for (int i = 0; i < UK_MR; i++) ao[i] = aoff[(size_t)i < mr ? (size_t)i : mr - 1];
    UK_CAT(UK_FN, _body)(mr, nr, kc, a, ao, 1, NULL, NULL, b, c, rs_c, cs_c, alpha, beta);
}

void UK_CAT(UK_FN, _ak)(size_t mr, size_t nr, size_t kc, const UK_T *restrict a,
                        ptrdiff_t rs_a, const ptrdiff_t *koff, const UK_T *restrict b,
                        UK_T *restrict c, ptrdiff_t rs_c, ptrdiff_t cs_c, UK_T alpha, UK_T beta)
{
    if (mr == 0 || nr == 0) return;
    ptrdiff_t ao[UK_MR];
    for (int i = 0; i < UK_MR; i++)
        ao[i] = (ptrdiff_t)((size_t)i < mr ? (size_t)i : mr - 1) * rs_a;
    UK_CAT(UK_FN, _body)(mr, nr, kc, a, ao, 0, koff, NULL, b, c, rs_c, cs_c, alpha, beta);
}

void UK_CAT(UK_FN, _bo)(size_t mr, size_t nr, size_t kc, const UK_T *restrict a,
                        ptrdiff_t rs_a, ptrdiff_t cs_a, const ptrdiff_t *boff,
                        const UK_T *restrict b, UK_T *restrict c, ptrdiff_t rs_c, ptrdiff_t cs_c,
                        UK_T alpha, UK_T beta)
{
    if (mr == 0 || nr == 0) return;
    ptrdiff_t ao[UK_MR];
    for (int i = 0; i < UK_MR; i++)
        ao[i] = (ptrdiff_t)((size_t)i < mr ? (size_t)i : mr - 1) * rs_a;
    UK_CAT(UK_FN, _body)(mr, nr, kc, a, ao, cs_a, NULL, boff, b, c, rs_c, cs_c, alpha, beta);
}

#undef UK_CAT_
#undef UK_CAT
