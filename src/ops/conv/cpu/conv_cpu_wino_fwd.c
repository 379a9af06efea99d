/* Forward convolution by Winograd F(4x4, 3x3) and F(4x4, 5x5) (conv_cpu_wino.h):
 *  "cpu:winograd_f4x3" (PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD): the tiles go in blocks
 *      whose transformed input and GEMM results (36 (C + K) elements per tile) fit the
 *      L2 cache: transform a block, 36 GEMMs, inverse transform, next block;
 *  "cpu:winograd_nonfused_f4x3" (PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED): the same
 *      stages over blocks of ~16 MiB of transformed data (larger GEMMs, fewer passes).
 *  "cpu:winograd_f4x5", "cpu:winograd_nonfused_f4x5" (the same algorithms): the same
 *      for 5x5 filters (alpha = 8: 64 (C + K) elements per tile, 64 GEMMs).
 * All: 3x3 (f4x3) or 5x5 (f4x5) filters, stride 1, dilation 1, 2-d, any padding
 * (asymmetric too), groups, convolution and cross-correlation, any x / y / w strides
 * (NCHW, NHWC, gaps), FLOAT and DOUBLE. Error bound: PDNN_WINO_TOL_F32 / _F64 (3x3),
 * PDNN_WINO5_TOL_F32 / _F64 (5x5) (relative, uniform(-1, 1) data).
 *
 * Workspace: the transformed filter (alpha^2 K C/g elements, GEMM panels) and one block of
 * transformed input and of GEMM results. */
#include "ops/conv/cpu/conv_cpu_wino.h"

static size_t fused_workspace(const void *prob) { return pdnn_wino_conv_workspace(prob, true); }

static size_t nonfused_workspace(const void *prob)
{
    return pdnn_wino_conv_workspace(prob, false);
}

static bool fwd_supports_r(const void *prob, int r, const char **why)
{
    if (!pdnn_wino_supports(prob, PDNN_CONV_FWD, r, why)) return false;
    if (nonfused_workspace(prob) == SIZE_MAX || fused_workspace(prob) == SIZE_MAX) {
        *why = "workspace size overflows";
        return false;
    }
    return true;
}

static bool fwd_supports(const void *prob, const char **why)
{
    return fwd_supports_r(prob, 3, why);
}

static bool fwd5_supports(const void *prob, const char **why)
{
    return fwd_supports_r(prob, 5, why);
}

static pdnnStatus_t fused_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    return pdnn_wino_conv_exec(prob, args, ctx, true);
}

static pdnnStatus_t nonfused_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    return pdnn_wino_conv_exec(prob, args, ctx, false);
}

const pdnn_impl pdnn_conv_fwd_cpu_wino = {
    "cpu:winograd_f4x3", PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, fwd_supports, fused_workspace, fused_exec,
};

const pdnn_impl pdnn_conv_fwd_cpu_wino_nonfused = {
    "cpu:winograd_nonfused_f4x3", PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, fwd_supports, nonfused_workspace, nonfused_exec,
};

const pdnn_impl pdnn_conv_fwd_cpu_wino5 = {
    "cpu:winograd_f4x5", PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, fwd5_supports, fused_workspace, fused_exec,
};

const pdnn_impl pdnn_conv_fwd_cpu_wino5_nonfused = {
    "cpu:winograd_nonfused_f4x5", PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, fwd5_supports, nonfused_workspace, nonfused_exec,
};
