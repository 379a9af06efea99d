/* Run-time choice of the stride-2 row packer (pack_s2.h). */
#include "cpu/isa.h"
#include "cpu/ukernels/pack/pack_s2.h"

pdnn_f32_pack_s2_fn pdnn_f32_pack_s2_select(void)
{
    switch (pdnn_cpu_isa()) {
    case PDNN_ISA_AVX512: return pdnn_f32_pack_s2__avx512;
    case PDNN_ISA_AVX2: return pdnn_f32_pack_s2__avx2;
    default: return pdnn_f32_pack_s2__scalar;
    }
}
