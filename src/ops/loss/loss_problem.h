/* The loss problem: plain data built by loss_api.c, read by every loss implementation
 * (internal). */
#ifndef PDNN_LOSS_PROBLEM_H
#define PDNN_LOSS_PROBLEM_H

#include <stdbool.h>
#include <stdint.h>

#include "core/desc.h"
#include "core/train_desc.h"

typedef struct {
    pdnnLossMode_t mode;
    pdnnLossReduction_t reduction;
    bool backward;
    bool has_dy;                /* backward: dy given (else the upstream gradient is 1) */
    pdnnDataType_t dtype;       /* x, y, dy, dx and MSE's target */
    pdnnDataType_t ttype;       /* target elements: INT32 / INT64 (class losses) */
    int64_t ignore_index;
    double smoothing;
    /* Class losses: x is n x c x (s spatial elements), element (i, k, j) at row-major
     * index (i * c + k) * s + j; target, y (NONE) and dy (NONE) hold one value per row
     * r = i * s + j, at row-major index r. MSE: rows = numel, c = s = 1, every tensor
     * indexed alike. */
    int64_t n, c, s, rows;
    struct pdnnTensorStruct x, t, y, dx; /* y: the forward output, or backward's dy */
} pdnn_loss_problem;

/* Forward: y = alpha * loss + beta * y. Backward: dx = alpha * grad + beta * dx, with
 * dy (NULL when !has_dy). */
typedef struct {
    const void *x;
    const void *target;
    const void *dy;
    void *y;
    void *dx;
    double alpha, beta;
} pdnn_loss_args;

static inline bool pdnn_loss_is_class(const pdnn_loss_problem *p)
{
    return p->mode != PDNN_LOSS_MSE;
}

/* Class index stored at element offset off of an INT32 or INT64 target. */
static inline int64_t pdnn_loss_label(const void *t, pdnnDataType_t tt, int64_t off)
{
    return tt == PDNN_DATA_INT64 ? ((const int64_t *)t)[off] : ((const int32_t *)t)[off];
}

#endif
