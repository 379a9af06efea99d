/* Depthwise 3 x 3 backward-filter micro-kernel, f32, AVX2 + FMA (dwbw_ukernels.h). Nine
 * accumulator vectors (one a tap) stay in registers over the channel's images; x is read
 * in place (no copies: a copy's stores met at once by the shifted loads stall their
 * forwarding, which measured 3x slower on 7x7 planes).
 *  - stride 1: each dy vector meets the three column shifts of its three x rows
 *    (unaligned loads); two dy rows share the four x rows they read, each x vector
 *    loaded once for both (18 multiply-adds to 14 loads);
 *  - stride 2: two loads of 8 x columns give the even (tap column 0) and odd (1) columns
 *    of 8 outputs by one shuffle each, two loads one column on the odd ones of column 2
 *    (so a row's last vector reads no column past the last one it uses: more vectors
 *    unmasked); the shuffles leave the outputs in the lane order 0 1 4 5 2 3 6 7, and dy
 *    is loaded and put in that order (one permute a dy vector, not one per x vector);
 *    two dy rows share the x row between them, its column phases made once for both
 *    (kernel alone, 112 -> 56: 2.45 -> 1.95 us a plane).
 * Vectors with a lane outside the x row or past m2 (the row's first and last) load under
 * masks: x lanes outside the row or meeting dy lanes past m2 load 0, dy's past m2 too.
 * (Masking only the loads of such a vector that have such a lane, the others plain by a
 * branch per load, measured 10-50% slower in a kernel-alone loop: not kept.) */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "cpu/ukernels/dwconv/dwbw_ukernels.h"

#define BW_INLINE static inline __attribute__((always_inline))

/* Zeros: the x row of a padding row (read at columns < 2 PDNN_DWBW_MAXW + 32, every
 * column of a row the kernel reads under its masks). */
static const float bw_zeros[2 * PDNN_DWBW_MAXW + 64];

/* Lanes l with lo <= v[l] < hi. */
BW_INLINE __m256i bw_in(__m256i v, int lo, int hi)
{
    return _mm256_and_si256(_mm256_cmpgt_epi32(v, _mm256_set1_epi32(lo - 1)),
                            _mm256_cmpgt_epi32(_mm256_set1_epi32(hi), v));
}

/* The nine tap sums (t = 3 r1 + r2), named: kept in registers (an array indexed in
 * loops measured in memory, every multiply-add a load and a store). */
typedef struct {
    __m256 a0, a1, a2, a3, a4, a5, a6, a7, a8;
} bw_acc;

#define BW_FMA(t, d, v) A->a##t = _mm256_fmadd_ps((d), (v), A->a##t)
#define BW_LD(p, mk) (masked ? _mm256_maskload_ps((p), (mk)) : _mm256_loadu_ps(p))

/* ---- stride 1 */

/* The masks of the vector at column j (x column j + l + c - p2 inside the row, output
 * column j + l < m2): m[c] for tap column c, m[3] for dy. */
