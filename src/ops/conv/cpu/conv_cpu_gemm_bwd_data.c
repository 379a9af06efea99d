/* Backward data by GEMM ("cpu:gemm", PDNN_CONVOLUTION_BWD_DATA_ALGO_1).
 *
 * C/g >= 4: at stride 1, dx is the forward convolution of dy with the filter rotated
 * by 180 degrees and K and C swapped, padded by (kern - 1) * dil - pad, so it runs
 * through the forward core (conv_cpu_gemm_fwd.c: zero-padded dy, B panels by runs, the
 * filter read transposed in place); every dx element is one sum over the
 * K * prod(kern) taps. With strides above 1, dx splits into prod(stride) phases (the
 * elements of one residue of i + pad modulo the stride along each dim), each reached by
 * a subset of the taps only: a stride-1 problem of its own (sub-filter read in place,
 * dx elements stride apart), run the same way on chunks of images into dense buffers,
 * which are then interleaved into dx a plane at a time (dx = alpha * value + beta * dx;
 * beta * dx in a phase no tap reaches).
 *
 * Otherwise, by GEMM + col2im: per group g and chunk of whole images,
 * col_g[T x n*P] = W_g^T[T x Kg] * dY_g[Kg x n*P] (conv_cpu_gemm.h), then every dx
 * element gathers the col entries of the taps and output pixels that read it, in a
 * fixed tap order, summed in the data type:
 *   dx[n, c, i] = alpha * sum_{taps r, pixels o : o*stride - pad + e(r) = i} col[(c, r)][(n, o)]
 *                 + beta * dx[n, c, i]     (dx never read when beta == 0).
 * The gather (rather than a scatter-add) writes each dx element once, so threads split
 * dx rows freely and results do not depend on the thread count.
 *
 * Workspace (forward form): that of the forward core (the largest phase's), and with
 * strides the dense phases of one chunk (~8 MiB of dx, at least one image, at most 16).
 * Otherwise:
 * tap and pixel tables, the packed transposed filter (~ K * T elements) and per chunk the
 * packed dY columns and the col matrix (<= ~4 MiB unless one image's T x P col matrix is
 * larger). */
#include "ops/conv/cpu/conv_cpu_gemm.h"
#include "core/par.h"
#include "core/registry.h"

typedef struct {
    pdnn_conv_gemm_tap *tab;
    int64_t *otab;  /* per dim d, entry [i * kern[d] + r]: output index reading input
                     * i through tap r, or -1 */
    char *wp;       /* packed W^T, group g at wp + g * apg elements */
    char *bp;       /* packed dY of one chunk */
    char *col;      /* T x ccap col matrix of one chunk */
} bwdd_bufs;

/* Images per chunk. */
static int64_t bwdd_images(const pdnn_conv_gemm_geom *g)
{
    if (g->npix == 0) return g->n > 0 ? g->n : 1;
    int64_t cols = pdnn_conv_gemm_chunk_cols(g->geo.kg + g->taps, g->es, g->ncols);
    int64_t nb = cols / g->npix;
    if (nb < 1) nb = 1;
    return nb < g->n ? nb : g->n;
}

static void bwdd_layout(const pdnn_conv_gemm_geom *g, pdnn_conv_gemm_arena *a, bwdd_bufs *b)
{
    const int64_t ccap = pdnn_conv_gemm_mul3(bwdd_images(g), g->npix, 1);
    b->tab = pdnn_conv_gemm_take(a, g->taps, sizeof(pdnn_conv_gemm_tap));
    b->otab = pdnn_conv_gemm_take(a, g->geo.in[0] * g->geo.kern[0] + g->geo.in[1] * g->geo.kern[1] +
                                         g->geo.in[2] * g->geo.kern[2],
                                  sizeof(int64_t));
    b->wp = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->g, g->taps + PDNN_GEMM_MR_MAX, g->geo.kg),
                                g->es);
    b->bp = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->geo.kg, ccap + PDNN_GEMM_NR_MAX, 1),
                                g->es);
    b->col = pdnn_conv_gemm_take(a, pdnn_conv_gemm_mul3(g->taps, ccap, 1), g->es);
}

/* C/g >= 4: dx runs through the forward core, by stride phases (below). */
static bool fwd_form_applies(const pdnn_conv_problem *p)
{
    /* the forward form's GEMM has C/g rows: with fewer than 4 its micro-kernel tiles
     * (6 rows) are mostly empty, and GEMM + col2im is faster (e.g. 3x at C/g = 1) */
    return p->g > 0 && p->c / p->g >= 4;
}

/* The forward form q of the stride-1 backward-data problem p (conv_cpu_gemm.h). */
static void fwd_form(const pdnn_conv_problem *p, pdnn_conv_problem *q)
{
    *q = *p;
    q->dir = PDNN_CONV_FWD;
    q->c = p->k;
    q->k = p->c;
    q->flip = !p->flip;
    int64_t acc = 1;
    for (int d = p->nsp - 1; d >= 0; d--) {
        q->in[d] = p->out[d];
        q->out[d] = p->in[d];
        q->pad_b[d] = (p->kern[d] - 1) * p->dil[d] - p->pad_b[d];
        q->pad_e[d] = (p->kern[d] - 1) * p->dil[d] - p->pad_e[d];
        q->ws[2 + d] = acc;
        acc *= p->kern[d];
    }
    q->ws[1] = acc;
    q->ws[0] = acc * (p->k / (p->g > 0 ? p->g : 1));
    q->wfmt = PDNN_TENSOR_NCHW;
    for (int i = 0; i < 2 + p->nsp; i++) {
        q->xs[i] = p->ys[i];
        q->ys[i] = p->xs[i];
    }
}

