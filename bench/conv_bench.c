/* pdnn-bench: benchdnn-style driver for pdnn's convolutions, through the public API
 * only (pdnn.h). Problems are benchdnn conv descriptors (bench/conv_desc_parse.h),
 * given on the command line or in batch files; options apply to the problems after
 * them, as in benchdnn.
 *
 *   pdnn-bench [--mode=C|B|P] [--dir=FWD_D|FWD_B|BWD_D|BWD_W] [--algo=NAME]
 *              [--dt=f32|f64] [--tag=nchw|nhwc] [--mb=N] [-t 1,2] [-c] [-r ROUNDS]
 *              [-m SECONDS] [--timing=best|mean] [--ref=lib|loop] [--tol=X] [--csv]
 *              [--no-impl] [--list] [--index=I] [--batch=FILE] PROBLEM...
 *
 * --algo: the cuDNN enum suffix of the direction (forward IMPLICIT_GEMM,
 * IMPLICIT_PRECOMP_GEMM, GEMM, DIRECT, FFT, FFT_TILING, WINOGRAD, WINOGRAD_NONFUSED;
 * backward data ALGO_0, ALGO_1, FFT, FFT_TILING, WINOGRAD, WINOGRAD_NONFUSED; backward
 * filter ALGO_0, ALGO_1, FFT, ALGO_3, WINOGRAD, WINOGRAD_NONFUSED, FFT_TILING), or
 * auto (the first of pdnnGet*Algorithm_v7, the default), find (the fastest of
 * pdnnFind*Algorithm) or all (every algorithm Get_v7 reports as supported).
 * FWD_B is pdnnConvolutionBiasActivationForward with an IDENTITY activation, a bias
 * and alpha2 = 0 (z = y, not read); FWD_D is pdnnConvolutionForward.
 *
 * Modes. P (default): best single call over ROUNDS rounds (default 3) of blocks of at
 * least SECONDS (default 0.25) each (--timing=mean: the best block's mean per call),
 * 20 ms pause between blocks, per thread count:
 * ms, GFLOP/s (2*N*K*C/g*prod(out)*prod(kernel) / time, every direction), workspace.
 * C: the algorithm against a reference on small-integer data (exact: 0 error, except
 * Winograd and FFT) and on uniform [-1, 1] data (relative L2 error within the
 * algorithm's tolerance: 4 eps sqrt(L) + 4 eps with L the length of one sum, plus
 * 1e-3 (f32) / 1e-11 (f64) for Winograd and FFT; --tol=X replaces it); outputs are
 * poisoned with NaN before every run (beta = 0). The reference is the library's
 * DIRECT / ALGO_0 (--ref=lib, the default) or the bench's own double-precision loops
 * (--ref=loop, also used when the algorithm under test is DIRECT / ALGO_0 itself).
 * Runs at the largest thread count given. B: two runs at the first thread count, then
 * one at each other count, all bitwise identical.
 *
 * The implementation name (pdnn's registry entry, e.g. "cpu:gemm") comes from pdnn's
 * API log: a child process forked before any pdnn call runs every problem once with
 * PDNN_LOGINFO_DBG=1 and reports the "impl=" of each call, so that the timed calls
 * are not logged. --no-impl skips it (or when PDNN_LOGINFO_DBG is already set).
 *
 * Exit status: 0 when every run passed or was skipped (algorithm not supported for
 * the problem), 1 when a run failed (mismatch, differing repeat, API error), 2 for a
 * bad option, value or problem line (reported before anything runs). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pdnn.h"

#include "bench_util.h"
#include "conv_desc_parse.h"
#include "conv_oracle.h"

/* ------------------------------------------------------------------ options */

typedef struct {
    bench_run_opts run;
    bool no_impl, ref_loop;
} globals;

/* pdnn-bench's own options: --no-impl, --ref=lib|loop */
static int opt_cb(void *ctx, const char *tok, const char *next, bool *used_next, char *err,
                  size_t errn)
{
    globals *g = ctx;
    if (!strcmp(tok, "--no-impl")) return g->no_impl = true, 1;
    if (!strcmp(tok, "--ref=lib")) return g->ref_loop = false, 1;
    if (!strcmp(tok, "--ref=loop")) return g->ref_loop = true, 1;
    if (!strncmp(tok, "--ref=", 6)) {
        snprintf(err, errn, "unknown --ref '%s' (lib or loop)", tok + 6);
        return -1;
    }
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: pdnn-bench [--mode=C|B|P] [--dir=FWD_D|FWD_B|BWD_D|BWD_W] [--algo=NAME|auto|"
            "find|all]\n"
            "                  [--dt=f32|f64] [--tag=nchw|nhwc] [--mb=N] [-t 1,2] [-c] [-r ROUNDS]"
            " [-m SECONDS]\n"
            "                  [--timing=best|mean]\n"
            "                  [--ref=lib|loop] [--tol=X] [--csv] [--no-impl] [--list] "
            "[--index=I]\n"
            "                  [--batch=FILE] [--reset] PROBLEM...\n"
            "PROBLEM: benchdnn conv descriptor, e.g. mb32ic64ih56oc64oh56kh3ph1 "
            "(g, id/od/kd, iw/ow/kw, sh/sw, ph/pw, dh/dw, n\"name\").\n"
            "See bench/README.md.\n");
}

/* ------------------------------------------------------------------ algorithms */

typedef struct {
    const char *name;
    int value;
    bool approx; /* not exact on integer data (Winograd, FFT) */
} algo_info;

