/* Convolution problem lines shared by pdnn-bench and its peer drivers (bench/peers/):
 * benchdnn's conv descriptor syntax, the token stream of the command line with batch
 * files expanded, and the per-problem settings (--dir, --dt, --mb, ...) that precede
 * problems as in benchdnn. Plain C, no pdnn header: a peer driver includes it alone.
 *
 * Descriptor (benchdnn's conv driver): a run of <entry><integer> pairs, '_' ignored:
 *   g mb ic id ih iw oc od oh ow kd kh kw sd sh sw pd ph pw dd dh dw
 * then optionally n<name> (everything after the 'n' is the name; surrounding double
 * quotes are dropped, so n"resnet:conv1" and _nresnet:conv1 are the same). Rules, as
 * benchdnn's: mb defaults to 2, g to 1, strides to 1, dilation d to 0 (benchdnn writes
 * dilation - 1: dh1 is a dilation of 2). A spatial dimension is present when any of
 * its i/o/k/d entries is given (or a stride != 1, a pad >= 1); then its input and
 * kernel sizes are required. A missing output size is computed,
 * o = (i - ((k - 1) * (d + 1) + 1) + 2 * p) / s + 1 (pad 0 when not given); a given
 * output with no pad gets p = ((o - 1) * s - i + (k - 1) * (d + 1) + 1) / 2. Given h
 * without w, w copies every h value; given d without h and w, both copy d (3-d, cubic).
 * The end padding is whatever makes the output size exact (benchdnn's right pad):
 * the begin pad when that fits, else the computed one (never negative; an output too
 * small for the input is refused).
 * pdnn's problem keys ("mb2ic4ih9iw9oc8oh9ow9kh3kw3sh1sw1ph1pw1dh0dw0g1_f32_fwd",
 * src/ops/conv/conv_problem.h) parse too: their _f32/_f64, _fwd/_bwd_d/_bwd_w and
 * _wkrsc_xnhwc_ynhwc tags set the data type, direction and layout of that problem
 * (bench_parse_jobs); the tags pdnn-bench cannot reproduce (_acc*, _flip, _xs/_ys
 * strides, one tensor channels-last alone) are refused. */
#ifndef PDNN_BENCH_CONV_DESC_PARSE_H
#define PDNN_BENCH_CONV_DESC_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CONV_DESC_NAME_MAX 128

typedef struct {
    int64_t g, mb, ic, oc;
    int nsp; /* spatial dims: 1 (w), 2 (h, w) or 3 (d, h, w) */
    /* per spatial dim, outermost first (d, h, w; h, w; or w alone) */
    int64_t in[3], out[3], k[3], s[3];
    int64_t pb[3], pe[3]; /* padding at the begin and at the end (>= 0) */
    int64_t dil[3];       /* dilation (1 = none): benchdnn's d + 1 */
    bool has_g;           /* g was written (printed back even when 1) */
    char name[CONV_DESC_NAME_MAX];
    /* Tags of pdnn's problem key (the "problem=" of its API log, conv_problem.h), so
     * that a logged call replays as is; 0 when absent. key_dt: 's' (_f32), 'd' (_f64);
     * key_dir: 'f' (_fwd), 'd' (_bwd_d), 'w' (_bwd_w); key_nhwc: _wkrsc_xnhwc_ynhwc. */
    char key_dt, key_dir;
    bool key_nhwc;
} conv_desc;

/* Parses one descriptor into *d. Returns 0, or -1 with a message in err (naming the
 * entry and the rule). */
int conv_desc_parse(const char *str, conv_desc *d, char *err, size_t errn);
/* The problem in benchdnn's short form ("mb32ic64ih56oc64oh56kh3ph1", w entries only
 * where w differs from h; stride and dilation only when not 1/0), without the name. */
void conv_desc_str(const conv_desc *d, char *buf, size_t n);
/* The name when given, else the short form. */
void conv_desc_label(const conv_desc *d, char *buf, size_t n);
/* 2 * N * K * C/g * prod(out) * prod(kernel): the multiply-adds of every direction
 * counted over all kernel taps (padding included, unlike benchdnn's count). */
