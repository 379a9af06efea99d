/* Body of the depthwise micro-kernels (dwconv_ukernels.h), included by each
 * <type>_dwconv__<isa>.c after it defines UK_T (float or double), UK_S (f32, f64),
 * UK_ISA (scalar, avx2, avx512) and UK_W (lanes of one vector of the ISA). A register
 * block holds UK_B = 2 * UK_W outputs: two gcc vectors (generic vector extension, one
 * register each at the file's ISA) kept in registers across the taps; the last,
 * partial block is computed over the final UK_B outputs again and stores only the new
 * ones (the same arithmetic per output), so no scalar tail runs once n >= UK_B. */

#define UK_B (2 * UK_W)

#define UK_CAT_(a, b, c) pdnn_##a##_dwconv_##b##__##c
#define UK_CAT(a, b, c) UK_CAT_(a, b, c)
#define UK_NAME(op) UK_CAT(UK_S, op, UK_ISA)

static inline void uk_blend(UK_T *o, UK_T acc, UK_T alpha, UK_T beta)
{
    UK_T v = alpha * acc;
    if (beta != 0) {
        UK_T u = beta * *o;
        v = v + u;
    }
    *o = v;
}

/* One vector of partial sums; loads and stores through the unaligned variant. */
typedef UK_T uk_vec __attribute__((vector_size(UK_W * sizeof(UK_T))));
typedef UK_T uk_vecu __attribute__((vector_size(UK_W * sizeof(UK_T)), aligned(sizeof(UK_T))));

#define UK_LOAD(p) (*(const uk_vecu *)(p))

/* Stores alpha * acc (+ beta * y) for elements from .. UK_W - 1 of the vector at y. */
static inline __attribute__((always_inline)) void uk_store(UK_T *restrict y,
                                                           const uk_vec *acc, size_t from,
                                                           UK_T alpha, UK_T beta)
{
    uk_vec v = alpha * *acc;
    if (from == 0) {
        if (beta != 0) {
            uk_vec u = beta * UK_LOAD(y);
            v = v + u;
        }
        *(uk_vecu *)y = v;
        return;
    }
    for (size_t j = from; j < UK_W; j++) {
        UK_T e = v[j];
        if (beta != 0) {
            UK_T u = beta * y[j];
            e = e + u;
        }
        y[j] = e;
    }
}

/* The two vectors of a block: the first stored from `from`, the second from
 * max(from - UK_W, 0). */
static inline __attribute__((always_inline)) void uk_store2(UK_T *restrict y, const uk_vec *a0,
                                                            const uk_vec *a1, size_t from,
                                                            UK_T alpha, UK_T beta)
{
    if (from < UK_W) uk_store(y, a0, from, alpha, beta);
    uk_store(y + UK_W, a1, from > UK_W ? from - UK_W : 0, alpha, beta);
}

/* One block of UK_B outputs at o, stored from index `from` of the block on. */
static inline __attribute__((always_inline)) void
    uk_row_block(size_t o, size_t from, size_t ntap, const UK_T *const *restrict x,
                 const UK_T *restrict w, size_t st, UK_T *restrict y, UK_T alpha, UK_T beta)
{
    uk_vec a0 = {0}, a1 = {0};
    for (size_t t = 0; t < ntap; t++) {
        const UK_T *xt = x[t] + o * st;
        uk_vec x0, x1;
        if (st == 1) {
            x0 = UK_LOAD(xt);
            x1 = UK_LOAD(xt + UK_W);
        } else {
            for (int j = 0; j < UK_W; j++) {
                x0[j] = xt[j * st];
                x1[j] = xt[(j + UK_W) * st];
            }
        }
        const UK_T wt = w[t];
        a0 += wt * x0;
        a1 += wt * x1;
    }
    uk_store2(y + o, &a0, &a1, from, alpha, beta);
}

