/* pdnnReduceTensor against a double-precision oracle written here: every op, both data
 * types, random ranks, reduced-dimension sets and layouts (permuted, gapped, zero-sized),
 * flattened indices of every index type, NaN options, beta blending with NaN-poisoned
 * outputs, hand-worked cases and 1 vs 2 threads bitwise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_layout.h"

static pdnnHandle_t H;

typedef struct {
    int nb;
    int dim[PDNN_DIM_MAX];
    int st[PDNN_DIM_MAX];
} lay;

/* dims with strides from tests/common/tu_layout.h (kind: TU_LAYOUT_*) */
static void lay_make(lay *L, int nb, const int *dim, int kind)
{
    L->nb = nb;
    for (int i = 0; i < nb; i++) L->dim[i] = dim[i];
    tu_layout_strides(nb, dim, kind, L->st);
}

static size_t lay_span(const lay *L) { return (size_t)tu_layout_span(L->nb, L->dim, L->st); }
static size_t lay_numel(const lay *L) { return (size_t)tu_layout_numel(L->nb, L->dim); }

static size_t lay_off(const lay *L, const int *idx)
{
    size_t o = 0;
    for (int i = 0; i < L->nb; i++) o += (size_t)idx[i] * (size_t)L->st[i];
    return o;
}

static double sc_get(pdnnDataType_t t, tu_scalar s) { return t == PDNN_DATA_DOUBLE ? s.d : s.f; }

/* ------------------------------------------------------------------ oracle */

/* Reduces the values x[0..n-1] (in flattened order); *idx gets the chosen index. */
static double oracle(pdnnReduceTensorOp_t op, bool prop, const double *x, int64_t n, int64_t *idx)
{
    double s = 0, p = 1;
    *idx = 0;
    switch (op) {
    case PDNN_REDUCE_TENSOR_ADD:
    case PDNN_REDUCE_TENSOR_AVG:
        for (int64_t i = 0; i < n; i++) s += x[i];
        return op == PDNN_REDUCE_TENSOR_AVG ? s / (double)n : s;
    case PDNN_REDUCE_TENSOR_NORM1:
        for (int64_t i = 0; i < n; i++) s += fabs(x[i]);
        return s;
    case PDNN_REDUCE_TENSOR_NORM2:
        for (int64_t i = 0; i < n; i++) s += x[i] * x[i];
        return sqrt(s);
    case PDNN_REDUCE_TENSOR_MUL:
        for (int64_t i = 0; i < n; i++) p *= x[i];
        return p;
    case PDNN_REDUCE_TENSOR_MUL_NO_ZEROS:
        for (int64_t i = 0; i < n; i++)
            if (x[i] != 0) p *= x[i];
        return p;
    default: break;
    }
    /* MIN, MAX, AMAX */
    if (prop)
        for (int64_t i = 0; i < n; i++)
            if (isnan(x[i])) {
                *idx = i;
                return NAN;
            }
    bool have = false;
    double best = NAN;
    for (int64_t i = 0; i < n; i++) {
        if (isnan(x[i])) continue;
        double v = op == PDNN_REDUCE_TENSOR_AMAX ? fabs(x[i]) : x[i];
        bool better = op == PDNN_REDUCE_TENSOR_MIN ? v < best : v > best;
        if (!have || better) best = v, *idx = i, have = true;
    }
    return best; /* NaN (index 0) when every value is NaN */
}

static uint64_t get_index(const void *ind, pdnnIndicesType_t it, size_t i)
{
    switch (it) {
    case PDNN_64BIT_INDICES: return ((const uint64_t *)ind)[i];
    case PDNN_16BIT_INDICES: return ((const uint16_t *)ind)[i];
    case PDNN_8BIT_INDICES: return ((const uint8_t *)ind)[i];
    default: return ((const uint32_t *)ind)[i];
    }
}

static size_t idx_size(pdnnIndicesType_t it)
{
    return it == PDNN_64BIT_INDICES ? 8 : it == PDNN_16BIT_INDICES ? 2 : it == PDNN_8BIT_INDICES ? 1 : 4;
}

