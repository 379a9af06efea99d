/* fashion_mnist - trains a LeNet-style CNN on Fashion-MNIST with pdnn.
 *
 * Data: Debian's dataset-fashion-mnist (IDX files read through zlib). Network, loss,
 * optimizers and learning-rate schedules: pdnn's public API only (fm_model.c). Output:
 * progress (a bar on a terminal, a line per tenth of an epoch otherwise), one summary
 * line per epoch, the final test accuracy; in --out: metrics.csv, training.png (cairo)
 * and a safetensors checkpoint per epoch, each written to a temporary file and renamed.
 * Run with --help for the options. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <pdnn.h>

#include "fm_idx.h"
#include "fm_metrics.h"
#include "fm_model.h"
#include "fm_safetensors.h"

/* Most epochs a run may have (options and resumed checkpoints). */
#define FM_MAX_EPOCHS 100000

#define PROG "fashion_mnist"
#define EVAL_BATCH 256
#define CKPT_FORMAT "pdnn-fashion-mnist-checkpoint-1"

/* ---------------------------------------------------------------- options */

enum {
    O_EPOCHS, O_BATCH, O_OPTIMIZER, O_LR, O_MOMENTUM, O_WD, O_SCHEDULE, O_WARMUP, O_GAMMA,
    O_STEP_EPOCHS, O_CLIP, O_SEED, O_LIMIT_TRAIN, O_LIMIT_TEST, O_THREADS, O_DATA, O_OUT,
    O_RESUME, O_FREEZE, O_HELP, O_COUNT
};

/* inherit: on --resume, an option not given takes the value the checkpoint recorded */
static const struct {
    const char *name, *arg, *help;
    int inherit;
} optdefs[O_COUNT] = {
    [O_EPOCHS] = {"epochs", "N", "epochs in all, counting those a resumed checkpoint did (3)", 1},
    [O_BATCH] = {"batch-size", "N", "images per optimizer step (64)", 1},
    [O_OPTIMIZER] = {"optimizer", "NAME", "sgd | adam | adamw | rmsprop | adagrad (adam)", 1},
    [O_LR] = {"lr", "X", "learning rate (sgd 0.01, adam/adamw/rmsprop 0.001, adagrad 0.01)", 1},
    [O_MOMENTUM] = {"momentum", "X", "momentum of sgd (0.9) and rmsprop (0)", 1},
    [O_WD] = {"weight-decay", "X", "weight decay (adamw 0.01, others 0)", 1},
    [O_SCHEDULE] = {"schedule", "NAME",
                    "learning-rate schedule over all steps: constant | step | exponential |\n"
                    "                          cosine | warmup-cosine | onecycle | polynomial (cosine)", 1},
    [O_WARMUP] = {"warmup-steps", "N", "warm-up steps of warmup-cosine (5% of the steps)", 1},
    [O_GAMMA] = {"gamma", "X", "decay per --step-epochs for step (0.1), per epoch for exponential (0.5)", 1},
    [O_STEP_EPOCHS] = {"step-epochs", "N", "epochs between decays of the step schedule (1)", 1},
    [O_CLIP] = {"clip-grad-norm", "X", "clip the global gradient norm to X (0: off)", 1},
    [O_SEED] = {"seed", "N", "seed of the initial weights and the shuffling (42)", 1},
    [O_LIMIT_TRAIN] = {"limit-train", "N", "train on the first N training images only", 1},
    [O_LIMIT_TEST] = {"limit-test", "N", "test on the first N test images only", 0},
    [O_THREADS] = {"threads", "N", "threads (default: PDNN_NUM_THREADS, OMP_NUM_THREADS, all cores)", 0},
    [O_DATA] = {"data", "DIR", "folder of the IDX files (" FM_DEFAULT_DATA_DIR ")", 0},
    [O_OUT] = {"out", "DIR", "where metrics.csv, training.png and checkpoints go (./fashion_mnist_out)", 0},
    [O_RESUME] = {"resume", "CKPT", "continue from a checkpoint: weights, optimizer state, step", 0},
    [O_FREEZE] = {"freeze", "LAYERS", "comma-separated layers to keep fixed: conv1,conv2,fc1,fc2", 0},
    [O_HELP] = {"help", NULL, "this text", 0},
};

