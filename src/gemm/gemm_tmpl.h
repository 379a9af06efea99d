/* Type-generic body of gemm_blocked.c, included once per element type with
 * GT (the C type), GS (the name suffix: f32, f64) and GFN (the ukernel field). */

#define GCAT_(a, b) a##_##b
#define GCAT(a, b) GCAT_(a, b)
#define GNAME(n) GCAT(n, GS)

static void GNAME(pack_a)(int mr, int64_t m, int64_t k, const GT *src, int64_t rs,
                          int64_t cs, GT *dst)
{
    for (int64_t p = 0; p * mr < m; p++) {
        const int64_t i0 = p * mr, mm = m - i0 < mr ? m - i0 : mr;
        GT *d = dst + p * k * mr;
        const GT *s = src + i0 * rs;
        for (int64_t j = 0; j < k; j++, d += mr) {
            int64_t i = 0;
            for (; i < mm; i++) d[i] = s[i * rs + j * cs];
            for (; i < mr; i++) d[i] = 0;
        }
    }
}

static void GNAME(pack_b)(int nr, int64_t k, int64_t n, const GT *src, int64_t rs,
                          int64_t cs, GT *dst)
{
    for (int64_t q = 0; q * nr < n; q++) {
        const int64_t j0 = q * nr, nn = n - j0 < nr ? n - j0 : nr;
        GT *d = dst + q * k * nr;
        const GT *s = src + j0 * cs;
        for (int64_t i = 0; i < k; i++, d += nr) {
            int64_t j = 0;
            if (cs == 1)
                for (; j < nn; j++) d[j] = s[i * rs + j];
            else
                for (; j < nn; j++) d[j] = s[i * rs + j * cs];
            for (; j < nr; j++) d[j] = 0;
        }
    }
}

static void GNAME(macro)(const pdnn_gemm_ukernel *uk, int64_t m, int64_t n, int64_t k,
                         const GT *ap, int64_t a_ps, const GT *bp, int64_t b_ps, GT *c,
                         int64_t rs_c, int64_t cs_c, const int64_t *coff, GT alpha, GT beta)
{
    const int mr = uk->mr, nr = uk->nr;
    if (m <= 0 || n <= 0) return;
    int64_t pc = 0;
    do {
        const int64_t kc = k - pc < PDNN_GEMM_KC ? k - pc : PDNN_GEMM_KC;
        const GT b_eff = pc == 0 ? beta : (GT)1;
        for (int64_t j0 = 0; j0 < n; j0 += nr) {
            const size_t nn = (size_t)(n - j0 < nr ? n - j0 : nr);
            const GT *b = bp + (j0 / nr) * b_ps + pc * nr;
            for (int64_t i0 = 0; i0 < m; i0 += mr) {
                const size_t mm = (size_t)(m - i0 < mr ? m - i0 : mr);
                const GT *a = ap + (i0 / mr) * a_ps + pc * mr;
                if (!coff) {
                    uk->GFN(mm, nn, (size_t)kc, a, b, c + i0 * rs_c + j0 * cs_c,
                            (ptrdiff_t)rs_c, (ptrdiff_t)cs_c, alpha, b_eff);
                    continue;
                }
                /* any column placement: through a tile, same arithmetic as above */
                GT tile[PDNN_GEMM_MR_MAX * PDNN_GEMM_NR_MAX];
                uk->GFN((size_t)mr, (size_t)nr, (size_t)kc, a, b, tile, nr, 1, (GT)1, (GT)0);
                for (size_t i = 0; i < mm; i++) {
                    GT *row = c + (i0 + (int64_t)i) * rs_c;
                    for (size_t j = 0; j < nn; j++) {
                        GT *d = row + coff[j0 + (int64_t)j];
                        GT v = alpha * tile[i * (size_t)nr + j];
                        if (b_eff != 0) v += b_eff * *d;
                        *d = v;
                    }
                }
            }
        }
        pc += kc;
    } while (pc < k);
}

static void GNAME(gemm)(const pdnn_gemm_ukernel *uk, bool ta, bool tb, int64_t m,
                        int64_t n, int64_t k, GT alpha, const GT *a, int64_t lda,
                        const GT *b, int64_t ldb, GT beta, GT *c, int64_t ldc,
                        void *scratch, int nthreads)
{
    gemm_blocking bl = gemm_block(uk, m, n, nthreads);
    const size_t stride = gemm_thread_bytes(sizeof(GT), m, n, k);
    const size_t a_part = gemm_a_bytes(sizeof(GT), m, k);
    char *base = pdnn_gemm_align_ptr(scratch);
    const int64_t a_rs = ta ? 1 : lda, a_cs = ta ? lda : 1;
    const int64_t b_rs = tb ? 1 : ldb, b_cs = tb ? ldb : 1;
#pragma omp parallel num_threads(bl.nt) if (bl.nt > 1)
    {
        GT *abuf = (GT *)(base + (size_t)omp_get_thread_num() * stride);
        GT *bbuf = (GT *)((char *)abuf + a_part);
#pragma omp for schedule(static)
        for (int64_t task = 0; task < bl.mb * bl.nb; task++) {
            const int64_t i0 = (task % bl.mb) * bl.mc, j0 = (task / bl.mb) * bl.nc;
            const int64_t mm = m - i0 < bl.mc ? m - i0 : bl.mc;
            const int64_t nn = n - j0 < bl.nc ? n - j0 : bl.nc;
            int64_t pc = 0;
            do {
                const int64_t kc = k - pc < PDNN_GEMM_KC ? k - pc : PDNN_GEMM_KC;
                if (kc > 0) { /* (a and b may be NULL when k == 0) */
                    GNAME(pack_a)(uk->mr, mm, kc, a + i0 * a_rs + pc * a_cs, a_rs, a_cs,
                                  abuf);
                    GNAME(pack_b)(uk->nr, kc, nn, b + pc * b_rs + j0 * b_cs, b_rs, b_cs,
                                  bbuf);
                }
                GNAME(macro)(uk, mm, nn, kc, abuf, kc * uk->mr, bbuf, kc * uk->nr,
                             c + i0 * ldc + j0, ldc, 1, NULL, alpha, pc == 0 ? beta : (GT)1);
                pc += kc;
            } while (pc < k);
        }
    }
}

#undef GNAME
#undef GCAT
#undef GCAT_
