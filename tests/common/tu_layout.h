/* Random tensor layouts for op tests (header-only, reusable by any test): packed NCHW,
 * packed channels-last (NHWC / NDHWC), and random dimension orders with gaps. */
#ifndef PDNN_TU_LAYOUT_H
#define PDNN_TU_LAYOUT_H

#include <stdint.h>

#include "testutil.h"

enum { TU_LAYOUT_PACKED = 0, TU_LAYOUT_CHANNELS_LAST = 1, TU_LAYOUT_GAPPED = 2 };

/* Strides (in elements) for dims in the given layout kind. Zero-sized dims count as 1.
 * CHANNELS_LAST puts dim 1 innermost (needs nb >= 3, else packed). GAPPED nests the
 * dims in a random order with 0..2 unused elements after each level. */
static inline void tu_layout_strides(int nb, const int *dims, int kind, int *strides)
{
    int order[PDNN_DIM_MAX] = {0}; /* innermost first */
    for (int i = 0; i < nb; i++) order[i] = nb - 1 - i;
    if (kind == TU_LAYOUT_CHANNELS_LAST && nb >= 3) {
        int k = 0;
        order[k++] = 1;
        for (int i = nb - 1; i >= 2; i--) order[k++] = i;
        order[k++] = 0;
    } else if (kind == TU_LAYOUT_GAPPED) {
        for (int i = nb - 1; i > 0; i--) {
            int j = tu_int(0, i), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    }
    int64_t s = 1;
    for (int i = 0; i < nb; i++) {
        int d = dims[order[i]] > 0 ? dims[order[i]] : 1;
        if (kind == TU_LAYOUT_GAPPED && i == 0 && tu_int(0, 2) == 0) s = 2; /* inner gap */
        strides[order[i]] = (int)s;
        s = s * d + (kind == TU_LAYOUT_GAPPED ? tu_int(0, 2) : 0);
    }
}

/* Offset in elements of the element with row-major logical index `linear`. */
static inline int64_t tu_layout_offset(int nb, const int *dims, const int *strides,
                                       int64_t linear)
{
    int64_t off = 0;
    for (int i = nb - 1; i >= 0; i--) {
        off += (linear % dims[i]) * strides[i];
        linear /= dims[i];
    }
    return off;
}

/* Number of elements addressed (max offset + 1; 0 when a dim is 0). */
static inline int64_t tu_layout_span(int nb, const int *dims, const int *strides)
{
    int64_t last = 0;
    for (int i = 0; i < nb; i++) {
        if (dims[i] == 0) return 0;
        last += (int64_t)(dims[i] - 1) * strides[i];
    }
    return last + 1;
}

static inline int64_t tu_layout_numel(int nb, const int *dims)
{
    int64_t n = 1;
    for (int i = 0; i < nb; i++) n *= dims[i];
    return n;
}

/* A tensor view for op tests: dims, strides of a layout kind, elements addressed (span)
 * and counted, and its descriptor (the caller destroys it). */
typedef struct {
    int nb, dims[PDNN_DIM_MAX], st[PDNN_DIM_MAX];
    int64_t span, numel;
    pdnnTensorDescriptor_t d;
} tu_view;

static inline void tu_view_make(tu_view *v, pdnnDataType_t t, int nb, const int *dims,
                                int kind)
{
    v->nb = nb;
    for (int i = 0; i < nb; i++) v->dims[i] = dims[i];
    tu_layout_strides(nb, dims, kind, v->st);
    v->span = tu_layout_span(nb, dims, v->st);
    v->numel = tu_layout_numel(nb, dims);
    v->d = tu_tensor(t, nb, dims, v->st);
}

/* The layout of o again, with a descriptor of its own (of type t). */
static inline void tu_view_same(tu_view *v, const tu_view *o, pdnnDataType_t t)
{
    *v = *o;
    v->d = tu_tensor(t, o->nb, o->dims, o->st);
}

/* Offset of the element with row-major logical index i. */
static inline int64_t tu_view_off(const tu_view *v, int64_t i)
{
    return tu_layout_offset(v->nb, v->dims, v->st, i);
}

/* Row-major odometer: advances idx within dims (nb entries); false after the last. */
static inline bool tu_next_index(int *idx, const int *dims, int nb)
{
    for (int i = nb - 1; i >= 0; i--) {
        if (++idx[i] < dims[i]) return true;
        idx[i] = 0;
    }
    return false;
}

#endif
