/* The transpose micro-kernels (src/cpu/ukernels/transpose): every f32 kernel this CPU
 * runs and the f64 one, against the definition dst[j * ldd + i] = src[i * lds + j]:
 * rows and cols 0 .. 37 (the 8- and 16-wide blocks, their edges, several blocks), gapped
 * leading dimensions on both sides; exact, and every element of dst outside the
 * transposed block untouched. Also the run-time choice under PDNN_MAX_CPU_ISA. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>

#include "cpu/isa.h"
#include "cpu/ukernels/transpose/transpose.h"
#include "testutil.h"

#define SENT -12345.0

static void check_f32(const char *name, pdnn_f32_transpose_fn fn, size_t rows, size_t cols)
{
    const ptrdiff_t lds = (ptrdiff_t)cols + 3, ldd = (ptrdiff_t)rows + 5;
    const size_t ns = rows * (size_t)lds + 1, nd = (cols + 1) * (size_t)ldd;
    float *s = malloc(ns * sizeof(float)), *d = malloc(nd * sizeof(float));
    for (size_t i = 0; i < ns; i++) s[i] = (float)(rand() % 20001 - 10000);
    for (size_t i = 0; i < nd; i++) d[i] = (float)SENT;
    fn(rows, cols, s, lds, d, ldd);
    size_t bad = 0;
    for (size_t j = 0; j <= cols; j++)
        for (ptrdiff_t i = 0; i < ldd; i++) {
            const bool in = j < cols && (size_t)i < rows;
            const float want = in ? s[(size_t)i * (size_t)lds + j] : (float)SENT;
            if (d[j * (size_t)ldd + (size_t)i] != want) bad++;
        }
    TU_CHECK(bad == 0, "%s rows=%zu cols=%zu: %zu wrong", name, rows, cols, bad);
    free(s);
    free(d);
}

static void check_f64(size_t rows, size_t cols)
{
    const ptrdiff_t lds = (ptrdiff_t)cols + 2, ldd = (ptrdiff_t)rows + 1;
    const size_t ns = rows * (size_t)lds + 1, nd = (cols + 1) * (size_t)ldd;
    double *s = malloc(ns * sizeof(double)), *d = malloc(nd * sizeof(double));
    for (size_t i = 0; i < ns; i++) s[i] = (double)(rand() % 20001 - 10000) / 7.0;
    for (size_t i = 0; i < nd; i++) d[i] = SENT;
    pdnn_f64_transpose(rows, cols, s, lds, d, ldd);
    size_t bad = 0;
    for (size_t j = 0; j <= cols; j++)
        for (ptrdiff_t i = 0; i < ldd; i++) {
            const bool in = j < cols && (size_t)i < rows;
            const double want = in ? s[(size_t)i * (size_t)lds + j] : SENT;
            if (d[j * (size_t)ldd + (size_t)i] != want) bad++;
        }
    TU_CHECK(bad == 0, "f64 rows=%zu cols=%zu: %zu wrong", rows, cols, bad);
    free(s);
    free(d);
}

int main(void)
{
    tu_seed(777);
    const struct {
        const char *name;
        pdnn_isa isa;
        pdnn_f32_transpose_fn fn;
    } ks[] = {{"scalar", PDNN_ISA_SCALAR, pdnn_f32_transpose__scalar},
              {"avx2", PDNN_ISA_AVX2, pdnn_f32_transpose__avx2},
              {"avx512", PDNN_ISA_AVX512, pdnn_f32_transpose__avx512}};
    const pdnn_isa det = pdnn_cpu_isa_detected();
    for (int k = 0; k < 3; k++) {
        if (ks[k].isa > det) continue;
        for (size_t r = 0; r <= 37; r++)
            for (size_t c = 0; c <= 37; c++) check_f32(ks[k].name, ks[k].fn, r, c);
        setenv("PDNN_MAX_CPU_ISA", ks[k].name, 1);
        pdnn_cpu_isa_reread();
        TU_CHECK(pdnn_f32_transpose_select() == ks[k].fn, "cap %s selects its kernel",
                 ks[k].name);
    }
    unsetenv("PDNN_MAX_CPU_ISA");
    pdnn_cpu_isa_reread();
    for (size_t r = 0; r <= 20; r++)
        for (size_t c = 0; c <= 20; c++) check_f64(r, c);
    return tu_finish("ukernel/transpose");
}
