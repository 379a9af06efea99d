/* Shared pieces of the GEMM convolutions: see conv_cpu_gemm.h. */
#include <string.h>

#include "ops/conv/cpu/conv_cpu_gemm.h"

#define MC_TARGET 144 /* rows of a task block */
#define NC_TARGET PDNN_CONV_GEMM_NC_MAX /* columns of a task block */

static bool mul_ok(int64_t a, int64_t b, int64_t *r)
{
    return !__builtin_mul_overflow(a, b, r);
}

int64_t pdnn_conv_gemm_mul3(int64_t a, int64_t b, int64_t c)
{
    int64_t r;
    return mul_ok(a, b, &r) && mul_ok(r, c, &r) ? r : -1;
}

/* True when the filter strides are packed with taps in (c, spatial) order (cmajor) or
 * (spatial, c) order. */
static bool filter_order(const pdnn_conv_problem *p, bool cmajor)
{
    const int nsp = p->nsp;
    const int64_t cg = p->c / p->g;
    int64_t s = cmajor ? 1 : cg;
    for (int d = nsp - 1; d >= 0; d--) {
        if (p->kern[d] > 1 && p->ws[2 + d] != s) return false;
        s *= p->kern[d];
    }
    if (cmajor) {
        if (cg > 1 && p->ws[1] != s) return false;
        s *= cg;
    } else if (cg > 1 && p->ws[1] != 1) {
        return false;
    }
    return p->k <= 1 || p->ws[0] == s;
}

bool pdnn_conv_gemm_supports(const pdnn_conv_problem *p, pdnn_conv_dir dir,
                             const char **why)
{
    if (p->dir != dir) {
        *why = "wrong convolution direction";
        return false;
    }
    if (p->nsp < 1 || p->nsp > PDNN_CONV_SP_MAX) {
        *why = "spatial rank outside 1..3";
        return false;
    }
    if (p->dtype != PDNN_DATA_FLOAT && p->dtype != PDNN_DATA_DOUBLE) {
        *why = "data type other than FLOAT or DOUBLE";
        return false;
    }
    if (p->compute != p->dtype) {
        *why = "accumulation type differs from the data type (FLOAT data, DOUBLE compute)";
        return false;
    }
    if (p->g < 1 || p->c % p->g || p->k % p->g) {
        *why = "channels not divisible by the group count";
        return false;
    }
    if (!filter_order(p, true) && !filter_order(p, false)) {
        *why = "filter strides are neither packed KCRS nor packed KRSC";
        return false;
    }
    int64_t v = p->c / p->g, cols = p->n, nin = 1;
    for (int d = 0; d < p->nsp; d++) {
        if (!mul_ok(v, p->kern[d], &v) || !mul_ok(cols, p->out[d], &cols) ||
            !mul_ok(nin, p->in[d], &nin)) {
            *why = "matrix sizes overflow 64 bits";
            return false;
        }
    }
    return true;
}

void pdnn_conv_gemm_geom_init(const pdnn_conv_problem *p, pdnn_conv_gemm_geom *g)
{
    memset(g, 0, sizeof *g);
    g->uk = pdnn_gemm_ukernel_select(p->dtype);
    g->t = p->dtype;
    g->es = p->dtype == PDNN_DATA_DOUBLE ? sizeof(double) : sizeof(float);
    g->n = p->n;
    g->g = p->g;
    pdnn_conv_widen(p, &g->geo);
    g->cmajor = filter_order(p, true);
    g->ks = g->geo.kern[0] * g->geo.kern[1] * g->geo.kern[2];
    g->taps = g->geo.cg * g->ks;
    g->wk = g->taps;
    g->npix = g->geo.out[0] * g->geo.out[1] * g->geo.out[2];
    g->nin = g->geo.in[0] * g->geo.in[1] * g->geo.in[2];
    g->ncols = g->n * g->npix;
    /* y columns (n, p) flattened: affine when the pixel dims collapse into one stride
     * and, across images, N's stride continues it */
    int64_t ps = 0, inner = 1;
    bool affine = true;
    for (int d = 2; d >= 0; d--) {
        if (g->geo.out[d] == 1) continue;
        if (ps == 0)
            ps = g->geo.ys[2 + d];
        else if (g->geo.ys[2 + d] != ps * inner)
            affine = false;
        inner *= g->geo.out[d];
    }
    if (ps == 0) ps = g->npix == 1 ? g->geo.ys[0] : 1;
    g->ypix_affine = affine;
    if (g->n > 1 && g->geo.ys[0] != ps * g->npix) affine = false;
    g->ycol_affine = affine;
    g->ycs = ps;
}

