/* The inter kernel (wino_ukernels.h: output tiles' columns back into a row of y) of one
 * transform set, included by wino4x3_tmpl.h and wino4x5_tmpl.h after they define UK_T
 * and UK_NAME(op). Plain C over whole tiles (restrict rows: gcc interleaves the four
 * rows with vector permutes at the file's ISA), then the 1 to 3 columns of a cut last
 * tile; the f32 AVX-512 files define UK_INTER_F32_AVX512 for a masked version
 * (wino_inter_avx512.h). alpha * s first, then + beta * d: the same two roundings in
 * every version (no FMA contraction under -std=c11). */

void UK_NAME(inter)(size_t n, const UK_T *restrict s, ptrdiff_t ss, UK_T *restrict d,
                    UK_T alpha, UK_T beta)
{
#ifdef UK_INTER_F32_AVX512
    pdnn_wino_inter_f32_avx512(n, s, ss, d, alpha, beta);
#else
    const UK_T *restrict s0 = s, *restrict s1 = s + ss, *restrict s2 = s + 2 * ss;
    const UK_T *restrict s3 = s + 3 * ss;
    const size_t nf = n / 4;
    if (beta == 0) {
        for (size_t l = 0; l < nf; l++) {
            d[4 * l] = alpha * s0[l];
            d[4 * l + 1] = alpha * s1[l];
            d[4 * l + 2] = alpha * s2[l];
            d[4 * l + 3] = alpha * s3[l];
        }
    } else {
        for (size_t l = 0; l < nf; l++) {
            d[4 * l] = alpha * s0[l] + beta * d[4 * l];
            d[4 * l + 1] = alpha * s1[l] + beta * d[4 * l + 1];
            d[4 * l + 2] = alpha * s2[l] + beta * d[4 * l + 2];
            d[4 * l + 3] = alpha * s3[l] + beta * d[4 * l + 3];
        }
    }
    for (size_t k = 4 * nf; k < n; k++) {
        const UK_T r = alpha * s[(ptrdiff_t)(k % 4) * ss + (ptrdiff_t)nf];
        d[k] = beta == 0 ? r : r + beta * d[k];
    }
#endif
}
