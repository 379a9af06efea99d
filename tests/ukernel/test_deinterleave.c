/* The two-way deinterleave and interleave kernels (src/cpu/ukernels/deinterleave): every
 * kernel this CPU runs against the definitions even[i] = src[2i], odd[i] = src[2i + 1]
 * and back, for n = 0 .. 100 (the 16- and 32-element steps, their masked tails, several
 * steps): exact, nothing of the outputs written past their counts, and the inputs read
 * only inside their counts (each ends at an inaccessible page, so a read past its end
 * faults). Also the run-time choice under PDNN_MAX_CPU_ISA. */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS, setenv */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cpu/isa.h"
#include "cpu/ukernels/deinterleave/deinterleave.h"
#include "testutil.h"

#define SENT -12345.0f
#define NMAX 100

static void check(const char *name, pdnn_f32_deinterleave2_fn fn, float *page_end, size_t n)
{
    float *src = page_end - n; /* src[n] is on the inaccessible page */
    for (size_t i = 0; i < n; i++) src[i] = (float)(rand() % 20001 - 10000);
    float even[NMAX + 8], odd[NMAX + 8];
    for (size_t i = 0; i < NMAX + 8; i++) even[i] = odd[i] = SENT;
    fn(src, n, even, odd);
    size_t bad = 0;
    for (size_t i = 0; i < NMAX + 8; i++) {
        if (even[i] != (2 * i < n ? src[2 * i] : SENT)) bad++;
        if (odd[i] != (2 * i + 1 < n ? src[2 * i + 1] : SENT)) bad++;
    }
    TU_CHECK(bad == 0, "%s n=%zu: %zu wrong", name, n, bad);
}

/* interleave: even and odd end at inaccessible pages (ends: two page ends) */
static void check_il(const char *name, pdnn_f32_interleave2_fn fn, float *const ends[2], size_t n)
{
    const size_t ne = (n + 1) / 2, no = n / 2;
    float *even = ends[0] - ne, *odd = ends[1] - no;
    for (size_t i = 0; i < ne; i++) even[i] = (float)(rand() % 20001 - 10000);
    for (size_t i = 0; i < no; i++) odd[i] = (float)(rand() % 20001 - 10000);
    float dst[NMAX + 8];
    for (size_t i = 0; i < NMAX + 8; i++) dst[i] = SENT;
    fn(even, odd, n, dst);
    size_t bad = 0;
    for (size_t i = 0; i < NMAX + 8; i++) {
        const float want = i >= n ? SENT : i % 2 ? odd[i / 2] : even[i / 2];
        if (dst[i] != want) bad++;
    }
    TU_CHECK(bad == 0, "%s interleave n=%zu: %zu wrong", name, n, bad);
}

int main(void)
{
    tu_seed(4242);
    const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    /* pages: data, guard, data, guard */
    char *mem = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    TU_CHECK(mem != MAP_FAILED, "mmap");
    if (mem == MAP_FAILED) return tu_finish("ukernel/deinterleave");
    TU_CHECK(mprotect(mem + pg, pg, PROT_NONE) == 0 && mprotect(mem + 3 * pg, pg, PROT_NONE) == 0,
             "mprotect");
    float *page_end = (float *)(mem + pg);
    float *const ends[2] = {(float *)(mem + pg), (float *)(mem + 3 * pg)};
    const struct {
        const char *name;
        pdnn_isa isa;
        pdnn_f32_deinterleave2_fn fn;
        pdnn_f32_interleave2_fn il;
    } ks[] = {{"scalar", PDNN_ISA_SCALAR, pdnn_f32_deinterleave2__scalar,
               pdnn_f32_interleave2__scalar},
              {"avx2", PDNN_ISA_AVX2, pdnn_f32_deinterleave2__avx2, pdnn_f32_interleave2__avx2},
              {"avx512", PDNN_ISA_AVX512, pdnn_f32_deinterleave2__avx512,
               pdnn_f32_interleave2__avx512}};
    const pdnn_isa det = pdnn_cpu_isa_detected();
    for (int k = 0; k < 3; k++) {
        if (ks[k].isa > det) continue;
        for (size_t n = 0; n <= NMAX; n++) {
            check(ks[k].name, ks[k].fn, page_end, n);
            check_il(ks[k].name, ks[k].il, ends, n);
        }
        setenv("PDNN_MAX_CPU_ISA", ks[k].name, 1);
        pdnn_cpu_isa_reread();
        TU_CHECK(pdnn_f32_deinterleave2_select() == ks[k].fn &&
                     pdnn_f32_interleave2_select() == ks[k].il,
                 "cap %s selects its kernels", ks[k].name);
    }
    unsetenv("PDNN_MAX_CPU_ISA");
    pdnn_cpu_isa_reread();
    munmap(mem, 4 * pg);
    return tu_finish("ukernel/deinterleave");
}
