/* The f32 NCHW fast paths of "cpu:direct_dw" (conv_cpu_direct_dw.c), one interface: each
 * path has one function per direction (indexed by pdnn_conv_dir) taking the direction's
 * src, wei and dst (conv_problem.h's pdnn_conv_args order) that returns false, touching
 * nothing, when the problem is outside the path's set, and (for tests) a predicate
 * saying whether it would run. */
#ifndef PDNN_CONV_CPU_DIRECT_DW_PATH_H
#define PDNN_CONV_CPU_DIRECT_DW_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ops/conv/conv_problem.h"

typedef bool (*pdnn_dw_path_fn)(const pdnn_conv_problem *p, const float *src, const float *wei,
                                float *dst, float alpha, float beta, int nthreads);

typedef struct {
    bool (*applies)(const pdnn_conv_problem *p); /* NULL: not offered */
    pdnn_dw_path_fn run[3]; /* FWD, BWD_DATA, BWD_FILTER; NULL: direction not served */
} pdnn_dw_path;

/* Runs p->dir of path on the arguments a; false when the path refuses the problem or
 * does not serve the direction. */
static inline bool pdnn_dw_path_run(const pdnn_dw_path *path, const pdnn_conv_problem *p,
                                    const pdnn_conv_args *a, int nthreads)
{
    return path->run[p->dir] && path->run[p->dir](p, a->src, a->wei, a->dst, (float)a->alpha,
                                                  (float)a->beta, nthreads);
}

/* ---- what the paths share around their kernels */

/* Offset within a channel's filter of tap (r1, r2) of the cross-correlation (the filter
 * flipped for PDNN_CONVOLUTION). */
static inline int64_t pdnn_dw_tap_off(const pdnn_conv_problem *p, const pdnn_conv_geom3 *G,
                                      int64_t r1, int64_t r2)
{
    if (p->flip) {
        r1 = G->kern[1] - 1 - r1;
        r2 = G->kern[2] - 1 - r2;
    }
    return r1 * G->ws[3] + r2 * G->ws[4];
}

/* The taps at offsets wo[0 .. T) of channels c .. c + np - 1 (channels ws0 apart): in
 * place when they lie back to back in tap order (seq: *wcs = ws0), else gathered into wb
 * (np * T floats; *wcs = T). */
static inline const float *pdnn_dw_taps(const float *w, int64_t ws0, int64_t c, int64_t np,
                                        const int64_t *wo, int64_t T, bool seq, float *wb,
                                        ptrdiff_t *wcs)
{
    if (seq) {
        *wcs = (ptrdiff_t)ws0;
        return w + c * ws0;
    }
    for (int64_t q = 0; q < np; q++)
        for (int64_t t = 0; t < T; t++) wb[q * T + t] = w[(c + q) * ws0 + wo[t]];
    *wcs = (ptrdiff_t)T;
    return wb;
}

/* The 16 floats at a summed in a fixed tree (lanes l, l + 8, then l + 4, ...). */
static inline float pdnn_dw_lanesum16(const float *a)
{
    float b[8];
    for (int l = 0; l < 8; l++) b[l] = a[l] + a[l + 8];
    for (int l = 0; l < 4; l++) b[l] = b[l] + b[l + 4];
    return (b[0] + b[2]) + (b[1] + b[3]);
}

/* A channel's filter gradient from its tap sums (sum[t * ss] for the tap at offset wo[t],
 * t < T): dwc[wo[t]] = alpha * sum + beta * dwc[wo[t]], dwc never read when beta == 0. */
static inline void pdnn_dw_blend_taps(float *dwc, const int64_t *wo, int64_t T,
                                      const float *sum, int64_t ss, float alpha, float beta)
{
    for (int64_t t = 0; t < T; t++) {
        float *o = dwc + wo[t];
        float v = alpha * sum[t * ss];
        if (beta != 0) {
            const float b = beta * *o;
            v = v + b;
        }
        *o = v;
    }
}

/* pdnn_dw_blend_taps for np consecutive channels (filters ws0 apart, channel q's sums at
 * sum[q T]): where their taps lie back to back in tap order (seq) and the filters too
 * (ws0 == T), one pass over the np T floats, else channel by channel. */
static inline void pdnn_dw_blend_block(float *dw, int64_t ws0, const int64_t *wo, int64_t T,
                                       bool seq, int64_t np, const float *sum, float alpha,
                                       float beta)
{
    if (seq && ws0 == T) {
        const int64_t n = np * T;
        if (beta == 0)
            for (int64_t i = 0; i < n; i++) dw[i] = alpha * sum[i];
        else
            for (int64_t i = 0; i < n; i++) {
                const float v = alpha * sum[i], b = beta * dw[i];
                dw[i] = v + b;
            }
        return;
    }
    for (int64_t q = 0; q < np; q++)
        pdnn_dw_blend_taps(dw + q * ws0, wo, T, sum + q * T, 1, alpha, beta);
}

#endif