static const algo_info fwd_algos[] = {
    {"IMPLICIT_GEMM", 0, false}, {"IMPLICIT_PRECOMP_GEMM", 1, false}, {"GEMM", 2, false},
    {"DIRECT", 3, false},        {"FFT", 4, true},                    {"FFT_TILING", 5, true},
    {"WINOGRAD", 6, true},       {"WINOGRAD_NONFUSED", 7, true},      {NULL, 0, false}};
static const algo_info bwd_data_algos[] = {
    {"ALGO_0", 0, false},  {"ALGO_1", 1, false},   {"FFT", 2, true},
    {"FFT_TILING", 3, true}, {"WINOGRAD", 4, true}, {"WINOGRAD_NONFUSED", 5, true},
    {NULL, 0, false}};
static const algo_info bwd_filter_algos[] = {
    {"ALGO_0", 0, false},   {"ALGO_1", 1, false},           {"FFT", 2, true},
    {"ALGO_3", 3, false},   {"WINOGRAD", 4, true},          {"WINOGRAD_NONFUSED", 5, true},
    {"FFT_TILING", 6, true}, {NULL, 0, false}};

#define MAX_ALGOS 8

static const algo_info *algo_table(bench_dir d)
{
    return d == BENCH_BWD_D ? bwd_data_algos : d == BENCH_BWD_W ? bwd_filter_algos : fwd_algos;
}

static const algo_info *algo_by_value(bench_dir d, int v)
{
    for (const algo_info *a = algo_table(d); a->name; a++)
        if (a->value == v) return a;
    return NULL;
}

/* the library's reference algorithm of a direction */
static int ref_algo(bench_dir d) { return d == BENCH_FWD_D || d == BENCH_FWD_B ? 3 : 0; }

/* "auto"/"find"/"all" -> -1/-2/-3, a name -> its value, unknown -> -100 */
enum { ALGO_AUTO = -1, ALGO_FIND = -2, ALGO_ALL = -3, ALGO_BAD = -100 };

static int algo_parse(bench_dir d, const char *s)
{
    if (!strcasecmp(s, "auto")) return ALGO_AUTO;
    if (!strcasecmp(s, "find")) return ALGO_FIND;
    if (!strcasecmp(s, "all")) return ALGO_ALL;
    for (const algo_info *a = algo_table(d); a->name; a++)
        if (!strcasecmp(s, a->name)) return a->value;
    return ALGO_BAD;
}

/* ------------------------------------------------------------------ one problem */

typedef struct {
    const bench_job *job;
    const conv_desc *d;
    bench_dir dir;
    bool dbl;
    pdnnHandle_t h;
    pdnnTensorDescriptor_t xd, yd, bd;
    pdnnFilterDescriptor_t wd;
    pdnnConvolutionDescriptor_t cd;
    pdnnActivationDescriptor_t ad;
    void *x, *w, *y, *bias;
    int64_t nx, nw, ny;
    conv_layout lay;
    char err[1024];
} conv_ctx;

static bool failed(conv_ctx *c, pdnnStatus_t st, const char *what)
{
    if (st == PDNN_STATUS_SUCCESS) return false;
    char msg[768];
    pdnnGetLastErrorString(msg, sizeof msg);
    snprintf(c->err, sizeof c->err, "%s: %s", what, msg[0] ? msg : pdnnGetErrorString(st));
    return true;
}

static void ctx_free(conv_ctx *c)
{
    pdnnDestroyTensorDescriptor(c->xd);
    pdnnDestroyTensorDescriptor(c->yd);
    pdnnDestroyTensorDescriptor(c->bd);
    pdnnDestroyFilterDescriptor(c->wd);
    pdnnDestroyConvolutionDescriptor(c->cd);
    if (c->ad) pdnnDestroyActivationDescriptor(c->ad);
    free(c->x);
    free(c->w);
    free(c->y);
    free(c->bias);
    c->xd = c->yd = c->bd = NULL;
    c->wd = NULL;
    c->cd = NULL;
    c->ad = NULL;
    c->x = c->w = c->y = c->bias = NULL;
}

