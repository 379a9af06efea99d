/* Public entry points of the elementwise tensor operations: pdnnSetTensor,
 * pdnnScaleTensor, pdnnAddTensor, pdnnOpTensor, pdnnTransformTensor.
 * validate -> problem -> dispatch -> run. */
#include <stdio.h>

#include "core/alias.h"
#include "core/desc.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/log.h"
#include "ops/tensor/tensor_api_util.h"
#include "ops/tensor/tensor_impls.h"

/* Dispatches and runs an elementwise problem; logs the call when asked. */
static pdnnStatus_t elt_run(pdnnHandle_t h, const pdnn_elt_problem *p, const pdnn_elt_args *x,
                            const char *func, const pdnn_tensor_log_arg *lg)
{
    const pdnn_impl *impl = NULL;
    PDNN_TRY(pdnn_dispatch(pdnn_elt_impls, -1, p, 0, func, &impl));
    bool log = pdnn_log_on();
    double t0 = log ? pdnn_now_ms() : 0.0;
    pdnn_ctx ctx = {.nthreads = h->nthreads, .ws = NULL, .ws_bytes = 0};
    pdnnStatus_t st = impl->exec(p, x, &ctx);
    if (log) {
        char op[96];
        snprintf(op, sizeof op, "%s%s alpha1 %g alpha2 %g beta %g", pdnn_elt_kind_name(p->kind),
                 p->nan_prop ? " nan=propagate" : "", x->alpha1, x->alpha2, x->beta);
        pdnn_tensor_log_call(func, lg, op, impl->name, 0, pdnn_now_ms() - t0);
    }
    return st;
}

/* Validation shared by SetTensor and ScaleTensor: y is written in place. */
static pdnnStatus_t check_inplace_target(pdnnHandle_t handle, const struct pdnnTensorStruct *yDesc,
                                         const void *y, const void *value, const char *vname,
                                         const char *func)
{
    PDNN_TRY(pdnn_check_handle(handle, func));
    PDNN_TRY(pdnn_check_output_tensor(yDesc, func, "yDesc"));
    PDNN_TRY(pdnn_check_compute_dtype(yDesc->dtype, func, "yDesc"));
    if (value == NULL)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, func, "argument '%s' is NULL",
                          vname);
    return pdnn_check_data(yDesc, y, func, "y");
}

pdnnStatus_t pdnnSetTensor(pdnnHandle_t handle, const pdnnTensorDescriptor_t yDesc, void *y,
                           const void *valuePtr)
{
    PDNN_TRY(check_inplace_target(handle, yDesc, y, valuePtr, "valuePtr", __func__));
    pdnn_tensor_log lg = {{"y", yDesc}};
    if (pdnn_tensor_numel(yDesc) == 0) return pdnn_tensor_noop(__func__, lg);
    pdnn_elt_problem p;
    pdnn_elt_problem_init(&p, PDNN_ELT_SET, false, yDesc, NULL, NULL);
    pdnn_elt_args x = {.c = y, .alpha1 = pdnn_scalar(valuePtr, yDesc->dtype)};
    return elt_run(handle, &p, &x, __func__, lg);
}

pdnnStatus_t pdnnScaleTensor(pdnnHandle_t handle, const pdnnTensorDescriptor_t yDesc, void *y,
                             const void *alpha)
{
    PDNN_TRY(check_inplace_target(handle, yDesc, y, alpha, "alpha", __func__));
    pdnn_tensor_log lg = {{"y", yDesc}};
    if (pdnn_tensor_numel(yDesc) == 0) return pdnn_tensor_noop(__func__, lg);
    pdnn_elt_problem p;
    pdnn_elt_problem_init(&p, PDNN_ELT_SCALE, false, yDesc, NULL, NULL);
    pdnn_elt_args x = {.c = y, .alpha1 = pdnn_scalar(alpha, yDesc->dtype)};
    return elt_run(handle, &p, &x, __func__, lg);
}

