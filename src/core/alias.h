/* Aliasing of an op's input and output buffers (internal). */
#ifndef PDNN_CORE_ALIAS_H
#define PDNN_CORE_ALIAS_H

#include "core/desc.h"

/* BAD_PARAM when the memory spanned by input view (in, pin) overlaps the memory of output
 * view (out, pout), unless both are the very same view: same address, data type, dims and
 * strides (the in-place case cuDNN allows for elementwise and row-wise ops, which read
 * every element before writing it). Zero-sized views never overlap. */
pdnnStatus_t pdnn_check_alias(const struct pdnnTensorStruct *in, const void *pin,
                              const char *inname, const struct pdnnTensorStruct *out,
                              const void *pout, const char *outname, const char *func);
/* As pdnn_check_alias, but the very same view is refused too: for ops that read a
 * neighbourhood of inputs for each output (pooling, convolution) and so never run in
 * place. */
pdnnStatus_t pdnn_check_disjoint(const struct pdnnTensorStruct *in, const void *pin,
                                 const char *inname, const struct pdnnTensorStruct *out,
                                 const void *pout, const char *outname, const char *func);

/* BAD_PARAM when the raw byte range [p, p + bytes) (a workspace or an optimizer state
 * buffer: memory the op writes that is not described by a tensor) overlaps the memory
 * spanned by view (t, pt). An empty range or a zero-sized view never overlaps. */
pdnnStatus_t pdnn_check_bytes_disjoint(const void *p, size_t bytes, const char *name,
                                       const struct pdnnTensorStruct *t, const void *pt,
                                       const char *tname, const char *func);

#endif