/* Descriptors and buffers (zeroed) of a job. Returns false with c->err set. */
static bool ctx_setup(conv_ctx *c, pdnnHandle_t h, const bench_job *job)
{
    memset(c, 0, sizeof *c);
    c->job = job;
    c->d = &job->d;
    c->dir = job->s.dir;
    c->dbl = job->s.dbl;
    c->h = h;
    const conv_desc *d = c->d;
    if (!conv_desc_fits(d)) { /* a --mb past the parser's check */
        snprintf(c->err, sizeof c->err,
                 "a size above %d (pdnn's descriptors take int sizes) or a tensor above 2^60 "
                 "elements", INT_MAX);
        return false;
    }
    const pdnnDataType_t dt = c->dbl ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
    const pdnnTensorFormat_t fmt = job->s.nhwc ? PDNN_TENSOR_NHWC : PDNN_TENSOR_NCHW;
    const int nb = d->nsp + 2;
    int xdim[5], wdim[5], ydim[5], bdim[5], pb[3], pe[3], st[3], dl[3];
    xdim[0] = ydim[0] = (int)d->mb;
    xdim[1] = (int)d->ic;
    ydim[1] = wdim[0] = (int)d->oc;
    wdim[1] = (int)(d->ic / d->g);
    bdim[0] = 1;
    bdim[1] = (int)d->oc;
    bool sym = true;
    for (int i = 0; i < d->nsp; i++) {
        xdim[2 + i] = (int)d->in[i];
        ydim[2 + i] = (int)d->out[i];
        wdim[2 + i] = (int)d->k[i];
        bdim[2 + i] = 1;
        pb[i] = (int)d->pb[i];
        pe[i] = (int)d->pe[i];
        st[i] = (int)d->s[i];
        dl[i] = (int)d->dil[i];
        sym = sym && pb[i] == pe[i];
    }
    if (failed(c, pdnnCreateTensorDescriptor(&c->xd), "pdnnCreateTensorDescriptor") ||
        failed(c, pdnnCreateTensorDescriptor(&c->yd), "pdnnCreateTensorDescriptor") ||
        failed(c, pdnnCreateTensorDescriptor(&c->bd), "pdnnCreateTensorDescriptor") ||
        failed(c, pdnnCreateFilterDescriptor(&c->wd), "pdnnCreateFilterDescriptor") ||
        failed(c, pdnnCreateConvolutionDescriptor(&c->cd), "pdnnCreateConvolutionDescriptor") ||
        failed(c, pdnnSetTensorNdDescriptorEx(c->xd, fmt, dt, nb, xdim), "x descriptor") ||
        failed(c, pdnnSetTensorNdDescriptorEx(c->yd, fmt, dt, nb, ydim), "y descriptor") ||
        failed(c, pdnnSetTensorNdDescriptorEx(c->bd, PDNN_TENSOR_NCHW, dt, nb, bdim),
               "bias descriptor") ||
        failed(c, pdnnSetFilterNdDescriptor(c->wd, dt, fmt, nb, wdim), "filter descriptor") ||
        failed(c,
               sym ? pdnnSetConvolutionNdDescriptor(c->cd, d->nsp, pb, st, dl,
                                                    PDNN_CROSS_CORRELATION, dt)
                   : pdnnSetConvolutionNdDescriptorEx(c->cd, d->nsp, pb, pe, st, dl,
                                                      PDNN_CROSS_CORRELATION, dt),
               "convolution descriptor") ||
        failed(c, pdnnSetConvolutionGroupCount(c->cd, (int)d->g), "group count"))
        return false;
    int odim[5];
    if (failed(c, pdnnGetConvolutionNdForwardOutputDim(c->cd, c->xd, c->wd, nb, odim),
               "pdnnGetConvolutionNdForwardOutputDim"))
        return false;
    for (int i = 0; i < nb; i++)
        if (odim[i] != ydim[i]) {
            snprintf(c->err, sizeof c->err,
                     "pdnn computes output dim %d = %d, the problem says %d", i, odim[i], ydim[i]);
            return false;
        }
    if (c->dir == BENCH_FWD_B &&
        (failed(c, pdnnCreateActivationDescriptor(&c->ad), "pdnnCreateActivationDescriptor") ||
         failed(c, pdnnSetActivationDescriptor(c->ad, PDNN_ACTIVATION_IDENTITY,
                                               PDNN_NOT_PROPAGATE_NAN, 0.0),
                "activation descriptor")))
        return false;
    c->nx = conv_desc_nx(d);
    c->nw = conv_desc_nw(d);
    c->ny = conv_desc_ny(d);
    size_t es = c->dbl ? sizeof(double) : sizeof(float);
    /* stop at the first allocation that fails (each one is zeroed: the later ones
     * would take long for nothing) */
    if (!(c->x = bench_alloc((size_t)c->nx * es)) || !(c->w = bench_alloc((size_t)c->nw * es)) ||
        !(c->y = bench_alloc((size_t)c->ny * es)) ||
        !(c->bias = bench_alloc((size_t)d->oc * es))) {
        snprintf(c->err, sizeof c->err, "out of memory (%.1f MiB of data)",
                 (double)(c->nx + c->nw + c->ny) * (double)es / 1048576.0);
        return false;
    }
    conv_layout_packed(d, job->s.nhwc, &c->lay);
    return true;
}

/* the output buffer of the direction and its element count */
static void *out_buf(conv_ctx *c, int64_t *n)
{
    switch (c->dir) {
    case BENCH_BWD_D: *n = c->nx; return c->x;
    case BENCH_BWD_W: *n = c->nw; return c->w;
    default: *n = c->ny; return c->y;
    }
}

/* length of one output element's sum (tolerances) */
static double sum_length(const conv_ctx *c)
{
    const conv_desc *d = c->d;
    double kern = 1, out = 1;
    for (int i = 0; i < d->nsp; i++) {
        kern *= (double)d->k[i];
        out *= (double)d->out[i];
    }
    switch (c->dir) {
    case BENCH_BWD_D: return (double)(d->oc / d->g) * kern;
    case BENCH_BWD_W: return (double)d->mb * out;
    default: return (double)(d->ic / d->g) * kern;
    }
}

static void fill_inputs(conv_ctx *c, bool integers, uint64_t seed)
{
    void *in[3] = {c->x, c->w, c->y};
    int64_t n[3] = {c->nx, c->nw, c->ny};
    int out = c->dir == BENCH_BWD_D ? 0 : c->dir == BENCH_BWD_W ? 1 : 2;
    for (int i = 0; i < 3; i++) {
        if (i == out) continue;
        if (integers)
            bench_fill_int(in[i], c->dbl, n[i], seed + 17 * (uint64_t)i, 2);
        else
            bench_fill_real(in[i], c->dbl, n[i], seed + 17 * (uint64_t)i);
    }
    if (integers)
        bench_fill_int(c->bias, c->dbl, c->d->oc, seed + 99, 2);
    else
        bench_fill_real(c->bias, c->dbl, c->d->oc, seed + 99);
}

static pdnnStatus_t ws_size(conv_ctx *c, int algo, size_t *bytes)
{
    switch (c->dir) {
    case BENCH_BWD_D:
        return pdnnGetConvolutionBackwardDataWorkspaceSize(
            c->h, c->wd, c->yd, c->cd, c->xd, (pdnnConvolutionBwdDataAlgo_t)algo, bytes);
    case BENCH_BWD_W:
        return pdnnGetConvolutionBackwardFilterWorkspaceSize(
            c->h, c->xd, c->yd, c->cd, c->wd, (pdnnConvolutionBwdFilterAlgo_t)algo, bytes);
    default:
        return pdnnGetConvolutionForwardWorkspaceSize(c->h, c->xd, c->wd, c->cd, c->yd,
                                                      (pdnnConvolutionFwdAlgo_t)algo, bytes);
    }
}

