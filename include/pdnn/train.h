/*
 * pdnn/train.h - Extension: what training needs beyond cuDNN's layer calls, which
 * cuDNN leaves to frameworks: losses (forward and backward), optimizers (a fused
 * in-place step per parameter tensor, global-norm gradient clipping), learning-rate
 * schedules, and parameter freezing.
 *
 * cuDNN has none of these, so EVERY declaration in this header is an Extension. They
 * keep pdnn's descriptor style (opaque descriptor, Create / Set / Get / Destroy,
 * validated, immutable once set, shareable between threads) and the tensor
 * conventions of pdnn/tensor.h (alpha/beta blending of outputs, any strides, FLOAT and
 * DOUBLE computed, zero-sized dimensions are no-ops, precise errors with a message
 * readable by pdnnGetLastErrorString, nothing written when validation fails).
 * Semantics are PyTorch's, named at each function: torch.nn.functional.cross_entropy /
 * nll_loss / mse_loss, torch.optim.SGD / Adam / AdamW / RMSprop / Adagrad,
 * torch.nn.utils.clip_grad_norm_ and torch.optim.lr_scheduler.*; where PyTorch's
 * documented formula and its implementation are the same mathematics written in two
 * orders, pdnn follows the formula (results agree to rounding); where they differ
 * (Adam's amsgrad), pdnn follows the implementation, so that runs compare step for step.
 *
 * A training step with these calls (one parameter tensor w shown):
 *
 *     lr = rate(schedule, k)                           k = 0, 1, 2, ... (0-based)
 *     forward layers ...; pdnnLossForward(...)           loss value(s)
 *     pdnnLossBackward(...)                              dL/dlogits
 *     backward layers: BackwardData always (earlier layers need it); the weight
 *         gradient calls (pdnnConvolutionBackwardFilter, ...BackwardBias, ...) only
 *         for trainable layers - see "Freezing" below
 *     pdnnClipGradNorm(grads of the trainable tensors)   optional
 *     pdnnOptimizerStep(opt, lr, k + 1, TRAINABLE or FROZEN, dw, w, state)
 */
#ifndef PDNN_TRAIN_H
#define PDNN_TRAIN_H

#include "pdnn/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ================================================================ losses */

/** Extension: opaque loss descriptor (mode, reduction, ignore index, label smoothing). */
typedef struct pdnnLossStruct *pdnnLossDescriptor_t;

/** Extension: loss functions (PyTorch semantics). */
typedef enum {
    /** torch.nn.functional.cross_entropy with class-index targets: x holds logits;
     *  log-softmax over dimension 1 (computed with the row maximum subtracted, so
     *  logits of any magnitude are safe) followed by the negative log-likelihood. */
    PDNN_LOSS_SOFTMAX_CROSS_ENTROPY = 0,
    /** torch.nn.functional.nll_loss: x holds log-probabilities; loss = -x[n, target]. */
    PDNN_LOSS_NLL = 1,
    /** torch.nn.functional.mse_loss: loss = (x - target)^2 elementwise. */
    PDNN_LOSS_MSE = 2
} pdnnLossMode_t;

/** Extension: how per-element losses are combined (PyTorch's `reduction`). */
typedef enum {
    PDNN_LOSS_REDUCTION_NONE = 0, /**< one loss per sample (per element for MSE) */
    PDNN_LOSS_REDUCTION_MEAN = 1, /**< sum / number of non-ignored targets (MSE: / numel) */
    PDNN_LOSS_REDUCTION_SUM = 2   /**< sum */
} pdnnLossReduction_t;

/** Extension. Creates an unset loss descriptor (using it before a Set call is
 *  BAD_PARAM). BAD_PARAM_NULL_POINTER if lossDesc is NULL, ALLOC_FAILED. */
PDNN_API pdnnStatus_t pdnnCreateLossDescriptor(pdnnLossDescriptor_t *lossDesc);

/** Extension. Sets a loss descriptor.
 *  - mode: a pdnnLossMode_t; reduction: a pdnnLossReduction_t (else BAD_PARAM).
 *  - ignoreIndex: targets equal to it contribute no loss and no gradient, and are not
 *    counted by the MEAN reduction (PyTorch's ignore_index, whose default is -100; it
 *    may also name a real class). Used by SOFTMAX_CROSS_ENTROPY and NLL, ignored by MSE.
 *  - labelSmoothing in [0, 1] (else BAD_PARAM_OUT_OF_BOUND), SOFTMAX_CROSS_ENTROPY only
 *    (a non-zero value with another mode is BAD_PARAM, as PyTorch's nll_loss and
 *    mse_loss have none). As PyTorch defines it, the target distribution is
 *    (1 - eps) * onehot(target) + eps / C, so the loss of a sample is
 *    (1 - eps) * (-log p[target]) + (eps / C) * sum_c (-log p[c]).
 *  BAD_PARAM if lossDesc is not a live loss descriptor. On failure it is unchanged. */
