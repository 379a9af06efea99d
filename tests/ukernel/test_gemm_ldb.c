/* The ldb GEMM micro-kernels (cpu/ukernels/gemm/gemm_ldb_ukernels.h), B read in place:
 * every tile edge (mr 0..MR, nr 0..NR), kc 0, 1, odd and long, A in place (rows or
 * columns contiguous) or packed, alpha/beta (beta == 0 with NaN in C), against a double
 * oracle on small integers (exact); C's cells outside the tile and its row gaps stay
 * unwritten; B's rows end exactly at nr in the last row (no read past it under ASan);
 * the prefetch pointer changes nothing. On random data each kernel gives the bits of
 * the packed micro-kernel of its ISA (gemm_ukernels.h). A kernel's copying form (6 x 64
 * AVX-512, 6 x 16 AVX2) gives the bits of the kernel and writes exactly B's kc x nr cells to its
 * panel (rows NR apart; the other cells and the row past kc stay unwritten). The
 * non-temporal forms (6 x 64 AVX-512) give the bits and the untouched cells of the plain
 * forms, C 64-byte aligned (its aligned vectors streamed where beta == 0). Each kernel
 * this CPU runs is tested, and the selection follows PDNN_MAX_CPU_ISA. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"
#include "cpu/ukernels/conv1x1/conv1x1_ukernels.h"
#include "cpu/ukernels/gemm/gemm_ldb_ukernels.h"
#include "cpu/ukernels/gemm/gemm_ukernels.h"
#include "testutil.h"

typedef struct {
    const char *name;
    pdnn_isa isa;
    int mr, nr;
    pdnn_f32_gemm_ldb_ukernel_fn ldb;
    pdnn_f32_gemm_ukernel_fn packed;
    pdnn_f32_gemm_ldb_copy_ukernel_fn copy; /* the copying form, or NULL */
    pdnn_f32_gemm_ldb_ukernel_fn nt;        /* the non-temporal forms, or NULL */
    pdnn_f32_gemm_ldb_copy_ukernel_fn copy_nt;
} kern;

static const kern kerns[] = {
    {"6x8__scalar", PDNN_ISA_SCALAR, 6, 8, pdnn_f32_gemm_ldb_ukernel_6x8__scalar,
     pdnn_f32_gemm_ukernel_6x8__scalar, NULL, NULL, NULL},
    {"6x16__avx2_fma", PDNN_ISA_AVX2, 6, 16, pdnn_f32_gemm_ldb_ukernel_6x16__avx2_fma,
     pdnn_f32_gemm_ukernel_6x16__avx2_fma, pdnn_f32_gemm_ldb_copy_ukernel_6x16__avx2_fma, NULL, NULL},
    {"6x64__avx512", PDNN_ISA_AVX512, 6, 64, pdnn_f32_gemm_ldb_ukernel_6x64__avx512,
     pdnn_f32_gemm_ukernel_6x64__avx512, pdnn_f32_gemm_ldb_copy_ukernel_6x64__avx512,
     pdnn_f32_gemm_ldb_nt_ukernel_6x64__avx512, pdnn_f32_gemm_ldb_copy_nt_ukernel_6x64__avx512},
};

#define SENT 777.0f