void pdnn_conv_gemm_ycol_offs(const pdnn_conv_gemm_geom *g, int64_t col0, int64_t n,
                              int64_t *off)
{
    if (n <= 0) return;
    if (g->ycol_affine) {
        for (int64_t j = 0; j < n; j++) off[j] = (col0 + j) * g->ycs;
        return;
    }
    const int64_t *ys = g->geo.ys;
    int64_t ni = col0 / g->npix, o[3];
    pdnn_conv_gemm_pix(g, col0 % g->npix, o);
    for (int64_t j = 0; j < n; j++) {
        off[j] = ni * ys[0] + o[0] * ys[2] + o[1] * ys[3] + o[2] * ys[4];
        pdnn_conv_gemm_pix_step(g, o, &ni, 1);
    }
}

void pdnn_conv_gemm_taps_range(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                               int64_t k0, int64_t kc, pdnn_conv_gemm_tap *tab)
{
    const pdnn_conv_geom3 *G = &g->geo;
    const int64_t cg = G->cg;
    int64_t c, s;
    if (g->cmajor) {
        c = k0 / g->ks;
        s = k0 % g->ks;
    } else {
        s = k0 / cg;
        c = k0 % cg;
    }
    int64_t r[3] = {s / (G->kern[1] * G->kern[2]), (s / G->kern[2]) % G->kern[1], s % G->kern[2]};
    for (int64_t kk = 0; kk < kc; kk++) {
        pdnn_conv_gemm_tap *e = &tab[kk];
        e->off = c * G->xs[1];
        for (int d = 0; d < 3; d++) {
            e->e[d] = (p->flip ? G->kern[d] - 1 - r[d] : r[d]) * G->dil[d];
            e->off += e->e[d] * G->xs[2 + d];
        }
        /* next tap */
        bool carry = true;
        if (!g->cmajor && ++c < cg) carry = false;
        if (carry) {
            if (!g->cmajor) c = 0;
            for (int d = 2; d >= 0 && carry; d--) {
                if (++r[d] < G->kern[d])
                    carry = false;
                else
                    r[d] = 0;
            }
            if (carry && g->cmajor) c++;
        }
    }
}

void pdnn_conv_gemm_taps(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                         pdnn_conv_gemm_tap *tab)
{
    pdnn_conv_gemm_taps_range(p, g, 0, g->taps, tab);
}

/* ---- scratch */

void *pdnn_conv_gemm_take(pdnn_conv_gemm_arena *a, int64_t count, size_t es)
{
    size_t bytes;
    if (count < 0 || __builtin_mul_overflow((size_t)count, es, &bytes) ||
        bytes > SIZE_MAX / 2 - a->off) {
        a->overflow = true;
        return NULL;
    }
    size_t start = a->off;
    a->off = (a->off + bytes + PDNN_GEMM_ALIGN - 1) & ~(size_t)(PDNN_GEMM_ALIGN - 1);
    return a->base && !a->overflow ? a->base + start : NULL;
}

size_t pdnn_conv_gemm_arena_bytes(const pdnn_conv_gemm_arena *a)
{
    if (a->overflow) return SIZE_MAX;
    return a->off ? a->off + PDNN_GEMM_ALIGN : 0;
}

pdnn_conv_gemm_arena pdnn_conv_gemm_arena_on(void *ws)
{
    pdnn_conv_gemm_arena a = {ws ? pdnn_gemm_align_ptr(ws) : NULL, 0, false};
    return a;
}

int64_t pdnn_conv_gemm_chunk_cols(int64_t rows_per_col, size_t es, int64_t total)
{
    if (rows_per_col < 1) rows_per_col = 1;
    int64_t cols = (int64_t)(PDNN_CONV_GEMM_CHUNK_BYTES / es) / rows_per_col;
    cols = cols / PDNN_GEMM_NR_MAX * PDNN_GEMM_NR_MAX;
    if (cols < PDNN_GEMM_NR_MAX) cols = PDNN_GEMM_NR_MAX;
    return cols < total ? cols : total;
}

/* ---- packers: es is a compile-time constant after inlining */

#define PDNN_INLINE static inline __attribute__((always_inline))

