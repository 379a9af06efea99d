/* Public entry points of the tensor reduction: pdnnGetReductionIndicesSize,
 * pdnnGetReductionWorkspaceSize, pdnnReduceTensor. validate -> problem -> dispatch -> run. */
#include <stdint.h>
#include <stdio.h>

#include "core/alias.h"
#include "core/desc.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/log.h"
#include "ops/tensor/tensor_api_util.h"
#include "ops/tensor/tensor_impls.h"

static size_t index_size(pdnnIndicesType_t t)
{
    switch (t) {
    case PDNN_32BIT_INDICES: return 4;
    case PDNN_64BIT_INDICES: return 8;
    case PDNN_16BIT_INDICES: return 2;
    case PDNN_8BIT_INDICES: return 1;
    }
    return 4;
}

static bool op_has_indices(pdnnReduceTensorOp_t op)
{
    return op == PDNN_REDUCE_TENSOR_MIN || op == PDNN_REDUCE_TENSOR_MAX ||
           op == PDNN_REDUCE_TENSOR_AMAX;
}

/* Everything the three entry points validate alike; *idx_bytes gets the indices size. */
static pdnnStatus_t reduce_validate(pdnnHandle_t handle, const struct pdnnReduceTensorStruct *rd,
                                    const struct pdnnTensorStruct *aDesc,
                                    const struct pdnnTensorStruct *cDesc, const char *func,
                                    size_t *idx_bytes)
{
    PDNN_TRY(pdnn_check_handle(handle, func));
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_REDUCE_TENSOR, rd, func, "reduceTensorDesc"));
    if (!rd->set)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "reduceTensorDesc was created but never set "
                          "(call pdnnSetReduceTensorDescriptor)");
    PDNN_TRY(pdnn_check_tensor(aDesc, func, "aDesc"));
    PDNN_TRY(pdnn_check_output_tensor(cDesc, func, "cDesc"));
    PDNN_TRY(pdnn_check_compute_dtype(aDesc->dtype, func, "aDesc"));
    PDNN_TRY(pdnn_check_compute_dtype(cDesc->dtype, func, "cDesc"));
    PDNN_TRY(pdnn_check_same_dtype(aDesc, "aDesc", cDesc, "cDesc", func));
    PDNN_TRY(pdnn_tensor_check_comp_type(rd->comp_type, "reduceTensorCompType", cDesc, func));
    PDNN_TRY(pdnn_tensor_check_broadcast(cDesc, "cDesc", aDesc, "aDesc", func));
    *idx_bytes = 0;
    if (rd->indices != PDNN_REDUCE_TENSOR_FLATTENED_INDICES) return PDNN_STATUS_SUCCESS;
    if (!op_has_indices(rd->op))
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "reduceTensorDesc asks for FLATTENED_INDICES with op %s; indices "
                          "exist for MIN, MAX and AMAX only",
                          pdnn_reduce_op_name(rd->op));
    int64_t nout = pdnn_tensor_numel(cDesc), na = pdnn_tensor_numel(aDesc);
    if (na > 0) {
        size_t isz = index_size(rd->indices_type);
        int64_t nred = na / nout;
        if (isz < 8 && (uint64_t)(nred - 1) >> (8 * isz) != 0)
            return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, func,
                              "each output reduces %lld elements; %zu-bit indices cannot "
                              "number them", (long long)nred, 8 * isz);
    }
    *idx_bytes = (size_t)nout * index_size(rd->indices_type);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetReductionIndicesSize(pdnnHandle_t handle,
                                         const pdnnReduceTensorDescriptor_t reduceTensorDesc,
                                         const pdnnTensorDescriptor_t aDesc,
                                         const pdnnTensorDescriptor_t cDesc, size_t *sizeInBytes)
{
    size_t bytes;
    PDNN_TRY(reduce_validate(handle, reduceTensorDesc, aDesc, cDesc, __func__, &bytes));
    PDNN_CHECK_NULL(sizeInBytes);
    *sizeInBytes = bytes;
    return PDNN_STATUS_SUCCESS;
}

static void reduce_problem(pdnn_reduce_problem *p, const struct pdnnReduceTensorStruct *rd,
                           const struct pdnnTensorStruct *aDesc,
                           const struct pdnnTensorStruct *cDesc)
{
    pdnn_reduce_problem_init(p, rd->op, rd->nan_opt == PDNN_PROPAGATE_NAN,
                             rd->indices == PDNN_REDUCE_TENSOR_FLATTENED_INDICES,
                             rd->indices_type, aDesc, cDesc);
}

