/* Run-time CPU cache sizes (internal), for blocking sizes such as the GEMM's. */
#ifndef PDNN_CPU_CACHE_H
#define PDNN_CPU_CACHE_H

#include <stddef.h>

typedef struct {
    size_t l1d; /* level-1 data cache of one core, bytes */
    size_t l2;  /* level-2 cache of one core (or shared by the cores of a cluster) */
    size_t l3;  /* level-3 cache, whole (shared by the cores) */
} pdnn_cpu_caches;

/* Detected once: cpuid leaf 4 (Intel) or 0x8000001D (AMD), else
 * sysconf(_SC_LEVEL*_CACHE_SIZE), else 32 KiB / 1 MiB / 8 MiB. Each size can be
 * overridden with PDNN_CACHE_L1D, PDNN_CACHE_L2, PDNN_CACHE_L3 (bytes, read at the
 * first call), for tuning experiments. */
const pdnn_cpu_caches *pdnn_cpu_cache_sizes(void);

#endif
