/* Type-generic body of the depthwise convolutions (conv_cpu_direct_dw.c), included once
 * per element type with DT (float or double) and DS (the name suffix). Each output is a
 * sum in DT in a fixed order (taps in spatial order, then pixels), blended with the
 * micro-kernels' epilogue: v = alpha * acc, then v + beta * out (out unread when
 * beta == 0). Vector blocks and scalar border elements add the same terms in the same
 * order, so the interior/border split changes no bit. */

#define DCAT_(a, b) a##_##b
#define DCAT(a, b) DCAT_(a, b)
#define DN(n) DCAT(n, DS)

static inline void DN(blend)(DT *o, DT acc, DT alpha, DT beta)
{
    DT v = alpha * acc;
    if (beta != 0) {
        DT u = beta * *o;
        v = v + u;
    }
    *o = v;
}

/* o[j] = blend(o[j], acc[j]) for j < n, unit strides. */
static inline void DN(blend_row)(DT *restrict o, const DT *restrict acc, int64_t n, DT alpha,
                                 DT beta)
{
    if (beta != 0)
        for (int64_t j = 0; j < n; j++) {
            DT v = alpha * acc[j], u = beta * o[j];
            o[j] = v + u;
        }
    else
        for (int64_t j = 0; j < n; j++) o[j] = alpha * acc[j];
}

/* ---- rows (any layout; the micro-kernels along the last spatial dim where x and y
 * have unit strides there) */

/* Output o of a tap list, bounds-checked (border elements and general strides): the
 * same terms in the same order as the micro-kernel. */
static inline DT DN(tap_sum)(const DT *const *tp, const int64_t *te, const DT *tw, int nt,
                             int64_t xs, int64_t st, int64_t o, int64_t in)
{
    DT acc = 0;
    for (int t = 0; t < nt; t++) {
        const int64_t i = o * st + te[t];
        if (i >= 0 && i < in) acc += tw[t] * tp[t][i * xs];
    }
    return acc;
}

/* One row: element o = sum_t tw[t] * tp[t][(o * st + te[t]) * xs] over the taps inside
 * the row; [lo, hi) is the range where all are (clipped here). */
static void DN(row)(const DUK *uk, DT *yr, int64_t ys, const DT *const *tp, const int64_t *te,
                    const DT *tw, int nt, int64_t xs, int64_t st, int64_t out, int64_t in,
                    int64_t lo, int64_t hi, DT alpha, DT beta)
{
    if (xs != 1 || ys != 1) {
        for (int64_t o = 0; o < out; o++)
            DN(blend)(yr + o * ys, DN(tap_sum)(tp, te, tw, nt, xs, st, o, in), alpha, beta);
        return;
    }
    if (lo > out) lo = out;
    if (hi > out) hi = out;
    if (hi < lo) hi = lo;
    for (int64_t o = 0; o < lo; o++)
        DN(blend)(yr + o, DN(tap_sum)(tp, te, tw, nt, 1, st, o, in), alpha, beta);
    if (hi > lo) {
        const DT *xt[DW_TAPS_MAX];
        for (int t = 0; t < nt; t++) xt[t] = tp[t] + (lo * st + te[t]);
        uk->row((size_t)(hi - lo), (size_t)nt, xt, tw, (size_t)st, yr + lo, alpha, beta);
    }
    for (int64_t o = hi; o < out; o++)
        DN(blend)(yr + o, DN(tap_sum)(tp, te, tw, nt, 1, st, o, in), alpha, beta);
}

/* ---- planes (1-d and 2-d, unit column stride): zero-padded strips
 *
 * out[o1][o2] = sum over inputs q < nq and taps (r1, r2) of wt[q][r1][r2] *
 * in_q[o1 s1 + r1 d1 - p1][o2 s2 + r2 d2 - p2], zero outside the H x W input. A strip
 * of input rows is copied into a zero-padded buffer of pitch PW (a multiple of s2:
 * column j holds input column j - p2; p may be negative, a crop; at s2 > 1 the columns
 * of a row are stored by phase, column j at (j % s2) EW + j / s2, so that every tap
 * reads consecutive elements); the micro-kernel then runs whole vectors over
 * EW = PW / s2 >= OW columns per output row into a row buffer (the columns past OW are
 * junk, never stored), or, at stride 1, over the whole strip as one flat row (the tap
 * offsets r1 d1 PW + r2 d2 fixed). Padding taps add w * 0. */

typedef struct {
    int nq, kh, kw;
    int64_t dh, dw, sh, sw, ph, pw; /* dilation, stride, padding before (any sign) */
    int64_t H, W, in_rs;            /* input planes: rows, columns, row stride */
    int64_t OH, OW, out_rs;
} DN(plane);

/* Strip buffers on the stack. */
#define DW_IN_BYTES ((size_t)48 << 10)
#define DW_OUT_BYTES ((size_t)16 << 10)
#define DW_SLACK_BLOCK 32 /* outputs of the largest micro-kernel block */

/* Output rows per strip (0: one row does not fit, the caller uses another path). */
static int64_t DN(plane_rows)(const DN(plane) *P, int64_t PW, int64_t EW, bool flat)
{
    const int64_t in_cap = (int64_t)(DW_IN_BYTES / sizeof(DT)), out_cap = (int64_t)(DW_OUT_BYTES / sizeof(DT));
    const int64_t slack = DW_SLACK_BLOCK * P->sw + (P->kw - 1) * P->dw + PW + 1;
    for (int64_t sr = P->OH; sr >= 1; sr = sr > 1 ? (sr + 1) / 2 - (sr == 2) : 0) {
        const int64_t ir = (sr - 1) * P->sh + (P->kh - 1) * P->dh + 1;
        const int64_t need_out = flat ? sr * EW + DW_SLACK_BLOCK : EW + DW_SLACK_BLOCK;
        if (P->nq * ir * PW + slack <= in_cap && need_out <= out_cap) return sr;
        if (sr == 1) break;
    }
    return 0;
}

/* Input rows a * sh - ph .. of every input into the strip buffer ib (ir rows of data,
 * zero rows up to ir_max), zero-padded, phase layout at sw > 1. */
static void DN(plane_fill)(const DN(plane) *P, const DT *const *in, int64_t a, int64_t ir,
                           int64_t ir_max, int64_t PW, int64_t EW, DT *ib)
{
    const int64_t qs = ir_max * PW;
    const int64_t c0 = P->pw > 0 ? P->pw : 0, c1 = P->W + P->pw < PW ? P->W + P->pw : PW;
    for (int q = 0; q < P->nq; q++)
        for (int64_t r = 0; r < ir_max; r++) {
            DT *dst = ib + q * qs + r * PW;
            const int64_t row = a * P->sh - P->ph + r;
            if (r >= ir || row < 0 || row >= P->H || c0 >= c1) {
                for (int64_t j = 0; j < PW; j++) dst[j] = 0;
                continue;
            }
            const DT *src = in[q] + row * P->in_rs; /* column j reads src[j - pw] */
            if (P->sw > 1) { /* column j = ph + i sw at ph * EW + i */
                for (int64_t ph = 0; ph < P->sw; ph++) {
                    DT *dp = dst + ph * EW;
                    const int64_t ilo = c0 > ph ? (c0 - ph + P->sw - 1) / P->sw : 0;
                    const int64_t ihi = c1 > ph ? (c1 - ph + P->sw - 1) / P->sw : 0;
                    int64_t i = 0;
                    for (; i < ilo; i++) dp[i] = 0;
                    for (; i < ihi; i++) dp[i] = src[ph + i * P->sw - P->pw];
                    for (; i < EW; i++) dp[i] = 0;
                }
                continue;
            }
            int64_t j = 0;
            for (; j < c0; j++) dst[j] = 0;
            for (; j < c1; j++) dst[j] = src[j - P->pw];
            for (; j < PW; j++) dst[j] = 0;
        }
}

