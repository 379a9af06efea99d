/* Pooling descriptor helpers shared by the descriptor queries and pool_api.c
 * (internal). */
#ifndef PDNN_CORE_POOL_DESC_H
#define PDNN_CORE_POOL_DESC_H

#include <stdint.h>

#include "core/desc.h"

/* Live and set pooling descriptor; argname appears in the message. */
pdnnStatus_t pdnn_check_pooling(const struct pdnnPoolingStruct *p, const char *func,
                                const char *argname);

/* Output dims of pooling x with p: out[0] = N, out[1] = C, out[2..] the spatial sizes
 * (x->nbDims entries). SHAPE_MISMATCH when x's rank is not nbSpatial + 2; BAD_PARAM
 * when a dilated window is larger than its padded input. A zero-sized spatial input
 * gives a zero-sized output dim. */
pdnnStatus_t pdnn_pool_output_dims(const struct pdnnPoolingStruct *p,
                                   const struct pdnnTensorStruct *x, int64_t *out,
                                   const char *func);

#endif
