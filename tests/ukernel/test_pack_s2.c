/* The stride-2 row packers (src/cpu/ukernels/pack/pack_s2.h): every ISA this CPU runs
 * (scalar, AVX2, AVX-512) against the definition written here. Random tensors of a few
 * channels (1 or 2 outer row dims, widths 1..40, column stride 1 or 3: NCHW rows and
 * NHWC-like gaps), random taps (rows and columns reaching past every edge, classes
 * shared by equal offsets, or out of the table's range, or negative) and random runs
 * tiling [0, nvalid) (rows inside and outside x, first columns before and past the
 * row, runs of one lane, panels of 64, 16, 1..4 and any width up to 64), one run now
 * and then whose origin lies 2^40 elements away (outside x, its rows outside too: the
 * vector packer's 32-bit lane offsets do not hold it). The tensor ends at an
 * inaccessible page, or starts right after one (a read of anything not packed from the
 * row's ends faults); the destination's lanes past nr are never written (a guard row
 * after the panel keeps its sentinel); the packed bits equal the definition's. */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS, setenv */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cpu/isa.h"
#include "cpu/ukernels/pack/pack_s2.h"
#include "testutil.h"

static char *area;  /* accessible pages between two inaccessible ones */
static size_t area_bytes;

static void check(pdnn_f32_pack_s2_fn fn, const char *isa, int iter)
{
    /* the tensor: nch channels of h[0] x h[1] rows of w columns, column stride xc */
    const int64_t xc = tu_int(0, 2) ? 1 : 3, w = tu_int(1, 40);
    const int64_t h[2] = {tu_int(1, 2), tu_int(1, 6)}, nch = tu_int(1, 3);
    const int64_t s1 = w * xc + tu_int(0, 2), s0 = h[1] * s1, cs = h[0] * s0;
    const int64_t xn = (nch - 1) * cs + (h[0] - 1) * s0 + (h[1] - 1) * s1 + (w - 1) * xc + 1;
    const size_t xbytes = (size_t)xn * sizeof(float);
    TU_CHECK(xbytes <= area_bytes, "tensor fits the area");
    if (xbytes > area_bytes) return;
    float *x = iter % 2 ? (float *)area : (float *)(area + area_bytes - xbytes);
    for (int64_t i = 0; i < xn; i++) x[i] = (float)tu_int(-1000, 1000) + 0.25f;
    /* taps; classes by equal (row, col) */
    const int64_t ntap = tu_int(1, 12);
    pdnn_pack_s2_tap taps[12];
    for (int64_t t = 0; t < ntap; t++) {
        pdnn_pack_s2_tap *p = &taps[t];
        const int64_t c = tu_int(0, (int)nch - 1);
        p->row[0] = h[0] > 1 ? tu_int(-1, 1) : 0;
        p->row[1] = tu_int(-2, 3);
        p->col = tu_int(-3, 4);
        p->off = c * cs + p->row[0] * s0 + p->row[1] * s1;
        p->cls = (p->row[0] + 1) * 64 + (p->row[1] + 2) * 8 + (p->col + 3); /* 0 .. 191 */
        if (iter % 5 == 0) p->cls = -1;
        if (iter % 7 == 0) p->cls = t; /* classes of one tap each */
    }
    /* runs tiling [0, nvalid) of a panel nr wide */
    static const int64_t widths[] = {64, 64, 16, 1, 2, 3, 4};
    const int wi = tu_int(0, 7);
    const int64_t nr = wi < 7 ? widths[wi] : tu_int(1, 64);
    const int64_t nvalid = tu_int(0, 3) == 0 ? tu_int(0, (int)nr) : nr;
    pdnn_pack_s2_run runs[64];
    int nrun = 0;
    for (int64_t j = 0; j < nvalid;) {
        pdnn_pack_s2_run *r = &runs[nrun++];
        r->j0 = j;
        r->len = 1 + tu_int(0, (int)(nvalid - j - 1 < 30 ? nvalid - j - 1 : 30));
        r->row[0] = tu_int(-1, (int)h[0]);
        r->row[1] = tu_int(-2, (int)h[1] + 1);
        r->col = tu_int(-4, (int)w + 1);
        r->base = r->row[0] * s0 + r->row[1] * s1;
        if (tu_int(0, 15) == 0) { /* far away, its rows outside x */
            r->row[0] = (int64_t)1 << 40;
            r->base = (int64_t)1 << 40;
        }
        j += r->len;
    }
    /* the definition */
    const int64_t dn = (ntap + 1) * nr; /* + a guard row */
    float *dst = malloc((size_t)dn * sizeof(float)), *want = malloc((size_t)dn * sizeof(float));
    memset(dst, 0x5a, (size_t)dn * sizeof(float));
    memset(want, 0x5a, (size_t)dn * sizeof(float));
    for (int64_t t = 0; t < ntap; t++) {
        for (int64_t l = 0; l < nr; l++) want[t * nr + l] = 0.0f;
        for (int r = 0; r < nrun; r++) {
            const int64_t a0 = runs[r].row[0] + taps[t].row[0], a1 = runs[r].row[1] + taps[t].row[1];
            for (int64_t l = 0; l < runs[r].len; l++) {
                const int64_t c = runs[r].col + taps[t].col + 2 * l;
                if (a0 >= 0 && a0 < h[0] && a1 >= 0 && a1 < h[1] && c >= 0 && c < w)
                    want[t * nr + runs[r].j0 + l] = x[runs[r].base + taps[t].off + c * xc];
            }
        }
    }
    fn(ntap, taps, x, xc, h, w, nrun, runs, nvalid, nr, dst);
    TU_CHECK(memcmp(dst, want, (size_t)dn * sizeof(float)) == 0,
             "%s iter %d: nr=%lld nvalid=%lld ntap=%lld nrun=%d w=%lld xc=%lld: packed panel "
             "differs",
             isa, iter, (long long)nr, (long long)nvalid, (long long)ntap, nrun, (long long)w,
             (long long)xc);
    free(dst), free(want);
}

int main(void)
{
    tu_seed(4242);
    const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    /* a guard page, 16 accessible pages, a guard page */
    char *mem = mmap(NULL, 18 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    TU_CHECK(mem != MAP_FAILED && mprotect(mem, pg, PROT_NONE) == 0 &&
                 mprotect(mem + 17 * pg, pg, PROT_NONE) == 0,
             "guarded pages");
    if (mem == MAP_FAILED) return tu_finish("ukernel/pack_s2");
    area = mem + pg;
    area_bytes = 16 * pg;
    static const char *const caps[] = {"scalar", "avx2", "avx512"};
    static const pdnn_isa lv[] = {PDNN_ISA_SCALAR, PDNN_ISA_AVX2, PDNN_ISA_AVX512};
    static const pdnn_f32_pack_s2_fn fns[] = {pdnn_f32_pack_s2__scalar, pdnn_f32_pack_s2__avx2,
                                              pdnn_f32_pack_s2__avx512};
    for (int c = 0; c < 3; c++) {
        if (lv[c] > pdnn_cpu_isa_detected()) continue;
        setenv("PDNN_MAX_CPU_ISA", caps[c], 1);
        pdnn_cpu_isa_reread();
        TU_CHECK(pdnn_f32_pack_s2_select() == fns[c], "cap %s selects another packer", caps[c]);
        for (int it = 0; it < 3000; it++) check(fns[c], caps[c], it);
    }
    unsetenv("PDNN_MAX_CPU_ISA");
    pdnn_cpu_isa_reread();
    munmap(mem, 18 * pg);
    return tu_finish("ukernel/pack_s2");
}
