/* Activation implementations, best first, the reference last (internal). */
#ifndef PDNN_ACT_IMPLS_H
#define PDNN_ACT_IMPLS_H

#include "core/registry.h"

extern const pdnn_impl pdnn_act_cpu_packed; /* cpu/act_cpu_packed.c */
extern const pdnn_impl pdnn_act_ref;        /* act_ref.c */

static const pdnn_impl *const pdnn_act_impls[] = {
    &pdnn_act_cpu_packed,
    &pdnn_act_ref,
    NULL,
};

#endif