/* One call: C (mr x nr at ldc, ldc > nr, one spare row) vs the oracle. */
static void run(const kern *K, int mr, int nr, int kc, int amode, float alpha, float beta,
                bool ints, bool with_pf)
{
    const int MR = K->mr, ldb = nr + 3, ldc = nr + 2;
    const int ar = MR, ac = kc > 0 ? kc : 1;
    /* A: amode 0 rows contiguous (rs = kc + 1), 1 columns contiguous (cs = MR + 1),
     * 2 packed (rs 1, cs MR) */
    const ptrdiff_t rs_a = amode == 0 ? ac + 1 : 1, cs_a = amode == 0 ? 1 : amode == 1 ? MR + 1 : MR;
    const size_t an = (size_t)(amode == 0 ? ar * (ac + 1) : ac * (MR + 1));
    float *a = malloc(an * sizeof(float));
    for (size_t i = 0; i < an; i++) a[i] = NAN; /* rows >= mr are never read */
    for (int i = 0; i < mr; i++)
        for (int k = 0; k < kc; k++)
            a[i * rs_a + k * cs_a] = ints ? (float)tu_int(-4, 4) : (float)tu_uniform(-1, 1);
    /* B: kc rows of ldb, the last one ending at nr (allocation ends there) */
    const size_t bn = kc > 0 ? (size_t)(kc - 1) * (size_t)ldb + (size_t)nr : 0;
    float *b = malloc((bn ? bn : 1) * sizeof(float));
    for (size_t i = 0; i < bn; i++) b[i] = NAN;
    for (int k = 0; k < kc; k++)
        for (int j = 0; j < nr; j++)
            b[k * ldb + j] = ints ? (float)tu_int(-4, 4) : (float)tu_uniform(-1, 1);
    const size_t cn = (size_t)(MR + 1) * (size_t)ldc;
    float *c = malloc(cn * sizeof(float)), *c0 = malloc(cn * sizeof(float));
    for (size_t i = 0; i < cn; i++) c[i] = SENT;
    for (int i = 0; i < mr; i++)
        for (int j = 0; j < nr; j++)
            c[i * ldc + j] = beta == 0 ? NAN : ints ? (float)tu_int(-4, 4) : (float)tu_uniform(-1, 1);
    memcpy(c0, c, cn * sizeof(float));
    K->ldb((size_t)mr, (size_t)nr, (size_t)kc, a, rs_a, cs_a, b, ldb, c, ldc, alpha, beta,
           with_pf ? b : NULL, with_pf ? (size_t)(kc / (1 + nr % 3)) : 0);
    int bad = 0;
    for (int i = 0; i <= MR; i++)
        for (int j = 0; j < ldc; j++) {
            const float got = c[i * ldc + j];
            if (i >= mr || j >= nr) {
                if (got != SENT) bad++;
                continue;
            }
            double s = 0;
            for (int k = 0; k < kc; k++) s += (double)a[i * rs_a + k * cs_a] * b[k * ldb + j];
            double want = (double)alpha * s + (beta != 0 ? (double)beta * c0[i * ldc + j] : 0);
            if (ints ? got != (float)want : fabs(got - want) > 1e-4 * (1 + fabs(want))) bad++;
        }
    TU_CHECK(bad == 0, "%s mr %d nr %d kc %d amode %d alpha %g beta %g: %d bad cells",
             K->name, mr, nr, kc, amode, alpha, beta, bad);
    /* the copying form: the same bits in C, B's tile in the panel, nothing else */
    if (K->copy) {
        const size_t pn = (size_t)(kc + 1) * (size_t)K->nr;
        float *pan = malloc(pn * sizeof(float)), *c3 = malloc(cn * sizeof(float));
        for (size_t i = 0; i < pn; i++) pan[i] = SENT;
        memcpy(c3, c0, cn * sizeof(float));
        K->copy((size_t)mr, (size_t)nr, (size_t)kc, a, rs_a, cs_a, b, ldb, c3, ldc, alpha, beta,
                with_pf ? b : NULL, with_pf ? (size_t)(kc / (1 + nr % 3)) : 0, pan);
        TU_CHECK(memcmp(c, c3, cn * sizeof(float)) == 0, "%s copy mr %d nr %d kc %d: C differs from the kernel's",
                 K->name, mr, nr, kc);
        int pbad = 0;
        for (int k = 0; k <= kc; k++)
            for (int j = 0; j < K->nr; j++) {
                const float want = k < kc && j < nr && mr > 0 ? b[k * ldb + j] : SENT;
                const float got = pan[k * K->nr + j];
                if (!(got == want || (isnan(got) && isnan(want)))) pbad++;
            }
        TU_CHECK(pbad == 0, "%s copy mr %d nr %d kc %d: %d bad panel cells", K->name, mr, nr, kc, pbad);
        free(pan);
        free(c3);
    }
    /* the non-temporal forms: the plain forms' bits, C aligned so that its whole vectors
     * at 64-byte boundaries are streamed (beta == 0) */
    if (K->nt) {
        const size_t cna = (cn * sizeof(float) + 63) / 64 * 64;
        float *c4 = aligned_alloc(64, cna), *pan = malloc((size_t)(kc + 1) * (size_t)K->nr * sizeof(float));
        for (int form = 0; form < 2; form++) {
            memcpy(c4, c0, cn * sizeof(float));
            if (form == 0)
                K->nt((size_t)mr, (size_t)nr, (size_t)kc, a, rs_a, cs_a, b, ldb, c4, ldc, alpha, beta,
                      with_pf ? b : NULL, with_pf ? (size_t)(kc / (1 + nr % 3)) : 0);
            else
                K->copy_nt((size_t)mr, (size_t)nr, (size_t)kc, a, rs_a, cs_a, b, ldb, c4, ldc, alpha,
                           beta, NULL, 0, pan);
            TU_CHECK(memcmp(c, c4, cn * sizeof(float)) == 0, "%s %s mr %d nr %d kc %d beta %g: C differs from the kernel's",
                     K->name, form ? "copy_nt" : "nt", mr, nr, kc, beta);
        }
        free(c4);
        free(pan);
    }
    /* the packed kernel of the same ISA on the same data: the same bits */
    if (!ints && kc > 0 && mr > 0 && nr > 0) {
        float *bp = calloc((size_t)kc * (size_t)K->nr, sizeof(float));
        for (int k = 0; k < kc; k++)
            for (int j = 0; j < nr; j++) bp[k * K->nr + j] = b[k * ldb + j];
        float *c2 = malloc(cn * sizeof(float));
        memcpy(c2, c0, cn * sizeof(float));
        K->packed((size_t)mr, (size_t)nr, (size_t)kc, a, rs_a, cs_a, bp, c2, ldc, 1, alpha, beta);
        TU_CHECK(memcmp(c, c2, cn * sizeof(float)) == 0, "%s mr %d nr %d kc %d: bits differ from the packed kernel",
                 K->name, mr, nr, kc);
        free(c2);
        free(bp);
    }
    free(a);
    free(b);
    free(c);
    free(c0);
}

