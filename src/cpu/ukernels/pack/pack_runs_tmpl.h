/* Body of the run packers and unpackers (pack_runs.h), plain C compiled once per ISA by
 * pack_runs__<isa>.c after it defines PR_FN (and PR_UNFN for an unpacker): the
 * fixed-size block copies become single vector moves of the file's ISA. */
#include <string.h>

#define PR_CAT_(x, y) x##y
#define PR_CAT(x, y) PR_CAT_(x, y)

/* len elements from s to d: 64-byte blocks, then element by element (nothing read or
 * written past the run) */
static inline void PR_CAT(PR_FN, _run)(char *restrict d, const char *restrict s, int64_t len,
                                       size_t es)
{
    const int64_t bytes = len * (int64_t)es;
    int64_t b = 0;
    for (; b + 64 <= bytes; b += 64) memcpy(d + b, s + b, 64);
    if (es == sizeof(float))
        for (int64_t e = b / 4; e < bytes / 4; e++) ((float *)d)[e] = ((const float *)s)[e];
    else
        for (int64_t e = b / 8; e < bytes / 8; e++) ((double *)d)[e] = ((const double *)s)[e];
}

PDNN_PACK_RUNS_UKERNEL(PR_FN)
{
    const int64_t row = nr * (int64_t)es;
    const char *s0 = src;
    char *d0 = dst;
    for (int64_t t = 0; t < ntap; t++) {
        char *d = d0 + t * row;
        const char *s = s0 + toff[t] * (int64_t)es;
        for (int r = 0; r < nrun; r++)
            PR_CAT(PR_FN, _run)(d + runs[r].j0 * (int64_t)es, s + runs[r].base * (int64_t)es,
                                runs[r].len, es);
        for (int64_t b = nvalid * (int64_t)es; b < row; b++) d[b] = 0;
    }
}

#ifdef PR_UNFN
PDNN_UNPACK_RUNS_UKERNEL(PR_UNFN)
{
    const int64_t row = nr * (int64_t)es;
    for (int64_t t = 0; t < ntap; t++) {
        const char *s = (const char *)src + t * row;
        char *d = (char *)dst + toff[t] * (int64_t)es;
        for (int r = 0; r < nrun; r++)
            PR_CAT(PR_FN, _run)(d + runs[r].base * (int64_t)es, s + runs[r].j0 * (int64_t)es,
                                runs[r].len, es);
    }
}
#endif

#undef PR_CAT_
#undef PR_CAT