static bool DN(plane_run)(const DUK *uk, const DN(plane) *P, const DT *const *in, const DT *wt,
                          DT *out, DT alpha, DT beta)
{
    const int64_t span = (P->OW - 1) * P->sw + (P->kw - 1) * P->dw + 1;
    const int64_t PW = (span + P->sw - 1) / P->sw * P->sw, EW = PW / P->sw;
    const bool flat = P->sh == 1 && P->sw == 1;
    const int64_t sr = DN(plane_rows)(P, PW, EW, flat);
    if (sr == 0) return false;
    _Alignas(64) DT ib[DW_IN_BYTES / sizeof(DT)];
    _Alignas(64) DT ob[DW_OUT_BYTES / sizeof(DT)];
    const int ntap = P->nq * P->kh * P->kw;
    const DT *tp[DW_TAPS_MAX];
    const int64_t ir_max = (sr - 1) * P->sh + (P->kh - 1) * P->dh + 1;
    const int64_t qs = ir_max * PW; /* elements per input's strip */
    const int64_t used = P->nq * qs;
    const int64_t slack = DW_SLACK_BLOCK * P->sw + (P->kw - 1) * P->dw + PW + 1;
    for (int64_t j = used; j < used + slack; j++) ib[j] = 0; /* read by junk columns only */
    for (int64_t a = 0; a < P->OH; a += sr) {
        const int64_t b = P->OH - a < sr ? P->OH : a + sr, ir = (b - a - 1) * P->sh + (P->kh - 1) * P->dh + 1;
        DN(plane_fill)(P, in, a, ir, ir_max, PW, EW, ib);
        int t = 0;
        for (int q = 0; q < P->nq; q++)
            for (int r1 = 0; r1 < P->kh; r1++)
                for (int r2 = 0; r2 < P->kw; r2++) /* the phase layout at stride > 1 */
                    tp[t++] = ib + q * qs + r1 * P->dh * PW + (r2 * P->dw) % P->sw * EW +
                              (r2 * P->dw) / P->sw;
        if (flat) {
            const int64_t n = (b - a) * EW;
            uk->row((size_t)((n + DW_SLACK_BLOCK - 1) / DW_SLACK_BLOCK * DW_SLACK_BLOCK),
                    (size_t)ntap, tp, wt, 1, ob, 1, 0);
            for (int64_t o1 = a; o1 < b; o1++)
                DN(blend_row)(out + o1 * P->out_rs, ob + (o1 - a) * EW, P->OW, alpha, beta);
            continue;
        }
        const DT *rp[DW_TAPS_MAX];
        for (int64_t o1 = a; o1 < b; o1++) {
            for (int k = 0; k < ntap; k++) rp[k] = tp[k] + (o1 - a) * P->sh * PW;
            uk->row((size_t)((P->OW + DW_SLACK_BLOCK - 1) / DW_SLACK_BLOCK * DW_SLACK_BLOCK),
                    (size_t)ntap, rp, wt, 1, ob, 1, 0);
            DN(blend_row)(out + o1 * P->out_rs, ob, P->OW, alpha, beta);
        }
    }
    return true;
}

/* ---- phase planes: 1-d and 2-d, unit column strides, one source plane per output plane
 *
 * The source plane (x; dy for backward data) is copied, zero-padded, into sh x sw phase
 * planes of EH rows and pitch EW: padded element (pr, pc) = source (pr - ph, pc - pw)
 * lies in phase (pr % sh, pc % sw) at row pr / sh, column pc / sw. Every tap of a
 * strided output then reads consecutive elements, and a whole band of output rows is
 * one flat run of the micro-kernel (output (o1, o2) at o1 EW + o2; the columns from OW
 * to EW are junk, never stored; padding taps add w * 0 as im2col's zeros do). Bands of
 * about DW_PH_OUT outputs: the source rows a band needs are copied just before it and
 * its outputs stored just after, so loads, arithmetic and stores of a plane overlap. */

#define DW_PH_BYTES ((size_t)160 << 10) /* per-thread stack buffer */
#define DW_PH_OUT 1024                   /* flat outputs per band, about */
#define DW_PH_SMAX 8 /* strides at most */
#define DW_PH_SLACK(EW) ((EW) + 2 * PDNN_DWCONV_FLAT_PAD)

typedef struct {
    int64_t H, W, rs;       /* source plane: rows, columns, row stride */
    int64_t sh, sw, ph, pw; /* phase split and padding before (any sign) */
    int64_t EH, EW;         /* phase plane rows and pitch */
    int64_t e0[DW_PH_SMAX], e1[DW_PH_SMAX]; /* columns [e0, e1) of phase b hold data */
} DN(phs);

/* The data columns of each column phase (set EH and EW first). */
static void DN(phs_cols)(DN(phs) *S)
{
    for (int64_t b = 0; b < S->sw; b++) {
        /* column e of phase b: source j = e sw + b - pw, inside when 0 <= j < W */
        int64_t e0 = dw_cdiv(S->pw - b, S->sw), e1 = dw_cdiv(S->W + S->pw - b, S->sw);
        e0 = e0 < 0 ? 0 : e0 > S->EW ? S->EW : e0;
        e1 = e1 < e0 ? e0 : e1 > S->EW ? S->EW : e1;
        S->e0[b] = e0;
        S->e1[b] = e1;
    }
}

/* Padded rows [pr0, pr1) of the source into the phase planes at buf (plain loops, not
 * memset/memcpy calls: rows are short; conv_cpu_direct_dw.c is compiled with
 * -fno-tree-loop-distribute-patterns, CMakeLists.txt). */
static void DN(ph_fill)(const DN(phs) *S, const DT *src, int64_t pr0, int64_t pr1, DT *restrict buf)
{
    const int64_t PS = S->EH * S->EW, sw = S->sw, EW = S->EW;
    int64_t pa = pr0 % S->sh, pq = pr0 / S->sh; /* phase and row of padded row pr */
    for (int64_t pr = pr0; pr < pr1; pr++, pa = pa + 1 == S->sh ? (pq++, 0) : pa + 1) {
        const int64_t i = pr - S->ph;
        DT *rb = buf + pa * sw * PS + pq * EW;
        if (i < 0 || i >= S->H) {
            for (int64_t b = 0; b < sw; b++)
                for (int64_t e = 0; e < EW; e++) rb[b * PS + e] = 0;
            continue;
        }
        const DT *restrict s = src + i * S->rs;
        dw_prefetch_row(s, S->rs * DW_PF_ROWS, S->W * (int64_t)sizeof(DT), 0);
        for (int64_t b = 0; b < sw; b++) {
            /* column e of phase b: source j = e sw + b - pw, inside when 0 <= j < W */
            DT *restrict dp = rb + b * PS;
            const int64_t e0 = S->e0[b], e1 = S->e1[b];
            int64_t e = 0;
            for (; e < e0; e++) dp[e] = 0;
            const DT *restrict q = s + (b - S->pw);
            if (sw == 1)
                for (; e < e1; e++) dp[e] = q[e];
            else if (sw == 2)
                for (; e < e1; e++) dp[e] = q[2 * e];
            else
                for (; e < e1; e++) dp[e] = q[e * sw];
            for (; e < EW; e++) dp[e] = 0;
        }
    }
}

/* A convolution of one source plane into one output plane. */
typedef struct {
    DN(phs) S;
    int kh, kw;
    int64_t dh, dw;
    int64_t OH, OW, yrs;
    int64_t toff[DW_TAPS_MAX]; /* tap (r1, r2) reads the phase planes from here on */
} DN(phc);

/* false: strides above DW_PH_SMAX. */
static bool DN(phc_init)(DN(phc) *C)
{
    DN(phs) *S = &C->S;
    if (S->sh > DW_PH_SMAX || S->sw > DW_PH_SMAX) return false;
    const int64_t PR = (C->OH - 1) * S->sh + (C->kh - 1) * C->dh + 1;
    const int64_t PW = (C->OW - 1) * S->sw + (C->kw - 1) * C->dw + 1;
    S->EH = dw_cdiv(PR, S->sh);
    S->EW = dw_cdiv(PW, S->sw);
    DN(phs_cols)(S);
    const int64_t PS = S->EH * S->EW;
    for (int r1 = 0, t = 0; r1 < C->kh; r1++)
        for (int r2 = 0; r2 < C->kw; r2++, t++) {
            const int64_t a = r1 * C->dh, b = r2 * C->dw;
            C->toff[t] = ((a % S->sh) * S->sw + b % S->sw) * PS + (a / S->sh) * S->EW + b / S->sw;
        }
    return true;
}

