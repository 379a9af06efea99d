/* Channel-vector direct convolution, column stride 1 or 2, AVX-512F (kvec_ukernels.h):
 * one body, specialized for every stride and tile (pixels np, vectors nv) so that the
 * accumulators stay in registers and the broadcasts' offsets are constants. */
#include <immintrin.h>
#include <stdint.h>

#include "cpu/ukernels/kvec/kvec_ukernels.h"
#include "cpu/ukernels/transpose/transpose16_avx512.h"

#define KV_UNROLL _Pragma("GCC unroll 16")

static inline __attribute__((always_inline)) void
kv_body(const int XS, const int NP, const int NV, size_t nc, size_t ntap, const float *x,
        ptrdiff_t cs, const ptrdiff_t *toff, const unsigned char *tcls, const float *w,
        float *acc, ptrdiff_t as, int first, const ptrdiff_t *pfo, size_t npf)
{
    __m512 s[PDNN_KVEC_PX2][4];
    KV_UNROLL for (int i = 0; i < NP; i++) KV_UNROLL for (int v = 0; v < NV; v++)
        s[i][v] = first ? _mm512_setzero_ps() : _mm512_loadu_ps(acc + i * as + v * 16);
    for (size_t c = 0; c < nc; c++, x += cs) {
        for (size_t j = 0; j < npf; j++)
            _mm_prefetch((const char *)(x + PDNN_KVEC_PFD * cs + pfo[j]), _MM_HINT_T0);
        for (size_t j = 0; j < ntap; j++, w += 16 * NV) {
            /* the tap's class: the same for every channel, so the branches are taken
             * the same way each channel */
            const unsigned cl = tcls[j];
            if (cl & PDNN_KVEC_SKIP_TAP) continue;
            const float *xp = x + toff[j];
            __m512 wv[4];
            KV_UNROLL for (int v = 0; v < NV; v++) wv[v] = _mm512_loadu_ps(w + 16 * v);
            KV_UNROLL for (int i = 0; i < NP; i++) {
                if (i == 0 && (cl & PDNN_KVEC_SKIP_FIRST)) continue;
                if (i == NP - 1 && (cl & PDNN_KVEC_SKIP_LAST)) continue;
                const __m512 b = _mm512_set1_ps(xp[XS * i]);
                KV_UNROLL for (int v = 0; v < NV; v++)
                    s[i][v] = _mm512_fmadd_ps(b, wv[v], s[i][v]);
            }
        }
    }
    KV_UNROLL for (int i = 0; i < NP; i++) KV_UNROLL for (int v = 0; v < NV; v++)
        _mm512_storeu_ps(acc + i * as + v * 16, s[i][v]);
}

#define KV_ARGS nc, ntap, x, cs, toff, tcls, w, acc, as, first, pfo, npf
#define KV_CASE2(S, n) case n: kv_body(S, n, 2, KV_ARGS); return;
#define KV_CASE4(S, n) case n: kv_body(S, n, 4, KV_ARGS); return;
/* The tiles of column stride S. */
#define KV_TILES(S)                                                                        \
    if (nv == 2) {                                                                         \
        switch (np) {                                                                      \
            KV_CASE2(S, 1) KV_CASE2(S, 2) KV_CASE2(S, 3) KV_CASE2(S, 4) KV_CASE2(S, 5)     \
            KV_CASE2(S, 6) KV_CASE2(S, 7) KV_CASE2(S, 8) KV_CASE2(S, 9) KV_CASE2(S, 10)    \
            KV_CASE2(S, 11) KV_CASE2(S, 12) KV_CASE2(S, 13) KV_CASE2(S, 14)                \
        default: return;                                                                   \
        }                                                                                  \
    }                                                                                      \
    if (nv == 4) {                                                                         \
        switch (np) {                                                                      \
            KV_CASE4(S, 1) KV_CASE4(S, 2) KV_CASE4(S, 3) KV_CASE4(S, 4) KV_CASE4(S, 5)     \
            KV_CASE4(S, 6) KV_CASE4(S, 7)                                                  \
        default: return;                                                                   \
        }                                                                                  \
    }

void pdnn_f32_kvec_s1__avx512(size_t np, size_t nv, size_t nc, size_t ntap, const float *x,
                              ptrdiff_t cs, const ptrdiff_t *toff, const unsigned char *tcls,
                              const float *w, float *acc, ptrdiff_t as, int first,
                              const ptrdiff_t *pfo, size_t npf)
{
    KV_TILES(1)
}

void pdnn_f32_kvec_s2__avx512(size_t np, size_t nv, size_t nc, size_t ntap, const float *x,
                              ptrdiff_t cs, const ptrdiff_t *toff, const unsigned char *tcls,
                              const float *w, float *acc, ptrdiff_t as, int first,
                              const ptrdiff_t *pfo, size_t npf)
{
    KV_TILES(2)
}

void pdnn_f32_kvec_store__avx512(size_t np, size_t nk, const float *t, ptrdiff_t ldt, float *y,
                                 ptrdiff_t ldy, float alpha, float beta, int stream)
{
    stream = stream && beta == 0.0f;
    const __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);
    for (size_t i0 = 0; i0 < np; i0 += 16)
        for (size_t k0 = 0; k0 < nk; k0 += 16) {
            const size_t ni = np - i0 < 16 ? np - i0 : 16;
            const size_t nj = nk - k0 < 16 ? nk - k0 : 16;
            const float *s = t + (ptrdiff_t)i0 * ldt + (ptrdiff_t)k0;
            float *d = y + (ptrdiff_t)k0 * ldy + (ptrdiff_t)i0;
            const __mmask16 mi = pdnn_lane_mask16__avx512(ni);
            __m512 c[16];
            pdnn_transpose16x16_load__avx512(s, ldt, ni, nj, c);
            for (size_t j = 0; j < nj; j++) {
                float *dj = d + (ptrdiff_t)j * ldy;
                __m512 v = _mm512_mul_ps(va, c[j]);
                if (beta != 0.0f)
                    v = _mm512_add_ps(v, _mm512_mul_ps(vb, _mm512_maskz_loadu_ps(mi, dj)));
                if (stream && ni == 16 && ((uintptr_t)dj & 63) == 0)
                    _mm512_stream_ps(dj, v);
                else
                    _mm512_mask_storeu_ps(dj, mi, v);
            }
        }
}
