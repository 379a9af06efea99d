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
    if (cs == 1) { /* rows of B: each read once from start to end, dealt to the panels */
        const int64_t nfull = n / nr, rest = n % nr;
        for (int64_t i = 0; i < k; i++) {
            const GT *s = src + i * rs;
            GT *d = dst + i * nr;
            for (int64_t q = 0; q < nfull; q++, s += nr, d += k * nr)
                for (int j = 0; j < nr; j++) d[j] = s[j];
            if (rest) {
                int64_t j = 0;
                for (; j < rest; j++) d[j] = s[j];
                for (; j < nr; j++) d[j] = 0;
            }
        }
        return;
    }
    for (int64_t q = 0; q * nr < n; q++) {
        const int64_t j0 = q * nr, nn = n - j0 < nr ? n - j0 : nr;
        GT *d = dst + q * k * nr;
        const GT *s = src + j0 * cs;
        for (int64_t i = 0; i < k; i++, d += nr) {
            int64_t j = 0;
            for (; j < nn; j++) d[j] = s[i * rs + j * cs];
            for (; j < nr; j++) d[j] = 0;
        }
    }
}

/* ako: A's columns at offsets (pdnn_gemm_macro_ak; then a_ps < 0 and A(i, kk) is at
 * ap[i * -a_ps + ako[kk]]), or NULL. */
static void GNAME(macro)(const pdnn_gemm_ukernel *uk, int64_t m, int64_t n, int64_t k,
                         const GT *ap, int64_t a_ps, const ptrdiff_t *ako, const GT *bp,
                         int64_t b_ps, GT *c, int64_t rs_c, int64_t cs_c, const int64_t *coff,
                         GT alpha, GT beta)
{
    /* one micro-kernel call: A from row block a, columns from pk on */
#define UKCALL(mm_, nn_, kc_, a_, pk_, b_, c_, rs_, cs_, al_, be_)                          \
    (ako ? uk->GFNAK((mm_), (nn_), (kc_), (a_), rs_a, ako + (pk_), (b_), (c_), (rs_), (cs_),  \
                     (al_), (be_))                                                          \
         : uk->GFN((mm_), (nn_), (kc_), (a_) + ((pk_) * cs_a), rs_a, cs_a, (b_), (c_),        \
                   (rs_), (cs_), (al_), (be_)))
    const int mr = uk->mr, nr = uk->nr;
    if (m <= 0 || n <= 0) return;
    int64_t pc = 0;
    do {
        const int64_t kc = k - pc < PDNN_GEMM_KC ? k - pc : PDNN_GEMM_KC;
        const GT b_eff = pc == 0 ? beta : (GT)1;
        for (int64_t j0 = 0; j0 < n; j0 += nr) {
            const size_t nn = (size_t)(n - j0 < nr ? n - j0 : nr);
            bool coff_run = coff != NULL;
            for (size_t j = 1; coff_run && j < nn; j++)
                coff_run = coff[j0 + (int64_t)j] == coff[j0] + (int64_t)j;
            const GT *b = bp + (j0 / nr) * b_ps + pc * nr;
            for (int64_t i0 = 0; i0 < m; i0 += mr) {
                const size_t mm = (size_t)(m - i0 < mr ? m - i0 : mr);
                /* packed panels (a_ps >= 0), or a plain matrix with rows -a_ps apart
                 * (columns 1 apart, or at ako) */
                const GT *a = a_ps >= 0 ? ap + (i0 / mr) * a_ps : ap - i0 * a_ps;
                const ptrdiff_t rs_a = a_ps >= 0 ? 1 : (ptrdiff_t)-a_ps;
                const ptrdiff_t cs_a = a_ps >= 0 ? mr : 1;
                if (!coff) {
                    UKCALL(mm, nn, (size_t)kc, a, pc, b, c + i0 * rs_c + j0 * cs_c,
                           (ptrdiff_t)rs_c, (ptrdiff_t)cs_c, alpha, b_eff);
                    continue;
                }
                if (coff[j0 + (int64_t)nn - 1] - coff[j0] == (int64_t)nn - 1 && coff_run) {
                    /* the tile's columns are consecutive: stored directly */
                    UKCALL(mm, nn, (size_t)kc, a, pc, b, c + i0 * rs_c + coff[j0],
                           (ptrdiff_t)rs_c, 1, alpha, b_eff);
                    continue;
                }
                /* any column placement: the whole K of this tile at the first block, in
                 * a local tile that holds exactly what C would (C's cells gathered for
                 * the first block's beta, the later blocks adding to it), then the
                 * cells are stored run by run: same bits as a direct store, and C's
                 * scattered cells written once, not per block */
                if (pc != 0) continue;
                GT tile[PDNN_GEMM_MR_MAX * PDNN_GEMM_NR_MAX];
                const int64_t *co = coff + j0;
                if (beta != 0)
                    for (size_t i = 0; i < mm; i++)
                        for (size_t j = 0; j < nn; j++)
                            tile[i * (size_t)nr + j] = c[(i0 + (int64_t)i) * rs_c + co[j]];
                for (int64_t pk = 0; pk < k; pk += PDNN_GEMM_KC) {
                    const int64_t kk = k - pk < PDNN_GEMM_KC ? k - pk : PDNN_GEMM_KC;
                    UKCALL(mm, nn, (size_t)kk, a, pk, bp + (j0 / nr) * b_ps + pk * nr, tile, nr,
                           1, alpha, pk == 0 ? beta : (GT)1);
                }
                /* by runs of consecutive columns (an image's end and the next one's start
                 * in an NCHW output): plain copies the compiler vectorizes */
                for (size_t j = 0; j < nn;) {
                    size_t e = j + 1;
                    while (e < nn && co[e] == co[e - 1] + 1) e++;
                    for (size_t i = 0; i < mm; i++) {
                        GT *row = c + (i0 + (int64_t)i) * rs_c + co[j];
                        const GT *t = tile + i * (size_t)nr + j;
                        for (size_t l = 0; l < e - j; l++) row[l] = t[l];
                    }
                    j = e;
                }
            }
        }
        pc += kc;
    } while (pc < k);
#undef UKCALL
}