static int64_t DN(phc_rows)(const DN(phc) *C)
{
    const int64_t R = DW_PH_OUT / C->S.EW;
    return R < 1 ? 1 : R > C->OH ? C->OH : R;
}

/* Buffer elements: phase planes, slack, band outputs. */
static int64_t DN(phc_need)(const DN(phc) *C)
{
    const DN(phs) *S = &C->S;
    return S->sh * S->sw * S->EH * S->EW + DW_PH_SLACK(S->EW) + DN(phc_rows)(C) * S->EW +
           PDNN_DWCONV_FLAT_PAD;
}

/* dst = blend(dst, conv(src)): the taps in (r1, r2) order with weights wt[r1 kw + r2]. */
static void DN(phc_run)(const DUK *uk, const DN(phc) *C, const DT *src, const DT *wt, DT *dst,
                        DT alpha, DT beta, DT *buf)
{
    const DN(phs) *S = &C->S;
    const int64_t EW = S->EW, PS = S->EH * EW, nbuf = S->sh * S->sw * PS;
    DT *ob = buf + nbuf + DW_PH_SLACK(EW);
    const DT *bp[DW_TAPS_MAX];
    const int nt = C->kh * C->kw;
    const int64_t R = DN(phc_rows)(C);
    int64_t filled = 0;
    for (int64_t a = 0; a < C->OH; a += R) {
        const int64_t b = C->OH - a < R ? C->OH : a + R;
        const int64_t need = (b - 1) * S->sh + (C->kh - 1) * C->dh + 1;
        if (need > filled) {
            DN(ph_fill)(S, src, filled, need, buf);
            filled = need;
        }
        for (int t = 0; t < nt; t++) bp[t] = buf + C->toff[t] + a * EW;
        uk->flat((size_t)((b - a) * EW), (size_t)nt, bp, wt, ob);
        for (int64_t o1 = a; o1 < b; o1++) {
            dw_prefetch_row(dst + o1 * C->yrs, C->yrs * DW_PF_ROWS, C->OW * (int64_t)sizeof(DT), 1);
            DN(blend_row)(dst + o1 * C->yrs, ob + (o1 - a) * EW, C->OW, alpha, beta);
        }
    }
}

/* The 2-d plane problems: no depth, unit column strides. */
static bool DN(ph_applies)(const dw_geom *d)
{
    const pdnn_conv_geom3 *G = &d->G;
    return G->kern[0] == 1 && G->in[0] == 1 && G->out[0] == 1 && G->pad[0] == 0 &&
           G->xs[4] == 1 && G->ys[4] == 1;
}

/* Threads over `planes` each running with a zeroed stack buffer of `need` elements. */
#define DW_PH_PARALLEL_BEGIN(planes, work, need)                                          \
    const int nt_ = dw_threads(nthreads, (planes), (work));                               \
    _Pragma("omp parallel num_threads(nt_) if (nt_ > 1)")                                 \
    {                                                                                     \
        _Alignas(64) DT buf[DW_PH_BYTES / sizeof(DT)];                                    \
        for (int64_t j_ = 0; j_ < (need); j_++) buf[j_] = 0;                              \
        _Pragma("omp for schedule(static)")                                               \
        for (int64_t pl = 0; pl < (planes); pl++) {
#define DW_PH_PARALLEL_END \
        }                  \
    }

static bool DN(fwd_ph)(const dw_geom *d, const DT *x, const DT *w, DT *y, DT alpha, DT beta,
                       int nthreads)
{
    const pdnn_conv_geom3 *G = &d->G;
    if (!DN(ph_applies)(d)) return false;
    DN(phc) C = {{G->in[1], G->in[2], G->xs[3], G->str[1], G->str[2], G->pad[1], G->pad[2], 0, 0, {0}, {0}},
                 (int)G->kern[1], (int)G->kern[2], G->dil[1], G->dil[2],
                 G->out[1], G->out[2], G->ys[3], {0}};
    if (!DN(phc_init)(&C)) return false;
    const int64_t need = DN(phc_need)(&C);
    if (need > (int64_t)(DW_PH_BYTES / sizeof(DT))) return false;
    const DUK *uk = DSEL();
    const int64_t planes = d->n * d->k;
    DW_PH_PARALLEL_BEGIN(planes, (double)planes * G->out[1] * G->out[2] * d->taps, need)
        const int64_t n = pl / d->k, k = pl % d->k;
        DT wt[DW_TAPS_MAX];
        for (int64_t r1 = 0, t = 0; r1 < G->kern[1]; r1++)
            for (int64_t r2 = 0; r2 < G->kern[2]; r2++) wt[t++] = w[dw_woff(d, k, 0, r1, r2)];
        DN(phc_run)(uk, &C, x + n * G->xs[0] + (k / d->m) * G->xs[1], wt,
                    y + n * G->ys[0] + k * G->ys[1], alpha, beta, buf);
    DW_PH_PARALLEL_END
    return true;
}

/* Backward data, multiplier 1. Stride 1: the correlation of dy, padded by
 * (kern - 1) dil - pad, with the rotated filter. Stride > 1: dx by phases (a, b) of its
 * rows and columns; phase (a, b) is a unit-stride correlation of the padded dy with the
 * taps whose (a + pad - r dil) is a multiple of the stride (o = j + (a + pad - r dil) /
 * s), computed flat per band into one buffer per phase, then interleaved into dx. */
