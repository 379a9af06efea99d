/* Body of the run packers (pack_runs.h), plain C compiled once per ISA by
 * pack_runs__<isa>.c after it defines PR_FN: the fixed-size block copies become
 * single vector moves of the file's ISA. */
#include <string.h>

PDNN_PACK_RUNS_UKERNEL(PR_FN)
{
    const int64_t row = nr * (int64_t)es;
    const char *s0 = src;
    char *d0 = dst;
    for (int64_t t = 0; t < ntap; t++) {
        char *d = d0 + t * row;
        const char *s = s0 + toff[t] * (int64_t)es;
        for (int r = 0; r < nrun; r++) {
            const int64_t bytes = runs[r].len * (int64_t)es, at = runs[r].j0 * (int64_t)es;
            char *dd = d + at;
            const char *ss = s + runs[r].base * (int64_t)es;
            int64_t b = 0;
            for (; b + 64 <= bytes; b += 64) memcpy(dd + b, ss + b, 64);
            if (b < bytes) { /* the run's end: element by element (nothing read past it) */
                if (es == sizeof(float))
                    for (int64_t e = b / 4; e < bytes / 4; e++)
                        ((float *)dd)[e] = ((const float *)ss)[e];
                else
                    for (int64_t e = b / 8; e < bytes / 8; e++)
                        ((double *)dd)[e] = ((const double *)ss)[e];
            }
        }
        for (int64_t b = nvalid * (int64_t)es; b < row; b++) d[b] = 0;
    }
}
