/* pdnnOptimizerStep, pdnnGetOptimizerStateSize and pdnnClipGradNorm: each optimizer
 * over several steps against the update formulas of torch.optim's documentation written
 * out here in double (state starting at zero / the initial accumulator, as PyTorch's),
 * with random hyper-parameters and every flag, FLOAT and DOUBLE, packed and gapped
 * tensors; values worked by hand for 3-element tensors; the first step never reads the
 * state (NaN-poisoned); frozen tensors bitwise unchanged; 1 vs 2 threads bitwise;
 * global-norm clipping against its formula (norms 1, 2, 3, inf), non-finite gradients. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tu_layout.h"

static pdnnHandle_t H;

/* ------------------------------------------------------------------ the oracle */

typedef struct {
    pdnnOptimizerType_t type;
    double mom, damp, wd, b1, b2, eps, alpha, lr_decay, init;
    int nesterov, amsgrad, centered;
} hyper;

typedef struct {
    double *m, *v, *vmax, *b, *ga, *sum; /* n each */
} ostate;

/* One step of the documented algorithm on n elements (w, g in double). t counts from 1. */
static void o_step(const hyper *h, ostate *s, double lr, int t, int n, double *w,
                   const double *g0)
{
    for (int i = 0; i < n; i++) {
        double g = g0[i];
        switch (h->type) {
        case PDNN_OPTIMIZER_SGD:
            if (h->wd != 0) g = g + h->wd * w[i];
            if (h->mom != 0) {
                s->b[i] = t > 1 ? h->mom * s->b[i] + (1 - h->damp) * g : g;
                g = h->nesterov ? g + h->mom * s->b[i] : s->b[i];
            }
            w[i] = w[i] - lr * g;
            break;
        case PDNN_OPTIMIZER_ADAM:
        case PDNN_OPTIMIZER_ADAMW: {
            if (h->type == PDNN_OPTIMIZER_ADAMW)
                w[i] = w[i] - lr * h->wd * w[i];
            else if (h->wd != 0)
                g = g + h->wd * w[i];
            s->m[i] = h->b1 * s->m[i] + (1 - h->b1) * g;
            s->v[i] = h->b2 * s->v[i] + (1 - h->b2) * g * g;
            double mhat = s->m[i] / (1 - pow(h->b1, t)), vhat = s->v[i] / (1 - pow(h->b2, t));
            if (h->amsgrad) { /* PyTorch's code: max of the raw v, then corrected */
                s->vmax[i] = fmax(s->vmax[i], s->v[i]);
                vhat = s->vmax[i] / (1 - pow(h->b2, t));
            }
            w[i] = w[i] - lr * mhat / (sqrt(vhat) + h->eps);
            break;
        }
        case PDNN_OPTIMIZER_RMSPROP: {
            if (h->wd != 0) g = g + h->wd * w[i];
            s->v[i] = h->alpha * s->v[i] + (1 - h->alpha) * g * g;
            double vt = s->v[i];
            if (h->centered) {
                s->ga[i] = s->ga[i] * h->alpha + (1 - h->alpha) * g;
                vt = vt - s->ga[i] * s->ga[i];
            }
            if (h->mom > 0) {
                s->b[i] = h->mom * s->b[i] + g / (sqrt(vt) + h->eps);
                w[i] = w[i] - lr * s->b[i];
            } else {
                w[i] = w[i] - lr * g / (sqrt(vt) + h->eps);
            }
            break;
        }
        case PDNN_OPTIMIZER_ADAGRAD: {
            double clr = lr / (1 + (t - 1) * h->lr_decay);
            if (h->wd != 0) g = g + h->wd * w[i];
            s->sum[i] = s->sum[i] + g * g;
            w[i] = w[i] - clr * g / (sqrt(s->sum[i]) + h->eps);
            break;
        }
        }
    }
}

static ostate o_new(const hyper *h, int n)
{
    ostate s;
    double *all = calloc((size_t)n * 6 + 1, sizeof(double));
    s.m = all, s.v = all + n, s.vmax = all + 2 * n, s.b = all + 3 * n, s.ga = all + 4 * n;
    s.sum = all + 5 * n;
    for (int i = 0; i < n; i++) s.sum[i] = h->init;
    return s;
}

