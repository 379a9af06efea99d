/* CPU cache sizes: cpuid deterministic cache parameters, sysconf as a fallback. */
#include <cpuid.h>
#include <pthread.h>
#include <unistd.h>

#include "core/env.h"
#include "cpu/cache.h"

static pdnn_cpu_caches caches;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Walks the cache descriptors of cpuid leaf `leaf` (4 or 0x8000001D: same layout). */
static void from_cpuid(unsigned leaf, pdnn_cpu_caches *c)
{
    unsigned a, b, cx, d;
    if (__get_cpuid_max(leaf & 0x80000000u, NULL) < leaf) return;
    for (unsigned sub = 0; sub < 16; sub++) {
        __cpuid_count(leaf, sub, a, b, cx, d);
        const unsigned type = a & 0x1f, level = (a >> 5) & 7;
        if (type == 0) break;     /* no more caches */
        if (type == 2) continue;  /* instruction cache */
        const size_t size = (size_t)((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) *
                            ((b & 0xfff) + 1) * ((size_t)cx + 1);
        if (level == 1) c->l1d = size;
        else if (level == 2) c->l2 = size;
        else if (level == 3) c->l3 = size;
    }
}

static size_t from_sysconf(int name)
{
    long v = sysconf(name);
    return v > 0 ? (size_t)v : 0;
}

static size_t env_bytes(const char *name, size_t def)
{
    long v = pdnn_env_long(name, 0);
    return v > 0 ? (size_t)v : def;
}

static void detect(void)
{
    pdnn_cpu_caches c = {0, 0, 0};
    unsigned a, b, cx, d;
    if (__get_cpuid(0, &a, &b, &cx, &d)) {
        /* "AuthenticAMD" / "HygonGenuine" describe their caches in 0x8000001D */
        if (b == 0x68747541u || b == 0x6f677948u)
            from_cpuid(0x8000001Du, &c);
        else
            from_cpuid(4, &c);
    }
#ifdef _SC_LEVEL1_DCACHE_SIZE
    if (!c.l1d) c.l1d = from_sysconf(_SC_LEVEL1_DCACHE_SIZE);
    if (!c.l2) c.l2 = from_sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (!c.l3) c.l3 = from_sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    if (!c.l1d) c.l1d = 32u << 10;
    if (!c.l2) c.l2 = 1u << 20;
    if (!c.l3) c.l3 = 8u << 20;
    c.l1d = env_bytes("PDNN_CACHE_L1D", c.l1d);
    c.l2 = env_bytes("PDNN_CACHE_L2", c.l2);
    c.l3 = env_bytes("PDNN_CACHE_L3", c.l3);
    caches = c;
}

const pdnn_cpu_caches *pdnn_cpu_cache_sizes(void)
{
    pthread_once(&once, detect);
    return &caches;
}
