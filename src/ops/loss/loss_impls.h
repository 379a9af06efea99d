/* Loss implementations, best first, the reference last (internal). */
#ifndef PDNN_LOSS_IMPLS_H
#define PDNN_LOSS_IMPLS_H

#include "core/registry.h"

extern const pdnn_impl pdnn_loss_cpu_packed; /* cpu/loss_cpu_packed.c */
extern const pdnn_impl pdnn_loss_ref;        /* loss_ref.c */

static const pdnn_impl *const pdnn_loss_impls[] = {
    &pdnn_loss_cpu_packed,
    &pdnn_loss_ref,
    NULL,
};

#endif
