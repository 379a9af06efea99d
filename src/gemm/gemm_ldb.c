/* Selection of the ldb GEMM and the GEMV micro-kernels (cpu/ukernels/gemm/gemm_ldb_ukernels.h,
 * gemv_ukernels.h). */
#include "cpu/isa.h"
#include "cpu/ukernels/gemm/gemm_ldb_ukernels.h"
#include "cpu/ukernels/gemm/gemv_ukernels.h"

static const pdnn_gemm_ldb_ukernel ldb_ukernels[] = {
    {"pdnn_f32_gemm_ldb_ukernel_6x64__avx512", 6, 64, pdnn_f32_gemm_ldb_ukernel_6x64__avx512},
    {"pdnn_f32_gemm_ldb_ukernel_6x16__avx2_fma", 6, 16, pdnn_f32_gemm_ldb_ukernel_6x16__avx2_fma},
    {"pdnn_f32_gemm_ldb_ukernel_6x8__scalar", 6, 8, pdnn_f32_gemm_ldb_ukernel_6x8__scalar},
};

const pdnn_gemm_ldb_ukernel *pdnn_gemm_ldb_ukernel_select_f32(void)
{
    const pdnn_isa isa = pdnn_cpu_isa();
    if (isa >= PDNN_ISA_AVX512) return &ldb_ukernels[0];
    if (isa >= PDNN_ISA_AVX2) return &ldb_ukernels[1];
    return &ldb_ukernels[2];
}

static const pdnn_gemv_ukernel gemv_ukernels[] = {
    {"pdnn_f32_gemv_ukernel_6__avx512", 6, pdnn_f32_gemv_ukernel_6__avx512,
     pdnn_f32_gemv_ukernel_6__avx512_x4},
    {"pdnn_f32_gemv_ukernel_6__avx2_fma", 6, pdnn_f32_gemv_ukernel_6__avx2_fma,
     pdnn_f32_gemv_ukernel_6__avx2_fma_x4},
    {"pdnn_f32_gemv_ukernel_4__scalar", 4, pdnn_f32_gemv_ukernel_4__scalar, NULL},
};

const pdnn_gemv_ukernel *pdnn_gemv_ukernel_select_f32(void)
{
    const pdnn_isa isa = pdnn_cpu_isa();
    if (isa >= PDNN_ISA_AVX512) return &gemv_ukernels[0];
    if (isa >= PDNN_ISA_AVX2) return &gemv_ukernels[1];
    return &gemv_ukernels[2];
}