static pdnnStatus_t run_once(conv_ctx *c, int algo, void *ws, size_t wsb)
{
    const float f1 = 1.0f, f0 = 0.0f;
    const double d1 = 1.0, d0 = 0.0;
    const void *one = c->dbl ? (const void *)&d1 : (const void *)&f1;
    const void *zero = c->dbl ? (const void *)&d0 : (const void *)&f0;
    switch (c->dir) {
    case BENCH_FWD_D:
        return pdnnConvolutionForward(c->h, one, c->xd, c->x, c->wd, c->w, c->cd,
                                      (pdnnConvolutionFwdAlgo_t)algo, ws, wsb, zero, c->yd,
                                      c->y);
    case BENCH_FWD_B:
        return pdnnConvolutionBiasActivationForward(
            c->h, one, c->xd, c->x, c->wd, c->w, c->cd, (pdnnConvolutionFwdAlgo_t)algo, ws, wsb,
            zero, c->yd, c->y, c->bd, c->bias, c->ad, c->yd, c->y);
    case BENCH_BWD_D:
        return pdnnConvolutionBackwardData(c->h, one, c->wd, c->w, c->yd, c->y, c->cd,
                                           (pdnnConvolutionBwdDataAlgo_t)algo, ws, wsb, zero,
                                           c->xd, c->x);
    case BENCH_BWD_W:
        return pdnnConvolutionBackwardFilter(c->h, one, c->xd, c->x, c->yd, c->y, c->cd,
                                             (pdnnConvolutionBwdFilterAlgo_t)algo, ws, wsb, zero,
                                             c->wd, c->w);
    }
    return PDNN_STATUS_INTERNAL_ERROR;
}

/* Algorithms to run for the job's --algo at the handle's current thread count.
 * Returns the count (>= 1), 0 when none is supported (c->err says why), -1 on error. */
static int choose_algos(conv_ctx *c, int *algos)
{
    int spec = algo_parse(c->dir, c->job->s.algo);
    if (spec >= 0) {
        algos[0] = spec;
        return 1;
    }
    int n = 0, got = 0;
    pdnnStatus_t st;
    pdnnStatus_t stat[MAX_ALGOS];
    int val[MAX_ALGOS];
    const char *what = spec == ALGO_FIND ? "Find" : "Get_v7";
    switch (c->dir) {
    case BENCH_BWD_D: {
        pdnnConvolutionBwdDataAlgoPerf_t p[MAX_ALGOS];
        st = spec == ALGO_FIND
                 ? pdnnFindConvolutionBackwardDataAlgorithm(c->h, c->wd, c->yd, c->cd, c->xd,
                                                            MAX_ALGOS, &got, p)
                 : pdnnGetConvolutionBackwardDataAlgorithm_v7(c->h, c->wd, c->yd, c->cd, c->xd,
                                                              MAX_ALGOS, &got, p);
        for (int i = 0; i < got; i++) val[i] = (int)p[i].algo, stat[i] = p[i].status;
        break;
    }
    case BENCH_BWD_W: {
        pdnnConvolutionBwdFilterAlgoPerf_t p[MAX_ALGOS];
        st = spec == ALGO_FIND
                 ? pdnnFindConvolutionBackwardFilterAlgorithm(c->h, c->xd, c->yd, c->cd, c->wd,
                                                              MAX_ALGOS, &got, p)
                 : pdnnGetConvolutionBackwardFilterAlgorithm_v7(c->h, c->xd, c->yd, c->cd,
                                                                c->wd, MAX_ALGOS, &got, p);
        for (int i = 0; i < got; i++) val[i] = (int)p[i].algo, stat[i] = p[i].status;
        break;
    }
    default: {
        pdnnConvolutionFwdAlgoPerf_t p[MAX_ALGOS];
        st = spec == ALGO_FIND
                 ? pdnnFindConvolutionForwardAlgorithm(c->h, c->xd, c->wd, c->cd, c->yd,
                                                       MAX_ALGOS, &got, p)
                 : pdnnGetConvolutionForwardAlgorithm_v7(c->h, c->xd, c->wd, c->cd, c->yd,
                                                         MAX_ALGOS, &got, p);
        for (int i = 0; i < got; i++) val[i] = (int)p[i].algo, stat[i] = p[i].status;
        break;
    }
    }
    if (failed(c, st, what)) return -1;
    for (int i = 0; i < got && i < MAX_ALGOS; i++) {
        if (stat[i] != PDNN_STATUS_SUCCESS) continue;
        algos[n++] = val[i];
        if (spec != ALGO_ALL) break;
    }
    if (!n) snprintf(c->err, sizeof c->err, "%s reports no supported algorithm", what);
    return n;
}

/* ------------------------------------------------------------------ impl probe */

#define IMPL_LEN 48
typedef char impl_names[MAX_ALGOS][IMPL_LEN];

/* Child: every job once at its first thread count, pdnn's log on stdout (the pipe),
 * "@@probe JOB ALGO" after each call. */
