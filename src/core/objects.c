/* Live-object registry: an open-addressing hash set of (pointer, kind) under a mutex. */
#include <string.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/objects.h"

typedef struct {
    const void *ptr; /* NULL: empty; TOMB: deleted */
    int kind;
} slot;

static const char tomb_marker;
#define TOMB ((const void *)&tomb_marker)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static slot *table;
static size_t cap, used; /* used counts live + tombstones */

static size_t hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

static bool rehash(size_t newcap)
{
    slot *t = calloc(newcap, sizeof *t);
    if (!t) return false;
    size_t live = 0;
    for (size_t i = 0; i < cap; i++) {
        if (table[i].ptr == NULL || table[i].ptr == TOMB) continue;
        size_t j = hash_ptr(table[i].ptr) & (newcap - 1);
        while (t[j].ptr) j = (j + 1) & (newcap - 1);
        t[j] = table[i];
        live++;
    }
    free(table);
    table = t;
    cap = newcap;
    used = live;
    return true;
}

static slot *find(const void *p)
{
    if (cap == 0) return NULL;
    size_t j = hash_ptr(p) & (cap - 1);
    for (size_t n = 0; n < cap; n++, j = (j + 1) & (cap - 1)) {
        if (table[j].ptr == NULL) return NULL;
        if (table[j].ptr == p) return &table[j];
    }
    return NULL;
}

static bool insert(const void *p, int kind)
{
    if ((used + 1) * 2 > cap && !rehash(cap ? cap * 2 : 64)) return false;
    size_t j = hash_ptr(p) & (cap - 1);
    while (table[j].ptr && table[j].ptr != TOMB) j = (j + 1) & (cap - 1);
    if (table[j].ptr == NULL) used++;
    table[j].ptr = p;
    table[j].kind = kind;
    return true;
}

const char *pdnn_obj_kind_name(pdnn_obj_kind kind)
{
    switch (kind) {
    case PDNN_OBJ_HANDLE: return "handle";
    case PDNN_OBJ_TENSOR: return "tensor descriptor";
    case PDNN_OBJ_FILTER: return "filter descriptor";
    case PDNN_OBJ_CONVOLUTION: return "convolution descriptor";
    case PDNN_OBJ_POOLING: return "pooling descriptor";
    case PDNN_OBJ_ACTIVATION: return "activation descriptor";
    case PDNN_OBJ_OP_TENSOR: return "op-tensor descriptor";
    case PDNN_OBJ_REDUCE_TENSOR: return "reduce-tensor descriptor";
    case PDNN_OBJ_LOSS: return "loss descriptor";
    case PDNN_OBJ_OPTIMIZER: return "optimizer descriptor";
    case PDNN_OBJ_SCHEDULE: return "schedule descriptor";
    case PDNN_OBJ_KIND_COUNT: break;
    }
    return "object";
}

void *pdnn_obj_new(pdnn_obj_kind kind, size_t size)
{
    void *p = calloc(1, size);
    if (!p) return NULL;
    pthread_mutex_lock(&lock);
    bool ok = insert(p, (int)kind);
    pthread_mutex_unlock(&lock);
    if (!ok) {
        free(p);
        return NULL;
    }
    return p;
}

bool pdnn_obj_free(pdnn_obj_kind kind, void *p)
{
    pthread_mutex_lock(&lock);
    slot *s = find(p);
    bool ok = s && s->kind == (int)kind;
    if (ok) s->ptr = TOMB;
    pthread_mutex_unlock(&lock);
    if (ok) free(p);
    return ok;
}

static int kind_of(const void *p)
{
    pthread_mutex_lock(&lock);
    slot *s = find(p);
    int k = s ? s->kind : 0;
    pthread_mutex_unlock(&lock);
    return k;
}

/* "a" or "an" before a kind name. */
static const char *article(const char *noun)
{
    return noun && noun[0] && strchr("aeiouAEIOU", noun[0]) ? "an" : "a";
}

bool pdnn_obj_is(pdnn_obj_kind kind, const void *p)
{
    return p != NULL && kind_of(p) == (int)kind;
}

pdnnStatus_t pdnn_obj_check(pdnn_obj_kind kind, const void *p, const char *func,
                            const char *argname)
{
    if (p == NULL)
        return pdnn_error(kind == PDNN_OBJ_HANDLE ? PDNN_STATUS_NOT_INITIALIZED
                                                  : PDNN_STATUS_BAD_PARAM_NULL_POINTER,
                          func, "%s (%s) is NULL", argname, pdnn_obj_kind_name(kind));
    int k = kind_of(p);
    if (k == (int)kind) return PDNN_STATUS_SUCCESS;
    if (k == 0)
        return pdnn_error(kind == PDNN_OBJ_HANDLE ? PDNN_STATUS_NOT_INITIALIZED
                                                  : PDNN_STATUS_BAD_PARAM,
                          func, "%s is not a live %s (never created, or destroyed)",
                          argname, pdnn_obj_kind_name(kind));
    return pdnn_error(kind == PDNN_OBJ_HANDLE ? PDNN_STATUS_NOT_INITIALIZED
                                              : PDNN_STATUS_BAD_PARAM,
                      func, "%s is %s %s, expected %s %s", argname,
                      article(pdnn_obj_kind_name((pdnn_obj_kind)k)),
                      pdnn_obj_kind_name((pdnn_obj_kind)k), article(pdnn_obj_kind_name(kind)),
                      pdnn_obj_kind_name(kind));
}