void UK_NAME(row)(size_t n, size_t ntap, const UK_T *const *x, const UK_T *w, size_t st,
                  UK_T *y, UK_T alpha, UK_T beta)
{
    size_t o = 0;
    if (st == 1) {
        for (; o + UK_B <= n; o += UK_B) uk_row_block(o, 0, ntap, x, w, 1, y, alpha, beta);
        if (o < n && n >= UK_B) {
            uk_row_block(n - UK_B, o - (n - UK_B), ntap, x, w, 1, y, alpha, beta);
            o = n;
        }
    } else {
        for (; o + UK_B <= n; o += UK_B) uk_row_block(o, 0, ntap, x, w, st, y, alpha, beta);
        if (o < n && n >= UK_B) {
            uk_row_block(n - UK_B, o - (n - UK_B), ntap, x, w, st, y, alpha, beta);
            o = n;
        }
    }
    for (; o < n; o++) {
        UK_T acc = 0;
        for (size_t t = 0; t < ntap; t++) acc += w[t] * x[t][o * st];
        uk_blend(y + o, acc, alpha, beta);
    }
}

static inline __attribute__((always_inline)) void
    uk_chan_block(size_t c, size_t from, size_t ntap, const UK_T *const *restrict s,
                  const UK_T *const *restrict w, UK_T *restrict out, UK_T alpha, UK_T beta)
{
    uk_vec a0 = {0}, a1 = {0};
    for (size_t t = 0; t < ntap; t++) {
        const UK_T *st = s[t] + c, *wt = w[t] + c;
        a0 += UK_LOAD(wt) * UK_LOAD(st);
        a1 += UK_LOAD(wt + UK_W) * UK_LOAD(st + UK_W);
    }
    uk_store2(out + c, &a0, &a1, from, alpha, beta);
}

void UK_NAME(chan)(size_t n, size_t ntap, const UK_T *const *s, const UK_T *const *w,
                   UK_T *out, UK_T alpha, UK_T beta)
{
    size_t c = 0;
    for (; c + UK_B <= n; c += UK_B) uk_chan_block(c, 0, ntap, s, w, out, alpha, beta);
    if (c < n && n >= UK_B) {
        uk_chan_block(n - UK_B, c - (n - UK_B), ntap, s, w, out, alpha, beta);
        c = n;
    }
    for (; c < n; c++) {
        UK_T acc = 0;
        for (size_t t = 0; t < ntap; t++) acc += w[t][c] * s[t][c];
        uk_blend(out + c, acc, alpha, beta);
    }
}

void UK_NAME(dot16)(size_t n, const UK_T *restrict a, const UK_T *restrict b, size_t st,
                    UK_T *restrict acc)
{
    enum { L = PDNN_DWCONV_LANES };
    UK_T r[L];
    for (int j = 0; j < L; j++) r[j] = acc[j];
    size_t o = 0;
    if (st == 1)
        for (; o + L <= n; o += L)
            for (int j = 0; j < L; j++) r[j] += a[o + j] * b[o + j];
    else
        for (; o + L <= n; o += L)
            for (int j = 0; j < L; j++) r[j] += a[o + j] * b[(o + j) * st];
    for (int j = 0; o < n; o++, j++) r[j] += a[o] * b[o * st];
    for (int j = 0; j < L; j++) acc[j] = r[j];
}

/* Taps a few at a time: UK_NT x 16 lanes of independent partial sums in registers
 * (16 / UK_W vectors per tap: 9 taps, a 3x3 filter in one pass, where that is one
 * vector), a's block loaded once. */
#define UK_NV (PDNN_DWCONV_LANES / UK_W)
#define UK_NT (UK_NV == 1 ? 9 : 4)

void UK_NAME(dot16n)(size_t n, size_t ntap, const UK_T *restrict a, const UK_T *const *b,
                     UK_T *restrict acc)
{
    enum { L = PDNN_DWCONV_LANES };
    for (size_t t0 = 0; t0 < ntap; t0 += UK_NT) {
        const size_t nt = ntap - t0 < UK_NT ? ntap - t0 : UK_NT;
        uk_vec r[UK_NT][UK_NV];
        const UK_T *bt[UK_NT];
        for (size_t t = 0; t < UK_NT; t++) {
            bt[t] = b[t0 + (t < nt ? t : 0)];
            for (int v = 0; v < UK_NV; v++)
                r[t][v] = t < nt ? UK_LOAD(acc + (t0 + t) * L + v * UK_W) : (uk_vec){0};
        }
        size_t o = 0;
        for (; o + L <= n; o += L)
            for (int v = 0; v < UK_NV; v++) {
                const uk_vec av = UK_LOAD(a + o + v * UK_W);
                for (size_t t = 0; t < UK_NT; t++) r[t][v] += av * UK_LOAD(bt[t] + o + v * UK_W);
            }
        for (int j = 0; o < n; o++, j++)
            for (size_t t = 0; t < UK_NT; t++) r[t][j / UK_W][j % UK_W] += a[o] * bt[t][o];
        for (size_t t = 0; t < nt; t++)
            for (int v = 0; v < UK_NV; v++) *(uk_vecu *)(acc + (t0 + t) * L + v * UK_W) = r[t][v];
    }
}