PDNN_API pdnnStatus_t pdnnSetLossDescriptor(pdnnLossDescriptor_t lossDesc,
                                            pdnnLossMode_t mode,
                                            pdnnLossReduction_t reduction,
                                            int64_t ignoreIndex, double labelSmoothing);
/** Extension. Reads a set loss descriptor; no output pointer may be NULL. */
PDNN_API pdnnStatus_t pdnnGetLossDescriptor(const pdnnLossDescriptor_t lossDesc,
                                            pdnnLossMode_t *mode,
                                            pdnnLossReduction_t *reduction,
                                            int64_t *ignoreIndex, double *labelSmoothing);
/** Extension. Destroys a loss descriptor; NULL is accepted and ignored, anything else
 *  that is not a live loss descriptor is BAD_PARAM. */
PDNN_API pdnnStatus_t pdnnDestroyLossDescriptor(pdnnLossDescriptor_t lossDesc);

/** Extension: y = alpha * loss(x, target) + beta * y.
 *
 *  Shapes (any strides; FLOAT or DOUBLE x, and y of x's type):
 *  - SOFTMAX_CROSS_ENTROPY, NLL: x is N x C or N x C x d1 x ... x dk (PyTorch's K-dim
 *    case: classes on dimension 1). target holds class indices, INT32 or INT64
 *    (NOT_SUPPORTED_DATA_TYPE otherwise; PyTorch's class-probability targets are not
 *    supported), with dims N x d1 x ... x dk or, cuDNN-style, N x 1 x d1 x ... x dk.
 *    Every target must be in [0, C) or equal the ignore index (BAD_PARAM_OUT_OF_BOUND
 *    naming the first offending element otherwise, checked before anything is
 *    written). C must be >= 1 when there are samples.
 *  - MSE: target has x's dims and data type.
 *  - y: with reduction NONE, the per-sample losses, dims like target's (either form
 *    above; MSE: x's dims), ignored samples get 0; with MEAN or SUM, a tensor of one
 *    element (any rank). Mismatched dims are BAD_PARAM_SHAPE_MISMATCH.
 *  MEAN divides by the number of non-ignored targets (MSE: by the element count), so
 *  when every target is ignored, or x is empty, the mean is NaN (0/0) as in PyTorch;
 *  SUM of nothing is 0. With beta == 0, y is never read. Computed in double whatever
 *  the type; bitwise identical for any thread count (fixed-order reductions).
 *  y may not overlap x or target in memory, not even as the very same view (no in-place
 *  use; PyTorch's losses have no in-place form either): BAD_PARAM.
 *  Statuses: NOT_INITIALIZED (handle), BAD_PARAM (dead/unset/wrong-kind descriptors,
 *  type mismatch between x and y or MSE's target, x with fewer than 2 dims for the
 *  class losses, y overlapping x or target), BAD_PARAM_NULL_POINTER (alpha, beta, a data pointer of a non-empty
 *  tensor), BAD_PARAM_SHAPE_MISMATCH, BAD_PARAM_OUT_OF_BOUND (a target),
 *  NOT_SUPPORTED_DATA_TYPE (HALF, BFLOAT16, ...). */
PDNN_API pdnnStatus_t pdnnLossForward(pdnnHandle_t handle,
                                      const pdnnLossDescriptor_t lossDesc,
                                      const void *alpha,
                                      const pdnnTensorDescriptor_t xDesc, const void *x,
                                      const pdnnTensorDescriptor_t targetDesc,
                                      const void *target, const void *beta,
                                      const pdnnTensorDescriptor_t yDesc, void *y);