double conv_desc_flops(const conv_desc *d);
/* Whether every size fits pdnn's int descriptors and every tensor has at most 2^60
 * elements (the parser refuses other lines; a --mb applied later is checked again). */
bool conv_desc_fits(const conv_desc *d);
/* Elements of x (N C spatial), w (K C/g kernel) and y (N K out). */
int64_t conv_desc_nx(const conv_desc *d);
int64_t conv_desc_nw(const conv_desc *d);
int64_t conv_desc_ny(const conv_desc *d);

/* ------------------------------------------------------------ command line tokens */

typedef struct {
    char *text;
    char origin[160]; /* "argv[3]" or "FILE:LINE" for messages */
} bench_token;

typedef struct {
    bench_token *v;
    int n, cap;
} bench_tokens;

/* The arguments with every --batch=FILE (or "--batch FILE") replaced by the file's
 * tokens: whitespace-separated, '#' starts a comment to the end of the line, nested
 * batch files allowed (a relative path is tried as given, then beside the including
 * file). Returns 0, or -1 with err set (unreadable file, nesting deeper than 8). */
int bench_tokens_read(int argc, char **argv, bench_tokens *t, char *err, size_t errn);
void bench_tokens_free(bench_tokens *t);

/* ------------------------------------------------------------ per-problem settings */

typedef enum { BENCH_FWD_D = 0, BENCH_FWD_B, BENCH_BWD_D, BENCH_BWD_W } bench_dir;

#define BENCH_MAX_THREADS_LIST 8

/* Settings in force for the problems that follow them (benchdnn's model); --reset
 * restores the defaults. */
typedef struct {
    bench_dir dir;    /* --dir=FWD_D|FWD_B|BWD_D|BWD_W (default FWD_D) */
    char algo[32];    /* --algo=NAME (default "auto"); checked by the driver */
    char mode;        /* --mode=C|B|P (default P) */
    bool dbl;         /* --dt=f32|f64 (default f32) */
    bool nhwc;        /* --tag=nchw|nhwc (default nchw) */
    int64_t mb;       /* --mb=N overrides the minibatch (0: the descriptor's) */
    int threads[BENCH_MAX_THREADS_LIST]; /* -t 1,2 / --threads=1,2 (default 1,2) */
    int nthreads;
} bench_settings;

void bench_settings_default(bench_settings *s);
const char *bench_dir_name(bench_dir d);

typedef struct {
    conv_desc d; /* with the --mb override applied */
    bench_settings s;
    char origin[160];
} bench_job;

/* Options of a whole run, shared by the drivers (anywhere on the line):
 * -c (thread CPU clock), -r N / --rounds=N (default 3), -m S / --min-time=S (seconds
 * per timed block, default 0.25), --timing=best|mean (a round's time: its best single
 * call, the default, or the mean of its block's calls; the best round is reported), --csv, --list (print the problems, run nothing),
 * --index=I (run only the I-th problem, 1-based), --tol=X (relative error bound of
 * --mode=C instead of the per-algorithm default). */
typedef struct {
    int rounds;
    double min_s;
    bool cpu_clock, csv, list;
    bool mean;  /* --timing=mean */
    int index;  /* 0: every problem */
    double tol; /* < 0: the driver's default */
} bench_run_opts;

void bench_run_opts_default(bench_run_opts *o);

/* Driver options that are not per-problem settings: return 1 when tok (and, for a
 * two-token option, *next, which the callback consumes by setting *used_next) is
 * the driver's, 0 when unknown, -1 for a bad value (with err set). */
typedef int (*bench_opt_fn)(void *ctx, const char *tok, const char *next, bool *used_next,
                            char *err, size_t errn);

/* Walks the tokens: settings update the current settings, run options go to *run,
 * driver options to opt (may be NULL),
 * anything else not starting with '-' is a problem descriptor that becomes a job with
 * the settings in force. Returns 0, or -1 with err naming the origin of the bad
 * token (unknown option, bad value, bad descriptor). *jobs is malloc'ed. */
int bench_parse_jobs(const bench_tokens *t, bench_run_opts *run, bench_opt_fn opt, void *ctx,
                     bench_job **jobs, int *njobs, char *err, size_t errn);

#endif
