/* Run-time choice of the depthwise micro-kernels (dwconv_ukernels.h). */
#include "cpu/isa.h"
#include "cpu/ukernels/dwconv/dwconv_ukernels.h"

#define TABLE(S, isa)                                                                      \
    {pdnn_##S##_dwconv_row__##isa, pdnn_##S##_dwconv_chan__##isa,                          \
     pdnn_##S##_dwconv_dot16__##isa, pdnn_##S##_dwconv_dot16n__##isa,                      \
     pdnn_##S##_dwconv_mac__##isa, pdnn_##S##_dwconv_macn__##isa,                          \
     pdnn_##S##_dwconv_axpy__##isa, pdnn_##S##_dwconv_flat__##isa}

static const pdnn_f32_dwconv_ukernels f32_tab[] = {TABLE(f32, scalar), TABLE(f32, avx2),
                                                   TABLE(f32, avx512)};
static const pdnn_f64_dwconv_ukernels f64_tab[] = {TABLE(f64, scalar), TABLE(f64, avx2),
                                                   TABLE(f64, avx512)};

const pdnn_f32_dwconv_ukernels *pdnn_f32_dwconv_select(void)
{
    return &f32_tab[pdnn_cpu_isa()];
}

const pdnn_f64_dwconv_ukernels *pdnn_f64_dwconv_select(void)
{
    return &f64_tab[pdnn_cpu_isa()];
}