/** Extension: dx = alpha * (dL/dx)^T dy + beta * dx, the gradient of
 *  pdnnLossForward's y with respect to x (PyTorch's autograd of the same function).
 *  xDesc, x, targetDesc, target as in the forward call; dxDesc has x's dims and type.
 *  dyDesc/dy is the upstream gradient with the dims pdnnLossForward's y would have;
 *  both may be NULL together, meaning 1 (the loss is the end of the graph).
 *  Per non-ignored sample with weight w (NONE: dy[n]; SUM: dy; MEAN: dy / count):
 *  - SOFTMAX_CROSS_ENTROPY: w * (softmax(x)[c] - (1 - eps) * [c == target] - eps / C)
 *  - NLL: -w * [c == target]
 *  - MSE: 2 * w * (x - target)
 *  Ignored samples get 0 (also when every sample is ignored: no 0/0). With beta == 0,
 *  dx is never read. dx may not overlap x, target or dy in memory, not even as the very
 *  same view (BAD_PARAM; no in-place use, as for the forward call). Statuses as
 *  pdnnLossForward, plus BAD_PARAM_NULL_POINTER when only one of dyDesc and dy is NULL. */
PDNN_API pdnnStatus_t pdnnLossBackward(pdnnHandle_t handle,
                                       const pdnnLossDescriptor_t lossDesc,
                                       const void *alpha,
                                       const pdnnTensorDescriptor_t xDesc, const void *x,
                                       const pdnnTensorDescriptor_t targetDesc,
                                       const void *target,
                                       const pdnnTensorDescriptor_t dyDesc, const void *dy,
                                       const void *beta,
                                       const pdnnTensorDescriptor_t dxDesc, void *dx);

/* ================================================================ optimizers */

/** Extension: opaque optimizer descriptor: the algorithm and its hyper-parameters.
 *  The learning rate is not part of it; each step takes the current rate (from a
 *  schedule or a constant), so a descriptor is immutable and shared by all tensors. */
typedef struct pdnnOptimizerStruct *pdnnOptimizerDescriptor_t;

/** Extension: optimizer algorithms (torch.optim). */
typedef enum {
    PDNN_OPTIMIZER_SGD = 0,     /**< torch.optim.SGD */
    PDNN_OPTIMIZER_ADAM = 1,    /**< torch.optim.Adam (L2 weight decay into the gradient) */
    PDNN_OPTIMIZER_ADAMW = 2,   /**< torch.optim.AdamW (decoupled weight decay) */
    PDNN_OPTIMIZER_RMSPROP = 3, /**< torch.optim.RMSprop */
    PDNN_OPTIMIZER_ADAGRAD = 4  /**< torch.optim.Adagrad */
} pdnnOptimizerType_t;

/** Extension: freezing, per call. A FROZEN parameter gets no update: pdnnOptimizerStep
 *  validates its arguments and returns SUCCESS without reading or writing w, dw or the
 *  state, so w stays bitwise unchanged (PyTorch's requires_grad=False, where the
 *  optimizer skips a parameter whose .grad is None). */
typedef enum {
    PDNN_PARAM_TRAINABLE = 0,
    PDNN_PARAM_FROZEN = 1
} pdnnParamFreeze_t;

/** Extension. Creates an unset optimizer descriptor. BAD_PARAM_NULL_POINTER if optDesc
 *  is NULL, ALLOC_FAILED. */
PDNN_API pdnnStatus_t pdnnCreateOptimizerDescriptor(pdnnOptimizerDescriptor_t *optDesc);
/** Extension. NULL is accepted and ignored; anything else that is not a live optimizer
 *  descriptor is BAD_PARAM. */
PDNN_API pdnnStatus_t pdnnDestroyOptimizerDescriptor(pdnnOptimizerDescriptor_t optDesc);

/* Every Set below validates all its values (finite; the ranges PyTorch's constructors
 * enforce; flags 0 or 1) and returns BAD_PARAM_OUT_OF_BOUND naming the value, leaving
 * the descriptor unchanged. Each Get returns BAD_PARAM when the descriptor is unset or
 * holds another algorithm; no output pointer may be NULL. */

/** Extension: SGD (torch.optim.SGD; PyTorch defaults 0, 0, false, 0), with t the step:
 *      g = dw + weightDecay * w
 *      if momentum != 0:  b = (t == 1) ? g : momentum * b + (1 - dampening) * g
 *                         g = nesterov ? g + momentum * b : b
 *      w = w - lr * g
 *  momentum >= 0, dampening in [0, 1], weightDecay >= 0; nesterov (0 or 1) requires
 *  momentum > 0 and dampening == 0, as PyTorch requires. State: b (none when momentum
 *  is 0). */
PDNN_API pdnnStatus_t pdnnSetOptimizerDescriptorSGD(pdnnOptimizerDescriptor_t optDesc,
                                                    double momentum, double dampening,
                                                    int nesterov, double weightDecay);
