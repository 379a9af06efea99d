/* The dot-tile micro-kernels (cpu/ukernels/gemm/dot_ukernels.h): every tile (mr, nr in
 * 0..4), kc from 0 past two vector steps and long sums (each masked tail), rows with NaN
 * past kc (never read: the last row ends at kc), lane sums added to what the slots held
 * and untouched slots left alone, exact on small integers against a per-lane double
 * oracle; each kernel this CPU runs. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"
#include "cpu/ukernels/gemm/dot_ukernels.h"
#include "testutil.h"

typedef struct {
    const char *name;
    pdnn_isa isa;
    pdnn_f32_dot_ukernel_fn fn;
} kern;

static const kern kerns[] = {
    {"4x4__scalar", PDNN_ISA_SCALAR, pdnn_f32_dot_ukernel_4x4__scalar},
    {"4x4__avx512", PDNN_ISA_AVX512, pdnn_f32_dot_ukernel_4x4__avx512},
};

#define L PDNN_DOT_LANES

static void run(const kern *K, int mr, int nr, int kc)
{
    const int ld = kc + 3;
    const size_t n = (size_t)(3 * ld + kc + 1); /* 4 rows, the last ending at kc */
    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) a[i] = b[i] = NAN;
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < kc; k++) {
            if (i < mr) a[i * ld + k] = (float)tu_int(-4, 4);
            if (i < nr) b[i * ld + k] = (float)tu_int(-4, 4);
        }
    float acc[16 * L], acc0[16 * L];
    for (int i = 0; i < 16 * L; i++) acc[i] = (float)tu_int(-3, 3);
    memcpy(acc0, acc, sizeof acc);
    K->fn((size_t)mr, (size_t)nr, (size_t)kc, a, ld, b, ld, acc);
    int bad = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            for (int l = 0; l < L; l++) {
                double want = acc0[(i * 4 + j) * L + l];
                if (i < mr && j < nr)
                    for (int k = l; k < kc; k += L) want += (double)a[i * ld + k] * b[j * ld + k];
                if (acc[(i * 4 + j) * L + l] != (float)want) bad++;
            }
    TU_CHECK(bad == 0, "%s mr %d nr %d kc %d: %d bad lanes", K->name, mr, nr, kc, bad);
    free(a);
    free(b);
}

int main(void)
{
    tu_seed(5);
    const pdnn_isa det = pdnn_cpu_isa_detected();
    for (size_t ki = 0; ki < sizeof kerns / sizeof kerns[0]; ki++) {
        if (kerns[ki].isa > det) continue;
        for (int mr = 0; mr <= 4; mr++)
            for (int nr = 0; nr <= 4; nr++) {
                for (int kc = 0; kc <= 40; kc++) run(&kerns[ki], mr, nr, kc);
                run(&kerns[ki], mr, nr, 1000);
            }
    }
    return tu_finish("ukernel/dot");
}
