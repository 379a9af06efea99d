/* The GEMV micro-kernels (cpu/ukernels/gemm/gemv_ukernels.h): every row count 0..MR,
 * every kc from 0 to past two vector steps and long sums (each tail of the masked
 * loads), rows with NaN gaps past kc (never read), y with a gap (incy 2) that stays
 * unwritten, alpha/beta (beta == 0 with NaN in y), exact on small integers against a
 * double oracle, close on random data, the same bits on a second run; the SIMD kernels'
 * several-column entry (_x4) at every row and column count, scattered y cells; each
 * kernel this CPU runs, and the selection follows PDNN_MAX_CPU_ISA. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"
#include "cpu/ukernels/gemm/gemv_ukernels.h"
#include "testutil.h"

typedef struct {
    const char *name;
    pdnn_isa isa;
    int mr;
    pdnn_f32_gemv_ukernel_fn fn;
    pdnn_f32_gemv_x4_ukernel_fn x4;
} kern;

static const kern kerns[] = {
    {"4__scalar", PDNN_ISA_SCALAR, 4, pdnn_f32_gemv_ukernel_4__scalar, NULL},
    {"6__avx2_fma", PDNN_ISA_AVX2, 6, pdnn_f32_gemv_ukernel_6__avx2_fma,
     pdnn_f32_gemv_ukernel_6__avx2_fma_x4},
    {"6__avx512", PDNN_ISA_AVX512, 6, pdnn_f32_gemv_ukernel_6__avx512,
     pdnn_f32_gemv_ukernel_6__avx512_x4},
};

/* The _x4 entry: mr rows x nc columns; x's columns ldx apart with NaN between them (never
 * read), y's cells at row step incy 3 and scattered column offsets, the cells between
 * them unwritten. */
static void run_x4(const kern *K, int mr, int nc, int kc, float alpha, float beta, bool ints)
{
    const int lda = kc + 3, ldx = kc + 2, MR = K->mr, incy = 3, ny = 3 * MR + 45;
    const ptrdiff_t yoff[4] = {0, 2, 1, 40};
    float *a = malloc(sizeof(float) * (size_t)(MR * lda));
    float *x = malloc(sizeof(float) * (size_t)(4 * ldx));
    float *y = malloc(sizeof(float) * (size_t)ny), *y0 = malloc(sizeof(float) * (size_t)ny);
    for (int i = 0; i < MR * lda; i++) a[i] = NAN;
    for (int i = 0; i < 4 * ldx; i++) x[i] = NAN;
    for (int i = 0; i < mr; i++)
        for (int k = 0; k < kc; k++)
            a[i * lda + k] = ints ? (float)tu_int(-4, 4) : (float)tu_uniform(-1, 1);
    for (int j = 0; j < nc; j++)
        for (int k = 0; k < kc; k++)
            x[j * ldx + k] = ints ? (float)tu_int(-4, 4) : (float)tu_uniform(-1, 1);
    for (int i = 0; i < ny; i++) y[i] = 777.0f;
    for (int i = 0; i < mr; i++)
        for (int j = 0; j < nc; j++)
            y[i * incy + yoff[j]] = beta == 0 ? NAN : (float)tu_int(-4, 4);
    memcpy(y0, y, sizeof(float) * (size_t)ny);
    K->x4((size_t)mr, (size_t)nc, (size_t)kc, a, lda, x, ldx, y, incy, yoff, alpha, beta);
    int bad = 0;
    for (int e = 0; e < ny; e++) {
        int ii = -1, jj = -1;
        for (int i = 0; i < mr; i++)
            for (int j = 0; j < nc; j++)
                if (i * incy + yoff[j] == e) ii = i, jj = j;
        if (ii < 0) {
            if (y[e] != 777.0f) bad++;
            continue;
        }
        double s = 0;
        for (int k = 0; k < kc; k++) s += (double)a[ii * lda + k] * x[jj * ldx + k];
        const double want = alpha * s + (beta != 0 ? (double)beta * y0[e] : 0);
        if (ints ? y[e] != (float)want : fabs(y[e] - want) > 1e-4 * (1 + fabs(want))) bad++;
    }
    TU_CHECK(bad == 0, "%s_x4 mr %d nc %d kc %d alpha %g beta %g: %d bad", K->name, mr, nc, kc,
             alpha, beta, bad);
    free(a);
    free(x);
    free(y);
    free(y0);
}

