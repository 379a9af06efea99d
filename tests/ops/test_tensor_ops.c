/* Elementwise tensor operations (SetTensor, ScaleTensor, AddTensor, OpTensor,
 * TransformTensor) against a double-precision oracle written here, at seeded random
 * ranks, shapes, broadcasts and layouts (permuted orders, gapped strides, zero-sized
 * dims), both data types; hand-worked cases; NaN options; in-place; 1 vs 2 threads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_layout.h"

static pdnnHandle_t H;

/* ------------------------------------------------------------------ layouts */

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

/* Offset of index idx; dims of size 1 in L broadcast (index 0). */
static size_t lay_off(const lay *L, const int *idx)
{
    size_t o = 0;
    for (int i = 0; i < L->nb; i++) o += (size_t)(L->dim[i] == 1 ? 0 : idx[i]) * (size_t)L->st[i];
    return o;
}

static pdnnTensorDescriptor_t lay_desc(pdnnDataType_t t, const lay *L)
{
    return tu_tensor(t, L->nb, L->dim, L->st);
}

/* Random dims: rank nb, each in [lo, hi], total at most maxel. */
static void rand_dims(int nb, int *dim, int lo, int hi, size_t maxel)
{
    for (;;) {
        size_t n = 1;
        for (int i = 0; i < nb; i++) dim[i] = tu_int(lo, hi), n *= (size_t)(dim[i] ? dim[i] : 1);
        if (n <= maxel) return;
    }
}

static double sc_get(pdnnDataType_t t, const tu_scalar *s) { return t == PDNN_DATA_DOUBLE ? s->d : s->f; }

/* ------------------------------------------------------------------ oracle */

typedef enum { K_SET, K_SCALE, K_ADDT, K_ADD, K_MUL, K_MIN, K_MAX, K_SQRT, K_NOT } kind_t;

static double o_min(double x, double y, bool prop)
{
    if (isnan(x) || isnan(y)) {
        if (prop) return NAN;
        return isnan(x) ? y : x;
    }
    return x <= y ? x : y;
}

static double o_max(double x, double y, bool prop)
{
    if (isnan(x) || isnan(y)) {
        if (prop) return NAN;
        return isnan(x) ? y : x;
    }
    return x >= y ? x : y;
}

/* The expected value of one element. */
static double oracle(kind_t k, bool prop, double a, double b, double c, double al1, double al2,
                     double beta)
{
    double v;
    switch (k) {
    case K_SET: return al1;
    case K_SCALE: return al1 * c;
    case K_ADDT: v = al1 * a; break;
    case K_ADD: v = al1 * a + al2 * b; break;
    case K_MUL: v = (al1 * a) * (al2 * b); break;
    case K_MIN: v = o_min(al1 * a, al2 * b, prop); break;
    case K_MAX: v = o_max(al1 * a, al2 * b, prop); break;
    case K_SQRT: v = sqrt(al1 * a); break;
    default: v = 1.0 - al1 * a; break;
    }
    return beta == 0.0 ? v : v + beta * c;
}

static const pdnnOpTensorOp_t kind_op[] = {0, 0, 0, PDNN_OP_TENSOR_ADD, PDNN_OP_TENSOR_MUL,
                                           PDNN_OP_TENSOR_MIN, PDNN_OP_TENSOR_MAX,
                                           PDNN_OP_TENSOR_SQRT, PDNN_OP_TENSOR_NOT};

/* One elementwise case: C laid out by LC, A by LA (dims equal C's or 1), B by LB.
 * aliasA/aliasB run in place on C (then LA/LB must equal LC). Returns mismatches. */
typedef struct {
    kind_t k;
    bool prop;
    pdnnDataType_t t;
    lay LA, LB, LC;
    double al1, al2, beta;
    bool alias_a, alias_b, nan_inputs;
} ecase;