static void bw_masks1(int j, int p2, int W, int m2, __m256i *m)
{
    const __m256i l = _mm256_add_epi32(_mm256_set1_epi32(j), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    m[3] = bw_in(l, 0, m2);
    for (int c = 0; c < 3; c++)
        m[c] = _mm256_and_si256(m[3], bw_in(_mm256_add_epi32(l, _mm256_set1_epi32(c - p2)), 0, W));
}

/* One vector of two dy rows: d0 meets x rows x0-x2, d1 rows x1-x3 (x at the vector's tap
 * column 0; masked: under m), each x vector loaded once. */
BW_INLINE void bw_pair1(bw_acc *A, const float *d0, const float *d1, const float *x0,
                        const float *x1, const float *x2, const float *x3, bool masked,
                        const __m256i *m)
{
    const __m256 a = BW_LD(d0, m[3]), b = BW_LD(d1, m[3]);
    __m256 v;
    v = BW_LD(x0, m[0]);
    BW_FMA(0, a, v);
    v = BW_LD(x0 + 1, m[1]);
    BW_FMA(1, a, v);
    v = BW_LD(x0 + 2, m[2]);
    BW_FMA(2, a, v);
    v = BW_LD(x1, m[0]);
    BW_FMA(3, a, v);
    BW_FMA(0, b, v);
    v = BW_LD(x1 + 1, m[1]);
    BW_FMA(4, a, v);
    BW_FMA(1, b, v);
    v = BW_LD(x1 + 2, m[2]);
    BW_FMA(5, a, v);
    BW_FMA(2, b, v);
    v = BW_LD(x2, m[0]);
    BW_FMA(6, a, v);
    BW_FMA(3, b, v);
    v = BW_LD(x2 + 1, m[1]);
    BW_FMA(7, a, v);
    BW_FMA(4, b, v);
    v = BW_LD(x2 + 2, m[2]);
    BW_FMA(8, a, v);
    BW_FMA(5, b, v);
    v = BW_LD(x3, m[0]);
    BW_FMA(6, b, v);
    v = BW_LD(x3 + 1, m[1]);
    BW_FMA(7, b, v);
    v = BW_LD(x3 + 2, m[2]);
    BW_FMA(8, b, v);
}

/* One vector of one dy row (x rows x0-x2). */
BW_INLINE void bw_row1(bw_acc *A, const float *d, const float *x0, const float *x1,
                       const float *x2, bool masked, const __m256i *m)
{
    const __m256 a = BW_LD(d, m[3]);
    BW_FMA(0, a, BW_LD(x0, m[0]));
    BW_FMA(1, a, BW_LD(x0 + 1, m[1]));
    BW_FMA(2, a, BW_LD(x0 + 2, m[2]));
    BW_FMA(3, a, BW_LD(x1, m[0]));
    BW_FMA(4, a, BW_LD(x1 + 1, m[1]));
    BW_FMA(5, a, BW_LD(x1 + 2, m[2]));
    BW_FMA(6, a, BW_LD(x2, m[0]));
    BW_FMA(7, a, BW_LD(x2 + 1, m[1]));
    BW_FMA(8, a, BW_LD(x2 + 2, m[2]));
}

/* ---- stride 2 */

/* The masks of the vector of outputs j .. j + 7 (x from column b = 2 j - p2): m[0], m[1]
 * the loads of columns b .. b + 7, b + 8 .. b + 15 (element k: output j + k / 2, resp.
 * j + 4 + k / 2); m[2], m[3] of b + 1 .., b + 9 .. (odd elements only: columns b + 2,
 * b + 4, ..); m[4] dy. */
static void bw_masks2(int j, int p2, int W, int m2, __m256i *m)
{
    const __m256i k = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i half = _mm256_srli_epi32(k, 1), odd = _mm256_setr_epi32(0, -1, 0, -1, 0, -1, 0, -1);
    const __m256i col = _mm256_add_epi32(k, _mm256_set1_epi32(2 * j - p2));
    const __m256i o0 = bw_in(_mm256_add_epi32(half, _mm256_set1_epi32(j)), 0, m2);
    const __m256i o1 = bw_in(_mm256_add_epi32(half, _mm256_set1_epi32(j + 4)), 0, m2);
    m[0] = _mm256_and_si256(o0, bw_in(col, 0, W));
    m[1] = _mm256_and_si256(o1, bw_in(_mm256_add_epi32(col, _mm256_set1_epi32(8)), 0, W));
    m[2] = _mm256_and_si256(_mm256_and_si256(odd, o0), bw_in(_mm256_add_epi32(col, _mm256_set1_epi32(1)), 0, W));
    m[3] = _mm256_and_si256(_mm256_and_si256(odd, o1), bw_in(_mm256_add_epi32(col, _mm256_set1_epi32(9)), 0, W));
    m[4] = bw_in(_mm256_add_epi32(k, _mm256_set1_epi32(j)), 0, m2);
}

/* Taps t0, t1, t2 (one tap row) of one vector at stride 2: x row p (from the vector's
 * column b). */
#define BW_ROW2(a, t0, t1, t2, p)                                                                    \
    do {                                                                                   \
        const __m256 u = BW_LD((p), m[0]), w = BW_LD((p) + 8, m[1]);                        \
        const __m256 u2 = BW_LD((p) + 1, m[2]), w2 = BW_LD((p) + 9, m[3]);                   \
        BW_FMA(t0, a, _mm256_shuffle_ps(u, w, _MM_SHUFFLE(2, 0, 2, 0)));                 \
        BW_FMA(t1, a, _mm256_shuffle_ps(u, w, _MM_SHUFFLE(3, 1, 3, 1)));                 \
        BW_FMA(t2, a, _mm256_shuffle_ps(u2, w2, _MM_SHUFFLE(3, 1, 3, 1)));               \
    } while (0)

/* One vector of one dy row at stride 2: x rows x0-x2 from the vector's column b. */
BW_INLINE void bw_row2(bw_acc *A, const float *d, const float *x0, const float *x1,
                       const float *x2, bool masked, const __m256i *m)
{
    __m256 a = BW_LD(d, m[4]);
    a = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(a), 0xD8)); /* 0 1 4 5 2 3 6 7 */
    BW_ROW2(a, 0, 1, 2, x0);
    BW_ROW2(a, 3, 4, 5, x1);
    BW_ROW2(a, 6, 7, 8, x2);
}

