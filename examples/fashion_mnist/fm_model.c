/* The network of the Fashion-MNIST example on pdnn's API (see fm_model.h). */
#include "fm_model.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const fm_layer_names[FM_NLAYERS] = {"conv1", "conv2", "fc1", "fc2"};

/* per layer: output channels K, input channels C, filter size R (square), padding,
 * input map size H (square) */
static const struct {
    int k, c, r, pad, h;
} layer_geom[FM_NLAYERS] = {
    {32, 1, 5, 2, 28},
    {64, 32, 5, 2, 14},
    {128, 3136, 1, 0, 1},
    {10, 128, 1, 0, 1},
};

static const float one = 1.0f, zero = 0.0f;

static int net_fail(fm_net *net, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int net_fail(fm_net *net, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(net->err, sizeof net->err, fmt, ap);
    va_end(ap);
    return -1;
}

static int pdnn_fail(fm_net *net, const char *call, pdnnStatus_t st)
{
    char msg[512];
    pdnnGetLastErrorString(msg, sizeof msg);
    return net_fail(net, "%s failed: %s: %s", call, pdnnGetErrorString(st), msg);
}

/* Every pdnn call of the network goes through this: on failure the function returns -1
 * with the call, the status and pdnn's message in net->err. */
#define TRY(call)                                                                      \
    do {                                                                               \
        pdnnStatus_t st_ = (call);                                                     \
        if (st_ != PDNN_STATUS_SUCCESS) return pdnn_fail(net, #call, st_);             \
    } while (0)

int fm_layer_index(const char *name)
{
    for (int l = 0; l < FM_NLAYERS; l++)
        if (!strcmp(name, fm_layer_names[l])) return l;
    return -1;
}

static float *alloc_f(size_t n)
{
    return calloc(n ? n : 1, sizeof(float));
}

/* Packed NCHW FLOAT tensor descriptor. */
static pdnnStatus_t set4d(pdnnTensorDescriptor_t d, int n, int c, int h, int w)
{
    return pdnnSetTensor4dDescriptor(d, PDNN_TENSOR_NCHW, PDNN_DATA_FLOAT, n, c, h, w);
}

static pdnnStatus_t set_nd(pdnnTensorDescriptor_t d, pdnnDataType_t t, int nb, const int *dims)
{
    int strides[8], s = 1;
    for (int i = nb - 1; i >= 0; i--) {
        strides[i] = s;
        s *= dims[i];
    }
    return pdnnSetTensorNdDescriptor(d, t, nb, dims, strides);
}

/* Descriptors whose dims depend on the batch size n, the algorithms chosen for them
 * (pdnn's heuristic ranking: the first that runs) and the workspace they need. */
static int set_batch(fm_net *net, int n)
{
    if (n == net->n) return 0;
    if (n < 1 || n > net->maxn) return net_fail(net, "batch of %d images, the buffers hold %d", n,
                                                net->maxn);
    TRY(set4d(net->in[FM_CONV1], n, 1, 28, 28));
    TRY(set4d(net->out[FM_CONV1], n, 32, 28, 28));
    TRY(set4d(net->in[FM_CONV2], n, 32, 14, 14));
    TRY(set4d(net->out[FM_CONV2], n, 64, 14, 14));
    TRY(set4d(net->p2map, n, 64, 7, 7));
    TRY(set4d(net->in[FM_FC1], n, 3136, 1, 1)); /* the same memory as p2map, flattened */
    TRY(set4d(net->out[FM_FC1], n, 128, 1, 1));
    TRY(set4d(net->in[FM_FC2], n, 128, 1, 1));
    TRY(set4d(net->out[FM_FC2], n, 10, 1, 1));
    int d2[2] = {n, 10}, d1[2] = {n, 1};
    TRY(set_nd(net->logits2d, PDNN_DATA_FLOAT, 2, d2));
    TRY(set_nd(net->maxval, PDNN_DATA_FLOAT, 2, d1));
    TRY(set_nd(net->target, PDNN_DATA_INT32, 1, d1));

    size_t need = 0;
    for (int l = 0; l < FM_NLAYERS; l++) {
        int got;
        pdnnConvolutionFwdAlgoPerf_t fp[PDNN_CONVOLUTION_FWD_ALGO_COUNT];
        pdnnConvolutionBwdDataAlgoPerf_t dp[PDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
        pdnnConvolutionBwdFilterAlgoPerf_t wp[PDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
        TRY(pdnnGetConvolutionForwardAlgorithm_v7(net->h, net->in[l], net->wdesc[l], net->conv[l],
                                                  net->out[l], PDNN_CONVOLUTION_FWD_ALGO_COUNT,
                                                  &got, fp));
        if (got < 1 || fp[0].status != PDNN_STATUS_SUCCESS)
            return net_fail(net, "%s: no forward convolution algorithm runs", fm_layer_names[l]);
        TRY(pdnnGetConvolutionBackwardDataAlgorithm_v7(
            net->h, net->wdesc[l], net->out[l], net->conv[l], net->in[l],
            PDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &got, dp));
        if (got < 1 || dp[0].status != PDNN_STATUS_SUCCESS)
            return net_fail(net, "%s: no backward-data algorithm runs", fm_layer_names[l]);
        TRY(pdnnGetConvolutionBackwardFilterAlgorithm_v7(
            net->h, net->in[l], net->out[l], net->conv[l], net->wdesc[l],
            PDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &got, wp));
        if (got < 1 || wp[0].status != PDNN_STATUS_SUCCESS)
            return net_fail(net, "%s: no backward-filter algorithm runs", fm_layer_names[l]);
        net->fwd_algo[l] = fp[0].algo;
        net->bwdd_algo[l] = dp[0].algo;
        net->bwdf_algo[l] = wp[0].algo;
        size_t b;
        TRY(pdnnGetConvolutionForwardWorkspaceSize(net->h, net->in[l], net->wdesc[l],
                                                   net->conv[l], net->out[l], fp[0].algo, &b));
        if (b > need) need = b;
        TRY(pdnnGetConvolutionBackwardDataWorkspaceSize(net->h, net->wdesc[l], net->out[l],
                                                        net->conv[l], net->in[l], dp[0].algo,
                                                        &b));
        if (b > need) need = b;
        TRY(pdnnGetConvolutionBackwardFilterWorkspaceSize(net->h, net->in[l], net->out[l],
                                                          net->conv[l], net->wdesc[l],
                                                          wp[0].algo, &b));
        if (b > need) need = b;
    }
    if (need > net->ws_bytes) {
        free(net->ws);
        net->ws = malloc(need);
        net->ws_bytes = net->ws ? need : 0;
        if (!net->ws) return net_fail(net, "cannot allocate %zu bytes of workspace", need);
    }
    net->n = n;
    return 0;
}

int fm_net_create(fm_net *net, pdnnHandle_t h, int maxn)
{
    memset(net, 0, sizeof *net);
    net->h = h;
    net->maxn = maxn;
    if (maxn < 1) return net_fail(net, "batch capacity %d", maxn);
    for (int l = 0; l < FM_NLAYERS; l++) {
        int k = layer_geom[l].k, c = layer_geom[l].c, r = layer_geom[l].r;
        fm_param *w = &net->p[2 * l], *b = &net->p[2 * l + 1];
        snprintf(w->name, sizeof w->name, "%s.weight", fm_layer_names[l]);
        snprintf(b->name, sizeof b->name, "%s.bias", fm_layer_names[l]);
        snprintf(w->state_name, sizeof w->state_name, "optimizer.%s", w->name);
        snprintf(b->state_name, sizeof b->state_name, "optimizer.%s", b->name);
        if (l < FM_FC1) { /* Conv2d: [K, C, R, S] */
            w->ndim = 4;
            w->shape[0] = k, w->shape[1] = c, w->shape[2] = r, w->shape[3] = r;
        } else { /* Linear: [out, in] */
            w->ndim = 2;
            w->shape[0] = k, w->shape[1] = c;
        }
        w->numel = (size_t)k * c * r * r;
        w->fan_in = c * r * r;
        b->ndim = 1;
        b->shape[0] = k;
        b->numel = (size_t)k;
        b->fan_in = w->fan_in;
        TRY(pdnnCreateFilterDescriptor(&net->wdesc[l]));
        TRY(pdnnSetFilter4dDescriptor(net->wdesc[l], PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, k, c, r, r));
        TRY(pdnnCreateTensorDescriptor(&net->bdesc[l]));
        TRY(set4d(net->bdesc[l], 1, k, 1, 1));
        TRY(pdnnCreateConvolutionDescriptor(&net->conv[l]));
        TRY(pdnnSetConvolution2dDescriptor(net->conv[l], layer_geom[l].pad, layer_geom[l].pad, 1,
                                           1, 1, 1, PDNN_CROSS_CORRELATION, PDNN_DATA_FLOAT));
        TRY(pdnnCreateTensorDescriptor(&net->in[l]));
        TRY(pdnnCreateTensorDescriptor(&net->out[l]));
    }
    for (int i = 0; i < FM_NPARAMS; i++) {
        fm_param *q = &net->p[i];
        q->w = alloc_f(q->numel);
        q->g = alloc_f(q->numel);
        if (!q->w || !q->g) return net_fail(net, "out of memory");
        TRY(pdnnCreateTensorDescriptor(&q->vec));
        int d = (int)q->numel;
        TRY(set_nd(q->vec, PDNN_DATA_FLOAT, 1, &d));
    }
    TRY(pdnnCreateTensorDescriptor(&net->p2map));
    TRY(pdnnCreateTensorDescriptor(&net->logits2d));
    TRY(pdnnCreateTensorDescriptor(&net->target));
    TRY(pdnnCreateTensorDescriptor(&net->lossval));
    TRY(pdnnCreateTensorDescriptor(&net->maxval));
    int d1 = 1;
    TRY(set_nd(net->lossval, PDNN_DATA_FLOAT, 1, &d1));
    TRY(pdnnCreatePoolingDescriptor(&net->pool));
    TRY(pdnnSetPooling2dDescriptor(net->pool, PDNN_POOLING_MAX, PDNN_PROPAGATE_NAN, 2, 2, 0, 0,
                                   2, 2));
    TRY(pdnnCreateActivationDescriptor(&net->relu));
    TRY(pdnnSetActivationDescriptor(net->relu, PDNN_ACTIVATION_RELU, PDNN_PROPAGATE_NAN, 0.0));
    TRY(pdnnCreateActivationDescriptor(&net->ident));
    TRY(pdnnSetActivationDescriptor(net->ident, PDNN_ACTIVATION_IDENTITY, PDNN_PROPAGATE_NAN, 0.0));
    TRY(pdnnCreateLossDescriptor(&net->loss));
    TRY(pdnnSetLossDescriptor(net->loss, PDNN_LOSS_SOFTMAX_CROSS_ENTROPY, PDNN_LOSS_REDUCTION_MEAN,
                              -100, 0.0));
    TRY(pdnnCreateReduceTensorDescriptor(&net->argmax));
    TRY(pdnnSetReduceTensorDescriptor(net->argmax, PDNN_REDUCE_TENSOR_MAX, PDNN_DATA_FLOAT,
                                      PDNN_NOT_PROPAGATE_NAN, PDNN_REDUCE_TENSOR_FLATTENED_INDICES,
                                      PDNN_32BIT_INDICES));
    size_t m = (size_t)maxn;
    net->x = alloc_f(m * 784);
    net->a1 = alloc_f(m * 32 * 784);
    net->da1 = alloc_f(m * 32 * 784);
    net->p1 = alloc_f(m * 32 * 196);
    net->dp1 = alloc_f(m * 32 * 196);
    net->a2 = alloc_f(m * 64 * 196);
    net->da2 = alloc_f(m * 64 * 196);
    net->p2 = alloc_f(m * 3136);
    net->dp2 = alloc_f(m * 3136);
    net->a3 = alloc_f(m * 128);
    net->da3 = alloc_f(m * 128);
    net->logits = alloc_f(m * 10);
    net->dlogits = alloc_f(m * 10);
    net->maxlogit = alloc_f(m);
    net->labels = calloc(m, sizeof(int32_t));
    net->pred = calloc(m, sizeof(uint32_t));
    if (!net->x || !net->a1 || !net->da1 || !net->p1 || !net->dp1 || !net->a2 || !net->da2 ||
        !net->p2 || !net->dp2 || !net->a3 || !net->da3 || !net->logits || !net->dlogits ||
        !net->maxlogit || !net->labels || !net->pred)
        return net_fail(net, "out of memory for a batch of %d images", maxn);
    return set_batch(net, maxn);
}

void fm_net_destroy(fm_net *net)
{
    for (int l = 0; l < FM_NLAYERS; l++) {
        pdnnDestroyFilterDescriptor(net->wdesc[l]);
        pdnnDestroyTensorDescriptor(net->bdesc[l]);
        pdnnDestroyConvolutionDescriptor(net->conv[l]);
        pdnnDestroyTensorDescriptor(net->in[l]);
        pdnnDestroyTensorDescriptor(net->out[l]);
    }
    for (int i = 0; i < FM_NPARAMS; i++) {
        free(net->p[i].w);
        free(net->p[i].g);
        free(net->p[i].state);
        pdnnDestroyTensorDescriptor(net->p[i].vec);
    }
    pdnnDestroyTensorDescriptor(net->p2map);
    pdnnDestroyTensorDescriptor(net->logits2d);
    pdnnDestroyTensorDescriptor(net->target);
    pdnnDestroyTensorDescriptor(net->lossval);
    pdnnDestroyTensorDescriptor(net->maxval);
    pdnnDestroyPoolingDescriptor(net->pool);
    pdnnDestroyActivationDescriptor(net->relu);
    pdnnDestroyActivationDescriptor(net->ident);
    pdnnDestroyLossDescriptor(net->loss);
    pdnnDestroyReduceTensorDescriptor(net->argmax);
    float *bufs[] = {net->x,  net->a1,  net->da1, net->p1,     net->dp1,     net->a2,
                     net->da2, net->p2, net->dp2, net->a3,     net->da3,     net->logits,
                     net->dlogits, net->maxlogit};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) free(bufs[i]);
    free(net->labels);
    free(net->pred);
    free(net->ws);
    memset(net, 0, sizeof *net);
}

/* splitmix64: a small, well-mixed generator; one stream for the initialisation */
static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void fm_net_init(fm_net *net, uint64_t seed)
{
    uint64_t s = seed ^ 0x5EED5EED5EED5EEDull;
    for (int i = 0; i < FM_NPARAMS; i++) {
        fm_param *q = &net->p[i];
        double bound = 1.0 / sqrt((double)q->fan_in);
        for (size_t j = 0; j < q->numel; j++) {
            double u = (double)(splitmix64(&s) >> 11) * 0x1.0p-53; /* [0, 1) */
            q->w[j] = (float)((2.0 * u - 1.0) * bound);
        }
    }
}

int fm_net_set_optimizer(fm_net *net, pdnnOptimizerDescriptor_t opt)
{
    net->opt = opt;
    for (int i = 0; i < FM_NPARAMS; i++) {
        fm_param *q = &net->p[i];
        size_t bytes;
        TRY(pdnnGetOptimizerStateSize(net->h, opt, q->vec, &bytes));
        free(q->state);
        q->state = bytes ? calloc(1, bytes) : NULL;
        if (bytes && !q->state) return net_fail(net, "out of memory for optimizer state");
        q->state_bytes = bytes;
        q->steps = 0;
    }
    return 0;
}

void fm_net_load_batch(fm_net *net, const fm_split *split, const int64_t *order, int64_t start,
                       int n)
{
    const size_t px = (size_t)split->rows * split->cols;
    const float scale = 1.0f / (255.0f * 0.3530f), shift = 0.2860f / 0.3530f;
    for (int i = 0; i < n; i++) {
        int64_t k = order ? order[start + i] : start + i;
        const uint8_t *src = split->images + (size_t)k * px;
        float *dst = net->x + (size_t)i * px;
        for (size_t j = 0; j < px; j++) dst[j] = (float)src[j] * scale - shift;
        net->labels[i] = split->labels[k];
    }
}

/* conv + bias + activation of layer l from src to dst */
static int layer_forward(fm_net *net, int l, const float *src, float *dst,
                         pdnnActivationDescriptor_t act)
{
    TRY(pdnnConvolutionBiasActivationForward(
        net->h, &one, net->in[l], src, net->wdesc[l], net->p[2 * l].w, net->conv[l],
        net->fwd_algo[l], net->ws, net->ws_bytes, &zero, net->out[l], dst, net->bdesc[l],
        net->p[2 * l + 1].w, act, net->out[l], dst));
    return 0;
}

static int forward(fm_net *net, int n, double *loss, int *correct)
{
    if (set_batch(net, n)) return -1;
    if (layer_forward(net, FM_CONV1, net->x, net->a1, net->relu)) return -1;
    TRY(pdnnPoolingForward(net->h, net->pool, &one, net->out[FM_CONV1], net->a1, &zero,
                           net->in[FM_CONV2], net->p1));
    if (layer_forward(net, FM_CONV2, net->p1, net->a2, net->relu)) return -1;
    TRY(pdnnPoolingForward(net->h, net->pool, &one, net->out[FM_CONV2], net->a2, &zero,
                           net->p2map, net->p2));
    if (layer_forward(net, FM_FC1, net->p2, net->a3, net->relu)) return -1;
    if (layer_forward(net, FM_FC2, net->a3, net->logits, net->ident)) return -1;
    float l;
    TRY(pdnnLossForward(net->h, net->loss, &one, net->logits2d, net->logits, net->target,
                        net->labels, &zero, net->lossval, &l));
    TRY(pdnnReduceTensor(net->h, net->argmax, net->pred, (size_t)n * sizeof(uint32_t), NULL, 0,
                         &one, net->logits2d, net->logits, &zero, net->maxval, net->maxlogit));
    int c = 0;
    for (int i = 0; i < n; i++) c += (int32_t)net->pred[i] == net->labels[i];
    *loss = l;
    *correct = c;
    if (!isfinite(l))
        return net_fail(net, "the loss is %g: training diverged (try a smaller --lr)", (double)l);
    return 0;
}

int fm_net_eval_batch(fm_net *net, int n, double *loss_sum, int *correct)
{
    double l;
    if (forward(net, n, &l, correct)) return -1;
    *loss_sum = l * n;
    return 0;
}

/* Weight and bias gradients of layer l (from its input src and output gradient dy). */
static int layer_grads(fm_net *net, int l, const float *src, const float *dy)
{
    TRY(pdnnConvolutionBackwardFilter(net->h, &one, net->in[l], src, net->out[l], dy,
                                      net->conv[l], net->bwdf_algo[l], net->ws, net->ws_bytes,
                                      &zero, net->wdesc[l], net->p[2 * l].g));
    TRY(pdnnConvolutionBackwardBias(net->h, &one, net->out[l], dy, &zero, net->bdesc[l],
                                    net->p[2 * l + 1].g));
    return 0;
}

/* Gradient of layer l's input from its output gradient dy. */
static int layer_data_grad(fm_net *net, int l, const float *dy, float *dx)
{
    TRY(pdnnConvolutionBackwardData(net->h, &one, net->wdesc[l], net->p[2 * l].w, net->out[l], dy,
                                    net->conv[l], net->bwdd_algo[l], net->ws, net->ws_bytes,
                                    &zero, net->in[l], dx));
    return 0;
}

/* ReLU backward in place on the gradient d of activation a. The forward pass kept only
 * a = relu(z); RELU's derivative is taken from its input x (x > 0), and a > 0 exactly
 * where z > 0, so a serves as x.
 *
 * Below a max-pool (conv -> ReLU -> pool) it runs on the POOLED map, before the pooling
 * backward, with the pooled output as x: the pooling passes each window's gradient to
 * its selected element only, whose activation is the pooled value, so masking the
 * window's gradient by (pooled > 0) gives the same values, bit for bit (dy where the
 * selected a > 0, else +0; the other elements +0 either way), over a map 4 times
 * smaller and without a pass over the full-size gradient. */
static int relu_backward(fm_net *net, pdnnTensorDescriptor_t desc, const float *a, float *d)
{
    TRY(pdnnActivationBackward(net->h, net->relu, &one, desc, a, desc, d, desc, a, &zero, desc, d));
    return 0;
}

int fm_net_train_step(fm_net *net, int n, double lr, double clip, double *loss, int *correct)
{
    int first = FM_NLAYERS; /* lowest trainable layer: backward stops there */
    for (int l = FM_NLAYERS - 1; l >= 0; l--)
        if (!net->frozen[l]) first = l;
    if (first == FM_NLAYERS) return net_fail(net, "every layer is frozen: nothing to train");
    if (!net->opt) return net_fail(net, "no optimizer set");
    if (forward(net, n, loss, correct)) return -1;
    TRY(pdnnLossBackward(net->h, net->loss, &one, net->logits2d, net->logits, net->target,
                         net->labels, NULL, NULL, &zero, net->logits2d, net->dlogits));
    /* fc2 */
    if (!net->frozen[FM_FC2] && layer_grads(net, FM_FC2, net->a3, net->dlogits)) return -1;
    if (first < FM_FC2) {
        if (layer_data_grad(net, FM_FC2, net->dlogits, net->da3)) return -1;
        if (relu_backward(net, net->out[FM_FC1], net->a3, net->da3)) return -1;
        /* fc1 */
        if (!net->frozen[FM_FC1] && layer_grads(net, FM_FC1, net->p2, net->da3)) return -1;
    }
    if (first < FM_FC1) {
        if (layer_data_grad(net, FM_FC1, net->da3, net->dp2)) return -1;
        if (relu_backward(net, net->p2map, net->p2, net->dp2)) return -1; /* pooled: above */
        TRY(pdnnPoolingBackward(net->h, net->pool, &one, net->p2map, net->p2, net->p2map, net->dp2,
                                net->out[FM_CONV2], net->a2, &zero, net->out[FM_CONV2], net->da2));
        /* conv2 */
        if (!net->frozen[FM_CONV2] && layer_grads(net, FM_CONV2, net->p1, net->da2)) return -1;
    }
    if (first < FM_CONV2) {
        if (layer_data_grad(net, FM_CONV2, net->da2, net->dp1)) return -1;
        if (relu_backward(net, net->in[FM_CONV2], net->p1, net->dp1)) return -1; /* pooled */
        TRY(pdnnPoolingBackward(net->h, net->pool, &one, net->in[FM_CONV2], net->p1,
                                net->in[FM_CONV2], net->dp1, net->out[FM_CONV1], net->a1, &zero,
                                net->out[FM_CONV1], net->da1));
        /* conv1: its input gradient is not needed */
        if (layer_grads(net, FM_CONV1, net->x, net->da1)) return -1;
    }
    if (clip > 0) {
        pdnnTensorDescriptor_t descs[FM_NPARAMS];
        void *grads[FM_NPARAMS];
        int k = 0;
        for (int i = 0; i < FM_NPARAMS; i++) {
            if (net->frozen[i / 2]) continue;
            descs[k] = net->p[i].vec;
            grads[k++] = net->p[i].g;
        }
        double total;
        TRY(pdnnClipGradNorm(net->h, k, descs, grads, clip, 2.0, &total));
    }
    for (int i = 0; i < FM_NPARAMS; i++) {
        fm_param *q = &net->p[i];
        if (net->frozen[i / 2]) continue; /* frozen: no step, its count unchanged */
        TRY(pdnnOptimizerStep(net->h, net->opt, lr, q->steps + 1, PDNN_PARAM_TRAINABLE, q->vec,
                              q->g, q->vec, q->w, q->state, q->state_bytes));
        q->steps++;
    }
    return 0;
}

/* number of state buffers of q: state bytes / tensor bytes */
static int64_t state_buffers(const fm_param *q)
{
    return (int64_t)(q->state_bytes / (q->numel * sizeof(float)));
}

int fm_net_tensors(const fm_net *net, bool with_state, fm_st_tensor *out)
{
    int k = 0;
    for (int i = 0; i < FM_NPARAMS; i++) {
        const fm_param *q = &net->p[i];
        out[k].name = (char *)q->name;
        out[k].ndim = q->ndim;
        memcpy(out[k].shape, q->shape, sizeof q->shape);
        out[k].numel = q->numel;
        out[k].data = q->w;
        k++;
    }
    for (int i = 0; with_state && i < FM_NPARAMS; i++) {
        const fm_param *q = &net->p[i];
        if (!q->state_bytes) continue;
        out[k].name = (char *)q->state_name;
        out[k].ndim = q->ndim + 1;
        out[k].shape[0] = state_buffers(q);
        memcpy(out[k].shape + 1, q->shape, sizeof(int64_t) * (size_t)q->ndim);
        out[k].numel = q->state_bytes / sizeof(float);
        out[k].data = q->state;
        k++;
    }
    return k;
}

static void shape_str(char *buf, size_t len, int ndim, const int64_t *shape)
{
    size_t at = (size_t)snprintf(buf, len, "[");
    for (int d = 0; d < ndim && at < len; d++)
        at += (size_t)snprintf(buf + at, len - at, "%s%" PRId64, d ? ", " : "", shape[d]);
    if (at < len) snprintf(buf + at, len - at, "]");
}

static int check_shape(fm_net *net, const char *path, const fm_st_file *ck, const char *name,
                       int ndim, const int64_t *shape)
{
    const fm_st_tensor *t = fm_st_get(ck, name);
    if (!t && !strncmp(name, "optimizer.", 10))
        return net_fail(net, "%s: no optimizer state '%s': saved with other optimizer settings "
                        "(another --optimizer starts a fresh state)", path, name);
    if (!t)
        return net_fail(net, "%s: no tensor '%s': not a checkpoint of this network", path, name);
    if (t->ndim != ndim || memcmp(t->shape, shape, sizeof(int64_t) * (size_t)ndim)) {
        char got[128], want[128];
        shape_str(got, sizeof got, t->ndim, t->shape);
        shape_str(want, sizeof want, ndim, shape);
        if (!strncmp(name, "optimizer.", 10))
            return net_fail(net, "%s: optimizer state '%s' has shape %s, these optimizer settings "
                            "need %s", path, name, got, want);
        return net_fail(net, "%s: tensor '%s' has shape %s, this network needs %s: a checkpoint "
                        "of another architecture", path, name, got, want);
    }
    return 0;
}

int fm_net_load(fm_net *net, const fm_st_file *ck, const char *path, bool load_state)
{
    const char *arch = fm_st_meta(ck, "pdnn.arch");
    if (!arch || strcmp(arch, FM_ARCH))
        return net_fail(net, "%s: architecture '%s', this program trains '%s'", path,
                        arch ? arch : "(none recorded)", FM_ARCH);
    int64_t steps[FM_NPARAMS];
    for (int i = 0; i < FM_NPARAMS; i++) {
        const fm_param *q = &net->p[i];
        if (check_shape(net, path, ck, q->name, q->ndim, q->shape)) return -1;
        if (!load_state) continue;
        char key[64];
        snprintf(key, sizeof key, "optimizer.steps.%s", q->name);
        const char *v = fm_st_meta(ck, key);
        char *end;
        steps[i] = v ? strtoll(v, &end, 10) : -1;
        if (!v || *end || steps[i] < 0)
            return net_fail(net, "%s: metadata '%s' missing or not a step count", path, key);
        if (!q->state_bytes) continue;
        int64_t shape[5] = {state_buffers(q)};
        memcpy(shape + 1, q->shape, sizeof(int64_t) * (size_t)q->ndim);
        if (check_shape(net, path, ck, q->state_name, q->ndim + 1, shape)) return -1;
    }
    for (int i = 0; i < FM_NPARAMS; i++) {
        fm_param *q = &net->p[i];
        memcpy(q->w, fm_st_get(ck, q->name)->data, q->numel * sizeof(float));
        if (!load_state) continue;
        q->steps = steps[i];
        if (!q->state_bytes) continue;
        memcpy(q->state, fm_st_get(ck, q->state_name)->data, q->state_bytes);
    }
    return 0;
}