PDNN_INLINE void copy_el(char *d, int64_t di, const char *s, int64_t si, size_t es)
{
    if (es == sizeof(float))
        ((float *)d)[di] = ((const float *)s)[si];
    else
        ((double *)d)[di] = ((const double *)s)[si];
}

PDNN_INLINE void zero_el(char *d, int64_t di, size_t es)
{
    if (es == sizeof(float))
        ((float *)d)[di] = 0.0f;
    else
        ((double *)d)[di] = 0.0;
}

/* Origin of column col (image n, pixel p) of group grp: input coordinates of tap 0
 * and x offset there (possibly outside x; only read after the bounds checks). */
static inline int64_t col_origin(const pdnn_conv_gemm_geom *g, int64_t grp, int64_t col,
                                 int64_t c[3])
{
    int64_t o[3];
    pdnn_conv_gemm_pix(g, col % g->npix, o);
    int64_t off = (col / g->npix) * g->geo.xs[0] + grp * g->geo.cg * g->geo.xs[1];
    for (int d = 0; d < 3; d++) {
        c[d] = o[d] * g->geo.str[d] - g->geo.pad[d];
        off += c[d] * g->geo.xs[2 + d];
    }
    return off;
}

/* Every tap of a column with origin c lies inside x. */
static inline bool col_interior(const pdnn_conv_gemm_geom *g, const int64_t c[3])
{
    for (int d = 0; d < 3; d++)
        if (c[d] < 0 || c[d] + (g->geo.kern[d] - 1) * g->geo.dil[d] >= g->geo.in[d]) return false;
    return true;
}

static inline bool tap_inside(const pdnn_conv_gemm_geom *g, const int64_t c[3],
                              const pdnn_conv_gemm_tap *e)
{
    return (uint64_t)(c[0] + e->e[0]) < (uint64_t)g->geo.in[0] &&
           (uint64_t)(c[1] + e->e[1]) < (uint64_t)g->geo.in[1] &&
           (uint64_t)(c[2] + e->e[2]) < (uint64_t)g->geo.in[2];
}

void pdnn_conv_gemm_origins(const pdnn_conv_gemm_geom *g, int64_t col0, int64_t n,
                            pdnn_conv_gemm_origin *o)
{
    for (int64_t i = 0; i < n; i++) {
        o[i].base = col_origin(g, 0, col0 + i, o[i].c);
        o[i].interior = col_interior(g, o[i].c);
    }
}

PDNN_INLINE void im2col_panel_t(const pdnn_conv_gemm_geom *g, const pdnn_conv_gemm_tap *tab,
                                const char *x, int64_t grp, const pdnn_conv_gemm_origin *org,
                                int64_t kc, int64_t t0, int64_t ntap, char *dst, size_t es)
{
    const int nr = g->uk->nr;
    const int64_t goff = grp * g->geo.cg * g->geo.xs[1];
    const pdnn_conv_gemm_tap *tp = tab + t0;
    for (int64_t kk = 0; kk < kc; kk++) {
        const int64_t base = org[kk].base + goff;
        const int64_t d0 = kk * nr;
        int64_t j = 0;
        if (org[kk].interior) {
            for (; j < ntap; j++) copy_el(dst, d0 + j, x, base + tp[j].off, es);
        } else {
            for (; j < ntap; j++) {
                if (tap_inside(g, org[kk].c, &tp[j]))
                    copy_el(dst, d0 + j, x, base + tp[j].off, es);
                else
                    zero_el(dst, d0 + j, es);
            }
        }
        for (; j < nr; j++) zero_el(dst, d0 + j, es);
    }
}

void pdnn_conv_gemm_im2col_panel_t(const pdnn_conv_gemm_geom *g, const pdnn_conv_gemm_tap *tab,
                                   const void *x, int64_t grp, const pdnn_conv_gemm_origin *org,
                                   int64_t kc, int64_t t0, int64_t ntap, void *dst)
{
    if (g->es == sizeof(float))
        im2col_panel_t(g, tab, x, grp, org, kc, t0, ntap, dst, sizeof(float));
    else
        im2col_panel_t(g, tab, x, grp, org, kc, t0, ntap, dst, sizeof(double));
}

