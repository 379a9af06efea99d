/* Validation and logging helpers shared by tensor_api.c and reduce_api.c (internal).
 * General enough for other ops' *_api.c; candidates for src/core. */
#ifndef PDNN_TENSOR_API_UTIL_H
#define PDNN_TENSOR_API_UTIL_H

#include "core/desc.h"

/* SHAPE_MISMATCH unless a has c's rank and each of a's dims equals c's or is 1. */
pdnnStatus_t pdnn_tensor_check_broadcast(const struct pdnnTensorStruct *a, const char *aname,
                                         const struct pdnnTensorStruct *c, const char *cname,
                                         const char *func);
/* BAD_PARAM unless a descriptor's compute type equals the tensors' data type (cuDNN:
 * FLOAT compute for FLOAT tensors, DOUBLE for DOUBLE). */
pdnnStatus_t pdnn_tensor_check_comp_type(pdnnDataType_t comp, const char *what,
                                         const struct pdnnTensorStruct *c, const char *func);

/* Up to three named tensors for the log line (a NULL desc is skipped). */
typedef struct {
    const char *name;
    const struct pdnnTensorStruct *desc;
} pdnn_tensor_log_arg;
typedef pdnn_tensor_log_arg pdnn_tensor_log[3];

/* Writes "<op> A <tensor> C <tensor> impl <name> ws <bytes> <ms> ms" when logging is on. */
void pdnn_tensor_log_call(const char *func, const pdnn_tensor_log_arg *lg, const char *op,
                          const char *impl, size_t ws, double ms);
/* Logs a zero-sized call and returns SUCCESS. */
pdnnStatus_t pdnn_tensor_noop(const char *func, const pdnn_tensor_log_arg *lg);

#endif
