/* The run packers and unpackers (src/cpu/ukernels/pack): every ISA this CPU runs
 * (scalar, AVX2, AVX-512) against the definition written here: random runs (lengths
 * 1..nr, the last ending at the row's end or not, runs of one element), 4- and 8-byte
 * elements, rows partly valid (zeros after nvalid), a source that ends where the last
 * run ends, at an inaccessible page (the packers read nothing past a run: a read past it
 * faults), the destination rows' lanes past nr never written (a guard row after the
 * panel must keep its sentinel). Unpacking: the same runs from a panel into a
 * destination that ends where the last run ends, at the inaccessible page (nothing
 * written past a run), every cell outside the runs keeping its sentinel. */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS, setenv */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cpu/isa.h"
#include "cpu/ukernels/pack/pack_runs.h"
#include "testutil.h"

static char *page_end; /* the end of a readable page followed by an inaccessible one */

static void check(pdnn_pack_runs_fn fn, const char *isa, size_t es, int iter)
{
    const int64_t nr = tu_int(0, 1) ? 64 : (int64_t)tu_int(1, 40);
    const int64_t ntap = tu_int(1, 9);
    /* runs tile [0, nvalid) in increasing order */
    pdnn_pack_run runs[64];
    int nrun = 0;
    const int64_t nvalid = tu_int(0, 3) == 0 ? tu_int(0, (int)nr) : nr;
    for (int64_t j = 0; j < nvalid;) {
        const int64_t len = 1 + tu_int(0, (int)(nvalid - j - 1));
        runs[nrun].j0 = j;
        runs[nrun].len = len;
        runs[nrun].base = tu_int(0, 200);
        nrun++;
        j += len;
    }
    int64_t toff[16], maxend = 0;
    for (int64_t t = 0; t < ntap; t++) {
        toff[t] = tu_int(0, 100);
        for (int r = 0; r < nrun; r++) {
            const int64_t e = toff[t] + runs[r].base + runs[r].len;
            if (e > maxend) maxend = e;
        }
    }
    const int64_t srcn = maxend;
    char *src = page_end - srcn * (int64_t)es;
    for (int64_t i = 0; i < srcn * (int64_t)es; i++) src[i] = (char)tu_int(0, 255);
    const int64_t dstn = (ntap + 1) * nr; /* + a guard row */
    char *dst = malloc((size_t)dstn * es), *want = malloc((size_t)dstn * es);
    memset(dst, 0x5a, (size_t)dstn * es);
    memset(want, 0x5a, (size_t)dstn * es);
    for (int64_t t = 0; t < ntap; t++) {
        memset(want + t * nr * (int64_t)es, 0, (size_t)nr * es);
        for (int r = 0; r < nrun; r++)
            memcpy(want + (t * nr + runs[r].j0) * (int64_t)es,
                   src + (toff[t] + runs[r].base) * (int64_t)es, (size_t)runs[r].len * es);
    }
    fn(es, ntap, toff, src, nrun, runs, nvalid, nr, dst);
    TU_CHECK(memcmp(dst, want, (size_t)dstn * es) == 0,
             "%s es=%zu iter %d: nr=%lld ntap=%lld nvalid=%lld nrun=%d: packed panel differs", isa,
             es, iter, (long long)nr, (long long)ntap, (long long)nvalid, nrun);
    free(dst), free(want);
}

static void check_unpack(pdnn_unpack_runs_fn fn, const char *isa, size_t es, int iter)
{
    const int64_t nr = tu_int(0, 1) ? 64 : (int64_t)tu_int(1, 40);
    const int64_t ntap = tu_int(1, 9);
    pdnn_pack_run runs[64];
    int nrun = 0;
    for (int64_t j = 0; j < nr; j += tu_int(0, 2)) { /* runs with gaps between them */
        const int64_t len = 1 + tu_int(0, (int)(nr - j - 1));
        runs[nrun].j0 = j;
        runs[nrun].len = len;
        runs[nrun].base = (nrun > 0 ? runs[nrun - 1].base + runs[nrun - 1].len : 0) + tu_int(0, 4);
        nrun++;
        j += len;
    }
    const int64_t span = runs[nrun - 1].base + runs[nrun - 1].len; /* of one row */
    int64_t toff[16];
    for (int64_t t = 0; t < ntap; t++) toff[t] = t * (span + 3) + (t > 0 ? tu_int(0, 3) : 0);
    const int64_t dstn = toff[ntap - 1] + span;
    char *dst = page_end - dstn * (int64_t)es, *want = malloc((size_t)dstn * es);
    char *src = malloc((size_t)(ntap * nr) * es);
    for (int64_t i = 0; i < ntap * nr * (int64_t)es; i++) src[i] = (char)tu_int(0, 255);
    memset(dst, 0x5a, (size_t)dstn * es);
    memset(want, 0x5a, (size_t)dstn * es);
    for (int64_t t = 0; t < ntap; t++)
        for (int r = 0; r < nrun; r++)
            memcpy(want + (toff[t] + runs[r].base) * (int64_t)es,
                   src + (t * nr + runs[r].j0) * (int64_t)es, (size_t)runs[r].len * es);
    fn(es, ntap, toff, dst, nrun, runs, nr, src);
    TU_CHECK(memcmp(dst, want, (size_t)dstn * es) == 0,
             "%s es=%zu iter %d: nr=%lld ntap=%lld nrun=%d: unpacked cells differ", isa, es, iter,
             (long long)nr, (long long)ntap, nrun);
    free(src), free(want);
}

int main(void)
{
    tu_seed(99);
    const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    /* 16 accessible pages (an unpacked destination spans up to ~24 KB), then the guard */
    char *mem = mmap(NULL, 17 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    TU_CHECK(mem != MAP_FAILED && mprotect(mem + 16 * pg, pg, PROT_NONE) == 0, "guarded page");
    if (mem == MAP_FAILED) return tu_finish("ukernel/pack_runs");
    page_end = mem + 16 * pg;
    static const char *const caps[] = {"scalar", "avx2", "avx512"};
    static const pdnn_isa lv[] = {PDNN_ISA_SCALAR, PDNN_ISA_AVX2, PDNN_ISA_AVX512};
    static const pdnn_pack_runs_fn fns[] = {pdnn_pack_runs__scalar, pdnn_pack_runs__avx2,
                                            pdnn_pack_runs__avx512};
    static const pdnn_unpack_runs_fn unfns[] = {pdnn_unpack_runs__scalar, pdnn_unpack_runs__avx2,
                                                pdnn_unpack_runs__avx512};
    for (int c = 0; c < 3; c++) {
        if (lv[c] > pdnn_cpu_isa_detected()) continue;
        setenv("PDNN_MAX_CPU_ISA", caps[c], 1);
        pdnn_cpu_isa_reread();
        TU_CHECK(pdnn_pack_runs_select() == fns[c], "cap %s selects another packer", caps[c]);
        TU_CHECK(pdnn_unpack_runs_select() == unfns[c], "cap %s selects another unpacker",
                 caps[c]);
        for (int it = 0; it < 400; it++) check(fns[c], caps[c], it % 2 ? 8 : 4, it);
        for (int it = 0; it < 400; it++) check_unpack(unfns[c], caps[c], it % 2 ? 8 : 4, it);
    }
    unsetenv("PDNN_MAX_CPU_ISA");
    pdnn_cpu_isa_reread();
    munmap(mem, 17 * pg);
    return tu_finish("ukernel/pack_runs");
}
