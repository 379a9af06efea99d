/*
 * cnn_demo: a complete pdnn program, written as cuDNN code would be.
 *
 * Builds a 224x224 RGB test image (a smooth colour pattern with a bright disc), then
 * runs a small network over it with pdnn on the CPU:
 *   conv 3x3 3->16 pad 1 + bias + ReLU  (pdnnConvolutionBiasActivationForward)
 *   max-pool 2x2 stride 2              (pdnnPoolingForward)
 *   conv 3x3 16->10 pad 1              (pdnnConvolutionForward, algorithm from Get_v7)
 *   global average pool                (pdnnPoolingForward, window = whole plane)
 *   softmax over the 10 channels       (pdnnSoftmaxForward, ACCURATE, CHANNEL)
 * and prints each stage's shape, algorithm and time, and the class probabilities.
 *
 * Usage: cnn_demo [--threads N] [--batch N]
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pdnn.h>

#define CHECK(call)                                                                    \
    do {                                                                               \
        pdnnStatus_t st_ = (call);                                                     \
        if (st_ != PDNN_STATUS_SUCCESS) {                                              \
            char msg_[1024];                                                           \
            pdnnGetLastErrorString(msg_, sizeof msg_);                                 \
            fprintf(stderr, "cnn_demo: %s failed: %s\n  %s\n", #call,                  \
                    pdnnGetErrorString(st_), msg_);                                    \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static float *alloc_floats(size_t n)
{
    float *p = malloc((n ? n : 1) * sizeof *p);
    if (!p) {
        fprintf(stderr, "cnn_demo: out of memory\n");
        exit(1);
    }
    return p;
}

/* A deterministic pseudo-random value in [-scale, scale]. */
static float rnd(unsigned *state, float scale)
{
    *state = *state * 1664525u + 1013904223u;
    return scale * ((float)(*state >> 8) / 8388608.0f - 1.0f);
}

static pdnnTensorDescriptor_t tensor(int n, int c, int h, int w)
{
    pdnnTensorDescriptor_t d;
    CHECK(pdnnCreateTensorDescriptor(&d));
    CHECK(pdnnSetTensor4dDescriptor(d, PDNN_TENSOR_NCHW, PDNN_DATA_FLOAT, n, c, h, w));
    return d;
}

static pdnnFilterDescriptor_t filter(int k, int c, int r, int s)
{
    pdnnFilterDescriptor_t d;
    CHECK(pdnnCreateFilterDescriptor(&d));
    CHECK(pdnnSetFilter4dDescriptor(d, PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, k, c, r, s));
    return d;
}

