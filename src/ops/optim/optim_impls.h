/* Optimizer-step and gradient-clipping implementations, best first, the reference last
 * (internal). */
#ifndef PDNN_OPTIM_IMPLS_H
#define PDNN_OPTIM_IMPLS_H

#include "core/registry.h"

extern const pdnn_impl pdnn_optim_cpu_packed; /* cpu/optim_cpu_packed.c */
extern const pdnn_impl pdnn_optim_ref;        /* optim_ref.c */
extern const pdnn_impl pdnn_clip_cpu_packed;  /* cpu/clip_cpu_packed.c */
extern const pdnn_impl pdnn_clip_ref;         /* clip_ref.c */

static const pdnn_impl *const pdnn_optim_impls[] = {
    &pdnn_optim_cpu_packed,
    &pdnn_optim_ref,
    NULL,
};

static const pdnn_impl *const pdnn_clip_impls[] = {
    &pdnn_clip_cpu_packed,
    &pdnn_clip_ref,
    NULL,
};

#endif