/* One stride phase of backward data. Along dim d, the dx elements i with
 * (i + pad) % stride == rho (i = stride * m + rho - pad) are reached only by the taps r
 * whose offset e(r) = (flip ? kern - 1 - r : r) * dil is rho modulo the stride, with
 * o = m - (e(r) - rho) / stride: a stride-1 backward-data problem q over those dx
 * elements (dx strides times the stride), the same dy, and the sub-filter of those taps
 * (every stride / gcd(dil, stride)-th tap from the first, dilation dil / gcd). With
 * stride 1 the one phase is the problem itself. */
typedef struct {
    pdnn_conv_problem q;
    int64_t xoff, woff; /* dx and filter offsets (elements) of the phase's origin */
    bool none;          /* no dx element in the phase */
    bool notap;         /* no tap reaches the phase: dx = beta * dx there */
} bwdd_phase;

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        const int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static void phase_of(const pdnn_conv_problem *p, const int64_t *rho, bwdd_phase *ph)
{
    ph->q = *p;
    ph->xoff = ph->woff = 0;
    ph->none = ph->notap = false;
    for (int d = 0; d < p->nsp; d++) {
        const int64_t s = p->stride[d], dil = p->dil[d], kn = p->kern[d], pad = p->pad_b[d];
        const int64_t r0 = rho[d];
        /* dx elements of the phase: m0 .. m0 + M - 1 */
        const int64_t m0 = pad - r0 > 0 ? (pad - r0 + s - 1) / s : 0;
        const int64_t top = p->in[d] - 1 + pad - r0; /* s * m <= top */
        const int64_t M = top < 0 ? 0 : top / s - m0 + 1;
        if (M <= 0) ph->none = true;
        /* the taps of the phase, first and count */
        int64_t first = -1, cnt = 0;
        for (int64_t r = 0; r < kn; r++)
            if (((p->flip ? kn - 1 - r : r) * dil) % s == r0) {
                if (first < 0) first = r;
                cnt++;
            }
        if (cnt == 0) {
            ph->notap = true;
            first = 0;
        }
        const int64_t gd = gcd64(dil, s), dl = dil / gd;
        const int64_t pq = !p->flip ? m0 - (first * dil - r0) / s
                                    : (cnt - 1) * dl - ((kn - 1 - first) * dil - r0) / s + m0;
        ph->q.in[d] = M > 0 ? M : 0;
        ph->q.kern[d] = cnt;
        ph->q.dil[d] = dl;
        ph->q.stride[d] = 1;
        ph->q.pad_b[d] = pq;
        ph->q.pad_e[d] = p->out[d] + (cnt - 1) * dl - ph->q.in[d] - pq;
        ph->q.xs[2 + d] = p->xs[2 + d] * s;
        ph->q.ws[2 + d] = p->ws[2 + d] * (s / gd);
        ph->xoff += (s * m0 + r0 - pad) * p->xs[2 + d];
        ph->woff += first * p->ws[2 + d];
    }
}

/* Runs the body (the macro's last arguments) with ph set to each stride phase of p in
 * turn (the body must not continue or break: it runs inside the walk). */
#define FOR_PHASES(p, ph, ...)                                                              \
    do {                                                                                   \
        int64_t rho_[PDNN_CONV_SP_MAX] = {0};                                              \
        for (;;) {                                                                         \
            phase_of((p), rho_, &(ph));                                                    \
            __VA_ARGS__;                                                                   \
            int d_ = (p)->nsp - 1;                                                         \
            while (d_ >= 0 && ++rho_[d_] == (p)->stride[d_]) rho_[d_--] = 0;               \
            if (d_ < 0) break;                                                             \
        }                                                                                  \
    } while (0)

/* With strides above 1 the phases run on chunks of images into dense buffers (one
 * after the other, each phase's elements [n][c][spatial] packed), which are then
 * interleaved into dx: each dx element written once, a plane at a time, rather than
 * every phase's pass writing one element in prod(stride) of every cache line of dx
 * (one by one, through the micro-kernels' scattered-column path). Chunks hold about
 * PHASE_CHUNK_BYTES of dx (at least one image, at most PHASE_CHUNK_IMAGES). */
#define PHASE_CHUNK_BYTES ((int64_t)8 << 20)
#define PHASE_CHUNK_IMAGES 16

static bool phased(const pdnn_conv_problem *p)
{
    for (int d = 0; d < p->nsp; d++)
        if (p->stride[d] > 1) return true;
    return false;
}

/* dx elements of one image (C * prod(in)), -1 on overflow. */
static int64_t dx_image(const pdnn_conv_problem *p)
{
    int64_t e = p->c;
    for (int d = 0; d < p->nsp; d++) e = pdnn_conv_gemm_mul3(e, p->in[d], 1);
    return e;
}

