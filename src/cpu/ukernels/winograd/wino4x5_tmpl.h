/* Body of the Winograd F(4x4, 5x5) transform micro-kernels (wino_ukernels.h), included
 * by each <type>_wino4x5__<isa>.c after it defines UK_T (float or double) and
 * UK_NAME(op) (the kernel name for transform op). Plain C: gcc vectorizes the loops
 * over lanes at the file's ISA. Same contract and lane layout as the F(4x4, 3x3)
 * kernels (wino4x3_tmpl.h); here the transformed tiles have alpha x alpha = 8 x 8
 * elements, the filter 5 x 5.
 *
 * Derivation (Lavin & Gray 2016, section 4: Toom-Cook minimal filtering F(m, r), m = 4
 * outputs, r = 5 taps, alpha = m + r - 1 = 8 points): the interpolation points are
 * 0, 1, -1, 2, -2, 1/2, -1/2 and infinity. The 1-d correlation y[i] = sum_k d[i + k]
 * g[k] (i < 4) is y = A^T [ (G g) . (B^T d) ] with, before scaling, A^T[k][p] = p^k,
 * G[p][k] = p^k / den(p), den(p) = prod_{q != p} (p - q) and row p of B^T the
 * coefficients of prod_{q != p} (x - q) (q over the finite points; the point at
 * infinity selects the top coefficient: A^T column (0, 0, 0, 1), G row (0, 0, 0, 0, 1),
 * B^T row the coefficients of prod_q (x - q)). Each point p may then scale its B^T row
 * by sB(p), its A^T column by tA(p) and its G row by 1 / (sB(p) tA(p)) without
 * changing the product; all the scales below are powers of two (times -1), so they
 * change no rounding. With sB = (-4, 4, 4, 4, 4, 2, 2, 4) and tA = 8 for +-1/2 (else 1)
 * every entry of B^T and A^T is a small integer:
 *   B^T = [ 4  0 -21   0  21   0 -4  0 ]    A^T = [ 1 1  1 1  1 8  8 0 ]
 *         [ 0  4   4 -17 -17   4  4  0 ]          [ 0 1 -1 2 -2 4 -4 0 ]
 *         [ 0 -4   4  17 -17  -4  4  0 ]          [ 0 1  1 4  4 2  2 0 ]
 *         [ 0  2   1 -10  -5   8  4  0 ]          [ 0 1 -1 8 -8 1 -1 1 ]
 *         [ 0 -2   1  10  -5  -8  4  0 ]
 *         [ 0  4   8  -5 -10   1  2  0 ]
 *         [ 0 -4   8   5 -10  -1  2  0 ]
 *         [ 0 -4   0  21   0 -21  0  4 ]
 * and G = diag(c) Gi with the integer matrix Gi (rows: (1, 0, 0, 0, 0), (1, p, p^2,
 * p^3, p^4) for p = 1, -1, 2, -2, 16 (1, p, ..., p^4) for p = 1/2, -1/2, and
 * (0, 0, 0, 0, 1)) and c = (1/4, -1/18, -1/18, 1/360, 1/360, 1/360, 1/360, 1/4). The
 * identity sum_p A^T[i][p] G[p][k] B^T[p][j] = [j == i + k] was checked in exact rational
 * arithmetic; tests/ukernel/test_wino_transforms.c checks these kernels against the
 * matrices applied in double and the composed 2-d convolution. In 2-d,
 * Y = A^T [ (G g G^T) . (B^T D B) ] A; the filter transform applies Gi on both sides and
 * one multiplication by c(a) c(b) (rounded once from double) per element.
 * Backward filter (as for F(4x4, 3x3)): dg = G^T [ (B^T D B) . (A dY A^T) ] G =
 * Gi^T [ diag(c) W diag(c) ] Gi, W summed over tiles first: dyt is A dY A^T and fltinv
 * scales by c(a) c(b), then applies Gi^T.
 *
 * Numerical error: the points +-1/2 next to +-2 keep B^T's and A^T's entries small (at
 * most 21), at the price of the factor 1/360 in G; measured errors (about 2x those of
 * F(4x4, 3x3)) and the bound are in conv_cpu_wino.h. */

/* Each 1-d transform as one pass over nl contiguous lanes, every row its own restrict
 * pointer (no alias checks in the vectorized loops). */
#define UK_R restrict
#define UK_I const UK_T *UK_R
#define UK_O UK_T *UK_R
#define UK_LOOP for (size_t l = 0; l < nl; l++)