/* One vector of two dy rows at stride 2: d0 meets x rows x0-x2, d1 rows x2-x4 (x2's
 * column phases made once for both). */
BW_INLINE void bw_pair2(bw_acc *A, const float *d0, const float *d1, const float *x0,
                        const float *x1, const float *x2, const float *x3, const float *x4,
                        bool masked, const __m256i *m)
{
    __m256 a = BW_LD(d0, m[4]), b = BW_LD(d1, m[4]);
    a = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(a), 0xD8));
    b = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(b), 0xD8));
    BW_ROW2(a, 0, 1, 2, x0);
    BW_ROW2(a, 3, 4, 5, x1);
    {
        const __m256 u = BW_LD(x2, m[0]), w = BW_LD(x2 + 8, m[1]);
        const __m256 u2 = BW_LD(x2 + 1, m[2]), w2 = BW_LD(x2 + 9, m[3]);
        const __m256 e = _mm256_shuffle_ps(u, w, _MM_SHUFFLE(2, 0, 2, 0));
        const __m256 o = _mm256_shuffle_ps(u, w, _MM_SHUFFLE(3, 1, 3, 1));
        const __m256 e2 = _mm256_shuffle_ps(u2, w2, _MM_SHUFFLE(3, 1, 3, 1));
        BW_FMA(6, a, e);
        BW_FMA(7, a, o);
        BW_FMA(8, a, e2);
        BW_FMA(0, b, e);
        BW_FMA(1, b, o);
        BW_FMA(2, b, e2);
    }
    BW_ROW2(b, 3, 4, 5, x3);
    BW_ROW2(b, 6, 7, 8, x4);
}

