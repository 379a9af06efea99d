/* Micro-kernels of the 1x1 convolutions' ldb path beside the GEMM ones (internal). */
#ifndef PDNN_UKERNELS_CONV1X1_H
#define PDNN_UKERNELS_CONV1X1_H

#include "cpu/ukernels/gemm/gemm_ldb_ukernels.h"

/* The ldb kernel (contract of gemm_ldb_ukernels.h) on an 8 x 32 tile, AVX-512F. */
PDNN_F32_GEMM_LDB_UKERNEL(pdnn_f32_gemm_ldb_ukernel_8x32__avx512);

#endif
