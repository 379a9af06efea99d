/* Body of the SIMD GEMV micro-kernels (internal), included by each
 * f32_gemv_<MR>__<isa>.c after it defines UK_FN UK_T UK_MR UK_W V VZERO VSET1 VLOADU
 * VFMA VMUL VADD VMASK VMASK_FIRST VMLOADZ and VHSUM(v) (the lanes' sum in a fixed
 * order). Contract in gemv_ukernels.h. */

#define UK_UNROLL _Pragma("GCC unroll 16")
#define UK_CAT_X_(f) f##_x4
#define UK_CAT_X(f) UK_CAT_X_(f)

void UK_FN(size_t mr, size_t kc, const UK_T *restrict a, ptrdiff_t lda, const UK_T *restrict x,
           UK_T *restrict y, ptrdiff_t incy, UK_T alpha, UK_T beta)
{
    if (mr == 0) return;
    if (mr > UK_MR) mr = UK_MR;
    const UK_T *ar[UK_MR]; /* rows past mr repeat row mr - 1 */
    UK_UNROLL for (int i = 0; i < UK_MR; i++)
        ar[i] = a + (ptrdiff_t)((size_t)i < mr ? (size_t)i : mr - 1) * lda;
    V acc0[UK_MR], acc1[UK_MR];
    UK_UNROLL for (int i = 0; i < UK_MR; i++) acc0[i] = acc1[i] = VZERO();
    size_t k = 0;
    for (; k + 2 * UK_W <= kc; k += 2 * UK_W) {
        const V x0 = VLOADU(x + k), x1 = VLOADU(x + k + UK_W);
        UK_UNROLL for (int i = 0; i < UK_MR; i++) {
            acc0[i] = VFMA(VLOADU(ar[i] + k), x0, acc0[i]);
            acc1[i] = VFMA(VLOADU(ar[i] + k + UK_W), x1, acc1[i]);
        }
    }
    if (k + UK_W <= kc) {
        const V x0 = VLOADU(x + k);
        UK_UNROLL for (int i = 0; i < UK_MR; i++) acc0[i] = VFMA(VLOADU(ar[i] + k), x0, acc0[i]);
        k += UK_W;
    }
    if (k < kc) {
        const VMASK mk = VMASK_FIRST(kc - k);
        const V x1 = VMLOADZ(mk, x + k);
        UK_UNROLL for (int i = 0; i < UK_MR; i++)
            acc1[i] = VFMA(VMLOADZ(mk, ar[i] + k), x1, acc1[i]);
    }
    UK_UNROLL for (int i = 0; i < UK_MR; i++) {
        if ((size_t)i >= mr) break;
        const UK_T s = VHSUM(VADD(acc0[i], acc1[i]));
        UK_T v = alpha * s;
        if (beta != 0) {
            const UK_T u = beta * y[i * incy];
            v = v + u;
        }
        y[i * incy] = v;
    }
}

/* Up to UK_NX columns x at once (x + j * ldx), each row's sums in one vector of lanes
 * (k steps of W, the tail through masked loads), then reduced as above: the rows of a
 * are read once for all the columns. Columns past nc repeat column nc - 1 (never
 * stored); y's column j at y + yoff[j]. */
#define UK_NX 4
void UK_CAT_X(UK_FN)(size_t mr, size_t nc, size_t kc, const UK_T *restrict a, ptrdiff_t lda,
                     const UK_T *restrict x, ptrdiff_t ldx, UK_T *restrict y, ptrdiff_t incy,
                     const ptrdiff_t *yoff, UK_T alpha, UK_T beta)
{
    if (mr == 0 || nc == 0) return;
    if (mr > UK_MR) mr = UK_MR;
    if (nc > UK_NX) nc = UK_NX;
    const UK_T *ar[UK_MR], *xc[UK_NX];
    UK_UNROLL for (int i = 0; i < UK_MR; i++)
        ar[i] = a + (ptrdiff_t)((size_t)i < mr ? (size_t)i : mr - 1) * lda;
    UK_UNROLL for (int j = 0; j < UK_NX; j++)
        xc[j] = x + (ptrdiff_t)((size_t)j < nc ? (size_t)j : nc - 1) * ldx;
    V acc[UK_MR][UK_NX];
    UK_UNROLL for (int i = 0; i < UK_MR; i++) UK_UNROLL for (int j = 0; j < UK_NX; j++)
        acc[i][j] = VZERO();
    size_t k = 0;
    for (; k + UK_W <= kc; k += UK_W) {
        V xv[UK_NX];
        UK_UNROLL for (int j = 0; j < UK_NX; j++) xv[j] = VLOADU(xc[j] + k);
        UK_UNROLL for (int i = 0; i < UK_MR; i++) {
            const V av = VLOADU(ar[i] + k);
            UK_UNROLL for (int j = 0; j < UK_NX; j++) acc[i][j] = VFMA(av, xv[j], acc[i][j]);
        }
    }
    if (k < kc) {
        const VMASK mk = VMASK_FIRST(kc - k);
        V xv[UK_NX];
        UK_UNROLL for (int j = 0; j < UK_NX; j++) xv[j] = VMLOADZ(mk, xc[j] + k);
        UK_UNROLL for (int i = 0; i < UK_MR; i++) {
            const V av = VMLOADZ(mk, ar[i] + k);
            UK_UNROLL for (int j = 0; j < UK_NX; j++) acc[i][j] = VFMA(av, xv[j], acc[i][j]);
        }
    }
    UK_UNROLL for (int i = 0; i < UK_MR; i++) {
        if ((size_t)i >= mr) break;
        UK_UNROLL for (int j = 0; j < UK_NX; j++) {
            if ((size_t)j >= nc) break;
            UK_T *yij = y + i * incy + yoff[j];
            UK_T v = alpha * VHSUM(acc[i][j]);
            if (beta != 0) {
                const UK_T u = beta * *yij;
                v = v + u;
            }
            *yij = v;
        }
    }
}
#undef UK_NX

#undef UK_UNROLL
#undef UK_CAT_X_
#undef UK_CAT_X