static const char *const optimizer_names[] = {"sgd", "adam", "adamw", "rmsprop", "adagrad"};
static const pdnnOptimizerType_t optimizer_types[] = {
    PDNN_OPTIMIZER_SGD, PDNN_OPTIMIZER_ADAM, PDNN_OPTIMIZER_ADAMW, PDNN_OPTIMIZER_RMSPROP,
    PDNN_OPTIMIZER_ADAGRAD};
static const char *const schedule_names[] = {"constant", "step", "exponential", "cosine",
                                             "warmup-cosine", "onecycle", "polynomial"};
#define NOPT ((int)(sizeof optimizer_names / sizeof *optimizer_names))
#define NSCHED ((int)(sizeof schedule_names / sizeof *schedule_names))

typedef struct {
    int epochs, batch, optimizer, schedule, step_epochs, threads;
    double lr, momentum, wd, gamma, clip;
    int64_t warmup, limit_train, limit_test;
    uint64_t seed;
    const char *data, *out, *resume;
    bool frozen[FM_NLAYERS];
} options;

static void usage(FILE *f)
{
    fprintf(f, "Usage: " PROG " [options]\n"
               "Trains a LeNet-style CNN (conv 5x5 32, pool, conv 5x5 64, pool, fc 128, fc 10) on\n"
               "Fashion-MNIST with pdnn and reports the test accuracy.\n\nOptions:\n");
    for (int i = 0; i < O_COUNT; i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", optdefs[i].name, optdefs[i].arg ? " " : "",
                 optdefs[i].arg ? optdefs[i].arg : "");
        fprintf(f, "  %-24s%s\n", left, optdefs[i].help);
    }
    fprintf(f, "\nOn --resume, options not given take the values the checkpoint recorded\n"
               "(except --limit-test, --threads, --data, --out, --freeze).\n");
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, PROG ": ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see " PROG " --help)\n");
    return 2;
}

static int parse_i64(const char *opt, const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end || errno || v < lo || v > hi)
        return usage_error("--%s wants an integer in [%" PRId64 ", %" PRId64 "], got '%s'", opt,
                           lo, hi, s);
    *out = v;
    return 0;
}

static int parse_int(const char *opt, const char *s, int lo, int hi, int *out)
{
    int64_t v;
    if (parse_i64(opt, s, lo, hi, &v)) return 2;
    *out = (int)v;
    return 0;
}

/* lo_open: the value must be > lo rather than >= lo */
static int parse_dbl(const char *opt, const char *s, double lo, int lo_open, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!*s || *end || errno || !isfinite(v) || (lo_open ? v <= lo : v < lo) || v > hi)
    {
        char upper[48] = "";
        if (hi < 1e300) snprintf(upper, sizeof upper, " and <= %g", hi);
        return usage_error("--%s wants a number %s %g%s, got '%s'", opt, lo_open ? ">" : ">=", lo,
                           upper, s);
    }
    *out = v;
    return 0;
}

static int parse_name(const char *opt, const char *s, const char *const *names, int n, int *out)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(s, names[i])) {
            *out = i;
            return 0;
        }
    char list[256] = "";
    for (int i = 0; i < n; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
    return usage_error("--%s: unknown value '%s' (one of: %s)", opt, s, list);
}

/* The option strings after the command line and, for --resume, the checkpoint's
 * recorded values, converted and checked. */