typedef struct {
    pdnnReduceTensorOp_t op;
    bool prop, want_idx;
    pdnnIndicesType_t it;
    pdnnDataType_t t;
    lay LA, LC;
    double alpha, beta;
    int fill; /* 0: ints in [-3,3]; 1: with NaNs; 2: uniform reals */
} rcase;

/* Runs one reduction and compares C (whole span, gaps included) and the indices.
 * Returns the number of mismatches. */
static size_t run_case(const rcase *e)
{
    pdnnDataType_t t = e->t;
    size_t sa = lay_span(&e->LA), sc = lay_span(&e->LC), nc = lay_numel(&e->LC);
    void *A = tu_alloc(t, sa ? sa : 1), *C = tu_alloc(t, sc ? sc : 1);
    if (e->fill == 2)
        tu_fill_uniform(A, t, sa, -2, 2);
    else
        tu_fill_int(A, t, sa, -3, 3);
    if (e->fill == 1)
        for (size_t i = 0; i < sa; i++)
            if (tu_int(0, 5) == 0) tu_put(A, t, i, NAN);
    if (e->beta == 0.0)
        tu_poison(C, t, sc);
    else
        tu_fill_int(C, t, sc, -4, 4);
    size_t ib = nc * idx_size(e->it);
    unsigned char *ind = malloc(ib ? ib : 1);
    memset(ind, 0xAB, ib ? ib : 1);
    double *ref = malloc((sc ? sc : 1) * sizeof *ref);
    uint64_t *rind = calloc(nc ? nc : 1, sizeof *rind);
    for (size_t i = 0; i < sc; i++) ref[i] = tu_get(C, t, i);
    tu_scalar al = tu_sc(t, e->alpha), be = tu_sc(t, e->beta);
    size_t na = lay_numel(&e->LA);
    if (na > 0) {
        int rdim[PDNN_DIM_MAX];
        int64_t nred = 1;
        for (int i = 0; i < e->LA.nb; i++) {
            rdim[i] = e->LC.dim[i] == 1 ? e->LA.dim[i] : 1;
            nred *= rdim[i];
        }
        double *x = malloc((size_t)nred * sizeof *x);
        int ci[PDNN_DIM_MAX] = {0};
        size_t o = 0;
        do {
            int ri[PDNN_DIM_MAX] = {0}, ai[PDNN_DIM_MAX];
            int64_t r = 0;
            do {
                for (int i = 0; i < e->LA.nb; i++) ai[i] = rdim[i] > 1 ? ri[i] : ci[i];
                x[r++] = tu_get(A, t, lay_off(&e->LA, ai));
            } while (tu_next_index(ri, rdim, e->LA.nb));
            int64_t idx;
            double v = sc_get(t, al) * oracle(e->op, e->prop, x, nred, &idx);
            size_t oc = lay_off(&e->LC, ci);
            ref[oc] = e->beta == 0.0 ? v : v + sc_get(t, be) * ref[oc];
            rind[o++] = (uint64_t)idx;
        } while (tu_next_index(ci, e->LC.dim, e->LC.nb));
        free(x);
    }
    pdnnTensorDescriptor_t dA = tu_tensor(t, e->LA.nb, e->LA.dim, e->LA.st),
                           dC = tu_tensor(t, e->LC.nb, e->LC.dim, e->LC.st);
    pdnnReduceTensorDescriptor_t rd;
    pdnnCreateReduceTensorDescriptor(&rd);
    pdnnSetReduceTensorDescriptor(rd, e->op, t, e->prop ? PDNN_PROPAGATE_NAN : PDNN_NOT_PROPAGATE_NAN,
                                  e->want_idx ? PDNN_REDUCE_TENSOR_FLATTENED_INDICES
                                              : PDNN_REDUCE_TENSOR_NO_INDICES,
                                  e->it);
    size_t need = 1, ws = 1;
    TU_OK(pdnnGetReductionIndicesSize(H, rd, dA, dC, &need));
    TU_OK(pdnnGetReductionWorkspaceSize(H, rd, dA, dC, &ws));
    TU_CHECK(need == (e->want_idx ? ib : 0), "indices size %zu, expected %zu", need,
             e->want_idx ? ib : (size_t)0);
    TU_CHECK(ws == 0, "workspace %zu", ws);
    size_t bad = 0;
    pdnnStatus_t st = pdnnReduceTensor(H, rd, e->want_idx ? ind : NULL, e->want_idx ? ib : 0, NULL,
                                       0, &al, dA, A, &be, dC, C);
    if (st != PDNN_STATUS_SUCCESS) {
        char m[512];
        pdnnGetLastErrorString(m, sizeof m);
        TU_CHECK(0, "reduce failed: %s", m);
        bad = 1;
    } else {
        bad = tu_count_mismatch(ref, C, t, sc);
        if (e->want_idx && na > 0)
            for (size_t i = 0; i < nc; i++) bad += get_index(ind, e->it, i) != rind[i];
        if (na == 0)
            for (size_t i = 0; i < ib; i++) bad += ind[i] != 0xAB;
    }
    pdnnDestroyReduceTensorDescriptor(rd);
    pdnnDestroyTensorDescriptor(dA);
    pdnnDestroyTensorDescriptor(dC);
    free(A), free(C), free(ind), free(ref), free(rind);
    return bad;
}

