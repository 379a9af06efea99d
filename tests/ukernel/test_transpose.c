/* The 32-bit transpose micro-kernels (cpu/ukernels/transpose/transpose_ukernels.h):
 * every block size ni, nj in 0..16, padded source rows (the padding never moves),
 * destination cells outside the block left alone, bits copied exactly (NaN payloads
 * included); each kernel this CPU runs. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "cpu/isa.h"
#include "cpu/ukernels/transpose/transpose_ukernels.h"
#include "testutil.h"

static void run(pdnn_x32_transpose_ukernel_fn fn, const char *name, int ni, int nj)
{
    float src[16 * 19], dst[17 * 21];
    for (int i = 0; i < 16 * 19; i++) src[i] = (float)(i + 1);
    src[5] = NAN;
    for (int i = 0; i < 17 * 21; i++) dst[i] = -1.0f;
    fn((size_t)ni, (size_t)nj, src, 19, dst, 21);
    int bad = 0;
    for (int j = 0; j < 17; j++)
        for (int i = 0; i < 21; i++) {
            const float want = j < nj && i < ni ? src[i * 19 + j] : -1.0f;
            if (memcmp(&dst[j * 21 + i], &want, sizeof want) != 0) bad++;
        }
    TU_CHECK(bad == 0, "%s ni %d nj %d: %d bad cells", name, ni, nj, bad);
}

int main(void)
{
    const pdnn_isa det = pdnn_cpu_isa_detected();
    for (int ni = 0; ni <= 16; ni++)
        for (int nj = 0; nj <= 16; nj++) {
            run(pdnn_x32_transpose_ukernel_16x16__scalar, "scalar", ni, nj);
            if (det >= PDNN_ISA_AVX512) run(pdnn_x32_transpose_ukernel_16x16__avx512, "avx512", ni, nj);
        }
    return tu_finish("ukernel/transpose");
}
