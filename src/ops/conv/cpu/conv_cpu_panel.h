/* Column-panel GEMM engines shared by the direct 1x1 and the implicit GEMM convolutions
 * (conv_cpu_direct_1x1*.c, conv_cpu_implicit*.c; internal).
 *
 * The convolution's columns are the pairs (n, p), image n and output pixel p, flattened
 * over the batch (conv_cpu_gemm.h's matrix view). Two engines compute, per group,
 *
 *   channel-major ("cm"): C[m x cols] = A[m x k] * B[k x cols]
 *       A is a filter matrix (in place with unit column stride, or packed GEMM A panels);
 *       B is gathered from the data tensor, one slice of kc rows x nr columns at a time,
 *       into a stack buffer of at most 64 KiB right before the micro-kernel reads it;
 *       C(i, col) lies at dst + i * c_rs + off(col). Used for NCHW-like layouts.
 *   pixel-major ("pm"):   C[cols x n2] = A[cols x k] * B[k x n2]
 *       A is read in place from the data tensor (its channels contiguous), row (n, p) at
 *       off(col), or packed MR rows at a time where the rows are not evenly spaced;
 *       B is a packed filter matrix (GEMM B panels over the whole k); C(col, i) lies at
 *       dst + off(col) + i (channels contiguous). Used for channels-last layouts.
 *
 * Both cut k into blocks of pdnn_conv_pe_kc() at fixed places and sum each block in
 * increasing order with the micro-kernel; the first block blends with beta (C unread
 * when beta == 0), later blocks add. Threads split output tiles only, so every element
 * of C gets the same arithmetic whatever the thread count or the tiling. */
#ifndef PDNN_CONV_CPU_PANEL_H
#define PDNN_CONV_CPU_PANEL_H

#include "ops/conv/cpu/conv_cpu_gemm.h"

/* Bytes of the per-thread B slice on the stack. */
#define PDNN_CONV_PE_SLICE_BYTES ((size_t)64 << 10)

/* K block of the engines for micro-kernel uk: PDNN_GEMM_KC, or less when a KC x NR slice
 * would not fit PDNN_CONV_PE_SLICE_BYTES. Depends on the kernel only. */
int64_t pdnn_conv_pe_kc(const pdnn_gemm_ukernel *uk, size_t es);

/* Columns col0 .. col0 + n - 1 (n <= PDNN_GEMM_NR_MAX): x offset of each column's
 * origin (o * stride - pad, channel 0 of group 0; possibly outside x), y offset
 * (channel 0), origin coordinates and whether every filter tap of the column lies
 * inside x. */
typedef struct {
    int64_t n;
    int64_t xo[PDNN_GEMM_NR_MAX];
    int64_t yo[PDNN_GEMM_NR_MAX];
    int64_t xc[3][PDNN_GEMM_NR_MAX];
    bool interior; /* all columns interior */
} pdnn_conv_pe_cols;

void pdnn_conv_pe_cols_at(const pdnn_conv_gemm_geom *g, int64_t col0, int64_t n,
                          pdnn_conv_pe_cols *c);

/* Offsets off[0..n-1] evenly spaced (n < 2 counts as step 1)? Sets *step. */
bool pdnn_conv_pe_uniform(const int64_t *off, int64_t n, int64_t *step);

/* dst[r * w + j] = src[ro[r] + co[j]] for r < nrow, j < ncol; columns ncol..w-1 are
 * zero. Fast paths for evenly spaced columns (row copies) and for adjacent rows (column
 * copies, a transpose). */
void pdnn_conv_pe_gather(size_t es, int w, int64_t nrow, int64_t ncol, const void *src,
                         const int64_t *ro, const int64_t *co, void *dst);

/* The micro-kernel on (mm x nn) with kc, type-erased. */
void pdnn_conv_pe_ukernel(const pdnn_gemm_ukernel *uk, int64_t mm, int64_t nn, int64_t kc,
                          const void *a, int64_t rs_a, int64_t cs_a, const void *b, void *c,
                          int64_t rs_c, int64_t cs_c, double alpha, double beta);

/* One micro-kernel tile stored to C(i, j) at c + i * rs + co[j] (j < nn): straight
 * when the columns are evenly spaced, else through a tile with the same arithmetic. */
void pdnn_conv_pe_store_cols(const pdnn_gemm_ukernel *uk, size_t es, int64_t mm, int64_t nn,
                             int64_t kc, const void *a, int64_t rs_a, int64_t cs_a,
                             const void *b, char *c, int64_t rs, const int64_t *co,
                             double alpha, double beta);