static void random_cases(pdnnDataType_t t, int count)
{
    static const double alphas[] = {1.0, 2.0, -0.5, 0.0};
    static const double betas[] = {0.0, 1.0, -2.0, 0.5};
    for (int n = 0; n < count; n++) {
        rcase e;
        memset(&e, 0, sizeof e);
        e.t = t;
        e.op = (pdnnReduceTensorOp_t)tu_int(0, 8);
        e.prop = tu_int(0, 1);
        bool ext = e.op == PDNN_REDUCE_TENSOR_MIN || e.op == PDNN_REDUCE_TENSOR_MAX ||
                   e.op == PDNN_REDUCE_TENSOR_AMAX;
        e.want_idx = ext && tu_int(0, 3) != 0;
        e.fill = ext && tu_int(0, 2) == 0 ? 1 : tu_int(0, 3) == 0 ? 2 : 0;
        int nb = tu_int(0, 9) == 0 ? tu_int(6, 8) : tu_int(1, 5);
        int da[PDNN_DIM_MAX], dc[PDNN_DIM_MAX];
        for (;;) {
            size_t na = 1;
            for (int i = 0; i < nb; i++) {
                da[i] = tu_int(tu_int(0, 9) == 0 ? 0 : 1, nb > 5 ? 3 : 6);
                na *= (size_t)(da[i] ? da[i] : 1);
            }
            if (na <= 2000) break;
        }
        int64_t nred = 1;
        for (int i = 0; i < nb; i++) {
            dc[i] = tu_int(0, 1) ? 1 : da[i];
            if (dc[i] == 1) nred *= da[i];
        }
        int itc = tu_int(0, 5);
        e.it = itc <= 2 ? PDNN_32BIT_INDICES : (pdnnIndicesType_t)(itc - 2);
        if (e.it == PDNN_8BIT_INDICES && nred > 256) e.it = PDNN_16BIT_INDICES;
        lay_make(&e.LA, nb, da, tu_int(0, 2));
        lay_make(&e.LC, nb, dc, tu_int(0, 2));
        e.alpha = alphas[tu_int(0, 3)];
        e.beta = betas[tu_int(0, 3)];
        size_t bad = run_case(&e);
        TU_CHECK(bad == 0, "%s case %d op %d rank %d nred %lld idx %d: %zu mismatches",
                 t ? "f64" : "f32", n, (int)e.op, nb, (long long)nred, (int)e.want_idx, bad);
    }
}

/* Named shapes: NCHW/NHWC per-channel sums (batch-norm style), full reductions, no
 * reduction at all, 1x1 spatial. */
