/* Body of the Winograd F(4x4, 3x3) transform micro-kernels (wino_ukernels.h), included
 * by each <type>_wino4x3__<isa>.c after it defines UK_T (float or double) and
 * UK_NAME(op) (the kernel name for transform op). Plain C: gcc vectorizes the loop
 * over lanes at the file's ISA.
 *
 * The matrices (Lavin & Gray 2016, "Fast Algorithms for Convolutional Neural Networks",
 * section 4: Toom-Cook / Winograd minimal filtering F(m, r) with m = 4 outputs, r = 3
 * taps, alpha = m + r - 1 = 6 points) were derived here from the interpolation points
 * 0, 1, -1, 2, -2 and infinity, and checked in exact rational arithmetic (1-d and the
 * backward-filter identity below). The 1-d correlation y[i] = sum_k d[i + k] g[k]
 * (i < 4) is the transpose of the polynomial product s = g * h (h of degree 3):
 *   y = A^T [ (G g) . (B^T d) ]
 * with A^T[k][p] = p^k (row k of the Vandermonde matrix of the points, the column of
 * infinity selecting the top coefficient), G[p][k] = p^k / den(p), and row p of B^T the
 * coefficients of prod_{q != p} (x - q) (the numerator of the Lagrange basis polynomial
 * of p; for infinity the whole product x (x^2 - 1)(x^2 - 4)); den(p) =
 * prod_{q != p} (p - q) moves the interpolation denominators into G so that B^T is
 * integer:
 *   B^T = [ 4  0 -5  0  1  0 ]   G = [  1/4     0     0  ]   A^T = [ 1 1  1 1  1 0 ]
 *         [ 0 -4 -4  1  1  0 ]       [ -1/6  -1/6  -1/6  ]         [ 0 1 -1 2 -2 0 ]
 *         [ 0  4 -4 -1  1  0 ]       [ -1/6   1/6  -1/6  ]         [ 0 1  1 4  4 0 ]
 *         [ 0 -2 -1  2  1  0 ]       [  1/24  1/12  1/6  ]         [ 0 1 -1 8 -8 1 ]
 *         [ 0  2 -1 -2  1  0 ]       [  1/24 -1/12  1/6  ]
 *         [ 0  4  0 -5  0  1 ]       [  0     0     1    ]
 * den = (4, -6, -6, 24, 24, 1), so G = diag(1 / den) Gi with the integer Vandermonde
 * Gi[p] = (1, p, p^2) (infinity: (0, 0, 1)). In 2-d, Y = A^T [ (G g G^T) . (B^T D B) ] A.
 * The filter transform applies Gi on both sides (exact for small integers) and then one
 * multiplication by 1 / (den(a) den(b)) per element (one rounding).
 * Backward filter: Y is linear in g, so the gradient of <dY, Y> with respect to g is
 *   dg = G^T [ (B^T D B) . (A dY A^T) ] G = Gi^T [ diag(1/den) W diag(1/den) ] Gi
 * with W summed over tiles first: the output-gradient transform (dyt) is A dY A^T and
 * the inverse filter transform (fltinv) scales by 1 / (den(a) den(b)) then applies Gi^T. */

/* Each 1-d transform as one pass over nl contiguous lanes, every input and output row
 * its own restrict pointer (so gcc knows the rows do not overlap and vectorizes without
 * alias checks). */
#define UK_R restrict
#define UK_I const UK_T *UK_R
#define UK_O UK_T *UK_R
#define UK_LOOP for (size_t l = 0; l < nl; l++)

/* B^T x (6 -> 6) */
static inline void bt6(size_t nl, UK_I x0, UK_I x1, UK_I x2, UK_I x3, UK_I x4, UK_I x5,
                       UK_O y0, UK_O y1, UK_O y2, UK_O y3, UK_O y4, UK_O y5)
{
    UK_LOOP {
        const UK_T a42 = x4[l] - x2[l], a31 = x3[l] - x1[l];
        y0[l] = a42 + 4 * (x0[l] - x2[l]);
        y1[l] = (x3[l] + x4[l]) - 4 * (x1[l] + x2[l]);
        y2[l] = (x4[l] - x3[l]) + 4 * (x1[l] - x2[l]);
        y3[l] = a42 + 2 * a31;
        y4[l] = a42 - 2 * a31;
        y5[l] = (x5[l] - x3[l]) + 4 * (x1[l] - x3[l]);
    }
}

/* A^T x (6 -> 4) */
static inline void at6(size_t nl, UK_I x0, UK_I x1, UK_I x2, UK_I x3, UK_I x4, UK_I x5,
                       UK_O y0, UK_O y1, UK_O y2, UK_O y3)
{
    UK_LOOP {
        const UK_T s12 = x1[l] + x2[l], d12 = x1[l] - x2[l];
        const UK_T s34 = x3[l] + x4[l], d34 = x3[l] - x4[l];
        y0[l] = (x0[l] + s12) + s34;
        y1[l] = d12 + 2 * d34;
        y2[l] = s12 + 4 * s34;
        y3[l] = (d12 + 8 * d34) + x5[l];
    }
}