PDNN_INLINE void pack_panel(int w, int64_t nl, int64_t ns, const char *src, int64_t ls,
                            const int64_t *loff, int64_t ss, const int64_t *soff, char *dst,
                            size_t es)
{
    for (int64_t s = 0; s < ns; s++) {
        const int64_t so = soff ? soff[s] : s * ss;
        int64_t l = 0;
        if (loff)
            for (; l < nl; l++) copy_el(dst, s * w + l, src, so + loff[l], es);
        else
            for (; l < nl; l++) copy_el(dst, s * w + l, src, so + l * ls, es);
        for (; l < w; l++) zero_el(dst, s * w + l, es);
    }
}

void pdnn_conv_gemm_pack_panel(size_t es, int w, int64_t nl, int64_t ns, const void *src,
                               int64_t ls, const int64_t *loff, int64_t ss,
                               const int64_t *soff, void *dst)
{
    if (es == sizeof(float))
        pack_panel(w, nl, ns, src, ls, loff, ss, soff, dst, sizeof(float));
    else
        pack_panel(w, nl, ns, src, ls, loff, ss, soff, dst, sizeof(double));
}

/* ---- zero-padded copies */

void pdnn_conv_gemm_padgeom_init(const pdnn_conv_gemm_geom *g, pdnn_conv_gemm_padgeom *pg)
{
    int64_t nph = 1;
    for (int d = 0; d < 3; d++) {
        pg->pd[d] = g->npix == 0 ? 0
                                 : (g->geo.out[d] - 1) * g->geo.str[d] +
                                       (g->geo.kern[d] - 1) * g->geo.dil[d] + 1;
        pg->ph[d] = g->geo.str[d] > 1 ? g->geo.str[d] : 1;
        pg->q[d] = (pg->pd[d] + pg->ph[d] - 1) / pg->ph[d];
        nph *= pg->ph[d];
    }
    pg->pq = pdnn_conv_gemm_mul3(pg->q[0], pg->q[1], pg->q[2]);
    pg->ps = pg->pq < 0 ? -1 : pdnn_conv_gemm_mul3(pg->pq, nph, 1);
    pg->img = pg->ps < 0 ? -1 : pdnn_conv_gemm_mul3(pg->ps, g->g, g->geo.cg);
    pg->deal2 = pg->ph[2] == 2 && g->es == sizeof(float) ? pdnn_f32_deinterleave2_select() : NULL;
}

static bool pad_plain(const pdnn_conv_gemm_padgeom *pg)
{
    return pg->ph[0] == 1 && pg->ph[1] == 1 && pg->ph[2] == 1;
}

void pdnn_conv_gemm_pad_taps(const pdnn_conv_problem *p, const pdnn_conv_gemm_geom *g,
                             const pdnn_conv_gemm_padgeom *pg, int64_t *poff)
{
    /* the taps with offsets c * 1: their channel alone, then placed in the padded copy.
     * A tap of channel c lies one padded plane past the same spatial tap of channel
     * c - 1, so the divisions by the phases run once per spatial tap (LeNet's conv2 at
     * minibatch 1 spent 5% of its time here with 800 taps) */
    pdnn_conv_gemm_geom gc = *g;
    gc.geo.xs[1] = 1;
    gc.geo.xs[2] = gc.geo.xs[3] = gc.geo.xs[4] = 0;
    for (int64_t t = 0; t < g->taps; t++) {
        const int64_t prev = g->cmajor ? t - g->ks : (t % g->geo.cg ? t - 1 : -1);
        if (prev >= 0) {
            poff[t] = poff[prev] + pg->ps;
            continue;
        }
        pdnn_conv_gemm_tap tap;
        pdnn_conv_gemm_taps_range(p, &gc, t, 1, &tap);
        poff[t] = tap.off * pg->ps + pdnn_conv_gemm_pad_off(pg, tap.e);
    }
}

/* One padded row: dst[j] = src[(j - pb) * ss] for 0 <= j - pb < n, else 0. */
PDNN_INLINE void pad_row(char *dst, int64_t len, const char *src, int64_t ss, int64_t pb,
                         int64_t n, size_t es)
{
    int64_t lo = pb < 0 ? 0 : (pb > len ? len : pb);
    int64_t hi = pb + n < len ? pb + n : len;
    if (hi < lo) hi = lo;
    if (es == sizeof(float)) {
        float *d = (float *)dst;
        const float *s = (const float *)src;
        for (int64_t j = 0; j < lo; j++) d[j] = 0.0f;
        if (ss == 1)
            for (int64_t j = lo; j < hi; j++) d[j] = s[j - pb];
        else
            for (int64_t j = lo; j < hi; j++) d[j] = s[(j - pb) * ss];
        for (int64_t j = hi; j < len; j++) d[j] = 0.0f;
    } else {
        double *d = (double *)dst;
        const double *s = (const double *)src;
        for (int64_t j = 0; j < lo; j++) d[j] = 0.0;
        if (ss == 1)
            for (int64_t j = lo; j < hi; j++) d[j] = s[j - pb];
        else
            for (int64_t j = lo; j < hi; j++) d[j] = s[(j - pb) * ss];
        for (int64_t j = hi; j < len; j++) d[j] = 0.0;
    }
}