pdnnStatus_t pdnnAddTensor(pdnnHandle_t handle, const void *alpha,
                           const pdnnTensorDescriptor_t aDesc, const void *A, const void *beta,
                           const pdnnTensorDescriptor_t cDesc, void *C)
{
    PDNN_TRY(pdnn_check_handle(handle, __func__));
    PDNN_TRY(pdnn_check_tensor(aDesc, __func__, "aDesc"));
    PDNN_TRY(pdnn_check_output_tensor(cDesc, __func__, "cDesc"));
    PDNN_TRY(pdnn_check_compute_dtype(aDesc->dtype, __func__, "aDesc"));
    PDNN_TRY(pdnn_check_compute_dtype(cDesc->dtype, __func__, "cDesc"));
    PDNN_TRY(pdnn_check_same_dtype(aDesc, "aDesc", cDesc, "cDesc", __func__));
    PDNN_TRY(pdnn_tensor_check_broadcast(aDesc, "aDesc", cDesc, "cDesc", __func__));
    PDNN_CHECK_NULL(alpha);
    PDNN_CHECK_NULL(beta);
    PDNN_TRY(pdnn_check_data(aDesc, A, __func__, "A"));
    PDNN_TRY(pdnn_check_data(cDesc, C, __func__, "C"));
    PDNN_TRY(pdnn_check_alias(aDesc, A, "A", cDesc, C, "C", __func__));
    pdnn_tensor_log lg = {{"A", aDesc}, {"C", cDesc}};
    if (pdnn_tensor_numel(cDesc) == 0) return pdnn_tensor_noop(__func__, lg);
    pdnn_elt_problem p;
    pdnn_elt_problem_init(&p, PDNN_ELT_BLEND, false, cDesc, aDesc, NULL);
    pdnn_elt_args x = {.a = A,
                       .c = C,
                       .alpha1 = pdnn_scalar(alpha, cDesc->dtype),
                       .beta = pdnn_scalar(beta, cDesc->dtype)};
    return elt_run(handle, &p, &x, __func__, lg);
}

static pdnn_elt_kind optensor_kind(pdnnOpTensorOp_t op)
{
    switch (op) {
    case PDNN_OP_TENSOR_ADD: return PDNN_ELT_ADD;
    case PDNN_OP_TENSOR_MUL: return PDNN_ELT_MUL;
    case PDNN_OP_TENSOR_MIN: return PDNN_ELT_MIN;
    case PDNN_OP_TENSOR_MAX: return PDNN_ELT_MAX;
    case PDNN_OP_TENSOR_SQRT: return PDNN_ELT_SQRT;
    case PDNN_OP_TENSOR_NOT: return PDNN_ELT_NOT;
    }
    return PDNN_ELT_ADD;
}

