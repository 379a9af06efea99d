/* Run packers (internal): copy runs of consecutive elements into the rows of a GEMM
 * panel, one ISA per file (pack_runs__<isa>.c), chosen at run time.
 *
 * For every row t < ntap of the panel (nr elements of es bytes each, rows one after
 * the other at dst) and every run r:
 *   dst[t * nr + runs[r].j0 + l] = src[toff[t] + runs[r].base + l]   for l < runs[r].len
 * then elements nvalid .. nr - 1 of the row are zeroed. The runs lie inside
 * [0, nvalid) in increasing j0 and do not overlap. Nothing past a run is read from src
 * (the source may be the caller's tensor itself). Elements are moved unchanged (es is
 * 4 or 8). */
/* The run unpackers do the inverse: for every row t < ntap and every run r
 *   dst[toff[t] + runs[r].base + l] = src[t * nr + runs[r].j0 + l]   for l < runs[r].len
 * writing nothing else (a tile's runs stored into an output tensor). */
#ifndef PDNN_UKERNELS_PACK_RUNS_H
#define PDNN_UKERNELS_PACK_RUNS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int64_t j0, len, base;
} pdnn_pack_run;

typedef void (*pdnn_pack_runs_fn)(size_t es, int64_t ntap, const int64_t *toff, const void *src,
                                  int nrun, const pdnn_pack_run *runs, int64_t nvalid,
                                  int64_t nr, void *dst);

#define PDNN_PACK_RUNS_UKERNEL(name)                                                        \
    void name(size_t es, int64_t ntap, const int64_t *restrict toff, const void *restrict src, \
              int nrun, const pdnn_pack_run *restrict runs, int64_t nvalid, int64_t nr,     \
              void *restrict dst)

typedef void (*pdnn_unpack_runs_fn)(size_t es, int64_t ntap, const int64_t *toff, void *dst,
                                    int nrun, const pdnn_pack_run *runs, int64_t nr,
                                    const void *src);

#define PDNN_UNPACK_RUNS_UKERNEL(name)                                                      \
    void name(size_t es, int64_t ntap, const int64_t *restrict toff, void *restrict dst,   \
              int nrun, const pdnn_pack_run *restrict runs, int64_t nr,                    \
              const void *restrict src)

PDNN_PACK_RUNS_UKERNEL(pdnn_pack_runs__scalar);
PDNN_PACK_RUNS_UKERNEL(pdnn_pack_runs__avx2);
PDNN_PACK_RUNS_UKERNEL(pdnn_pack_runs__avx512);
PDNN_UNPACK_RUNS_UKERNEL(pdnn_unpack_runs__scalar);
PDNN_UNPACK_RUNS_UKERNEL(pdnn_unpack_runs__avx2);
PDNN_UNPACK_RUNS_UKERNEL(pdnn_unpack_runs__avx512);

/* The packer and the unpacker for pdnn_cpu_isa(). */
pdnn_pack_runs_fn pdnn_pack_runs_select(void);
pdnn_unpack_runs_fn pdnn_unpack_runs_select(void);

#endif