static int64_t phase_images(const pdnn_conv_problem *p, size_t es)
{
    const int64_t per = dx_image(p);
    if (per <= 0) return p->n > 0 ? p->n : 1;
    int64_t nb = PHASE_CHUNK_BYTES / (int64_t)es / per;
    if (nb < 1) nb = 1;
    if (nb > PHASE_CHUNK_IMAGES) nb = PHASE_CHUNK_IMAGES;
    return nb < p->n ? nb : (p->n > 0 ? p->n : 1);
}

/* Phase ph's problem on nimg images with its dx elements packed: [n][c][spatial]. */
static void dense_phase(const bwdd_phase *ph, int64_t nimg, pdnn_conv_problem *q)
{
    *q = ph->q;
    q->n = nimg;
    int64_t acc = 1;
    for (int d = q->nsp - 1; d >= 0; d--) {
        q->xs[2 + d] = acc;
        acc *= q->in[d];
    }
    q->xs[1] = acc;
    q->xs[0] = acc * q->c;
}

/* The phases' filters packed in one pass (phased runs): each phase's forward form
 * packs the same A panels from the filter (rows: dx channels c, taps (k, its sub-kernel's
 * taps)), and the phases' taps interleave in every (k, c) block of the filter, so one
 * pass per phase reads the whole filter again (per chunk of images, too). Here every
 * (group, row panel, k) block is read once and dealt to all the phases' panels; each
 * phase's run then takes its panels as they are (pdnn_conv_gemm_fwd_run's apre). */
#define PACK_PHASES_MAX 16 /* phases packed in one pass at most (stride products) */
#define PACK_TAPS_MAX 64   /* sub-kernel taps at most */

typedef struct {
    int64_t ntap;                /* taps of the sub-kernel */
    int64_t roff[PACK_TAPS_MAX]; /* their offsets from the phase's origin */
    int64_t woff;                /* the phase's origin in the filter */
    int64_t apg;                 /* elements of one group's panels */
    char *a;                     /* the phase's panels */
} phase_pack;

/* The phases' pack descriptions in FOR_PHASES order of those with taps; false when a
 * phase has too many taps, there are too many phases, or a phase's run on chunks of nimg
 * images has at most 2 panels of columns (it reads the filter in place: pack_filter in
 * conv_cpu_gemm_fwd.c), each phase then doing as it would alone.
 * a: the panels' base (NULL to size them only); *bytes: their total. */
static bool phase_packs(const pdnn_conv_problem *p, int mr, int nr, int64_t nimg, char *a,
                        phase_pack *pk, int *npk, size_t *bytes)
{
    const size_t es = p->dtype == PDNN_DATA_DOUBLE ? sizeof(double) : sizeof(float);
    const int64_t kg = p->c / p->g, kk = p->k / p->g, mp = (kg + mr - 1) / mr;
    int n = 0;
    bool ok = true;
    *bytes = 0;
    bwdd_phase ph;
    FOR_PHASES(p, ph, {
        if (!ph.none && !ph.notap && ok) {
            if (n == PACK_PHASES_MAX) {
                ok = false;
            } else {
                pdnn_conv_geom3 o;
                pdnn_conv_widen(&ph.q, &o);
                phase_pack *f = &pk[n++];
                f->ntap = o.kern[0] * o.kern[1] * o.kern[2];
                if (f->ntap > PACK_TAPS_MAX || nimg * o.in[0] * o.in[1] * o.in[2] <= 2 * nr) {
                    ok = false;
                } else {
                    int64_t j = 0;
                    for (int64_t r0 = 0; r0 < o.kern[0]; r0++)
                        for (int64_t r1 = 0; r1 < o.kern[1]; r1++)
                            for (int64_t r2 = 0; r2 < o.kern[2]; r2++)
                                f->roff[j++] = r0 * o.ws[2] + r1 * o.ws[3] + r2 * o.ws[4];
                    f->woff = ph.woff;
                    f->apg = mp * mr * kk * f->ntap;
                    f->a = a ? a + *bytes : NULL;
                    *bytes += (size_t)(p->g * f->apg) * es;
                    *bytes = (*bytes + PDNN_GEMM_ALIGN - 1) & ~(size_t)(PDNN_GEMM_ALIGN - 1);
                }
            }
        }
    });
    *npk = n;
    return ok;
}

/* Row panel q of group grp of every phase: dst[t * mr + i] = w[grp, k, q * mr + i, tap j
 * of the phase] for t = k * ntap + j (the forward core's tap order), rows past kg zero. */
#define PACK_PHASES(TT)                                                                    \
    do {                                                                                   \
        const TT *wb = (const TT *)w + grp * kk * p->ws[0] + q * mr * p->ws[1];            \
        for (int64_t k = k0; k < k1; k++) {                                                \
            const TT *wk = wb + k * p->ws[0];                                              \
            for (int f = 0; f < npk; f++) {                                                \
                const phase_pack *pf = &pk[f];                                             \
                TT *d = (TT *)pf->a + grp * pf->apg + (q * kk + k) * pf->ntap * mr;        \
                for (int64_t j = 0; j < pf->ntap; j++, d += mr) {                          \
                    const TT *s = wk + pf->woff + pf->roff[j];                             \
                    int64_t i = 0;                                                         \
                    for (; i < rows; i++) d[i] = s[i * p->ws[1]];                          \
                    for (; i < mr; i++) d[i] = (TT)0;                                      \
                }                                                                          \
            }                                                                              \
        }                                                                                  \
    } while (0)

/* Each thread its share of the panels, by blocks of 16 k's (the filter's rows k read
 * along, 16 at a time: see the forward core's transposed packing). */