static bool DN(bwdd_ph)(const dw_geom *d, const DT *dy, const DT *w, DT *dx, DT alpha, DT beta,
                        int nthreads)
{
    const pdnn_conv_geom3 *G = &d->G;
    if (!DN(ph_applies)(d) || d->m != 1) return false;
    const DUK *uk = DSEL();
    const int64_t planes = d->n * d->g, kh = G->kern[1], kw = G->kern[2];
    const double work = (double)planes * G->in[1] * G->in[2] * d->taps;
    if (G->str[1] == 1 && G->str[2] == 1) {
        DN(phc) C = {{G->out[1], G->out[2], G->ys[3], 1, 1, (kh - 1) * G->dil[1] - G->pad[1],
                      (kw - 1) * G->dil[2] - G->pad[2], 0, 0, {0}, {0}},
                     (int)kh, (int)kw, G->dil[1], G->dil[2], G->in[1], G->in[2], G->xs[3], {0}};
        if (!DN(phc_init)(&C)) return false;
        const int64_t need = DN(phc_need)(&C);
        if (need > (int64_t)(DW_PH_BYTES / sizeof(DT))) return false;
        DW_PH_PARALLEL_BEGIN(planes, work, need)
            const int64_t n = pl / d->g, c = pl % d->g;
            DT wt[DW_TAPS_MAX];
            for (int64_t r1 = 0, t = 0; r1 < kh; r1++)
                for (int64_t r2 = 0; r2 < kw; r2++)
                    wt[t++] = w[dw_woff(d, c, 0, kh - 1 - r1, kw - 1 - r2)];
            DN(phc_run)(uk, &C, dy + n * G->ys[0] + c * G->ys[1], wt,
                        dx + n * G->xs[0] + c * G->xs[1], alpha, beta, buf);
        DW_PH_PARALLEL_END
        return true;
    }
    const int64_t sh = G->str[1], sw = G->str[2], H = G->in[1], W = G->in[2];
    if (sh * sw > 16) return false;
    /* offsets D = (a + pad - r dil) / s of the valid taps: their range sets dy's padding */
    int64_t lo1 = 0, hi1 = 0, lo2 = 0, hi2 = 0;
    for (int64_t a = 0; a < sh; a++)
        for (int64_t r = 0; r < kh; r++) {
            const int64_t v = a + G->pad[1] - r * G->dil[1];
            if (v % sh) continue;
            lo1 = v / sh < lo1 ? v / sh : lo1;
            hi1 = v / sh > hi1 ? v / sh : hi1;
        }
    for (int64_t b = 0; b < sw; b++)
        for (int64_t r = 0; r < kw; r++) {
            const int64_t v = b + G->pad[2] - r * G->dil[2];
            if (v % sw) continue;
            lo2 = v / sw < lo2 ? v / sw : lo2;
            hi2 = v / sw > hi2 ? v / sw : hi2;
        }
    const int64_t J1 = dw_cdiv(H, sh), J2 = dw_cdiv(W, sw); /* rows, columns of phase 0 */
    DN(phs) S = {G->out[1], G->out[2], G->ys[3], 1, 1, -lo1, -lo2, J1 + hi1 - lo1, J2 + hi2 - lo2,
                 {0}, {0}};
    DN(phs_cols)(&S);
    const int64_t EW = S.EW, PS = S.EH * EW;
    int64_t R = DW_PH_OUT / (sh * sw * EW);
    R = R < 1 ? 1 : R > J1 ? J1 : R;
    const int64_t obs = R * EW + PDNN_DWCONV_FLAT_PAD; /* one phase's band outputs */
    const int64_t need = PS + DW_PH_SLACK(EW) + sh * sw * obs;
    if (need > (int64_t)(DW_PH_BYTES / sizeof(DT))) return false;
    DW_PH_PARALLEL_BEGIN(planes, work, need)
        const int64_t n = pl / d->g, c = pl % d->g;
        DT wt[DW_TAPS_MAX];
        const DT *tp[DW_TAPS_MAX], *bp[DW_TAPS_MAX];
        int t0[17], ntap = 0;
        for (int64_t a = 0; a < sh; a++)
            for (int64_t b = 0; b < sw; b++) {
                t0[a * sw + b] = ntap;
                for (int64_t r1 = 0; r1 < kh; r1++) {
                    const int64_t v1 = a + G->pad[1] - r1 * G->dil[1];
                    if (v1 % sh) continue;
                    for (int64_t r2 = 0; r2 < kw; r2++) {
                        const int64_t v2 = b + G->pad[2] - r2 * G->dil[2];
                        if (v2 % sw) continue;
                        wt[ntap] = w[dw_woff(d, c, 0, r1, r2)];
                        tp[ntap++] = buf + (v1 / sh - lo1) * EW + (v2 / sw - lo2);
                    }
                }
            }
        t0[sh * sw] = ntap;
        DN(ph_fill)(&S, dy + n * G->ys[0] + c * G->ys[1], 0, S.EH, buf);
        DT *ob = buf + PS + DW_PH_SLACK(EW), *xp = dx + n * G->xs[0] + c * G->xs[1];
        for (int64_t u = 0; u < J1; u += R) {
            const int64_t v = J1 - u < R ? J1 : u + R;
            for (int64_t ph = 0; ph < sh * sw; ph++) {
                for (int t = t0[ph]; t < t0[ph + 1]; t++) bp[t] = tp[t] + u * EW;
                uk->flat((size_t)((v - u) * EW), (size_t)(t0[ph + 1] - t0[ph]), bp + t0[ph],
                         wt + t0[ph], ob + ph * obs);
            }
            for (int64_t j1 = u; j1 < v; j1++)
                for (int64_t a = 0; a < sh && a + j1 * sh < H; a++) {
                    DT *row = xp + (a + j1 * sh) * G->xs[3];
                    const DT *o0 = ob + a * sw * obs + (j1 - u) * EW;
                    if (sw == 2) {
                        const DT *o1 = o0 + obs;
                        const int64_t np = W / 2; /* (even, odd) column pairs */
                        int64_t j = 0;
                        if (beta != 0)
                            for (; j < np; j++) {
                                DT e = alpha * o0[j], f = alpha * o1[j];
                                DT ue = beta * row[2 * j], uf = beta * row[2 * j + 1];
                                row[2 * j] = e + ue;
                                row[2 * j + 1] = f + uf;
                            }
                        else
                            for (; j < np; j++) {
                                row[2 * j] = alpha * o0[j];
                                row[2 * j + 1] = alpha * o1[j];
                            }
                        if (2 * j < W) DN(blend)(row + 2 * j, o0[j], alpha, beta);
                        continue;
                    }
                    for (int64_t b = 0; b < sw; b++)
                        for (int64_t j = 0; b + j * sw < W; j++)
                            DN(blend)(row + b + j * sw, o0[b * obs + j], alpha, beta);
                }
        }
    DW_PH_PARALLEL_END
    return true;
}

/* Backward filter: per channel, every image's x in phase planes against dy copied flat
 * (pitch EW, zeros in the junk columns and up to a multiple of 16), all taps in one
 * micro-kernel pass; DW_LANES partial sums per tap summed in order at the end. */
static bool DN(bwdf_ph)(const dw_geom *d, const DT *x, const DT *dy, DT *dw, DT alpha, DT beta,
                        int nthreads)
{
    const pdnn_conv_geom3 *G = &d->G;
    if (!DN(ph_applies)(d) || d->taps * DW_LANES > DW_ACC) return false;
    DN(phc) C = {{G->in[1], G->in[2], G->xs[3], G->str[1], G->str[2], G->pad[1], G->pad[2], 0, 0, {0}, {0}},
                 (int)G->kern[1], (int)G->kern[2], G->dil[1], G->dil[2],
                 G->out[1], G->out[2], G->ys[3], {0}};
    if (!DN(phc_init)(&C)) return false;
    const DN(phs) *S = &C.S;
    const int64_t EW = S->EW, PS = S->EH * EW, nbuf = S->sh * S->sw * PS;
    const int64_t nf = (C.OH * EW + DW_LANES - 1) / DW_LANES * DW_LANES;
    const int64_t need = nbuf + DW_PH_SLACK(EW) + nf;
    if (need > (int64_t)(DW_PH_BYTES / sizeof(DT))) return false;
    const DUK *uk = DSEL();
    const int64_t T = d->taps;
    DW_PH_PARALLEL_BEGIN(d->k, (double)d->n * d->k * C.OH * C.OW * T, need)
        const int64_t k = pl;
        DT acc[DW_ACC];
        const DT *tp[DW_TAPS_MAX];
        DT *yb = buf + nbuf + DW_PH_SLACK(EW);
        for (int64_t j = 0; j < T * DW_LANES; j++) acc[j] = 0;
        for (int64_t t = 0; t < T; t++) tp[t] = buf + C.toff[t];
        for (int64_t n = 0; n < d->n; n++) {
            DN(ph_fill)(S, x + n * G->xs[0] + (k / d->m) * G->xs[1], 0, S->EH * S->sh, buf);
            const DT *yp = dy + n * G->ys[0] + k * G->ys[1];
            for (int64_t o1 = 0; o1 < C.OH; o1++) {
                DT *restrict e = yb + o1 * EW;
                const DT *restrict yr = yp + o1 * C.yrs;
                int64_t o2 = 0;
                for (; o2 < C.OW; o2++) e[o2] = yr[o2];
                for (; o2 < EW; o2++) e[o2] = 0;
            }
            uk->dot16n((size_t)nf, (size_t)T, yb, tp, acc);
        }
        for (int64_t r1 = 0, t = 0; r1 < C.kh; r1++)
            for (int64_t r2 = 0; r2 < C.kw; r2++, t++) {
                DT sum = 0;
                for (int j = 0; j < DW_LANES; j++) sum += acc[t * DW_LANES + j];
                DN(blend)(dw + dw_woff(d, k, 0, r1, r2), sum, alpha, beta);
            }
    DW_PH_PARALLEL_END
    return true;
}

