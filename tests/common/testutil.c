#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

long tu_checks, tu_failures;

void tu_fail_at(const char *file, int line, const char *fmt, ...)
{
    tu_failures++;
    if (tu_failures > 50) return; /* keep logs readable */
    fprintf(stderr, "FAIL %s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void tu_expect_status(const char *file, int line, const char *what, pdnnStatus_t got,
                      pdnnStatus_t expected)
{
    char msg[1024];
    pdnnGetLastErrorString(msg, sizeof msg);
    tu_checks++;
    if (got != expected)
        tu_fail_at(file, line, "%s -> %s, expected %s (%s)", what, pdnnGetErrorString(got),
                   pdnnGetErrorString(expected), msg);
    else if (expected != PDNN_STATUS_SUCCESS && msg[0] == '\0')
        tu_fail_at(file, line, "%s -> %s with an empty last-error message", what,
                   pdnnGetErrorString(got));
}

int tu_finish(const char *name)
{
    printf("%s: %ld checks: %ld passed, %ld failed\n", name, tu_checks,
           tu_checks - tu_failures, tu_failures);
    if (tu_checks == 0) {
        printf("%s: no checks ran\n", name);
        return 1;
    }
    return tu_failures ? 1 : 0;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

void tu_seed(uint64_t seed) { rng_state = seed ? seed * 0x9E3779B97F4A7C15ull : 1; }

uint64_t tu_next(void)
{
    uint64_t x = rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng_state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

int tu_int(int lo, int hi) { return lo + (int)(tu_next() % (uint64_t)(hi - lo + 1)); }

double tu_uniform(double lo, double hi)
{
    return lo + (hi - lo) * ((double)(tu_next() >> 11) * (1.0 / 9007199254740992.0));
}

size_t tu_esize(pdnnDataType_t t)
{
    switch (t) {
    case PDNN_DATA_DOUBLE:
    case PDNN_DATA_INT64: return 8;
    case PDNN_DATA_HALF:
    case PDNN_DATA_BFLOAT16: return 2;
    case PDNN_DATA_INT8:
    case PDNN_DATA_UINT8: return 1;
    case PDNN_DATA_FLOAT:
    case PDNN_DATA_INT32: break;
    }
    return 4;
}

void *tu_alloc(pdnnDataType_t t, size_t n)
{
    void *p = calloc(n ? n : 1, tu_esize(t));
    if (!p) {
        fprintf(stderr, "tu_alloc: out of memory (%zu elements)\n", n);
        exit(2);
    }
    return p;
}

double tu_get(const void *p, pdnnDataType_t t, size_t i)
{
    return t == PDNN_DATA_DOUBLE ? ((const double *)p)[i] : ((const float *)p)[i];
}

void tu_put(void *p, pdnnDataType_t t, size_t i, double v)
{
    if (t == PDNN_DATA_DOUBLE)
        ((double *)p)[i] = v;
    else
        ((float *)p)[i] = (float)v;
}

void tu_fill_int(void *p, pdnnDataType_t t, size_t n, int lo, int hi)
{
    for (size_t i = 0; i < n; i++) tu_put(p, t, i, tu_int(lo, hi));
}

void tu_fill_uniform(void *p, pdnnDataType_t t, size_t n, double lo, double hi)
{
    for (size_t i = 0; i < n; i++) tu_put(p, t, i, tu_uniform(lo, hi));
}

void tu_poison(void *p, pdnnDataType_t t, size_t n)
{
    for (size_t i = 0; i < n; i++) tu_put(p, t, i, NAN);
}

double tu_rel_err(const double *ref, const void *out, pdnnDataType_t t, size_t n)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        double o = tu_get(out, t, i);
        if (isnan(o) != isnan(ref[i])) return INFINITY;
        if (isnan(o)) continue;
        if (isinf(o) || isinf(ref[i])) {
            if (o != ref[i]) return INFINITY;
            continue;
        }
        double d = o - ref[i];
        num += d * d;
        den += ref[i] * ref[i];
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

size_t tu_count_mismatch(const double *ref, const void *out, pdnnDataType_t t, size_t n)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        double o = tu_get(out, t, i);
        double r = t == PDNN_DATA_DOUBLE ? ref[i] : (double)(float)ref[i];
        if (!(o == r || (isnan(o) && isnan(r)))) bad++;
    }
    return bad;
}

bool tu_bitwise_equal(const void *a, const void *b, size_t bytes)
{
    return memcmp(a, b, bytes) == 0;
}

pdnnTensorDescriptor_t tu_tensor(pdnnDataType_t t, int nb, const int *dims,
                                 const int *strides)
{
    pdnnTensorDescriptor_t d;
    int s[PDNN_DIM_MAX];
    if (!strides) {
        int acc = 1;
        for (int i = nb - 1; i >= 0; i--) {
            s[i] = acc;
            acc *= dims[i] > 0 ? dims[i] : 1;
        }
        strides = s;
    }
    if (pdnnCreateTensorDescriptor(&d) != PDNN_STATUS_SUCCESS ||
        pdnnSetTensorNdDescriptor(d, t, nb, dims, strides) != PDNN_STATUS_SUCCESS) {
        char m[512];
        pdnnGetLastErrorString(m, sizeof m);
        fprintf(stderr, "tu_tensor: %s\n", m);
        exit(2);
    }
    return d;
}

pdnnTensorDescriptor_t tu_tensor4d(pdnnDataType_t t, pdnnTensorFormat_t f, int n, int c,
                                   int h, int w)
{
    pdnnTensorDescriptor_t d;
    if (pdnnCreateTensorDescriptor(&d) != PDNN_STATUS_SUCCESS ||
        pdnnSetTensor4dDescriptor(d, f, t, n, c, h, w) != PDNN_STATUS_SUCCESS) {
        char m[512];
        pdnnGetLastErrorString(m, sizeof m);
        fprintf(stderr, "tu_tensor4d: %s\n", m);
        exit(2);
    }
    return d;
}

size_t tu_span(pdnnTensorDescriptor_t d)
{
    size_t bytes = 0;
    pdnnDataType_t t;
    int nb, dims[PDNN_DIM_MAX], st[PDNN_DIM_MAX];
    pdnnGetTensorSizeInBytes(d, &bytes);
    pdnnGetTensorNdDescriptor(d, PDNN_DIM_MAX, &t, &nb, dims, st);
    return bytes / tu_esize(t);
}

tu_scalar tu_sc(pdnnDataType_t t, double v)
{
    tu_scalar s;
    if (t == PDNN_DATA_DOUBLE)
        s.d = v;
    else
        s.f = (float)v;
    return s;
}
