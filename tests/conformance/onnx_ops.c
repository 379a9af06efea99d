/* Mapping ONNX nodes onto pdnn calls.
 *
 *   ONNX op                     pdnn calls
 *   --------------------------  ------------------------------------------------------
 *   Relu Sigmoid Tanh Elu       pdnnActivationForward (RELU/SIGMOID/TANH/ELU, coef=alpha)
 *   Softmax LogSoftmax          pdnnSoftmaxForward ACCURATE/LOG: opset >= 13 views the
 *                               axis as C of an outer x axis x inner x 1 tensor (CHANNEL);
 *                               opset < 13 flattens to [d0..axis-1] x [axis..] (INSTANCE)
 *   MaxPool AveragePool         pdnnSetPoolingNdDescriptor (symmetric pads, no dilation,
 *                               floor) or ...NdDescriptorEx (asymmetric pads, auto_pad,
 *                               dilations, ceil_mode) + pdnnPoolingForward; 1-d pools run
 *                               as 2-d with a unit H; count_include_pad picks the mode
 *   GlobalAveragePool/MaxPool   pooling with the whole spatial extent as the window
 *   Conv                        pdnnConvolutionForward (CROSS_CORRELATION, groups,
 *                               asymmetric pads via ...NdDescriptorEx), every algorithm
 *                               the library accepts for the problem, + pdnnAddTensor bias
 *   ConvTranspose               pdnnConvolutionBackwardData: ConvTranspose's C x M/g x k
 *                               weight is the forward filter of the adjoint convolution,
 *                               whose input is the ConvTranspose output; output_padding /
 *                               output_shape only change the dx size; + pdnnAddTensor bias
 *   ReduceSum/Mean/Max/Min/     pdnnReduceTensor ADD/AVG/MAX/MIN/MUL/NORM1/NORM2 into C
 *   Prod/L1/L2                  with 1 in the reduced dims (axes attribute or input,
 *                               keepdims, noop_with_empty_axes -> nothing reduced)
 *   ReduceSumSquare             pdnnOpTensor MUL (x * x), then pdnnReduceTensor ADD
 *   Add Mul Min Max             pdnnOpTensor ADD/MUL/MIN/MAX chained over the inputs;
 *                               numpy broadcasting right-aligns ranks; the operand with
 *                               the output's shape is A (these ops commute); when no
 *                               operand has it, pdnnAddTensor first broadcasts one into
 *                               the output and the chain runs in place; opset < 7's
 *                               broadcast=1 with axis aligns B at axis instead
 *   Sqrt                        pdnnOpTensor SQRT (unary)
 *   Constant Identity Squeeze   graph plumbing, no pdnn call: copies and reshapes that
 *   Unsqueeze                   let small multi-node graphs run
 *
 * Types: FLOAT and DOUBLE map (pdnn computes those); every other element type is
 * UNMAPPED. Outputs are poisoned with NaN and written with beta = 0.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_ops.h"
#include "testutil.h"

#define OX_SP_MAX 6 /* spatial dims pdnn's conv/pool descriptors take */

/* Everything one node creates, released at the end whatever happens. */
typedef struct {
    pdnnTensorDescriptor_t t[16];
    int nt;
    pdnnFilterDescriptor_t filter;
    pdnnConvolutionDescriptor_t conv;
    pdnnPoolingDescriptor_t pool;
    pdnnActivationDescriptor_t act;
    pdnnOpTensorDescriptor_t op;
    pdnnReduceTensorDescriptor_t red;
    void *ws, *tmp;
    char *why;
    size_t why_len;
} ox_scope;

static void scope_free(ox_scope *s)
{
    for (int i = 0; i < s->nt; i++) pdnnDestroyTensorDescriptor(s->t[i]);
    if (s->filter) pdnnDestroyFilterDescriptor(s->filter);
    if (s->conv) pdnnDestroyConvolutionDescriptor(s->conv);
    if (s->pool) pdnnDestroyPoolingDescriptor(s->pool);
    if (s->act) pdnnDestroyActivationDescriptor(s->act);
    if (s->op) pdnnDestroyOpTensorDescriptor(s->op);
    if (s->red) pdnnDestroyReduceTensorDescriptor(s->red);
    free(s->ws);
    free(s->tmp);
}

static ox_result say(ox_scope *s, ox_result r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static ox_result say(ox_scope *s, ox_result r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->why, s->why_len, fmt, ap);
    va_end(ap);
    return r;
}

/* A pdnn call that failed: its name, status and the library's message. */
static ox_result call_failed(ox_scope *s, const char *call, pdnnStatus_t st)
{
    char msg[512];
    int len = 0;
    while (call[len] && call[len] != '(') len++;
    pdnnGetLastErrorString(msg, sizeof msg);
    return say(s, OX_FAIL, "%.*s -> %s: %s", len, call, pdnnGetErrorString(st), msg);
}

#define OX_CALL(s, call)                                                               \
    do {                                                                               \
        pdnnStatus_t ox_st_ = (call);                                                  \
        if (ox_st_ != PDNN_STATUS_SUCCESS) return call_failed((s), #call, ox_st_);    \
    } while (0)

static void dims_str(char *buf, size_t len, int nb, const int *d)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int i = 0; i < nb && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, i ? "x%d" : "%d", d[i]);
}

/* Packed tensor descriptor of nb dims (a scalar is one element of rank 1). */
static ox_result desc(ox_scope *s, pdnnTensorDescriptor_t *d, pdnnDataType_t dt, int nb,
                      const int *dims)
{
    int st[PDNN_DIM_MAX], one = 1;
    if (nb == 0) {
        nb = 1;
        dims = &one;
    }
    int64_t acc = 1;
    for (int i = nb - 1; i >= 0; i--) {
        st[i] = (int)acc;
        acc *= dims[i] > 0 ? dims[i] : 1;
    }
    if (s->nt == (int)(sizeof s->t / sizeof s->t[0]))
        return say(s, OX_FAIL, "runner: too many descriptors");
    OX_CALL(s, pdnnCreateTensorDescriptor(d));
    s->t[s->nt++] = *d;
    OX_CALL(s, pdnnSetTensorNdDescriptor(*d, dt, nb, dims, st));
    return OX_OK;
}

/* Float type of an input, or UNMAPPED for the types pdnn does not compute. */
static ox_result float_type(ox_scope *s, const ox_tensor *t, const char *what,
                            pdnnDataType_t *dt)
{
    *dt = PDNN_DATA_FLOAT;
    if (t->dtype == OX_FLOAT) {
        *dt = PDNN_DATA_FLOAT;
    } else if (t->dtype == OX_DOUBLE) {
        *dt = PDNN_DATA_DOUBLE;
    } else if (t->dtype == OX_FLOAT16) {
        return say(s, OX_UNMAPPED,
                   "%s is float16: pdnn ops compute FLOAT and DOUBLE only "
                   "(HALF is NOT_SUPPORTED_DATA_TYPE)", what);
    } else {
        return say(s, OX_UNMAPPED, "%s is %s: pdnn computes floating-point tensors only",
                   what, ox_dtype_name(t->dtype));
    }
    return OX_OK;
}

