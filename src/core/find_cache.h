/* Find results, process-wide: (problem key, implementation name) -> median time in ms
 * (internal; thread-safe). Ops put the key of the problem with the thread count in it,
 * so that timings taken with other threads are not reused. */
#ifndef PDNN_CORE_FIND_CACHE_H
#define PDNN_CORE_FIND_CACHE_H

#include <stdbool.h>

/* True and *ms set when a time is cached for (key, impl). */
bool pdnn_find_cache_get(const char *key, const char *impl, double *ms);
/* Records (replaces) a time; silently drops it when memory runs out or the cache holds
 * PDNN_FIND_CACHE_MAX entries. */
void pdnn_find_cache_put(const char *key, const char *impl, double ms);
/* Forgets every entry (tests). */
void pdnn_find_cache_clear(void);

#define PDNN_FIND_CACHE_MAX 65536

#endif