/* AVX2's strip kernel (conv1x1_ukernels.h): n columns (whole tiles, a partial last one,
 * none) of B in place or in contiguous panels give the bits of the 6 x 16 ldb kernel
 * called tile by tile, with the same prefetch arguments; the cells past n and the row
 * gaps stay unwritten. */
static void run_strip(int mr, int n, int kc, int amode, float alpha, float beta)
{
    const int ldb = n + 5, ldc = n + 3;
    float *a = malloc(sizeof(float) * (size_t)(6 * (kc + 1) + 1));
    float *b = malloc(sizeof(float) * (size_t)((kc + 1) * (ldb + 16) + 1));
    float *c1 = malloc(sizeof(float) * (size_t)(7 * ldc)), *c2 = malloc(sizeof(float) * (size_t)(7 * ldc));
    for (int i = 0; i < 6 * (kc + 1) + 1; i++) a[i] = (float)tu_int(-3, 3) * 0.37f;
    for (int i = 0; i < (kc + 1) * (ldb + 16) + 1; i++) b[i] = (float)tu_int(-3, 3) * 1.13f;
    for (int i = 0; i < 7 * ldc; i++) c1[i] = c2[i] = (float)tu_int(-3, 3) - 0.5f;
    /* A rows (rs kc, cs 1) or packed panels (rs 1, cs 6) */
    const ptrdiff_t rs_a = amode ? 1 : kc, cs_a = amode ? 6 : 1;
    const float *pf = n % 3 == 0 ? b : NULL;
    /* B read in place (tiles NR apart), or as contiguous kc x NR panels (ldb NR, tiles
     * kc NR apart) when n is even */
    const bool panels = n % 2 == 0;
    const ptrdiff_t lb = panels ? 16 : ldb, ts = panels ? 16 * kc : 16;
    pdnn_f32_ldb_strip_6x16__avx2_fma((size_t)mr, (size_t)n, (size_t)kc, a, rs_a, cs_a, b, lb, ts, c1, ldc, alpha,
                                      beta, pf, 3);
    for (int j = 0; j < n; j += 16)
        pdnn_f32_gemm_ldb_ukernel_6x16__avx2_fma((size_t)mr, (size_t)(n - j < 16 ? n - j : 16), (size_t)kc, a, rs_a,
                                                 cs_a, b + (j / 16) * ts, lb, c2 + j, ldc, alpha, beta,
                                                 pf ? pf + j : NULL, 3);
    TU_CHECK(memcmp(c1, c2, sizeof(float) * (size_t)(7 * ldc)) == 0,
             "strip 6x16 avx2 mr %d n %d kc %d amode %d: C differs from the tile-by-tile kernel", mr, n, kc, amode);
    free(a);
    free(b);
    free(c1);
    free(c2);
}