static size_t run_case(const ecase *e0)
{
    ecase ec = *e0, *e = &ec;
    if (e->LB.nb == 0) e->LB = e->LC; /* unary or blend cases: B unused */
    pdnnDataType_t t = e->t;
    size_t sa = lay_span(&e->LA), sb = lay_span(&e->LB), sc = lay_span(&e->LC);
    void *A = tu_alloc(t, sa), *B = tu_alloc(t, sb), *C = tu_alloc(t, sc);
    bool sqrt_op = e->k == K_SQRT;
    tu_fill_int(A, t, sa, sqrt_op ? 0 : -4, sqrt_op ? 30 : 4);
    tu_fill_int(B, t, sb, -4, 4);
    if (e->nan_inputs) {
        for (size_t i = 0; i < sa; i++) if (tu_int(0, 4) == 0) tu_put(A, t, i, NAN);
        for (size_t i = 0; i < sb; i++) if (tu_int(0, 4) == 0) tu_put(B, t, i, NAN);
    }
    bool blends = e->k != K_SET && e->k != K_SCALE;
    if (blends && e->beta == 0.0 && !e->alias_a && !e->alias_b)
        tu_poison(C, t, sc);
    else
        tu_fill_int(C, t, sc, -5, 5);
    if (e->alias_a) memcpy(A, C, sc * tu_esize(t));
    if (e->alias_b) memcpy(B, C, sc * tu_esize(t));
    /* expected: C's whole span, gaps unchanged */
    double *ref = malloc((sc ? sc : 1) * sizeof *ref);
    for (size_t i = 0; i < sc; i++) ref[i] = tu_get(C, t, i);
    if (lay_numel(&e->LC) > 0) {
        int idx[PDNN_DIM_MAX] = {0};
        do {
            size_t oc = lay_off(&e->LC, idx);
            double a = blends ? tu_get(A, t, lay_off(&e->LA, idx)) : 0.0;
            double b = e->k >= K_ADD && e->k <= K_MAX ? tu_get(B, t, lay_off(&e->LB, idx)) : 0.0;
            /* scaling factors are rounded to the tensor type, as the API reads them */
            tu_scalar s1 = tu_sc(t, e->al1), s2 = tu_sc(t, e->al2), sbeta = tu_sc(t, e->beta);
            ref[oc] = oracle(e->k, e->prop, a, b, tu_get(C, t, oc), sc_get(t, &s1),
                             sc_get(t, &s2), sc_get(t, &sbeta));
        } while (tu_next_index(idx, e->LC.dim, e->LC.nb));
    }
    pdnnTensorDescriptor_t dA = lay_desc(t, &e->LA), dB = lay_desc(t, &e->LB),
                           dC = lay_desc(t, &e->LC);
    tu_scalar s1 = tu_sc(t, e->al1), s2 = tu_sc(t, e->al2), sbeta = tu_sc(t, e->beta);
    void *Ain = e->alias_a ? C : A, *Bin = e->alias_b ? C : B;
    pdnnStatus_t st;
    switch (e->k) {
    case K_SET: st = pdnnSetTensor(H, dC, C, &s1); break;
    case K_SCALE: st = pdnnScaleTensor(H, dC, C, &s1); break;
    case K_ADDT:
        st = tu_int(0, 1) && !memcmp(e->LA.dim, e->LC.dim, sizeof e->LA.dim) && !e->alias_a
                 ? pdnnTransformTensor(H, &s1, dA, Ain, &sbeta, dC, C)
                 : pdnnAddTensor(H, &s1, dA, Ain, &sbeta, dC, C);
        break;
    default: {
        pdnnOpTensorDescriptor_t od;
        pdnnCreateOpTensorDescriptor(&od);
        pdnnSetOpTensorDescriptor(od, kind_op[e->k], t,
                                  e->prop ? PDNN_PROPAGATE_NAN : PDNN_NOT_PROPAGATE_NAN);
        st = pdnnOpTensor(H, od, &s1, dA, Ain, &s2, dB, Bin, &sbeta, dC, C);
        pdnnDestroyOpTensorDescriptor(od);
    }
    }
    size_t bad = 0;
    if (st != PDNN_STATUS_SUCCESS) {
        char m[512];
        pdnnGetLastErrorString(m, sizeof m);
        TU_CHECK(0, "kind %d failed: %s", (int)e->k, m);
        bad = 1;
    } else {
        bad = tu_count_mismatch(ref, C, t, sc);
    }
    pdnnDestroyTensorDescriptor(dA);
    pdnnDestroyTensorDescriptor(dB);
    pdnnDestroyTensorDescriptor(dC);
    free(ref);
    free(A);
    free(B);
    free(C);
    return bad;
}

/* ------------------------------------------------------------------ random sweeps */