static void probe_child(const bench_job *jobs, int njobs)
{
    pdnnHandle_t h;
    if (pdnnCreate(&h) != PDNN_STATUS_SUCCESS) return;
    for (int j = 0; j < njobs; j++) {
        conv_ctx c;
        if (ctx_setup(&c, h, &jobs[j]) &&
            pdnnSetNumThreads(h, jobs[j].s.threads[0]) == PDNN_STATUS_SUCCESS) {
            int algos[MAX_ALGOS];
            int na = choose_algos(&c, algos);
            for (int a = 0; a < na; a++) {
                size_t wsb = 0;
                if (ws_size(&c, algos[a], &wsb) != PDNN_STATUS_SUCCESS) continue;
                void *ws = wsb ? bench_alloc(wsb) : NULL;
                if (wsb && !ws) continue;
                run_once(&c, algos[a], ws, wsb);
                free(ws);
                printf("@@probe %d %d\n", j, algos[a]);
                fflush(stdout);
            }
        }
        ctx_free(&c);
    }
    pdnnDestroy(h);
}

/* Fills names[job][algo] from a child's log; false when the probe could not run. */
static bool probe_impls(const bench_job *jobs, int njobs, impl_names *names)
{
    int fd[2];
    fflush(stdout);
    fflush(stderr);
    if (pipe(fd)) return false;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return false;
    }
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], STDOUT_FILENO);
        close(fd[1]);
        if (!freopen("/dev/null", "w", stderr)) _exit(3);
        setenv("PDNN_LOGINFO_DBG", "1", 1);
        setenv("PDNN_LOGDEST_DBG", "stdout", 1);
        probe_child(jobs, njobs);
        fflush(stdout);
        _exit(0);
    }
    close(fd[1]);
    FILE *f = fdopen(fd[0], "r");
    if (!f) {
        close(fd[0]);
        waitpid(pid, NULL, 0);
        return false;
    }
    char line[8192], last[IMPL_LEN] = "";
    while (fgets(line, sizeof line, f)) {
        int j, a;
        if (sscanf(line, "@@probe %d %d", &j, &a) == 2) {
            if (j >= 0 && j < njobs && a >= 0 && a < MAX_ALGOS && last[0])
                snprintf(names[j][a], IMPL_LEN, "%s", last);
            last[0] = 0;
            continue;
        }
        /* "pdnn: pdnnConvolution<Direction>: ... impl=NAME algo=..." */
        if (strncmp(line, "pdnn: pdnnConvolution", 21) || strstr(line, "BackwardBias")) continue;
        const char *p = strstr(line, " impl=");
        if (!p) continue;
        p += 6;
        size_t len = strcspn(p, " \n");
        if (len >= IMPL_LEN) len = IMPL_LEN - 1;
        memcpy(last, p, len);
        last[len] = 0;
    }
    fclose(f);
    int status = 0;
    waitpid(pid, &status, 0);
    return true;
}

/* ------------------------------------------------------------------ modes */

typedef struct {
    int ok, skipped, failed;
} tally;

static const char *dt_name(const bench_job *j) { return j->s.dbl ? "f64" : "f32"; }
static const char *tag_name(const bench_job *j) { return j->s.nhwc ? "nhwc" : "nchw"; }

static const char *impl_of(impl_names *names, int j, int algo)
{
    if (!names || algo < 0 || algo >= MAX_ALGOS || !names[j][algo][0]) return "-";
    return names[j][algo];
}

static void print_row_p(const globals *g, const conv_ctx *c, int thr, const char *algo,
                        const char *impl, double ms, double gflops, double ws_mib,
                        const char *status)
{
    char label[160], desc[160];
    conv_desc_label(c->d, label, sizeof label);
    conv_desc_str(c->d, desc, sizeof desc);
    const bench_job *j = c->job;
    if (g->run.csv) {
        printf("P,%s,%s,%s,%s,%s,%d,%s,%s,%.6f,%.3f,%.3f,%s\n", label, desc,
               bench_dir_name(c->dir), dt_name(j), tag_name(j), thr, algo, impl, ms, gflops,
               ws_mib, status);
    } else if (!strcmp(status, "ok")) {
        printf("%-34s %-5s %-3s %-4s %3d %-21s %-28s %10.3f %9.1f %8.2f %5.2f\n", label,
               bench_dir_name(c->dir), dt_name(j), tag_name(j), thr, algo, impl, ms, gflops,
               ws_mib, bench_load1());
    } else {
        printf("%-34s %-5s %-3s %-4s %3d %-21s %s\n", label, bench_dir_name(c->dir), dt_name(j),
               tag_name(j), thr, algo, status);
    }
    fflush(stdout);
}

/* One timed call of mode P (bench_block_call_s): run_once with these arguments. */
typedef struct {
    conv_ctx *c;
    int algo;
    void *ws;
    size_t wsb;
} timed_call;

static void timed_run(void *arg)
{
    const timed_call *t = arg;
    run_once(t->c, t->algo, t->ws, t->wsb);
}

/* workspace of algo, allocated; false (skipped or failed, row printed) when it cannot run */
static int get_ws(conv_ctx *c, int algo, void **ws, size_t *wsb)
{
    *ws = NULL;
    *wsb = 0;
    pdnnStatus_t st = ws_size(c, algo, wsb);
    if (st == PDNN_STATUS_NOT_SUPPORTED) {
        failed(c, st, "workspace size");
        return 0;
    }
    if (failed(c, st, "workspace size")) return -1;
    if (*wsb) {
        *ws = bench_alloc(*wsb);
        if (!*ws) {
            snprintf(c->err, sizeof c->err, "cannot allocate a workspace of %zu bytes", *wsb);
            return -1;
        }
    }
    return 1;
}

static void note_err(const globals *g, const conv_ctx *c)
{
    if (!g->run.csv) printf("#   %s\n", c->err);
}