static ox_result int_dims(ox_scope *s, const ox_tensor *t, int *dims)
{
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[i] > INT_MAX) return say(s, OX_UNMAPPED, "dim above INT_MAX");
        dims[i] = (int)t->dims[i];
    }
    return OX_OK;
}

static ox_result alloc_out(ox_scope *s, ox_tensor *out, int dtype, int rank,
                           const int *dims)
{
    int64_t d64[OX_MAX_RANK];
    for (int i = 0; i < rank; i++) d64[i] = dims[i];
    if (ox_alloc_tensor(out, dtype, rank, d64)) return say(s, OX_FAIL, "out of memory");
    return OX_OK;
}

static const char *op_of(const Onnx__NodeProto *n) { return n->op_type ? n->op_type : ""; }

/* ================================================================ activations */

static ox_result run_activation(ox_ctx *c, ox_scope *s, const Onnx__NodeProto *n,
                                ox_tensor *const *in, ox_tensor *out)
{
    const char *op = op_of(n);
    pdnnActivationMode_t mode = PDNN_ACTIVATION_RELU;
    double coef = 0;
    if (!strcmp(op, "Sigmoid")) mode = PDNN_ACTIVATION_SIGMOID;
    if (!strcmp(op, "Tanh")) mode = PDNN_ACTIVATION_TANH;
    if (!strcmp(op, "Elu")) {
        mode = PDNN_ACTIVATION_ELU;
        coef = ox_attr_float(n, "alpha", 1.0f);
    }
    pdnnDataType_t dt;
    int dims[OX_MAX_RANK];
    ox_result r;
    if ((r = float_type(s, in[0], "X", &dt)) || (r = int_dims(s, in[0], dims))) return r;
    pdnnTensorDescriptor_t xd, yd;
    if ((r = desc(s, &xd, dt, in[0]->rank, dims)) || (r = desc(s, &yd, dt, in[0]->rank, dims)) ||
        (r = alloc_out(s, out, in[0]->dtype, in[0]->rank, dims)))
        return r;
    tu_scalar one = tu_sc(dt, 1), zero = tu_sc(dt, 0);
    OX_CALL(s, pdnnCreateActivationDescriptor(&s->act));
    OX_CALL(s, pdnnSetActivationDescriptor(s->act, mode, PDNN_PROPAGATE_NAN, coef));
    OX_CALL(s, pdnnActivationForward(c->handle, s->act, &one, xd, in[0]->data, &zero, yd,
                                     out->data));
    return OX_OK;
}

/* ================================================================ softmax */

static ox_result run_softmax(ox_ctx *c, ox_scope *s, const Onnx__NodeProto *n,
                             ox_tensor *const *in, ox_tensor *out)
{
    const ox_tensor *x = in[0];
    int logsm = !strcmp(op_of(n), "LogSoftmax");
    pdnnDataType_t dt;
    int dims[OX_MAX_RANK];
    ox_result r;
    if ((r = float_type(s, x, "input", &dt)) || (r = int_dims(s, x, dims))) return r;
    if (x->rank < 1) return say(s, OX_UNMAPPED, "softmax of a scalar");
    int64_t axis = ox_attr_int(n, "axis", c->opset >= 13 ? -1 : 1);
    if (axis < 0) axis += x->rank;
    if (axis < 0 || axis >= x->rank) return say(s, OX_FAIL, "axis out of range in the model");
    int64_t outer = 1, mid = 1, inner = 1;
    for (int i = 0; i < x->rank; i++) {
        if (i < axis)
            outer *= dims[i];
        else if (i == axis)
            mid *= dims[i];
        else
            inner *= dims[i];
    }
    pdnnSoftmaxMode_t mode;
    int v[4];
    if (c->opset >= 13) { /* softmax along one axis: that axis is C */
        mode = PDNN_SOFTMAX_MODE_CHANNEL;
        v[0] = (int)outer, v[1] = (int)mid, v[2] = (int)inner, v[3] = 1;
    } else { /* opset 1-12: the input flattened to 2-d at axis, softmax over each row */
        mode = PDNN_SOFTMAX_MODE_INSTANCE;
        v[0] = (int)outer, v[1] = (int)(mid * inner), v[2] = 1, v[3] = 1;
    }
    if (outer > INT_MAX || mid * inner > INT_MAX) return say(s, OX_UNMAPPED, "too large");
    pdnnTensorDescriptor_t xd, yd;
    if ((r = desc(s, &xd, dt, 4, v)) || (r = desc(s, &yd, dt, 4, v)) ||
        (r = alloc_out(s, out, x->dtype, x->rank, dims)))
        return r;
    tu_scalar one = tu_sc(dt, 1), zero = tu_sc(dt, 0);
    OX_CALL(s, pdnnSoftmaxForward(c->handle, logsm ? PDNN_SOFTMAX_LOG : PDNN_SOFTMAX_ACCURATE,
                                  mode, &one, xd, x->data, &zero, yd, out->data));
    return OX_OK;
}

/* ================================================================ spatial parameters */

/* Window geometry of a conv or pool over ns spatial dims. */
typedef struct {
    int ns;
    int in[OX_SP_MAX], k[OX_SP_MAX], st[OX_SP_MAX], dil[OX_SP_MAX];
    int pb[OX_SP_MAX], pe[OX_SP_MAX], out[OX_SP_MAX];
} ox_geom;

/* Reads strides, dilations and pads (defaults 1, 1, 0) of ns spatial dims. */
static ox_result read_geom(ox_scope *s, const Onnx__NodeProto *n, ox_geom *g)
{
    int64_t v[2 * OX_SP_MAX];
    int ns = g->ns, cnt;
    for (int i = 0; i < ns; i++) g->st[i] = 1, g->dil[i] = 1, g->pb[i] = 0, g->pe[i] = 0;
    if ((cnt = ox_attr_ints(n, "strides", v, OX_SP_MAX)) >= 0) {
        if (cnt != ns) return say(s, OX_FAIL, "model: %d strides for %d dims", cnt, ns);
        for (int i = 0; i < ns; i++) g->st[i] = (int)v[i];
    }
    if ((cnt = ox_attr_ints(n, "dilations", v, OX_SP_MAX)) >= 0) {
        if (cnt != ns) return say(s, OX_FAIL, "model: %d dilations for %d dims", cnt, ns);
        for (int i = 0; i < ns; i++) g->dil[i] = (int)v[i];
    }
    if ((cnt = ox_attr_ints(n, "pads", v, 2 * OX_SP_MAX)) >= 0) {
        if (cnt != 2 * ns) return say(s, OX_FAIL, "model: %d pads for %d dims", cnt, ns);
        for (int i = 0; i < ns; i++) g->pb[i] = (int)v[i], g->pe[i] = (int)v[ns + i];
    }
    return OX_OK;
}

