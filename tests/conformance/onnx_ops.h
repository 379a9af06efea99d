/* Mapping one ONNX node onto pdnn calls (see onnx_ops.c for the table of what maps). */
#ifndef PDNN_ONNX_OPS_H
#define PDNN_ONNX_OPS_H

#include <stdbool.h>

#include "onnx_load.h"
#include "pdnn.h"

typedef enum {
    OX_OK = 0,       /* outputs computed */
    OX_UNMAPPED,     /* the node cannot be expressed with pdnn; why says why */
    OX_FAIL,         /* a pdnn call failed or disagreed with ONNX; why says which */
    OX_VARIANT_SKIP, /* this variant (an algorithm) does not support the problem */
    OX_VARIANT_END   /* the node has no variant with this index */
} ox_result;

typedef struct {
    pdnnHandle_t handle;
    int64_t opset;          /* the model's default-domain opset */
    int variant;            /* algorithm index for ops that have several (convolution) */
    char variant_name[64];  /* out: the variant used, "" for ops without variants */
    bool inexact;           /* out: the variant is a transform algorithm (Winograd, FFT):
                             * not exact where the direct sum is, compared with an absolute
                             * tolerance scaled to the outputs (ox_inexact_atol) */
} ox_ctx;

/* The absolute tolerance for a transform algorithm's outputs whose largest magnitude is
 * maxabs: its rounding error scales with the data, not with each output (an output that
 * is exactly 0 comes out near 1e-7 of the data's scale), at least atol. */
double ox_inexact_atol(double atol, double maxabs);

/* Runs node on its inputs (in[i] NULL for an absent optional input) and allocates
 * its n_out outputs into out (NaN-poisoned before pdnn writes them). On any result
 * other than OX_OK the outputs are left freed. */
ox_result ox_run_node(ox_ctx *c, const Onnx__NodeProto *node, ox_tensor *const *in,
                      int n_in, ox_tensor *out, int n_out, char *why, size_t why_len);

/* Comparison tolerances for an op's outputs: |got - want| <= atol + rtol * |want|.
 * 0 and 0 where the computation is exact (max, min, add, ...). */
void ox_tolerance(const char *op_type, int dtype, double *rtol, double *atol);

/* True for the op types this suite maps (others are reported UNMAPPED). */
int ox_op_known(const char *op_type);
/* True for the mapped ops that make no pdnn call (Constant, Identity, Squeeze, ...). */
int ox_op_is_plumbing(const char *op_type);

#endif
