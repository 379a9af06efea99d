/* The channel-vector direct convolution micro-kernels (src/cpu/ukernels/kvec, AVX-512
 * only) against their definitions in kvec_ukernels.h, written here in plain C:
 *  - pdnn_f32_kvec_s1__avx512 and _s2 (pixels 1 and 2 columns apart) at every tile (2
 *    vectors with 1..14 pixels, 4 vectors with 1..7), 0..3 channels and 0..10 taps at
 *    scattered offsets, each tap whole or leaving out its first, its last, both or all
 *    pixels (the tap classes), channel strides with gaps, the scratch's pixels back to
 *    back or farther apart (as: 2 or 3 vectors more; lanes between them untouched),
 *    start from zero and from the scratch's values: every lane one chain of fused
 *    multiply-adds, so bitwise equal to fmaf in the same order, on random real values;
 *    lanes of the scratch past the tile untouched;
 *  - pdnn_f32_kvec_store__avx512 at pixel and channel counts 0..35 (the 16 x 16 blocks
 *    and their edges), alpha 1 / -0.5, beta 0 (y poisoned with NaN, never read) and
 *    0.75: alpha * t rounded, then plus beta * y rounded; y outside the block
 *    untouched; the same with non-temporal stores requested (used with beta == 0 where
 *    a run of 16 is aligned; y from a 64-byte boundary, its rows at various
 *    alignments: both stores). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu/isa.h"
#include "cpu/ukernels/kvec/kvec_ukernels.h"
#include "testutil.h"

#define SENT -12345.0f

static float frand(void) { return (float)(rand() % 20001 - 10000) / 1024.0f; }

static void check_tile(size_t xs, size_t np, size_t nv, size_t nc, size_t ntap, int first,
                       size_t as)
{
    const ptrdiff_t cs = 97 + (ptrdiff_t)(rand() % 5);
    ptrdiff_t toff[10], pfo[3] = {0, 5, 60};
    unsigned char cls[10];
    for (size_t j = 0; j < ntap; j++) {
        toff[j] = (ptrdiff_t)(rand() % 40);
        /* half the taps whole, the others each class: first / last / both pixels or
         * the whole tap left out */
        cls[j] = (unsigned char)(rand() % 2 ? 0 : 1 + rand() % 4);
        if (cls[j] == 4) cls[j] = PDNN_KVEC_SKIP_TAP;
    }
    const size_t nx = (nc + 1) * (size_t)cs + 80, nw = (nc * ntap + 1) * nv * 16;
    const size_t na = (np + 1) * as;
    float *x = malloc(nx * sizeof(float)), *w = malloc(nw * sizeof(float));
    float *acc = malloc(na * sizeof(float)), *want = malloc(na * sizeof(float));
    for (size_t i = 0; i < nx; i++) x[i] = frand();
    for (size_t i = 0; i < nw; i++) w[i] = frand();
    for (size_t i = 0; i < na; i++)
        acc[i] = want[i] = i < np * as && i % as < nv * 16 ? frand() : SENT;
    for (size_t i = 0; i < np; i++)
        for (size_t v = 0; v < nv; v++)
            for (size_t l = 0; l < 16; l++) {
                const size_t a = i * as + v * 16 + l;
                float s = first ? 0.0f : want[a];
                for (size_t c = 0; c < nc; c++)
                    for (size_t j = 0; j < ntap; j++) {
                        const bool out = (cls[j] & PDNN_KVEC_SKIP_TAP) ||
                                         (i == 0 && (cls[j] & PDNN_KVEC_SKIP_FIRST)) ||
                                         (i == np - 1 && (cls[j] & PDNN_KVEC_SKIP_LAST));
                        if (!out)
                            s = fmaf(x[c * (size_t)cs + (size_t)toff[j] + xs * i],
                                     w[((c * ntap + j) * nv + v) * 16 + l], s);
                    }
                want[a] = s;
            }
    const pdnn_f32_kvec_fn kern = xs == 1 ? pdnn_f32_kvec_s1__avx512 : pdnn_f32_kvec_s2__avx512;
    kern(np, nv, nc, ntap, x, cs, toff, cls, w, acc, (ptrdiff_t)as, first, pfo, 3);
    size_t bad = 0;
    for (size_t i = 0; i < na; i++) bad += acc[i] != want[i];
    TU_CHECK(bad == 0, "kvec s%zu np=%zu nv=%zu nc=%zu ntap=%zu first=%d as=%zu: %zu wrong", xs,
             np, nv, nc, ntap, first, as, bad);
    free(x);
    free(w);
    free(acc);
    free(want);
}

static void check_store(size_t np, size_t nk, float alpha, float beta, int stream)
{
    const ptrdiff_t ldt = (ptrdiff_t)nk + 3, ldy = (ptrdiff_t)np + 5;
    const size_t nt = (np + 1) * (size_t)ldt, ny = (nk + 1) * (size_t)ldy;
    /* y from a 64-byte boundary: its row 0 (and others) can be streamed */
    float *t = malloc(nt * sizeof(float));
    float *y = aligned_alloc(64, (ny * sizeof(float) + 63) / 64 * 64);
    float *want = malloc(ny * sizeof(float));
    for (size_t i = 0; i < nt; i++) t[i] = frand();
    for (size_t i = 0; i < ny; i++) {
        const size_t k = i / (size_t)ldy, p = i % (size_t)ldy;
        const bool in = k < nk && p < np;
        y[i] = in ? (beta == 0.0f ? NAN : frand()) : SENT;
        want[i] = y[i];
        if (in) {
            const float a = alpha * t[p * (size_t)ldt + k];
            want[i] = beta == 0.0f ? a : a + beta * y[i];
        }
    }
    pdnn_f32_kvec_store__avx512(np, nk, t, ldt, y, ldy, alpha, beta, stream);
    size_t bad = 0;
    for (size_t i = 0; i < ny; i++) bad += !(y[i] == want[i]);
    TU_CHECK(bad == 0, "store np=%zu nk=%zu alpha=%g beta=%g stream=%d: %zu wrong", np, nk,
             (double)alpha, (double)beta, stream, bad);
    free(t);
    free(y);
    free(want);
}

int main(void)
{
    tu_seed(919);
    if (pdnn_cpu_isa() < PDNN_ISA_AVX512) {
        printf("ukernel kvec: no AVX-512, the kernels are not run\n");
        return tu_finish("ukernel/kvec");
    }
    for (size_t xs = 1; xs <= 2; xs++)
        for (size_t nv = 2; nv <= 4; nv += 2) {
            const size_t pmax = nv == 2 ? PDNN_KVEC_PX2 : PDNN_KVEC_PX4;
            for (size_t np = 1; np <= pmax; np++)
                for (size_t nc = 0; nc <= 3; nc++)
                    for (size_t ntap = 0; ntap <= 10; ntap += (ntap < 3 ? 1 : 7))
                        for (int first = 0; first <= 1; first++)
                            check_tile(xs, np, nv, nc, ntap, first,
                                       nv * 16 * (first && nc == 2 ? 2 : 1) + (ntap == 1 ? 16 : 0));
        }
    for (size_t np = 0; np <= 35; np += (np < 17 ? 1 : 6))
        for (size_t nk = 0; nk <= 35; nk += (nk < 17 ? 1 : 6)) {
            check_store(np, nk, 1.0f, 0.0f, 0);
            check_store(np, nk, -0.5f, 0.75f, 0);
            check_store(np, nk, 2.0f, 0.0f, 1);
            check_store(np, nk, 1.0f, 0.5f, 1);
        }
    return tu_finish("ukernel/kvec");
}