static int dilated(const ox_geom *g, int i) { return (g->k[i] - 1) * g->dil[i] + 1; }

static int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }
static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* Forward output size and pads under auto_pad, as ONNX's Conv / MaxPool /
 * AveragePool define them (ceil only for pools with ceil_mode). */
static ox_result forward_geom(ox_scope *s, const Onnx__NodeProto *n, ox_geom *g, int ceil)
{
    char ap[32];
    ox_attr_string(n, "auto_pad", "NOTSET", ap, sizeof ap);
    for (int i = 0; i < g->ns; i++) {
        int dk = dilated(g, i);
        if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER")) {
            int64_t o = ceil_div(g->in[i], g->st[i]);
            int64_t total = (o - 1) * g->st[i] + dk - g->in[i];
            if (total < 0) total = 0;
            int64_t small = total / 2;
            g->pb[i] = (int)(!strcmp(ap, "SAME_UPPER") ? small : total - small);
            g->pe[i] = (int)(total - g->pb[i]);
            g->out[i] = (int)o;
        } else {
            if (!strcmp(ap, "VALID")) g->pb[i] = g->pe[i] = 0;
            else if (strcmp(ap, "NOTSET"))
                return say(s, OX_FAIL, "model: unknown auto_pad '%s'", ap);
            int64_t span = (int64_t)g->in[i] + g->pb[i] + g->pe[i] - dk;
            if (g->pb[i] < 0 || g->pe[i] < 0)
                return say(s, OX_UNMAPPED, "negative pads");
            if (span < 0) return say(s, OX_FAIL, "model: window larger than padded input");
            g->out[i] = (int)((ceil ? ceil_div(span, g->st[i]) : span / g->st[i]) + 1);
        }
    }
    return OX_OK;
}

/* A 1-d problem runs as 2-d with a unit leading spatial dim (window 1, stride 1). */
static void lift_1d(ox_geom *g)
{
    if (g->ns != 1) return;
    g->in[1] = g->in[0], g->k[1] = g->k[0], g->st[1] = g->st[0], g->dil[1] = g->dil[0];
    g->pb[1] = g->pb[0], g->pe[1] = g->pe[0], g->out[1] = g->out[0];
    g->in[0] = g->k[0] = g->st[0] = g->dil[0] = g->out[0] = 1;
    g->pb[0] = g->pe[0] = 0;
    g->ns = 2;
}

static int geom_symmetric(const ox_geom *g)
{
    for (int i = 0; i < g->ns; i++)
        if (g->pb[i] != g->pe[i]) return 0;
    return 1;
}

static int geom_undilated(const ox_geom *g)
{
    for (int i = 0; i < g->ns; i++)
        if (g->dil[i] != 1) return 0;
    return 1;
}

/* Checks a pdnn Get*OutputDim answer against the ONNX shape. */
static ox_result same_dims(ox_scope *s, const char *fn, int nb, const int *got,
                           const int *want)
{
    for (int i = 0; i < nb; i++) {
        if (got[i] != want[i]) {
            char a[96], b[96];
            dims_str(a, sizeof a, nb, got);
            dims_str(b, sizeof b, nb, want);
            return say(s, OX_FAIL, "%s gives %s, ONNX's output is %s", fn, a, b);
        }
    }
    return OX_OK;
}

/* ================================================================ pooling */

static ox_result run_pool(ox_ctx *c, ox_scope *s, const Onnx__NodeProto *n,
                          ox_tensor *const *in, ox_tensor *out, int n_out)
{
    const char *op = op_of(n);
    const ox_tensor *x = in[0];
    int global = !strncmp(op, "Global", 6);
    int is_max = !strcmp(op, "MaxPool") || !strcmp(op, "GlobalMaxPool");
    pdnnDataType_t dt;
    int xdims[OX_MAX_RANK];
    ox_result r;
    if (n_out > 1)
        return say(s, OX_UNMAPPED, "MaxPool's Indices output (storage_order %d): pdnn "
                   "pooling returns no argmax", (int)ox_attr_int(n, "storage_order", 0));
    if ((r = float_type(s, x, "X", &dt)) || (r = int_dims(s, x, xdims))) return r;
    if (x->rank < 3 || x->rank > 2 + OX_SP_MAX)
        return say(s, OX_UNMAPPED, "rank %d input", x->rank);
    ox_geom g;
    g.ns = x->rank - 2;
    for (int i = 0; i < g.ns; i++) g.in[i] = xdims[2 + i];
    int ceil = 0, include_pad = 0;
    if (global) {
        for (int i = 0; i < g.ns; i++) {
            g.k[i] = g.in[i], g.st[i] = 1, g.dil[i] = 1, g.pb[i] = g.pe[i] = 0, g.out[i] = 1;
        }
    } else {
        int64_t k[OX_SP_MAX];
        if (ox_attr_ints(n, "kernel_shape", k, OX_SP_MAX) != g.ns)
            return say(s, OX_FAIL, "model: kernel_shape does not match the input rank");
        for (int i = 0; i < g.ns; i++) g.k[i] = (int)k[i];
        if ((r = read_geom(s, n, &g))) return r;
        ceil = (int)ox_attr_int(n, "ceil_mode", 0);
        include_pad = (int)ox_attr_int(n, "count_include_pad", 0);
        if ((r = forward_geom(s, n, &g, ceil))) return r;
    }
    int ns_onnx = g.ns;
    lift_1d(&g);
    int nb = 2 + g.ns, vx[OX_MAX_RANK], vy[OX_MAX_RANK], ydims[OX_MAX_RANK];
    vx[0] = vy[0] = xdims[0];
    vx[1] = vy[1] = xdims[1];
    for (int i = 0; i < g.ns; i++) vx[2 + i] = g.in[i], vy[2 + i] = g.out[i];
    ydims[0] = xdims[0], ydims[1] = xdims[1];
    for (int i = 0; i < ns_onnx; i++) ydims[2 + i] = vy[2 + g.ns - ns_onnx + i];
    pdnnPoolingMode_t mode = is_max ? PDNN_POOLING_MAX
                             : include_pad ? PDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING
                                           : PDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING;
    pdnnTensorDescriptor_t xd, yd;
    if ((r = desc(s, &xd, dt, nb, vx)) || (r = desc(s, &yd, dt, nb, vy)) ||
        (r = alloc_out(s, out, x->dtype, x->rank, ydims)))
        return r;
    OX_CALL(s, pdnnCreatePoolingDescriptor(&s->pool));
    if (geom_symmetric(&g) && geom_undilated(&g) && !ceil) {
        OX_CALL(s, pdnnSetPoolingNdDescriptor(s->pool, mode, PDNN_PROPAGATE_NAN, g.ns, g.k,
                                              g.pb, g.st));
    } else {
        OX_CALL(s, pdnnSetPoolingNdDescriptorEx(s->pool, mode, PDNN_PROPAGATE_NAN, g.ns, g.k,
                                                g.pb, g.pe, g.st, g.dil, ceil));
    }
    int got[OX_MAX_RANK];
    OX_CALL(s, pdnnGetPoolingNdForwardOutputDim(s->pool, xd, nb, got));
    if ((r = same_dims(s, "pdnnGetPoolingNdForwardOutputDim", nb, got, vy))) return r;
    tu_scalar one = tu_sc(dt, 1), zero = tu_sc(dt, 0);
    OX_CALL(s, pdnnPoolingForward(c->handle, s->pool, &one, xd, x->data, &zero, yd,
                                  out->data));
    return OX_OK;
}