static void named_cases(pdnnDataType_t t)
{
    int d[4] = {3, 5, 4, 6}, c1[4] = {1, 5, 1, 1}, all1[4] = {1, 1, 1, 1};
    int nhwc[4] = {120, 1, 30, 5};
    for (int op = 0; op <= 8; op++) {
        rcase e;
        memset(&e, 0, sizeof e);
        e.t = t;
        e.op = (pdnnReduceTensorOp_t)op;
        e.alpha = 1.0;
        e.want_idx = op == PDNN_REDUCE_TENSOR_MIN || op == PDNN_REDUCE_TENSOR_MAX ||
                     op == PDNN_REDUCE_TENSOR_AMAX;
        lay_make(&e.LA, 4, d, TU_LAYOUT_PACKED);
        lay_make(&e.LC, 4, c1, TU_LAYOUT_PACKED);
        TU_CHECK(run_case(&e) == 0, "op %d: NCHW per channel", op);
        memcpy(e.LA.st, nhwc, sizeof nhwc);
        TU_CHECK(run_case(&e) == 0, "op %d: NHWC per channel", op);
        lay_make(&e.LC, 4, all1, TU_LAYOUT_PACKED);
        TU_CHECK(run_case(&e) == 0, "op %d: full reduction", op);
        e.LC = e.LA;
        e.fill = 1; /* NaN singletons */
        TU_CHECK(run_case(&e) == 0, "op %d: no reduction", op);
        int s11[4] = {2, 7, 1, 1}, s1c[4] = {2, 1, 1, 1};
        lay_make(&e.LA, 4, s11, TU_LAYOUT_GAPPED);
        lay_make(&e.LC, 4, s1c, TU_LAYOUT_GAPPED);
        e.fill = 0;
        e.beta = -1.0;
        TU_CHECK(run_case(&e) == 0, "op %d: 1x1 spatial", op);
    }
}

