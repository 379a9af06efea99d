/* Implementations of the tensor operations, best first, reference last (internal). */
#ifndef PDNN_TENSOR_IMPLS_H
#define PDNN_TENSOR_IMPLS_H

#include "core/registry.h"
#include "ops/tensor/tensor_problem.h"

/* Elementwise family: problem pdnn_elt_problem, args pdnn_elt_args. */
extern const pdnn_impl pdnn_elt_ref;
/* ReduceTensor: problem pdnn_reduce_problem, args pdnn_reduce_args. */
extern const pdnn_impl pdnn_reduce_ref;

__attribute__((unused)) static const pdnn_impl *const pdnn_elt_impls[] = {&pdnn_elt_ref, NULL};
__attribute__((unused)) static const pdnn_impl *const pdnn_reduce_impls[] = {&pdnn_reduce_ref, NULL};

#endif