/* ================================================================ convolution */

static const char *const fwd_algo_names[] = {
    "IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM", "DIRECT",
    "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED"};
static const char *const bwd_data_algo_names[] = {
    "ALGO_0", "ALGO_1", "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED"};

/* Descriptors shared by Conv and ConvTranspose: the filter and the convolution. */
static ox_result conv_descs(ox_scope *s, pdnnDataType_t dt, const ox_geom *g, int k, int cpg,
                            int group)
{
    int fd[2 + OX_SP_MAX];
    fd[0] = k, fd[1] = cpg;
    for (int i = 0; i < g->ns; i++) fd[2 + i] = g->k[i];
    OX_CALL(s, pdnnCreateFilterDescriptor(&s->filter));
    OX_CALL(s, pdnnSetFilterNdDescriptor(s->filter, dt, PDNN_TENSOR_NCHW, 2 + g->ns, fd));
    OX_CALL(s, pdnnCreateConvolutionDescriptor(&s->conv));
    if (geom_symmetric(g)) {
        OX_CALL(s, pdnnSetConvolutionNdDescriptor(s->conv, g->ns, g->pb, g->st, g->dil,
                                                  PDNN_CROSS_CORRELATION, dt));
    } else {
        OX_CALL(s, pdnnSetConvolutionNdDescriptorEx(s->conv, g->ns, g->pb, g->pe, g->st,
                                                    g->dil, PDNN_CROSS_CORRELATION, dt));
    }
    if (group != 1) OX_CALL(s, pdnnSetConvolutionGroupCount(s->conv, group));
    return OX_OK;
}

/* y += B broadcast over N and spatial (bias of Conv / ConvTranspose). */
static ox_result add_bias(ox_ctx *c, ox_scope *s, pdnnDataType_t dt, const ox_tensor *b,
                          int nb, int m, pdnnTensorDescriptor_t yd, void *y)
{
    if (!b) return OX_OK;
    ox_result r;
    pdnnDataType_t bt;
    if ((r = float_type(s, b, "B", &bt))) return r;
    if (bt != dt) return say(s, OX_UNMAPPED, "B's type differs from X's");
    if (b->rank != 1 || b->dims[0] != m)
        return say(s, OX_FAIL, "model: B is not a vector of %d", m);
    int bd[OX_MAX_RANK];
    for (int i = 0; i < nb; i++) bd[i] = 1;
    bd[1] = m;
    pdnnTensorDescriptor_t bdesc;
    if ((r = desc(s, &bdesc, dt, nb, bd))) return r;
    tu_scalar one = tu_sc(dt, 1);
    OX_CALL(s, pdnnAddTensor(c->handle, &one, bdesc, b->data, &one, yd, y));
    return OX_OK;
}

static ox_result run_conv(ox_ctx *c, ox_scope *s, const Onnx__NodeProto *n,
                          ox_tensor *const *in, int n_in, ox_tensor *out)
{
    const ox_tensor *x = in[0], *w = n_in > 1 ? in[1] : NULL;
    const ox_tensor *b = n_in > 2 ? in[2] : NULL;
    if (c->variant >= PDNN_CONVOLUTION_FWD_ALGO_COUNT) return OX_VARIANT_END;
    pdnnConvolutionFwdAlgo_t algo = (pdnnConvolutionFwdAlgo_t)c->variant;
    snprintf(c->variant_name, sizeof c->variant_name, "%s", fwd_algo_names[algo]);
    c->inexact = algo == PDNN_CONVOLUTION_FWD_ALGO_FFT || algo == PDNN_CONVOLUTION_FWD_ALGO_FFT_TILING ||
                 algo == PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD ||
                 algo == PDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED;
    pdnnDataType_t dt, wt;
    int xdims[OX_MAX_RANK], wdims[OX_MAX_RANK];
    ox_result r;
    if (!w) return say(s, OX_FAIL, "model: Conv without W");
    if ((r = float_type(s, x, "X", &dt)) || (r = float_type(s, w, "W", &wt)) ||
        (r = int_dims(s, x, xdims)) || (r = int_dims(s, w, wdims)))
        return r;
    if (wt != dt) return say(s, OX_UNMAPPED, "W's type differs from X's");
    if (x->rank < 3 || x->rank > 2 + OX_SP_MAX || w->rank != x->rank)
        return say(s, OX_UNMAPPED, "rank %d input, rank %d weight", x->rank, w->rank);
    int group = (int)ox_attr_int(n, "group", 1);
    int m = wdims[0];
    ox_geom g;
    g.ns = x->rank - 2;
    for (int i = 0; i < g.ns; i++) g.in[i] = xdims[2 + i], g.k[i] = wdims[2 + i];
    if ((r = read_geom(s, n, &g)) || (r = forward_geom(s, n, &g, 0))) return r;
    int ns_onnx = g.ns;
    lift_1d(&g);
    int nb = 2 + g.ns, vx[OX_MAX_RANK], vy[OX_MAX_RANK], ydims[OX_MAX_RANK];
    vx[0] = vy[0] = xdims[0];
    vx[1] = xdims[1], vy[1] = m;
    for (int i = 0; i < g.ns; i++) vx[2 + i] = g.in[i], vy[2 + i] = g.out[i];
    ydims[0] = xdims[0], ydims[1] = m;
    for (int i = 0; i < ns_onnx; i++) ydims[2 + i] = vy[2 + g.ns - ns_onnx + i];
    pdnnTensorDescriptor_t xd, yd;
    if ((r = desc(s, &xd, dt, nb, vx)) || (r = desc(s, &yd, dt, nb, vy)) ||
        (r = conv_descs(s, dt, &g, m, wdims[1], group)) ||
        (r = alloc_out(s, out, x->dtype, x->rank, ydims)))
        return r;
    int got[OX_MAX_RANK];
    OX_CALL(s, pdnnGetConvolutionNdForwardOutputDim(s->conv, xd, s->filter, nb, got));
    if ((r = same_dims(s, "pdnnGetConvolutionNdForwardOutputDim", nb, got, vy))) return r;
    size_t ws = 0;
    pdnnStatus_t st = pdnnGetConvolutionForwardWorkspaceSize(c->handle, xd, s->filter,
                                                             s->conv, yd, algo, &ws);
    if (PDNN_STATUS_CATEGORY(st) == PDNN_STATUS_NOT_SUPPORTED) return OX_VARIANT_SKIP;
    if (st != PDNN_STATUS_SUCCESS)
        return call_failed(s, "pdnnGetConvolutionForwardWorkspaceSize", st);
    if (ws && !(s->ws = malloc(ws))) return say(s, OX_FAIL, "out of memory (workspace)");
    tu_scalar one = tu_sc(dt, 1), zero = tu_sc(dt, 0);
    OX_CALL(s, pdnnConvolutionForward(c->handle, &one, xd, x->data, s->filter, w->data,
                                      s->conv, algo, s->ws, ws, &zero, yd, out->data));
    return add_bias(c, s, dt, b, nb, m, yd, out->data);
}

