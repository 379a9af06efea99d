/* Scalar activation functions and their derivatives, in double (internal).
 * Shared by the activation op and every fused epilogue (conv bias-activation), so
 * that one formula serves all. Semantics: cuDNN's documented modes; GELU as PyTorch
 * (approximate='none' -> erf form, 'tanh' -> tanh form).
 *
 * NaN: with propagate_nan a NaN input gives NaN; without it RELU and CLIPPED_RELU map
 * a NaN input to 0 (value and derivative). The smooth modes always propagate NaN.
 * Infinite inputs give the limits (GELU(-inf) = 0, SWISH(-inf) = 0 for beta > 0, and
 * the derivatives' limits), never the NaN of inf * 0. */
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
#define PDNN_INV_SQRT_2PI 0.39894228040143267794 /* 1/sqrt(2 pi) */

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
    case PDNN_ACTIVATION_SWISH: {
        double s = pdnn_sigmoid(p->swish_beta * x);
        return s == 0.0 ? 0.0 : x * s; /* x * s -> 0 as s decays (x = -inf: 0, not NaN) */
    }
    /* GELU: x * Phi(x) with Phi(x) = erfc(-x / sqrt 2) / 2, and the tanh form
     * 0.5 x (1 + tanh(u)) = x * sigmoid(2u): the same functions as PyTorch's, written
     * without the cancellation of 1 + erf / 1 + tanh for negative x. */
    case PDNN_ACTIVATION_GELU_ERF:
        if (isinf(x)) return x > 0 ? x : 0.0;
        return x * (0.5 * erfc(-x * M_SQRT1_2));
    case PDNN_ACTIVATION_GELU_TANH: {
        if (fabs(x) > 1e3) return x > 0 ? x : 0.0; /* saturated; avoids x^3 overflow */
        double u = PDNN_SQRT_2_OVER_PI * (x + PDNN_GELU_TANH_C * x * x * x);
        return x * pdnn_sigmoid(2.0 * u);
    }
    }
    return x;
}

/* d act / d x at input x (forward output y = act(x) supplied to save work: SIGMOID and
 * TANH use y, every other mode uses x). */
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
        if (isinf(x)) return s; /* limit of s + beta x s (1 - s) */
        return s + p->swish_beta * x * s * (1.0 - s);
    }
    case PDNN_ACTIVATION_GELU_ERF: {
        if (isinf(x)) return x > 0 ? 1.0 : 0.0;
        double cdf = 0.5 * erfc(-x * M_SQRT1_2);
        double pdf = exp(-0.5 * x * x) * PDNN_INV_SQRT_2PI;
        return cdf + x * pdf;
    }
    case PDNN_ACTIVATION_GELU_TANH: {
        /* with s = sigmoid(2u): 0.5 (1 + tanh u) = s and 1 - tanh^2 u = 4 s (1 - s) */
        if (fabs(x) > 1e3) return x > 0 ? 1.0 : 0.0;
        double x2 = x * x;
        double u = PDNN_SQRT_2_OVER_PI * (x + PDNN_GELU_TANH_C * x2 * x);
        double s = pdnn_sigmoid(2.0 * u);
        return s + 2.0 * x * s * (1.0 - s) * PDNN_SQRT_2_OVER_PI *
                       (1.0 + 3.0 * PDNN_GELU_TANH_C * x2);
    }
    }
    return 1.0;
}

/* The backward value act'(x) * dy. For RELU and CLIPPED_RELU it selects, as PyTorch's
 * threshold_backward / hardtanh_backward do: where the derivative is 0 the result is 0
 * even when dy is Inf or NaN. */
static inline double pdnn_act_bwd(const pdnn_act_params *p, double x, double y, double dy)
{
    double g = pdnn_act_grad(p, x, y);
    if (g == 0.0 &&
        (p->mode == PDNN_ACTIVATION_RELU || p->mode == PDNN_ACTIVATION_CLIPPED_RELU))
        return 0.0;
    return g * dy;
}

#endif
