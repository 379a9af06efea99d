/* Softmax implementations, best first, the reference last (internal). */
#ifndef PDNN_SOFTMAX_IMPLS_H
#define PDNN_SOFTMAX_IMPLS_H

#include "core/registry.h"

extern const pdnn_impl pdnn_softmax_cpu_strided; /* cpu/softmax_cpu_strided.c */
extern const pdnn_impl pdnn_softmax_ref;         /* softmax_ref.c */

static const pdnn_impl *const pdnn_softmax_impls[] = {
    &pdnn_softmax_cpu_strided,
    &pdnn_softmax_ref,
    NULL,
};

#endif