/* One padded row split into phases: padded column j = q + ph * m (j < len) at
 * dst[q * pstride + m] (m < wq), the value src[(j - pb) * ss] for 0 <= j - pb < n, else 0; the
 * positions of columns j >= len (the last phases' ends) are 0 too. Per phase, the
 * positions m in [lo, hi) read x (one strided copy the compiler vectorizes), the
 * others are zero. */
#define PAD_ROW_PHASED(T)                                                                  \
    for (int64_t q = 0; q < ph; q++) {                                                     \
        T *d = (T *)dst + q * pstride;                                                     \
        /* m with 0 <= q + ph * m - pb < n and q + ph * m < len */                         \
        int64_t lo = pb - q > 0 ? (pb - q + ph - 1) / ph : 0;                              \
        int64_t hi = pb + n - q > 0 ? (pb + n - q + ph - 1) / ph : 0;                      \
        const int64_t hl = len - q > 0 ? (len - q + ph - 1) / ph : 0;                      \
        if (hi > hl) hi = hl;                                                              \
        if (lo > wq) lo = wq;                                                              \
        if (hi < lo) hi = lo;                                                              \
        for (int64_t m = 0; m < lo; m++) d[m] = (T)0;                                      \
        const T *s = (const T *)src + (q + ph * lo - pb) * ss;                             \
        const int64_t st = ph * ss;                                                        \
        if (st == 2) /* a constant step: vectorized */                                     \
            for (int64_t m = lo; m < hi; m++) d[m] = s[2 * (m - lo)];                      \
        else                                                                               \
            for (int64_t m = lo; m < hi; m++) d[m] = s[(m - lo) * st];                     \
        for (int64_t m = hi; m < wq; m++) d[m] = (T)0;                                     \
    }
static void pad_row_phased(char *dst, int64_t len, int64_t ph, int64_t pstride, int64_t wq,
                           const char *src, int64_t ss, int64_t pb, int64_t n, size_t es)
{
    if (es == sizeof(float)) {
        PAD_ROW_PHASED(float)
    } else {
        PAD_ROW_PHASED(double)
    }
}
#undef PAD_ROW_PHASED

bool pdnn_conv_gemm_pad_is_copy(const pdnn_conv_gemm_geom *g, const pdnn_conv_gemm_padgeom *pg)
{
    const int64_t *xs = g->geo.xs;
    if (!pad_plain(pg)) return false;
    for (int d = 0; d < 3; d++)
        if (g->geo.pad[d] != 0 || pg->pd[d] != g->geo.in[d]) return false;
    /* x's image is packed: channels of pg->ps elements one after the other */
    const int64_t c = g->g * g->geo.cg;
    return (g->geo.in[2] == 1 || xs[4] == 1) &&
           (g->geo.in[1] == 1 || xs[3] == g->geo.in[2]) &&
           (g->geo.in[0] == 1 || xs[2] == g->geo.in[1] * g->geo.in[2]) &&
           (c == 1 || xs[1] == pg->ps);
}

