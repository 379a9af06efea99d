#include <cpuid.h>
#include <stdatomic.h>
#include <stdint.h>
#include <strings.h>

#include "core/env.h"
#include "cpu/isa.h"

static uint64_t xgetbv0(void)
{
    uint32_t eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((uint64_t)edx << 32) | eax;
}

static pdnn_isa detect(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return PDNN_ISA_SCALAR;
    int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1, fma = (c >> 12) & 1;
    if (!osxsave || !avx) return PDNN_ISA_SCALAR;
    uint64_t xcr0 = xgetbv0();
    if ((xcr0 & 0x6) != 0x6) return PDNN_ISA_SCALAR; /* XMM and YMM state */
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return PDNN_ISA_SCALAR;
    int avx2 = (b >> 5) & 1;
    if (!avx2 || !fma) return PDNN_ISA_SCALAR;
    int f = (b >> 16) & 1, dq = (b >> 17) & 1, cd = (b >> 28) & 1, bw = (b >> 30) & 1,
        vl = (b >> 31) & 1;
    if (f && dq && cd && bw && vl && (xcr0 & 0xe6) == 0xe6) return PDNN_ISA_AVX512;
    return PDNN_ISA_AVX2;
}

pdnn_isa pdnn_cpu_isa_detected(void)
{
    static int cached = -1;
    if (cached < 0) cached = (int)detect(); /* idempotent: a race stores the same value */
    return (pdnn_isa)cached;
}

/* The capped ISA, read at the first call (and after pdnn_cpu_isa_reread): -1 unread.
 * Reading the environment at every call cost ~10% of a 1 us convolution (several
 * kernels are selected per call). */
static atomic_int capped = -1;

static pdnn_isa read_cap(void)
{
    pdnn_isa isa = pdnn_cpu_isa_detected();
    const char *cap = pdnn_env_str("PDNN_MAX_CPU_ISA");
    if (!cap) return isa;
    pdnn_isa c = isa;
    if (!strcasecmp(cap, "scalar") || !strcasecmp(cap, "sse41") || !strcasecmp(cap, "none"))
        c = PDNN_ISA_SCALAR;
    else if (!strcasecmp(cap, "avx2"))
        c = PDNN_ISA_AVX2;
    else if (!strcasecmp(cap, "avx512") || !strcasecmp(cap, "avx512_core"))
        c = PDNN_ISA_AVX512;
    return c < isa ? c : isa;
}

pdnn_isa pdnn_cpu_isa(void)
{
    int v = atomic_load_explicit(&capped, memory_order_relaxed);
    if (v < 0) { /* idempotent: a race stores the same value */
        v = (int)read_cap();
        atomic_store_explicit(&capped, v, memory_order_relaxed);
    }
    return (pdnn_isa)v;
}

void pdnn_cpu_isa_reread(void)
{
    atomic_store_explicit(&capped, -1, memory_order_relaxed);
}

const char *pdnn_isa_name(pdnn_isa isa)
{
    switch (isa) {
    case PDNN_ISA_SCALAR: return "scalar";
    case PDNN_ISA_AVX2: return "avx2";
    case PDNN_ISA_AVX512: return "avx512";
    }
    return "unknown";
}
