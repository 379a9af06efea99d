/* Scalar activation functions and their derivatives, in double (internal).
 * Shared by the activation op and every fused epilogue (conv bias-activation), so
 * that one formula serves all. Semantics: cuDNN's documented modes; GELU as PyTorch
 * (approximate='none' -> erf form, 'tanh' -> tanh form). */
#ifndef PDNN_ACT_MATH_H
#define PDNN_ACT_MATH_H

#include <math.h>
#include "core/desc.h"

typedef struct {
    pdnnActivationMode_t mode;
    bool propagate_nan;
    double coef;       /* CLIPPED_RELU threshold, ELU alpha */
    double swish_beta;
} pdnn_act_params;

static inline pdnn_act_params pdnn_act_params_of(const struct pdnnActivationStruct *a)
{
    pdnn_act_params p = {a->mode, a->nan_opt == PDNN_PROPAGATE_NAN, a->coef, a->swish_beta};
    return p;
}

static inline double pdnn_sigmoid(double x)
{
    /* never evaluates exp of a large positive number */
    if (x >= 0) return 1.0 / (1.0 + exp(-x));
    double e = exp(x);
    return e / (1.0 + e);
}

#define PDNN_SQRT_2_OVER_PI 0.79788456080286535588
#define PDNN_GELU_TANH_C 0.044715

/* act(x). */
static inline double pdnn_act_fwd(const pdnn_act_params *p, double x)
{
    switch (p->mode) {
    case PDNN_ACTIVATION_SIGMOID: return pdnn_sigmoid(x);
    case PDNN_ACTIVATION_RELU:
        if (x != x) return p->propagate_nan ? x : 0.0;
        return x > 0 ? x : 0.0;
    case PDNN_ACTIVATION_TANH: return tanh(x);
    case PDNN_ACTIVATION_CLIPPED_RELU:
        if (x != x) return p->propagate_nan ? x : 0.0;
        return x > 0 ? (x < p->coef ? x : p->coef) : 0.0;
    case PDNN_ACTIVATION_ELU: return x > 0 ? x : p->coef * expm1(x);
    case PDNN_ACTIVATION_IDENTITY: return x;
    case PDNN_ACTIVATION_SWISH: return x * pdnn_sigmoid(p->swish_beta * x);
    case PDNN_ACTIVATION_GELU_ERF: return 0.5 * x * (1.0 + erf(x * M_SQRT1_2));
    case PDNN_ACTIVATION_GELU_TANH: {
        double u = PDNN_SQRT_2_OVER_PI * (x + PDNN_GELU_TANH_C * x * x * x);
        return 0.5 * x * (1.0 + tanh(u));
    }
    }
    return x;
}

/* d act / d x at input x (forward output y = act(x) supplied to save work). */
static inline double pdnn_act_grad(const pdnn_act_params *p, double x, double y)
{
    switch (p->mode) {
    case PDNN_ACTIVATION_SIGMOID: return y * (1.0 - y);
    case PDNN_ACTIVATION_RELU:
        if (x != x) return p->propagate_nan ? x : 0.0;
        return x > 0 ? 1.0 : 0.0;
    case PDNN_ACTIVATION_TANH: return 1.0 - y * y;
    case PDNN_ACTIVATION_CLIPPED_RELU:
        if (x != x) return p->propagate_nan ? x : 0.0;
        return (x > 0 && x < p->coef) ? 1.0 : 0.0;
    case PDNN_ACTIVATION_ELU: return x > 0 ? 1.0 : p->coef * exp(x);
    case PDNN_ACTIVATION_IDENTITY: return 1.0;
    case PDNN_ACTIVATION_SWISH: {
        double s = pdnn_sigmoid(p->swish_beta * x);
        return s + p->swish_beta * x * s * (1.0 - s);
    }
    case PDNN_ACTIVATION_GELU_ERF: {
        double cdf = 0.5 * (1.0 + erf(x * M_SQRT1_2));
        double pdf = exp(-0.5 * x * x) * 0.39894228040143267794; /* 1/sqrt(2 pi) */
        return cdf + x * pdf;
    }
    case PDNN_ACTIVATION_GELU_TANH: {
        double x2 = x * x;
        double u = PDNN_SQRT_2_OVER_PI * (x + PDNN_GELU_TANH_C * x2 * x);
        double t = tanh(u);
        return 0.5 * (1.0 + t) +
               0.5 * x * (1.0 - t * t) * PDNN_SQRT_2_OVER_PI * (1.0 + 3.0 * PDNN_GELU_TANH_C * x2);
    }
    }
    return 1.0;
}

/* True for the modes this op knows. */
static inline bool pdnn_act_mode_valid(pdnnActivationMode_t m)
{
    return (m >= PDNN_ACTIVATION_SIGMOID && m <= PDNN_ACTIVATION_SWISH) ||
           m == PDNN_ACTIVATION_GELU_ERF || m == PDNN_ACTIVATION_GELU_TANH;
}

#endif
