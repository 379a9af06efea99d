/* The deint kernel (wino_ukernels.h) of one transform set, included by wino4x3_tmpl.h
 * and wino4x5_tmpl.h after they define UK_T, UK_NAME(op) and UK_ALPHA (the tile's
 * points: 6 or 8). One loop over lanes writing every output row (restrict pointers):
 * with the window step a compile-time 4, gcc turns the strided loads into whole-vector
 * loads and lane permutes at the file's ISA (runs of 16 lanes or more; the f32 AVX-512
 * files define UK_DEINT_F32_AVX512 for a masked version, wino_deint_avx512.h). */

void UK_NAME(deint)(size_t n, const UK_T *restrict s, ptrdiff_t ss, UK_T *restrict d,
                    ptrdiff_t ds)
{
#ifdef UK_DEINT_F32_AVX512
    if (ss == 4) {
        pdnn_wino_deint_f32_avx512(n, s, d, ds, UK_ALPHA);
        return;
    }
#endif
    UK_T *restrict d0 = d, *restrict d1 = d + ds, *restrict d2 = d + 2 * ds;
    UK_T *restrict d3 = d + 3 * ds, *restrict d4 = d + 4 * ds, *restrict d5 = d + 5 * ds;
#if UK_ALPHA == 8
    UK_T *restrict d6 = d + 6 * ds, *restrict d7 = d + 7 * ds;
#define UK_DEINT_MORE(st) d6[l] = s[(st) * l + 6], d7[l] = s[(st) * l + 7]
#else
#define UK_DEINT_MORE(st) (void)0
#endif
#define UK_DEINT(st)                                                                       \
    for (size_t l = 0; l < n; l++) {                                                       \
        d0[l] = s[(st) * l];                                                               \
        d1[l] = s[(st) * l + 1];                                                           \
        d2[l] = s[(st) * l + 2];                                                           \
        d3[l] = s[(st) * l + 3];                                                           \
        d4[l] = s[(st) * l + 4];                                                           \
        d5[l] = s[(st) * l + 5];                                                           \
        UK_DEINT_MORE(st);                                                                 \
    }
    if (ss == 4) {
        UK_DEINT(4)
    } else {
        const size_t st = (size_t)ss;
        UK_DEINT(st)
    }
#undef UK_DEINT
#undef UK_DEINT_MORE
}

/* deintz (wino_ukernels.h): the run's a window rows, the elements outside rows
 * [r0, r1) and columns [lo, hi) read as zeros. Plain C: per row, chunks of up to 64
 * lanes copied into a zero-padded row, then dealt as deint does; the f32 AVX-512 files
 * use masked loads instead (no copy). */
void UK_NAME(deintz)(size_t n, const UK_T *restrict s, ptrdiff_t rs, ptrdiff_t r0,
                     ptrdiff_t r1, ptrdiff_t lo, ptrdiff_t hi, UK_T *restrict d, ptrdiff_t ds)
{
#ifdef UK_DEINT_F32_AVX512
    pdnn_wino_deintz_f32_avx512(n, s, rs, r0, r1, lo, hi, d, ds, UK_ALPHA);
#else
    enum { CL = 64 };
    UK_T row[4 * CL + UK_ALPHA - 4];
    for (ptrdiff_t i = 0; i < UK_ALPHA; i++) {
        UK_T *restrict di = d + UK_ALPHA * i * ds;
        const int in = i >= r0 && i < r1;
        for (size_t l0 = 0; l0 < n; l0 += CL) {
            const size_t m = n - l0 < CL ? n - l0 : CL;
            const ptrdiff_t j0 = 4 * (ptrdiff_t)l0, nj = 4 * (ptrdiff_t)m + UK_ALPHA - 4;
            for (ptrdiff_t j = 0; j < nj; j++) {
                const ptrdiff_t jj = j0 + j;
                row[j] = in && jj >= lo && jj < hi ? s[(i - r0) * rs + jj - lo] : (UK_T)0;
            }
            UK_NAME(deint)(m, row, 4, di + l0, ds);
        }
    }
#endif
}