PDNN_API pdnnStatus_t pdnnGetOptimizerDescriptorSGD(const pdnnOptimizerDescriptor_t optDesc,
                                                    double *momentum, double *dampening,
                                                    int *nesterov, double *weightDecay);

/** Extension: Adam (torch.optim.Adam; PyTorch defaults beta1 0.9, beta2 0.999, eps 1e-8,
 *  weightDecay 0, amsgrad false), with t the step and PyTorch's bias correction:
 *      g = dw + weightDecay * w
 *      m = beta1 * m + (1 - beta1) * g           (m = (1 - beta1) * g when t == 1)
 *      v = beta2 * v + (1 - beta2) * g^2         (v = (1 - beta2) * g^2 when t == 1)
 *      vmax = max(vmax, v)  if amsgrad           (vmax = v when t == 1)
 *      w = w - (lr / (1 - beta1^t)) * m / (sqrt(amsgrad ? vmax : v) / sqrt(1 - beta2^t) + eps)
 *  beta1, beta2 in [0, 1), eps >= 0, weightDecay >= 0, amsgrad 0 or 1. amsgrad keeps the
 *  maximum of the uncorrected v and divides it by the current bias correction, as
 *  PyTorch's implementation does (its documented pseudo-code takes the maximum of the
 *  corrected v instead; pytorch/pytorch issue 142323). State: m, v, and vmax when
 *  amsgrad. */
PDNN_API pdnnStatus_t pdnnSetOptimizerDescriptorAdam(pdnnOptimizerDescriptor_t optDesc,
                                                     double beta1, double beta2, double eps,
                                                     double weightDecay, int amsgrad);
PDNN_API pdnnStatus_t pdnnGetOptimizerDescriptorAdam(const pdnnOptimizerDescriptor_t optDesc,
                                                     double *beta1, double *beta2,
                                                     double *eps, double *weightDecay,
                                                     int *amsgrad);

/** Extension: AdamW (torch.optim.AdamW; PyTorch's default weightDecay is 1e-2): first
 *  w = w * (1 - lr * weightDecay) (decoupled decay), then Adam's update above with g = dw
 *  (no L2 term). Ranges and state as Adam. */
PDNN_API pdnnStatus_t pdnnSetOptimizerDescriptorAdamW(pdnnOptimizerDescriptor_t optDesc,
                                                      double beta1, double beta2, double eps,
                                                      double weightDecay, int amsgrad);
PDNN_API pdnnStatus_t pdnnGetOptimizerDescriptorAdamW(const pdnnOptimizerDescriptor_t optDesc,
                                                      double *beta1, double *beta2,
                                                      double *eps, double *weightDecay,
                                                      int *amsgrad);

/** Extension: RMSprop (torch.optim.RMSprop; PyTorch defaults alpha 0.99, eps 1e-8,
 *  momentum 0, centered false, weightDecay 0):
 *      g = dw + weightDecay * w
 *      v = alpha * v + (1 - alpha) * g^2                     (v starts at 0)
 *      if centered: ga = alpha * ga + (1 - alpha) * g;  d = sqrt(v - ga^2) + eps
 *      else d = sqrt(v) + eps
 *      if momentum > 0: b = momentum * b + g / d; w = w - lr * b   (b starts at 0)
 *      else w = w - lr * g / d
 *  alpha >= 0, eps >= 0, momentum >= 0, weightDecay >= 0, centered 0 or 1.
 *  State: v, then b when momentum > 0, then ga when centered. */
PDNN_API pdnnStatus_t pdnnSetOptimizerDescriptorRMSprop(pdnnOptimizerDescriptor_t optDesc,
                                                        double alpha, double eps,
                                                        double momentum, int centered,
                                                        double weightDecay);
PDNN_API pdnnStatus_t pdnnGetOptimizerDescriptorRMSprop(const pdnnOptimizerDescriptor_t optDesc,
                                                        double *alpha, double *eps,
                                                        double *momentum, int *centered,
                                                        double *weightDecay);

/** Extension: Adagrad (torch.optim.Adagrad; PyTorch defaults lrDecay 0,
 *  initialAccumulatorValue 0, eps 1e-10, weightDecay 0), with t the step:
 *      clr = lr / (1 + (t - 1) * lrDecay)
 *      g = dw + weightDecay * w
 *      s = s + g^2                           (s starts at initialAccumulatorValue)
 *      w = w - clr * g / (sqrt(s) + eps)
 *  All four values >= 0. State: s. */