void pdnn_conv_gemm_pad_plane(const pdnn_conv_gemm_geom *g, const pdnn_conv_gemm_padgeom *pg,
                              const void *x, int64_t n, int64_t c, void *dst, bool zeroed)
{
    const size_t es = g->es;
    const int64_t *pd = pg->pd, *xs = g->geo.xs, *in = g->geo.in, *pad = g->geo.pad;
    const int64_t base = n * xs[0] + c * xs[1];
    if (pad_plain(pg) && (xs[4] == 1 || in[2] == 1)) {
        /* unit-stride rows: zero the plane, then copy the rows inside x */
        if (!zeroed) memset(dst, 0, (size_t)(pd[0] * pd[1] * pd[2]) * es);
        const int64_t lo = pad[2] < 0 ? 0 : pad[2];
        const int64_t hi = pad[2] + in[2] < pd[2] ? pad[2] + in[2] : pd[2];
        if (hi <= lo) return;
        for (int64_t j0 = 0; j0 < pd[0]; j0++) {
            const int64_t i0 = j0 - pad[0];
            if (i0 < 0 || i0 >= in[0]) continue;
            for (int64_t j1 = 0; j1 < pd[1]; j1++) {
                const int64_t i1 = j1 - pad[1];
                if (i1 < 0 || i1 >= in[1]) continue;
                memcpy((char *)dst + ((j0 * pd[1] + j1) * pd[2] + lo) * (int64_t)es,
                       (const char *)x + (base + i0 * xs[2] + i1 * xs[3] + lo - pad[2]) * (int64_t)es,
                       (size_t)(hi - lo) * es);
            }
        }
        return;
    }
    /* any layout: zero the plane (phase blocks may hold positions past pd), then every
     * padded row inside x, its columns dealt to their phases */
    if (!zeroed) memset(dst, 0, (size_t)pg->ps * es);
    const int64_t *ph = pg->ph, *q = pg->q;
    for (int64_t j0 = 0; j0 < pd[0]; j0++)
        for (int64_t j1 = 0; j1 < pd[1]; j1++) {
            const int64_t i0 = j0 - pad[0], i1 = j1 - pad[1];
            if (i0 < 0 || i0 >= in[0] || i1 < 0 || i1 >= in[1]) continue;
            const int64_t j[3] = {j0, j1, 0};
            char *d = (char *)dst + pdnn_conv_gemm_pad_off(pg, j) * (int64_t)es;
            const char *s = (const char *)x + (base + i0 * xs[2] + i1 * xs[3]) * (int64_t)es;
            if (pg->deal2 && xs[4] == 1 && pad[2] >= 0) {
                /* stride 2, unit-stride f32 rows: x column i is padded column i + pb,
                 * phase (i + pb) % 2 at (i + pb) / 2, so the even columns start phase
                 * pb % 2 at pb / 2 and the odd ones the other phase at (pb + 1) / 2;
                 * the rest of the row is the plane's zeros */
                const int64_t pb = pad[2], nx = in[2] < pd[2] - pb ? in[2] : pd[2] - pb;
                float *p0 = (float *)d, *p1 = p0 + pg->pq;
                if (nx > 0)
                    pg->deal2((const float *)s, (size_t)nx, (pb % 2 ? p1 : p0) + pb / 2,
                              (pb % 2 ? p0 : p1) + (pb + 1) / 2);
            } else if (ph[2] != 1)
                pad_row_phased(d, pd[2], ph[2], pg->pq, q[2], s, xs[4], pad[2], in[2], es);
            else if (es == sizeof(float))
                pad_row(d, pd[2], s, xs[4], pad[2], in[2], sizeof(float));
            else
                pad_row(d, pd[2], s, xs[4], pad[2], in[2], sizeof(double));
        }
}

/* ---- tasks */

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

pdnn_conv_gemm_tiles pdnn_conv_gemm_tiling(const pdnn_gemm_ukernel *uk, int64_t m,
                                           int64_t n, int64_t outer, int nthreads)
{
    pdnn_conv_gemm_tiles t = {1, 1, 0, 0, 0};
    if (m <= 0 || n <= 0 || outer <= 0) return t;
    const int64_t mp = cdiv(m, uk->mr), np = cdiv(n, uk->nr);
    /* several tasks per thread keep the static split balanced */
    const int64_t want = 8 * (int64_t)(nthreads < 1 ? 1 : nthreads);
    t.mcp = MC_TARGET / uk->mr > 1 ? MC_TARGET / uk->mr : 1;
    t.ncp = NC_TARGET / uk->nr > 1 ? NC_TARGET / uk->nr : 1;
    if (t.mcp > mp) t.mcp = mp;
    if (t.ncp > np) t.ncp = np;
    while (outer * cdiv(mp, t.mcp) * cdiv(np, t.ncp) < want && t.ncp > 1) t.ncp = cdiv(t.ncp, 2);
    while (outer * cdiv(mp, t.mcp) * cdiv(np, t.ncp) < want && t.mcp > 1) t.mcp = cdiv(t.mcp, 2);
    t.mb = cdiv(mp, t.mcp);
    t.nb = cdiv(np, t.ncp);
    t.ntasks = outer * t.mb * t.nb;
    return t;
}

