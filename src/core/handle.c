/* Handle: creation, threads, stream. */
#include <stdlib.h>

#include "core/desc.h"
#include "core/env.h"
#include "core/error.h"

#ifdef _OPENMP
#include <omp.h>
#endif

static int default_threads(void)
{
    /* a value outside [1, PDNN_MAX_THREADS] (or not a number) is ignored */
    long v = pdnn_env_long("PDNN_NUM_THREADS", 0);
    if (v < 1 || v > PDNN_MAX_THREADS) v = pdnn_env_long("OMP_NUM_THREADS", 0);
#ifdef _OPENMP
    if (v < 1 || v > PDNN_MAX_THREADS) v = omp_get_num_procs();
#endif
    if (v < 1) v = 1;
    if (v > PDNN_MAX_THREADS) v = PDNN_MAX_THREADS;
    return (int)v;
}

pdnnStatus_t pdnnCreate(pdnnHandle_t *handle)
{
    PDNN_CHECK_NULL(handle);
    struct pdnnContext *h = pdnn_obj_new(PDNN_OBJ_HANDLE, sizeof *h);
    if (!h) return pdnn_error(PDNN_STATUS_ALLOC_FAILED, __func__, "out of host memory");
    h->nthreads = default_threads();
    h->stream = NULL;
    *handle = h;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnDestroy(pdnnHandle_t handle)
{
    PDNN_TRY(pdnn_check_handle(handle, __func__));
    pdnn_obj_free(PDNN_OBJ_HANDLE, handle);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetStream(pdnnHandle_t handle, pdnnStream_t streamId)
{
    PDNN_TRY(pdnn_check_handle(handle, __func__));
    handle->stream = streamId;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetStream(pdnnHandle_t handle, pdnnStream_t *streamId)
{
    PDNN_TRY(pdnn_check_handle(handle, __func__));
    PDNN_CHECK_NULL(streamId);
    *streamId = handle->stream;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnSetNumThreads(pdnnHandle_t handle, int numThreads)
{
    PDNN_TRY(pdnn_check_handle(handle, __func__));
    if (numThreads < 1 || numThreads > PDNN_MAX_THREADS)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, __func__,
                          "numThreads is %d, must be in [1, %d]", numThreads,
                          PDNN_MAX_THREADS);
    handle->nthreads = numThreads;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetNumThreads(pdnnHandle_t handle, int *numThreads)
{
    PDNN_TRY(pdnn_check_handle(handle, __func__));
    PDNN_CHECK_NULL(numThreads);
    *numThreads = handle->nthreads;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnn_check_handle(pdnnHandle_t h, const char *func)
{
    return pdnn_obj_check(PDNN_OBJ_HANDLE, h, func, "handle");
}
