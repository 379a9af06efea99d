/* Helpers shared by the optimized CPU pooling implementations (internal). */
#ifndef PDNN_POOL_CPU_COMMON_H
#define PDNN_POOL_CPU_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Branch-free forms of pdnn_pool_takes_f32 for PROPAGATE (P) and NOT_PROPAGATE (N):
 * bitwise & and |, not && and ||, so that loops using them vectorize. */
#define POOL_TAKE_P(v, m) (((m) == (m)) & (((v) != (v)) | ((v) > (m))))
#define POOL_TAKE_N(v, m) (((v) == (v)) & (((m) != (m)) | ((v) > (m))))

/* v when keep, else +0.0, without a branch (a mispredicted one per window costs more
 * than the rest of the backward pass). */
static inline double pool_keep_if(double v, bool keep)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    b &= -(uint64_t)keep;
    memcpy(&v, &b, sizeof v);
    return v;
}

#endif
