/* Run packer and unpacker (pack_runs.h), AVX-512. f32: each run copied in 16-element
 * vectors with one masked vector for its end, and the packed row's empty lanes zeroed by
 * masked stores (no element-by-element tails: runs of a few tens of elements, as in the
 * stems' panels, spent most of their time there); f64: the avx512 build of
 * pack_runs_tmpl.h. Reads and writes nothing past a run. */
#include <immintrin.h>

#include "cpu/ukernels/pack/pack_runs.h"

#define PR_FN pack_runs_tmpl_avx512
#define PR_UNFN unpack_runs_tmpl_avx512
static PDNN_PACK_RUNS_UKERNEL(PR_FN);
static PDNN_UNPACK_RUNS_UKERNEL(PR_UNFN);
#include "cpu/ukernels/pack/pack_runs_tmpl.h"

static inline __mmask16 first(int64_t k) /* the first k lanes, 0 <= k <= 16 */
{
    return (__mmask16)(k >= 16 ? 0xFFFFu : ((1u << k) - 1u));
}

/* len floats from s to d, every vector masked (a full mask costs no more), which also
 * keeps gcc from turning the loop into a memmove call */
static inline void run_f32(float *d, const float *s, int64_t len)
{
    for (int64_t e = 0; e < len; e += 16) {
        const __mmask16 m = first(len - e);
        _mm512_mask_storeu_ps(d + e, m, _mm512_maskz_loadu_ps(m, s + e));
    }
}

PDNN_UNPACK_RUNS_UKERNEL(pdnn_unpack_runs__avx512)
{
    if (es != sizeof(float)) {
        unpack_runs_tmpl_avx512(es, ntap, toff, dst, nrun, runs, nr, src);
        return;
    }
    for (int64_t t = 0; t < ntap; t++) {
        const float *s = (const float *)src + t * nr;
        float *d = (float *)dst + toff[t];
        for (int r = 0; r < nrun; r++) run_f32(d + runs[r].base, s + runs[r].j0, runs[r].len);
    }
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
        for (int r = 0; r < nrun; r++) run_f32(d + runs[r].j0, s + runs[r].base, runs[r].len);
        for (int64_t e = nvalid; e < nr; e += 16)
            _mm512_mask_storeu_ps(d + e, first(nr - e), _mm512_setzero_ps());
    }
}