int main(int argc, char **argv)
{
    int threads = 0, batch = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--batch") && i + 1 < argc)
            batch = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: cnn_demo [--threads N] [--batch N]\n");
            return 2;
        }
    }
    if (batch < 1 || batch > 64) {
        fprintf(stderr, "cnn_demo: --batch must be in [1, 64]\n");
        return 2;
    }

    pdnnHandle_t h;
    CHECK(pdnnCreate(&h));
    if (threads > 0) CHECK(pdnnSetNumThreads(h, threads));
    CHECK(pdnnGetNumThreads(h, &threads));
    size_t v = pdnnGetVersion();
    printf("pdnn %zu.%zu.%zu, %d threads, batch %d\n", v / 10000, v / 100 % 100, v % 100,
           threads, batch);

    /* ---- the input image: N x 3 x 224 x 224 */
    const int H = 224, W = 224;
    float *img = alloc_floats((size_t)batch * 3 * H * W);
    for (int n = 0; n < batch; n++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                float u = (float)x / W, t = (float)y / H;
                float dx = x - 112.0f - 20 * n, dy = y - 90.0f;
                float disc = dx * dx + dy * dy < 40.0f * 40.0f ? 1.0f : 0.0f;
                float *p = img + (size_t)n * 3 * H * W + (size_t)y * W + x;
                p[0] = 0.5f * u + 0.5f * disc;
                p[(size_t)H * W] = 0.5f * t + 0.25f * sinf(12.0f * u);
                p[(size_t)2 * H * W] = 0.5f * (1.0f - u) * t + 0.5f * disc;
            }

    /* ---- weights (deterministic pseudo-random, He-like scale) */
    unsigned seed = 12345;
    float *w1 = alloc_floats(16 * 3 * 9), *b1 = alloc_floats(16), *w2 = alloc_floats(10 * 16 * 9);
    for (int i = 0; i < 16 * 3 * 9; i++) w1[i] = rnd(&seed, 0.47f);
    for (int i = 0; i < 16; i++) b1[i] = rnd(&seed, 0.1f);
    for (int i = 0; i < 10 * 16 * 9; i++) w2[i] = rnd(&seed, 0.2f);

    pdnnTensorDescriptor_t xd = tensor(batch, 3, H, W);
    pdnnFilterDescriptor_t w1d = filter(16, 3, 3, 3), w2d = filter(10, 16, 3, 3);
    pdnnTensorDescriptor_t b1d = tensor(1, 16, 1, 1);
    pdnnConvolutionDescriptor_t cd;
    CHECK(pdnnCreateConvolutionDescriptor(&cd));
    CHECK(pdnnSetConvolution2dDescriptor(cd, 1, 1, 1, 1, 1, 1, PDNN_CROSS_CORRELATION,
                                         PDNN_DATA_FLOAT));
    pdnnActivationDescriptor_t relu;
    CHECK(pdnnCreateActivationDescriptor(&relu));
    CHECK(pdnnSetActivationDescriptor(relu, PDNN_ACTIVATION_RELU, PDNN_NOT_PROPAGATE_NAN, 0.0));

    /* ---- layer 1: conv + bias + ReLU */
    int n1, c1, h1, wd1;
    CHECK(pdnnGetConvolution2dForwardOutputDim(cd, xd, w1d, &n1, &c1, &h1, &wd1));
    pdnnTensorDescriptor_t y1d = tensor(n1, c1, h1, wd1);
    float *y1 = alloc_floats((size_t)n1 * c1 * h1 * wd1);
    pdnnConvolutionFwdAlgoPerf_t perf[PDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int found;
    CHECK(pdnnGetConvolutionForwardAlgorithm_v7(h, xd, w1d, cd, y1d,
                                                PDNN_CONVOLUTION_FWD_ALGO_COUNT, &found, perf));
    pdnnConvolutionFwdAlgo_t algo1 = perf[0].algo;
    size_t ws1;
    CHECK(pdnnGetConvolutionForwardWorkspaceSize(h, xd, w1d, cd, y1d, algo1, &ws1));
    void *ws = malloc(ws1 ? ws1 : 1);
    float one = 1.0f, zero = 0.0f;
    double t0 = now_ms();
    CHECK(pdnnConvolutionBiasActivationForward(h, &one, xd, img, w1d, w1, cd, algo1, ws, ws1,
                                               &zero, y1d, y1, b1d, b1, relu, y1d, y1));
    printf("conv1+bias+relu  %dx%dx%dx%d  algo %d  workspace %zu B  %.2f ms\n", n1, c1, h1,
           wd1, (int)algo1, ws1, now_ms() - t0);

    /* ---- layer 2: max-pool 2x2 */
    pdnnPoolingDescriptor_t pd;
    CHECK(pdnnCreatePoolingDescriptor(&pd));
    CHECK(pdnnSetPooling2dDescriptor(pd, PDNN_POOLING_MAX, PDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2));
    int n2, c2, h2, wd2;
    CHECK(pdnnGetPooling2dForwardOutputDim(pd, y1d, &n2, &c2, &h2, &wd2));
    pdnnTensorDescriptor_t y2d = tensor(n2, c2, h2, wd2);
    float *y2 = alloc_floats((size_t)n2 * c2 * h2 * wd2);
    t0 = now_ms();
    CHECK(pdnnPoolingForward(h, pd, &one, y1d, y1, &zero, y2d, y2));
    printf("max-pool 2x2     %dx%dx%dx%d  %.2f ms\n", n2, c2, h2, wd2, now_ms() - t0);

    /* ---- layer 3: conv 16 -> 10 */
    int n3, c3, h3, wd3;
    CHECK(pdnnGetConvolution2dForwardOutputDim(cd, y2d, w2d, &n3, &c3, &h3, &wd3));
    pdnnTensorDescriptor_t y3d = tensor(n3, c3, h3, wd3);
    float *y3 = alloc_floats((size_t)n3 * c3 * h3 * wd3);
    CHECK(pdnnGetConvolutionForwardAlgorithm_v7(h, y2d, w2d, cd, y3d,
                                                PDNN_CONVOLUTION_FWD_ALGO_COUNT, &found, perf));
    pdnnConvolutionFwdAlgo_t algo3 = perf[0].algo;
    size_t ws3;
    CHECK(pdnnGetConvolutionForwardWorkspaceSize(h, y2d, w2d, cd, y3d, algo3, &ws3));
    if (ws3 > ws1) {
        free(ws);
        ws = malloc(ws3);
    }
    t0 = now_ms();
    CHECK(pdnnConvolutionForward(h, &one, y2d, y2, w2d, w2, cd, algo3, ws, ws3, &zero, y3d, y3));
    printf("conv2            %dx%dx%dx%d  algo %d  workspace %zu B  %.2f ms\n", n3, c3, h3,
           wd3, (int)algo3, ws3, now_ms() - t0);

    /* ---- layer 4: global average pool, then softmax over channels */
    pdnnPoolingDescriptor_t gd;
    CHECK(pdnnCreatePoolingDescriptor(&gd));
    CHECK(pdnnSetPooling2dDescriptor(gd, PDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING,
                                     PDNN_NOT_PROPAGATE_NAN, h3, wd3, 0, 0, 1, 1));
    pdnnTensorDescriptor_t y4d = tensor(n3, c3, 1, 1);
    float *y4 = alloc_floats((size_t)n3 * c3), *prob = alloc_floats((size_t)n3 * c3);
    t0 = now_ms();
    CHECK(pdnnPoolingForward(h, gd, &one, y3d, y3, &zero, y4d, y4));
    CHECK(pdnnSoftmaxForward(h, PDNN_SOFTMAX_ACCURATE, PDNN_SOFTMAX_MODE_CHANNEL, &one, y4d,
                             y4, &zero, y4d, prob));
    printf("avg-pool+softmax %dx%dx1x1  %.2f ms\n", n3, c3, now_ms() - t0);

    int status = 0;
    for (int n = 0; n < n3; n++) {
        double sum = 0;
        int best = 0;
        printf("image %d class probabilities:", n);
        for (int k = 0; k < c3; k++) {
            float p = prob[n * c3 + k];
            sum += p;
            if (p > prob[n * c3 + best]) best = k;
            printf(" %.4f", p);
        }
        printf("\n  top class %d, probabilities sum to %.6f\n", best, sum);
        if (!(fabs(sum - 1.0) < 1e-4)) status = 1;
    }

    pdnnDestroyTensorDescriptor(xd);
    pdnnDestroyTensorDescriptor(y1d);
    pdnnDestroyTensorDescriptor(y2d);
    pdnnDestroyTensorDescriptor(y3d);
    pdnnDestroyTensorDescriptor(y4d);
    pdnnDestroyTensorDescriptor(b1d);
    pdnnDestroyFilterDescriptor(w1d);
    pdnnDestroyFilterDescriptor(w2d);
    pdnnDestroyConvolutionDescriptor(cd);
    pdnnDestroyActivationDescriptor(relu);
    pdnnDestroyPoolingDescriptor(pd);
    pdnnDestroyPoolingDescriptor(gd);
    pdnnDestroy(h);
    free(img), free(w1), free(b1), free(w2), free(y1), free(y2), free(y3), free(y4), free(prob);
    free(ws);
    return status;
}
