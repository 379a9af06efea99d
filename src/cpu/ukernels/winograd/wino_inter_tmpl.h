/* The inter kernel (wino_ukernels.h: output tiles' columns back into rows of y) of one
 * transform set, included by wino4x3_tmpl.h and wino4x5_tmpl.h after they define UK_T
 * and UK_NAME(op). Plain C over whole tiles (restrict rows: gcc interleaves the four
 * rows with vector permutes at the file's ISA), then the 1 to 3 columns of a cut last
 * tile; the f32 AVX-512 files define UK_INTER_F32_AVX512 for a masked version
 * (wino_inter_avx512.h). alpha * s first, then + beta * d: the same two roundings in
 * every version (no FMA contraction under -std=c11). */

void UK_NAME(inter)(size_t n, size_t nrow, const UK_T *restrict s, ptrdiff_t ss,
                    UK_T *restrict d, ptrdiff_t drs, UK_T alpha, UK_T beta)
{
#ifdef UK_INTER_F32_AVX512
    pdnn_wino_inter_f32_avx512(n, nrow, s, ss, d, drs, alpha, beta);
#else
    const size_t nf = n / 4;
    for (size_t i = 0; i < nrow; i++) {
        const UK_T *restrict s0 = s + 4 * (ptrdiff_t)i * ss, *restrict s1 = s0 + ss;
        const UK_T *restrict s2 = s0 + 2 * ss, *restrict s3 = s0 + 3 * ss;
        UK_T *restrict di = d + (ptrdiff_t)i * drs;
        if (beta == 0) {
            for (size_t l = 0; l < nf; l++) {
                di[4 * l] = alpha * s0[l];
                di[4 * l + 1] = alpha * s1[l];
                di[4 * l + 2] = alpha * s2[l];
                di[4 * l + 3] = alpha * s3[l];
            }
        } else {
            for (size_t l = 0; l < nf; l++) {
                di[4 * l] = alpha * s0[l] + beta * di[4 * l];
                di[4 * l + 1] = alpha * s1[l] + beta * di[4 * l + 1];
                di[4 * l + 2] = alpha * s2[l] + beta * di[4 * l + 2];
                di[4 * l + 3] = alpha * s3[l] + beta * di[4 * l + 3];
            }
        }
        for (size_t k = 4 * nf; k < n; k++) {
            const UK_T r = alpha * s0[(ptrdiff_t)(k % 4) * ss + (ptrdiff_t)nf];
            di[k] = beta == 0 ? r : r + beta * di[k];
        }
    }
#endif
}