static void hand_cases(void)
{
    float A[6] = {1, -4, 3, 0, 0, 0}, C[2];
    uint32_t ind[2];
    int da[2] = {2, 3}, dc[2] = {2, 1};
    pdnnTensorDescriptor_t a = tu_tensor(PDNN_DATA_FLOAT, 2, da, NULL),
                           c = tu_tensor(PDNN_DATA_FLOAT, 2, dc, NULL);
    pdnnReduceTensorDescriptor_t rd;
    TU_OK(pdnnCreateReduceTensorDescriptor(&rd));
    float one = 1, zero = 0;
    static const float want[9][2] = {{0, 0},  {-12, 0}, {-4, 0}, {3, 0}, {4, 0},
                                      {0, 0},  {8, 0},   {0, 0},  {-12, 1}};
    static const uint32_t want_idx[9][2] = {{0}, {0}, {1, 0}, {2, 0}, {1, 0}};
    for (int op = 0; op <= 8; op++) {
        bool ext = op >= 2 && op <= 4;
        TU_OK(pdnnSetReduceTensorDescriptor(rd, (pdnnReduceTensorOp_t)op, PDNN_DATA_FLOAT,
                                            PDNN_NOT_PROPAGATE_NAN,
                                            ext ? PDNN_REDUCE_TENSOR_FLATTENED_INDICES
                                                : PDNN_REDUCE_TENSOR_NO_INDICES,
                                            PDNN_32BIT_INDICES));
        ind[0] = ind[1] = 99;
        TU_OK(pdnnReduceTensor(H, rd, ind, sizeof ind, NULL, 0, &one, a, A, &zero, c, C));
        float w0 = op == PDNN_REDUCE_TENSOR_NORM2 ? sqrtf(26.0f) : want[op][0];
        TU_CHECK(C[0] == w0 && C[1] == want[op][1], "op %d: %g %g", op, C[0], C[1]);
        if (ext)
            TU_CHECK(ind[0] == want_idx[op][0] && ind[1] == want_idx[op][1], "op %d idx %u %u", op,
                     ind[0], ind[1]);
    }
    /* flattened index over two non-adjacent reduced dims: A 2x2x3 -> C 1x2x1, index
     * i0 * 3 + i2 */
    float B[12] = {0}, D[2];
    B[1 * 6 + 0 * 3 + 2] = 5;  /* (1, 0, 2): index 5 */
    B[0 * 6 + 1 * 3 + 1] = -7; /* (0, 1, 1): index 1 */
    int db[3] = {2, 2, 3}, dd[3] = {1, 2, 1};
    pdnnTensorDescriptor_t b = tu_tensor(PDNN_DATA_FLOAT, 3, db, NULL),
                           d = tu_tensor(PDNN_DATA_FLOAT, 3, dd, NULL);
    TU_OK(pdnnSetReduceTensorDescriptor(rd, PDNN_REDUCE_TENSOR_AMAX, PDNN_DATA_FLOAT,
                                        PDNN_PROPAGATE_NAN, PDNN_REDUCE_TENSOR_FLATTENED_INDICES,
                                        PDNN_32BIT_INDICES));
    TU_OK(pdnnReduceTensor(H, rd, ind, sizeof ind, NULL, 0, &one, b, B, &zero, d, D));
    TU_CHECK(D[0] == 5 && ind[0] == 5 && D[1] == 7 && ind[1] == 1, "2-dim index: %g@%u %g@%u",
             D[0], ind[0], D[1], ind[1]);
    /* NaN: PROPAGATE gives the first NaN's index, NOT_PROPAGATE skips NaNs */
    float N[6] = {1, NAN, 3, NAN, NAN, NAN};
    TU_OK(pdnnSetReduceTensorDescriptor(rd, PDNN_REDUCE_TENSOR_MAX, PDNN_DATA_FLOAT,
                                        PDNN_PROPAGATE_NAN, PDNN_REDUCE_TENSOR_FLATTENED_INDICES,
                                        PDNN_32BIT_INDICES));
    TU_OK(pdnnReduceTensor(H, rd, ind, sizeof ind, NULL, 0, &one, a, N, &zero, c, C));
    TU_CHECK(isnan(C[0]) && ind[0] == 1 && isnan(C[1]) && ind[1] == 0, "MAX prop NaN");
    TU_OK(pdnnSetReduceTensorDescriptor(rd, PDNN_REDUCE_TENSOR_MAX, PDNN_DATA_FLOAT,
                                        PDNN_NOT_PROPAGATE_NAN,
                                        PDNN_REDUCE_TENSOR_FLATTENED_INDICES, PDNN_32BIT_INDICES));
    TU_OK(pdnnReduceTensor(H, rd, ind, sizeof ind, NULL, 0, &one, a, N, &zero, c, C));
    TU_CHECK(C[0] == 3 && ind[0] == 2 && isnan(C[1]) && ind[1] == 0, "MAX no-prop NaN: %g@%u",
             C[0], ind[0]);
    /* zero-sized A: nothing written */
    int dz[2] = {0, 3}, dz1[2] = {1, 3};
    pdnnTensorDescriptor_t z = tu_tensor(PDNN_DATA_FLOAT, 2, dz, NULL),
                           z1 = tu_tensor(PDNN_DATA_FLOAT, 2, dz1, NULL);
    float Z[3] = {9, 9, 9};
    uint32_t zi[3] = {9, 9, 9};
    TU_OK(pdnnReduceTensor(H, rd, zi, sizeof zi, NULL, 0, &one, z, NULL, &zero, z1, Z));
    TU_CHECK(Z[0] == 9 && Z[1] == 9 && Z[2] == 9 && zi[0] == 9 && zi[2] == 9,
             "zero-sized A wrote C or indices");
    TU_OK(pdnnReduceTensor(H, rd, NULL, 0, NULL, 0, &one, z, NULL, &zero, z, NULL));
    pdnnDestroyReduceTensorDescriptor(rd);
    pdnnDestroyTensorDescriptor(a), pdnnDestroyTensorDescriptor(c);
    pdnnDestroyTensorDescriptor(b), pdnnDestroyTensorDescriptor(d);
    pdnnDestroyTensorDescriptor(z), pdnnDestroyTensorDescriptor(z1);
}