/* ConvTranspose as the data gradient of the adjoint convolution: its input X
 * (N x C x in) is dy, its output Y (N x M x out) is dx, its weight W (C x M/g x k) is
 * the forward filter (K = C, C/g = M/g). */
static ox_result run_conv_transpose(ox_ctx *c, ox_scope *s, const Onnx__NodeProto *n,
                                    ox_tensor *const *in, int n_in, ox_tensor *out)
{
    const ox_tensor *x = in[0], *w = n_in > 1 ? in[1] : NULL;
    const ox_tensor *b = n_in > 2 ? in[2] : NULL;
    if (c->variant >= PDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT) return OX_VARIANT_END;
    pdnnConvolutionBwdDataAlgo_t algo = (pdnnConvolutionBwdDataAlgo_t)c->variant;
    snprintf(c->variant_name, sizeof c->variant_name, "%s", bwd_data_algo_names[algo]);
    c->inexact = algo == PDNN_CONVOLUTION_BWD_DATA_ALGO_FFT ||
                 algo == PDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING ||
                 algo == PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD ||
                 algo == PDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED;
    pdnnDataType_t dt, wt;
    int xdims[OX_MAX_RANK], wdims[OX_MAX_RANK];
    ox_result r;
    if (!w) return say(s, OX_FAIL, "model: ConvTranspose without W");
    if ((r = float_type(s, x, "X", &dt)) || (r = float_type(s, w, "W", &wt)) ||
        (r = int_dims(s, x, xdims)) || (r = int_dims(s, w, wdims)))
        return r;
    if (wt != dt) return say(s, OX_UNMAPPED, "W's type differs from X's");
    if (x->rank < 3 || x->rank > 2 + OX_SP_MAX || w->rank != x->rank)
        return say(s, OX_UNMAPPED, "rank %d input, rank %d weight", x->rank, w->rank);
    int group = (int)ox_attr_int(n, "group", 1);
    int m = wdims[1] * group;
    ox_geom g;
    g.ns = x->rank - 2;
    for (int i = 0; i < g.ns; i++) g.in[i] = xdims[2 + i], g.k[i] = wdims[2 + i];
    if ((r = read_geom(s, n, &g))) return r;
    int64_t opad[OX_SP_MAX] = {0}, oshape[2 + OX_SP_MAX];
    int cnt = ox_attr_ints(n, "output_padding", opad, OX_SP_MAX);
    if (cnt >= 0 && cnt != g.ns) return say(s, OX_FAIL, "model: output_padding length");
    int nshape = ox_attr_ints(n, "output_shape", oshape, 2 + OX_SP_MAX);
    if (nshape >= 0 && nshape != g.ns && nshape != g.ns + 2)
        return say(s, OX_FAIL, "model: output_shape length %d", nshape);
    const int64_t *osp = nshape == g.ns + 2 ? oshape + 2 : oshape;
    char ap[32];
    ox_attr_string(n, "auto_pad", "NOTSET", ap, sizeof ap);
    int same = !strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER");
    if (!same && strcmp(ap, "NOTSET") && strcmp(ap, "VALID"))
        return say(s, OX_FAIL, "model: unknown auto_pad '%s'", ap);
    for (int i = 0; i < g.ns; i++) {
        int64_t full = (int64_t)g.st[i] * (g.in[i] - 1) + opad[i] + dilated(&g, i);
        int64_t o, pb, pe;
        if (nshape >= 0 || same) {
            /* total padding from the requested size, split as ONNX 1.12 specifies:
             * SAME_UPPER puts the smaller half first, otherwise the larger half */
            o = nshape >= 0 ? osp[i] : (int64_t)g.in[i] * g.st[i];
            int64_t total = full - o;
            int64_t half = floor_div(total, 2);
            pb = !strcmp(ap, "SAME_UPPER") ? half : total - half;
            pe = total - pb;
        } else {
            pb = !strcmp(ap, "VALID") ? 0 : g.pb[i];
            pe = !strcmp(ap, "VALID") ? 0 : g.pe[i];
            o = full - pb - pe;
        }
        if (pb < 0)
            return say(s, OX_UNMAPPED, "ConvTranspose dim %d: begin padding %lld < 0 (the "
                       "output would start before the first tap)", i, (long long)pb);
        if (pe < 0) pe = 0; /* extra zero tail: only the dx size expresses it */
        if (o < 1) return say(s, OX_FAIL, "model: output size %lld", (long long)o);
        /* the adjoint convolution of the output size must give back the input size */
        if (floor_div(o + pb + pe - dilated(&g, i), g.st[i]) + 1 != g.in[i])
            return say(s, OX_UNMAPPED, "ConvTranspose dim %d: output %lld (pads %lld/%lld, "
                       "output_padding %lld) is not an input size whose convolution gives "
                       "%d", i, (long long)o, (long long)pb, (long long)pe,
                       (long long)opad[i], g.in[i]);
        g.pb[i] = (int)pb, g.pe[i] = (int)pe, g.out[i] = (int)o;
    }
    int ns_onnx = g.ns;
    lift_1d(&g);
    int nb = 2 + g.ns, vx[OX_MAX_RANK], vy[OX_MAX_RANK], ydims[OX_MAX_RANK];
    vx[0] = vy[0] = xdims[0];
    vx[1] = xdims[1], vy[1] = m;
    for (int i = 0; i < g.ns; i++) vx[2 + i] = g.in[i], vy[2 + i] = g.out[i];
    ydims[0] = xdims[0], ydims[1] = m;
    for (int i = 0; i < ns_onnx; i++) ydims[2 + i] = vy[2 + g.ns - ns_onnx + i];
    if (xdims[1] != wdims[0])
        return say(s, OX_FAIL, "model: X has %d channels, W %d", xdims[1], wdims[0]);
    pdnnTensorDescriptor_t dyd, dxd;
    if ((r = desc(s, &dyd, dt, nb, vx)) || (r = desc(s, &dxd, dt, nb, vy)) ||
        (r = conv_descs(s, dt, &g, xdims[1], wdims[1], group)) ||
        (r = alloc_out(s, out, x->dtype, x->rank, ydims)))
        return r;
    size_t ws = 0;
    pdnnStatus_t st = pdnnGetConvolutionBackwardDataWorkspaceSize(c->handle, s->filter, dyd,
                                                                  s->conv, dxd, algo, &ws);
    if (PDNN_STATUS_CATEGORY(st) == PDNN_STATUS_NOT_SUPPORTED) return OX_VARIANT_SKIP;
    if (st != PDNN_STATUS_SUCCESS)
        return call_failed(s, "pdnnGetConvolutionBackwardDataWorkspaceSize", st);
    if (ws && !(s->ws = malloc(ws))) return say(s, OX_FAIL, "out of memory (workspace)");
    tu_scalar one = tu_sc(dt, 1), zero = tu_sc(dt, 0);
    OX_CALL(s, pdnnConvolutionBackwardData(c->handle, &one, s->filter, w->data, dyd, x->data,
                                           s->conv, algo, s->ws, ws, &zero, dxd, out->data));
    return add_bias(c, s, dt, b, nb, m, dxd, out->data);
}