/* Index tuple of a row, advanced in place (last fastest). */
static inline void DN(next)(int64_t *i, const int64_t *dim, int nd)
{
    for (int d = nd - 1; d >= 0; d--) {
        if (++i[d] < dim[d]) return;
        i[d] = 0;
    }
}

/* Forward by planes: false when a plane's strip does not fit (then rows). */
static bool DN(fwd_planes)(const dw_geom *d, const DT *x, const DT *w, DT *y, DT alpha, DT beta,
                           int nthreads)
{
    const pdnn_conv_geom3 *G = &d->G;
    const DUK *uk = DSEL();
    if (G->kern[0] != 1 || G->in[0] != 1 || G->out[0] != 1 || G->pad[0] != 0 || G->xs[4] != 1 ||
        G->ys[4] != 1)
        return false;
    DN(plane) P = {1, (int)G->kern[1], (int)G->kern[2], G->dil[1], G->dil[2], G->str[1],
                   G->str[2], G->pad[1], G->pad[2], G->in[1], G->in[2], G->xs[3],
                   G->out[1], G->out[2], G->ys[3]};
    {
        const int64_t span = (P.OW - 1) * P.sw + (P.kw - 1) * P.dw + 1;
        const int64_t PW = (span + P.sw - 1) / P.sw * P.sw;
        if (DN(plane_rows)(&P, PW, PW / P.sw, P.sh == 1 && P.sw == 1) == 0) return false;
    }
    const int64_t planes = d->n * d->k;
    const int nt = dw_threads(nthreads, planes, (double)planes * G->out[1] * G->out[2] * d->taps);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t pl = 0; pl < planes; pl++) {
        const int64_t n = pl / d->k, k = pl % d->k;
        DT wt[DW_TAPS_MAX];
        for (int64_t r1 = 0, t = 0; r1 < G->kern[1]; r1++)
            for (int64_t r2 = 0; r2 < G->kern[2]; r2++) wt[t++] = w[dw_woff(d, k, 0, r1, r2)];
        const DT *in = x + n * G->xs[0] + (k / d->m) * G->xs[1];
        DN(plane_run)(uk, &P, &in, wt, y + n * G->ys[0] + k * G->ys[1], alpha, beta);
    }
    return true;
}

static void DN(fwd_rows)(const dw_geom *d, const DT *x, const DT *w, DT *y, DT alpha, DT beta,
                         int nthreads)
{
    const pdnn_conv_geom3 *G = &d->G;
    const DUK *uk = DSEL();
    if (DN(fwd_ph)(d, x, w, y, alpha, beta, nthreads)) return;
    if (DN(fwd_planes)(d, x, w, y, alpha, beta, nthreads)) return;
    const int64_t rows = d->n * d->k * G->out[0] * G->out[1];
    const int64_t e_lo = -G->pad[2], e_hi = (G->kern[2] - 1) * G->dil[2] - G->pad[2];
    /* interior: every tap of o inside the row */
    const int64_t lo = e_lo >= 0 ? 0 : (-e_lo + G->str[2] - 1) / G->str[2];
    const int64_t hi = G->in[2] - e_hi <= 0 ? 0 : (G->in[2] - e_hi - 1) / G->str[2] + 1;
    const int nt = dw_threads(nthreads, rows, (double)rows * G->out[2] * d->taps);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        int64_t r, r1;
        pdnn_par_share(rows, &r, &r1);
        const int64_t dim[4] = {d->n, d->k, G->out[0], G->out[1]};
        int64_t idx[4] = {r / (d->k * G->out[0] * G->out[1]), (r / (G->out[0] * G->out[1])) % d->k,
                          (r / G->out[1]) % G->out[0], r % G->out[1]};
        const DT *tp[DW_TAPS_MAX];
        int64_t te[DW_TAPS_MAX];
        DT tw[DW_TAPS_MAX];
        for (; r < r1; r++, DN(next)(idx, dim, 4)) {
            const int64_t n = idx[0], k = idx[1], o0 = idx[2], o1 = idx[3];
            const DT *xc = x + n * G->xs[0] + (k / d->m) * G->xs[1];
            int ntap = 0;
            for (int64_t r0 = 0; r0 < G->kern[0]; r0++) {
                const int64_t i0 = o0 * G->str[0] - G->pad[0] + r0 * G->dil[0];
                if (i0 < 0 || i0 >= G->in[0]) continue;
                for (int64_t q1 = 0; q1 < G->kern[1]; q1++) {
                    const int64_t i1 = o1 * G->str[1] - G->pad[1] + q1 * G->dil[1];
                    if (i1 < 0 || i1 >= G->in[1]) continue;
                    for (int64_t q2 = 0; q2 < G->kern[2]; q2++) {
                        tp[ntap] = xc + i0 * G->xs[2] + i1 * G->xs[3];
                        te[ntap] = q2 * G->dil[2] - G->pad[2];
                        tw[ntap] = w[dw_woff(d, k, r0, q1, q2)];
                        ntap++;
                    }
                }
            }
            DN(row)(uk, y + n * G->ys[0] + k * G->ys[1] + o0 * G->ys[2] + o1 * G->ys[3], G->ys[4],
                    tp, te, tw, ntap, G->xs[4], G->str[2], G->out[2], G->in[2], lo, hi, alpha, beta);
        }
    }
}

/* Backward data, dx row (n, c, i0, i1): every (multiplier, tap, output) term that reads
 * it, in the order (multiplier, r0, r1, r2). With unit strides along the row and
 * stride 1 there, a forward row over dy (tap offsets pad - r2 * dil); otherwise a chunk
 * accumulator of DW_CHUNK elements, the terms added in the same order. */
/* Backward data at stride 1 by planes: dx = the correlation of the dy planes of the
 * channel's multipliers with the rotated filter, padding (kern - 1) dil - pad. */
static bool DN(bwdd_planes)(const dw_geom *d, const DT *dy, const DT *w, DT *dx, DT alpha,
                            DT beta, int nthreads)
{
    const pdnn_conv_geom3 *G = &d->G;
    const DUK *uk = DSEL();
    if (G->kern[0] != 1 || G->in[0] != 1 || G->out[0] != 1 || G->pad[0] != 0 || G->xs[4] != 1 ||
        G->ys[4] != 1 || G->str[1] != 1 || G->str[2] != 1 || d->m * d->taps > DW_TAPS_MAX ||
        d->m > 64)
        return false;
    DN(plane) P = {(int)d->m, (int)G->kern[1], (int)G->kern[2], G->dil[1], G->dil[2], 1, 1,
                   (G->kern[1] - 1) * G->dil[1] - G->pad[1], (G->kern[2] - 1) * G->dil[2] - G->pad[2],
                   G->out[1], G->out[2], G->ys[3], G->in[1], G->in[2], G->xs[3]};
    if (DN(plane_rows)(&P, P.OW + (P.kw - 1) * P.dw, P.OW + (P.kw - 1) * P.dw, true) == 0)
        return false;
    const int64_t planes = d->n * d->g;
    const int nt = dw_threads(nthreads, planes,
                              (double)planes * G->in[1] * G->in[2] * d->taps * d->m);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t pl = 0; pl < planes; pl++) {
        const int64_t n = pl / d->g, c = pl % d->g;
        DT wt[DW_TAPS_MAX];
        const DT *in[64];
        int64_t t = 0;
        for (int64_t mi = 0; mi < d->m; mi++) {
            const int64_t k = c * d->m + mi;
            in[mi] = dy + n * G->ys[0] + k * G->ys[1];
            for (int64_t r1 = 0; r1 < G->kern[1]; r1++)
                for (int64_t r2 = 0; r2 < G->kern[2]; r2++)
                    wt[t++] = w[dw_woff(d, k, 0, G->kern[1] - 1 - r1, G->kern[2] - 1 - r2)];
        }
        DN(plane_run)(uk, &P, in, wt, dx + n * G->xs[0] + c * G->xs[1], alpha, beta);
    }
    return true;
}