pdnnStatus_t pdnnOpTensor(pdnnHandle_t handle, const pdnnOpTensorDescriptor_t opTensorDesc,
                          const void *alpha1, const pdnnTensorDescriptor_t aDesc, const void *A,
                          const void *alpha2, const pdnnTensorDescriptor_t bDesc, const void *B,
                          const void *beta, const pdnnTensorDescriptor_t cDesc, void *C)
{
    PDNN_TRY(pdnn_check_handle(handle, __func__));
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_OP_TENSOR, opTensorDesc, __func__, "opTensorDesc"));
    if (!opTensorDesc->set)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "opTensorDesc was created but never set "
                          "(call pdnnSetOpTensorDescriptor)");
    bool binary = opTensorDesc->op != PDNN_OP_TENSOR_SQRT && opTensorDesc->op != PDNN_OP_TENSOR_NOT;
    PDNN_TRY(pdnn_check_tensor(aDesc, __func__, "aDesc"));
    if (binary) PDNN_TRY(pdnn_check_tensor(bDesc, __func__, "bDesc"));
    PDNN_TRY(pdnn_check_output_tensor(cDesc, __func__, "cDesc"));
    PDNN_TRY(pdnn_check_compute_dtype(aDesc->dtype, __func__, "aDesc"));
    if (binary) PDNN_TRY(pdnn_check_compute_dtype(bDesc->dtype, __func__, "bDesc"));
    PDNN_TRY(pdnn_check_compute_dtype(cDesc->dtype, __func__, "cDesc"));
    PDNN_TRY(pdnn_check_same_dtype(aDesc, "aDesc", cDesc, "cDesc", __func__));
    if (binary) PDNN_TRY(pdnn_check_same_dtype(bDesc, "bDesc", cDesc, "cDesc", __func__));
    PDNN_TRY(pdnn_tensor_check_comp_type(opTensorDesc->comp_type, "opTensorCompType", cDesc, __func__));
    PDNN_TRY(pdnn_check_same_dims(aDesc, "aDesc", cDesc, "cDesc", __func__));
    if (binary) PDNN_TRY(pdnn_tensor_check_broadcast(bDesc, "bDesc", cDesc, "cDesc", __func__));
    PDNN_CHECK_NULL(alpha1);
    if (binary) PDNN_CHECK_NULL(alpha2);
    PDNN_CHECK_NULL(beta);
    PDNN_TRY(pdnn_check_data(aDesc, A, __func__, "A"));
    if (binary) PDNN_TRY(pdnn_check_data(bDesc, B, __func__, "B"));
    PDNN_TRY(pdnn_check_data(cDesc, C, __func__, "C"));
    PDNN_TRY(pdnn_check_alias(aDesc, A, "A", cDesc, C, "C", __func__));
    if (binary) PDNN_TRY(pdnn_check_alias(bDesc, B, "B", cDesc, C, "C", __func__));
    pdnn_tensor_log lg = {{"A", aDesc}, {"B", binary ? bDesc : NULL}, {"C", cDesc}};
    if (pdnn_tensor_numel(cDesc) == 0) return pdnn_tensor_noop(__func__, lg);
    pdnn_elt_problem p;
    pdnn_elt_problem_init(&p, optensor_kind(opTensorDesc->op),
                          opTensorDesc->nan_opt == PDNN_PROPAGATE_NAN, cDesc, aDesc,
                          binary ? bDesc : NULL);
    pdnnDataType_t t = cDesc->dtype;
    pdnn_elt_args x = {.a = A,
                       .b = binary ? B : NULL,
                       .c = C,
                       .alpha1 = pdnn_scalar(alpha1, t),
                       .alpha2 = binary ? pdnn_scalar(alpha2, t) : 0.0,
                       .beta = pdnn_scalar(beta, t)};
    return elt_run(handle, &p, &x, __func__, lg);
}

pdnnStatus_t pdnnTransformTensor(pdnnHandle_t handle, const void *alpha,
                                 const pdnnTensorDescriptor_t xDesc, const void *x,
                                 const void *beta, const pdnnTensorDescriptor_t yDesc, void *y)
{
    PDNN_TRY(pdnn_check_handle(handle, __func__));
    PDNN_TRY(pdnn_check_tensor(xDesc, __func__, "xDesc"));
    PDNN_TRY(pdnn_check_output_tensor(yDesc, __func__, "yDesc"));
    PDNN_TRY(pdnn_check_compute_dtype(xDesc->dtype, __func__, "xDesc"));
    PDNN_TRY(pdnn_check_compute_dtype(yDesc->dtype, __func__, "yDesc"));
    PDNN_TRY(pdnn_check_same_dtype(xDesc, "xDesc", yDesc, "yDesc", __func__));
    PDNN_TRY(pdnn_check_same_dims(xDesc, "xDesc", yDesc, "yDesc", __func__));
    PDNN_CHECK_NULL(alpha);
    PDNN_CHECK_NULL(beta);
    PDNN_TRY(pdnn_check_data(xDesc, x, __func__, "x"));
    PDNN_TRY(pdnn_check_data(yDesc, y, __func__, "y"));
    PDNN_TRY(pdnn_check_alias(xDesc, x, "x", yDesc, y, "y", __func__));
    pdnn_tensor_log lg = {{"x", xDesc}, {"y", yDesc}};
    if (pdnn_tensor_numel(yDesc) == 0) return pdnn_tensor_noop(__func__, lg);
    pdnn_elt_problem p;
    pdnn_elt_problem_init(&p, PDNN_ELT_BLEND, false, yDesc, xDesc, NULL);
    pdnn_elt_args a = {.a = x,
                       .c = y,
                       .alpha1 = pdnn_scalar(alpha, yDesc->dtype),
                       .beta = pdnn_scalar(beta, yDesc->dtype)};
    return elt_run(handle, &p, &a, __func__, lg);
}