/* ================================================================ reductions */

static ox_result run_reduce(ox_ctx *c, ox_scope *s, const Onnx__NodeProto *n,
                            ox_tensor *const *in, int n_in, ox_tensor *out)
{
    const char *op = op_of(n);
    const ox_tensor *x = in[0];
    static const struct {
        const char *name;
        pdnnReduceTensorOp_t op;
    } ops[] = {{"ReduceSum", PDNN_REDUCE_TENSOR_ADD},   {"ReduceMean", PDNN_REDUCE_TENSOR_AVG},
               {"ReduceMax", PDNN_REDUCE_TENSOR_MAX},   {"ReduceMin", PDNN_REDUCE_TENSOR_MIN},
               {"ReduceProd", PDNN_REDUCE_TENSOR_MUL},  {"ReduceL1", PDNN_REDUCE_TENSOR_NORM1},
               {"ReduceL2", PDNN_REDUCE_TENSOR_NORM2},  {"ReduceSumSquare", PDNN_REDUCE_TENSOR_ADD}};
    pdnnReduceTensorOp_t rop = PDNN_REDUCE_TENSOR_ADD;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(op, ops[i].name)) rop = ops[i].op;
    int square = !strcmp(op, "ReduceSumSquare");
    pdnnDataType_t dt;
    int xdims[OX_MAX_RANK];
    ox_result r;
    if ((r = float_type(s, x, "data", &dt)) || (r = int_dims(s, x, xdims))) return r;
    int rank = x->rank;
    int64_t axes[OX_MAX_RANK];
    int naxes;
    const ox_tensor *ax = n_in > 1 ? in[1] : NULL;
    if (ax) { /* opset 13 ReduceSum (and every reduce from opset 18): axes input */
        if (ax->dtype != OX_INT64 || ax->rank > 1 || ax->count > OX_MAX_RANK)
            return say(s, OX_FAIL, "model: axes input is not a short int64 vector");
        naxes = (int)ax->count;
        for (int i = 0; i < naxes; i++) axes[i] = ((const int64_t *)ax->data)[i];
    } else {
        naxes = ox_attr_ints(n, "axes", axes, OX_MAX_RANK);
        if (naxes > OX_MAX_RANK) return say(s, OX_FAIL, "model: too many axes");
    }
    int keep = (int)ox_attr_int(n, "keepdims", 1);
    int noop = (int)ox_attr_int(n, "noop_with_empty_axes", 0);
    int red[OX_MAX_RANK] = {0};
    if (naxes <= 0) {
        for (int i = 0; i < rank; i++) red[i] = !noop;
    } else {
        for (int i = 0; i < naxes; i++) {
            int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
            if (a < 0 || a >= rank) return say(s, OX_FAIL, "model: axis %lld", (long long)axes[i]);
            red[a] = 1;
        }
    }
    int cdims[OX_MAX_RANK], ydims[OX_MAX_RANK], yrank = 0;
    for (int i = 0; i < rank; i++) {
        cdims[i] = red[i] ? 1 : xdims[i];
        if (keep || !red[i]) ydims[yrank++] = cdims[i];
    }
    pdnnTensorDescriptor_t ad, cd;
    if ((r = desc(s, &ad, dt, rank, xdims)) || (r = desc(s, &cd, dt, rank, cdims)) ||
        (r = alloc_out(s, out, x->dtype, yrank, ydims)))
        return r;
    tu_scalar one = tu_sc(dt, 1), zero = tu_sc(dt, 0);
    const void *a = x->data;
    if (square) {
        size_t es = dt == PDNN_DATA_DOUBLE ? 8 : 4;
        if (!(s->tmp = malloc(x->count ? x->count * es : 1))) return say(s, OX_FAIL, "oom");
        OX_CALL(s, pdnnCreateOpTensorDescriptor(&s->op));
        OX_CALL(s, pdnnSetOpTensorDescriptor(s->op, PDNN_OP_TENSOR_MUL, dt, PDNN_PROPAGATE_NAN));
        OX_CALL(s, pdnnOpTensor(c->handle, s->op, &one, ad, x->data, &one, ad, x->data, &zero,
                                ad, s->tmp));
        a = s->tmp;
    }
    OX_CALL(s, pdnnCreateReduceTensorDescriptor(&s->red));
    OX_CALL(s, pdnnSetReduceTensorDescriptor(s->red, rop, dt, PDNN_PROPAGATE_NAN,
                                             PDNN_REDUCE_TENSOR_NO_INDICES,
                                             PDNN_32BIT_INDICES));
    size_t ws = 0;
    OX_CALL(s, pdnnGetReductionWorkspaceSize(c->handle, s->red, ad, cd, &ws));
    if (ws && !(s->ws = malloc(ws))) return say(s, OX_FAIL, "out of memory (workspace)");
    OX_CALL(s, pdnnReduceTensor(c->handle, s->red, NULL, 0, s->ws, ws, &one, ad, a, &zero, cd,
                                out->data));
    return OX_OK;
}