/* The same with rows placed freely: C(i, j) at c + ro[i] + j (unit column stride). */
void pdnn_conv_pe_store_rows(const pdnn_gemm_ukernel *uk, size_t es, int64_t mm, int64_t nn,
                             int64_t kc, const void *a, int64_t rs_a, int64_t cs_a,
                             const void *b, char *c, const int64_t *ro, double alpha,
                             double beta);

/* ---- channel-major engine */

typedef struct pdnn_conv_pe_cm pdnn_conv_pe_cm;

/* Gathers B rows k0 .. k0 + kc - 1 of columns c (group grp) into dst[kk * nr + j],
 * zero columns from c->n up to nr. */
typedef void (*pdnn_conv_pe_gather_fn)(const pdnn_conv_pe_cm *e, int64_t grp,
                                       const pdnn_conv_pe_cols *c, int64_t k0, int64_t kc,
                                       void *dst);

struct pdnn_conv_pe_cm {
    const pdnn_conv_gemm_geom *g;
    int64_t m, k;            /* per group: rows of C, sum length */
    /* A(i, kk) of group grp for i0 = a multiple of mr: at
     * a + grp * a_gs + (i0 / mr) * a_ps + (i - i0) * a_rs + kk * a_cs (elements) */
    const char *a;
    int64_t a_gs, a_ps, a_rs, a_cs;
    /* B: gather(e, grp, cols, k0, kc, dst) */
    pdnn_conv_pe_gather_fn gather;
    const char *src;         /* what the gather reads */
    int64_t s_gs, s_rs;      /* for the strided-rows gather: group offset, row stride */
    const void *aux;         /* gather-specific tables */
    /* C(i, col) of group grp at dst + grp * d_gs + i * d_rs + (c_is_x ? xo : yo)(col) */
    char *dst;
    int64_t d_gs, d_rs;
    bool c_is_x;
    double alpha, beta;
    /* the columns of a panel; NULL: pdnn_conv_pe_cols_at */
    void (*cols)(const pdnn_conv_pe_cm *e, int64_t col0, int64_t n, pdnn_conv_pe_cols *c);
};

/* B(kk, col) = src[grp * s_gs + kk * s_rs + (c_is_x ? yo : xo)(col)]: the B of a 1x1
 * convolution (rows are channels). */
void pdnn_conv_pe_gather_rows(const pdnn_conv_pe_cm *e, int64_t grp,
                              const pdnn_conv_pe_cols *c, int64_t k0, int64_t kc, void *dst);

/* B rows of an im2col matrix for columns c: dst[kk * nr + j] = x[xo(j) + tap[kk].off]
 * where every coordinate xc(j) + tap[kk].e lies inside x, else 0 (x: the group's
 * channel 0); columns c->n .. nr - 1 zero. */
void pdnn_conv_pe_gather_taps(const pdnn_conv_gemm_geom *g, const char *x,
                              const pdnn_conv_pe_cols *c, const pdnn_conv_gemm_tap *tap,
                              int64_t kc, void *dst);

/* Task split of a channel-major run (depends on the thread count, never on a result):
 * rows in blocks of mbr, column panels in blocks of cbp. */
typedef struct {
    int64_t mbr, mb, cbp, cb, ntasks;
} pdnn_conv_pe_tiles;

pdnn_conv_pe_tiles pdnn_conv_pe_cm_tiles(const pdnn_conv_pe_cm *e, int nthreads);
/* Runs task t (call from every thread of a parallel region, t split among them). */
void pdnn_conv_pe_cm_task(const pdnn_conv_pe_cm *e, const pdnn_conv_pe_tiles *tl, int64_t t);

/* ---- pixel-major engine */

typedef struct {
    const pdnn_conv_gemm_geom *g;
    int64_t n2, k;           /* per group: columns of C (channels out), sum length */
    const char *src;         /* A(col, kk) at src + grp * s_gs + (a_is_x ? xo : yo)(col) + kk */
    int64_t s_gs;
    bool a_is_x;
    const char *bp;          /* packed B (pdnn_gemm_pack_b layout of k x n2), group grp at */
    int64_t b_gs;            /* bp + grp * b_gs elements */
    char *dst;               /* C(col, i) at dst + grp * d_gs + (a_is_x ? yo : xo)(col) + i */
    int64_t d_gs;
    double alpha, beta;
} pdnn_conv_pe_pm;

pdnn_conv_pe_tiles pdnn_conv_pe_pm_tiles(const pdnn_conv_pe_pm *e, int nthreads);
void pdnn_conv_pe_pm_task(const pdnn_conv_pe_pm *e, const pdnn_conv_pe_tiles *tl, int64_t t);

#endif
