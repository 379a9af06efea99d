/* Status names and the thread-local last-error message. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/log.h"

#define PDNN_ERRMSG_MAX 1024

static _Thread_local char last_error[PDNN_ERRMSG_MAX];

const char *pdnnGetErrorString(pdnnStatus_t status)
{
    switch (status) {
    case PDNN_STATUS_SUCCESS: return "PDNN_STATUS_SUCCESS";
    case PDNN_STATUS_NOT_INITIALIZED: return "PDNN_STATUS_NOT_INITIALIZED";
    case PDNN_STATUS_BAD_PARAM: return "PDNN_STATUS_BAD_PARAM";
    case PDNN_STATUS_BAD_PARAM_NULL_POINTER: return "PDNN_STATUS_BAD_PARAM_NULL_POINTER";
    case PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND: return "PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND";
    case PDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT: return "PDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT";
    case PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH: return "PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH";
    case PDNN_STATUS_NOT_SUPPORTED: return "PDNN_STATUS_NOT_SUPPORTED";
    case PDNN_STATUS_NOT_SUPPORTED_SHAPE: return "PDNN_STATUS_NOT_SUPPORTED_SHAPE";
    case PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE: return "PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE";
    case PDNN_STATUS_NOT_SUPPORTED_LAYOUT: return "PDNN_STATUS_NOT_SUPPORTED_LAYOUT";
    case PDNN_STATUS_INTERNAL_ERROR: return "PDNN_STATUS_INTERNAL_ERROR";
    case PDNN_STATUS_ALLOC_FAILED: return "PDNN_STATUS_ALLOC_FAILED";
    case PDNN_STATUS_EXECUTION_FAILED: return "PDNN_STATUS_EXECUTION_FAILED";
    }
    return "PDNN_STATUS_UNKNOWN";
}

void pdnnGetLastErrorString(char *message, size_t max)
{
    if (message == NULL || max == 0) return;
    size_t n = strlen(last_error);
    if (n >= max) n = max - 1;
    memcpy(message, last_error, n);
    message[n] = '\0';
}

pdnnStatus_t pdnn_error(pdnnStatus_t status, const char *func, const char *fmt, ...)
{
    int off = snprintf(last_error, sizeof last_error, "%s: %s: ", func,
                       pdnnGetErrorString(status));
    if (off < 0 || (size_t)off >= sizeof last_error) return status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error + off, sizeof last_error - (size_t)off, fmt, ap);
    va_end(ap);
    /* API logging covers failing calls too: the message already names func */
    if (pdnn_log_on()) pdnn_log_call(func, "error: %s", last_error + strlen(func) + 2);
    return status;
}

size_t pdnnGetVersion(void) { return PDNN_VERSION; }

pdnnStatus_t pdnnGetProperty(pdnnLibraryPropertyType_t type, int *value)
{
    PDNN_CHECK_NULL(value);
    switch (type) {
    case PDNN_MAJOR_VERSION: *value = PDNN_MAJOR; return PDNN_STATUS_SUCCESS;
    case PDNN_MINOR_VERSION: *value = PDNN_MINOR; return PDNN_STATUS_SUCCESS;
    case PDNN_PATCH_LEVEL: *value = PDNN_PATCHLEVEL; return PDNN_STATUS_SUCCESS;
    }
    return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, __func__,
                      "type %d is not a library property (0 major, 1 minor, 2 patch)",
                      (int)type);
}