/* ================================================================ elementwise */

static ox_result run_elementwise(ox_ctx *c, ox_scope *s, const Onnx__NodeProto *n,
                                 ox_tensor *const *in, int n_in, ox_tensor *out)
{
    const char *op = op_of(n);
    pdnnOpTensorOp_t top = PDNN_OP_TENSOR_ADD;
    if (!strcmp(op, "Mul")) top = PDNN_OP_TENSOR_MUL;
    if (!strcmp(op, "Min")) top = PDNN_OP_TENSOR_MIN;
    if (!strcmp(op, "Max")) top = PDNN_OP_TENSOR_MAX;
    if (!strcmp(op, "Sqrt")) top = PDNN_OP_TENSOR_SQRT;
    if (n_in < 1) return say(s, OX_FAIL, "model: %s without inputs", op);
    pdnnDataType_t dt = PDNN_DATA_FLOAT;
    ox_result r;
    int rank = 0;
    for (int i = 0; i < n_in; i++) {
        pdnnDataType_t t;
        if (!in[i]) return say(s, OX_FAIL, "model: input %d absent", i);
        if ((r = float_type(s, in[i], "an input", &t))) return r;
        if (i && t != dt) return say(s, OX_UNMAPPED, "inputs of different types");
        dt = t;
        if (in[i]->rank > rank) rank = in[i]->rank;
    }
    /* numpy broadcasting: ranks right-aligned, each dim equal or 1 */
    int od[OX_MAX_RANK], dims[8][OX_MAX_RANK];
    if (n_in > 8) return say(s, OX_UNMAPPED, "more than 8 inputs");
    for (int d = 0; d < rank; d++) od[d] = 1;
    /* opset < 7 Add/Mul: broadcast=1 aligns B with A at `axis` (default: the end) */
    int legacy_axis = -1;
    if (c->opset < 7 && n_in == 2 && ox_attr_int(n, "broadcast", 0) && ox_attr(n, "axis")) {
        int64_t a = ox_attr_int(n, "axis", 0);
        if (a < 0) a += in[0]->rank;
        if (a < 0 || a + in[1]->rank > in[0]->rank)
            return say(s, OX_FAIL, "model: legacy broadcast axis %lld", (long long)a);
        legacy_axis = (int)a;
    }
    for (int i = 0; i < n_in; i++) {
        int off = i == 1 && legacy_axis >= 0 ? legacy_axis : rank - in[i]->rank;
        for (int d = 0; d < rank; d++) {
            int64_t v = d < off || d >= off + in[i]->rank ? 1 : in[i]->dims[d - off];
            if (v > INT_MAX) return say(s, OX_UNMAPPED, "dim above INT_MAX");
            dims[i][d] = (int)v;
            if (v != 1 && od[d] != 1 && od[d] != v)
                return say(s, OX_FAIL, "model: shapes do not broadcast");
            if (v != 1) od[d] = (int)v;
        }
    }
    /* a 0 dim broadcasts to 0 (numpy): a dim of 1 against 0 stays 0 */
    for (int i = 0; i < n_in; i++)
        for (int d = 0; d < rank; d++)
            if (dims[i][d] == 0) od[d] = 0;
    pdnnTensorDescriptor_t ods, ids[8];
    if ((r = desc(s, &ods, dt, rank, od)) || (r = alloc_out(s, out, in[0]->dtype, rank, od)))
        return r;
    for (int i = 0; i < n_in; i++)
        if ((r = desc(s, &ids[i], dt, rank, dims[i]))) return r;
    tu_scalar one = tu_sc(dt, 1), zero = tu_sc(dt, 0);
    OX_CALL(s, pdnnCreateOpTensorDescriptor(&s->op));
    OX_CALL(s, pdnnSetOpTensorDescriptor(s->op, top, dt, PDNN_PROPAGATE_NAN));
    if (top == PDNN_OP_TENSOR_SQRT) {
        OX_CALL(s, pdnnOpTensor(c->handle, s->op, &one, ids[0], in[0]->data, &one, ids[0],
                                in[0]->data, &zero, ods, out->data));
        return OX_OK;
    }
    if (n_in == 1) { /* Max/Min of one input: op(x, x) */
        OX_CALL(s, pdnnOpTensor(c->handle, s->op, &one, ids[0], in[0]->data, &one, ids[0],
                                in[0]->data, &zero, ods, out->data));
        return OX_OK;
    }
    /* the first operand with the output's full shape is A of the first op */
    int full = -1;
    for (int i = 0; i < n_in && full < 0; i++) {
        int eq = 1;
        for (int d = 0; d < rank; d++) eq &= dims[i][d] == od[d];
        if (eq) full = i;
    }
    int done[8] = {0};
    if (full >= 0) {
        int other = full == 0 ? 1 : 0;
        OX_CALL(s, pdnnOpTensor(c->handle, s->op, &one, ids[full], in[full]->data, &one,
                                ids[other], in[other]->data, &zero, ods, out->data));
        done[full] = done[other] = 1;
    } else { /* nobody has the output shape: broadcast input 0 into the output first */
        OX_CALL(s, pdnnAddTensor(c->handle, &one, ids[0], in[0]->data, &zero, ods, out->data));
        done[0] = 1;
    }
    for (int i = 0; i < n_in; i++) { /* the rest, in place on the output */
        if (done[i]) continue;
        OX_CALL(s, pdnnOpTensor(c->handle, s->op, &one, ods, out->data, &one, ids[i],
                                in[i]->data, &zero, ods, out->data));
    }
    return OX_OK;
}

/* ================================================================ graph plumbing */

/* Constant, Identity, Squeeze, Unsqueeze: no arithmetic and no pdnn call; they only let
 * small graphs (pytorch-converted's 1-d pools as Unsqueeze -> 2-d pool -> Squeeze) run. */