void pdnn_f32_dwbw3_plane__avx2(size_t s, size_t nimg, const float *x, ptrdiff_t xn,
                                ptrdiff_t xr, size_t H, size_t W, size_t p1, size_t p2,
                                const float *dy, ptrdiff_t dn, ptrdiff_t dr, size_t m1,
                                size_t m2, float *acc)
{
    bw_acc A0;
    bw_acc *A = &A0;
    A->a0 = _mm256_loadu_ps(acc);
    A->a1 = _mm256_loadu_ps(acc + 8);
    A->a2 = _mm256_loadu_ps(acc + 16);
    A->a3 = _mm256_loadu_ps(acc + 24);
    A->a4 = _mm256_loadu_ps(acc + 32);
    A->a5 = _mm256_loadu_ps(acc + 40);
    A->a6 = _mm256_loadu_ps(acc + 48);
    A->a7 = _mm256_loadu_ps(acc + 56);
    A->a8 = _mm256_loadu_ps(acc + 64);
    const size_t nvec = (m2 + 7) / 8;
    /* vectors [va, vb) load without masks: every lane's x columns inside the row (the
     * last one read: 8 j + 9 - p2 at stride 1, 16 j + 16 - p2 at stride 2), j + 8 <= m2 */
    const size_t va = (p2 + 8 * s - 1) / (8 * s), reach = s == 1 ? 9 : 16;
    size_t vb = m2 / 8;
    while (vb > 0 && 8 * s * (vb - 1) + reach >= W + p2) vb--;
    if (vb < va) vb = va;
    /* the masks of the other vectors, once */
    __m256i mk[(PDNN_DWBW_MAXW + 7) / 8][5];
    for (size_t v = 0; v < nvec; v++)
        if (v < va || v >= vb) {
            if (s == 1)
                bw_masks1((int)(8 * v), (int)p2, (int)W, (int)m2, mk[v]);
            else
                bw_masks2((int)(8 * v), (int)p2, (int)W, (int)m2, mk[v]);
        }
    for (size_t n = 0; n < nimg && nvec > 0; n++) {
        const float *xi = x + (ptrdiff_t)n * xn, *di = dy + (ptrdiff_t)n * dn;
        for (size_t o = 0; o < m1;) {
            const bool pair = o + 1 < m1;
            const float *xq[5]; /* x rows s o + q - p1, at the column of tap column 0 */
            for (int q = 0; q < 5; q++) {
                const ptrdiff_t i = (ptrdiff_t)(s * o + (size_t)q) - (ptrdiff_t)p1;
                xq[q] = (i >= 0 && i < (ptrdiff_t)H ? xi + i * xr : bw_zeros + 32) - (ptrdiff_t)p2;
            }
            const float *d0 = di + (ptrdiff_t)o * dr, *d1 = d0 + dr;
            const float *x0 = xq[0], *x1 = xq[1], *x2 = xq[2], *x3 = xq[3], *x4 = xq[4];
            if (pair && s == 1) {
                for (size_t v = 0; v < va; v++)
                    bw_pair1(A, d0 + 8 * v, d1 + 8 * v, x0 + 8 * v, x1 + 8 * v, x2 + 8 * v,
                             x3 + 8 * v, true, mk[v]);
                for (size_t v = va; v < vb; v++)
                    bw_pair1(A, d0 + 8 * v, d1 + 8 * v, x0 + 8 * v, x1 + 8 * v, x2 + 8 * v,
                             x3 + 8 * v, false, mk[0]);
                for (size_t v = vb; v < nvec; v++)
                    bw_pair1(A, d0 + 8 * v, d1 + 8 * v, x0 + 8 * v, x1 + 8 * v, x2 + 8 * v,
                             x3 + 8 * v, true, mk[v]);
            } else if (pair) {
                for (size_t v = 0; v < va; v++)
                    bw_pair2(A, d0 + 8 * v, d1 + 8 * v, x0 + 16 * v, x1 + 16 * v, x2 + 16 * v,
                             x3 + 16 * v, x4 + 16 * v, true, mk[v]);
                for (size_t v = va; v < vb; v++)
                    bw_pair2(A, d0 + 8 * v, d1 + 8 * v, x0 + 16 * v, x1 + 16 * v, x2 + 16 * v,
                             x3 + 16 * v, x4 + 16 * v, false, mk[0]);
                for (size_t v = vb; v < nvec; v++)
                    bw_pair2(A, d0 + 8 * v, d1 + 8 * v, x0 + 16 * v, x1 + 16 * v, x2 + 16 * v,
                             x3 + 16 * v, x4 + 16 * v, true, mk[v]);
            } else {
                const size_t xs = s * 8; /* x columns a vector */
                for (size_t v = 0; v < nvec; v++) {
                    const bool plain = v >= va && v < vb;
                    const float *d = d0 + 8 * v, *y0 = x0 + xs * v, *y1 = x1 + xs * v,
                                *y2 = x2 + xs * v;
                    if (s == 1 && plain)
                        bw_row1(A, d, y0, y1, y2, false, mk[0]);
                    else if (s == 1)
                        bw_row1(A, d, y0, y1, y2, true, mk[v]);
                    else if (plain)
                        bw_row2(A, d, y0, y1, y2, false, mk[0]);
                    else
                        bw_row2(A, d, y0, y1, y2, true, mk[v]);
                }
            }
            o += pair ? 2 : 1;
        }
    }
    _mm256_storeu_ps(acc, A->a0);
    _mm256_storeu_ps(acc + 8, A->a1);
    _mm256_storeu_ps(acc + 16, A->a2);
    _mm256_storeu_ps(acc + 24, A->a3);
    _mm256_storeu_ps(acc + 32, A->a4);
    _mm256_storeu_ps(acc + 40, A->a5);
    _mm256_storeu_ps(acc + 48, A->a6);
    _mm256_storeu_ps(acc + 56, A->a7);
    _mm256_storeu_ps(acc + 64, A->a8);
}

/* ---- channel blocks: 8 channels a vector (dwbw_ukernels.h) */