/* One thread's rectangle of C: rows [r0, r1), columns [c0, c1) (see gemm_blocked.c). */
static void GNAME(gemm_rect)(const pdnn_gemm_ukernel *uk, bool ta, bool tb, int64_t r0,
                             int64_t r1, int64_t c0, int64_t c1, int64_t k, GT alpha,
                             const GT *a, int64_t lda, const GT *b, int64_t ldb, GT beta, GT *c,
                             int64_t ldc, GT *bbuf, GT *apan)
{
    const int64_t mr = uk->mr, nr = uk->nr;
    const int64_t ncr = max64(nr, gemm_nc_target(sizeof(GT)) / nr * nr);
    /* equal column blocks (up to NR) rather than full ones and a small rest */
    const int64_t nc = ceil_div(ceil_div(c1 - c0, ceil_div(c1 - c0, ncr)), nr) * nr;
    const int64_t b_rs = tb ? 1 : ldb, b_cs = tb ? ldb : 1;
    for (int64_t j0 = c0; j0 < c1; j0 += nc) {
        const int64_t nn = min64(c1 - j0, nc), np = ceil_div(nn, nr);
        int64_t pc = 0;
        do {
            const int64_t kc = min64(k - pc, PDNN_GEMM_KC);
            const GT b_eff = pc == 0 ? beta : (GT)1;
            if (kc > 0) /* (a and b may be NULL when k == 0: nothing is read) */
                GNAME(pack_b)((int)nr, kc, nn, b + pc * b_rs + j0 * b_cs, b_rs, b_cs, bbuf);
            for (int64_t i0 = r0; i0 < r1; i0 += mr) {
                const int64_t mm = min64(r1 - i0, mr);
                const GT *ap = a;
                ptrdiff_t ars = 0, acs = 0;
                if (kc > 0 && !ta) { /* rows of A read in place */
                    ap = a + i0 * lda + pc;
                    ars = (ptrdiff_t)lda;
                    acs = 1;
                } else if (kc > 0) { /* columns of A^T: packed into one panel */
                    GNAME(pack_a)((int)mr, mm, kc, a + pc * lda + i0, 1, lda, apan);
                    ap = apan;
                    ars = 1;
                    acs = (ptrdiff_t)mr;
                }
                GT *ci = c + i0 * ldc + j0;
                for (int64_t q = 0; q < np; q++)
                    uk->GFN((size_t)mm, (size_t)min64(nn - q * nr, nr), (size_t)kc, ap, ars, acs,
                            bbuf + q * kc * nr, ci + q * nr, (ptrdiff_t)ldc, 1, alpha, b_eff);
            }
            pc += kc;
        } while (pc < k);
    }
}

static void GNAME(gemm)(const pdnn_gemm_ukernel *uk, bool ta, bool tb, int64_t m,
                        int64_t n, int64_t k, GT alpha, const GT *a, int64_t lda,
                        const GT *b, int64_t ldb, GT beta, GT *c, int64_t ldc,
                        void *scratch, int nthreads)
{
    const int nt_want = gemm_threads(uk, m, n, k, nthreads);
    const size_t per = gemm_thread_bytes(sizeof(GT), n, k);
    const size_t b_part = gemm_b_bytes(sizeof(GT), n, k);
    char *base = pdnn_gemm_align_ptr(scratch);
    const int64_t mr = uk->mr, nr = uk->nr;
#pragma omp parallel num_threads(nt_want) if (nt_want > 1)
    {
        /* the team may be smaller than asked (nested region): split by its real size */
        const int nt = omp_get_num_threads(), tid = omp_get_thread_num();
        GT *bbuf = k > 0 ? (GT *)(base + (size_t)tid * per) : NULL;
        GT *apan = k > 0 ? (GT *)((char *)bbuf + b_part) : NULL;
        int64_t p0, p1, q0, q1;
        gemm_split(ceil_div(m, mr), ceil_div(n, nr), nt, tid, &p0, &p1, &q0, &q1);
        const int64_t r0 = p0 * mr, r1 = min64(m, p1 * mr);
        const int64_t c0 = q0 * nr, c1 = min64(n, q1 * nr);
        if (r0 < r1 && c0 < c1)
            GNAME(gemm_rect)(uk, ta, tb, r0, r1, c0, c1, k, alpha, a, lda, b, ldb, beta, c, ldc,
                             bbuf, apan);
    }
}

#undef GNAME
#undef GCAT
#undef GCAT_
