/* Status and thread-local last-error message (internal). */
#ifndef PDNN_CORE_ERROR_H
#define PDNN_CORE_ERROR_H

#include "pdnn/core.h"

#if defined(__GNUC__)
#define PDNN_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PDNN_PRINTF(a, b)
#endif

/* Records "func: message" as the calling thread's last error and returns status.
 * Use: return pdnn_error(st, __func__, "xDesc has %d channels but ...", c, k); */
pdnnStatus_t pdnn_error(pdnnStatus_t status, const char *func, const char *fmt, ...)
    PDNN_PRINTF(3, 4);

/* Returns BAD_PARAM_NULL_POINTER with "func: name is NULL" when p is NULL. */
#define PDNN_CHECK_NULL(p)                                                              \
    do {                                                                                \
        if ((p) == NULL)                                                                \
            return pdnn_error(PDNN_STATUS_BAD_PARAM_NULL_POINTER, __func__,             \
                              "argument '%s' is NULL", #p);                             \
    } while (0)

/* Propagates a non-success status. */
#define PDNN_TRY(expr)                                                                  \
    do {                                                                                \
        pdnnStatus_t pdnn_try_st_ = (expr);                                             \
        if (pdnn_try_st_ != PDNN_STATUS_SUCCESS) return pdnn_try_st_;                   \
    } while (0)

#endif