static void DN(bwdd_rows)(const dw_geom *d, const DT *dy, const DT *w, DT *dx, DT alpha,
                          DT beta, int nthreads)
{
    const pdnn_conv_geom3 *G = &d->G;
    const DUK *uk = DSEL();
    if (DN(bwdd_ph)(d, dy, w, dx, alpha, beta, nthreads)) return;
    if (DN(bwdd_planes)(d, dy, w, dx, alpha, beta, nthreads)) return;
    const int64_t rows = d->n * d->g * G->in[0] * G->in[1];
    const bool fast = G->str[2] == 1 && G->xs[4] == 1 && G->ys[4] == 1 &&
                      d->m * d->taps <= DW_TAPS_MAX;
    /* fast: o = i + te with te in [pad - (kern - 1) dil, pad] inside [0, out) */
    const int64_t lo = (G->kern[2] - 1) * G->dil[2] - G->pad[2] > 0
                           ? (G->kern[2] - 1) * G->dil[2] - G->pad[2]
                           : 0;
    const int64_t hi = G->out[2] - G->pad[2];
    const int nt = dw_threads(nthreads, rows, (double)rows * G->in[2] * d->taps * d->m);
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        int64_t r, r1;
        pdnn_par_share(rows, &r, &r1);
        const int64_t dim[4] = {d->n, d->g, G->in[0], G->in[1]};
        int64_t idx[4] = {r / (d->g * G->in[0] * G->in[1]), (r / (G->in[0] * G->in[1])) % d->g,
                          (r / G->in[1]) % G->in[0], r % G->in[1]};
        const DT *tp[DW_TAPS_MAX];
        int64_t te[DW_TAPS_MAX];
        DT tw[DW_TAPS_MAX];
        DT acc[DW_CHUNK];
        for (; r < r1; r++, DN(next)(idx, dim, 4)) {
            const int64_t n = idx[0], c = idx[1], i0 = idx[2], i1 = idx[3];
            DT *xr = dx + n * G->xs[0] + c * G->xs[1] + i0 * G->xs[2] + i1 * G->xs[3];
            if (fast) {
                int ntap = 0;
                for (int64_t mi = 0; mi < d->m; mi++) {
                    const int64_t k = c * d->m + mi;
                    for (int64_t r0 = 0; r0 < G->kern[0]; r0++) {
                        const int64_t n0 = i0 + G->pad[0] - r0 * G->dil[0];
                        if (n0 < 0 || n0 % G->str[0] || n0 / G->str[0] >= G->out[0]) continue;
                        for (int64_t q1 = 0; q1 < G->kern[1]; q1++) {
                            const int64_t n1 = i1 + G->pad[1] - q1 * G->dil[1];
                            if (n1 < 0 || n1 % G->str[1] || n1 / G->str[1] >= G->out[1]) continue;
                            for (int64_t q2 = 0; q2 < G->kern[2]; q2++) {
                                tp[ntap] = dy + n * G->ys[0] + k * G->ys[1] +
                                           (n0 / G->str[0]) * G->ys[2] + (n1 / G->str[1]) * G->ys[3];
                                te[ntap] = G->pad[2] - q2 * G->dil[2];
                                tw[ntap] = w[dw_woff(d, k, r0, q1, q2)];
                                ntap++;
                            }
                        }
                    }
                }
                DN(row)(uk, xr, 1, tp, te, tw, ntap, 1, 1, G->in[2], G->out[2], lo, hi, alpha,
                        beta);
                continue;
            }
            for (int64_t a = 0; a < G->in[2]; a += DW_CHUNK) {
                const int64_t b = G->in[2] - a < DW_CHUNK ? G->in[2] : a + DW_CHUNK;
                for (int64_t j = 0; j < b - a; j++) acc[j] = 0;
                for (int64_t mi = 0; mi < d->m; mi++) {
                    const int64_t k = c * d->m + mi;
                    for (int64_t r0 = 0; r0 < G->kern[0]; r0++) {
                        const int64_t n0 = i0 + G->pad[0] - r0 * G->dil[0];
                        if (n0 < 0 || n0 % G->str[0] || n0 / G->str[0] >= G->out[0]) continue;
                        for (int64_t q1 = 0; q1 < G->kern[1]; q1++) {
                            const int64_t n1 = i1 + G->pad[1] - q1 * G->dil[1];
                            if (n1 < 0 || n1 % G->str[1] || n1 / G->str[1] >= G->out[1]) continue;
                            const DT *yr = dy + n * G->ys[0] + k * G->ys[1] +
                                           (n0 / G->str[0]) * G->ys[2] + (n1 / G->str[1]) * G->ys[3];
                            for (int64_t q2 = 0; q2 < G->kern[2]; q2++) {
                                const DT wt = w[dw_woff(d, k, r0, q1, q2)];
                                /* i2 = o2 * s - pad + q2 * dil in [a, b), 0 <= o2 < out */
                                const int64_t e = q2 * G->dil[2] - G->pad[2], s = G->str[2];
                                const int64_t olo = a - e <= 0 ? 0 : (a - e + s - 1) / s;
                                int64_t ohi = b - e <= 0 ? 0 : (b - e - 1) / s + 1;
                                if (ohi > G->out[2]) ohi = G->out[2];
                                if (ohi <= olo) continue;
                                if (s == 1 && G->ys[4] == 1)
                                    uk->axpy((size_t)(ohi - olo), wt, yr + olo, acc + (olo + e - a));
                                else
                                    for (int64_t o = olo; o < ohi; o++)
                                        acc[o * s + e - a] += wt * yr[o * G->ys[4]];
                            }
                        }
                    }
                }
                for (int64_t j = a; j < b; j++) DN(blend)(xr + j * G->xs[4], acc[j - a], alpha, beta);
            }
        }
    }
}

/* Backward filter, channel k: dw[k, tap] = sum over (n, o0, o1) rows, then o2, of
 * dy * x. The o2 sum of a row runs in DW_LANES lanes (lane j takes o2 = lo + j, lo + j +
 * DW_LANES, ...; the tail goes to the first lanes), the lanes are summed in order at the
 * end: a fixed order for a given problem. */
/* Backward filter by planes (1-d, 2-d): per channel, each strip of zero-padded x rows
 * against dy (at stride 1 one flat run over the strip, dy copied with zeros in the junk
 * columns; else row by row), all taps of a run in one micro-kernel call, 16 lanes per
 * tap summed in order at the end. false: the rows path instead. */