PDNN_API pdnnStatus_t pdnnSetOptimizerDescriptorAdagrad(pdnnOptimizerDescriptor_t optDesc,
                                                        double lrDecay,
                                                        double initialAccumulatorValue,
                                                        double eps, double weightDecay);
PDNN_API pdnnStatus_t pdnnGetOptimizerDescriptorAdagrad(const pdnnOptimizerDescriptor_t optDesc,
                                                        double *lrDecay,
                                                        double *initialAccumulatorValue,
                                                        double *eps, double *weightDecay);

/** Extension. The algorithm a set descriptor holds (BAD_PARAM when unset). */
PDNN_API pdnnStatus_t pdnnGetOptimizerType(const pdnnOptimizerDescriptor_t optDesc,
                                           pdnnOptimizerType_t *type);

/** Extension: bytes of optimizer state that one parameter tensor described by wDesc
 *  needs: (number of state buffers listed at each Set above) * numel(w) * element size
 *  of w's type; 0 for SGD without momentum. The state is caller-owned memory of at
 *  least this size, suitably aligned for w's type, one buffer per parameter tensor; its
 *  layout is pdnn's (buffers one after another, each packed in w's logical row-major
 *  order, whatever w's strides). NOT_INITIALIZED, BAD_PARAM (descriptors),
 *  BAD_PARAM_NULL_POINTER, NOT_SUPPORTED_DATA_TYPE (w not FLOAT or DOUBLE). */
PDNN_API pdnnStatus_t pdnnGetOptimizerStateSize(pdnnHandle_t handle,
                                                const pdnnOptimizerDescriptor_t optDesc,
                                                const pdnnTensorDescriptor_t wDesc,
                                                size_t *sizeInBytes);

/** Extension: one fused, in-place optimizer step over one parameter tensor w with its
 *  gradient dw (formulas at each Set above; PyTorch's update for one parameter).
 *  - lr: the learning rate of this step, >= 0 and finite (BAD_PARAM_OUT_OF_BOUND).
 *  - step: t, 1 for the first step of this tensor, incremented after each step taken
 *    (PyTorch's state['step'] after its increment); it drives the bias corrections of
 *    Adam/AdamW and Adagrad's lr decay. With step == 1 the state is not read, only
 *    initialised (so it needs no clearing); with step > 1 it must hold what the
 *    previous step wrote. step < 1 is BAD_PARAM_OUT_OF_BOUND. Keep one count per
 *    tensor: a frozen step does not count.
 *  - freeze: PDNN_PARAM_FROZEN skips the tensor (nothing read or written; dw and state
 *    may then be NULL). Any other value than the two enumerators is BAD_PARAM.
 *  - dwDesc and wDesc: same dims (BAD_PARAM_SHAPE_MISMATCH) and type (BAD_PARAM), FLOAT
 *    or DOUBLE, any strides; w's strides may not overlap. dw is only read.
 *  - state, stateSizeInBytes: at least pdnnGetOptimizerStateSize bytes
 *    (BAD_PARAM_SIZE_INSUFFICIENT naming the bytes needed); state may be NULL when that
 *    size is 0.
 *  - w, dw and the state's first pdnnGetOptimizerStateSize bytes must be pairwise
 *    disjoint in memory (byte spans of the views); any overlap, including dw == w, is
 *    BAD_PARAM (w is written while dw and the state are read, so an overlap would make
 *    the result depend on the order of the updates and on the thread count). Not
 *    checked for a FROZEN call, which touches nothing.
 *  Elementwise, so bitwise identical for any thread count. FLOAT tensors that are
 *  packed take a threaded path that computes in float as PyTorch does; other layouts and
 *  DOUBLE compute in double. */
PDNN_API pdnnStatus_t pdnnOptimizerStep(pdnnHandle_t handle,
                                        const pdnnOptimizerDescriptor_t optDesc, double lr,
                                        int64_t step, pdnnParamFreeze_t freeze,
                                        const pdnnTensorDescriptor_t dwDesc, const void *dw,
                                        const pdnnTensorDescriptor_t wDesc, void *w,
                                        void *state, size_t stateSizeInBytes);