pdnnStatus_t pdnnGetReductionWorkspaceSize(pdnnHandle_t handle,
                                           const pdnnReduceTensorDescriptor_t reduceTensorDesc,
                                           const pdnnTensorDescriptor_t aDesc,
                                           const pdnnTensorDescriptor_t cDesc,
                                           size_t *sizeInBytes)
{
    size_t ib;
    PDNN_TRY(reduce_validate(handle, reduceTensorDesc, aDesc, cDesc, __func__, &ib));
    PDNN_CHECK_NULL(sizeInBytes);
    size_t ws = 0;
    if (pdnn_tensor_numel(aDesc) > 0) {
        pdnn_reduce_problem p;
        const pdnn_impl *impl = NULL;
        reduce_problem(&p, reduceTensorDesc, aDesc, cDesc);
        PDNN_TRY(pdnn_dispatch(pdnn_reduce_impls, -1, &p, SIZE_MAX, __func__, &impl));
        ws = pdnn_impl_workspace(impl, &p);
    }
    *sizeInBytes = ws;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnReduceTensor(pdnnHandle_t handle,
                              const pdnnReduceTensorDescriptor_t reduceTensorDesc, void *indices,
                              size_t indicesSizeInBytes, void *workspace,
                              size_t workspaceSizeInBytes, const void *alpha,
                              const pdnnTensorDescriptor_t aDesc, const void *A,
                              const void *beta, const pdnnTensorDescriptor_t cDesc, void *C)
{
    size_t need;
    PDNN_TRY(reduce_validate(handle, reduceTensorDesc, aDesc, cDesc, __func__, &need));
    PDNN_CHECK_NULL(alpha);
    PDNN_CHECK_NULL(beta);
    PDNN_TRY(pdnn_check_data(aDesc, A, __func__, "A"));
    PDNN_TRY(pdnn_check_data(cDesc, C, __func__, "C"));
    PDNN_TRY(pdnn_check_alias(aDesc, A, "A", cDesc, C, "C", __func__));
    if (workspace == NULL && workspaceSizeInBytes > 0) /* as the convolutions */
        return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, __func__,
                          "workspace is NULL but workspaceSizeInBytes is %zu",
                          workspaceSizeInBytes);
    bool want_idx = reduceTensorDesc->indices == PDNN_REDUCE_TENSOR_FLATTENED_INDICES;
    if (want_idx && need > 0) {
        if (indices == NULL)
            return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, __func__,
                              "argument 'indices' is NULL but reduceTensorDesc asks for "
                              "FLATTENED_INDICES (%zu bytes)", need);
        if (indicesSizeInBytes < need)
            return pdnn_error(PDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, __func__,
                              "indicesSizeInBytes is %zu but %zu bytes are needed "
                              "(pdnnGetReductionIndicesSize)", indicesSizeInBytes, need);
        if (indices == (void *)C || indices == A)
            return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                              "indices must not share memory with A or C");
    }
    pdnn_tensor_log lg = {{"A", aDesc}, {"C", cDesc}};
    if (pdnn_tensor_numel(aDesc) == 0) return pdnn_tensor_noop(__func__, lg);
    pdnn_reduce_problem p;
    reduce_problem(&p, reduceTensorDesc, aDesc, cDesc);
    const pdnn_impl *impl = NULL;
    PDNN_TRY(pdnn_dispatch(pdnn_reduce_impls, -1, &p, workspaceSizeInBytes, __func__, &impl));
    size_t ws = pdnn_impl_workspace(impl, &p);
    if (ws > 0 && workspace == NULL)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, __func__,
                          "argument 'workspace' is NULL but %s needs %zu bytes", impl->name, ws);
    pdnnDataType_t t = cDesc->dtype;
    pdnn_reduce_args x = {.a = A,
                          .c = C,
                          .indices = want_idx ? indices : NULL,
                          .alpha = pdnn_scalar(alpha, t),
                          .beta = pdnn_scalar(beta, t)};
    bool log = pdnn_log_on();
    double t0 = log ? pdnn_now_ms() : 0.0;
    pdnn_ctx ctx = {.nthreads = handle->nthreads, .ws = workspace, .ws_bytes = workspaceSizeInBytes};
    pdnnStatus_t st = impl->exec(&p, &x, &ctx);
    if (log) {
        char op[96];
        snprintf(op, sizeof op, "%s nan=%s indices=%s alpha %g beta %g",
                 pdnn_reduce_op_name(p.op), p.nan_prop ? "propagate" : "not_propagate",
                 p.want_idx ? "flattened" : "none", x.alpha, x.beta);
        pdnn_tensor_log_call(__func__, lg, op, impl->name, ws, pdnn_now_ms() - t0);
    }
    return st;
}
