/* The register dot-tile kernels of the 1x1 backward filter
 * (cpu/ukernels/conv1x1/conv1x1_ukernels.h): every tile (mr 1..6, nr 1..4), kc from 0
 * past two vector steps and a long sum (each masked tail), 1-3 images with their own
 * strides, rows with NaN past kc (never read: the last row of the last image ends at kc),
 * each mode (lanes from zero or loaded, stored or reduced into c), c blended with
 * beta != 0 and written unread with beta == 0 (NaN in it), elements outside the tile
 * untouched; exact on small integers against a double oracle; each kernel this CPU runs;
 * the AVX-512 kernel's results equal the scalar reference's. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"
#include "cpu/ukernels/conv1x1/conv1x1_ukernels.h"
#include "testutil.h"

typedef struct {
    const char *name;
    pdnn_isa isa;
    pdnn_f32_dotr_ukernel_fn fn;
} kern;

static const kern kerns[] = {
    {"6x4__scalar", PDNN_ISA_SCALAR, pdnn_f32_dotr_ukernel_6x4__scalar},
    {"6x4__avx512", PDNN_ISA_AVX512, pdnn_f32_dotr_ukernel_6x4__avx512},
};

#define L PDNN_DOTR_LANES
#define MR PDNN_DOTR_MR
#define NR PDNN_DOTR_NR
#define LDC 7

static void run(const kern *K, int mr, int nr, int nimg, int kc, int mode, float alpha,
                float beta)
{
    const int ld = kc + 3, is = MR * ld + 5; /* image stride past 6 rows */
    const size_t n = (size_t)((nimg - 1) * is + (MR - 1) * ld + kc);
    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) a[i] = b[i] = NAN;
    for (int m = 0; m < nimg; m++)
        for (int i = 0; i < MR; i++)
            for (int k = 0; k < kc; k++) {
                if (i < mr) a[m * is + i * ld + k] = (float)tu_int(-4, 4);
                if (i < nr) b[m * is + i * ld + k] = (float)tu_int(-4, 4);
            }
    float acc[MR * NR * L], acc0[MR * NR * L], c[MR * LDC], c0[MR * LDC];
    for (int i = 0; i < MR * NR * L; i++) acc[i] = (float)tu_int(-3, 3);
    for (int i = 0; i < MR * LDC; i++) c[i] = (float)tu_int(-3, 3);
    if (beta == 0)
        for (int i = 0; i < MR; i++)
            for (int j = 0; j < nr; j++) c[i * LDC + j] = NAN;
    memcpy(acc0, acc, sizeof acc);
    memcpy(c0, c, sizeof c);
    K->fn((size_t)mr, (size_t)nr, (size_t)nimg, (size_t)kc, a, ld, is, b, ld, is, acc, mode, c,
          LDC, alpha, beta);
    int bad = 0;
    for (int i = 0; i < MR; i++)
        for (int j = 0; j < NR; j++) {
            const bool in = i < mr && j < nr;
            double lane[L];
            for (int l = 0; l < L; l++) {
                lane[l] = (mode & PDNN_DOTR_LOAD) ? acc0[(i * NR + j) * L + l] : 0.0;
                if (in)
                    for (int m = 0; m < nimg; m++)
                        for (int k = l; k < kc; k += L)
                            lane[l] += (double)a[m * is + i * ld + k] * b[m * is + j * ld + k];
            }
            if (mode & PDNN_DOTR_STORE) {
                for (int l = 0; l < L; l++)
                    if (acc[(i * NR + j) * L + l] != (float)(in ? lane[l] : acc0[(i * NR + j) * L + l])) bad++;
            } else {
                for (int l = 0; l < L; l++)
                    if (acc[(i * NR + j) * L + l] != acc0[(i * NR + j) * L + l]) bad++;
            }
        }
    for (int i = 0; i < MR; i++)
        for (int j = 0; j < LDC; j++) {
            const float got = c[i * LDC + j];
            if (!(mode & PDNN_DOTR_STORE) && i < mr && j < nr) {
                double s = 0;
                for (int l = 0; l < L; l++) s += (mode & PDNN_DOTR_LOAD) ? acc0[(i * NR + j) * L + l] : 0.0;
                for (int m = 0; m < nimg; m++)
                    for (int k = 0; k < kc; k++)
                        s += (double)a[m * is + i * ld + k] * b[m * is + j * ld + k];
                const double want = alpha * s + (beta != 0 ? beta * (double)c0[i * LDC + j] : 0.0);
                if (got != (float)want) bad++;
            } else if (!(got == c0[i * LDC + j] || (isnan(got) && isnan(c0[i * LDC + j])))) {
                bad++;
            }
        }
    TU_CHECK(bad == 0, "%s mr %d nr %d nimg %d kc %d mode %d beta %g: %d bad", K->name, mr, nr,
             nimg, kc, mode, (double)beta, bad);
    free(a);
    free(b);
}

