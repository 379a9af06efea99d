/*
 * pdnn/core.h - library handle, version, status codes, data types and the enums
 * shared by every op family.
 *
 * Porting rule: a program written against cuDNN's legacy C API ports by renaming
 * `cudnn` -> `pdnn` and `CUDNN_` -> `PDNN_`. Names, argument order and semantics
 * follow cuDNN's documentation; extensions are marked "Extension" below.
 */
#ifndef PDNN_CORE_H
#define PDNN_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PDNN_MAJOR 0
#define PDNN_MINOR 1
#define PDNN_PATCHLEVEL 0
/** PDNN_VERSION = MAJOR*10000 + MINOR*100 + PATCHLEVEL (cuDNN 9's encoding). */
#define PDNN_VERSION (PDNN_MAJOR * 10000 + PDNN_MINOR * 100 + PDNN_PATCHLEVEL)

#if defined(__GNUC__)
#define PDNN_API __attribute__((visibility("default")))
#else
#define PDNN_API
#endif

/**
 * Status codes. Values are grouped in families of a thousand as in cuDNN 9:
 * PDNN_STATUS_CATEGORY(s) gives the family (e.g. PDNN_STATUS_BAD_PARAM for
 * PDNN_STATUS_BAD_PARAM_NULL_POINTER). Every failing call also records a
 * thread-local message readable with pdnnGetLastErrorString().
 */
typedef enum {
    PDNN_STATUS_SUCCESS = 0,

    PDNN_STATUS_NOT_INITIALIZED = 1001, /**< handle NULL or not created by pdnnCreate */

    PDNN_STATUS_BAD_PARAM = 2000,                  /**< an argument breaks a documented rule */
    PDNN_STATUS_BAD_PARAM_NULL_POINTER = 2002,     /**< a required pointer is NULL */
    PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND = 2005,     /**< a value outside its legal range */
    PDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT = 2006,/**< a buffer (workspace, array) too small */
    PDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH = 2008,   /**< descriptors whose shapes disagree */

    PDNN_STATUS_NOT_SUPPORTED = 3000,              /**< no implementation for this problem */
    PDNN_STATUS_NOT_SUPPORTED_SHAPE = 3002,
    PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE = 3003,
    PDNN_STATUS_NOT_SUPPORTED_LAYOUT = 3004,

    PDNN_STATUS_INTERNAL_ERROR = 4000,
    PDNN_STATUS_ALLOC_FAILED = 4001,               /**< host allocation failed */

    PDNN_STATUS_EXECUTION_FAILED = 5000
} pdnnStatus_t;

/** Family of a status: the value rounded down to its thousand. */
#define PDNN_STATUS_CATEGORY(s) ((pdnnStatus_t)(((int)(s) / 1000) * 1000))

/** Data types, cuDNN's values. FLOAT and DOUBLE are computed by every op; HALF,
 *  BFLOAT16 and INT8 are accepted by descriptors, and ops return
 *  PDNN_STATUS_NOT_SUPPORTED_DATA_TYPE for them until they are implemented. */
typedef enum {
    PDNN_DATA_FLOAT = 0,
    PDNN_DATA_DOUBLE = 1,
    PDNN_DATA_HALF = 2,
    PDNN_DATA_INT8 = 3,
    PDNN_DATA_INT32 = 4,
    PDNN_DATA_UINT8 = 6,
    PDNN_DATA_BFLOAT16 = 9,
    PDNN_DATA_INT64 = 10
} pdnnDataType_t;

typedef enum {
    PDNN_TENSOR_NCHW = 0, /**< also NCDHW for 5-d tensors; KCRS for filters */
    PDNN_TENSOR_NHWC = 1  /**< also NDHWC for 5-d tensors; KRSC for filters */
} pdnnTensorFormat_t;

typedef enum { PDNN_NOT_PROPAGATE_NAN = 0, PDNN_PROPAGATE_NAN = 1 } pdnnNanPropagation_t;

