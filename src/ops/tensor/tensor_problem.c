/* Building and simplifying the tensor-operation problems. */
#include "ops/tensor/tensor_problem.h"

const char *pdnn_elt_kind_name(pdnn_elt_kind k)
{
    switch (k) {
    case PDNN_ELT_SET: return "SET";
    case PDNN_ELT_SCALE: return "SCALE";
    case PDNN_ELT_BLEND: return "BLEND";
    case PDNN_ELT_ADD: return "ADD";
    case PDNN_ELT_MUL: return "MUL";
    case PDNN_ELT_MIN: return "MIN";
    case PDNN_ELT_MAX: return "MAX";
    case PDNN_ELT_SQRT: return "SQRT";
    case PDNN_ELT_NOT: return "NOT";
    }
    return "?";
}

const char *pdnn_reduce_op_name(pdnnReduceTensorOp_t op)
{
    switch (op) {
    case PDNN_REDUCE_TENSOR_ADD: return "ADD";
    case PDNN_REDUCE_TENSOR_MUL: return "MUL";
    case PDNN_REDUCE_TENSOR_MIN: return "MIN";
    case PDNN_REDUCE_TENSOR_MAX: return "MAX";
    case PDNN_REDUCE_TENSOR_AMAX: return "AMAX";
    case PDNN_REDUCE_TENSOR_AVG: return "AVG";
    case PDNN_REDUCE_TENSOR_NORM1: return "NORM1";
    case PDNN_REDUCE_TENSOR_NORM2: return "NORM2";
    case PDNN_REDUCE_TENSOR_MUL_NO_ZEROS: return "MUL_NO_ZEROS";
    }
    return "?";
}

/* Stride of an operand along dim i of C: 0 where it broadcasts (or is unused). */
static int64_t operand_stride(const struct pdnnTensorStruct *t, int i, int64_t cdim)
{
    if (!t || (t->dim[i] == 1 && cdim != 1)) return 0;
    return t->stride[i];
}

void pdnn_elt_problem_init(pdnn_elt_problem *p, pdnn_elt_kind kind, bool nan_prop,
                           const struct pdnnTensorStruct *c,
                           const struct pdnnTensorStruct *a,
                           const struct pdnnTensorStruct *b)
{
    p->kind = kind;
    p->nan_prop = nan_prop;
    p->dtype = c->dtype;
    p->numel = pdnn_tensor_numel(c);
    int n = 0;
    for (int i = 0; i < c->nbDims; i++) {
        if (c->dim[i] == 1) continue; /* index 0 only: contributes nothing */
        p->dim[n] = c->dim[i];
        p->cs[n] = c->stride[i];
        p->as[n] = operand_stride(a, i, c->dim[i]);
        p->bs[n] = operand_stride(b, i, c->dim[i]);
        n++;
    }
    /* Order by C's stride, largest (outermost) first; C's strides are distinct on dims
     * of size > 1 since outputs never overlap. Elements are independent, so any order
     * computes the same values. */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && p->cs[j] > p->cs[j - 1]; j--) {
            int64_t t;
#define SWAP(x) (t = x[j], x[j] = x[j - 1], x[j - 1] = t)
            SWAP(p->dim), SWAP(p->cs), SWAP(p->as), SWAP(p->bs);
#undef SWAP
        }
    /* Merge dim i into i+1 where every operand walks them as one run. */
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0) {
            int k = m - 1;
            int64_t d = p->dim[i];
            if (p->cs[k] == p->cs[i] * d && p->as[k] == p->as[i] * d &&
                p->bs[k] == p->bs[i] * d) {
                p->dim[k] *= d;
                p->cs[k] = p->cs[i], p->as[k] = p->as[i], p->bs[k] = p->bs[i];
                continue;
            }
        }
        p->dim[m] = p->dim[i], p->cs[m] = p->cs[i], p->as[m] = p->as[i], p->bs[m] = p->bs[i];
        m++;
    }
    if (m == 0) { /* a single element */
        p->dim[0] = 1, p->cs[0] = 1, p->as[0] = 1, p->bs[0] = 1;
        m = 1;
    }
    p->nd = m;
}

void pdnn_reduce_problem_init(pdnn_reduce_problem *p, pdnnReduceTensorOp_t op, bool nan_prop,
                              bool want_idx, pdnnIndicesType_t idx_type,
                              const struct pdnnTensorStruct *a,
                              const struct pdnnTensorStruct *c)
{
    p->op = op;
    p->nan_prop = nan_prop;
    p->want_idx = want_idx;
    p->idx_type = idx_type;
    p->dtype = a->dtype;
    p->nout = pdnn_tensor_numel(c);
    p->nred = pdnn_tensor_numel(a) / p->nout;
    int m = 0;
    for (int i = 0; i < a->nbDims; i++) {
        if (a->dim[i] == 1) continue;
        bool red = c->dim[i] == 1;
        int64_t d = a->dim[i], as = a->stride[i], cs = red ? 0 : c->stride[i];
        if (m > 0 && p->red[m - 1] == red && p->as[m - 1] == as * d &&
            p->cs[m - 1] == cs * d) {
            p->dim[m - 1] *= d;
            p->as[m - 1] = as, p->cs[m - 1] = cs;
            continue;
        }
        p->dim[m] = d, p->as[m] = as, p->cs[m] = cs, p->red[m] = red;
        m++;
    }
    p->nd = m; /* may be 0: a single element copied through the op */
}