/** Extension: global-norm gradient clipping over a list of tensors, as
 *  torch.nn.utils.clip_grad_norm_(grads, maxNorm, normType) with its defaults
 *  (error_if_nonfinite false, foreach irrelevant):
 *      total = (sum over all elements of all tensors of |g|^normType)^(1 / normType)
 *              (normType = +INFINITY: the largest |g|), accumulated in double
 *      coef = maxNorm / (total + 1e-6); if coef < 1 every gradient is scaled by coef
 *  *totalNorm receives total (before clipping). A NaN or infinite gradient makes total
 *  NaN or infinite and the gradients are then scaled by NaN or 0, as in PyTorch.
 *  maxNorm >= 0 (+INFINITY only measures a finite norm), normType > 0 or +INFINITY
 *  (BAD_PARAM_OUT_OF_BOUND). nbTensors >= 0 (0: total 0); gradDescs and grads must be
 *  non-NULL when nbTensors > 0; each tensor FLOAT or DOUBLE (they may differ), any
 *  non-overlapping strides, listed once: two tensors whose memory overlaps (the same
 *  tensor listed twice included) are BAD_PARAM naming both indices, checked before
 *  anything is written (PyTorch would count and scale them twice). The sum is taken in a fixed order (bitwise
 *  identical for any thread count). Pass only trainable tensors' gradients. */
PDNN_API pdnnStatus_t pdnnClipGradNorm(pdnnHandle_t handle, int nbTensors,
                                       const pdnnTensorDescriptor_t gradDescs[],
                                       void *const grads[], double maxNorm,
                                       double normType, double *totalNorm);

/* ================================================================ freezing
 *
 * Freezing a parameter (PyTorch: requires_grad=False) at the level of a layer library:
 * - no weight gradient: the training loop does not call the weight-gradient functions
 *   of a frozen layer (pdnnConvolutionBackwardFilter, pdnnConvolutionBackwardBias, the
 *   scale/bias gradients of a normalization, ...). It still calls the data-gradient
 *   function (pdnnConvolutionBackwardData, ...) when an earlier trainable layer needs
 *   the gradient; when no layer before it is trainable the whole backward pass can stop
 *   there.
 * - no update: pass PDNN_PARAM_FROZEN to pdnnOptimizerStep (dw may be NULL), or simply
 *   do not call it; the tensor stays bitwise unchanged and its state and step count are
 *   left as they are, so unfreezing later resumes where it stopped.
 * - leave frozen gradients out of pdnnClipGradNorm, as PyTorch only sees .grad tensors.
 */

/* ================================================================ schedules */

/** Extension: opaque learning-rate schedule descriptor. Its rate at a step is a closed
 *  form (pdnnGetScheduleRate), so a schedule has no state and can be queried at any
 *  step in any order. Steps count from 0, as PyTorch's last_epoch after k calls to
 *  scheduler.step(): step k gives the rate of the (k+1)-th optimizer step when the
 *  scheduler is stepped once per optimizer step. */
typedef struct pdnnScheduleStruct *pdnnScheduleDescriptor_t;

/** Extension: schedule kinds (torch.optim.lr_scheduler closed forms). */
typedef enum {
    PDNN_SCHEDULE_CONSTANT = 0,      /**< baseLr */
    PDNN_SCHEDULE_STEP = 1,          /**< StepLR */
    PDNN_SCHEDULE_MULTI_STEP = 2,    /**< MultiStepLR */
    PDNN_SCHEDULE_EXPONENTIAL = 3,   /**< ExponentialLR */
    PDNN_SCHEDULE_COSINE = 4,        /**< CosineAnnealingLR */
    PDNN_SCHEDULE_WARMUP_COSINE = 5, /**< LinearLR warm-up, then CosineAnnealingLR */
    PDNN_SCHEDULE_ONE_CYCLE = 6,     /**< OneCycleLR */
    PDNN_SCHEDULE_POLYNOMIAL = 7     /**< PolynomialLR (with an optional end rate) */
} pdnnScheduleType_t;

/** Extension: annealing of OneCycleLR (its anneal_strategy). */
typedef enum {
    PDNN_ANNEAL_COS = 0,   /**< end + (start - end) / 2 * (1 + cos(pi * pct)); the default */
    PDNN_ANNEAL_LINEAR = 1 /**< start + (end - start) * pct */
} pdnnAnnealStrategy_t;

/** Most milestones a MULTI_STEP schedule holds. */
#define PDNN_SCHEDULE_MILESTONES_MAX 64

/** Extension. Creates an unset schedule descriptor; BAD_PARAM_NULL_POINTER, ALLOC_FAILED. */
PDNN_API pdnnStatus_t pdnnCreateScheduleDescriptor(pdnnScheduleDescriptor_t *schedDesc);
/** Extension. NULL is accepted and ignored; anything else that is not a live schedule
 *  descriptor is BAD_PARAM. */
