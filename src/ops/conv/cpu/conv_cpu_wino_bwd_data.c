/* Backward data by Winograd F(4x4, 3x3) and F(4x4, 5x5) (conv_cpu_wino.h): dx is the
 * forward convolution of dy with the filter rotated by 180 degrees, K and C swapped and
 * padding r - 1 - pad (r x r filter), run by the forward engine (the mapping is in pdnn_wino_geom_init; the filter
 * is read through strides, nothing is copied):
 *  "cpu:winograd_f4x3" (PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD): cache-sized blocks;
 *  "cpu:winograd_nonfused_f4x3" (PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED):
 *      blocks of ~16 MiB.
 * Supports, workspace and error bound as the forward entries (conv_cpu_wino_fwd.c). */
#include "ops/conv/cpu/conv_cpu_wino.h"

static size_t fused_workspace(const void *prob) { return pdnn_wino_conv_workspace(prob, true); }

static size_t nonfused_workspace(const void *prob)
{
    return pdnn_wino_conv_workspace(prob, false);
}

static bool bwdd_supports_r(const void *prob, int r, const char **why)
{
    if (!pdnn_wino_supports(prob, PDNN_CONV_BWD_DATA, r, why)) return false;
    if (nonfused_workspace(prob) == SIZE_MAX || fused_workspace(prob) == SIZE_MAX) {
        *why = "workspace size overflows";
        return false;
    }
    return true;
}

static bool bwdd_supports(const void *prob, const char **why)
{
    return bwdd_supports_r(prob, 3, why);
}

static bool bwdd5_supports(const void *prob, const char **why)
{
    return bwdd_supports_r(prob, 5, why);
}

static pdnnStatus_t fused_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    return pdnn_wino_conv_exec(prob, args, ctx, true);
}

static pdnnStatus_t nonfused_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    return pdnn_wino_conv_exec(prob, args, ctx, false);
}

const pdnn_impl pdnn_conv_bwd_data_cpu_wino = {
    "cpu:winograd_f4x3", PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, bwdd_supports, fused_workspace, fused_exec,
};

const pdnn_impl pdnn_conv_bwd_data_cpu_wino_nonfused = {
    "cpu:winograd_nonfused_f4x3", PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED,
    PDNN_ISA_SCALAR, PDNN_IMPL_DETERMINISTIC, bwdd_supports, nonfused_workspace, nonfused_exec,
};

/* The same for 5x5 filters: "cpu:winograd_f4x5", "cpu:winograd_nonfused_f4x5". */
const pdnn_impl pdnn_conv_bwd_data_cpu_wino5 = {
    "cpu:winograd_f4x5", PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, bwdd5_supports, fused_workspace, fused_exec,
};

const pdnn_impl pdnn_conv_bwd_data_cpu_wino5_nonfused = {
    "cpu:winograd_nonfused_f4x5", PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED,
    PDNN_ISA_SCALAR, PDNN_IMPL_DETERMINISTIC, bwdd5_supports, nonfused_workspace, nonfused_exec,
};