static int finish_options(const char *const *val, options *o)
{
    memset(o, 0, sizeof *o);
    int rc = 0;
#define V(id, def) (val[id] ? val[id] : (def))
    rc = rc ? rc : parse_int("epochs", V(O_EPOCHS, "3"), 1, FM_MAX_EPOCHS, &o->epochs);
    rc = rc ? rc : parse_int("batch-size", V(O_BATCH, "64"), 1, 4096, &o->batch);
    rc = rc ? rc : parse_name("optimizer", V(O_OPTIMIZER, "adam"), optimizer_names, NOPT, &o->optimizer);
    if (rc) return rc;
    static const char *const def_lr[] = {"0.01", "0.001", "0.001", "0.001", "0.01"};
    pdnnOptimizerType_t ot = optimizer_types[o->optimizer];
    rc = rc ? rc : parse_dbl("lr", V(O_LR, def_lr[o->optimizer]), 0, 1, 1e6, &o->lr);
    rc = rc ? rc : parse_dbl("momentum", V(O_MOMENTUM, ot == PDNN_OPTIMIZER_SGD ? "0.9" : "0"), 0, 0,
                             1e6, &o->momentum);
    rc = rc ? rc : parse_dbl("weight-decay", V(O_WD, ot == PDNN_OPTIMIZER_ADAMW ? "0.01" : "0"), 0, 0,
                             1e6, &o->wd);
    rc = rc ? rc : parse_name("schedule", V(O_SCHEDULE, "cosine"), schedule_names, NSCHED, &o->schedule);
    if (rc) return rc;
    rc = rc ? rc : parse_i64("warmup-steps", V(O_WARMUP, "-1"), -1, INT64_MAX / 2, &o->warmup);
    rc = rc ? rc : parse_dbl("gamma", V(O_GAMMA, o->schedule == 2 ? "0.5" : "0.1"), 0, 0, 1e6, &o->gamma);
    rc = rc ? rc : parse_int("step-epochs", V(O_STEP_EPOCHS, "1"), 1, 100000, &o->step_epochs);
    rc = rc ? rc : parse_dbl("clip-grad-norm", V(O_CLIP, "0"), 0, 0, 1e300, &o->clip);
    int64_t seed;
    rc = rc ? rc : parse_i64("seed", V(O_SEED, "42"), 0, INT64_MAX, &seed);
    o->seed = (uint64_t)seed;
    rc = rc ? rc : parse_i64("limit-train", V(O_LIMIT_TRAIN, "0"), 0, INT64_MAX, &o->limit_train);
    rc = rc ? rc : parse_i64("limit-test", V(O_LIMIT_TEST, "0"), 0, INT64_MAX, &o->limit_test);
    rc = rc ? rc : parse_int("threads", V(O_THREADS, "0"), 0, 4096, &o->threads);
    if (rc) return rc;
    if (val[O_LIMIT_TRAIN] && o->limit_train == 0) return usage_error("--limit-train wants N >= 1");
    if (val[O_LIMIT_TEST] && o->limit_test == 0) return usage_error("--limit-test wants N >= 1");
    if (val[O_THREADS] && o->threads == 0) return usage_error("--threads wants N >= 1");
    o->data = V(O_DATA, FM_DEFAULT_DATA_DIR);
    o->out = V(O_OUT, "fashion_mnist_out");
    o->resume = val[O_RESUME];
    if (val[O_FREEZE]) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", val[O_FREEZE]);
        int count = 0;
        for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            int l = fm_layer_index(tok);
            if (l < 0)
                return usage_error("--freeze: unknown layer '%s' (layers: conv1, conv2, fc1, fc2)",
                                   tok);
            o->frozen[l] = true;
            count++;
        }
        if (!count) return usage_error("--freeze wants layer names, e.g. conv1,conv2");
        bool all = true;
        for (int l = 0; l < FM_NLAYERS; l++) all = all && o->frozen[l];
        if (all) return usage_error("--freeze names every layer: nothing would be trained");
    }
#undef V
    return 0;
}

/* The effective value of an inheritable option, as recorded in checkpoints. */
static void option_string(const options *o, int id, char *buf, size_t len)
{
    switch (id) {
    case O_EPOCHS: snprintf(buf, len, "%d", o->epochs); break;
    case O_BATCH: snprintf(buf, len, "%d", o->batch); break;
    case O_OPTIMIZER: snprintf(buf, len, "%s", optimizer_names[o->optimizer]); break;
    case O_LR: snprintf(buf, len, "%.17g", o->lr); break;
    case O_MOMENTUM: snprintf(buf, len, "%.17g", o->momentum); break;
    case O_WD: snprintf(buf, len, "%.17g", o->wd); break;
    case O_SCHEDULE: snprintf(buf, len, "%s", schedule_names[o->schedule]); break;
    case O_WARMUP: snprintf(buf, len, "%" PRId64, o->warmup); break;
    case O_GAMMA: snprintf(buf, len, "%.17g", o->gamma); break;
    case O_STEP_EPOCHS: snprintf(buf, len, "%d", o->step_epochs); break;
    case O_CLIP: snprintf(buf, len, "%.17g", o->clip); break;
    case O_SEED: snprintf(buf, len, "%" PRIu64, o->seed); break;
    case O_LIMIT_TRAIN: snprintf(buf, len, "%" PRId64, o->limit_train); break;
    default: buf[0] = '\0';
    }
}

