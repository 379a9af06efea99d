/* Pooling implementations, best first, the reference last (internal; included by
 * pool_api.c only). */
#ifndef PDNN_POOL_IMPLS_H
#define PDNN_POOL_IMPLS_H

#include <stddef.h>

#include "core/registry.h"

extern const pdnn_impl pdnn_pool_fwd_cpu_2x2s2_f32; /* cpu/pool_cpu_2x2s2.c */
extern const pdnn_impl pdnn_pool_bwd_cpu_2x2s2_f32; /* cpu/pool_cpu_2x2s2.c */
extern const pdnn_impl pdnn_pool_fwd_cpu_nchw_f32; /* cpu/pool_cpu_nchw.c */
extern const pdnn_impl pdnn_pool_bwd_cpu_nchw_f32; /* cpu/pool_cpu_nchw.c */
extern const pdnn_impl pdnn_pool_fwd_cpu_cinner_f32; /* cpu/pool_cpu_cinner.c */
extern const pdnn_impl pdnn_pool_bwd_cpu_cinner_f32; /* cpu/pool_cpu_cinner.c */
extern const pdnn_impl pdnn_pool_fwd_ref;          /* pool_ref.c */
extern const pdnn_impl pdnn_pool_bwd_ref;          /* pool_ref.c */

#ifdef PDNN_POOL_IMPL_LISTS
static const pdnn_impl *const pdnn_pool_fwd_impls[] = {
    &pdnn_pool_fwd_cpu_2x2s2_f32,
    &pdnn_pool_fwd_cpu_nchw_f32,
    &pdnn_pool_fwd_cpu_cinner_f32,
    &pdnn_pool_fwd_ref,
    NULL,
};
static const pdnn_impl *const pdnn_pool_bwd_impls[] = {
    &pdnn_pool_bwd_cpu_2x2s2_f32,
    &pdnn_pool_bwd_cpu_nchw_f32,
    &pdnn_pool_bwd_cpu_cinner_f32,
    &pdnn_pool_bwd_ref,
    NULL,
};
#endif

#endif