static void pack_phases(const pdnn_conv_problem *p, int mr, const phase_pack *pk, int npk,
                        const char *w, int nt)
{
    const int64_t kg = p->c / p->g, kk = p->k / p->g, mp = (kg + mr - 1) / mr;
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        int64_t lo, hi;
        pdnn_par_share(p->g * mp, &lo, &hi);
        for (int64_t k0 = 0; k0 < kk; k0 += 16) {
            const int64_t k1 = kk - k0 < 16 ? kk : k0 + 16;
            for (int64_t pn = lo; pn < hi; pn++) {
                const int64_t grp = pn / mp, q = pn % mp;
                const int64_t rows = kg - q * mr < mr ? kg - q * mr : mr;
                if (p->dtype == PDNN_DATA_DOUBLE)
                    PACK_PHASES(double);
                else
                    PACK_PHASES(float);
            }
        }
    }
}
#undef PACK_PHASES

/* Workspace of the phases: the dense chunk (when phased) and the largest forward
 * core's; SIZE_MAX on overflow. */
static size_t phases_workspace(const pdnn_conv_problem *p)
{
    const size_t es = p->dtype == PDNN_DATA_DOUBLE ? sizeof(double) : sizeof(float);
    const bool dense = phased(p);
    const int64_t nb = dense ? phase_images(p, es) : p->n;
    size_t ws = 0;
    bwdd_phase ph;
    FOR_PHASES(p, ph, {
        if (!ph.none && !ph.notap) {
            pdnn_conv_problem q, f;
            dense_phase(&ph, nb, &q);
            fwd_form(dense ? &q : &ph.q, &f);
            const size_t w = pdnn_conv_gemm_fwd_workspace(&f, true);
            if (w > ws) ws = w;
        }
    });
    if (!dense || ws == SIZE_MAX) return ws;
    const int64_t t = dx_image(p) < 0 ? -1 : pdnn_conv_gemm_mul3(nb, dx_image(p), (int64_t)es);
    if (t < 0 || (size_t)t > SIZE_MAX / 4 - ws) return SIZE_MAX;
    /* + the phases' packed filters (one pass) */
    const pdnn_gemm_ukernel *uk = pdnn_gemm_ukernel_select(p->dtype);
    phase_pack pk[PACK_PHASES_MAX];
    int npk;
    size_t ab = 0;
    if (!uk || !phase_packs(p, uk->mr, uk->nr, nb, NULL, pk, &npk, &ab)) ab = 0;
    if (ab > SIZE_MAX / 4) return SIZE_MAX;
    return ws + (size_t)t + ab + 2 * PDNN_GEMM_ALIGN;
}

static size_t bwdd_workspace(const void *prob)
{
    if (fwd_form_applies(prob)) return phases_workspace(prob);
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(prob, &g);
    pdnn_conv_gemm_arena a = pdnn_conv_gemm_arena_on(NULL);
    bwdd_bufs b;
    bwdd_layout(&g, &a, &b);
    return pdnn_conv_gemm_arena_bytes(&a);
}

static bool bwdd_supports(const void *prob, const char **why)
{
    if (!pdnn_conv_gemm_supports(prob, PDNN_CONV_BWD_DATA, why)) return false;
    if (bwdd_workspace(prob) == SIZE_MAX) {
        *why = "workspace size overflows";
        return false;
    }
    return true;
}

#define PDNN_INLINE static inline __attribute__((always_inline))

