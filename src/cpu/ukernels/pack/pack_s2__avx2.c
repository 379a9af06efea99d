/* Stride-2 row packer (pack_s2.h), AVX2. The per (tap, run) work of the plain template
 * (pack_s2_tmpl.h: the rows' test, the first and last lanes inside x's row) is done once
 * per tap class and run, as the classes allow (taps of one class share row and col, so
 * their lanes and column offset are the same; the taps of a panel cycle through a few
 * classes: 9 for a 3 x 3 filter); rows of unit column stride are copied 8 lanes at a time
 * from two loaded vectors (their even elements), or 4 from two half vectors, where the
 * loads stay inside x's row, the rest one by one. Values move unchanged: the bits of
 * the scalar packer. ResNet-50 res3a_branch2b forward (128 -> 128, 56 -> 28, stride 2)
 * on one image, one thread: the packer takes 28% of GEMM's time (33% in the template's
 * form), mostly waiting for x's lines; GEMM 3.80-3.88 -> 3.65-3.72 ms (CPU clock), at
 * minibatch 4 15.4-15.7 -> 14.4-14.6. Prefetching the lines of the taps 4 ahead as
 * well changed nothing measurable (conv_cpu_gemm_fwd.c prefetches the next panel's). */
#include <immintrin.h>
#include <string.h>

#include "cpu/ukernels/pack/pack_s2.h"

/* Classes remembered, runs a class's entry holds. */
#define S2_SLOTS 16
#define S2_RUNS 64

typedef struct {
    int64_t off[S2_RUNS];           /* column offset of lane lo from the tap's row (c0 + 2 lo) */
    int64_t c0[S2_RUNS];            /* run's first column + the tap's */
    uint8_t lo[S2_RUNS], hi[S2_RUNS]; /* lanes [lo, hi) inside x */
} s2_slot;

static void lanes(const pdnn_pack_s2_tap *t, const pdnn_pack_s2_run *r, const int64_t h[2], int64_t w,
                  int64_t *lo, int64_t *hi, int64_t *c0)
{
    *lo = *hi = 0;
    *c0 = r->col + t->col;
    if (pdnn_pack_s2_row_ok(t, r, h)) {
        *lo = *c0 < 0 ? (1 - *c0) / 2 : 0;
        *hi = *c0 < w ? (w - *c0 + 1) / 2 : 0;
        if (*hi > r->len) *hi = r->len;
        if (*lo > *hi) *lo = *hi;
    }
}

/* Lanes [0, len) of dd: zeros before lo, s[2 (l - lo) xc] for lo <= l < hi, zeros from
 * hi; s is lane lo's element, at column c0 + 2 lo of a row w wide. */
static inline void copy_run(float *dd, int64_t len, int64_t lo, int64_t hi, const float *s, int64_t xc,
                            int64_t c0, int64_t w)
{
    int64_t l = 0;
    for (; l < lo; l++) dd[l] = 0.0f;
    if (xc == 1) {
        /* lane l reads column c0 + 2 l; a vector of 8 lanes loads 16 columns */
        for (; l + 8 <= hi && c0 + 2 * l + 15 < w; l += 8, s += 16) {
            const __m256 a = _mm256_loadu_ps(s), b = _mm256_loadu_ps(s + 8);
            const __m256 e = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)); /* a0 a2 b0 b2 a4 a6 b4 b6 */
            _mm256_storeu_ps(dd + l, _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(e),
                                                                             _MM_SHUFFLE(3, 1, 2, 0))));
        }
        for (; l + 4 <= hi && c0 + 2 * l + 7 < w; l += 4, s += 8)
            _mm_storeu_ps(dd + l, _mm_shuffle_ps(_mm_loadu_ps(s), _mm_loadu_ps(s + 4), _MM_SHUFFLE(2, 0, 2, 0)));
        for (; l < hi; l++, s += 2) dd[l] = *s;
    } else {
        for (; l < hi; l++, s += 2 * xc) dd[l] = *s;
    }
    for (; l < len; l++) dd[l] = 0.0f;
}

PDNN_F32_PACK_S2_UKERNEL(pdnn_f32_pack_s2__avx2)
{
    s2_slot slots[S2_SLOTS];
    int8_t slot_of[PDNN_PACK_S2_CLASSES];
    memset(slot_of, -1, sizeof slot_of);
    int nslot = 0;
    const int cache = nrun <= S2_RUNS;
    for (int64_t t = 0; t < ntap; t++) {
        float *d = dst + t * nr;
        const int64_t cls = taps[t].cls;
        int s = -1;
        if (cache && cls >= 0 && cls < PDNN_PACK_S2_CLASSES) {
            s = slot_of[cls];
            if (s < 0 && nslot < S2_SLOTS) { /* the class's lanes, once */
                s = nslot++;
                slot_of[cls] = (int8_t)s;
                for (int r = 0; r < nrun; r++) {
                    int64_t lo, hi, c0;
                    lanes(&taps[t], &runs[r], h, w, &lo, &hi, &c0);
                    slots[s].lo[r] = (uint8_t)lo;
                    slots[s].hi[r] = (uint8_t)hi;
                    slots[s].c0[r] = c0;
                    slots[s].off[r] = (c0 + 2 * lo) * xc;
                }
            }
        }
        for (int r = 0; r < nrun; r++) {
            int64_t lo, hi, c0, off;
            if (s >= 0) {
                lo = slots[s].lo[r], hi = slots[s].hi[r], c0 = slots[s].c0[r], off = slots[s].off[r];
            } else {
                lanes(&taps[t], &runs[r], h, w, &lo, &hi, &c0);
                off = (c0 + 2 * lo) * xc;
            }
            /* the source only for lanes inside x (a run's rows may lie far outside) */
            copy_run(d + runs[r].j0, runs[r].len, lo, hi, hi > lo ? x + runs[r].base + taps[t].off + off : x,
                     xc, c0, w);
        }
        for (int64_t l = nvalid; l < nr; l++) d[l] = 0.0f;
    }
}