int main(void)
{
    tu_seed(7);
    const pdnn_isa det = pdnn_cpu_isa_detected();
    int ntested = 0;
    for (size_t ki = 0; ki < sizeof kerns / sizeof kerns[0]; ki++) {
        const kern *K = &kerns[ki];
        if (K->isa > det) continue;
        ntested++;
        static const int kcs[] = {0, 1, 7, 300};
        for (int mr = 0; mr <= K->mr; mr++)
            for (int nr = 0; nr <= K->nr; nr++)
                for (int ki2 = 0; ki2 < 4; ki2++) {
                    const int kc = kcs[ki2];
                    if (kc == 300 && nr % 5 != 1) continue; /* long sums on a few widths */
                    const int amode = (mr + nr + ki2) % 3;
                    run(K, mr, nr, kc, amode, 1.0f, 0.0f, true, nr % 2 == 0);
                    run(K, mr, nr, kc, amode, 2.0f, -1.0f, true, false);
                    run(K, mr, nr, kc, amode, 1.0f, 1.0f, false, true);
                    if (nr % 7 == 3) run(K, mr, nr, kc, amode, 0.5f, 0.25f, false, false);
                }
    }
    TU_CHECK(ntested == (int)det + 1, "%d ldb kernels tested for isa %s", ntested, pdnn_isa_name(det));
    if (det >= PDNN_ISA_AVX2) {
        static const int ns[] = {0, 1, 15, 16, 17, 32, 40, 48, 63};
        for (int mr = 0; mr <= 6; mr++)
            for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
                for (int kc = 0; kc <= 70; kc += 35) {
                    run_strip(mr, ns[ni], kc, (mr + kc) % 2, 1.0f, 0.0f);
                    run_strip(mr, ns[ni], kc, (mr + kc + 1) % 2, -0.5f, 1.5f);
                }
    }
    /* the selection follows the ISA cap */
    static const char *caps[] = {"scalar", "avx2", "avx512"};
    for (int ci = 0; ci < 3; ci++) {
        setenv("PDNN_MAX_CPU_ISA", caps[ci], 1);
        pdnn_cpu_isa_reread();
        const pdnn_isa want = (pdnn_isa)ci < det ? (pdnn_isa)ci : det;
        const pdnn_gemm_ldb_ukernel *uk = pdnn_gemm_ldb_ukernel_select_f32();
        TU_CHECK(uk && uk->f32 == kerns[want].ldb && uk->mr == kerns[want].mr && uk->nr == kerns[want].nr,
                 "cap %s selects %s", caps[ci], uk ? uk->name : "nothing");
    }
    unsetenv("PDNN_MAX_CPU_ISA");
    pdnn_cpu_isa_reread();
    return tu_finish("ukernel/gemm_ldb");
}