/* The AVX-512 kernel against the scalar one on random data: the same lanes and tree, the
 * products fused or not, so within a few ulps. */
static void compare(int mr, int nr, int kc)
{
    const int ld = kc + 1;
    float *a = malloc((size_t)(MR * ld) * sizeof(float)), *b = malloc((size_t)(NR * ld) * sizeof(float));
    for (int i = 0; i < MR * ld; i++) a[i] = (float)tu_uniform(-1, 1);
    for (int i = 0; i < NR * ld; i++) b[i] = (float)tu_uniform(-1, 1);
    float c1[MR * NR], c2[MR * NR];
    pdnn_f32_dotr_ukernel_6x4__scalar((size_t)mr, (size_t)nr, 1, (size_t)kc, a, ld, 0, b, ld, 0,
                                      NULL, 0, c1, NR, 1.0f, 0.0f);
    pdnn_f32_dotr_ukernel_6x4__avx512((size_t)mr, (size_t)nr, 1, (size_t)kc, a, ld, 0, b, ld, 0,
                                      NULL, 0, c2, NR, 1.0f, 0.0f);
    double err = 0;
    for (int i = 0; i < mr; i++)
        for (int j = 0; j < nr; j++) {
            const double e = fabs((double)c1[i * NR + j] - c2[i * NR + j]);
            if (e > err) err = e;
        }
    TU_CHECK(err <= 1e-5 * sqrt((double)kc + 1), "scalar vs avx512 mr %d nr %d kc %d: %g", mr, nr,
             kc, err);
    free(a);
    free(b);
}

int main(void)
{
    tu_seed(6);
    const pdnn_isa det = pdnn_cpu_isa_detected();
    static const int modes[4] = {0, PDNN_DOTR_LOAD, PDNN_DOTR_STORE, PDNN_DOTR_LOAD | PDNN_DOTR_STORE};
    for (size_t ki = 0; ki < sizeof kerns / sizeof kerns[0]; ki++) {
        if (kerns[ki].isa > det) continue;
        for (int mr = 1; mr <= MR; mr++)
            for (int nr = 1; nr <= NR; nr++) {
                for (int kc = 0; kc <= 34; kc++)
                    run(&kerns[ki], mr, nr, 1 + kc % 3, kc, modes[kc % 4], kc % 2 ? 1.0f : -0.5f,
                        kc % 5 == 0 ? 0.0f : 1.5f);
                for (int md = 0; md < 4; md++) {
                    run(&kerns[ki], mr, nr, 2, 1001, modes[md], 2.0f, 0.0f);
                    run(&kerns[ki], mr, nr, 1, 49, modes[md], 1.0f, -1.0f);
                }
            }
    }
    if (det >= PDNN_ISA_AVX512)
        for (int mr = 1; mr <= MR; mr++)
            for (int nr = 1; nr <= NR; nr++) compare(mr, nr, 196 + mr * nr);
    return tu_finish("ukernel/conv1x1_dotr");
}
