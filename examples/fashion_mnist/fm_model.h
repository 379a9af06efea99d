/* fm_model - the LeNet-style network of the Fashion-MNIST example, built only from
 * pdnn's public API:
 *
 *   conv1  5x5, 1 -> 32, pad 2, bias, ReLU      N x 32 x 28 x 28
 *   pool   max 2x2, stride 2                    N x 32 x 14 x 14
 *   conv2  5x5, 32 -> 64, pad 2, bias, ReLU     N x 64 x 14 x 14
 *   pool   max 2x2, stride 2                    N x 64 x 7 x 7
 *   fc1    3136 -> 128, bias, ReLU              a 1x1 convolution over the pooled map
 *                                               seen as N x 3136 x 1 x 1
 *   fc2    128 -> 10, bias                      a 1x1 convolution, N x 10 x 1 x 1
 *   loss   softmax cross-entropy (mean over the batch)
 *
 * Forward layers use pdnnConvolutionBiasActivationForward, pdnnPoolingForward;
 * backward pdnnConvolutionBackward{Data,Filter,Bias}, pdnnPoolingBackward,
 * pdnnActivationBackward; the loss pdnnLossForward/Backward; predictions
 * pdnnReduceTensor (MAX with indices: the arg-max); updates pdnnOptimizerStep; gradient
 * clipping pdnnClipGradNorm. Parameter shapes and names are PyTorch's (a state_dict of
 * the same network has the same tensors: fc1.weight is [128, 3136], flattened C, H, W).
 */
#ifndef FM_MODEL_H
#define FM_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include <pdnn.h>

#include "fm_idx.h"
#include "fm_safetensors.h"

enum { FM_CONV1, FM_CONV2, FM_FC1, FM_FC2, FM_NLAYERS };
#define FM_NPARAMS (2 * FM_NLAYERS) /* weight then bias of each layer */
#define FM_IMAGE 28

/** Architecture tag stored in (and required from) checkpoints. */
#define FM_ARCH "fashion-mnist-lenet:conv5x5(1>32,p2)relu-maxpool2-conv5x5(32>64,p2)relu-maxpool2-fc(3136>128)relu-fc(128>10)"

/** Layer names, as --freeze takes them: "conv1", "conv2", "fc1", "fc2". */
extern const char *const fm_layer_names[FM_NLAYERS];

typedef struct {
    char name[32];       /**< "conv1.weight", ... */
    char state_name[48]; /**< "optimizer.conv1.weight", ... */
    int ndim;
    int64_t shape[4];    /**< PyTorch's shape */
    size_t numel;
    int fan_in;
    float *w, *g;        /**< value and gradient */
    void *state;         /**< optimizer state (pdnn's layout), state_bytes long */
    size_t state_bytes;
    int64_t steps;       /**< optimizer steps applied to this tensor so far */
    pdnnTensorDescriptor_t vec; /**< 1-d FLOAT descriptor of numel elements */
} fm_param;

typedef struct {
    pdnnHandle_t h;
    int maxn, n;                      /**< buffer capacity and current batch size */
    fm_param p[FM_NPARAMS];
    bool frozen[FM_NLAYERS];
    pdnnOptimizerDescriptor_t opt;    /**< not owned */

    pdnnFilterDescriptor_t wdesc[FM_NLAYERS];
    pdnnTensorDescriptor_t bdesc[FM_NLAYERS];
    pdnnConvolutionDescriptor_t conv[FM_NLAYERS];
    pdnnTensorDescriptor_t in[FM_NLAYERS], out[FM_NLAYERS], p2map, logits2d, target, lossval,
        maxval;
    pdnnPoolingDescriptor_t pool;
    pdnnActivationDescriptor_t relu, ident;
    pdnnLossDescriptor_t loss;
    pdnnReduceTensorDescriptor_t argmax;
    pdnnConvolutionFwdAlgo_t fwd_algo[FM_NLAYERS];
    pdnnConvolutionBwdDataAlgo_t bwdd_algo[FM_NLAYERS];
    pdnnConvolutionBwdFilterAlgo_t bwdf_algo[FM_NLAYERS];
    void *ws;
    size_t ws_bytes;

    /* activations at maxn: x (input), a1, p1, a2, p2, a3, logits; their gradients */
    float *x, *a1, *p1, *a2, *p2, *a3, *logits;
    float *da1, *dp1, *da2, *dp2, *da3, *dlogits;
    int32_t *labels;   /**< the batch's targets */
    uint32_t *pred;    /**< the batch's predicted classes */
    float *maxlogit;

    char err[1024];    /**< what failed, for the last call that returned -1 */
} fm_net;

/** Creates the network for batches of up to maxn images on handle h (not owned):
 *  descriptors and buffers; the parameters are zero until fm_net_init or a checkpoint.
 *  Returns 0, or -1 with net->err set (fm_net_destroy is still safe). */
int fm_net_create(fm_net *net, pdnnHandle_t h, int maxn);
void fm_net_destroy(fm_net *net);

/** PyTorch's default initialisation of Conv2d and Linear: kaiming_uniform_(a=sqrt(5))
 *  for weights, i.e. U(-1/sqrt(fan_in), 1/sqrt(fan_in)), and the same bound for
 *  biases; drawn from a generator seeded with seed (same seed, same weights). */
void fm_net_init(fm_net *net, uint64_t seed);

/** Uses opt (kept, not owned) for the updates: allocates each tensor's state and
 *  resets the step counts. Returns 0 or -1. */
int fm_net_set_optimizer(fm_net *net, pdnnOptimizerDescriptor_t opt);

/** Copies images order[start .. start+n) of split into the input buffer (pixels / 255,
 *  normalised with Fashion-MNIST's mean 0.2860 and std 0.3530) and their labels. */
void fm_net_load_batch(fm_net *net, const fm_split *split, const int64_t *order, int64_t start,
                       int n);

/** Forward, loss, backward and one optimizer step with rate lr on the loaded batch of n.
 *  Frozen layers get no weight-gradient call and no optimizer step, and the backward
 *  pass stops below the lowest trainable layer. clip > 0 clips the global gradient
 *  norm of the trainable tensors to clip. *loss: the batch's mean loss; *correct: the
 *  number of right predictions. Returns 0, or -1 with net->err (a pdnn failure, or a
 *  loss that is not finite). */
int fm_net_train_step(fm_net *net, int n, double lr, double clip, double *loss, int *correct);

/** Forward and loss only, on the loaded batch of n: *loss_sum (sum of the losses) and
 *  *correct. Returns 0 or -1. */
int fm_net_eval_batch(fm_net *net, int n, double *loss_sum, int *correct);

/** Tensors of a checkpoint: every parameter, then (with_state) each tensor's optimizer
 *  state as "optimizer.<name>", shape [buffers, <shape>] (none for a state-less
 *  optimizer). out must have room for 2 * FM_NPARAMS; returns the count. The data
 *  pointers are the network's. */
int fm_net_tensors(const fm_net *net, bool with_state, fm_st_tensor *out);

/** Loads a checkpoint's parameters (and, with load_state, the optimizer state and step
 *  counts; the optimizer must be set). Checks first, changing nothing on failure: the
 *  architecture tag, every tensor present with its shape, state shapes. Returns 0, or
 *  -1 with net->err. */
int fm_net_load(fm_net *net, const fm_st_file *ckpt, const char *path, bool load_state);

/** Index of a layer name, or -1. */
int fm_layer_index(const char *name);

#endif