typedef enum { PDNN_NON_DETERMINISTIC = 0, PDNN_DETERMINISTIC = 1 } pdnnDeterminism_t;

typedef enum {
    PDNN_DEFAULT_MATH = 0,
    PDNN_TENSOR_OP_MATH = 1,
    PDNN_TENSOR_OP_MATH_ALLOW_CONVERSION = 2,
    PDNN_FMA_MATH = 3
} pdnnMathType_t;

/** Library properties for pdnnGetProperty (cuDNN takes CUDA's libraryPropertyType;
 *  pdnn carries its own enum so that no CUDA header is needed). */
typedef enum {
    PDNN_MAJOR_VERSION = 0,
    PDNN_MINOR_VERSION = 1,
    PDNN_PATCH_LEVEL = 2
} pdnnLibraryPropertyType_t;

/** Opaque handle: thread count, stream, per-handle caches. One handle is used by one
 *  thread at a time. */
typedef struct pdnnContext *pdnnHandle_t;

/** Stream: on the CPU backend an opaque value that is recorded and returned, never
 *  dereferenced. */
typedef void *pdnnStream_t;

/** Version of the library that is loaded: MAJOR*10000 + MINOR*100 + PATCHLEVEL. */
PDNN_API size_t pdnnGetVersion(void);

/** Reads one component of the version into *value.
 *  Returns BAD_PARAM_NULL_POINTER if value is NULL, BAD_PARAM_OUT_OF_BOUND for an
 *  unknown type. */
PDNN_API pdnnStatus_t pdnnGetProperty(pdnnLibraryPropertyType_t type, int *value);

/** Static text naming a status ("PDNN_STATUS_BAD_PARAM"); never NULL. */
PDNN_API const char *pdnnGetErrorString(pdnnStatus_t status);

/** Copies the calling thread's most recent error message (function, argument, the
 *  rule broken and the values) into message, at most max bytes with the terminating
 *  NUL. An empty string when the thread has had no error. Reading does not clear it;
 *  the next failing call replaces it. */
PDNN_API void pdnnGetLastErrorString(char *message, size_t max);

/** Largest thread count of a handle (pdnnSetNumThreads refuses more). */
#define PDNN_MAX_THREADS 1024

/** Creates a handle. Threads default to PDNN_NUM_THREADS, then OMP_NUM_THREADS,
 *  then the number of processors; an environment value that is not a number in
 *  [1, PDNN_MAX_THREADS] is ignored (the library prints nothing). Returns BAD_PARAM_NULL_POINTER if handle is NULL,
 *  ALLOC_FAILED if memory runs out. */
PDNN_API pdnnStatus_t pdnnCreate(pdnnHandle_t *handle);

/** Releases a handle. NOT_INITIALIZED if it is NULL or not a live handle. */
PDNN_API pdnnStatus_t pdnnDestroy(pdnnHandle_t handle);

/** Records a stream (CPU: kept and returned by pdnnGetStream, never used). */
PDNN_API pdnnStatus_t pdnnSetStream(pdnnHandle_t handle, pdnnStream_t streamId);
PDNN_API pdnnStatus_t pdnnGetStream(pdnnHandle_t handle, pdnnStream_t *streamId);

/** Extension: number of OpenMP threads the handle's calls use (1 to
 *  PDNN_MAX_THREADS, else BAD_PARAM_OUT_OF_BOUND). NOT_INITIALIZED for a handle that
 *  is NULL, destroyed or not a handle. Results do not depend on it: every op partitions over
 *  outputs and reduces in a fixed order. */
PDNN_API pdnnStatus_t pdnnSetNumThreads(pdnnHandle_t handle, int numThreads);
PDNN_API pdnnStatus_t pdnnGetNumThreads(pdnnHandle_t handle, int *numThreads);

#ifdef __cplusplus
}
#endif
#endif /* PDNN_CORE_H */