/* Gi x (3 -> 6), each output then multiplied by c[k] (c == NULL: not scaled) */
static inline void gi3(size_t nl, UK_I x0, UK_I x1, UK_I x2, const UK_T *c, UK_O y0, UK_O y1,
                       UK_O y2, UK_O y3, UK_O y4, UK_O y5)
{
    if (!c) {
        UK_LOOP {
            const UK_T e = x0[l] + x2[l], f = x0[l] + 4 * x2[l];
            y0[l] = x0[l];
            y1[l] = e + x1[l];
            y2[l] = e - x1[l];
            y3[l] = f + 2 * x1[l];
            y4[l] = f - 2 * x1[l];
            y5[l] = x2[l];
        }
        return;
    }
    const UK_T c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3], c4 = c[4], c5 = c[5];
    UK_LOOP {
        const UK_T e = x0[l] + x2[l], f = x0[l] + 4 * x2[l];
        y0[l] = x0[l] * c0;
        y1[l] = (e + x1[l]) * c1;
        y2[l] = (e - x1[l]) * c2;
        y3[l] = (f + 2 * x1[l]) * c3;
        y4[l] = (f - 2 * x1[l]) * c4;
        y5[l] = x2[l] * c5;
    }
}

/* A x (4 -> 6) */
static inline void a4(size_t nl, UK_I x0, UK_I x1, UK_I x2, UK_I x3, UK_O y0, UK_O y1,
                      UK_O y2, UK_O y3, UK_O y4, UK_O y5)
{
    UK_LOOP {
        const UK_T e = x0[l] + x2[l], o = x1[l] + x3[l];
        const UK_T e2 = x0[l] + 4 * x2[l], o2 = 2 * x1[l] + 8 * x3[l];
        y0[l] = x0[l];
        y1[l] = e + o;
        y2[l] = e - o;
        y3[l] = e2 + o2;
        y4[l] = e2 - o2;
        y5[l] = x3[l];
    }
}

/* Gi^T (c . x) (6 -> 3), c == NULL: x not scaled */
static inline void git6(size_t nl, UK_I x0, UK_I x1, UK_I x2, UK_I x3, UK_I x4, UK_I x5,
                        const UK_T *c, UK_O y0, UK_O y1, UK_O y2)
{
    const UK_T one = 1;
    const UK_T c0 = c ? c[0] : one, c1 = c ? c[1] : one, c2 = c ? c[2] : one;
    const UK_T c3 = c ? c[3] : one, c4 = c ? c[4] : one, c5 = c ? c[5] : one;
    UK_LOOP {
        const UK_T v1 = x1[l] * c1, v2 = x2[l] * c2, v3 = x3[l] * c3, v4 = x4[l] * c4;
        const UK_T s12 = v1 + v2, d12 = v1 - v2, s34 = v3 + v4, d34 = v3 - v4;
        y0[l] = (x0[l] * c0 + s12) + s34;
        y1[l] = d12 + 2 * d34;
        y2[l] = (s12 + 4 * s34) + x5[l] * c5;
    }
}

/* 1 / (den(a) den(b)), rounded once from double: row a, column b; also read by
 * columns (the matrix is symmetric). */
#define UK_D0 (1.0 / 4)
#define UK_D1 (-1.0 / 6)
#define UK_D3 (1.0 / 24)
#define UK_DROW(da) {(UK_T)((da) * UK_D0), (UK_T)((da) * UK_D1), (UK_T)((da) * UK_D1), \
                      (UK_T)((da) * UK_D3), (UK_T)((da) * UK_D3), (UK_T)(da)}
static const UK_T scale[6][6] = {UK_DROW(UK_D0), UK_DROW(UK_D1), UK_DROW(UK_D1),
                                 UK_DROW(UK_D3), UK_DROW(UK_D3), UK_DROW(1.0)};

/* Lanes go in blocks of UK_BL through a temporary t holding the first pass's results
 * (the transforms are separable: columns first, then rows), t[e * UK_BL + l]. */
#define UK_BL 64
#define UK_BLOCKS                                                 \
    for (size_t l0 = 0, nl; l0 < n; s += nl, d += nl, l0 += nl)     \
        if ((nl = n - l0 < UK_BL ? n - l0 : UK_BL), 1)
#define S(e) (s + (e) * ss) /* input element e */
#define D(e) (d + (e) * ds) /* output element e */
#define T(e) (t + (e) * UK_BL)

void UK_NAME(in)(size_t n, const UK_T *restrict s, ptrdiff_t ss, UK_T *restrict d,
                 ptrdiff_t ds)
{
    UK_T t[36 * UK_BL]; /* T(6a + j) = (B^T D)[a][j] */
    UK_BLOCKS {
        for (int j = 0; j < 6; j++)
            bt6(nl, S(j), S(6 + j), S(12 + j), S(18 + j), S(24 + j), S(30 + j), T(j), T(6 + j),
                T(12 + j), T(18 + j), T(24 + j), T(30 + j));
        for (int a = 0; a < 6; a++)
            bt6(nl, T(6 * a), T(6 * a + 1), T(6 * a + 2), T(6 * a + 3), T(6 * a + 4),
                T(6 * a + 5), D(6 * a), D(6 * a + 1), D(6 * a + 2), D(6 * a + 3), D(6 * a + 4),
                D(6 * a + 5));
    }
}