/* The products of a task of tl (rows x columns, the columns rounded up to 16: a tail of
 * a few columns runs through a 16-wide tile or a GEMV kernel of about that cost); 0
 * past the matrix. */
static int64_t task_cost(const pdnn_conv_gemm_tiles *tl, const pdnn_gemm_ukernel *uk, int64_t r,
                         int64_t m, int64_t n, int64_t *cols)
{
    int64_t i0, mm, j0, nn;
    *cols = 0;
    if (!pdnn_conv_gemm_task(tl, uk, r, m, n, &i0, &mm, &j0, &nn)) return 0;
    *cols = (nn + 15) / 16 * 16;
    return mm * *cols;
}

/* A thread that takes part of a column block (some of its rows) reads B panels another
 * thread packed, from that core's cache: charged as this many more rows of the block
 * (LeNet conv2 at minibatch 1, 2 threads: splitting a column block of 64 rows paid,
 * forward 0.109 -> 0.101 ms, one of 32 rows did not, backward data 0.149 -> 0.162 ms). */
#define SHARE_SPLIT_ROWS 16

/* One split of tl's tasks over nthr threads, contiguous in task order: task r (or, with
 * whole, the column block it belongs to) goes to the thread whose share of the total
 * products holds its middle. Returns the largest thread cost (products plus the split
 * blocks' charge) and thread t's tasks [*lo, *hi). */
static int64_t share_split(const pdnn_conv_gemm_tiles *tl, const pdnn_gemm_ukernel *uk,
                           int64_t m, int64_t n, int64_t total, int64_t nthr, bool whole,
                           int64_t t, int64_t *lo, int64_t *hi)
{
    int64_t before = 0, owner = 0, cur = 0, worst = 0, blk = 0, blkcols = 0;
    *lo = *hi = tl->ntasks;
    bool found = false;
    for (int64_t r = 0; r < tl->ntasks; r++) {
        int64_t cols;
        const int64_t own = task_cost(tl, uk, r, m, n, &cols);
        if (r % tl->mb == 0) { /* a column block starts: its products and columns */
            blk = blkcols = 0;
            for (int64_t q = r; q < r + tl->mb && q < tl->ntasks; q++) {
                int64_t c;
                blk += task_cost(tl, uk, q, m, n, &c);
                if (c > blkcols) blkcols = c;
            }
        }
        int64_t o = owner;
        if (!whole || r % tl->mb == 0) {
            const int64_t mid = whole ? 2 * before + blk : 2 * before + own;
            o = mid * nthr / (2 * total);
            if (o >= nthr) o = nthr - 1;
        }
        if (o != owner) {
            const int64_t split = r % tl->mb ? SHARE_SPLIT_ROWS * blkcols : 0;
            if (cur + split > worst) worst = cur + split;
            cur = split;
            owner = o;
        }
        if (o >= t && !found) {
            *lo = r;
            found = true;
        }
        if (o > t && *hi == tl->ntasks) *hi = r;
        cur += own;
        before += own;
    }
    if (!found) *lo = tl->ntasks;
    if (*hi < *lo) *hi = *lo;
    return cur > worst ? cur : worst;
}

void pdnn_conv_gemm_task_share_of(const pdnn_conv_gemm_tiles *tl, const pdnn_gemm_ukernel *uk,
                                  int64_t m, int64_t n, int64_t t, int64_t nthr, int64_t *lo,
                                  int64_t *hi)
{
    if (nthr < 1) nthr = 1;
    int64_t total = 0;
    for (int64_t r = 0; r < tl->ntasks; r++) {
        int64_t cols;
        total += task_cost(tl, uk, r, m, n, &cols);
    }
    if (total == 0 || nthr == 1) { /* the plain contiguous split */
        *lo = tl->ntasks * t / nthr;
        *hi = tl->ntasks * (t + 1) / nthr;
        return;
    }
    /* whole column blocks, unless splitting them balances the threads better */
    int64_t wlo, whi;
    const int64_t wcost = share_split(tl, uk, m, n, total, nthr, true, t, &wlo, &whi);
    const int64_t pcost = share_split(tl, uk, m, n, total, nthr, false, t, lo, hi);
    if (wcost <= pcost) {
        *lo = wlo;
        *hi = whi;
    }
}