/* B^T x (8 -> 8): rows of the pair +-p are E + O and E - O (E: even inputs, O: odd). */
static inline void bt8(size_t nl, UK_I x0, UK_I x1, UK_I x2, UK_I x3, UK_I x4, UK_I x5,
                       UK_I x6, UK_I x7, UK_O y0, UK_O y1, UK_O y2, UK_O y3, UK_O y4, UK_O y5,
                       UK_O y6, UK_O y7)
{
    UK_LOOP {
        y0[l] = 4 * (x0[l] - x6[l]) + 21 * (x4[l] - x2[l]);
        y7[l] = 4 * (x7[l] - x1[l]) + 21 * (x3[l] - x5[l]);
        const UK_T e1 = 4 * (x2[l] + x6[l]) - 17 * x4[l];
        const UK_T o1 = 4 * (x1[l] + x5[l]) - 17 * x3[l];
        y1[l] = e1 + o1;
        y2[l] = e1 - o1;
        const UK_T e2 = (x2[l] + 4 * x6[l]) - 5 * x4[l];
        const UK_T o2 = 2 * ((x1[l] + 4 * x5[l]) - 5 * x3[l]);
        y3[l] = e2 + o2;
        y4[l] = e2 - o2;
        const UK_T e3 = 2 * ((4 * x2[l] + x6[l]) - 5 * x4[l]);
        const UK_T o3 = (4 * x1[l] + x5[l]) - 5 * x3[l];
        y5[l] = e3 + o3;
        y6[l] = e3 - o3;
    }
}

/* A^T x (8 -> 4) */
static inline void at8(size_t nl, UK_I x0, UK_I x1, UK_I x2, UK_I x3, UK_I x4, UK_I x5,
                       UK_I x6, UK_I x7, UK_O y0, UK_O y1, UK_O y2, UK_O y3)
{
    UK_LOOP {
        const UK_T s1 = x1[l] + x2[l], d1 = x1[l] - x2[l];
        const UK_T s2 = x3[l] + x4[l], d2 = x3[l] - x4[l];
        const UK_T s3 = x5[l] + x6[l], d3 = x5[l] - x6[l];
        y0[l] = ((x0[l] + s1) + s2) + 8 * s3;
        y1[l] = (d1 + 2 * d2) + 4 * d3;
        y2[l] = (s1 + 4 * s2) + 2 * s3;
        y3[l] = ((d1 + 8 * d2) + d3) + x7[l];
    }
}

/* Gi x (5 -> 8), each output then multiplied by c[p] (c == NULL: not scaled) */
#define UK_GI5(S0, S1, S2, S3, S4, S5, S6, S7)                                   \
    UK_LOOP {                                                                  \
        const UK_T e1 = (x0[l] + x2[l]) + x4[l], o1 = x1[l] + x3[l];           \
        const UK_T e2 = (x0[l] + 4 * x2[l]) + 16 * x4[l];                      \
        const UK_T o2 = 2 * x1[l] + 8 * x3[l];                                 \
        const UK_T e3 = (16 * x0[l] + 4 * x2[l]) + x4[l];                      \
        const UK_T o3 = 8 * x1[l] + 2 * x3[l];                                 \
        y0[l] = x0[l] S0;                                                      \
        y1[l] = (e1 + o1) S1;                                                  \
        y2[l] = (e1 - o1) S2;                                                  \
        y3[l] = (e2 + o2) S3;                                                  \
        y4[l] = (e2 - o2) S4;                                                  \
        y5[l] = (e3 + o3) S5;                                                  \
        y6[l] = (e3 - o3) S6;                                                  \
        y7[l] = x4[l] S7;                                                      \
    }
static inline void gi5(size_t nl, UK_I x0, UK_I x1, UK_I x2, UK_I x3, UK_I x4, const UK_T *c,
                       UK_O y0, UK_O y1, UK_O y2, UK_O y3, UK_O y4, UK_O y5, UK_O y6, UK_O y7)
{
    if (!c) {
        UK_GI5(, , , , , , , )
        return;
    }
    const UK_T c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3], c4 = c[4], c5 = c[5], c6 = c[6],
               c7 = c[7];
    UK_GI5(*c0, *c1, *c2, *c3, *c4, *c5, *c6, *c7)
}
#undef UK_GI5

