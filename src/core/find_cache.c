/* Find results cache: a growing array of (key, impl, ms) under a mutex; lookups are
 * linear, which is fast for the few hundred problems a network has. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/find_cache.h"

typedef struct {
    char *key;
    char *impl;
    double ms;
} entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry *entries;
static size_t count, cap;

static entry *lookup(const char *key, const char *impl)
{
    for (size_t i = 0; i < count; i++)
        if (!strcmp(entries[i].key, key) && !strcmp(entries[i].impl, impl)) return &entries[i];
    return NULL;
}

bool pdnn_find_cache_get(const char *key, const char *impl, double *ms)
{
    pthread_mutex_lock(&lock);
    entry *e = lookup(key, impl);
    if (e) *ms = e->ms;
    pthread_mutex_unlock(&lock);
    return e != NULL;
}

void pdnn_find_cache_put(const char *key, const char *impl, double ms)
{
    pthread_mutex_lock(&lock);
    entry *e = lookup(key, impl);
    if (e) {
        e->ms = ms;
    } else if (count < PDNN_FIND_CACHE_MAX) {
        if (count == cap) {
            size_t ncap = cap ? 2 * cap : 64;
            entry *n = realloc(entries, ncap * sizeof *n);
            if (!n) goto out;
            entries = n;
            cap = ncap;
        }
        char *k = strdup(key), *m = strdup(impl);
        if (!k || !m) {
            free(k);
            free(m);
            goto out;
        }
        entries[count++] = (entry){k, m, ms};
    }
out:
    pthread_mutex_unlock(&lock);
}

void pdnn_find_cache_clear(void)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < count; i++) {
        free(entries[i].key);
        free(entries[i].impl);
    }
    free(entries);
    entries = NULL;
    count = cap = 0;
    pthread_mutex_unlock(&lock);
}