/* ---------------------------------------------------------------- helpers */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void fmt_time(char *buf, size_t len, double s)
{
    if (!(s >= 0) || s > 1e7) s = 0;
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

static uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The order of epoch e (1-based): a Fisher-Yates shuffle drawn from (seed, e) only, so
 * a resumed run sees the same order as an uninterrupted one. */
static void shuffle(int64_t *order, int64_t n, uint64_t seed, int epoch)
{
    uint64_t s = mix64(seed ^ mix64((uint64_t)epoch * 0xA24BAED4963EE407ull));
    for (int64_t i = 0; i < n; i++) order[i] = i;
    for (int64_t i = n - 1; i > 0; i--) {
        s = mix64(s);
        int64_t j = (int64_t)(s % (uint64_t)(i + 1));
        int64_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

static int make_dir(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0777) && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) && errno != EEXIST) return -1;
    struct stat st;
    return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

#define PDNN_CHECK(call)                                                                   \
    do {                                                                                   \
        pdnnStatus_t st_ = (call);                                                         \
        if (st_ != PDNN_STATUS_SUCCESS) {                                                  \
            char m_[512];                                                                  \
            pdnnGetLastErrorString(m_, sizeof m_);                                         \
            fprintf(stderr, PROG ": %s failed: %s: %s\n", #call, pdnnGetErrorString(st_), m_); \
            goto fail;                                                                     \
        }                                                                                  \
    } while (0)

static pdnnStatus_t set_optimizer(pdnnOptimizerDescriptor_t d, const options *o)
{
    switch (optimizer_types[o->optimizer]) {
    case PDNN_OPTIMIZER_SGD: return pdnnSetOptimizerDescriptorSGD(d, o->momentum, 0, 0, o->wd);
    case PDNN_OPTIMIZER_ADAM: return pdnnSetOptimizerDescriptorAdam(d, 0.9, 0.999, 1e-8, o->wd, 0);
    case PDNN_OPTIMIZER_ADAMW: return pdnnSetOptimizerDescriptorAdamW(d, 0.9, 0.999, 1e-8, o->wd, 0);
    case PDNN_OPTIMIZER_RMSPROP:
        return pdnnSetOptimizerDescriptorRMSprop(d, 0.99, 1e-8, o->momentum, 0, o->wd);
    case PDNN_OPTIMIZER_ADAGRAD: return pdnnSetOptimizerDescriptorAdagrad(d, 0, 0, 1e-10, o->wd);
    }
    return PDNN_STATUS_BAD_PARAM;
}

static pdnnStatus_t set_schedule(pdnnScheduleDescriptor_t d, const options *o, int64_t spe,
                                 int64_t total)
{
    switch (o->schedule) {
    case 0: return pdnnSetScheduleDescriptorConstant(d, o->lr);
    case 1: return pdnnSetScheduleDescriptorStep(d, o->lr, spe * o->step_epochs, o->gamma);
    case 2: return pdnnSetScheduleDescriptorExponential(d, o->lr, pow(o->gamma, 1.0 / (double)spe));
    case 3: return pdnnSetScheduleDescriptorCosine(d, o->lr, total, 0);
    case 4: {
        int64_t w = o->warmup >= 0 ? o->warmup : total / 20;
        return pdnnSetScheduleDescriptorWarmupCosine(d, o->lr, w, total, 0.1, 0);
    }
    case 5: return pdnnSetScheduleDescriptorOneCycle(d, o->lr, total, 0.3, 25, 1e4, PDNN_ANNEAL_COS, 0);
    default: return pdnnSetScheduleDescriptorPolynomial(d, o->lr, total, 1.0, 0);
    }
}

/* Progress of one epoch: a redrawn bar on a terminal, else a line per tenth. */
static void progress(bool tty, int epoch, int epochs, int64_t b, int64_t nb, int64_t images,
                     double t0, double loss_mean, bool *printed_tenth)
{
    double el = now_s() - t0, ips = el > 0 ? (double)images / el : 0;
    double eta = b > 0 ? el * (double)(nb - b) / (double)b : 0;
    char etas[32];
    fmt_time(etas, sizeof etas, eta);
    if (tty) {
        const int width = 30;
        int fill = (int)(width * b / nb);
        char bar[64];
        for (int i = 0; i < width; i++) bar[i] = i < fill ? '=' : i == fill ? '>' : ' ';
        bar[width] = '\0';
        printf("\r  epoch %d/%d [%s] %3d%%  %6.0f img/s  eta %s  loss %.4f   ", epoch, epochs, bar,
               (int)(100 * b / nb), ips, etas, loss_mean);
        fflush(stdout);
    } else {
        int tenth = (int)(10 * b / nb);
        if (tenth > 0 && !printed_tenth[tenth]) {
            printed_tenth[tenth] = true;
            printf("  epoch %d/%d %3d%%  step %" PRId64 "/%" PRId64 "  loss %.4f  %.0f img/s  eta %s\n",
                   epoch, epochs, tenth * 10, b, nb, loss_mean, ips, etas);
            fflush(stdout);
        }
    }
}

static int evaluate(fm_net *net, const fm_split *test, int64_t ntest, double *loss, double *acc)
{
    double lsum = 0;
    int64_t correct = 0;
    for (int64_t i = 0; i < ntest; i += EVAL_BATCH) {
        int n = (int)(ntest - i < EVAL_BATCH ? ntest - i : EVAL_BATCH);
        fm_net_load_batch(net, test, NULL, i, n);
        double l;
        int c;
        if (fm_net_eval_batch(net, n, &l, &c)) return -1;
        lsum += l;
        correct += c;
    }
    *loss = lsum / (double)ntest;
    *acc = (double)correct / (double)ntest;
    return 0;
}

static int save_checkpoint(const fm_net *net, const options *o, const char *path, int epoch,
                           int64_t step)
{
    char vals[O_COUNT + FM_NPARAMS + 8][64];
    const char *kv[2 * (O_COUNT + FM_NPARAMS + 8)];
    char keys[O_COUNT + FM_NPARAMS][64];
    int nm = 0;
#define META(k, ...)                                                                       \
    do {                                                                                   \
        snprintf(vals[nm], sizeof vals[nm], __VA_ARGS__);                                  \
        kv[2 * nm] = (k);                                                                  \
        kv[2 * nm + 1] = vals[nm];                                                         \
        nm++;                                                                              \
    } while (0)
    kv[0] = "pdnn.arch";
    kv[1] = FM_ARCH;
    nm = 1;
    META("pdnn.format", "%s", CKPT_FORMAT);
    META("epoch", "%d", epoch);
    META("step", "%" PRId64, step);
    META("optimizer", "%s", optimizer_names[o->optimizer]);
    META("optimizer.state", "%s", "optimizer.<tensor>: pdnnOptimizerStep state buffers");
    int nk = 0;
    for (int i = 0; i < FM_NPARAMS; i++) {
        snprintf(keys[nk], sizeof keys[nk], "optimizer.steps.%s", net->p[i].name);
        META(keys[nk], "%" PRId64, net->p[i].steps);
        nk++;
    }
    for (int id = 0; id < O_COUNT; id++) {
        if (!optdefs[id].inherit) continue;
        snprintf(keys[nk], sizeof keys[nk], "args.%s", optdefs[id].name);
        char v[64];
        option_string(o, id, v, sizeof v);
        META(keys[nk], "%s", v);
        nk++;
    }
#undef META
    fm_st_tensor t[2 * FM_NPARAMS];
    int nt = fm_net_tensors(net, true, t);
    char err[1024];
    if (fm_st_save(path, t, nt, kv, nm, err, sizeof err)) {
        fprintf(stderr, PROG ": %s\n", err);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    const char *val[O_COUNT] = {0};
    struct option lopts[O_COUNT + 1];
    for (int i = 0; i < O_COUNT; i++)
        lopts[i] = (struct option){optdefs[i].name, optdefs[i].arg ? required_argument : no_argument,
                                   NULL, 1000 + i};
    lopts[O_COUNT] = (struct option){0, 0, 0, 0};
    opterr = 0;
    for (;;) {
        int li = -1, c = getopt_long(argc, argv, ":h", lopts, &li);
        if (c == -1) break;
        if (c == 'h' || c == 1000 + O_HELP) {
            usage(stdout);
            return 0;
        }
        if (c == ':') return usage_error("option '%s' needs a value", argv[optind - 1]);
        if (c == '?') return usage_error("unknown option '%s'", argv[optind - 1]);
        val[c - 1000] = optarg;
    }
    if (optind < argc) return usage_error("unexpected argument '%s'", argv[optind]);

    int rc = 1;
    fm_st_file ck = {0};
    fm_split train = {0}, test = {0};
    fm_net net = {0};
    fm_metrics metrics = {0};
    pdnnHandle_t h = NULL;
    pdnnOptimizerDescriptor_t opt = NULL;
    pdnnScheduleDescriptor_t sched = NULL;
    int64_t *order = NULL;
    char err[4096];
    int start_epoch = 0;
    int64_t step = 0;
    bool load_state = false;

    if (val[O_RESUME]) {
        if (fm_st_load(val[O_RESUME], &ck, err, sizeof err)) {
            fprintf(stderr, PROG ": cannot resume: %s\n", err);
            return 1;
        }
        const char *fmt = fm_st_meta(&ck, "pdnn.format"), *ep = fm_st_meta(&ck, "epoch"),
                   *st = fm_st_meta(&ck, "step"), *copt = fm_st_meta(&ck, "optimizer");
        char *e1 = NULL, *e2 = NULL;
        errno = 0;
        long epv = ep ? strtol(ep, &e1, 10) : -1;
        long long stv = st ? strtoll(st, &e2, 10) : -1;
        const bool range = errno == 0;
        if (!fmt || strcmp(fmt, CKPT_FORMAT) || epv < 0 || *e1 || stv < 0 || *e2 || !copt) {
            fprintf(stderr, PROG ": cannot resume: %s is not a checkpoint of this program "
                            "(format, epoch, step or optimizer metadata missing)\n", val[O_RESUME]);
            goto fail;
        }
        /* the header is not covered by the checksum: bound what it says (an epoch count
         * the option parser would accept, a step count far above any real run's) */
        if (!range || epv > FM_MAX_EPOCHS || stv > (long long)1 << 48) {
            fprintf(stderr, PROG ": cannot resume: %s records epoch %s and step %s, out of "
                            "range (epoch <= %d, step <= 2^48): not a checkpoint of this program\n",
                    val[O_RESUME], ep, st, FM_MAX_EPOCHS);
            goto fail;
        }
        start_epoch = (int)epv;
        step = stv;
        /* an explicitly different optimizer (or schedule) drops the recorded settings
         * that belong to the old one */
        bool new_opt = val[O_OPTIMIZER] && strcmp(val[O_OPTIMIZER], copt);
        const char *csched = fm_st_meta(&ck, "args.schedule");
        bool new_sched = val[O_SCHEDULE] && csched && strcmp(val[O_SCHEDULE], csched);
        for (int id = 0; id < O_COUNT; id++) {
            if (!optdefs[id].inherit || val[id]) continue;
            if (new_opt && (id == O_LR || id == O_MOMENTUM || id == O_WD)) continue;
            if (new_sched && (id == O_WARMUP || id == O_GAMMA || id == O_STEP_EPOCHS)) continue;
            char key[64];
            snprintf(key, sizeof key, "args.%s", optdefs[id].name);
            val[id] = fm_st_meta(&ck, key);
        }
        load_state = !new_opt;
    }
    options o;
    if ((rc = finish_options(val, &o)) != 0) goto fail;
    rc = 1;

    if (fm_split_load(o.data, "train", &train, err, sizeof err) ||
        fm_split_load(o.data, "t10k", &test, err, sizeof err)) {
        fprintf(stderr, PROG ": %s\n", err);
        goto fail;
    }
    if (train.rows != FM_IMAGE || train.cols != FM_IMAGE || test.rows != FM_IMAGE ||
        test.cols != FM_IMAGE) {
        fprintf(stderr, PROG ": images are %dx%d (train) and %dx%d (test); the network needs "
                        "%dx%d\n", train.rows, train.cols, test.rows, test.cols, FM_IMAGE, FM_IMAGE);
        goto fail;
    }
    int64_t ntrain = o.limit_train && o.limit_train < train.n ? o.limit_train : train.n;
    int64_t ntest = o.limit_test && o.limit_test < test.n ? o.limit_test : test.n;
    int64_t spe = (ntrain + o.batch - 1) / o.batch, total = spe * o.epochs;

    PDNN_CHECK(pdnnCreate(&h));
    if (o.threads) PDNN_CHECK(pdnnSetNumThreads(h, o.threads));
    int threads;
    PDNN_CHECK(pdnnGetNumThreads(h, &threads));
    PDNN_CHECK(pdnnCreateOptimizerDescriptor(&opt));
    pdnnStatus_t st = set_optimizer(opt, &o);
    if (st != PDNN_STATUS_SUCCESS) {
        pdnnGetLastErrorString(err, sizeof err);
        fprintf(stderr, PROG ": bad optimizer settings: %s\n", err);
        rc = 2;
        goto fail;
    }
    PDNN_CHECK(pdnnCreateScheduleDescriptor(&sched));
    st = set_schedule(sched, &o, spe, total);
    if (st != PDNN_STATUS_SUCCESS) {
        pdnnGetLastErrorString(err, sizeof err);
        fprintf(stderr, PROG ": bad schedule settings for %" PRId64 " steps: %s\n", total, err);
        rc = 2;
        goto fail;
    }
    if (fm_net_create(&net, h, o.batch > EVAL_BATCH ? o.batch : EVAL_BATCH) ||
        fm_net_set_optimizer(&net, opt)) {
        fprintf(stderr, PROG ": %s\n", net.err);
        goto fail;
    }
    memcpy(net.frozen, o.frozen, sizeof net.frozen);
    if (o.resume) {
        if (fm_net_load(&net, &ck, o.resume, load_state)) {
            fprintf(stderr, PROG ": cannot resume: %s\n", net.err);
            goto fail;
        }
    } else {
        fm_net_init(&net, o.seed);
    }
    if (make_dir(o.out)) {
        fprintf(stderr, PROG ": cannot create the output folder %s: %s\n", o.out, strerror(errno));
        goto fail;
    }
    char csv[4200], png[4200], ckpt[4200];
    snprintf(csv, sizeof csv, "%s/metrics.csv", o.out);
    snprintf(png, sizeof png, "%s/training.png", o.out);
    if (o.resume && access(csv, R_OK) == 0 && fm_metrics_read(csv, step, &metrics, err, sizeof err)) {
        fprintf(stderr, PROG ": note: %s; starting a new metrics.csv\n", err);
        fm_metrics_free(&metrics);
    }

    const size_t ver = pdnnGetVersion();
    printf("pdnn %zu.%zu.%zu, %d thread%s; Fashion-MNIST: %" PRId64 " training, %" PRId64
           " test images from %s\n", ver / 10000, ver / 100 % 100, ver % 100, threads, threads > 1 ? "s" : "",
           ntrain, ntest, o.data);
    printf("optimizer %s, lr %g, schedule %s, batch %d, %d epoch%s, seed %" PRIu64, optimizer_names[o.optimizer],
           o.lr, schedule_names[o.schedule], o.batch, o.epochs, o.epochs > 1 ? "s" : "", o.seed);
    for (int l = 0, first = 1; l < FM_NLAYERS; l++)
        if (o.frozen[l]) printf("%s%s", first ? ", frozen: " : ",", fm_layer_names[l]), first = 0;
    printf("\n");
    if (o.resume)
        printf("resuming %s at epoch %d, step %" PRId64 "%s\n", o.resume, start_epoch, step,
               load_state ? "" : " (new optimizer: its state starts fresh)");
    printf("output: %s/\n", o.out);
    fflush(stdout);

    order = malloc(sizeof(int64_t) * (size_t)ntrain);
    if (!order) {
        fprintf(stderr, PROG ": out of memory\n");
        goto fail;
    }
    bool tty = isatty(STDOUT_FILENO);
    double test_loss = NAN, test_acc = NAN;
    for (int epoch = start_epoch + 1; epoch <= o.epochs; epoch++) {
        shuffle(order, ntrain, o.seed, epoch);
        double t0 = now_s(), lsum = 0;
        int64_t images = 0, correct = 0;
        bool tenth[11] = {false};
        for (int64_t b = 0; b < spe; b++) {
            int n = (int)(ntrain - b * o.batch < o.batch ? ntrain - b * o.batch : o.batch);
            double lr, loss;
            int c;
            PDNN_CHECK(pdnnGetScheduleRate(sched, step, &lr));
            fm_net_load_batch(&net, &train, order, b * o.batch, n);
            if (fm_net_train_step(&net, n, lr, o.clip, &loss, &c)) {
                if (tty) printf("\n");
                fprintf(stderr, PROG ": epoch %d, step %" PRId64 ": %s\n", epoch, step + 1, net.err);
                goto fail;
            }
            step++;
            images += n;
            correct += c;
            lsum += loss * n;
            double el = now_s() - t0;
            fm_metric row = {step, epoch, 0, loss, (double)c / n, lr, el > 0 ? images / el : 0};
            if (fm_metrics_add(&metrics, &row)) {
                fprintf(stderr, PROG ": out of memory\n");
                goto fail;
            }
            if (tty && b + 1 < spe && (b % 8) != 7) continue; /* redraw every 8 steps */
            progress(tty, epoch, o.epochs, b + 1, spe, images, t0, lsum / (double)images, tenth);
        }
        double train_s = now_s() - t0, ips = (double)images / train_s;
        if (tty) printf("\n");
        double te0 = now_s();
        if (evaluate(&net, &test, ntest, &test_loss, &test_acc)) {
            fprintf(stderr, PROG ": evaluation: %s\n", net.err);
            goto fail;
        }
        double test_s = now_s() - te0;
        fm_metric row = {step, epoch, 1, test_loss, test_acc, metrics.n ? metrics.rows[metrics.n - 1].lr : o.lr, ips};
        if (fm_metrics_add(&metrics, &row)) {
            fprintf(stderr, PROG ": out of memory\n");
            goto fail;
        }
        printf("epoch %d/%d: train loss %.4f, train accuracy %.2f%%, test loss %.4f, test accuracy "
               "%.2f%%, %.0f images/s, %.1f s (test %.1f s)\n", epoch, o.epochs,
               lsum / (double)images, 100.0 * (double)correct / (double)images, test_loss,
               100 * test_acc, ips, train_s, test_s);
        snprintf(ckpt, sizeof ckpt, "%s/checkpoint_epoch%d.safetensors", o.out, epoch);
        if (save_checkpoint(&net, &o, ckpt, epoch, step)) goto fail;
        if (fm_metrics_write(csv, &metrics, err, sizeof err) ||
            fm_plot_png(png, &metrics, err, sizeof err)) {
            fprintf(stderr, PROG ": %s\n", err);
            goto fail;
        }
        printf("  saved %s, %s, %s\n", ckpt, csv, png);
        fflush(stdout);
    }
    if (isnan(test_acc)) {
        printf("the checkpoint is at epoch %d of %d: nothing to train (raise --epochs to "
               "continue); evaluating it\n", start_epoch, o.epochs);
        if (evaluate(&net, &test, ntest, &test_loss, &test_acc)) {
            fprintf(stderr, PROG ": evaluation: %s\n", net.err);
            goto fail;
        }
    }
    printf("final test accuracy: %.2f%% (%" PRId64 "/%" PRId64 " test images), test loss %.4f\n",
           100 * test_acc, (int64_t)llround(test_acc * (double)ntest), ntest, test_loss);
    rc = 0;
fail:
    free(order);
    fm_metrics_free(&metrics);
    fm_net_destroy(&net);
    pdnnDestroyScheduleDescriptor(sched);
    pdnnDestroyOptimizerDescriptor(opt);
    if (h) pdnnDestroy(h);
    fm_split_free(&train);
    fm_split_free(&test);
    fm_st_free(&ck);
    return rc;
}
