/* Implementation registry and dispatch (internal; knows no op).
 *
 * Each op keeps an ordered, NULL-terminated list of entries in <op>_impls.h, best
 * first and the reference last. Dispatch takes the first entry that serves the
 * requested algorithm, runs on this CPU's ISA, supports the problem and fits the
 * caller's workspace. */
#ifndef PDNN_CORE_REGISTRY_H
#define PDNN_CORE_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "pdnn/core.h"
#include "cpu/isa.h"

enum { PDNN_IMPL_DETERMINISTIC = 1u << 0 };

/* What an implementation runs with: the handle's threads and the caller's workspace. */
typedef struct {
    int nthreads;
    void *ws;
    size_t ws_bytes;
} pdnn_ctx;

typedef struct pdnn_impl {
    const char *name;  /* stable: "cpu:gemm:avx2", logged and cached by name */
    int algo;          /* cuDNN algorithm enum value served; -1 for ops without one */
    pdnn_isa min_isa;
    unsigned props;    /* PDNN_IMPL_* */
    /* Returns true, or false with *why set to a static/literal reason. */
    bool (*supports)(const void *prob, const char **why);
    /* Workspace bytes for the problem; NULL means none. */
    size_t (*workspace)(const void *prob);
    /* Runs on problem prob with op-specific arguments args. */
    pdnnStatus_t (*exec)(const void *prob, const void *args, const pdnn_ctx *ctx);
} pdnn_impl;

/* Picks the entry for algo (any when algo < 0) from a NULL-terminated list.
 * NOT_SUPPORTED (with every reason in the message) when all refuse;
 * BAD_PARAM_SIZE_INSUFFICIENT naming the bytes needed when the workspace is too small.
 * ws_bytes = SIZE_MAX skips the workspace check (queries). */
pdnnStatus_t pdnn_dispatch(const pdnn_impl *const *list, int algo, const void *prob,
                           size_t ws_bytes, const char *func, const pdnn_impl **out);

/* The supports() of an entry that serves every problem the API accepts (references). */
bool pdnn_supports_any(const void *prob, const char **why);

/* Workspace of an entry for a problem (0 when it declares none). */
size_t pdnn_impl_workspace(const pdnn_impl *impl, const void *prob);

#endif