static pdnnOptimizerDescriptor_t mkopt(const hyper *h)
{
    pdnnOptimizerDescriptor_t o;
    TU_OK(pdnnCreateOptimizerDescriptor(&o));
    switch (h->type) {
    case PDNN_OPTIMIZER_SGD: TU_OK(pdnnSetOptimizerDescriptorSGD(o, h->mom, h->damp, h->nesterov, h->wd)); break;
    case PDNN_OPTIMIZER_ADAM: TU_OK(pdnnSetOptimizerDescriptorAdam(o, h->b1, h->b2, h->eps, h->wd, h->amsgrad)); break;
    case PDNN_OPTIMIZER_ADAMW: TU_OK(pdnnSetOptimizerDescriptorAdamW(o, h->b1, h->b2, h->eps, h->wd, h->amsgrad)); break;
    case PDNN_OPTIMIZER_RMSPROP: TU_OK(pdnnSetOptimizerDescriptorRMSprop(o, h->alpha, h->eps, h->mom, h->centered, h->wd)); break;
    case PDNN_OPTIMIZER_ADAGRAD: TU_OK(pdnnSetOptimizerDescriptorAdagrad(o, h->lr_decay, h->init, h->eps, h->wd)); break;
    }
    return o;
}

static hyper rand_hyper(pdnnOptimizerType_t type)
{
    hyper h;
    memset(&h, 0, sizeof h);
    h.type = type;
    h.wd = tu_int(0, 1) ? tu_uniform(0, 0.1) : 0;
    switch (type) {
    case PDNN_OPTIMIZER_SGD:
        h.mom = tu_int(0, 2) ? tu_uniform(0.1, 0.95) : 0;
        h.nesterov = h.mom > 0 && tu_int(0, 1);
        h.damp = !h.nesterov && tu_int(0, 1) ? tu_uniform(0, 0.5) : 0;
        break;
    case PDNN_OPTIMIZER_ADAM:
    case PDNN_OPTIMIZER_ADAMW:
        h.b1 = tu_uniform(0.5, 0.95), h.b2 = tu_uniform(0.9, 0.9999);
        h.eps = tu_int(0, 1) ? 1e-8 : 1e-3;
        h.amsgrad = tu_int(0, 1);
        break;
    case PDNN_OPTIMIZER_RMSPROP:
        h.alpha = tu_uniform(0.8, 0.99), h.eps = tu_int(0, 1) ? 1e-8 : 1e-3;
        h.mom = tu_int(0, 1) ? tu_uniform(0.1, 0.9) : 0;
        h.centered = tu_int(0, 1);
        break;
    case PDNN_OPTIMIZER_ADAGRAD:
        h.lr_decay = tu_int(0, 1) ? tu_uniform(0, 0.1) : 0;
        h.init = tu_int(0, 1) ? tu_uniform(0, 0.5) : 0;
        h.eps = tu_int(0, 1) ? 1e-10 : 1e-3;
        break;
    }
    return h;
}

/* ------------------------------------------------------------------ formulas */

