/* Problems of the tensor operations (internal): the elementwise family (SetTensor,
 * ScaleTensor, AddTensor, OpTensor, TransformTensor) and ReduceTensor. Plain data built
 * by tensor_api.c / reduce_api.c from validated descriptors, read by the implementations. */
#ifndef PDNN_TENSOR_PROBLEM_H
#define PDNN_TENSOR_PROBLEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/desc.h"

/* What one output element of the elementwise family becomes (v is then blended as
 * c = v + beta * c, except SET and SCALE which never blend). */
typedef enum {
    PDNN_ELT_SET = 0,   /* c = alpha1 */
    PDNN_ELT_SCALE,     /* c = alpha1 * c */
    PDNN_ELT_BLEND,     /* v = alpha1 * a            (AddTensor, TransformTensor) */
    PDNN_ELT_ADD,       /* v = alpha1 * a + alpha2 * b   (OpTensor from here on) */
    PDNN_ELT_MUL,       /* v = (alpha1 * a) * (alpha2 * b) */
    PDNN_ELT_MIN,       /* v = min(alpha1 * a, alpha2 * b) */
    PDNN_ELT_MAX,       /* v = max(alpha1 * a, alpha2 * b) */
    PDNN_ELT_SQRT,      /* v = sqrt(alpha1 * a) */
    PDNN_ELT_NOT        /* v = 1 - alpha1 * a */
} pdnn_elt_kind;

/* An elementwise problem over C's index space. Strides are in elements; a stride of 0
 * broadcasts an operand along that dimension. The dims are simplified (size-1 dims
 * dropped, ordered by C's stride, contiguous runs merged) so nd >= 1 always and the
 * last dimension is the inner loop. */
typedef struct {
    pdnn_elt_kind kind;
    bool nan_prop;          /* MIN/MAX: a NaN operand gives NaN */
    pdnnDataType_t dtype;   /* of A, B and C (FLOAT or DOUBLE) */
    int nd;
    int64_t dim[PDNN_DIM_MAX];
    int64_t cs[PDNN_DIM_MAX];
    int64_t as[PDNN_DIM_MAX];
    int64_t bs[PDNN_DIM_MAX];
    int64_t numel;          /* elements of C, > 0 */
} pdnn_elt_problem;

typedef struct {
    const void *a;          /* NULL for SET/SCALE */
    const void *b;          /* NULL unless a binary OpTensor */
    void *c;
    double alpha1, alpha2, beta;
} pdnn_elt_args;

/* Builds an elementwise problem on C (dims of a/b equal C's or are 1; a and b may be
 * NULL when unused) and simplifies it. */
void pdnn_elt_problem_init(pdnn_elt_problem *p, pdnn_elt_kind kind, bool nan_prop,
                           const struct pdnnTensorStruct *c,
                           const struct pdnnTensorStruct *a,
                           const struct pdnnTensorStruct *b);

/* A reduction of A into C: every dimension where C has size 1 and A does not is
 * reduced. Dimensions keep A's order (flattened indices count row-major over the
 * reduced dims); size-1 dims are dropped and adjacent dims of the same kind that are
 * contiguous in A (and in C when kept) are merged, which preserves both the output
 * order and the flattened index. */
typedef struct {
    pdnnReduceTensorOp_t op;
    bool nan_prop;
    bool want_idx;
    pdnnIndicesType_t idx_type;
    pdnnDataType_t dtype;   /* of A and C */
    int nd;
    int64_t dim[PDNN_DIM_MAX];
    int64_t as[PDNN_DIM_MAX];
    int64_t cs[PDNN_DIM_MAX]; /* 0 on reduced dims */
    bool red[PDNN_DIM_MAX];
    int64_t nout;           /* elements of C, > 0 */
    int64_t nred;           /* elements reduced into each, > 0 */
} pdnn_reduce_problem;

typedef struct {
    const void *a;
    void *c;
    void *indices;          /* NULL unless want_idx; packed in C's row-major order */
    double alpha, beta;
} pdnn_reduce_args;

/* Builds a reduction problem (A has no zero-sized dim; C's dims equal A's or are 1). */
void pdnn_reduce_problem_init(pdnn_reduce_problem *p, pdnnReduceTensorOp_t op, bool nan_prop,
                              bool want_idx, pdnnIndicesType_t idx_type,
                              const struct pdnnTensorStruct *a,
                              const struct pdnnTensorStruct *c);

/* Name of an op for messages and logs ("ADD", "AMAX", ...). */
const char *pdnn_elt_kind_name(pdnn_elt_kind k);
const char *pdnn_reduce_op_name(pdnnReduceTensorOp_t op);

#endif