/* Two pixels of a row at stride 1: d0 at x columns 0-2 from p, d1 at 1-3 (pixels 8 floats
 * apart, rows pr floats apart), each x vector loaded once for both. */
BW_INLINE void bw_cb_pair1(bw_acc *A, __m256 a, __m256 b, const float *p, ptrdiff_t pr)
{
    __m256 v;
#define BW_CB_ROW(t0, t1, t2, q)                                                           \
    v = _mm256_load_ps(q);                                                                 \
    BW_FMA(t0, a, v);                                                                      \
    v = _mm256_load_ps((q) + 8);                                                           \
    BW_FMA(t1, a, v);                                                                      \
    BW_FMA(t0, b, v);                                                                      \
    v = _mm256_load_ps((q) + 16);                                                          \
    BW_FMA(t2, a, v);                                                                      \
    BW_FMA(t1, b, v);                                                                      \
    v = _mm256_load_ps((q) + 24);                                                          \
    BW_FMA(t2, b, v);
    BW_CB_ROW(0, 1, 2, p);
    BW_CB_ROW(3, 4, 5, p + pr);
    BW_CB_ROW(6, 7, 8, p + 2 * pr);
#undef BW_CB_ROW
}

/* One pixel: its three x rows' columns 0-2 from p. */
BW_INLINE void bw_cb_one(bw_acc *A, __m256 a, const float *p, ptrdiff_t pr)
{
    BW_FMA(0, a, _mm256_load_ps(p));
    BW_FMA(1, a, _mm256_load_ps(p + 8));
    BW_FMA(2, a, _mm256_load_ps(p + 16));
    BW_FMA(3, a, _mm256_load_ps(p + pr));
    BW_FMA(4, a, _mm256_load_ps(p + pr + 8));
    BW_FMA(5, a, _mm256_load_ps(p + pr + 16));
    BW_FMA(6, a, _mm256_load_ps(p + 2 * pr));
    BW_FMA(7, a, _mm256_load_ps(p + 2 * pr + 8));
    BW_FMA(8, a, _mm256_load_ps(p + 2 * pr + 16));
}

void pdnn_f32_dwbw3_cb8__avx2(size_t s, size_t m1, size_t m2, const float *xb, size_t pw,
                              const float *db, float *acc)
{
    bw_acc A0;
    bw_acc *A = &A0;
    A->a0 = _mm256_loadu_ps(acc);
    A->a1 = _mm256_loadu_ps(acc + 8);
    A->a2 = _mm256_loadu_ps(acc + 16);
    A->a3 = _mm256_loadu_ps(acc + 24);
    A->a4 = _mm256_loadu_ps(acc + 32);
    A->a5 = _mm256_loadu_ps(acc + 40);
    A->a6 = _mm256_loadu_ps(acc + 48);
    A->a7 = _mm256_loadu_ps(acc + 56);
    A->a8 = _mm256_loadu_ps(acc + 64);
    const ptrdiff_t pr = (ptrdiff_t)(8 * pw), cs = (ptrdiff_t)(8 * s);
    for (size_t o1 = 0; o1 < m1; o1++) {
        const float *d = db + 8 * o1 * m2, *p = xb + (ptrdiff_t)(s * o1) * pr;
        size_t o2 = 0;
        if (s == 1)
            for (; o2 + 2 <= m2; o2 += 2)
                bw_cb_pair1(A, _mm256_load_ps(d + 8 * o2), _mm256_load_ps(d + 8 * o2 + 8),
                            p + 8 * o2, pr);
        for (; o2 < m2; o2++) bw_cb_one(A, _mm256_load_ps(d + 8 * o2), p + (ptrdiff_t)o2 * cs, pr);
    }
    _mm256_storeu_ps(acc, A->a0);
    _mm256_storeu_ps(acc + 8, A->a1);
    _mm256_storeu_ps(acc + 16, A->a2);
    _mm256_storeu_ps(acc + 24, A->a3);
    _mm256_storeu_ps(acc + 32, A->a4);
    _mm256_storeu_ps(acc + 40, A->a5);
    _mm256_storeu_ps(acc + 48, A->a6);
    _mm256_storeu_ps(acc + 56, A->a7);
    _mm256_storeu_ps(acc + 64, A->a8);
}