static bool DN(bwdf_planes)(const dw_geom *d, const DT *x, const DT *dy, DT *dw, DT alpha,
                            DT beta, int nthreads)
{
    const pdnn_conv_geom3 *G = &d->G;
    const DUK *uk = DSEL();
    if (G->kern[0] != 1 || G->in[0] != 1 || G->out[0] != 1 || G->pad[0] != 0 || G->xs[4] != 1 ||
        G->ys[4] != 1 || d->taps * DW_LANES > DW_ACC)
        return false;
    DN(plane) P = {1, (int)G->kern[1], (int)G->kern[2], G->dil[1], G->dil[2], G->str[1],
                   G->str[2], G->pad[1], G->pad[2], G->in[1], G->in[2], G->xs[3],
                   G->out[1], G->out[2], G->ys[3]};
    const int64_t span = (P.OW - 1) * P.sw + (P.kw - 1) * P.dw + 1;
    const int64_t PW = (span + P.sw - 1) / P.sw * P.sw, EW = PW / P.sw;
    const bool flat = P.sh == 1 && P.sw == 1;
    const int64_t sr = DN(plane_rows)(&P, PW, EW, flat);
    if (sr == 0) return false;
    const int64_t T = d->taps;
    const int nt = dw_threads(nthreads, d->k,
                              (double)d->n * d->k * G->out[1] * G->out[2] * T);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t k = 0; k < d->k; k++) {
        _Alignas(64) DT ib[DW_IN_BYTES / sizeof(DT)];
        _Alignas(64) DT ob[DW_OUT_BYTES / sizeof(DT)];
        DT acc[DW_ACC];
        const DT *tp[DW_TAPS_MAX], *rp[DW_TAPS_MAX];
        const int64_t ir_max = (sr - 1) * P.sh + (P.kh - 1) * P.dh + 1;
        const int64_t used = ir_max * PW, slack = DW_SLACK_BLOCK * P.sw + (P.kw - 1) * P.dw + PW + 1;
        for (int64_t j = used; j < used + slack; j++) ib[j] = 0;
        for (int64_t j = 0; j < T * DW_LANES; j++) acc[j] = 0;
        for (int64_t r1 = 0, t = 0; r1 < P.kh; r1++)
            for (int64_t r2 = 0; r2 < P.kw; r2++)
                tp[t++] = ib + r1 * P.dh * PW + (r2 * P.dw) % P.sw * EW + (r2 * P.dw) / P.sw;
        for (int64_t n = 0; n < d->n; n++) {
            const DT *xin = x + n * G->xs[0] + (k / d->m) * G->xs[1];
            const DT *dyp = dy + n * G->ys[0] + k * G->ys[1];
            for (int64_t a = 0; a < P.OH; a += sr) {
                const int64_t b = P.OH - a < sr ? P.OH : a + sr;
                DN(plane_fill)(&P, &xin, a, (b - a - 1) * P.sh + (P.kh - 1) * P.dh + 1, ir_max, PW,
                               EW, ib);
                if (flat) {
                    for (int64_t o1 = a; o1 < b; o1++) {
                        DT *e = ob + (o1 - a) * EW;
                        const DT *yr = dyp + o1 * P.out_rs;
                        int64_t o2 = 0;
                        for (; o2 < P.OW; o2++) e[o2] = yr[o2];
                        for (; o2 < EW; o2++) e[o2] = 0;
                    }
                    uk->dot16n((size_t)((b - a) * EW), (size_t)T, ob, tp, acc);
                    continue;
                }
                for (int64_t o1 = a; o1 < b; o1++) {
                    for (int64_t t = 0; t < T; t++) rp[t] = tp[t] + (o1 - a) * P.sh * PW;
                    uk->dot16n((size_t)P.OW, (size_t)T, dyp + o1 * P.out_rs, rp, acc);
                }
            }
        }
        for (int64_t r1 = 0, t = 0; r1 < P.kh; r1++)
            for (int64_t r2 = 0; r2 < P.kw; r2++, t++) {
                DT sum = 0;
                for (int j = 0; j < DW_LANES; j++) sum += acc[t * DW_LANES + j];
                DN(blend)(dw + dw_woff(d, k, 0, r1, r2), sum, alpha, beta);
            }
    }
    return true;
}

static void DN(bwdf_rows)(const dw_geom *d, const DT *x, const DT *dy, DT *dw, DT alpha,
                          DT beta, int nthreads)
{
    const pdnn_conv_geom3 *G = &d->G;
    const DUK *uk = DSEL();
    if (DN(bwdf_ph)(d, x, dy, dw, alpha, beta, nthreads)) return;
    if (DN(bwdf_planes)(d, x, dy, dw, alpha, beta, nthreads)) return;
    const int64_t T = d->taps;
    const int nt = dw_threads(nthreads, d->k,
                              (double)d->n * d->k * G->out[0] * G->out[1] * G->out[2] * T);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t k = 0; k < d->k; k++) {
        DT acc[DW_TAPS_MAX][DW_LANES];
        for (int64_t t = 0; t < T; t++)
            for (int j = 0; j < DW_LANES; j++) acc[t][j] = 0;
        const int64_t c = k / d->m;
        for (int64_t n = 0; n < d->n; n++)
            for (int64_t o0 = 0; o0 < G->out[0]; o0++)
                for (int64_t o1 = 0; o1 < G->out[1]; o1++) {
                    const DT *yr = dy + n * G->ys[0] + k * G->ys[1] + o0 * G->ys[2] + o1 * G->ys[3];
                    for (int64_t r0 = 0; r0 < G->kern[0]; r0++) {
                        const int64_t i0 = o0 * G->str[0] - G->pad[0] + r0 * G->dil[0];
                        if (i0 < 0 || i0 >= G->in[0]) continue;
                        for (int64_t r1 = 0; r1 < G->kern[1]; r1++) {
                            const int64_t i1 = o1 * G->str[1] - G->pad[1] + r1 * G->dil[1];
                            if (i1 < 0 || i1 >= G->in[1]) continue;
                            const DT *xr = x + n * G->xs[0] + c * G->xs[1] + i0 * G->xs[2] +
                                           i1 * G->xs[3];
                            for (int64_t r2 = 0; r2 < G->kern[2]; r2++) {
                                DT *ac = acc[(r0 * G->kern[1] + r1) * G->kern[2] + r2];
                                const int64_t e = r2 * G->dil[2] - G->pad[2], s = G->str[2];
                                /* 0 <= o2 * s + e < in */
                                const int64_t olo = e >= 0 ? 0 : (-e + s - 1) / s;
                                int64_t ohi = G->in[2] - e <= 0 ? 0 : (G->in[2] - e - 1) / s + 1;
                                if (ohi > G->out[2]) ohi = G->out[2];
                                if (ohi <= olo) continue;
                                if (G->xs[4] == 1 && G->ys[4] == 1) {
                                    uk->dot16((size_t)(ohi - olo), yr + olo, xr + (olo * s + e),
                                              (size_t)s, ac);
                                    continue;
                                }
                                for (int64_t o = olo, j = 0; o < ohi; o++, j = (j + 1) % DW_LANES)
                                    ac[j] += yr[o * G->ys[4]] * xr[(o * s + e) * G->xs[4]];
                            }
                        }
                    }
                }
        for (int64_t r0 = 0; r0 < G->kern[0]; r0++)
            for (int64_t r1 = 0; r1 < G->kern[1]; r1++)
                for (int64_t r2 = 0; r2 < G->kern[2]; r2++) {
                    const DT *ac = acc[(r0 * G->kern[1] + r1) * G->kern[2] + r2];
                    DT sum = 0;
                    for (int j = 0; j < DW_LANES; j++) sum += ac[j];
                    DN(blend)(dw + dw_woff(d, k, r0, r1, r2), sum, alpha, beta);
                }
    }
}

/* ---- channels-last (unit channel stride in x and y): vectors over the channels */

/* Forward: y[n, o, k] = sum_t wT[t][k] * x[n, i(o, t), k / m]. */
static void DN(fwd_nhwc)(const dw_geom *d, const DT *x, const DT *wT, DT *y, DT alpha, DT beta,
                         int nthreads)
{
    const pdnn_conv_geom3 *G = &d->G;
    const DUK *uk = DSEL();
    const int64_t rows = d->n * G->out[0] * G->out[1];
    const int nt = dw_threads(nthreads, rows, (double)rows * G->out[2] * d->k * d->taps);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t r = 0; r < rows; r++) {
        const int64_t o1 = r % G->out[1], o0 = (r / G->out[1]) % G->out[0];
        const int64_t n = r / (G->out[1] * G->out[0]);
        const DT *sp[DW_TAPS_MAX], *wr[DW_TAPS_MAX];
        for (int64_t o2 = 0; o2 < G->out[2]; o2++) {
            int ntap = 0;
            for (int64_t r0 = 0; r0 < G->kern[0]; r0++) {
                const int64_t i0 = o0 * G->str[0] - G->pad[0] + r0 * G->dil[0];
                if (i0 < 0 || i0 >= G->in[0]) continue;
                for (int64_t r1 = 0; r1 < G->kern[1]; r1++) {
                    const int64_t i1 = o1 * G->str[1] - G->pad[1] + r1 * G->dil[1];
                    if (i1 < 0 || i1 >= G->in[1]) continue;
                    for (int64_t r2 = 0; r2 < G->kern[2]; r2++) {
                        const int64_t i2 = o2 * G->str[2] - G->pad[2] + r2 * G->dil[2];
                        if (i2 < 0 || i2 >= G->in[2]) continue;
                        sp[ntap] = x + n * G->xs[0] + i0 * G->xs[2] + i1 * G->xs[3] + i2 * G->xs[4];
                        wr[ntap] = wT + ((r0 * G->kern[1] + r1) * G->kern[2] + r2) * d->k;
                        ntap++;
                    }
                }
            }
            DT *yp = y + n * G->ys[0] + o0 * G->ys[2] + o1 * G->ys[3] + o2 * G->ys[4];
            if (d->m == 1) {
                uk->chan((size_t)d->k, (size_t)ntap, sp, wr, yp, alpha, beta);
                continue;
            }
            for (int64_t k = 0; k < d->k; k++) {
                DT acc = 0;
                for (int t = 0; t < ntap; t++) acc += wr[t][k] * sp[t][k / d->m];
                DN(blend)(yp + k, acc, alpha, beta);
            }
        }
    }
}

