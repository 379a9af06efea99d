/* Key string of a pooling problem (logs, pdnn-bench). */
#include <stdio.h>

#include "ops/pool/pool_problem.h"

static const char *alg_name(pdnnPoolingMode_t m)
{
    switch (m) {
    case PDNN_POOLING_MAX: return "max";
    case PDNN_POOLING_MAX_DETERMINISTIC: return "max";
    case PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING: return "avg_p";
    case PDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING: return "avg_np";
    }
    return "unknown";
}

void pdnn_pool_problem_key(const pdnn_pool_problem *p, char *buf, size_t n)
{
    static const char names[PDNN_POOL_SP_MAX] = {'d', 'h', 'w'};
    size_t off = 0;
#define PUT(...)                                                                       \
    do {                                                                               \
        if (off < n) {                                                                 \
            int r_ = snprintf(buf + off, n - off, __VA_ARGS__);                        \
            if (r_ > 0) off += (size_t)r_;                                             \
        }                                                                              \
    } while (0)
    if (n == 0) return;
    buf[0] = '\0';
    int first = PDNN_POOL_SP_MAX - p->nsp;
    PUT("mb%lldic%lld", (long long)p->n, (long long)p->c);
    for (int i = first; i < PDNN_POOL_SP_MAX; i++) PUT("i%c%lld", names[i], (long long)p->in[i]);
    for (int i = first; i < PDNN_POOL_SP_MAX; i++) PUT("o%c%lld", names[i], (long long)p->out[i]);
    for (int i = first; i < PDNN_POOL_SP_MAX; i++) PUT("k%c%lld", names[i], (long long)p->win[i]);
    for (int i = first; i < PDNN_POOL_SP_MAX; i++)
        PUT("s%c%lld", names[i], (long long)p->stride[i]);
    for (int i = first; i < PDNN_POOL_SP_MAX; i++)
        PUT("p%c%lld", names[i], (long long)p->pad_b[i]);
    for (int i = first; i < PDNN_POOL_SP_MAX; i++)
        if (p->pad_e[i] != p->pad_b[i]) PUT("pe%c%lld", names[i], (long long)p->pad_e[i]);
    for (int i = first; i < PDNN_POOL_SP_MAX; i++)
        PUT("d%c%lld", names[i], (long long)(p->dil[i] - 1));
    PUT("_%s%s_%s_%s", alg_name(p->mode), p->nan_prop ? "_nanprop" : "",
        pdnn_dtype_name(p->dtype), p->dir == PDNN_POOL_FWD ? "fwd" : "bwd");
#undef PUT
}
