/* Stride-2 row packers (internal): the B panel of an im2col GEMM read straight from the
 * rows of x for a convolution whose last (width) stride is 2, f32, one ISA per file
 * (pack_s2__<isa>.c), chosen at run time. They replace a zero-padded copy of x split
 * into its two column phases followed by a run copy (pack_runs.h): each packed element
 * is read where x holds it and the padding is written as zeros by the packer itself.
 *
 * A tap t is a row offset off (channel and the rows' dilated offsets in x), the row
 * coordinates it adds (row[0], row[1]: the two outer spatial dims), a column offset col
 * (dilated, flipped, possibly negative) and a class cls: taps of one class have equal
 * row and col (the spatial tap's index does), which lets a packer reuse what it derived
 * from them (any class value is correct; classes below PDNN_PACK_S2_CLASSES are
 * reused). A run r is lanes j0 .. j0 + len - 1 of the panel along one output row: x
 * offset base of that row's origin (image, group, outer coordinates; possibly outside
 * x), the origin's row coordinates and its first column col (o * 2 - pad).
 * For every row t < ntap of the panel (nr floats, rows one after the other at dst):
 *   dst[t * nr + j0 + l] = x[base + off + c * xc]  when c = col(r) + col(t) + 2 * l lies in
 *                          [0, w) and row(r)[d] + row(t)[d] lies in [0, h[d]) (d < 2),
 *                          0 otherwise, for l < len;
 * (xc: x's column stride, 1 for NCHW rows, C for NHWC), then lanes nvalid .. nr - 1 of
 * the row are zero; nvalid <= nr <= 64. The runs lie
 * inside [0, nvalid) in increasing j0 and do not overlap. Only the elements packed are
 * read (the source is the caller's tensor). Values move unchanged: every ISA gives the
 * same bits, which are those of the padded-copy path. */
#ifndef PDNN_UKERNELS_PACK_S2_H
#define PDNN_UKERNELS_PACK_S2_H

#include <stddef.h>
#include <stdint.h>

#define PDNN_PACK_S2_CLASSES 64

typedef struct {
    int64_t off;    /* x offset of the tap's row (channel, outer dims) */
    int64_t row[2]; /* the tap's offsets along the two outer spatial dims */
    int64_t col;    /* the tap's column offset */
    int64_t cls;    /* its class: equal row and col within one */
} pdnn_pack_s2_tap;

typedef struct {
    int64_t j0, len; /* lanes of the panel */
    int64_t base;    /* x offset of the origin's row (may lie outside x: read only inside) */
    int64_t row[2];  /* the origin's outer coordinates (o * stride - pad) */
    int64_t col;     /* the origin's first column (o * 2 - pad) */
} pdnn_pack_s2_run;

typedef void (*pdnn_f32_pack_s2_fn)(int64_t ntap, const pdnn_pack_s2_tap *taps,
                                    const float *x, int64_t xc, const int64_t h[2], int64_t w,
                                    int nrun,
                                    const pdnn_pack_s2_run *runs, int64_t nvalid, int64_t nr,
                                    float *dst);

#define PDNN_F32_PACK_S2_UKERNEL(name)                                                      \
    void name(int64_t ntap, const pdnn_pack_s2_tap *restrict taps, const float *restrict x, \
              int64_t xc, const int64_t h[2], int64_t w, int nrun,                          \
              const pdnn_pack_s2_run *restrict runs, int64_t nvalid, int64_t nr,            \
              float *restrict dst)

PDNN_F32_PACK_S2_UKERNEL(pdnn_f32_pack_s2__scalar);
PDNN_F32_PACK_S2_UKERNEL(pdnn_f32_pack_s2__avx2);
PDNN_F32_PACK_S2_UKERNEL(pdnn_f32_pack_s2__avx512);

/* The packer for pdnn_cpu_isa(). */
pdnn_f32_pack_s2_fn pdnn_f32_pack_s2_select(void);

/* Whether the rows of tap t and run r lie inside x. */
static inline int pdnn_pack_s2_row_ok(const pdnn_pack_s2_tap *t, const pdnn_pack_s2_run *r,
                                      const int64_t h[2])
{
    return (uint64_t)(r->row[0] + t->row[0]) < (uint64_t)h[0] &&
           (uint64_t)(r->row[1] + t->row[1]) < (uint64_t)h[1];
}

#endif
