/* Small test harness shared by every pdnn test: checks with counters, a seeded RNG,
 * buffer fill/poison, error norms and descriptor shortcuts. */
#ifndef PDNN_TESTUTIL_H
#define PDNN_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pdnn.h"

extern long tu_checks, tu_failures;

void tu_fail_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Records one check; on failure prints file:line and the formatted message. */
#define TU_CHECK(cond, ...)                                                            \
    do {                                                                               \
        tu_checks++;                                                                   \
        if (!(cond)) tu_fail_at(__FILE__, __LINE__, __VA_ARGS__);                      \
    } while (0)

/* Checks a pdnn call returned SUCCESS, printing the last error otherwise. */
#define TU_OK(call)                                                                    \
    do {                                                                               \
        pdnnStatus_t tu_st_ = (call);                                                  \
        tu_checks++;                                                                   \
        if (tu_st_ != PDNN_STATUS_SUCCESS) {                                           \
            char tu_m_[1024];                                                          \
            pdnnGetLastErrorString(tu_m_, sizeof tu_m_);                               \
            tu_fail_at(__FILE__, __LINE__, "%s -> %s (%s)", #call,                     \
                       pdnnGetErrorString(tu_st_), tu_m_);                             \
        }                                                                              \
    } while (0)

/* Checks a call returned `expected` and left a non-empty last-error message. */
#define TU_STATUS(expected, call)                                                      \
    tu_expect_status(__FILE__, __LINE__, #call, (call), (expected))
void tu_expect_status(const char *file, int line, const char *what, pdnnStatus_t got,
                      pdnnStatus_t expected);

/* Prints "<name>: N passed, N failed" and returns the process exit code. */
int tu_finish(const char *name);

/* ---- seeded RNG (xorshift64*) */
void tu_seed(uint64_t seed);
uint64_t tu_next(void);
int tu_int(int lo, int hi);          /* uniform in [lo, hi] */
double tu_uniform(double lo, double hi);

/* ---- buffers (tu_alloc sizes n elements of any data type; the others read and write
 * FLOAT or DOUBLE elements) */
size_t tu_esize(pdnnDataType_t t);  /* bytes of one element (4 for an unknown type) */
void *tu_alloc(pdnnDataType_t t, size_t n);      /* zeroed; aborts the test on OOM */
void tu_fill_int(void *p, pdnnDataType_t t, size_t n, int lo, int hi);
void tu_fill_uniform(void *p, pdnnDataType_t t, size_t n, double lo, double hi);
void tu_poison(void *p, pdnnDataType_t t, size_t n); /* quiet NaN everywhere */
double tu_get(const void *p, pdnnDataType_t t, size_t i);
void tu_put(void *p, pdnnDataType_t t, size_t i, double v);
/* ||out - ref|| / ||ref|| over n elements (absolute norm when ref is all zero);
 * +inf when any element of out is NaN but ref's is not. */
double tu_rel_err(const double *ref, const void *out, pdnnDataType_t t, size_t n);
/* Number of elements where out differs bitwise-exactly from ref (after rounding ref
 * to t). */
size_t tu_count_mismatch(const double *ref, const void *out, pdnnDataType_t t, size_t n);
/* True when both buffers are bitwise identical. */
bool tu_bitwise_equal(const void *a, const void *b, size_t bytes);

/* ---- descriptors */
/* Tensor with dims and strides (strides NULL: packed, dims in order). */
pdnnTensorDescriptor_t tu_tensor(pdnnDataType_t t, int nb, const int *dims,
                                 const int *strides);
/* Packed 4-d tensor in format. */
pdnnTensorDescriptor_t tu_tensor4d(pdnnDataType_t t, pdnnTensorFormat_t f, int n, int c,
                                   int h, int w);
/* Number of elements addressed by a descriptor's span (max offset + 1). */
size_t tu_span(pdnnTensorDescriptor_t d);
/* Scaling factor storage matching a data type. */
typedef union {
    float f;
    double d;
} tu_scalar;
tu_scalar tu_sc(pdnnDataType_t t, double v);

#endif