/* A x (4 -> 8) */
static inline void a4x8(size_t nl, UK_I x0, UK_I x1, UK_I x2, UK_I x3, UK_O y0, UK_O y1,
                        UK_O y2, UK_O y3, UK_O y4, UK_O y5, UK_O y6, UK_O y7)
{
    UK_LOOP {
        const UK_T e1 = x0[l] + x2[l], o1 = x1[l] + x3[l];
        const UK_T e2 = x0[l] + 4 * x2[l], o2 = 2 * x1[l] + 8 * x3[l];
        const UK_T e3 = 8 * x0[l] + 2 * x2[l], o3 = 4 * x1[l] + x3[l];
        y0[l] = x0[l];
        y1[l] = e1 + o1;
        y2[l] = e1 - o1;
        y3[l] = e2 + o2;
        y4[l] = e2 - o2;
        y5[l] = e3 + o3;
        y6[l] = e3 - o3;
        y7[l] = x3[l];
    }
}

/* Gi^T (c . x) (8 -> 5), c == NULL: x not scaled */
static inline void git8(size_t nl, UK_I x0, UK_I x1, UK_I x2, UK_I x3, UK_I x4, UK_I x5,
                        UK_I x6, UK_I x7, const UK_T *c, UK_O y0, UK_O y1, UK_O y2, UK_O y3,
                        UK_O y4)
{
    const UK_T one = 1;
    const UK_T c0 = c ? c[0] : one, c1 = c ? c[1] : one, c2 = c ? c[2] : one;
    const UK_T c3 = c ? c[3] : one, c4 = c ? c[4] : one, c5 = c ? c[5] : one;
    const UK_T c6 = c ? c[6] : one, c7 = c ? c[7] : one;
    UK_LOOP {
        const UK_T v1 = x1[l] * c1, v2 = x2[l] * c2, v3 = x3[l] * c3, v4 = x4[l] * c4;
        const UK_T v5 = x5[l] * c5, v6 = x6[l] * c6;
        const UK_T s1 = v1 + v2, d1 = v1 - v2, s2 = v3 + v4, d2 = v3 - v4;
        const UK_T s3 = v5 + v6, d3 = v5 - v6;
        y0[l] = ((x0[l] * c0 + s1) + s2) + 16 * s3;
        y1[l] = (d1 + 2 * d2) + 8 * d3;
        y2[l] = (s1 + 4 * s2) + 4 * s3;
        y3[l] = (d1 + 8 * d2) + 2 * d3;
        y4[l] = ((s1 + 16 * s2) + s3) + x7[l] * c7;
    }
}

/* c(a) c(b), rounded once from double; symmetric. */
#define UK_C0 (1.0 / 4)
#define UK_C1 (-1.0 / 18)
#define UK_C3 (1.0 / 360)
#define UK_CROW(ca)                                                                  \
    {(UK_T)((ca) * UK_C0), (UK_T)((ca) * UK_C1), (UK_T)((ca) * UK_C1),               \
     (UK_T)((ca) * UK_C3), (UK_T)((ca) * UK_C3), (UK_T)((ca) * UK_C3),               \
     (UK_T)((ca) * UK_C3), (UK_T)((ca) * UK_C0)}
static const UK_T scale[8][8] = {UK_CROW(UK_C0), UK_CROW(UK_C1), UK_CROW(UK_C1),
                                 UK_CROW(UK_C3), UK_CROW(UK_C3), UK_CROW(UK_C3),
                                 UK_CROW(UK_C3), UK_CROW(UK_C0)};

/* Lanes in blocks of UK_BL through a temporary t holding the first (column) pass,
 * t[e * UK_BL + l]. */
#define UK_BL 64
#define UK_BLOCKS                                             \
    for (size_t l0 = 0, nl; l0 < n; s += nl, d += nl, l0 += nl) \
        if ((nl = n - l0 < UK_BL ? n - l0 : UK_BL), 1)
#define S(e) (s + (e) * ss)
#define D(e) (d + (e) * ds)
#define T(e) (t + (e) * UK_BL)

void UK_NAME(in)(size_t n, const UK_T *restrict s, ptrdiff_t ss, UK_T *restrict d,
                 ptrdiff_t ds)
{
    UK_T t[64 * UK_BL]; /* T(8a + j) = (B^T D)[a][j] */
    UK_BLOCKS {
        for (int j = 0; j < 8; j++)
            bt8(nl, S(j), S(8 + j), S(16 + j), S(24 + j), S(32 + j), S(40 + j), S(48 + j),
                S(56 + j), T(j), T(8 + j), T(16 + j), T(24 + j), T(32 + j), T(40 + j),
                T(48 + j), T(56 + j));
        for (int a = 0; a < 8; a++)
            bt8(nl, T(8 * a), T(8 * a + 1), T(8 * a + 2), T(8 * a + 3), T(8 * a + 4),
                T(8 * a + 5), T(8 * a + 6), T(8 * a + 7), D(8 * a), D(8 * a + 1), D(8 * a + 2),
                D(8 * a + 3), D(8 * a + 4), D(8 * a + 5), D(8 * a + 6), D(8 * a + 7));
    }
}

