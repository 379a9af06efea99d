/* Stride-2 row packer (pack_s2.h), AVX-512, by gathers: a panel row is four 16-lane
 * gathers at lane offsets that are the same for every tap (lane l of run r: the run's
 * row plus its column col + 2 (l - j0)), from the tap's own origin, masked to the lanes
 * whose rows and columns lie inside x (the padding loads nothing: zero). The masks
 * depend on the tap's spatial offsets only: computed once per tap class.
 *
 * Measured (one panel of 64 lanes x 1152 taps, 3 x 3 stride 2, rows in L2): 18 ns a
 * panel row, flat in the output width (28, 14, 7 lanes a run). Copying each run with
 * two loads and a permute per 16 lanes cost 17-35 ns (more for short runs: per-run
 * bookkeeping, masked loads and stores at the rows' ends), dealing each run's rows into
 * an L1 buffer and copying from it 22 ns. */
#include <immintrin.h>
#include <stdbool.h>

#include "cpu/ukernels/pack/pack_s2.h"

#define S2_VECS 4 /* 64 lanes */
#define S2_LIM (INT32_MAX / 2) /* lane values kept in 32 bits: sums of two stay there */

typedef struct {
    bool used;
    __mmask16 m[S2_VECS];
} s2_masks;

static inline bool small(int64_t v) { return v >= -S2_LIM && v <= S2_LIM; }

PDNN_F32_PACK_S2_UKERNEL(pdnn_f32_pack_s2__avx512)
{
    const int nv = (int)((nr + 15) / 16);
    /* per lane: its x offset from run 0's origin row, its column and outer rows (lanes
     * past nvalid: masked off) */
    _Alignas(64) int32_t off[S2_VECS * 16], col[S2_VECS * 16], r0[S2_VECS * 16],
        r1[S2_VECS * 16];
    const int64_t b0 = nrun > 0 ? runs[0].base : 0;
    bool fits = small(w) && small(h[0]) && small(h[1]) && small(xc);
    for (int l = 0; l < nv * 16; l++) off[l] = col[l] = r0[l] = r1[l] = 0;
    for (int r = 0; r < nrun; r++)
        for (int64_t l = 0; l < runs[r].len; l++) {
            const int64_t j = runs[r].j0 + l, c = runs[r].col + 2 * l;
            int64_t o = 0;
            fits = fits && small(c) && small(runs[r].row[0]) && small(runs[r].row[1]) &&
                   !__builtin_mul_overflow(c, xc, &o) && !__builtin_add_overflow(o, runs[r].base - b0, &o) &&
                   small(o);
            off[j] = (int32_t)o;
            col[j] = (int32_t)c;
            r0[j] = (int32_t)runs[r].row[0];
            r1[j] = (int32_t)runs[r].row[1];
        }
    if (!fits) { /* a panel across more than 32 bits of offsets: the plain packer */
        pdnn_f32_pack_s2__scalar(ntap, taps, x, xc, h, w, nrun, runs, nvalid, nr, dst);
        return;
    }
    __m512i vo[S2_VECS], vc[S2_VECS], v0[S2_VECS], v1[S2_VECS];
    __mmask16 vin[S2_VECS]; /* lanes < nvalid */
    for (int v = 0; v < nv; v++) {
        vo[v] = _mm512_load_si512(off + 16 * v);
        vc[v] = _mm512_load_si512(col + 16 * v);
        v0[v] = _mm512_load_si512(r0 + 16 * v);
        v1[v] = _mm512_load_si512(r1 + 16 * v);
        const int64_t k = nvalid - 16 * v;
        vin[v] = (__mmask16)(k >= 16 ? 0xFFFFu : k <= 0 ? 0u : (1u << k) - 1u);
    }
    const bool full = nr == 16 * S2_VECS;
    const __mmask16 last = (__mmask16)(nr % 16 ? (1u << (nr % 16)) - 1u : 0xFFFFu);
    s2_masks tab[PDNN_PACK_S2_CLASSES], spare;
    for (int i = 0; i < PDNN_PACK_S2_CLASSES; i++) tab[i].used = false;
    const __m512 z = _mm512_setzero_ps();
    const __m512i vw = _mm512_set1_epi32((int32_t)w), vh0 = _mm512_set1_epi32((int32_t)h[0]),
                  vh1 = _mm512_set1_epi32((int32_t)h[1]);
    for (int64_t t = 0; t < ntap; t++) {
        const pdnn_pack_s2_tap *tp = &taps[t];
        /* the tap's masks: its class's, or computed (lanes whose row and column, offset
         * by the tap's, lie inside x) and kept for the class */
        s2_masks *e = tp->cls >= 0 && tp->cls < PDNN_PACK_S2_CLASSES ? &tab[tp->cls] : &spare;
        if (e == &spare || !e->used) {
            if (!small(tp->col) || !small(tp->row[0]) || !small(tp->row[1]) ||
                !small(tp->col * xc)) {
                /* offsets past 32 bits: this tap by the plain packer */
                pdnn_f32_pack_s2__scalar(1, tp, x, xc, h, w, nrun, runs, nvalid, nr, dst + t * nr);
                continue;
            }
            e->used = true;
            const __m512i tc = _mm512_set1_epi32((int32_t)tp->col),
                          t0 = _mm512_set1_epi32((int32_t)tp->row[0]),
                          t1 = _mm512_set1_epi32((int32_t)tp->row[1]);
            for (int v = 0; v < nv; v++)
                e->m[v] = (__mmask16)(vin[v] &
                                      _mm512_cmplt_epu32_mask(_mm512_add_epi32(vc[v], tc), vw) &
                                      _mm512_cmplt_epu32_mask(_mm512_add_epi32(v1[v], t1), vh1) &
                                      _mm512_cmplt_epu32_mask(_mm512_add_epi32(v0[v], t0), vh0));
        }
        /* the origin of the lane offsets, formed in integers (it may lie outside x; only
         * the lanes inside it are loaded) */
        const float *b =
            (const float *)((uintptr_t)x +
                            (uintptr_t)((b0 + tp->off + tp->col * xc) * (int64_t)sizeof(float)));
        float *d = dst + t * nr;
        if (full) {
            _mm512_storeu_ps(d, _mm512_mask_i32gather_ps(z, e->m[0], vo[0], b, 4));
            _mm512_storeu_ps(d + 16, _mm512_mask_i32gather_ps(z, e->m[1], vo[1], b, 4));
            _mm512_storeu_ps(d + 32, _mm512_mask_i32gather_ps(z, e->m[2], vo[2], b, 4));
            _mm512_storeu_ps(d + 48, _mm512_mask_i32gather_ps(z, e->m[3], vo[3], b, 4));
            continue;
        }
        for (int v = 0; v < nv; v++) {
            const __m512 g = _mm512_mask_i32gather_ps(z, e->m[v], vo[v], b, 4);
            if (v + 1 < nv)
                _mm512_storeu_ps(d + 16 * v, g);
            else
                _mm512_mask_storeu_ps(d + 16 * v, last, g);
        }
    }
}