static void random_cases(pdnnDataType_t t, int count)
{
    static const double alphas[] = {1.0, 2.0, -0.5, 0.0, 3.0};
    static const double betas[] = {0.0, 1.0, -2.0, 0.5};
    for (int n = 0; n < count; n++) {
        ecase e;
        memset(&e, 0, sizeof e);
        e.t = t;
        e.k = (kind_t)tu_int(0, 8);
        int dim[PDNN_DIM_MAX] = {0}, da[PDNN_DIM_MAX] = {0}, db[PDNN_DIM_MAX] = {0};
        e.prop = tu_int(0, 1);
        int nb = tu_int(0, 9) == 0 ? tu_int(6, 8) : tu_int(1, 5);
        rand_dims(nb, dim, tu_int(0, 7) == 0 ? 0 : 1, nb > 5 ? 3 : 6, 3000);
        bool binary = e.k >= K_ADD && e.k <= K_MAX;
        for (int i = 0; i < nb; i++) {
            da[i] = e.k == K_ADDT && tu_int(0, 2) == 0 ? 1 : dim[i]; /* AddTensor broadcast */
            db[i] = tu_int(0, 2) == 0 ? 1 : dim[i];
        }
        lay_make(&e.LC, nb, dim, tu_int(0, 2));
        lay_make(&e.LA, nb, da, tu_int(0, 2));
        lay_make(&e.LB, nb, db, tu_int(0, 2));
        e.al1 = alphas[tu_int(0, 4)];
        e.al2 = alphas[tu_int(0, 4)];
        e.beta = betas[tu_int(0, 3)];
        e.nan_inputs = (e.k == K_MIN || e.k == K_MAX) && tu_int(0, 1);
        if (e.k >= K_ADD && tu_int(0, 4) == 0) { /* in place on A (same layout) */
            e.alias_a = true;
            e.LA = e.LC;
        } else if (binary && tu_int(0, 5) == 0) {
            e.alias_b = true;
            e.LB = e.LC;
        }
        size_t bad = run_case(&e);
        TU_CHECK(bad == 0, "%s case %d kind %d rank %d: %zu mismatches", t ? "f64" : "f32", n,
                 (int)e.k, nb, bad);
    }
}

/* Named layouts: NCHW <-> NHWC transforms, bias add on NHWC, 1x1 spatial, batch 1. */
static void named_cases(pdnnDataType_t t)
{
    int d4[4] = {2, 3, 4, 5};
    ecase e;
    memset(&e, 0, sizeof e);
    e.t = t;
    e.k = K_ADDT;
    e.al1 = 1.0;
    /* NCHW -> NHWC and back */
    e.LA.nb = e.LC.nb = 4;
    memcpy(e.LA.dim, d4, sizeof d4);
    memcpy(e.LC.dim, d4, sizeof d4);
    int nchw[4] = {60, 20, 5, 1}, nhwc[4] = {60, 1, 15, 3};
    memcpy(e.LA.st, nchw, sizeof nchw);
    memcpy(e.LC.st, nhwc, sizeof nhwc);
    TU_CHECK(run_case(&e) == 0, "NCHW->NHWC");
    memcpy(e.LA.st, nhwc, sizeof nhwc);
    memcpy(e.LC.st, nchw, sizeof nchw);
    e.beta = 1.0;
    TU_CHECK(run_case(&e) == 0, "NHWC->NCHW beta 1");
    /* bias 1xCx1x1 onto NHWC output */
    int bias[4] = {1, 3, 1, 1}, bst[4] = {3, 1, 1, 1};
    memcpy(e.LA.dim, bias, sizeof bias);
    memcpy(e.LA.st, bst, sizeof bst);
    memcpy(e.LC.st, nhwc, sizeof nhwc);
    TU_CHECK(run_case(&e) == 0, "bias onto NHWC");
    /* 1x1 spatial, batch 1, and a rank-1 tensor */
    int d11[4] = {1, 7, 1, 1};
    lay_make(&e.LC, 4, d11, TU_LAYOUT_PACKED);
    e.LA = e.LC;
    e.beta = 0.0;
    TU_CHECK(run_case(&e) == 0, "1x7x1x1");
    int d1[1] = {9};
    lay_make(&e.LC, 1, d1, TU_LAYOUT_GAPPED);
    int b1[1] = {1};
    lay_make(&e.LA, 1, b1, TU_LAYOUT_PACKED);
    TU_CHECK(run_case(&e) == 0, "scalar broadcast onto rank 1");
}