static void run(const kern *K, int mr, int kc, float alpha, float beta, bool ints)
{
    const int lda = kc + 5, MR = K->mr;
    /* x ends exactly at kc (no read past it under ASan) */
    float *a = malloc(sizeof(float) * (size_t)(MR * lda)), *x = malloc(sizeof(float) * (size_t)(kc ? kc : 1));
    float *y = malloc(sizeof(float) * (size_t)(2 * MR + 1)), *y0 = malloc(sizeof(float) * (size_t)(2 * MR + 1));
    for (int i = 0; i < MR * lda; i++) a[i] = NAN;
    for (int i = 0; i < mr; i++)
        for (int k = 0; k < kc; k++) a[i * lda + k] = ints ? (float)tu_int(-4, 4) : (float)tu_uniform(-1, 1);
    x[0] = 0;
    for (int k = 0; k < kc; k++) x[k] = ints ? (float)tu_int(-4, 4) : (float)tu_uniform(-1, 1);
    for (int i = 0; i < 2 * MR + 1; i++) y[i] = 777.0f;
    for (int i = 0; i < mr; i++) y[2 * i] = beta == 0 ? NAN : (float)tu_int(-4, 4);
    memcpy(y0, y, sizeof(float) * (size_t)(2 * MR + 1));
    K->fn((size_t)mr, (size_t)kc, a, lda, x, y, 2, alpha, beta);
    int bad = 0;
    for (int i = 0; i < 2 * MR + 1; i++) {
        if (i % 2 || i / 2 >= mr) {
            if (y[i] != 777.0f) bad++;
            continue;
        }
        double s = 0;
        for (int k = 0; k < kc; k++) s += (double)a[(i / 2) * lda + k] * x[k];
        const double want = alpha * s + (beta != 0 ? (double)beta * y0[i] : 0);
        if (ints ? y[i] != (float)want : fabs(y[i] - want) > 1e-4 * (1 + fabs(want))) bad++;
    }
    TU_CHECK(bad == 0, "%s mr %d kc %d alpha %g beta %g: %d bad", K->name, mr, kc, alpha, beta, bad);
    float *y2 = malloc(sizeof(float) * (size_t)(2 * MR + 1));
    memcpy(y2, y0, sizeof(float) * (size_t)(2 * MR + 1));
    K->fn((size_t)mr, (size_t)kc, a, lda, x, y2, 2, alpha, beta);
    TU_CHECK(memcmp(y, y2, sizeof(float) * (size_t)(2 * MR + 1)) == 0, "%s: run to run", K->name);
    free(a);
    free(x);
    free(y);
    free(y0);
    free(y2);
}

int main(void)
{
    tu_seed(11);
    const pdnn_isa det = pdnn_cpu_isa_detected();
    int ntested = 0;
    for (size_t ki = 0; ki < sizeof kerns / sizeof kerns[0]; ki++) {
        const kern *K = &kerns[ki];
        if (K->isa > det) continue;
        ntested++;
        for (int mr = 0; mr <= K->mr; mr++) {
            for (int kc = 0; kc <= 70; kc++) {
                run(K, mr, kc, 1.0f, 0.0f, true);
                run(K, mr, kc, 2.0f, -1.0f, true);
                if (kc % 5 == 0) run(K, mr, kc, 1.0f, 0.5f, false);
            }
            run(K, mr, 1000, 1.0f, 0.0f, true);
            run(K, mr, 3137, 0.5f, 1.0f, false);
            for (int nc = 0; K->x4 && nc <= 4; nc++) {
                for (int kc = 0; kc <= 40; kc++) run_x4(K, mr, nc, kc, 1.0f, 0.0f, true);
                run_x4(K, mr, nc, 17, 2.0f, -1.0f, true);
                run_x4(K, mr, nc, 2304, 1.0f, 0.0f, true);
                run_x4(K, mr, nc, 801, -0.5f, 0.5f, false);
            }
        }
    }
    TU_CHECK(ntested == (int)det + 1, "%d GEMV kernels tested for isa %s", ntested, pdnn_isa_name(det));
    static const char *caps[] = {"scalar", "avx2", "avx512"};
    for (int ci = 0; ci < 3; ci++) {
        setenv("PDNN_MAX_CPU_ISA", caps[ci], 1);
        pdnn_cpu_isa_reread();
        const pdnn_isa want = (pdnn_isa)ci < det ? (pdnn_isa)ci : det;
        const pdnn_gemv_ukernel *uk = pdnn_gemv_ukernel_select_f32();
        TU_CHECK(uk && uk->f32 == kerns[want].fn && uk->f32_x4 == kerns[want].x4 &&
                     uk->mr == kerns[want].mr,
                 "cap %s selects %s", caps[ci], uk ? uk->name : "nothing");
    }
    unsetenv("PDNN_MAX_CPU_ISA");
    pdnn_cpu_isa_reread();
    return tu_finish("ukernel/gemv");
}
