/* OpenBLAS as the GEMM peer (Debian libopenblas-dev; scripts/deps.sh bench): cblas_sgemm
 * and cblas_dgemm on row-major matrices, threads set through openblas_set_num_threads
 * (the driver also exports OPENBLAS_NUM_THREADS). OPENBLAS_CORETYPE, when set in the
 * environment, forces OpenBLAS's kernel choice; the description reports the core in use. */
#include <stdio.h>
#include <stdlib.h>

#include <cblas.h>

#include "peers.h"

const char *peer_gemm_describe(void)
{
    static char buf[512];
    const char *ct = getenv("OPENBLAS_CORETYPE");
    snprintf(buf, sizeof buf, "OpenBLAS [%s], core %s, OPENBLAS_CORETYPE=%s",
             openblas_get_config(), openblas_get_corename(), ct && *ct ? ct : "(unset)");
    return buf;
}

void peer_gemm_set_threads(int nthreads) { openblas_set_num_threads(nthreads); }

void peer_sgemm(int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (blasint)m, (blasint)n, (blasint)k,
                1.0f, a, (blasint)k, b, (blasint)n, 0.0f, c, (blasint)n);
}

void peer_dgemm(int64_t m, int64_t n, int64_t k, const double *a, const double *b, double *c)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (blasint)m, (blasint)n, (blasint)k,
                1.0, a, (blasint)k, b, (blasint)n, 0.0, c, (blasint)n);
}