PDNN_INLINE double ld_el(const char *p, int64_t i, size_t es)
{
    return es == sizeof(float) ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

PDNN_INLINE void st_el(char *p, int64_t i, double v, size_t es)
{
    if (es == sizeof(float))
        ((float *)p)[i] = (float)v;
    else
        ((double *)p)[i] = v;
}

/* Columns of a dx row summed at once by gather_row. */
#define ROW_CHUNK 256

/* One dx row (fixed n, c, i0, i1; all i2; cbase: column of the image's pixel 0 in col):
 * for every tap (r0, r1, r2) in order, the col entries of the outputs that read the row
 * through it are added to a row of accumulators in the data type. With unit stride
 * along the row those entries are a contiguous run; otherwise ot[2] says, column by
 * column, which output (if any) reads it. */
PDNN_INLINE void gather_row(const pdnn_conv_gemm_geom *g, const int64_t *const ot[3],
                               bool flip, const char *col, int64_t ldc, int64_t cbase,
                               int64_t c, int64_t i0, int64_t i1, char *dx, int64_t dxoff,
                               double alpha, double beta, size_t es)
{
    const int64_t k0 = g->geo.kern[0], k1 = g->geo.kern[1], k2 = g->geo.kern[2];
    const int64_t in2 = g->geo.in[2], out2 = g->geo.out[2], pad2 = g->geo.pad[2];
    const int64_t t_c = g->cmajor ? c * g->ks : c, t_s = g->cmajor ? 1 : g->geo.cg;
    for (int64_t j0 = 0; j0 < in2; j0 += ROW_CHUNK) {
        const int64_t j1 = in2 - j0 < ROW_CHUNK ? in2 : j0 + ROW_CHUNK;
        float af[ROW_CHUNK];
        double ad[ROW_CHUNK];
        if (es == sizeof(float))
            for (int64_t j = 0; j < j1 - j0; j++) af[j] = 0.0f;
        else
            for (int64_t j = 0; j < j1 - j0; j++) ad[j] = 0.0;
        for (int64_t r0 = 0; r0 < k0; r0++) {
            const int64_t o0 = ot[0][i0 * k0 + r0];
            if (o0 < 0) continue;
            for (int64_t r1 = 0; r1 < k1; r1++) {
                const int64_t o1 = ot[1][i1 * k1 + r1];
                if (o1 < 0) continue;
                const int64_t pbase = cbase + (o0 * g->geo.out[1] + o1) * out2;
                const int64_t sbase = (r0 * k1 + r1) * k2;
                for (int64_t r2 = 0; r2 < k2; r2++) {
                    const int64_t t = t_c + (sbase + r2) * t_s;
                    if (g->geo.str[2] != 1) { /* column by column through ot[2] */
                        const int64_t *o2 = ot[2] + r2;
                        if (es == sizeof(float)) {
                            const float *cp = (const float *)col + t * ldc + pbase;
                            for (int64_t i = j0; i < j1; i++)
                                if (o2[i * k2] >= 0) af[i - j0] += cp[o2[i * k2]];
                        } else {
                            const double *cp = (const double *)col + t * ldc + pbase;
                            for (int64_t i = j0; i < j1; i++)
                                if (o2[i * k2] >= 0) ad[i - j0] += cp[o2[i * k2]];
                        }
                        continue;
                    }
                    /* dx column i reads output column i + pad2 - e2 when inside [0, out2) */
                    const int64_t sh = pad2 - (flip ? k2 - 1 - r2 : r2) * g->geo.dil[2];
                    int64_t lo = -sh > j0 ? -sh : j0, hi = out2 - sh < j1 ? out2 - sh : j1;
                    if (hi <= lo) continue;
                    const int64_t src = t * ldc + pbase + sh;
                    if (es == sizeof(float)) {
                        const float *cp = (const float *)col + src;
                        for (int64_t i = lo; i < hi; i++) af[i - j0] += cp[i];
                    } else {
                        const double *cp = (const double *)col + src;
                        for (int64_t i = lo; i < hi; i++) ad[i - j0] += cp[i];
                    }
                }
            }
        }
        const int64_t xs4 = g->geo.xs[4];
        for (int64_t i = j0; i < j1; i++) {
            const int64_t off = dxoff + i * xs4;
            double v = alpha * (es == sizeof(float) ? (double)af[i - j0] : ad[i - j0]);
            if (beta != 0.0) v += beta * ld_el(dx, off, es);
            st_el(dx, off, v, es);
        }
    }
}

/* dx = beta * dx over the elements of a phase no tap reaches (q: its dims and
 * strides; dx not read when beta == 0). */
static void scale_phase(const pdnn_conv_gemm_geom *g, const pdnn_conv_problem *q, char *dx,
                        double beta)
{
    pdnn_conv_geom3 o;
    pdnn_conv_widen(q, &o);
    const int64_t nc = g->g * g->geo.cg;
    for (int64_t n = 0; n < g->n; n++)
        for (int64_t c = 0; c < nc; c++)
            for (int64_t i0 = 0; i0 < o.in[0]; i0++)
                for (int64_t i1 = 0; i1 < o.in[1]; i1++)
                    for (int64_t i2 = 0; i2 < o.in[2]; i2++) {
                        const int64_t off = n * o.xs[0] + c * o.xs[1] + i0 * o.xs[2] +
                                            i1 * o.xs[3] + i2 * o.xs[4];
                        const double v = beta == 0 ? 0.0 : beta * ld_el(dx, off, g->es);
                        st_el(dx, off, v, g->es);
                    }
}

/* What the interleave needs of one phase. */
typedef struct {
    bool notap;           /* dx = beta * dx there */
    int64_t xoff;         /* dx offset of the phase's origin */
    int64_t toff, plane;  /* its dense block in tmp, elements of one (n, c) plane */
    pdnn_conv_geom3 o;    /* its dims and dx strides */
} ilv_phase;

#define ILV_MAX 64 /* phases described at once (stride products up to 64) */

/* Plane pl ((ni, c) = (pl / C, pl % C), image n0 + ni) of phase f from its dense block
 * at tmp: dx = alpha * phase value + beta * dx, or beta * dx in a phase no tap reaches
 * (dx unread when beta == 0). The same arithmetic as a micro-kernel's epilogue, in the
 * element type. */
#define INTERLEAVE(TT)                                                                     \
    do {                                                                                   \
        const TT al = (TT)alpha, be = (TT)beta;                                            \
        const TT *t = (const TT *)tmp + f->toff + pl * f->plane;                           \
        TT *d = (TT *)dx + (n0 + pl / p->c) * p->xs[0] + pl % p->c * p->xs[1] + f->xoff;   \
        const pdnn_conv_geom3 *o = &f->o;                                                  \
        for (int64_t i0 = 0; i0 < o->in[0]; i0++)                                          \
            for (int64_t i1 = 0; i1 < o->in[1]; i1++) {                                    \
                TT *dr = d + i0 * o->xs[2] + i1 * o->xs[3];                                \
                const TT *tr = t + (i0 * o->in[1] + i1) * o->in[2];                        \
                if (f->notap)                                                              \
                    for (int64_t i2 = 0; i2 < o->in[2]; i2++)                              \
                        dr[i2 * o->xs[4]] = beta == 0 ? (TT)0 : be * dr[i2 * o->xs[4]];    \
                else                                                                       \
                    for (int64_t i2 = 0; i2 < o->in[2]; i2++) {                            \
                        TT v = al * tr[i2];                                                \
                        if (beta != 0) v += be * dr[i2 * o->xs[4]];                        \
                        dr[i2 * o->xs[4]] = v;                                             \
                    }                                                                      \
            }                                                                              \
    } while (0)

static void interleave_planes(const pdnn_conv_problem *p, const ilv_phase *f, const char *tmp,
                              int64_t n0, int64_t pl, char *dx, double alpha, double beta)
{
    if (p->dtype != PDNN_DATA_DOUBLE)
        INTERLEAVE(float);
    else
        INTERLEAVE(double);
}
#undef INTERLEAVE

/* Whether phases a and b (a first: its row's first column is the left one) hold the
 * two column phases of the same dx rows at stride 2 along contiguous rows: b's columns
 * one to the right of a's, as many or one fewer. */
static bool pairs_ordered(const ilv_phase *a, const ilv_phase *b)
{
    return !a->notap && !b->notap && a->o.xs[4] == 2 && b->o.xs[4] == 2 &&
           b->xoff == a->xoff + 1 && a->o.in[0] == b->o.in[0] && a->o.in[1] == b->o.in[1] &&
           a->o.xs[2] == b->o.xs[2] && a->o.xs[3] == b->o.xs[3] &&
           (a->o.in[2] == b->o.in[2] || a->o.in[2] == b->o.in[2] + 1);
}

/* Whether phases x and y, in either order, are such a pair. */
static bool pairs(const ilv_phase *x, const ilv_phase *y)
{
    return pairs_ordered(x, y) || pairs_ordered(y, x);
}

/* Plane pl of the pair (x, y) (pairs(x, y); alpha = 1, beta = 0, f32): each dx row is
 * the left phase's row and the right one's interleaved. */
static void interleave_pair(const pdnn_conv_problem *p, const ilv_phase *x, const ilv_phase *y,
                            const char *tmp, int64_t n0, int64_t pl, char *dx,
                            pdnn_f32_interleave2_fn il)
{
    const ilv_phase *a = pairs_ordered(x, y) ? x : y, *b = a == x ? y : x;
    const float *ta = (const float *)tmp + a->toff + pl * a->plane;
    const float *tb = (const float *)tmp + b->toff + pl * b->plane;
    float *d = (float *)dx + (n0 + pl / p->c) * p->xs[0] + pl % p->c * p->xs[1] + a->xoff;
    const pdnn_conv_geom3 *o = &a->o;
    const int64_t na = o->in[2], nb = b->o.in[2];
    for (int64_t i0 = 0; i0 < o->in[0]; i0++)
        for (int64_t i1 = 0; i1 < o->in[1]; i1++)
            il(ta + (i0 * o->in[1] + i1) * na, tb + (i0 * o->in[1] + i1) * nb, (size_t)(na + nb),
               d + i0 * o->xs[2] + i1 * o->xs[3]);
}

/* One phase's planes of the chunk, the threads splitting them. */
static void interleave_phase(const pdnn_conv_problem *p, const ilv_phase *f, const char *tmp,
                             int64_t n0, int64_t nimg, char *dx, double alpha, double beta,
                             int nt)
{
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static)
    for (int64_t pl = 0; pl < nimg * p->c; pl++)
        interleave_planes(p, f, tmp, n0, pl, dx, alpha, beta);
}

