/* Run-time choice of the two-way deinterleave and interleave (deinterleave.h). */
#include "cpu/isa.h"
#include "cpu/ukernels/deinterleave/deinterleave.h"

pdnn_f32_deinterleave2_fn pdnn_f32_deinterleave2_select(void)
{
    switch (pdnn_cpu_isa()) {
    case PDNN_ISA_AVX512: return pdnn_f32_deinterleave2__avx512;
    case PDNN_ISA_AVX2: return pdnn_f32_deinterleave2__avx2;
    default: return pdnn_f32_deinterleave2__scalar;
    }
}

pdnn_f32_interleave2_fn pdnn_f32_interleave2_select(void)
{
    switch (pdnn_cpu_isa()) {
    case PDNN_ISA_AVX512: return pdnn_f32_interleave2__avx512;
    case PDNN_ISA_AVX2: return pdnn_f32_interleave2__avx2;
    default: return pdnn_f32_interleave2__scalar;
    }
}
