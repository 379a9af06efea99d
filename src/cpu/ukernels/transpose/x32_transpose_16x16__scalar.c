/* 32-bit 16 x 16 transpose, plain C. Contract in transpose_ukernels.h. */
#include "cpu/ukernels/transpose/transpose_ukernels.h"

PDNN_X32_TRANSPOSE_UKERNEL(pdnn_x32_transpose_ukernel_16x16__scalar)
{
    if (ni > 16) ni = 16;
    if (nj > 16) nj = 16;
    for (size_t i = 0; i < ni; i++)
        for (size_t j = 0; j < nj; j++) dst[(ptrdiff_t)j * ldd + (ptrdiff_t)i] = src[(ptrdiff_t)i * lds + (ptrdiff_t)j];
}
