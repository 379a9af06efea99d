#include <stdint.h>

#include "core/alias.h"
#include "core/error.h"

/* Byte range [lo, hi) of a view; empty for a zero-sized tensor. */
static void span(const struct pdnnTensorStruct *d, const void *p, uintptr_t *lo, uintptr_t *hi)
{
    uint64_t last = 0;
    for (int i = 0; i < d->nbDims; i++) {
        if (d->dim[i] == 0) {
            *lo = *hi = (uintptr_t)p;
            return;
        }
        last += (uint64_t)(d->dim[i] - 1) * (uint64_t)d->stride[i]; /* checked when set */
    }
    *lo = (uintptr_t)p;
    *hi = *lo + (uintptr_t)((last + 1) * pdnn_dtype_size(d->dtype));
}

static bool same_view(const struct pdnnTensorStruct *a, const void *pa,
                      const struct pdnnTensorStruct *b, const void *pb)
{
    if (pa != pb || a->dtype != b->dtype || a->nbDims != b->nbDims) return false;
    for (int i = 0; i < a->nbDims; i++)
        if (a->dim[i] != b->dim[i] || (a->dim[i] > 1 && a->stride[i] != b->stride[i]))
            return false;
    return true;
}

static pdnnStatus_t check(const struct pdnnTensorStruct *in, const void *pin,
                          const char *inname, const struct pdnnTensorStruct *out,
                          const void *pout, const char *outname, const char *func,
                          bool allow_same_view)
{
    uintptr_t alo, ahi, blo, bhi;
    span(in, pin, &alo, &ahi);
    span(out, pout, &blo, &bhi);
    if (alo == ahi || blo == bhi || ahi <= blo || bhi <= alo) return PDNN_STATUS_SUCCESS;
    if (same_view(in, pin, out, pout)) {
        if (allow_same_view) return PDNN_STATUS_SUCCESS;
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "%s and %s are the same buffer; this operation cannot run in place",
                          inname, outname);
    }
    char sa[160], sb[160];
    pdnn_tensor_str(in, sa, sizeof sa);
    pdnn_tensor_str(out, sb, sizeof sb);
    return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                      "%s (%s at %p) and %s (%s at %p) overlap in memory without being the "
                      "same tensor%s",
                      inname, sa, pin, outname, sb, pout,
                      allow_same_view ? "; in-place use needs equal pointers and equal strides"
                                      : "");
}

pdnnStatus_t pdnn_check_alias(const struct pdnnTensorStruct *in, const void *pin,
                              const char *inname, const struct pdnnTensorStruct *out,
                              const void *pout, const char *outname, const char *func)
{
    return check(in, pin, inname, out, pout, outname, func, true);
}

pdnnStatus_t pdnn_check_disjoint(const struct pdnnTensorStruct *in, const void *pin,
                                 const char *inname, const struct pdnnTensorStruct *out,
                                 const void *pout, const char *outname, const char *func)
{
    return check(in, pin, inname, out, pout, outname, func, false);
}

pdnnStatus_t pdnn_check_bytes_disjoint(const void *p, size_t bytes, const char *name,
                                       const struct pdnnTensorStruct *t, const void *pt,
                                       const char *tname, const char *func)
{
    uintptr_t lo, hi;
    span(t, pt, &lo, &hi);
    const uintptr_t plo = (uintptr_t)p, phi = plo + (uintptr_t)bytes;
    if (bytes == 0 || lo == hi || hi <= plo || phi <= lo) return PDNN_STATUS_SUCCESS;
    char st[160];
    pdnn_tensor_str(t, st, sizeof st);
    return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                      "%s (%zu bytes at %p) overlaps %s (%s at %p); they must be disjoint",
                      name, bytes, p, tname, st, pt);
}