static void test_formulas(void)
{
    tu_seed(3);
    for (int it = 0; it < 200; it++) {
        pdnnOptimizerType_t type = (pdnnOptimizerType_t)(it % 5);
        pdnnDataType_t t = (it / 5) % 2 ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
        hyper h = rand_hyper(type);
        int nb = tu_int(1, 3), dims[3] = {tu_int(1, 6), tu_int(1, 5), tu_int(1, 4)};
        int ws[3], gs[3], layout = tu_int(0, 1) ? TU_LAYOUT_PACKED : TU_LAYOUT_GAPPED;
        tu_layout_strides(nb, dims, layout, ws);
        tu_layout_strides(nb, dims, layout == TU_LAYOUT_PACKED ? layout : TU_LAYOUT_GAPPED, gs);
        int n = (int)tu_layout_numel(nb, dims);
        int64_t wspan = tu_layout_span(nb, dims, ws), gspan = tu_layout_span(nb, dims, gs);
        pdnnTensorDescriptor_t wD = tu_tensor(t, nb, dims, ws), gD = tu_tensor(t, nb, dims, gs);
        void *w = tu_alloc(t, (size_t)wspan), *g = tu_alloc(t, (size_t)gspan);
        double *wo = calloc((size_t)n, 8), *go = calloc((size_t)n, 8), *got = calloc((size_t)n, 8);
        for (int i = 0; i < n; i++) {
            tu_put(w, t, (size_t)tu_layout_offset(nb, dims, ws, i), tu_uniform(-2, 2));
            wo[i] = tu_get(w, t, (size_t)tu_layout_offset(nb, dims, ws, i));
        }
        pdnnOptimizerDescriptor_t o = mkopt(&h);
        size_t sbytes;
        TU_OK(pdnnGetOptimizerStateSize(H, o, wD, &sbytes));
        void *st = sbytes ? malloc(sbytes) : NULL;
        if (st) memset(st, 0xff, sbytes); /* NaN: step 1 must not read it */
        ostate os = o_new(&h, n);
        double lr = tu_uniform(0.001, 0.1), tol = t == PDNN_DATA_DOUBLE ? 1e-13 : 2e-5;
        for (int step = 1; step <= 4; step++) {
            for (int i = 0; i < n; i++) {
                tu_put(g, t, (size_t)tu_layout_offset(nb, dims, gs, i), tu_uniform(-1, 1));
                go[i] = tu_get(g, t, (size_t)tu_layout_offset(nb, dims, gs, i));
            }
            o_step(&h, &os, lr, step, n, wo, go);
            TU_OK(pdnnOptimizerStep(H, o, lr, step, PDNN_PARAM_TRAINABLE, gD, g, wD, w, st, sbytes));
            for (int i = 0; i < n; i++) got[i] = tu_get(w, t, (size_t)tu_layout_offset(nb, dims, ws, i));
            double e = tu_rel_err(wo, got, PDNN_DATA_DOUBLE, (size_t)n);
            TU_CHECK(e <= tol, "type %d %s %s n %d step %d mom %g nest %d ams %d cen %d wd %g: err %g",
                     type, t == PDNN_DATA_DOUBLE ? "f64" : "f32",
                     layout == TU_LAYOUT_PACKED ? "packed" : "gapped", n, step, h.mom,
                     h.nesterov, h.amsgrad, h.centered, h.wd, e);
        }
        free(os.m);
        free(st), free(w), free(g), free(wo), free(go), free(got);
        pdnnDestroyOptimizerDescriptor(o);
        pdnnDestroyTensorDescriptor(wD), pdnnDestroyTensorDescriptor(gD);
    }
}

/* ------------------------------------------------------------------ worked by hand */