static void mode_p(const globals *g, conv_ctx *c, int j, impl_names *names, tally *t)
{
    const bench_job *job = c->job;
    bench_fill_real(c->x, c->dbl, c->nx, 1);
    bench_fill_real(c->w, c->dbl, c->nw, 2);
    bench_fill_real(c->y, c->dbl, c->ny, 3);
    bench_fill_real(c->bias, c->dbl, c->d->oc, 4);
    const double flop = conv_desc_flops(c->d);
    for (int ti = 0; ti < job->s.nthreads; ti++) {
        int thr = job->s.threads[ti];
        if (failed(c, pdnnSetNumThreads(c->h, thr), "pdnnSetNumThreads")) {
            print_row_p(g, c, thr, job->s.algo, "-", NAN, NAN, NAN, "FAILED");
            note_err(g, c);
            t->failed++;
            continue;
        }
        int algos[MAX_ALGOS];
        int na = choose_algos(c, algos);
        if (na <= 0) {
            print_row_p(g, c, thr, job->s.algo, "-", NAN, NAN, NAN, na ? "FAILED" : "skipped");
            note_err(g, c);
            na ? t->failed++ : t->skipped++;
            continue;
        }
        for (int a = 0; a < na; a++) {
            const algo_info *ai = algo_by_value(c->dir, algos[a]);
            const char *aname = ai ? ai->name : "?";
            void *ws;
            size_t wsb;
            int r = get_ws(c, algos[a], &ws, &wsb);
            pdnnStatus_t st = PDNN_STATUS_SUCCESS;
            if (r > 0) st = run_once(c, algos[a], ws, wsb); /* warm-up */
            if (r > 0 && st == PDNN_STATUS_NOT_SUPPORTED) r = 0, failed(c, st, "run");
            else if (r > 0 && failed(c, st, "run")) r = -1;
            if (r <= 0) {
                print_row_p(g, c, thr, aname, impl_of(names, j, algos[a]), NAN, NAN, NAN,
                            r ? "FAILED" : "skipped");
                note_err(g, c);
                r ? t->failed++ : t->skipped++;
                free(ws);
                continue;
            }
            double best = INFINITY;
            timed_call call = {c, algos[a], ws, wsb};
            for (int round = 0; round < g->run.rounds; round++) {
                bench_pause_ms(20);
                double x = bench_block_call_s(timed_run, &call, g->run.min_s, g->run.mean);
                if (x < best) best = x;
            }
            print_row_p(g, c, thr, aname, impl_of(names, j, algos[a]), best * 1e3,
                        flop / best * 1e-9, (double)wsb / 1048576.0, "ok");
            t->ok++;
            free(ws);
        }
    }
}

static void print_row_cb(const globals *g, const conv_ctx *c, char mode, const char *algo,
                         const char *impl, const char *result, const char *status)
{
    char label[160], desc[160];
    conv_desc_label(c->d, label, sizeof label);
    conv_desc_str(c->d, desc, sizeof desc);
    const bench_job *j = c->job;
    if (g->run.csv)
        printf("%c,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", mode, label, desc, bench_dir_name(c->dir),
               dt_name(j), tag_name(j), algo, impl, result, status);
    else
        printf("%-34s %-5s %-3s %-4s %-21s %-28s %-8s %s\n", label, bench_dir_name(c->dir),
               dt_name(j), tag_name(j), algo, impl, status, result);
    fflush(stdout);
}

/* runs algo (library) or the loop oracle (algo < 0) into the output buffer, poisoned
 * first; returns 1 ok, 0 not supported, -1 error */
static int run_into(conv_ctx *c, int algo)
{
    int64_t n;
    void *out = out_buf(c, &n);
    bench_fill_nan(out, c->dbl, n);
    if (algo < 0) {
        conv_oracle(c->d, &c->lay, c->dir, c->dbl, c->x, c->w, c->y, c->bias);
        return 1;
    }
    void *ws;
    size_t wsb;
    int r = get_ws(c, algo, &ws, &wsb);
    if (r > 0) {
        pdnnStatus_t st = run_once(c, algo, ws, wsb);
        if (st == PDNN_STATUS_NOT_SUPPORTED) r = 0, failed(c, st, "run");
        else if (failed(c, st, "run")) r = -1;
    }
    free(ws);
    return r;
}

static void mode_c(const globals *g, conv_ctx *c, int j, impl_names *names, tally *t)
{
    const bench_job *job = c->job;
    int thr = job->s.threads[0];
    for (int i = 1; i < job->s.nthreads; i++)
        if (job->s.threads[i] > thr) thr = job->s.threads[i];
    int algos[MAX_ALGOS];
    int na = -1;
    if (!failed(c, pdnnSetNumThreads(c->h, thr), "pdnnSetNumThreads")) na = choose_algos(c, algos);
    if (na <= 0) {
        print_row_cb(g, c, 'C', job->s.algo, "-", "", na ? "FAILED" : "skipped");
        note_err(g, c);
        na ? t->failed++ : t->skipped++;
        return;
    }
    int64_t n;
    void *out = out_buf(c, &n);
    size_t bytes = (size_t)n * (c->dbl ? sizeof(double) : sizeof(float));
    void *ref = bench_alloc(bytes);
    if (!ref) {
        snprintf(c->err, sizeof c->err, "out of memory");
        print_row_cb(g, c, 'C', job->s.algo, "-", "", "FAILED");
        note_err(g, c);
        t->failed++;
        return;
    }
    const double eps = c->dbl ? 0x1p-53 : 0x1p-24;
    for (int a = 0; a < na; a++) {
        const algo_info *ai = algo_by_value(c->dir, algos[a]);
        const char *aname = ai ? ai->name : "?";
        const bool approx = ai && ai->approx;
        const int refa = g->ref_loop || algos[a] == ref_algo(c->dir) ? -1 : ref_algo(c->dir);
        double tol = g->run.tol >= 0 ? g->run.tol
                                 : 4 * eps * sqrt(sum_length(c)) + 4 * eps +
                                       (approx ? (c->dbl ? 1e-11 : 1e-3) : 0.0);
        double err_int = NAN, err_real = NAN;
        int r = 1;
        for (int pass = approx ? 1 : 0; pass < 2 && r > 0; pass++) {
            fill_inputs(c, pass == 0, 1000 + (uint64_t)pass);
            r = run_into(c, refa);
            if (r <= 0) break;
            memcpy(ref, out, bytes);
            r = run_into(c, algos[a]);
            if (r <= 0) break;
            double e = bench_rel_err(out, ref, c->dbl, n);
            if (pass == 0)
                err_int = e;
            else
                err_real = e;
        }
        char result[256];
        const char *status;
        if (r == 0) {
            status = "skipped";
            t->skipped++;
            snprintf(result, sizeof result, "(not supported)");
        } else if (r < 0) {
            status = "FAILED";
            t->failed++;
            snprintf(result, sizeof result, "(error)");
        } else {
            bool ok = (approx || err_int == 0) && err_real <= tol;
            status = ok ? "ok" : "FAILED";
            ok ? t->ok++ : t->failed++;
            char ei[32];
            if (approx)
                snprintf(ei, sizeof ei, "-");
            else
                snprintf(ei, sizeof ei, "%.3g", err_int);
            snprintf(result, sizeof result, "int_err=%s real_err=%.3g tol=%.3g ref=%s", ei,
                     err_real, tol, refa < 0 ? "loop" : "lib");
        }
        print_row_cb(g, c, 'C', aname, impl_of(names, j, algos[a]), result, status);
        if (r <= 0) note_err(g, c);
    }
    free(ref);
}

