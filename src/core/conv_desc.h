/* Convolution descriptor helpers shared by the descriptor queries and conv_api.c
 * (internal). */
#ifndef PDNN_CORE_CONV_DESC_H
#define PDNN_CORE_CONV_DESC_H

#include <stdint.h>

#include "core/desc.h"

/* Live and set convolution descriptor; argname appears in the message. */
pdnnStatus_t pdnn_check_convolution(const struct pdnnConvolutionStruct *cd, const char *func,
                                    const char *argname);

/* Output dims of the forward convolution of x by w under cd: out[0] = N, out[1] = K,
 * out[2..] = 1 + (in + padBegin + padEnd - ((k - 1) * dilation + 1)) / stride
 * (x->nbDims entries). Descriptors must be live and set (checked by the caller).
 * BAD_PARAM_SHAPE_MISMATCH when the ranks disagree (x and w must have nbSpatial + 2
 * dims) or x's channels are not w's times the group count; BAD_PARAM when K is not a
 * multiple of the group count or a dilated filter is larger than its padded input.
 * xname/wname appear in the messages. */
pdnnStatus_t pdnn_conv_output_dims(const struct pdnnConvolutionStruct *cd,
                                   const struct pdnnTensorStruct *x, const char *xname,
                                   const struct pdnnFilterStruct *w, const char *wname,
                                   int64_t *out, const char *func);

#endif