/* Worked by hand. */
static void hand_cases(void)
{
    pdnnTensorDescriptor_t c = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 2, 2, 2);
    pdnnTensorDescriptor_t b = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 2, 1, 1);
    float C[8] = {1, 2, 3, 4, 5, 6, 7, 8}, bias[2] = {10, 20};
    float one = 1, two = 2, half = 0.5f, zero = 0;
    /* C = 2 * bias + 0.5 * C */
    TU_OK(pdnnAddTensor(H, &two, b, bias, &half, c, C));
    float want[8] = {20.5f, 21, 21.5f, 22, 42.5f, 43, 43.5f, 44};
    TU_CHECK(!memcmp(C, want, sizeof want), "bias add by hand: %g %g ... %g", C[0], C[1], C[7]);
    /* OpTensor MAX with NaN, both options; NOT; SQRT */
    pdnnTensorDescriptor_t v = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 1, 1, 4);
    float a[4] = {1, NAN, 3, NAN}, bb[4] = {2, 5, NAN, NAN}, out[4];
    pdnnOpTensorDescriptor_t od;
    TU_OK(pdnnCreateOpTensorDescriptor(&od));
    TU_OK(pdnnSetOpTensorDescriptor(od, PDNN_OP_TENSOR_MAX, PDNN_DATA_FLOAT, PDNN_NOT_PROPAGATE_NAN));
    TU_OK(pdnnOpTensor(H, od, &one, v, a, &one, v, bb, &zero, v, out));
    TU_CHECK(out[0] == 2 && out[1] == 5 && out[2] == 3 && isnan(out[3]), "MAX no-prop: %g %g %g %g",
             out[0], out[1], out[2], out[3]);
    TU_OK(pdnnSetOpTensorDescriptor(od, PDNN_OP_TENSOR_MIN, PDNN_DATA_FLOAT, PDNN_PROPAGATE_NAN));
    TU_OK(pdnnOpTensor(H, od, &one, v, a, &one, v, bb, &zero, v, out));
    TU_CHECK(out[0] == 1 && isnan(out[1]) && isnan(out[2]) && isnan(out[3]), "MIN prop: %g %g",
             out[0], out[1]);
    float s[4] = {4, 9, 0, 2.25f};
    TU_OK(pdnnSetOpTensorDescriptor(od, PDNN_OP_TENSOR_SQRT, PDNN_DATA_FLOAT, PDNN_NOT_PROPAGATE_NAN));
    TU_OK(pdnnOpTensor(H, od, &one, v, s, NULL, NULL, NULL, &zero, v, out)); /* B unused */
    TU_CHECK(out[0] == 2 && out[1] == 3 && out[2] == 0 && out[3] == 1.5f, "SQRT: %g %g %g %g",
             out[0], out[1], out[2], out[3]);
    TU_OK(pdnnSetOpTensorDescriptor(od, PDNN_OP_TENSOR_NOT, PDNN_DATA_FLOAT, PDNN_NOT_PROPAGATE_NAN));
    TU_OK(pdnnOpTensor(H, od, &two, v, s, &one, v, s, &one, v, out)); /* out = 1 - 2s + out */
    TU_CHECK(out[0] == 1 - 8 + 2 && out[1] == 1 - 18 + 3 && out[2] == 1 && out[3] == 1 - 4.5f + 1.5f,
             "NOT: %g %g %g %g", out[0], out[1], out[2], out[3]);
    /* in place: C = C * C (MUL with A == B == C) */
    float sq[4] = {1, -2, 3, 0.5f};
    TU_OK(pdnnSetOpTensorDescriptor(od, PDNN_OP_TENSOR_MUL, PDNN_DATA_FLOAT, PDNN_NOT_PROPAGATE_NAN));
    TU_OK(pdnnOpTensor(H, od, &one, v, sq, &one, v, sq, &zero, v, sq));
    TU_CHECK(sq[0] == 1 && sq[1] == 4 && sq[2] == 9 && sq[3] == 0.25f, "in-place MUL");
    /* Set and Scale on a gapped tensor leave the gaps alone */
    int dims[2] = {2, 2}, st[2] = {3, 1};
    pdnnTensorDescriptor_t g = tu_tensor(PDNN_DATA_DOUBLE, 2, dims, st);
    double gb[5] = {7, 7, -1, 7, 7}, val = 3, sca = -2;
    TU_OK(pdnnSetTensor(H, g, gb, &val));
    TU_OK(pdnnScaleTensor(H, g, gb, &sca));
    TU_CHECK(gb[0] == -6 && gb[1] == -6 && gb[2] == -1 && gb[3] == -6 && gb[4] == -6,
             "set/scale gapped: %g %g %g %g %g", gb[0], gb[1], gb[2], gb[3], gb[4]);
    /* zero-sized: NULL data is fine, nothing happens */
    pdnnTensorDescriptor_t z = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 0, 2, 2, 2);
    TU_OK(pdnnSetTensor(H, z, NULL, &one));
    TU_OK(pdnnScaleTensor(H, z, NULL, &one));
    TU_OK(pdnnAddTensor(H, &one, b, bias, &one, z, NULL));
    TU_OK(pdnnTransformTensor(H, &one, z, NULL, &one, z, NULL));
    TU_OK(pdnnOpTensor(H, od, &one, z, NULL, &one, z, NULL, &one, z, NULL));
    pdnnDestroyOpTensorDescriptor(od);
    pdnnDestroyTensorDescriptor(c);
    pdnnDestroyTensorDescriptor(b);
    pdnnDestroyTensorDescriptor(v);
    pdnnDestroyTensorDescriptor(g);
    pdnnDestroyTensorDescriptor(z);
}