void UK_NAME(flt)(size_t n, const UK_T *restrict s, ptrdiff_t ss, UK_T *restrict d,
                  ptrdiff_t ds)
{
    UK_T t[40 * UK_BL]; /* T(5a + j) = (Gi g)[a][j] */
    UK_BLOCKS {
        for (int j = 0; j < 5; j++)
            gi5(nl, S(j), S(5 + j), S(10 + j), S(15 + j), S(20 + j), NULL, T(j), T(5 + j),
                T(10 + j), T(15 + j), T(20 + j), T(25 + j), T(30 + j), T(35 + j));
        for (int a = 0; a < 8; a++)
            gi5(nl, T(5 * a), T(5 * a + 1), T(5 * a + 2), T(5 * a + 3), T(5 * a + 4), scale[a],
                D(8 * a), D(8 * a + 1), D(8 * a + 2), D(8 * a + 3), D(8 * a + 4), D(8 * a + 5),
                D(8 * a + 6), D(8 * a + 7));
    }
}

void UK_NAME(out)(size_t n, const UK_T *restrict s, ptrdiff_t ss, UK_T *restrict d,
                  ptrdiff_t ds)
{
    UK_T t[32 * UK_BL]; /* T(8a + j) = (A^T M)[a][j] */
    UK_BLOCKS {
        for (int j = 0; j < 8; j++)
            at8(nl, S(j), S(8 + j), S(16 + j), S(24 + j), S(32 + j), S(40 + j), S(48 + j),
                S(56 + j), T(j), T(8 + j), T(16 + j), T(24 + j));
        for (int a = 0; a < 4; a++)
            at8(nl, T(8 * a), T(8 * a + 1), T(8 * a + 2), T(8 * a + 3), T(8 * a + 4),
                T(8 * a + 5), T(8 * a + 6), T(8 * a + 7), D(4 * a), D(4 * a + 1), D(4 * a + 2),
                D(4 * a + 3));
    }
}

void UK_NAME(dyt)(size_t n, const UK_T *restrict s, ptrdiff_t ss, UK_T *restrict d,
                  ptrdiff_t ds)
{
    UK_T t[32 * UK_BL]; /* T(4a + j) = (A dY)[a][j] */
    UK_BLOCKS {
        for (int j = 0; j < 4; j++)
            a4x8(nl, S(j), S(4 + j), S(8 + j), S(12 + j), T(j), T(4 + j), T(8 + j), T(12 + j),
                 T(16 + j), T(20 + j), T(24 + j), T(28 + j));
        for (int a = 0; a < 8; a++)
            a4x8(nl, T(4 * a), T(4 * a + 1), T(4 * a + 2), T(4 * a + 3), D(8 * a), D(8 * a + 1),
                 D(8 * a + 2), D(8 * a + 3), D(8 * a + 4), D(8 * a + 5), D(8 * a + 6),
                 D(8 * a + 7));
    }
}

void UK_NAME(fltinv)(size_t n, const UK_T *restrict s, ptrdiff_t ss, UK_T *restrict d,
                     ptrdiff_t ds)
{
    UK_T t[40 * UK_BL]; /* T(8a + j) = (Gi^T S)[a][j], S the input scaled by scale[][] */
    UK_BLOCKS {
        for (int j = 0; j < 8; j++)
            git8(nl, S(j), S(8 + j), S(16 + j), S(24 + j), S(32 + j), S(40 + j), S(48 + j),
                 S(56 + j), scale[j], T(j), T(8 + j), T(16 + j), T(24 + j), T(32 + j));
        for (int a = 0; a < 5; a++)
            git8(nl, T(8 * a), T(8 * a + 1), T(8 * a + 2), T(8 * a + 3), T(8 * a + 4),
                 T(8 * a + 5), T(8 * a + 6), T(8 * a + 7), NULL, D(5 * a), D(5 * a + 1),
                 D(5 * a + 2), D(5 * a + 3), D(5 * a + 4));
    }
}

#define UK_ALPHA 8
#include "cpu/ukernels/winograd/wino_deint_tmpl.h"
#include "cpu/ukernels/winograd/wino_inter_tmpl.h"
#undef UK_ALPHA

#undef UK_R
#undef UK_I
#undef UK_O
#undef UK_LOOP
#undef S
#undef D
#undef T
#undef UK_BL
#undef UK_BLOCKS
#undef UK_C0
#undef UK_C1
#undef UK_C3
#undef UK_CROW
