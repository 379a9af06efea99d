/* Body of the SIMD GEMM micro-kernels (internal), included by each
 * f32/f64_gemm_<MR>x<NR>__<isa>.c file after it defines:
 *   UK_FN      the function name          UK_T   float or double
 *   UK_MR      rows of the tile           UK_NV  vectors per row (NR = UK_NV * UK_W)
 *   UK_W       lanes of a vector          V      the vector type
 *   VZERO() VSET1(x) VLOADU(p) VSTOREU(p, v) VFMA(a, b, acc) VMUL(a, b) VADD(a, b)
 *   VMASK      a lane-mask type; VMASK_FIRST(n) the mask of the first n lanes (0 < n < W)
 *   VMLOADZ(m, p) masked load (lanes off read nothing, give 0); VMSTORE(p, m, v)
 * Four entry points: UK_FN (A rows rs_a apart), UK_FN_ao (A rows at offsets, unit
 * step along k), UK_FN_ak (A columns at offsets) and UK_FN_bo (B rows read in place at
 * offsets), one body.
 * Contract in gemm_ukernels.h: acc[i][j] = sum_k A(i,k) * b[k*NR+j] with one fused
 * multiply-add per k in increasing k; the epilogue rounds alpha * acc, then adds
 * beta * C (a separate multiply and add; C unread when beta == 0). All MR x NR
 * accumulators stay in registers (the loops are unrolled completely). A tile of nr
 * columns computes only its ceil(nr / W) vectors (a body per vector count; B's panel rows
 * stay NR apart): the last tile of 196 columns on the 6 x 64 kernel, 4 columns, costs one
 * vector of multiply-adds a row, not four. */

#define UK_NR (UK_NV * UK_W)
#define UK_UNROLL _Pragma("GCC unroll 16")
#define UK_CAT_(x, y) x##y
#define UK_CAT(x, y) UK_CAT_(x, y)

/* The body of the four entry points: ao[i] is row i's offset in A (rows past mr
 * repeat row mr - 1); column k at k * cs_a, or at ko[k] when ko is not NULL; B's row k
 * the packed panel's, or at b + bo[k] when bo is not NULL (constant NULLs in the other
 * entries, so the compiler drops the tests); NVV (a constant, <= UK_NV, at least
 * ceil(nr / UK_W)) vectors of each row computed. */
static inline __attribute__((always_inline)) void
UK_CAT(UK_FN, _body)(const int NVV, size_t mr, size_t nr, size_t kc, const UK_T *restrict a,
                     const ptrdiff_t *ao, ptrdiff_t cs_a, const ptrdiff_t *ko,
                     const ptrdiff_t *bo, const UK_T *restrict b, UK_T *restrict c, ptrdiff_t rs_c, ptrdiff_t cs_c,
                     UK_T alpha, UK_T beta)
{
    if (cs_c == 1) /* C's lines are fetched while the products are summed */
        UK_UNROLL for (int i = 0; i < UK_MR; i++) {
            if ((size_t)i >= mr) break;
            UK_UNROLL for (int j = 0; j < UK_NV; j++) {
                if ((size_t)(UK_W * j) >= nr) break;
                _mm_prefetch((const char *)(c + i * rs_c + UK_W * j), _MM_HINT_T0);
            }
        }
    V acc[UK_MR][UK_NV];
    UK_UNROLL for (int i = 0; i < UK_MR; i++) UK_UNROLL for (int j = 0; j < UK_NV; j++)
        acc[i][j] = VZERO();
    for (size_t k = 0; k < kc; k++) {
        V bv[UK_NV];
        const UK_T *bk = bo ? b + bo[k] : b;
        UK_UNROLL for (int j = 0; j < NVV; j++) bv[j] = VLOADU(bk + UK_W * j);
        const UK_T *ak = ko ? a + ko[k] : a;
        UK_UNROLL for (int i = 0; i < UK_MR; i++) {
            const V ai = VSET1(ak[ao[i]]);
            UK_UNROLL for (int j = 0; j < NVV; j++) acc[i][j] = VFMA(ai, bv[j], acc[i][j]);
        }
        if (!ko) a += cs_a;
        if (!bo) b += UK_NR;
    }

    const V va = VSET1(alpha), vb = VSET1(beta);
    const int rd = beta != (UK_T)0; /* C is read */
    if (NVV == UK_NV && cs_c == 1 && nr == UK_NR) { /* whole rows: plain loads and stores */
        UK_UNROLL for (int i = 0; i < UK_MR; i++) {
            if ((size_t)i >= mr) break;
            UK_T *ci = c + i * rs_c;
            UK_UNROLL for (int j = 0; j < UK_NV; j++) {
                V v = VMUL(va, acc[i][j]);
                if (rd) v = VADD(v, VMUL(vb, VLOADU(ci + UK_W * j)));
                VSTOREU(ci + UK_W * j, v);
            }
        }
        return;
    }
    if (cs_c == 1) { /* column remainder: full vectors, then one masked vector */
        const size_t nfull = nr / UK_W, rem = nr % UK_W;
        const VMASK mk = VMASK_FIRST(rem ? rem : 1);
        UK_UNROLL for (int i = 0; i < UK_MR; i++) {
            if ((size_t)i >= mr) break;
            UK_T *ci = c + i * rs_c;
            UK_UNROLL for (int j = 0; j < UK_NV; j++) {
                if ((size_t)j > nfull || ((size_t)j == nfull && rem == 0)) break;
                V v = VMUL(va, acc[i][j]);
                if ((size_t)j < nfull) {
                    if (rd) v = VADD(v, VMUL(vb, VLOADU(ci + UK_W * j)));
                    VSTOREU(ci + UK_W * j, v);
                } else {
                    if (rd) v = VADD(v, VMUL(vb, VMLOADZ(mk, ci + UK_W * j)));
                    VMSTORE(ci + UK_W * j, mk, v);
                }
            }
        }
        return;
    }
    /* any strides: the cells of C are copied into a tile (only when read), blended there
     * with the same vector arithmetic, and copied back */
    UK_T tile[UK_MR][UK_NR] = {{0}};
    if (rd)
        for (size_t i = 0; i < mr; i++)
            for (size_t j = 0; j < nr; j++)
                tile[i][j] = c[(ptrdiff_t)i * rs_c + (ptrdiff_t)j * cs_c];
    UK_UNROLL for (int i = 0; i < UK_MR; i++) UK_UNROLL for (int j = 0; j < NVV; j++) {
        V v = VMUL(va, acc[i][j]);
        if (rd) v = VADD(v, VMUL(vb, VLOADU(&tile[i][UK_W * j])));
        VSTOREU(&tile[i][UK_W * j], v);
    }
    for (size_t i = 0; i < mr; i++)
        for (size_t j = 0; j < nr; j++) c[(ptrdiff_t)i * rs_c + (ptrdiff_t)j * cs_c] = tile[i][j];
}

