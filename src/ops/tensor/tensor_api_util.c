/* Validation and logging helpers of the tensor operations. */
#include <stdio.h>

#include "core/error.h"
#include "core/log.h"
#include "ops/tensor/tensor_api_util.h"

pdnnStatus_t pdnn_tensor_check_broadcast(const struct pdnnTensorStruct *a, const char *aname,
                                         const struct pdnnTensorStruct *c, const char *cname,
                                         const char *func)
{
    bool ok = a->nbDims == c->nbDims;
    for (int i = 0; ok && i < a->nbDims; i++) ok = a->dim[i] == c->dim[i] || a->dim[i] == 1;
    if (!ok) {
        char sa[160], sc[160];
        pdnn_tensor_str(a, sa, sizeof sa);
        pdnn_tensor_str(c, sc, sizeof sc);
        return pdnn_error(PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, func,
                          "%s (%s) must have the rank of %s (%s) and each dimension equal "
                          "to its or 1", aname, sa, cname, sc);
    }
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnn_tensor_check_comp_type(pdnnDataType_t comp, const char *what,
                                         const struct pdnnTensorStruct *c, const char *func)
{
    if (comp != c->dtype)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "%s is %s but the tensors are %s; FLOAT tensors need FLOAT "
                          "compute and DOUBLE tensors DOUBLE", what, pdnn_dtype_name(comp),
                          pdnn_dtype_name(c->dtype));
    return PDNN_STATUS_SUCCESS;
}

void pdnn_tensor_log_call(const char *func, const pdnn_tensor_log_arg *lg, const char *op,
                          const char *impl, size_t ws, double ms)
{
    if (!pdnn_log_on()) return;
    char buf[640];
    size_t off = 0;
    buf[0] = '\0';
    for (int i = 0; i < 3 && off < sizeof buf; i++) {
        if (!lg[i].name || !lg[i].desc) continue;
        char s[160];
        pdnn_tensor_str(lg[i].desc, s, sizeof s);
        int r = snprintf(buf + off, sizeof buf - off, "%s %s; ", lg[i].name, s);
        if (r > 0) off += (size_t)r;
    }
    pdnn_log_call(func, "op %s; %simpl %s; ws %zu bytes; %.3f ms", op, buf, impl, ws, ms);
}

pdnnStatus_t pdnn_tensor_noop(const char *func, const pdnn_tensor_log_arg *lg)
{
    pdnn_tensor_log_call(func, lg, "none (zero elements)", "none", 0, 0.0);
    return PDNN_STATUS_SUCCESS;
}