/* Backward data: dx[n, i, c] = sum over taps t, multiplier mi of wT[t][c m + mi] *
 * dy[n, o(i, t), c m + mi] where o(i, t) is whole and inside y. */
static void DN(bwdd_nhwc)(const dw_geom *d, const DT *dy, const DT *wT, DT *dx, DT alpha,
                          DT beta, int nthreads)
{
    const pdnn_conv_geom3 *G = &d->G;
    const DUK *uk = DSEL();
    const int64_t rows = d->n * G->in[0] * G->in[1];
    const int nt = dw_threads(nthreads, rows, (double)rows * G->in[2] * d->k * d->taps);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t r = 0; r < rows; r++) {
        const int64_t i1 = r % G->in[1], i0 = (r / G->in[1]) % G->in[0];
        const int64_t n = r / (G->in[1] * G->in[0]);
        const DT *sp[DW_TAPS_MAX], *wr[DW_TAPS_MAX];
        for (int64_t i2 = 0; i2 < G->in[2]; i2++) {
            int ntap = 0;
            for (int64_t r0 = 0; r0 < G->kern[0]; r0++) {
                const int64_t n0 = i0 + G->pad[0] - r0 * G->dil[0];
                if (n0 < 0 || n0 % G->str[0] || n0 / G->str[0] >= G->out[0]) continue;
                for (int64_t r1 = 0; r1 < G->kern[1]; r1++) {
                    const int64_t n1 = i1 + G->pad[1] - r1 * G->dil[1];
                    if (n1 < 0 || n1 % G->str[1] || n1 / G->str[1] >= G->out[1]) continue;
                    for (int64_t r2 = 0; r2 < G->kern[2]; r2++) {
                        const int64_t n2 = i2 + G->pad[2] - r2 * G->dil[2];
                        if (n2 < 0 || n2 % G->str[2] || n2 / G->str[2] >= G->out[2]) continue;
                        sp[ntap] = dy + n * G->ys[0] + (n0 / G->str[0]) * G->ys[2] +
                                   (n1 / G->str[1]) * G->ys[3] + (n2 / G->str[2]) * G->ys[4];
                        wr[ntap] = wT + ((r0 * G->kern[1] + r1) * G->kern[2] + r2) * d->k;
                        ntap++;
                    }
                }
            }
            DT *xp = dx + n * G->xs[0] + i0 * G->xs[2] + i1 * G->xs[3] + i2 * G->xs[4];
            if (d->m == 1) {
                uk->chan((size_t)d->g, (size_t)ntap, sp, wr, xp, alpha, beta);
                continue;
            }
            for (int64_t c = 0; c < d->g; c++) {
                DT acc = 0;
                for (int64_t mi = 0; mi < d->m; mi++)
                    for (int t = 0; t < ntap; t++) acc += wr[t][c * d->m + mi] * sp[t][c * d->m + mi];
                DN(blend)(xp + c, acc, alpha, beta);
            }
        }
    }
}

/* Backward filter: dw[k, t] = sum over (n, o) in order of dy[n, o, k] * x[n, i(o, t), k/m];
 * threads split the channels in blocks (about K / threads channels, taps x block
 * accumulators at most DW_ACC), each block one pass over the pixels. */
static void DN(bwdf_nhwc)(const dw_geom *d, const DT *x, const DT *dy, DT *dw, DT alpha,
                          DT beta, int nthreads)
{
    const pdnn_conv_geom3 *G = &d->G;
    const DUK *uk = DSEL();
    const int64_t T = d->taps;
    const int nt = dw_threads(nthreads, d->k,
                              (double)d->n * d->k * G->out[0] * G->out[1] * G->out[2] * T);
    int64_t cb = dw_chan_block(T);
    {
        /* as few blocks as the accumulators allow, a multiple of the threads */
        int64_t nblk = (d->k + cb - 1) / cb;
        nblk = (nblk + nt - 1) / nt * nt;
        cb = (d->k + nblk - 1) / nblk;
    }
    const int64_t nblk = (d->k + cb - 1) / cb;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t blk = 0; blk < nblk; blk++) {
        const int64_t k0 = blk * cb, nk = d->k - k0 < cb ? d->k - k0 : cb;
        DT acc[DW_ACC];
        const DT *xp[DW_TAPS_MAX];
        int64_t tt[DW_TAPS_MAX];
        for (int64_t i = 0; i < T * cb; i++) acc[i] = 0;
        for (int64_t n = 0; n < d->n; n++)
            for (int64_t o0 = 0; o0 < G->out[0]; o0++)
                for (int64_t o1 = 0; o1 < G->out[1]; o1++)
                    for (int64_t o2 = 0; o2 < G->out[2]; o2++) {
                        const DT *yp = dy + n * G->ys[0] + o0 * G->ys[2] + o1 * G->ys[3] +
                                       o2 * G->ys[4] + k0;
                        int ntap = 0;
                        for (int64_t r0 = 0; r0 < G->kern[0]; r0++) {
                            const int64_t i0 = o0 * G->str[0] - G->pad[0] + r0 * G->dil[0];
                            if (i0 < 0 || i0 >= G->in[0]) continue;
                            for (int64_t r1 = 0; r1 < G->kern[1]; r1++) {
                                const int64_t i1 = o1 * G->str[1] - G->pad[1] + r1 * G->dil[1];
                                if (i1 < 0 || i1 >= G->in[1]) continue;
                                for (int64_t r2 = 0; r2 < G->kern[2]; r2++) {
                                    const int64_t i2 = o2 * G->str[2] - G->pad[2] + r2 * G->dil[2];
                                    if (i2 < 0 || i2 >= G->in[2]) continue;
                                    xp[ntap] = x + n * G->xs[0] + i0 * G->xs[2] + i1 * G->xs[3] +
                                               i2 * G->xs[4];
                                    tt[ntap] = (r0 * G->kern[1] + r1) * G->kern[2] + r2;
                                    ntap++;
                                }
                            }
                        }
                        if (d->m == 1 && ntap == T) { /* every tap inside: one call */
                            for (int t = 0; t < ntap; t++) xp[t] += k0;
                            uk->macn((size_t)nk, (size_t)ntap, yp, xp, acc, (size_t)cb);
                            continue;
                        }
                        for (int t = 0; t < ntap; t++) {
                            DT *ac = acc + tt[t] * cb;
                            if (d->m == 1)
                                uk->mac((size_t)nk, yp, xp[t] + k0, ac);
                            else
                                for (int64_t j = 0; j < nk; j++) ac[j] += yp[j] * xp[t][(k0 + j) / d->m];
                        }
                    }
        for (int64_t j = 0; j < nk; j++)
            for (int64_t r0 = 0; r0 < G->kern[0]; r0++)
                for (int64_t r1 = 0; r1 < G->kern[1]; r1++)
                    for (int64_t r2 = 0; r2 < G->kern[2]; r2++)
                        DN(blend)(dw + dw_woff(d, k0 + j, r0, r1, r2),
                                  acc[((r0 * G->kern[1] + r1) * G->kern[2] + r2) * cb + j], alpha,
                                  beta);
    }
}

#undef DN
#undef DCAT
#undef DCAT_
