/* The outer-product row kernels of the 1x1 backward filter with one column
 * (cpu/ukernels/conv1x1/conv1x1_ukernels.h): rows 0..5 (a's elements 1 and 3 apart), columns
 * 0..70 (whole 64-column steps, 16-lane vectors and masked tails), c rows with room past
 * n (untouched), alpha 1 / -0.5 / 2, beta 0 (c poisoned with NaN, never read) and 1.5:
 * exact on small integers against a double oracle, each kernel this CPU runs; the AVX-512
 * kernel bitwise equal to the scalar reference on random real values and on products of
 * zero and a negative number (the fused product onto 0 gives +0). */
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
    pdnn_f32_outer_ukernel_fn fn;
} kern;

static const kern kerns[] = {
    {"scalar", PDNN_ISA_SCALAR, pdnn_f32_outer_ukernel__scalar},
    {"avx512", PDNN_ISA_AVX512, pdnn_f32_outer_ukernel__avx512},
};

#define PAST 5 /* c elements past n in each row */

static void run(const kern *K, int m, int n, int as, float alpha, float beta)
{
    const int ldc = n + PAST;
    float *a = malloc((size_t)(m * as + 1) * sizeof(float));
    float *b = malloc((size_t)(n + 1) * sizeof(float));
    float *c = malloc((size_t)(m * ldc + 1) * sizeof(float));
    float *c0 = malloc((size_t)(m * ldc + 1) * sizeof(float));
    for (int i = 0; i < m * as + 1; i++) a[i] = (float)tu_int(-4, 4);
    for (int j = 0; j < n + 1; j++) b[j] = (float)tu_int(-4, 4);
    for (int i = 0; i < m * ldc + 1; i++)
        c[i] = beta == 0.0f && i % ldc < n ? NAN : (float)tu_int(-3, 3);
    memcpy(c0, c, (size_t)(m * ldc + 1) * sizeof(float));
    K->fn((size_t)m, (size_t)n, a, as, b, c, ldc, alpha, beta);
    int bad = 0;
    for (int i = 0; i < m * ldc + 1; i++) {
        const int r = i / ldc, j = i % ldc;
        if (r < m && j < n) {
            const double want = (double)alpha * a[r * as] * b[j] +
                                (beta != 0.0f ? (double)beta * c0[i] : 0.0);
            bad += c[i] != (float)want;
        } else {
            bad += !(c[i] == c0[i] || (isnan(c[i]) && isnan(c0[i])));
        }
    }
    TU_CHECK(bad == 0, "outer %s m %d n %d as %d alpha %g beta %g: %d bad", K->name, m, n, as,
             (double)alpha, (double)beta, bad);
    free(a);
    free(b);
    free(c);
    free(c0);
}

/* AVX-512 against the scalar reference: the same operations, so the same bits. */
static void compare(int m, int n, float alpha, float beta, bool zeros)
{
    float *a = malloc((size_t)m * sizeof(float)), *b = malloc((size_t)n * sizeof(float));
    float *c1 = malloc((size_t)(m * n) * sizeof(float));
    float *c2 = malloc((size_t)(m * n) * sizeof(float));
    for (int i = 0; i < m; i++) a[i] = zeros ? -1.0f - (float)i : (float)tu_uniform(-1, 1);
    for (int j = 0; j < n; j++) b[j] = zeros && j % 2 ? 0.0f : (float)tu_uniform(-1, 1);
    for (int i = 0; i < m * n; i++) c1[i] = c2[i] = (float)tu_uniform(-1, 1);
    pdnn_f32_outer_ukernel__scalar((size_t)m, (size_t)n, a, 1, b, c1, n, alpha, beta);
    pdnn_f32_outer_ukernel__avx512((size_t)m, (size_t)n, a, 1, b, c2, n, alpha, beta);
    TU_CHECK(memcmp(c1, c2, (size_t)(m * n) * sizeof(float)) == 0,
             "outer scalar vs avx512 m %d n %d alpha %g beta %g zeros %d: bits differ", m, n,
             (double)alpha, (double)beta, (int)zeros);
    if (zeros && beta == 0.0f) /* -1 * 0 onto 0: +0 */
        TU_CHECK(!signbit(c2[1]), "outer avx512: -1 * 0 gave -0");
    free(a);
    free(b);
    free(c1);
    free(c2);
}

int main(void)
{
    tu_seed(61);
    const pdnn_isa det = pdnn_cpu_isa_detected();
    static const float al[3] = {1.0f, -0.5f, 2.0f};
    for (size_t ki = 0; ki < sizeof kerns / sizeof kerns[0]; ki++) {
        if (kerns[ki].isa > det) continue;
        for (int m = 0; m <= 5; m++)
            for (int n = 0; n <= 70; n += (n < 20 || n > 60 ? 1 : 7))
                for (int as = 1; as <= 3; as += 2) {
                    run(&kerns[ki], m, n, as, al[(m + n) % 3], 0.0f);
                    run(&kerns[ki], m, n, as, al[(m + n + 1) % 3], 1.5f);
                }
        run(&kerns[ki], 3, 3136, 1, 1.0f, 0.0f); /* LeNet fc1's rows */
    }
    if (det >= PDNN_ISA_AVX512)
        for (int n = 1; n <= 140; n += 13) {
            compare(4, n, 1.0f, 0.0f, false);
            compare(3, n, -0.75f, 1.25f, false);
            compare(2, n, 1.0f, 0.0f, true);
        }
    return tu_finish("ukernel/conv1x1_outer");
}