#undef UK_NV
#undef UK_NT

/* One block of 4 UK_W flat outputs at f (taps in order, each product rounded). */
static inline __attribute__((always_inline)) void uk_flat_block(size_t f, size_t ntap,
                                                                const UK_T *const *restrict x,
                                                                const uk_vec *restrict wv,
                                                                UK_T *restrict y)
{
    uk_vec a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0};
    for (size_t t = 0; t < ntap; t++) {
        const UK_T *xt = x[t] + f;
        a0 += wv[t] * UK_LOAD(xt);
        a1 += wv[t] * UK_LOAD(xt + UK_W);
        a2 += wv[t] * UK_LOAD(xt + 2 * UK_W);
        a3 += wv[t] * UK_LOAD(xt + 3 * UK_W);
    }
    *(uk_vecu *)(y + f) = a0;
    *(uk_vecu *)(y + f + UK_W) = a1;
    *(uk_vecu *)(y + f + 2 * UK_W) = a2;
    *(uk_vecu *)(y + f + 3 * UK_W) = a3;
}

void UK_NAME(flat)(size_t n, size_t ntap, const UK_T *const *x, const UK_T *w, UK_T *y)
{
    enum { P = PDNN_DWCONV_FLAT_PAD };
    _Static_assert(P % (4 * UK_W) == 0, "flat blocks divide the padding");
    const size_t nb = (n + P - 1) / P * P;
    const UK_T *xp[PDNN_DWCONV_FLAT_TAPS];
    uk_vec wv[PDNN_DWCONV_FLAT_TAPS];
    for (size_t t0 = 0; t0 < ntap || t0 == 0; t0 += PDNN_DWCONV_FLAT_TAPS) {
        /* more taps than one call holds: later groups add to y (same order per output) */
        const size_t nt = ntap - t0 < PDNN_DWCONV_FLAT_TAPS ? ntap - t0 : PDNN_DWCONV_FLAT_TAPS;
        for (size_t t = 0; t < nt; t++) {
            xp[t] = x[t0 + t];
            for (int j = 0; j < UK_W; j++) wv[t][j] = w[t0 + t];
        }
        if (t0 == 0) {
            if (nt == 9)
                for (size_t f = 0; f < nb; f += 4 * UK_W) uk_flat_block(f, 9, xp, wv, y);
            else
                for (size_t f = 0; f < nb; f += 4 * UK_W) uk_flat_block(f, nt, xp, wv, y);
            continue;
        }
        for (size_t f = 0; f < nb; f += UK_W) {
            uk_vec a = UK_LOAD(y + f);
            for (size_t t = 0; t < nt; t++) a += wv[t] * UK_LOAD(xp[t] + f);
            *(uk_vecu *)(y + f) = a;
        }
    }
}

void UK_NAME(mac)(size_t n, const UK_T *restrict a, const UK_T *restrict b, UK_T *restrict acc)
{
    for (size_t c = 0; c < n; c++) acc[c] += a[c] * b[c];
}

void UK_NAME(macn)(size_t n, size_t ntap, const UK_T *restrict a, const UK_T *const *b,
                   UK_T *restrict acc, size_t ld)
{
    for (size_t t = 0; t < ntap; t++) {
        const UK_T *restrict bt = b[t];
        UK_T *restrict at = acc + t * ld;
        for (size_t c = 0; c < n; c++) at[c] += a[c] * bt[c];
    }
}

void UK_NAME(axpy)(size_t n, UK_T w, const UK_T *restrict x, UK_T *restrict acc)
{
    for (size_t j = 0; j < n; j++) acc[j] += w * x[j];
}

#undef UK_LOAD
#undef UK_B
#undef UK_NAME
#undef UK_CAT
#undef UK_CAT_
