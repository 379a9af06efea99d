/* Run packer (pack_runs.h), AVX-512. f32: each run copied in 16-element vectors with one
 * masked vector for its end, and the row's empty lanes zeroed by masked stores (no
 * element-by-element tails: runs of a few tens of elements, as in the stems' panels,
 * spent most of their time there); f64: the avx512 build of pack_runs_tmpl.h. Reads
 * nothing past a run. */
#include <immintrin.h>

#include "cpu/ukernels/pack/pack_runs.h"

#define PR_FN pack_runs_tmpl_avx512
static PDNN_PACK_RUNS_UKERNEL(PR_FN);
#include "cpu/ukernels/pack/pack_runs_tmpl.h"

static inline __mmask16 first(int64_t k) /* the first k lanes, 0 <= k <= 16 */
{
    return (__mmask16)(k >= 16 ? 0xFFFFu : ((1u << k) - 1u));
}

PDNN_PACK_RUNS_UKERNEL(pdnn_pack_runs__avx512)
{
    if (es != sizeof(float)) {
        pack_runs_tmpl_avx512(es, ntap, toff, src, nrun, runs, nvalid, nr, dst);
        return;
    }
    const float *s0 = src;
    float *d0 = dst;
    for (int64_t t = 0; t < ntap; t++) {
        float *d = d0 + t * nr;
        const float *s = s0 + toff[t];
        for (int r = 0; r < nrun; r++) {
            const int64_t len = runs[r].len;
            float *dd = d + runs[r].j0;
            const float *ss = s + runs[r].base;
            /* every vector masked (a full mask costs no more), which also keeps gcc from
             * turning the loop into a memmove call */
            for (int64_t e = 0; e < len; e += 16) {
                const __mmask16 m = first(len - e);
                _mm512_mask_storeu_ps(dd + e, m, _mm512_maskz_loadu_ps(m, ss + e));
            }
        }
        for (int64_t e = nvalid; e < nr; e += 16)
            _mm512_mask_storeu_ps(d + e, first(nr - e), _mm512_setzero_ps());
    }
}