/* Big enough to run threaded: 1 vs 2 threads bitwise, values and indices. */
static void thread_cases(pdnnDataType_t t)
{
    int shapes[3][2][3] = {{{64, 700, 1}, {64, 1, 1}},   /* contiguous rows */
                           {{700, 64, 1}, {1, 64, 1}},   /* strided columns */
                           {{16, 50, 48}, {16, 1, 48}}}; /* middle dim */
    for (int s = 0; s < 3; s++) {
        lay LA, LC;
        lay_make(&LA, 3, shapes[s][0], (s == 2) ? TU_LAYOUT_GAPPED : TU_LAYOUT_PACKED);
        lay_make(&LC, 3, shapes[s][1], (s == 2) ? TU_LAYOUT_GAPPED : TU_LAYOUT_PACKED);
        size_t sa = lay_span(&LA), sc = lay_span(&LC), nc = lay_numel(&LC);
        void *A = tu_alloc(t, sa), *C[2] = {tu_alloc(t, sc), tu_alloc(t, sc)};
        uint32_t *I[2] = {calloc(nc, 4), calloc(nc, 4)};
        tu_fill_uniform(A, t, sa, -1.5, 1.5);
        pdnnTensorDescriptor_t dA = tu_tensor(t, 3, LA.dim, LA.st), dC = tu_tensor(t, 3, LC.dim, LC.st);
        pdnnReduceTensorDescriptor_t rd;
        pdnnCreateReduceTensorDescriptor(&rd);
        tu_scalar al = tu_sc(t, 0.75), be = tu_sc(t, 0.25);
        for (int op = 0; op <= 8; op++) {
            bool ext = op >= 2 && op <= 4;
            pdnnSetReduceTensorDescriptor(rd, (pdnnReduceTensorOp_t)op, t, PDNN_PROPAGATE_NAN,
                                          ext ? PDNN_REDUCE_TENSOR_FLATTENED_INDICES
                                              : PDNN_REDUCE_TENSOR_NO_INDICES,
                                          PDNN_32BIT_INDICES);
            tu_fill_int(C[0], t, sc, -2, 2);
            memcpy(C[1], C[0], sc * tu_esize(t));
            for (int th = 0; th < 2; th++) {
                TU_OK(pdnnSetNumThreads(H, th + 1));
                TU_OK(pdnnReduceTensor(H, rd, I[th], nc * 4, NULL, 0, &al, dA, A, &be, dC, C[th]));
            }
            TU_CHECK(tu_bitwise_equal(C[0], C[1], sc * tu_esize(t)) &&
                         (!ext || tu_bitwise_equal(I[0], I[1], nc * 4)),
                     "shape %d op %d: 1 vs 2 threads differ", s, op);
        }
        /* and the threaded result is right */
        rcase e = {.op = PDNN_REDUCE_TENSOR_NORM2, .t = t, .LA = LA, .LC = LC, .alpha = 1,
                   .fill = 2};
        TU_CHECK(run_case(&e) == 0, "shape %d threaded NORM2 vs oracle", s);
        e.op = PDNN_REDUCE_TENSOR_MIN;
        e.want_idx = true;
        TU_CHECK(run_case(&e) == 0, "shape %d threaded MIN vs oracle", s);
        pdnnDestroyReduceTensorDescriptor(rd);
        pdnnDestroyTensorDescriptor(dA), pdnnDestroyTensorDescriptor(dC);
        free(A), free(C[0]), free(C[1]), free(I[0]), free(I[1]);
    }
}

int main(void)
{
    tu_seed(7);
    TU_OK(pdnnCreate(&H));
    TU_OK(pdnnSetNumThreads(H, 2));
    hand_cases();
    named_cases(PDNN_DATA_FLOAT);
    named_cases(PDNN_DATA_DOUBLE);
    random_cases(PDNN_DATA_FLOAT, 500);
    random_cases(PDNN_DATA_DOUBLE, 250);
    thread_cases(PDNN_DATA_FLOAT);
    thread_cases(PDNN_DATA_DOUBLE);
    TU_OK(pdnnDestroy(H));
    return tu_finish("ops/reduce");
}
