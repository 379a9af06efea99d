/* Peer libraries timed beside pdnn by the bench drivers (bench/). Each peer_*.c file
 * implements these for one library; a driver is built with it when CMake finds the
 * library. All matrices are row-major and dense: C[m x n] = A[m x k] * B[k x n]. */
#ifndef PDNN_BENCH_PEERS_H
#define PDNN_BENCH_PEERS_H

#include <stdint.h>

/* Name, version and configuration of the peer, for the report ("OpenBLAS 0.3.21 ..."). */
const char *peer_gemm_describe(void);
/* Threads the peer uses from now on. */
void peer_gemm_set_threads(int nthreads);
/* C = A * B (alpha 1, beta 0). */
void peer_sgemm(int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c);
void peer_dgemm(int64_t m, int64_t n, int64_t k, const double *a, const double *b, double *c);

#endif