static void test_hand(void)
{
    int dims[1] = {3};
    pdnnTensorDescriptor_t dD = tu_tensor(PDNN_DATA_DOUBLE, 1, dims, NULL);
    double w[3], g[3] = {1, -2, 0.5}, st[9];
    pdnnOptimizerDescriptor_t o;
    pdnnCreateOptimizerDescriptor(&o);

    /* SGD, momentum 0.9, lr 0.1, the same gradient twice:
     * b1 = g, w1 = w0 - 0.1 g; b2 = 0.9 g + g = 1.9 g, w2 = w1 - 0.19 g */
    double w0[3] = {1, 2, 3};
    memcpy(w, w0, sizeof w);
    TU_OK(pdnnSetOptimizerDescriptorSGD(o, 0.9, 0, 0, 0));
    TU_OK(pdnnOptimizerStep(H, o, 0.1, 1, PDNN_PARAM_TRAINABLE, dD, g, dD, w, st, sizeof st));
    TU_OK(pdnnOptimizerStep(H, o, 0.1, 2, PDNN_PARAM_TRAINABLE, dD, g, dD, w, st, sizeof st));
    double sgd[3] = {1 - 0.1 - 0.19, 2 + 0.2 + 0.38, 3 - 0.05 - 0.095};
    for (int i = 0; i < 3; i++)
        TU_CHECK(fabs(w[i] - sgd[i]) < 1e-15, "sgd momentum w[%d] %.17g vs %.17g", i, w[i], sgd[i]);
    /* Nesterov: g + 0.9 b: step 1 uses 1.9 g, step 2 uses g + 0.9 * 1.9 g = 2.71 g */
    memcpy(w, w0, sizeof w);
    TU_OK(pdnnSetOptimizerDescriptorSGD(o, 0.9, 0, 1, 0));
    TU_OK(pdnnOptimizerStep(H, o, 0.1, 1, PDNN_PARAM_TRAINABLE, dD, g, dD, w, st, sizeof st));
    TU_OK(pdnnOptimizerStep(H, o, 0.1, 2, PDNN_PARAM_TRAINABLE, dD, g, dD, w, st, sizeof st));
    for (int i = 0; i < 3; i++) {
        double want = w0[i] - 0.1 * 1.9 * g[i] - 0.1 * 2.71 * g[i];
        TU_CHECK(fabs(w[i] - want) < 1e-14, "nesterov w[%d] %.17g vs %.17g", i, w[i], want);
    }
    /* Adam, first step: mhat = g, vhat = g^2, w -= lr * g / (|g| + eps) */
    memcpy(w, w0, sizeof w);
    TU_OK(pdnnSetOptimizerDescriptorAdam(o, 0.9, 0.999, 1e-8, 0, 0));
    TU_OK(pdnnOptimizerStep(H, o, 0.1, 1, PDNN_PARAM_TRAINABLE, dD, g, dD, w, st, sizeof st));
    for (int i = 0; i < 3; i++) {
        double want = w0[i] - 0.1 * g[i] / (fabs(g[i]) + 1e-8);
        TU_CHECK(fabs(w[i] - want) < 1e-14, "adam step 1 w[%d] %.17g vs %.17g", i, w[i], want);
    }
    /* state layout: m = 0.1 g, then v = 0.001 g^2 */
    TU_CHECK(fabs(st[0] - 0.1) < 1e-16 && fabs(st[4] - 0.004) < 1e-16, "adam state %g %g",
             st[0], st[4]);
    /* AdamW, weight decay 0.5, lr 0.1: w *= 0.95 first */
    memcpy(w, w0, sizeof w);
    TU_OK(pdnnSetOptimizerDescriptorAdamW(o, 0.9, 0.999, 1e-8, 0.5, 0));
    TU_OK(pdnnOptimizerStep(H, o, 0.1, 1, PDNN_PARAM_TRAINABLE, dD, g, dD, w, st, sizeof st));
    for (int i = 0; i < 3; i++) {
        double want = 0.95 * w0[i] - 0.1 * g[i] / (fabs(g[i]) + 1e-8);
        TU_CHECK(fabs(w[i] - want) < 1e-14, "adamw w[%d] %.17g vs %.17g", i, w[i], want);
    }
    /* Adagrad, init 0, eps 0: s = g^2, w -= lr * sign(g); step 2 (lr_decay 1):
     * clr = lr / 2, s = 2 g^2, w -= lr / 2 * g / (sqrt(2) |g|) */
    memcpy(w, w0, sizeof w);
    TU_OK(pdnnSetOptimizerDescriptorAdagrad(o, 1, 0, 0, 0));
    TU_OK(pdnnOptimizerStep(H, o, 0.1, 1, PDNN_PARAM_TRAINABLE, dD, g, dD, w, st, sizeof st));
    TU_OK(pdnnOptimizerStep(H, o, 0.1, 2, PDNN_PARAM_TRAINABLE, dD, g, dD, w, st, sizeof st));
    for (int i = 0; i < 3; i++) {
        double sg = g[i] > 0 ? 1 : -1, want = w0[i] - 0.1 * sg - 0.05 * sg / sqrt(2.0);
        TU_CHECK(fabs(w[i] - want) < 1e-14, "adagrad w[%d] %.17g vs %.17g", i, w[i], want);
    }
    /* RMSprop alpha 0.5, eps 0, no momentum: v = 0.5 g^2, w -= lr * g / (sqrt(0.5) |g|) */
    memcpy(w, w0, sizeof w);
    TU_OK(pdnnSetOptimizerDescriptorRMSprop(o, 0.5, 0, 0, 0, 0));
    TU_OK(pdnnOptimizerStep(H, o, 0.1, 1, PDNN_PARAM_TRAINABLE, dD, g, dD, w, st, sizeof st));
    for (int i = 0; i < 3; i++) {
        double sg = g[i] > 0 ? 1 : -1, want = w0[i] - 0.1 * sg * sqrt(2.0);
        TU_CHECK(fabs(w[i] - want) < 1e-14, "rmsprop w[%d] %.17g vs %.17g", i, w[i], want);
    }
    /* centered: v = 0.5 g^2, ga = 0.5 g, v - ga^2 = 0.25 g^2 -> w -= lr * 2 sign(g) */
    memcpy(w, w0, sizeof w);
    TU_OK(pdnnSetOptimizerDescriptorRMSprop(o, 0.5, 0, 0, 1, 0));
    TU_OK(pdnnOptimizerStep(H, o, 0.1, 1, PDNN_PARAM_TRAINABLE, dD, g, dD, w, st, sizeof st));
    for (int i = 0; i < 3; i++) {
        double sg = g[i] > 0 ? 1 : -1, want = w0[i] - 0.2 * sg;
        TU_CHECK(fabs(w[i] - want) < 1e-14, "rmsprop centered w[%d] %.17g vs %.17g", i, w[i], want);
    }
    /* weight decay into the gradient (SGD, no momentum): w -= lr * (g + wd w) */
    memcpy(w, w0, sizeof w);
    TU_OK(pdnnSetOptimizerDescriptorSGD(o, 0, 0, 0, 0.5));
    TU_OK(pdnnOptimizerStep(H, o, 0.1, 1, PDNN_PARAM_TRAINABLE, dD, g, dD, w, NULL, 0));
    for (int i = 0; i < 3; i++) {
        double want = w0[i] - 0.1 * (g[i] + 0.5 * w0[i]);
        TU_CHECK(fabs(w[i] - want) < 1e-15, "sgd wd w[%d] %.17g vs %.17g", i, w[i], want);
    }
    pdnnDestroyOptimizerDescriptor(o);
    pdnnDestroyTensorDescriptor(dD);
}

