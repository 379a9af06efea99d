/* Run-time choice of the run packer and unpacker (pack_runs.h). */
#include "cpu/isa.h"
#include "cpu/ukernels/pack/pack_runs.h"

pdnn_pack_runs_fn pdnn_pack_runs_select(void)
{
    switch (pdnn_cpu_isa()) {
    case PDNN_ISA_AVX512: return pdnn_pack_runs__avx512;
    case PDNN_ISA_AVX2: return pdnn_pack_runs__avx2;
    default: return pdnn_pack_runs__scalar;
    }
}

pdnn_unpack_runs_fn pdnn_unpack_runs_select(void)
{
    switch (pdnn_cpu_isa()) {
    case PDNN_ISA_AVX512: return pdnn_unpack_runs__avx512;
    case PDNN_ISA_AVX2: return pdnn_unpack_runs__avx2;
    default: return pdnn_unpack_runs__scalar;
    }
}