static void mode_b(const globals *g, conv_ctx *c, int j, impl_names *names, tally *t)
{
    const bench_job *job = c->job;
    int algos[MAX_ALGOS];
    int na = -1;
    if (!failed(c, pdnnSetNumThreads(c->h, job->s.threads[0]), "pdnnSetNumThreads"))
        na = choose_algos(c, algos);
    if (na <= 0) {
        print_row_cb(g, c, 'B', job->s.algo, "-", "", na ? "FAILED" : "skipped");
        note_err(g, c);
        na ? t->failed++ : t->skipped++;
        return;
    }
    int64_t n;
    void *out = out_buf(c, &n);
    size_t bytes = (size_t)n * (c->dbl ? sizeof(double) : sizeof(float));
    void *first = bench_alloc(bytes);
    if (!first) {
        snprintf(c->err, sizeof c->err, "out of memory");
        print_row_cb(g, c, 'B', job->s.algo, "-", "", "FAILED");
        note_err(g, c);
        t->failed++;
        return;
    }
    fill_inputs(c, false, 2000);
    for (int a = 0; a < na; a++) {
        const algo_info *ai = algo_by_value(c->dir, algos[a]);
        const char *aname = ai ? ai->name : "?";
        char result[512] = "";
        size_t pos = 0;
        int r = 1;
        bool same = true;
        /* run 0: first count; run 1: first count again; then every other count */
        for (int run = 0; run <= job->s.nthreads && r > 0; run++) {
            int thr = job->s.threads[run == 0 ? 0 : run - 1];
            if (failed(c, pdnnSetNumThreads(c->h, thr), "pdnnSetNumThreads")) {
                r = -1;
                break;
            }
            r = run_into(c, algos[a]);
            if (r <= 0) break;
            if (run == 0) {
                memcpy(first, out, bytes);
                continue;
            }
            int64_t diff = bench_bitwise_diff(out, first, c->dbl, n);
            same = same && diff == 0;
            if (pos < sizeof result)
                pos += (size_t)snprintf(result + pos, sizeof result - pos, "%st=%d%s:%lld",
                                        pos ? " " : "", thr, run == 1 ? "(repeat)" : "",
                                        (long long)diff);
        }
        pdnnSetNumThreads(c->h, job->s.threads[0]);
        const char *status;
        if (r == 0) {
            status = "skipped";
            t->skipped++;
        } else if (r < 0) {
            status = "FAILED";
            t->failed++;
        } else {
            status = same ? "ok" : "FAILED";
            same ? t->ok++ : t->failed++;
            char tmp[sizeof result];
            memcpy(tmp, result, sizeof tmp);
            snprintf(result, sizeof result, "differing elements vs t=%d: %.400s",
                     job->s.threads[0], tmp);
        }
        print_row_cb(g, c, 'B', aname, impl_of(names, j, algos[a]), result, status);
        if (r <= 0) note_err(g, c);
    }
    free(first);
}

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
    char err[1024];
    bench_tokens toks;
    if (bench_tokens_read(argc, argv, &toks, err, sizeof err)) {
        fprintf(stderr, "pdnn-bench: %s\n", err);
        return 2;
    }
    globals g = {.no_impl = false};
    bench_run_opts_default(&g.run);
    bench_job *jobs;
    int njobs;
    int rc = bench_parse_jobs(&toks, &g.run, opt_cb, &g, &jobs, &njobs, err, sizeof err);
    bench_tokens_free(&toks);
    if (rc) {
        fprintf(stderr, "pdnn-bench: %s\n", err);
        return 2;
    }
    for (int j = 0; j < njobs; j++)
        if (algo_parse(jobs[j].s.dir, jobs[j].s.algo) == ALGO_BAD) {
            /* the setting is checked against each problem's direction: name the problem */
            fprintf(stderr,
                    "pdnn-bench: unknown --algo '%s' for %s (the problem at %s); one of auto, "
                    "find, all",
                    jobs[j].s.algo, bench_dir_name(jobs[j].s.dir), jobs[j].origin);
            for (const algo_info *a = algo_table(jobs[j].s.dir); a->name; a++)
                fprintf(stderr, ", %s", a->name);
            fprintf(stderr, "\n");
            free(jobs);
            return 2;
        }
    if (g.run.cpu_clock && !g.run.list) {
        /* the calling thread's CPU clock times one thread only: a second thread's work
         * would not be counted (--list times nothing) */
        for (int j = 0; j < njobs; j++)
            for (int t = 0; t < jobs[j].s.nthreads; t++)
                if (jobs[j].s.threads[t] != 1) {
                    fprintf(stderr, "pdnn-bench: %s: -c (thread CPU clock) times 1 thread only, "
                                    "got -t %d\n", jobs[j].origin, jobs[j].s.threads[t]);
                    free(jobs);
                    return 2;
                }
        bench_use_cpu_clock();
    }
    if (!njobs) {
        fprintf(stderr, "pdnn-bench: no problem given\n");
        usage(stderr);
        free(jobs);
        return 2;
    }
    if (g.run.index > njobs) {
        fprintf(stderr, "pdnn-bench: --index=%d but there %s %d problem%s\n", g.run.index,
                njobs == 1 ? "is" : "are", njobs, njobs == 1 ? "" : "s");
        free(jobs);
        return 2;
    }
    if (g.run.list) {
        for (int j = 0; j < njobs; j++) {
            char desc[160];
            conv_desc_str(&jobs[j].d, desc, sizeof desc);
            printf("%d %s %s %s\n", j + 1, bench_dir_name(jobs[j].s.dir), desc,
                   jobs[j].d.name[0] ? jobs[j].d.name : "-");
        }
        free(jobs);
        return 0;
    }
    if (g.run.index) {
        jobs[0] = jobs[g.run.index - 1];
        njobs = 1;
    }

    /* implementation names, before any pdnn call of this process */
    impl_names *names = NULL;
    const char *logenv = getenv("PDNN_LOGINFO_DBG");
    bool logging = logenv && !strcmp(logenv, "1");
    if (!g.no_impl && !logging) {
        names = calloc((size_t)njobs, sizeof *names);
        if (names && !probe_impls(jobs, njobs, names)) {
            free(names);
            names = NULL;
        }
    }

    pdnnHandle_t h;
    if (pdnnCreate(&h) != PDNN_STATUS_SUCCESS) {
        pdnnGetLastErrorString(err, sizeof err);
        fprintf(stderr, "pdnn-bench: pdnnCreate: %s\n", err);
        free(jobs);
        free(names);
        return 1;
    }
    if (!g.run.csv) {
        char date[32], model[256];
        bench_date(date, sizeof date);
        bench_cpu_model(model, sizeof model);
        size_t v = pdnnGetVersion();
        const char *cap = getenv("PDNN_MAX_CPU_ISA");
        printf("# pdnn-bench %s, pdnn %zu.%zu.%zu, %d problem(s)\n", date, v / 10000,
               v / 100 % 100, v % 100, njobs);
        printf("# cpu: %s, %ld online, PDNN_MAX_CPU_ISA=%s\n", model,
               sysconf(_SC_NPROCESSORS_ONLN), cap && *cap ? cap : "(unset)");
        bool timed = false; /* the timing lines only where mode P runs */
        for (int j = 0; j < njobs; j++) timed = timed || jobs[j].s.mode == 'P';
        if (timed) {
            printf("# P: %s of %d rounds x blocks >= %.2f s (%s); load average at "
                   "start %.2f%s\n",
                   g.run.mean ? "best block mean per call" : "best single call",
                   g.run.rounds, g.run.min_s,
                   bench_cpu_clock() ? "thread CPU clock" : "wall clock", bench_load1(),
                   logging ? "; PDNN_LOGINFO_DBG=1: times include logging" : "");
            printf("# GFLOP/s = 2*N*K*C/g*prod(out)*prod(kernel) / time; FWD_B = "
                   "ConvolutionBiasActivationForward (identity)\n");
        }
    }
    tally t = {0, 0, 0};
    char shown_mode = 0;
    for (int j = 0; j < njobs; j++) {
        if (!g.run.csv && jobs[j].s.mode != shown_mode) {
            shown_mode = jobs[j].s.mode;
            if (shown_mode == 'P')
                printf("%-34s %-5s %-3s %-4s %3s %-21s %-28s %10s %9s %8s %5s\n", "# problem",
                       "dir", "dt", "tag", "thr", "algo", "impl", "ms", "GFLOP/s", "ws MiB",
                       "load");
            else
                printf("%-34s %-5s %-3s %-4s %-21s %-28s %-8s %s\n", "# problem", "dir", "dt",
                       "tag", "algo", "impl", "status",
                       shown_mode == 'C' ? "errors (relative L2) vs the reference"
                                         : "bitwise repeat and thread counts");
        }
        conv_ctx c;
        if (!ctx_setup(&c, h, &jobs[j])) {
            char label[160];
            conv_desc_label(&jobs[j].d, label, sizeof label);
            fprintf(stderr, "pdnn-bench: %s: %s: %s\n", jobs[j].origin, label, c.err);
            t.failed++;
            ctx_free(&c);
            continue;
        }
        switch (jobs[j].s.mode) {
        case 'C': mode_c(&g, &c, j, names, &t); break;
        case 'B': mode_b(&g, &c, j, names, &t); break;
        default: mode_p(&g, &c, j, names, &t); break;
        }
        ctx_free(&c);
    }
    pdnnDestroy(h);
    if (!g.run.csv)
        printf("# runs: %d ok, %d skipped (not supported), %d failed\n", t.ok, t.skipped,
               t.failed);
    free(jobs);
    free(names);
    return t.failed ? 1 : 0;
}