/* One phase's interleave description (nimg images in the chunk; toff: its block). */
static void ilv_of(const bwdd_phase *ph, int64_t nimg, int64_t toff, ilv_phase *f)
{
    pdnn_conv_problem q; /* its dense layout in tmp */
    dense_phase(ph, nimg, &q);
    f->notap = ph->notap;
    f->xoff = ph->xoff;
    f->toff = toff;
    f->plane = q.xs[1];
    pdnn_conv_widen(&ph->q, &f->o); /* its elements in dx */
}

/* dx of images n0 .. n0 + nimg - 1 from the chunk's dense phases at tmp (phase by phase,
 * [n][c][spatial] each, in FOR_PHASES order), the threads splitting the (n, c) planes;
 * a plane's phases one after the other while its dx lines are in cache. */
static void interleave_phases(const pdnn_conv_problem *p, const char *tmp, int64_t n0,
                              int64_t nimg, char *dx, double alpha, double beta, int nt)
{
    ilv_phase fs[ILV_MAX];
    int nf = 0;
    bool fits = true;
    int64_t toff = 0;
    bwdd_phase ph;
    FOR_PHASES(p, ph, {
        if (!ph.none) {
            ilv_phase f;
            ilv_of(&ph, nimg, toff, &f);
            if (nf < ILV_MAX) fs[nf++] = f;
            else fits = false;
            if (!ph.notap) toff += nimg * f.plane * p->c;
        }
    });
    if (fits) {
        /* f32, alpha = 1, beta = 0, contiguous dx rows: the two column phases of stride 2
         * (consecutive in FOR_PHASES order) merged row by row by the interleave kernel */
        bool pair[ILV_MAX] = {false};
        const pdnn_f32_interleave2_fn il =
            p->dtype == PDNN_DATA_FLOAT && alpha == 1 && beta == 0 && p->nsp > 0 &&
                    p->stride[p->nsp - 1] == 2
                ? pdnn_f32_interleave2_select()
                : NULL;
        for (int i = 0; il && i + 1 < nf;) {
            pair[i] = pairs(&fs[i], &fs[i + 1]);
            i += pair[i] ? 2 : 1;
        }
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(static)
        for (int64_t pl = 0; pl < nimg * p->c; pl++)
            for (int i = 0; i < nf; i++) {
                if (il && pair[i]) {
                    interleave_pair(p, &fs[i], &fs[i + 1], tmp, n0, pl, dx, il);
                    i++;
                } else {
                    interleave_planes(p, &fs[i], tmp, n0, pl, dx, alpha, beta);
                }
            }
        return;
    }
    /* more phases than described at once: phase by phase */
    toff = 0;
    FOR_PHASES(p, ph, {
        if (!ph.none) {
            ilv_phase f;
            ilv_of(&ph, nimg, toff, &f);
            interleave_phase(p, &f, tmp, n0, nimg, dx, alpha, beta, nt);
            if (!ph.notap) toff += nimg * f.plane * p->c;
        }
    });
}