static ox_result run_plumbing(ox_ctx *c, ox_scope *s, const Onnx__NodeProto *n,
                              ox_tensor *const *in, int n_in, ox_tensor *out)
{
    const char *op = op_of(n);
    if (!strcmp(op, "Constant")) {
        const Onnx__AttributeProto *v = ox_attr(n, "value");
        if (!v || !v->t) return say(s, OX_UNMAPPED, "Constant without a tensor 'value'");
        if (ox_tensor_from_proto(v->t, out, s->why, s->why_len)) return OX_FAIL;
        if (!out->data)
            return say(s, OX_UNMAPPED, "Constant of type %s", ox_dtype_name(out->dtype));
        return OX_OK;
    }
    const ox_tensor *x = in[0];
    if (!x || !x->data) return say(s, OX_UNMAPPED, "%s of a non-numeric tensor", op);
    int64_t axes[OX_MAX_RANK];
    int naxes = 0;
    if (n_in > 1 && in[1]) { /* opset 13: axes input */
        if (in[1]->dtype != OX_INT64 || in[1]->count > OX_MAX_RANK)
            return say(s, OX_FAIL, "model: axes input");
        naxes = (int)in[1]->count;
        for (int i = 0; i < naxes; i++) axes[i] = ((const int64_t *)in[1]->data)[i];
    } else {
        naxes = ox_attr_ints(n, "axes", axes, OX_MAX_RANK);
    }
    int64_t dims[OX_MAX_RANK];
    int rank = 0;
    if (!strcmp(op, "Identity")) {
        rank = x->rank;
        memcpy(dims, x->dims, sizeof dims);
    } else if (!strcmp(op, "Squeeze")) {
        int drop[OX_MAX_RANK] = {0};
        for (int i = 0; i < naxes; i++) {
            int64_t a = axes[i] < 0 ? axes[i] + x->rank : axes[i];
            if (a < 0 || a >= x->rank || x->dims[a] != 1)
                return say(s, OX_FAIL, "model: Squeeze axis %lld", (long long)axes[i]);
            drop[a] = 1;
        }
        for (int i = 0; i < x->rank; i++)
            if (naxes > 0 ? !drop[i] : x->dims[i] != 1) dims[rank++] = x->dims[i];
    } else { /* Unsqueeze */
        rank = x->rank + (naxes > 0 ? naxes : 0);
        int ins[OX_MAX_RANK] = {0};
        if (naxes <= 0 || rank > OX_MAX_RANK) return say(s, OX_FAIL, "model: Unsqueeze axes");
        for (int i = 0; i < naxes; i++) {
            int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
            if (a < 0 || a >= rank) return say(s, OX_FAIL, "model: Unsqueeze axis");
            ins[a] = 1;
        }
        for (int i = 0, k = 0; i < rank; i++) dims[i] = ins[i] ? 1 : x->dims[k++];
    }
    if (ox_alloc_tensor(out, x->dtype, rank, dims)) return say(s, OX_FAIL, "out of memory");
    size_t es = x->dtype == OX_FLOAT ? 4 : 8;
    if (x->count) memcpy(out->data, x->data, x->count * es);
    (void)c;
    return OX_OK;
}

/* ================================================================ dispatch */

static const char *const activation_ops[] = {"Relu", "Sigmoid", "Tanh", "Elu", NULL};
static const char *const softmax_ops[] = {"Softmax", "LogSoftmax", NULL};
static const char *const pool_ops[] = {"MaxPool", "AveragePool", "GlobalAveragePool",
                                       "GlobalMaxPool", NULL};
static const char *const reduce_ops[] = {"ReduceSum", "ReduceMean", "ReduceMax",
                                         "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
                                         "ReduceSumSquare", NULL};
static const char *const elementwise_ops[] = {"Add", "Mul", "Min", "Max", "Sqrt", NULL};
static const char *const plumbing_ops[] = {"Constant", "Identity", "Squeeze", "Unsqueeze",
                                           NULL};

static int in_list(const char *const *list, const char *op)
{
    for (; *list; list++)
        if (!strcmp(*list, op)) return 1;
    return 0;
}

int ox_op_is_plumbing(const char *op) { return in_list(plumbing_ops, op); }

int ox_op_known(const char *op)
{
    return in_list(plumbing_ops, op) || in_list(activation_ops, op) || in_list(softmax_ops, op) || in_list(pool_ops, op) ||
           in_list(reduce_ops, op) || in_list(elementwise_ops, op) || !strcmp(op, "Conv") ||
           !strcmp(op, "ConvTranspose");
}

double ox_inexact_atol(double atol, double maxabs)
{
    const double scaled = 1e-5 * maxabs;
    return scaled > atol ? scaled : atol;
}

void ox_tolerance(const char *op, int dtype, double *rtol, double *atol)
{
    /* exact in IEEE arithmetic: selections, and single correctly rounded operations
     * (a double intermediate rounded once to float is the float result) */
    static const char *const exact[] = {"Relu", "MaxPool", "GlobalMaxPool", "ReduceMax",
                                        "ReduceMin", "Add", "Mul", "Min", "Max", "Sqrt",
                                        NULL};
    if (in_list(exact, op)) {
        *rtol = 0, *atol = 0;
    } else {
        /* ONNX's backend tests: numpy.testing.assert_allclose(rtol=1e-3, atol=1e-7) */
        *rtol = 1e-3, *atol = 1e-7;
    }
    (void)dtype;
}

ox_result ox_run_node(ox_ctx *c, const Onnx__NodeProto *node, ox_tensor *const *in,
                      int n_in, ox_tensor *out, int n_out, char *why, size_t why_len)
{
    ox_scope s;
    memset(&s, 0, sizeof s);
    s.why = why;
    s.why_len = why_len;
    why[0] = '\0';
    c->variant_name[0] = '\0';
    const char *op = op_of(node);
    ox_result r;
    for (int i = 0; i < n_out; i++) memset(&out[i], 0, sizeof out[i]);
    int has_variants = !strcmp(op, "Conv") || !strcmp(op, "ConvTranspose");
    if (!ox_op_known(op)) {
        r = say(&s, OX_UNMAPPED, "op %s is outside the mapped list", op);
    } else if (node->domain && node->domain[0] && strcmp(node->domain, "ai.onnx")) {
        r = say(&s, OX_UNMAPPED, "domain %s", node->domain);
    } else if (c->variant > 0 && !has_variants) {
        r = OX_VARIANT_END;
    } else if (in_list(plumbing_ops, op)) {
        r = run_plumbing(c, &s, node, in, n_in, &out[0]);
    } else if (n_in < 1 || !in[0]) {
        r = say(&s, OX_FAIL, "model: %s without its first input", op);
    } else if (in_list(activation_ops, op)) {
        r = run_activation(c, &s, node, in, &out[0]);
    } else if (in_list(softmax_ops, op)) {
        r = run_softmax(c, &s, node, in, &out[0]);
    } else if (in_list(pool_ops, op)) {
        r = run_pool(c, &s, node, in, &out[0], n_out);
    } else if (in_list(reduce_ops, op)) {
        r = run_reduce(c, &s, node, in, n_in, &out[0]);
    } else if (in_list(elementwise_ops, op)) {
        r = run_elementwise(c, &s, node, in, n_in, &out[0]);
    } else if (!strcmp(op, "Conv")) {
        r = run_conv(c, &s, node, in, n_in, &out[0]);
    } else {
        r = run_conv_transpose(c, &s, node, in, n_in, &out[0]);
    }
    scope_free(&s);
    if (r != OX_OK)
        for (int i = 0; i < n_out; i++) ox_free_tensor(&out[i]);
    return r;
}
