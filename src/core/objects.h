/* Live-object registry: every handle and descriptor is registered on creation and
 * removed on destruction, so that a NULL, destroyed or wrong-kind pointer passed to
 * the API is detected without dereferencing it. */
#ifndef PDNN_CORE_OBJECTS_H
#define PDNN_CORE_OBJECTS_H

#include <stdbool.h>
#include "pdnn/core.h"

typedef enum {
    PDNN_OBJ_HANDLE = 1,
    PDNN_OBJ_TENSOR,
    PDNN_OBJ_FILTER,
    PDNN_OBJ_CONVOLUTION,
    PDNN_OBJ_POOLING,
    PDNN_OBJ_ACTIVATION,
    PDNN_OBJ_OP_TENSOR,
    PDNN_OBJ_REDUCE_TENSOR,
    PDNN_OBJ_LOSS,
    PDNN_OBJ_OPTIMIZER,
    PDNN_OBJ_SCHEDULE,
    PDNN_OBJ_KIND_COUNT
} pdnn_obj_kind;

const char *pdnn_obj_kind_name(pdnn_obj_kind kind);

/* calloc(1, size) and register; NULL on failure. */
void *pdnn_obj_new(pdnn_obj_kind kind, size_t size);
/* Unregister and free; false if p was not a live object of this kind. */
bool pdnn_obj_free(pdnn_obj_kind kind, void *p);
/* True when p is a live object of this kind. */
bool pdnn_obj_is(pdnn_obj_kind kind, const void *p);

/* Validates p as a live object of kind: BAD_PARAM_NULL_POINTER for NULL (or
 * NOT_INITIALIZED for a handle), BAD_PARAM when it is not live or of another kind.
 * argname is used in the message. */
pdnnStatus_t pdnn_obj_check(pdnn_obj_kind kind, const void *p, const char *func,
                            const char *argname);

#endif