/* ------------------------------------------------------------------ state sizes */

static void test_state_size(void)
{
    int dims[2] = {3, 5};
    pdnnTensorDescriptor_t f = tu_tensor(PDNN_DATA_FLOAT, 2, dims, NULL);
    pdnnTensorDescriptor_t d = tu_tensor(PDNN_DATA_DOUBLE, 2, dims, NULL);
    pdnnOptimizerDescriptor_t o;
    pdnnCreateOptimizerDescriptor(&o);
    size_t b;
    struct {
        hyper h;
        int bufs;
    } cases[] = {
        {{.type = PDNN_OPTIMIZER_SGD}, 0},
        {{.type = PDNN_OPTIMIZER_SGD, .mom = 0.9}, 1},
        {{.type = PDNN_OPTIMIZER_ADAM, .b1 = 0.9, .b2 = 0.99}, 2},
        {{.type = PDNN_OPTIMIZER_ADAMW, .b1 = 0.9, .b2 = 0.99, .amsgrad = 1}, 3},
        {{.type = PDNN_OPTIMIZER_RMSPROP, .alpha = 0.9}, 1},
        {{.type = PDNN_OPTIMIZER_RMSPROP, .alpha = 0.9, .mom = 0.5}, 2},
        {{.type = PDNN_OPTIMIZER_RMSPROP, .alpha = 0.9, .mom = 0.5, .centered = 1}, 3},
        {{.type = PDNN_OPTIMIZER_ADAGRAD}, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pdnnOptimizerDescriptor_t oo = mkopt(&cases[i].h);
        TU_OK(pdnnGetOptimizerStateSize(H, oo, f, &b));
        TU_CHECK(b == (size_t)cases[i].bufs * 15 * 4, "case %zu float: %zu bytes", i, b);
        TU_OK(pdnnGetOptimizerStateSize(H, oo, d, &b));
        TU_CHECK(b == (size_t)cases[i].bufs * 15 * 8, "case %zu double: %zu bytes", i, b);
        pdnnDestroyOptimizerDescriptor(oo);
    }
    pdnnDestroyOptimizerDescriptor(o);
    pdnnDestroyTensorDescriptor(f), pdnnDestroyTensorDescriptor(d);
}

/* ------------------------------------------------------------------ frozen */

static void test_frozen(void)
{
    tu_seed(9);
    int dims[2] = {4, 7};
    for (int type = 0; type < 5; type++) {
        hyper h = rand_hyper((pdnnOptimizerType_t)type);
        pdnnOptimizerDescriptor_t o = mkopt(&h);
        pdnnTensorDescriptor_t wD = tu_tensor(PDNN_DATA_FLOAT, 2, dims, NULL);
        float w[28], keep[28], g[28];
        unsigned char st[28 * 4 * 3], skeep[sizeof st];
        tu_fill_uniform(w, PDNN_DATA_FLOAT, 28, -1, 1);
        tu_fill_uniform(g, PDNN_DATA_FLOAT, 28, -1, 1);
        for (size_t i = 0; i < sizeof st; i++) st[i] = (unsigned char)(i * 7);
        memcpy(keep, w, sizeof w);
        memcpy(skeep, st, sizeof st);
        for (int step = 1; step <= 3; step++) {
            TU_OK(pdnnOptimizerStep(H, o, 0.1, step, PDNN_PARAM_FROZEN, wD, g, wD, w, st, sizeof st));
            TU_OK(pdnnOptimizerStep(H, o, 0.1, step, PDNN_PARAM_FROZEN, wD, NULL, wD, w, NULL, 0));
        }
        TU_CHECK(tu_bitwise_equal(w, keep, sizeof w), "type %d: frozen w changed", type);
        TU_CHECK(tu_bitwise_equal(st, skeep, sizeof st), "type %d: frozen state changed", type);
        /* the same tensor trainable does move */
        TU_OK(pdnnOptimizerStep(H, o, 0.1, 1, PDNN_PARAM_TRAINABLE, wD, g, wD, w, st, sizeof st));
        TU_CHECK(!tu_bitwise_equal(w, keep, sizeof w), "type %d: trainable w did not move", type);
        pdnnDestroyOptimizerDescriptor(o);
        pdnnDestroyTensorDescriptor(wD);
    }
}

/* ------------------------------------------------------------------ threads, paths */

static void test_threads(void)
{
    tu_seed(13);
    int n = 70001, dims[1] = {n};
    pdnnTensorDescriptor_t fD = tu_tensor(PDNN_DATA_FLOAT, 1, dims, NULL);
    float *g = tu_alloc(PDNN_DATA_FLOAT, (size_t)n), *w0 = tu_alloc(PDNN_DATA_FLOAT, (size_t)n);
    tu_fill_uniform(w0, PDNN_DATA_FLOAT, (size_t)n, -1, 1);
    for (int type = 0; type < 5; type++) {
        hyper h = rand_hyper((pdnnOptimizerType_t)type);
        h.mom = type == PDNN_OPTIMIZER_ADAGRAD || type == PDNN_OPTIMIZER_ADAM ||
                type == PDNN_OPTIMIZER_ADAMW ? 0 : 0.8;
        h.nesterov = 0;
        pdnnOptimizerDescriptor_t o = mkopt(&h);
        size_t sb;
        TU_OK(pdnnGetOptimizerStateSize(H, o, fD, &sb));
        float *w[2], *st[2];
        for (int nt = 1; nt <= 2; nt++) {
            TU_OK(pdnnSetNumThreads(H, nt));
            w[nt - 1] = tu_alloc(PDNN_DATA_FLOAT, (size_t)n);
            st[nt - 1] = malloc(sb);
            memcpy(w[nt - 1], w0, sizeof(float) * (size_t)n);
            tu_seed(77);
            for (int step = 1; step <= 3; step++) {
                tu_fill_uniform(g, PDNN_DATA_FLOAT, (size_t)n, -1, 1);
                TU_OK(pdnnOptimizerStep(H, o, 0.01, step, PDNN_PARAM_TRAINABLE, fD, g, fD,
                                        w[nt - 1], st[nt - 1], sb));
            }
        }
        TU_CHECK(tu_bitwise_equal(w[0], w[1], sizeof(float) * (size_t)n), "type %d: w 1 vs 2 threads", type);
        TU_CHECK(tu_bitwise_equal(st[0], st[1], sb), "type %d: state 1 vs 2 threads", type);
        for (int k = 0; k < 2; k++) free(w[k]), free(st[k]);
        pdnnDestroyOptimizerDescriptor(o);
    }
    TU_OK(pdnnSetNumThreads(H, 2));
    free(g), free(w0);
    pdnnDestroyTensorDescriptor(fD);
}

/* ------------------------------------------------------------------ clipping */

static double o_norm(double q, int nt, void **g, pdnnDataType_t *t, const int64_t *n,
                     int **offs)
{
    double acc = 0;
    for (int k = 0; k < nt; k++)
        for (int64_t i = 0; i < n[k]; i++) {
            double v = fabs(tu_get(g[k], t[k], (size_t)offs[k][i]));
            acc = isinf(q) ? fmax(acc, v) : acc + pow(v, q);
        }
    return isinf(q) ? acc : pow(acc, 1 / q);
}

static void test_clip(void)
{
    tu_seed(17);
    const double qs[4] = {2, 1, 3, INFINITY};
    for (int it = 0; it < 80; it++) {
        int nt = tu_int(1, 4);
        pdnnTensorDescriptor_t d[4];
        void *g[4];
        pdnnDataType_t t[4];
        int64_t n[4];
        int *offs[4];
        double *orig[4];
        for (int k = 0; k < nt; k++) {
            int nb = tu_int(1, 3), dims[3] = {tu_int(0, 5), tu_int(1, 6), tu_int(1, 4)}, st[3];
            if (tu_int(0, 3)) dims[0] = dims[0] ? dims[0] : 1;
            t[k] = tu_int(0, 1) ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
            tu_layout_strides(nb, dims, tu_int(0, 1) ? TU_LAYOUT_PACKED : TU_LAYOUT_GAPPED, st);
            d[k] = tu_tensor(t[k], nb, dims, st);
            n[k] = tu_layout_numel(nb, dims);
            int64_t span = tu_layout_span(nb, dims, st);
            g[k] = tu_alloc(t[k], (size_t)span);
            offs[k] = malloc(sizeof(int) * (size_t)(n[k] + 1));
            orig[k] = malloc(sizeof(double) * (size_t)(n[k] + 1));
            for (int64_t i = 0; i < n[k]; i++) {
                offs[k][i] = (int)tu_layout_offset(nb, dims, st, i);
                tu_put(g[k], t[k], (size_t)offs[k][i], tu_uniform(-1, 1));
                orig[k][i] = tu_get(g[k], t[k], (size_t)offs[k][i]);
            }
        }
        double q = qs[it % 4], want = o_norm(q, nt, g, t, n, offs);
        double maxn = tu_int(0, 1) ? want * tu_uniform(0.1, 0.9) : want * 2 + 1, total = -1;
        TU_OK(pdnnClipGradNorm(H, nt, d, g, maxn, q, &total));
        TU_CHECK(fabs(total - want) <= 1e-12 * fmax(1, want), "clip norm %g: %.17g vs %.17g", q,
                 total, want);
        double coef = maxn / (want + 1e-6);
        for (int k = 0; k < nt; k++) {
            double worst = 0;
            for (int64_t i = 0; i < n[k]; i++) {
                double v = tu_get(g[k], t[k], (size_t)offs[k][i]);
                double r = coef < 1 ? orig[k][i] * coef : orig[k][i];
                worst = fmax(worst, fabs(v - r));
                if (coef >= 1 && v != orig[k][i]) worst = INFINITY; /* untouched */
            }
            TU_CHECK(worst <= (t[k] == PDNN_DATA_DOUBLE ? 1e-15 : 1e-7), "clip scale tensor %d: %g", k, worst);
            pdnnDestroyTensorDescriptor(d[k]);
            free(g[k]), free(offs[k]), free(orig[k]);
        }
    }
    /* hand-worked: {3, 4} has 2-norm 5; max 1 -> scale 1 / (5 + 1e-6) */
    int dims[1] = {2}, one[1] = {1};
    pdnnTensorDescriptor_t d2 = tu_tensor(PDNN_DATA_DOUBLE, 1, dims, NULL);
    pdnnTensorDescriptor_t d1 = tu_tensor(PDNN_DATA_DOUBLE, 1, one, NULL);
    double a[2] = {3, 4}, b[1] = {0}, total;
    pdnnTensorDescriptor_t ds[2] = {d2, d1};
    void *gs[2] = {a, b};
    TU_OK(pdnnClipGradNorm(H, 2, ds, gs, 1.0, 2.0, &total));
    TU_CHECK(total == 5 && fabs(a[0] - 3 / (5 + 1e-6)) < 1e-16 && fabs(a[1] - 4 / (5 + 1e-6)) < 1e-16,
             "clip {3,4}: total %g -> %g %g", total, a[0], a[1]);
    /* no tensors: total 0 */
    TU_OK(pdnnClipGradNorm(H, 0, NULL, NULL, 1.0, 2.0, &total));
    TU_CHECK(total == 0, "empty clip %g", total);
    /* NaN gradient: total NaN and every gradient NaN (PyTorch's default) */
    a[0] = NAN, a[1] = 1, b[0] = 2;
    TU_OK(pdnnClipGradNorm(H, 2, ds, gs, 1.0, 2.0, &total));
    TU_CHECK(isnan(total) && isnan(a[1]) && isnan(b[0]), "nan clip: %g %g %g", total, a[1], b[0]);
    a[0] = NAN, a[1] = 1, b[0] = 2;
    TU_OK(pdnnClipGradNorm(H, 2, ds, gs, 1.0, INFINITY, &total));
    TU_CHECK(isnan(total), "nan inf-norm %g", total);
    /* infinite maxNorm only measures, bitwise */
    a[0] = 0.1, a[1] = -7, b[0] = 1e-30;
    double ka[2], kb[1];
    memcpy(ka, a, sizeof a), memcpy(kb, b, sizeof b);
    TU_OK(pdnnClipGradNorm(H, 2, ds, gs, INFINITY, 2.0, &total));
    TU_CHECK(!memcmp(ka, a, sizeof a) && !memcmp(kb, b, sizeof b) && total > 7, "measure only");
    pdnnDestroyTensorDescriptor(d2), pdnnDestroyTensorDescriptor(d1);

    /* 1 vs 2 threads on large packed tensors */
    int big[1] = {100003};
    pdnnTensorDescriptor_t bD = tu_tensor(PDNN_DATA_FLOAT, 1, big, NULL);
    float *x0 = tu_alloc(PDNN_DATA_FLOAT, 100003), *x1 = tu_alloc(PDNN_DATA_FLOAT, 100003);
    float *x2 = tu_alloc(PDNN_DATA_FLOAT, 100003);
    tu_fill_uniform(x0, PDNN_DATA_FLOAT, 100003, -1, 1);
    memcpy(x1, x0, 4 * 100003), memcpy(x2, x0, 4 * 100003);
    double t1, t2;
    void *p1[1] = {x1}, *p2[1] = {x2};
    TU_OK(pdnnSetNumThreads(H, 1));
    TU_OK(pdnnClipGradNorm(H, 1, &bD, p1, 1.0, 2.0, &t1));
    TU_OK(pdnnSetNumThreads(H, 2));
    TU_OK(pdnnClipGradNorm(H, 1, &bD, p2, 1.0, 2.0, &t2));
    TU_CHECK(!memcmp(&t1, &t2, sizeof t1) && tu_bitwise_equal(x1, x2, 4 * 100003),
             "clip 1 vs 2 threads: %.17g %.17g", t1, t2);
    free(x0), free(x1), free(x2);
    pdnnDestroyTensorDescriptor(bD);
}

int main(void)
{
    TU_OK(pdnnCreate(&H));
    TU_OK(pdnnSetNumThreads(H, 2));
    test_hand();
    test_formulas();
    test_state_size();
    test_frozen();
    test_threads();
    test_clip();
    pdnnDestroy(H);
    return tu_finish("ops/optim");
}