void UK_NAME(flt)(size_t n, const UK_T *restrict s, ptrdiff_t ss, UK_T *restrict d,
                  ptrdiff_t ds)
{
    UK_T t[18 * UK_BL]; /* T(3a + j) = (Gi g)[a][j] */
    UK_BLOCKS {
        for (int j = 0; j < 3; j++)
            gi3(nl, S(j), S(3 + j), S(6 + j), NULL, T(j), T(3 + j), T(6 + j), T(9 + j),
                T(12 + j), T(15 + j));
        for (int a = 0; a < 6; a++)
            gi3(nl, T(3 * a), T(3 * a + 1), T(3 * a + 2), scale[a], D(6 * a), D(6 * a + 1),
                D(6 * a + 2), D(6 * a + 3), D(6 * a + 4), D(6 * a + 5));
    }
}

void UK_NAME(out)(size_t n, const UK_T *restrict s, ptrdiff_t ss, UK_T *restrict d,
                  ptrdiff_t ds)
{
    UK_T t[24 * UK_BL]; /* T(6a + j) = (A^T M)[a][j] */
    UK_BLOCKS {
        for (int j = 0; j < 6; j++)
            at6(nl, S(j), S(6 + j), S(12 + j), S(18 + j), S(24 + j), S(30 + j), T(j), T(6 + j),
                T(12 + j), T(18 + j));
        for (int a = 0; a < 4; a++)
            at6(nl, T(6 * a), T(6 * a + 1), T(6 * a + 2), T(6 * a + 3), T(6 * a + 4),
                T(6 * a + 5), D(4 * a), D(4 * a + 1), D(4 * a + 2), D(4 * a + 3));
    }
}

void UK_NAME(dyt)(size_t n, const UK_T *restrict s, ptrdiff_t ss, UK_T *restrict d,
                  ptrdiff_t ds)
{
    UK_T t[24 * UK_BL]; /* T(4a + j) = (A dY)[a][j] */
    UK_BLOCKS {
        for (int j = 0; j < 4; j++)
            a4(nl, S(j), S(4 + j), S(8 + j), S(12 + j), T(j), T(4 + j), T(8 + j), T(12 + j),
               T(16 + j), T(20 + j));
        for (int a = 0; a < 6; a++)
            a4(nl, T(4 * a), T(4 * a + 1), T(4 * a + 2), T(4 * a + 3), D(6 * a), D(6 * a + 1),
               D(6 * a + 2), D(6 * a + 3), D(6 * a + 4), D(6 * a + 5));
    }
}

void UK_NAME(fltinv)(size_t n, const UK_T *restrict s, ptrdiff_t ss, UK_T *restrict d,
                     ptrdiff_t ds)
{
    UK_T t[18 * UK_BL]; /* T(6a + j) = (Gi^T S)[a][j], S the input scaled by scale[][] */
    UK_BLOCKS {
        for (int j = 0; j < 6; j++)
            git6(nl, S(j), S(6 + j), S(12 + j), S(18 + j), S(24 + j), S(30 + j), scale[j],
                 T(j), T(6 + j), T(12 + j));
        for (int a = 0; a < 3; a++)
            git6(nl, T(6 * a), T(6 * a + 1), T(6 * a + 2), T(6 * a + 3), T(6 * a + 4),
                 T(6 * a + 5), NULL, D(3 * a), D(3 * a + 1), D(3 * a + 2));
    }
}

#ifdef UK_DEINT_F32_AVX512
/* The input transform split in two for the tile-lane form (wino_ukernels.h):
 * deintzb deals the window rows as deintz does and multiplies each by B (the rows of
 * zeros stay zeros); incol then applies B^T down the columns, one pass:
 * incol(deintzb(x)) = B^T (D B), the same transform as in's (B^T D) B up to rounding. */
void UK_NAME(deintzb)(size_t n, const UK_T *restrict s, ptrdiff_t rs, ptrdiff_t r0,
                      ptrdiff_t r1, ptrdiff_t lo, ptrdiff_t hi, UK_T *restrict d, ptrdiff_t ds)
{
    pdnn_wino_deintz_f32_avx512_t(n, s, rs, r0, r1, lo, hi, d, ds, 6, 1);
}

void UK_NAME(incol)(size_t n, const UK_T *restrict s, ptrdiff_t ss, UK_T *restrict d,
                    ptrdiff_t ds)
{
    const size_t nl = n;
    for (int j = 0; j < 6; j++)
        bt6(nl, S(j), S(6 + j), S(12 + j), S(18 + j), S(24 + j), S(30 + j), D(j), D(6 + j),
            D(12 + j), D(18 + j), D(24 + j), D(30 + j));
}
#endif

#define UK_ALPHA 6
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
#undef UK_D0
#undef UK_D1
#undef UK_D3
#undef UK_DROW