/* The body for nr's vector count: NVV = min(ceil(nr / UK_W), UK_NV), a constant in each
 * case (counts past UK_NV fold into the last). */
#define UK_NVMIN(n) ((n) < UK_NV ? (n) : UK_NV)
#define UK_DISPATCH(...)                                                                    \
    switch ((nr + UK_W - 1) / UK_W) {                                                       \
    case 1: UK_CAT(UK_FN, _body)(UK_NVMIN(1), __VA_ARGS__); break;                          \
    case 2: UK_CAT(UK_FN, _body)(UK_NVMIN(2), __VA_ARGS__); break;                          \
    case 3: UK_CAT(UK_FN, _body)(UK_NVMIN(3), __VA_ARGS__); break;                          \
    default: UK_CAT(UK_FN, _body)(UK_NV, __VA_ARGS__); break;                               \
    }

void UK_FN(size_t mr, size_t nr, size_t kc, const UK_T *restrict a, ptrdiff_t rs_a,
           ptrdiff_t cs_a, const UK_T *restrict b, UK_T *restrict c, ptrdiff_t rs_c,
           ptrdiff_t cs_c, UK_T alpha, UK_T beta)
{
    if (mr == 0 || nr == 0) return;
    ptrdiff_t ao[UK_MR];
    UK_UNROLL for (int i = 0; i < UK_MR; i++)
        ao[i] = (ptrdiff_t)((size_t)i < mr ? (size_t)i : mr - 1) * rs_a;
    UK_DISPATCH(mr, nr, kc, a, ao, cs_a, NULL, NULL, b, c, rs_c, cs_c, alpha, beta);
}

void UK_CAT(UK_FN, _ao)(size_t mr, size_t nr, size_t kc, const UK_T *restrict a,
                        const ptrdiff_t *aoff, const UK_T *restrict b, UK_T *restrict c,
                        ptrdiff_t rs_c, ptrdiff_t cs_c, UK_T alpha, UK_T beta)
{
    if (mr == 0 || nr == 0) return;
    ptrdiff_t ao[UK_MR];
    UK_UNROLL for (int i = 0; i < UK_MR; i++) ao[i] = aoff[(size_t)i < mr ? (size_t)i : mr - 1];
    UK_DISPATCH(mr, nr, kc, a, ao, 1, NULL, NULL, b, c, rs_c, cs_c, alpha, beta);
}

void UK_CAT(UK_FN, _ak)(size_t mr, size_t nr, size_t kc, const UK_T *restrict a,
                        ptrdiff_t rs_a, const ptrdiff_t *koff, const UK_T *restrict b,
                        UK_T *restrict c, ptrdiff_t rs_c, ptrdiff_t cs_c, UK_T alpha, UK_T beta)
{
    if (mr == 0 || nr == 0) return;
    ptrdiff_t ao[UK_MR];
    UK_UNROLL for (int i = 0; i < UK_MR; i++)
        ao[i] = (ptrdiff_t)((size_t)i < mr ? (size_t)i : mr - 1) * rs_a;
    UK_DISPATCH(mr, nr, kc, a, ao, 0, koff, NULL, b, c, rs_c, cs_c, alpha, beta);
}

void UK_CAT(UK_FN, _bo)(size_t mr, size_t nr, size_t kc, const UK_T *restrict a,
                        ptrdiff_t rs_a, ptrdiff_t cs_a, const ptrdiff_t *boff,
                        const UK_T *restrict b, UK_T *restrict c, ptrdiff_t rs_c, ptrdiff_t cs_c,
                        UK_T alpha, UK_T beta)
{
    if (mr == 0 || nr == 0) return;
    ptrdiff_t ao[UK_MR];
    UK_UNROLL for (int i = 0; i < UK_MR; i++)
        ao[i] = (ptrdiff_t)((size_t)i < mr ? (size_t)i : mr - 1) * rs_a;
    UK_DISPATCH(mr, nr, kc, a, ao, cs_a, NULL, boff, b, c, rs_c, cs_c, alpha, beta);
}

#undef UK_NR
#undef UK_NVMIN
#undef UK_DISPATCH
#undef UK_UNROLL
#undef UK_CAT_
#undef UK_CAT