PDNN_API pdnnStatus_t pdnnDestroyScheduleDescriptor(pdnnScheduleDescriptor_t schedDesc);

/* Every Set below validates all its values (finite, in the ranges given) and returns
 * BAD_PARAM_OUT_OF_BOUND naming the value, leaving the descriptor unchanged. Rates are
 * >= 0. Each Get returns BAD_PARAM when the descriptor is unset or holds another kind;
 * no output pointer may be NULL. In the formulas t is the step (>= 0). */

/** Extension: rate(t) = baseLr. */
PDNN_API pdnnStatus_t pdnnSetScheduleDescriptorConstant(pdnnScheduleDescriptor_t schedDesc,
                                                        double baseLr);
PDNN_API pdnnStatus_t pdnnGetScheduleDescriptorConstant(const pdnnScheduleDescriptor_t schedDesc,
                                                        double *baseLr);

/** Extension: StepLR: rate(t) = baseLr * gamma^floor(t / stepSize). stepSize >= 1,
 *  gamma >= 0 (PyTorch default 0.1). */
PDNN_API pdnnStatus_t pdnnSetScheduleDescriptorStep(pdnnScheduleDescriptor_t schedDesc,
                                                    double baseLr, int64_t stepSize,
                                                    double gamma);
PDNN_API pdnnStatus_t pdnnGetScheduleDescriptorStep(const pdnnScheduleDescriptor_t schedDesc,
                                                    double *baseLr, int64_t *stepSize,
                                                    double *gamma);

/** Extension: MultiStepLR: rate(t) = baseLr * gamma^(number of milestones <= t) (a
 *  milestone listed twice counts twice, as in PyTorch). 0 <= nbMilestones <=
 *  PDNN_SCHEDULE_MILESTONES_MAX, milestones >= 0 in any order (NULL allowed when
 *  nbMilestones is 0), gamma >= 0. */
PDNN_API pdnnStatus_t pdnnSetScheduleDescriptorMultiStep(pdnnScheduleDescriptor_t schedDesc,
                                                         double baseLr, int nbMilestones,
                                                         const int64_t milestones[],
                                                         double gamma);
/** Reads up to nbMilestonesRequested milestones (as given to Set); *nbMilestones gets
 *  the real count. milestones may be NULL when nbMilestonesRequested is 0. */
PDNN_API pdnnStatus_t pdnnGetScheduleDescriptorMultiStep(const pdnnScheduleDescriptor_t schedDesc,
                                                         double *baseLr,
                                                         int nbMilestonesRequested,
                                                         int *nbMilestones,
                                                         int64_t milestones[],
                                                         double *gamma);

/** Extension: ExponentialLR: rate(t) = baseLr * gamma^t, gamma >= 0. */
PDNN_API pdnnStatus_t pdnnSetScheduleDescriptorExponential(pdnnScheduleDescriptor_t schedDesc,
                                                           double baseLr, double gamma);
PDNN_API pdnnStatus_t pdnnGetScheduleDescriptorExponential(const pdnnScheduleDescriptor_t schedDesc,
                                                           double *baseLr, double *gamma);

/** Extension: CosineAnnealingLR's closed form:
 *  rate(t) = etaMin + (baseLr - etaMin) * (1 + cos(pi * t / tMax)) / 2, tMax >= 1,
 *  etaMin >= 0. Past tMax the formula continues (it rises again, period 2 * tMax), as
 *  PyTorch's closed form does. */
PDNN_API pdnnStatus_t pdnnSetScheduleDescriptorCosine(pdnnScheduleDescriptor_t schedDesc,
                                                      double baseLr, int64_t tMax,
                                                      double etaMin);
PDNN_API pdnnStatus_t pdnnGetScheduleDescriptorCosine(const pdnnScheduleDescriptor_t schedDesc,
                                                      double *baseLr, int64_t *tMax,
                                                      double *etaMin);

/** Extension: linear warm-up then cosine, i.e. PyTorch's
 *  SequentialLR([LinearLR(start_factor=startFactor, end_factor=1, total_iters=W),
 *  CosineAnnealingLR(T_max=T-W, eta_min=etaMin)], milestones=[W]) with W = warmupSteps,
 *  T = totalSteps:
 *      t < W:       baseLr * (startFactor + (1 - startFactor) * t / W)
 *      W <= t <= T: etaMin + (baseLr - etaMin) * (1 + cos(pi * (t - W) / (T - W))) / 2
 *      t > T:       etaMin
 *  0 <= warmupSteps < totalSteps, startFactor in [0, 1] (0 warms up from zero, which
 *  PyTorch's LinearLR refuses), etaMin >= 0. */