static pdnnStatus_t bwdd_exec(const void *prob, const void *args, const pdnn_ctx *ctx)
{
    const pdnn_conv_problem *p = prob;
    const pdnn_conv_args *arg = args;
    pdnn_conv_gemm_geom g;
    pdnn_conv_gemm_geom_init(p, &g);
    if (g.n == 0 || g.geo.cg == 0 || g.nin == 0) return PDNN_STATUS_SUCCESS; /* dx empty */
    if (fwd_form_applies(p) && phased(p)) {
        /* chunks of images: every phase into the dense buffer, then interleaved */
        const int64_t nb = phase_images(p, g.es);
        char *tmp = pdnn_gemm_align_ptr(ctx->ws);
        char *apk = pdnn_gemm_align_ptr(tmp + nb * dx_image(p) * (int64_t)g.es);
        phase_pack pk[PACK_PHASES_MAX];
        int npk;
        size_t ab;
        const bool pre = phase_packs(p, g.uk->mr, g.uk->nr, nb, apk, pk, &npk, &ab);
        if (pre) pack_phases(p, g.uk->mr, pk, npk, arg->wei, ctx->nthreads);
        pdnn_ctx sub = *ctx;
        sub.ws = apk + (pre ? ab : 0);
        pdnnStatus_t st = PDNN_STATUS_SUCCESS;
        for (int64_t n0 = 0; n0 < g.n && st == PDNN_STATUS_SUCCESS; n0 += nb) {
            const int64_t nimg = g.n - n0 < nb ? g.n - n0 : nb;
            int64_t toff = 0;
            int fi = 0; /* the phase's index among those with taps */
            bwdd_phase ph;
            FOR_PHASES(p, ph, {
                if (!ph.none && !ph.notap && st == PDNN_STATUS_SUCCESS) {
                    pdnn_conv_problem q, f;
                    dense_phase(&ph, nimg, &q);
                    fwd_form(&q, &f);
                    pdnn_conv_args a = *arg;
                    a.src = (const char *)arg->src + n0 * p->ys[0] * (int64_t)g.es;
                    a.wei = (const char *)arg->wei + ph.woff * (int64_t)g.es;
                    a.dst = tmp + toff * (int64_t)g.es;
                    a.alpha = 1.0;
                    a.beta = 0.0;
                    st = pdnn_conv_gemm_fwd_run(&f, &q, &a, &sub, pre ? pk[fi].a : NULL);
                    toff += nimg * q.xs[0];
                    fi++;
                }
            });
            interleave_phases(p, tmp, n0, nimg, arg->dst, arg->alpha, arg->beta, ctx->nthreads);
        }
        return st;
    }
    if (fwd_form_applies(p)) {
        bwdd_phase ph;
        pdnnStatus_t st = PDNN_STATUS_SUCCESS;
        FOR_PHASES(p, ph, {
            if (!ph.none && st == PDNN_STATUS_SUCCESS) {
                char *dx = (char *)arg->dst + ph.xoff * (int64_t)g.es;
                if (ph.notap) {
                    scale_phase(&g, &ph.q, dx, arg->beta);
                } else {
                    pdnn_conv_problem f;
                    fwd_form(&ph.q, &f);
                    pdnn_conv_args a = *arg;
                    a.wei = (const char *)arg->wei + ph.woff * (int64_t)g.es;
                    a.dst = dx;
                    st = pdnn_conv_gemm_fwd_run(&f, &ph.q, &a, ctx, NULL);
                }
            }
        });
        return st;
    }

    pdnn_conv_gemm_arena ar = pdnn_conv_gemm_arena_on(ctx->ws);
    bwdd_bufs b;
    bwdd_layout(&g, &ar, &b);
    pdnn_conv_gemm_taps(p, &g, b.tab);
    const int64_t *ot[3];
    {
        int64_t *o = b.otab;
        for (int d = 0; d < 3; d++) {
            ot[d] = o;
            for (int64_t i = 0; i < g.geo.in[d]; i++)
                for (int64_t r = 0; r < g.geo.kern[d]; r++) {
                    const int64_t e = (p->flip ? g.geo.kern[d] - 1 - r : r) * g.geo.dil[d];
                    const int64_t num = i + g.geo.pad[d] - e;
                    int64_t v = -1;
                    if (num >= 0 && num % g.geo.str[d] == 0 && num / g.geo.str[d] < g.geo.out[d])
                        v = num / g.geo.str[d];
                    *o++ = v;
                }
        }
    }

    const pdnn_gemm_ukernel *uk = g.uk;
    const int mr = uk->mr, nr = uk->nr;
    const size_t es = g.es;
    const int64_t T = g.taps, kg = g.geo.kg, mp = (T + mr - 1) / mr, apg = mp * mr * kg;
    const int64_t nb = bwdd_images(&g), nch = (g.n + nb - 1) / nb, ccap = nb * g.npix;
    const char *dy = arg->src, *w = arg->wei;
    char *dx = arg->dst;
    const double alpha = arg->alpha, beta = arg->beta;
    const int nt = ctx->nthreads;

#pragma omp parallel num_threads(nt) if (nt > 1)
    {
        if (kg > 0) {
#pragma omp for schedule(static)
            for (int64_t i = 0; i < g.g * mp; i++) { /* A = W_g^T: rows taps, cols k */
                const int64_t grp = i / mp, q = i % mp;
                const int64_t rows = T - q * mr < mr ? T - q * mr : mr;
                pdnn_gemm_pack_a(uk, rows, kg, w + (grp * kg * T + q * mr) * (int64_t)es, 1, T,
                                 b.wp + (grp * apg + q * mr * kg) * (int64_t)es);
            }
        }
        for (int64_t ch = 0; ch < g.g * nch; ch++) {
            const int64_t grp = ch / nch, n0 = (ch % nch) * nb;
            const int64_t nimg = g.n - n0 < nb ? g.n - n0 : nb;
            const int64_t ncol = nimg * g.npix, col0 = n0 * g.npix;
            if (kg > 0) {
#pragma omp for schedule(static)
                for (int64_t q = 0; q < (ncol + nr - 1) / nr; q++) { /* B = dY_g */
                    const int64_t c0 = col0 + q * nr;
                    const int64_t nl = ncol - q * nr < nr ? ncol - q * nr : nr;
                    char *dst = b.bp + q * kg * nr * (int64_t)es;
                    const char *src = dy + grp * kg * g.geo.ys[1] * (int64_t)es;
                    if (g.ycol_affine) {
                        pdnn_conv_gemm_pack_panel(es, nr, nl, kg, src + c0 * g.ycs * (int64_t)es,
                                                  g.ycs, NULL, g.geo.ys[1], NULL, dst);
                    } else {
                        int64_t loff[PDNN_GEMM_NR_MAX];
                        pdnn_conv_gemm_ycol_offs(&g, c0, nl, loff);
                        pdnn_conv_gemm_pack_panel(es, nr, nl, kg, src, 0, loff, g.geo.ys[1], NULL,
                                                  dst);
                    }
                }
            }
            /* tiles of this chunk's columns (not the capacity's: see the forward) */
            const pdnn_conv_gemm_tiles tl = pdnn_conv_gemm_tiling(uk, T, ncol, 1, nt);
            int64_t tlo, thi;
            pdnn_conv_gemm_task_share(&tl, uk, T, ncol, &tlo, &thi);
            for (int64_t task = tlo; task < thi; task++) {
                int64_t i0, mm, j0, nn;
                if (!pdnn_conv_gemm_task(&tl, uk, task, T, ncol, &i0, &mm, &j0, &nn)) continue;
                pdnn_gemm_macro(uk, mm, nn, kg, b.wp + (grp * apg + i0 * kg) * (int64_t)es,
                                kg * mr, b.bp + j0 * kg * (int64_t)es, kg * nr,
                                b.col + (i0 * ccap + j0) * (int64_t)es, ccap, 1, NULL, 1.0, 0.0);
            }
#pragma omp barrier
            const int64_t rows = nimg * g.geo.cg * g.geo.in[0] * g.geo.in[1];
#pragma omp for schedule(static)
            for (int64_t r = 0; r < rows; r++) {
                int64_t q = r;
                const int64_t i1 = q % g.geo.in[1];
                q /= g.geo.in[1];
                const int64_t i0 = q % g.geo.in[0];
                q /= g.geo.in[0];
                const int64_t c = q % g.geo.cg, ni = q / g.geo.cg;
                const int64_t dxoff = (n0 + ni) * g.geo.xs[0] + (grp * g.geo.cg + c) * g.geo.xs[1] +
                                      i0 * g.geo.xs[2] + i1 * g.geo.xs[3];
                if (es == sizeof(float))
                    gather_row(&g, ot, p->flip, b.col, ccap, ni * g.npix, c, i0, i1, dx, dxoff,
                               alpha, beta, sizeof(float));
                else
                    gather_row(&g, ot, p->flip, b.col, ccap, ni * g.npix, c, i0, i1, dx, dxoff,
                               alpha, beta, sizeof(double));
            }
        }
    }
    return PDNN_STATUS_SUCCESS;
}

const pdnn_impl pdnn_conv_bwd_data_cpu_gemm = {
    "cpu:gemm", PDNN_CONVOLUTION_BWD_DATA_ALGO_1, PDNN_ISA_SCALAR,
    PDNN_IMPL_DETERMINISTIC, bwdd_supports, bwdd_workspace, bwdd_exec,
};