/* Large enough to run threaded: 1 and 2 threads must agree bitwise (random reals). */
static void thread_cases(pdnnDataType_t t)
{
    int dc[4] = {4, 8, 33, 41}, db[4] = {1, 8, 1, 41};
    lay LC, LB, LA;
    lay_make(&LC, 4, dc, TU_LAYOUT_GAPPED);
    lay_make(&LA, 4, dc, TU_LAYOUT_PACKED);
    lay_make(&LB, 4, db, TU_LAYOUT_CHANNELS_LAST);
    size_t sc = lay_span(&LC), sa = lay_span(&LA), sb = lay_span(&LB);
    void *A = tu_alloc(t, sa), *B = tu_alloc(t, sb), *C1 = tu_alloc(t, sc),
         *C2 = tu_alloc(t, sc), *C0 = tu_alloc(t, sc);
    tu_fill_uniform(A, t, sa, -2, 2);
    tu_fill_uniform(B, t, sb, -2, 2);
    tu_fill_uniform(C0, t, sc, -2, 2);
    pdnnTensorDescriptor_t dA = lay_desc(t, &LA), dB = lay_desc(t, &LB), dC = lay_desc(t, &LC);
    pdnnOpTensorDescriptor_t od;
    pdnnCreateOpTensorDescriptor(&od);
    tu_scalar a1 = tu_sc(t, 0.7), a2 = tu_sc(t, -1.3), be = tu_sc(t, 0.3);
    size_t bytes = sc * tu_esize(t);
    for (int op = 0; op <= 5; op++) {
        pdnnSetOpTensorDescriptor(od, (pdnnOpTensorOp_t)op, t, PDNN_PROPAGATE_NAN);
        void *outs[2] = {C1, C2};
        for (int th = 1; th <= 2; th++) {
            memcpy(outs[th - 1], C0, bytes);
            TU_OK(pdnnSetNumThreads(H, th));
            TU_OK(pdnnOpTensor(H, od, &a1, dA, A, &a2, dB, B, &be, dC, outs[th - 1]));
            TU_OK(pdnnAddTensor(H, &a1, dB, B, &be, dC, outs[th - 1]));
            TU_OK(pdnnTransformTensor(H, &a2, dA, A, &be, dC, outs[th - 1]));
        }
        TU_CHECK(tu_bitwise_equal(C1, C2, bytes), "op %d: 1 vs 2 threads differ", op);
    }
    /* the threaded result is also right: transform with beta 0 against the oracle */
    tu_scalar z = tu_sc(t, 0.0);
    TU_OK(pdnnSetNumThreads(H, 2));
    tu_poison(C1, t, sc);
    TU_OK(pdnnTransformTensor(H, &a2, dA, A, &z, dC, C1));
    double *ref = malloc(sc * sizeof *ref);
    for (size_t i = 0; i < sc; i++) ref[i] = NAN;
    int idx[4] = {0};
    do ref[lay_off(&LC, idx)] = sc_get(t, &a2) * tu_get(A, t, lay_off(&LA, idx));
    while (tu_next_index(idx, dc, 4));
    TU_CHECK(tu_count_mismatch(ref, C1, t, sc) == 0, "threaded transform wrong");
    free(ref);
    pdnnDestroyOpTensorDescriptor(od);
    pdnnDestroyTensorDescriptor(dA);
    pdnnDestroyTensorDescriptor(dB);
    pdnnDestroyTensorDescriptor(dC);
    free(A), free(B), free(C0), free(C1), free(C2);
}

int main(void)
{
    tu_seed(20240611);
    TU_OK(pdnnCreate(&H));
    TU_OK(pdnnSetNumThreads(H, 2));
    hand_cases();
    named_cases(PDNN_DATA_FLOAT);
    named_cases(PDNN_DATA_DOUBLE);
    random_cases(PDNN_DATA_FLOAT, 600);
    random_cases(PDNN_DATA_DOUBLE, 300);
    thread_cases(PDNN_DATA_FLOAT);
    thread_cases(PDNN_DATA_DOUBLE);
    TU_OK(pdnnDestroy(H));
    return tu_finish("ops/tensor_ops");
}