PDNN_API pdnnStatus_t pdnnSetScheduleDescriptorWarmupCosine(pdnnScheduleDescriptor_t schedDesc,
                                                            double baseLr,
                                                            int64_t warmupSteps,
                                                            int64_t totalSteps,
                                                            double startFactor,
                                                            double etaMin);
PDNN_API pdnnStatus_t pdnnGetScheduleDescriptorWarmupCosine(const pdnnScheduleDescriptor_t schedDesc,
                                                            double *baseLr,
                                                            int64_t *warmupSteps,
                                                            int64_t *totalSteps,
                                                            double *startFactor,
                                                            double *etaMin);

/** Extension: OneCycleLR (PyTorch defaults: pctStart 0.3, divFactor 25, finalDivFactor
 *  1e4, PDNN_ANNEAL_COS, threePhase 0). With T = totalSteps, initial = maxLr /
 *  divFactor, min = initial / finalDivFactor, phases end at (real-valued) steps
 *      two-phase:   e1 = pctStart * T - 1 (initial -> maxLr), e2 = T - 1 (maxLr -> min)
 *      three-phase: e1 = pctStart * T - 1 (initial -> maxLr),
 *                   e2 = 2 * pctStart * T - 2 (maxLr -> initial), e3 = T - 1 (-> min)
 *  and within the phase [s, e] holding t (the last phase also for t past its end) the
 *  rate anneals from its start to its end value with pct = (t - s) / (e - s). Steps
 *  0..T are valid (PyTorch raises past T: pdnnGetScheduleRate answers
 *  BAD_PARAM_OUT_OF_BOUND). maxLr >= 0, divFactor > 0, finalDivFactor > 0,
 *  pctStart in [0, 1] and every phase longer than 0 steps (PyTorch would divide by
 *  zero), anneal a pdnnAnnealStrategy_t (BAD_PARAM otherwise), threePhase 0 or 1. */
PDNN_API pdnnStatus_t pdnnSetScheduleDescriptorOneCycle(pdnnScheduleDescriptor_t schedDesc,
                                                        double maxLr, int64_t totalSteps,
                                                        double pctStart, double divFactor,
                                                        double finalDivFactor,
                                                        pdnnAnnealStrategy_t anneal,
                                                        int threePhase);
PDNN_API pdnnStatus_t pdnnGetScheduleDescriptorOneCycle(const pdnnScheduleDescriptor_t schedDesc,
                                                        double *maxLr, int64_t *totalSteps,
                                                        double *pctStart, double *divFactor,
                                                        double *finalDivFactor,
                                                        pdnnAnnealStrategy_t *anneal,
                                                        int *threePhase);

/** Extension: PolynomialLR: rate(t) = (baseLr - endLr) * (1 - min(t, T) / T)^power +
 *  endLr with T = totalIters >= 1, power >= 0 (PyTorch defaults T 5, power 1), endLr
 *  >= 0; endLr = 0 is PyTorch's PolynomialLR (endLr is the Extension that
 *  TensorFlow's PolynomialDecay has). */
PDNN_API pdnnStatus_t pdnnSetScheduleDescriptorPolynomial(pdnnScheduleDescriptor_t schedDesc,
                                                          double baseLr, int64_t totalIters,
                                                          double power, double endLr);
PDNN_API pdnnStatus_t pdnnGetScheduleDescriptorPolynomial(const pdnnScheduleDescriptor_t schedDesc,
                                                          double *baseLr,
                                                          int64_t *totalIters,
                                                          double *power, double *endLr);

/** Extension. The kind a set schedule holds (BAD_PARAM when unset). */
PDNN_API pdnnStatus_t pdnnGetScheduleType(const pdnnScheduleDescriptor_t schedDesc,
                                          pdnnScheduleType_t *type);

/** Extension: the learning rate at step `step` (>= 0; ONE_CYCLE: <= totalSteps), the
 *  closed form given at the schedule's Set function, computed in double. BAD_PARAM
 *  (descriptor dead, unset or of another kind), BAD_PARAM_NULL_POINTER (rate),
 *  BAD_PARAM_OUT_OF_BOUND (step). */
PDNN_API pdnnStatus_t pdnnGetScheduleRate(const pdnnScheduleDescriptor_t schedDesc,
                                          int64_t step, double *rate);

#ifdef __cplusplus
}
#endif
#endif /* PDNN_TRAIN_H */
