/* pdnn-bench-onednn: the convolution peer of pdnn-bench. The same problem lines,
 * batch files and settings (bench/conv_desc_parse.h) run through oneDNN 2.x's C API
 * (Debian libdnnl-dev; scripts/deps.sh bench):
 *
 *   pdnn-bench-onednn [--mode=P|C] [--dir=FWD_D|FWD_B|BWD_D|BWD_W] [--tag=nchw|nhwc]
 *                     [--mb=N] [-t 1,2] [-c] [-r ROUNDS] [-m SECONDS] [--tol=X] [--csv]
 *                     [--list] [--index=I] [--batch=FILE] PROBLEM...
 *
 * oneDNN picks its algorithm (dnnl_convolution_auto) and its own memory layouts
 * (format_tag_any for the primitive's src, weights, dst and bias); the user's data
 * stays plain (NCHW with OIHW / GOIHW weights, or with --tag=nhwc NHWC with OHWI /
 * GOHWI), and reorders move it to and from the primitive's layouts when they differ.
 * Mode P times the primitive alone (inputs already in its layouts; the number compared
 * with pdnn) and, separately, one pass of every reorder a plain-layout caller needs
 * (inputs in, output out), each as the best single call over ROUNDS rounds of blocks
 * of at least SECONDS; the report names oneDNN's implementation
 * (dnnl_query_impl_info_str) and its scratchpad (user-managed, allocated here).
 * FWD_D / FWD_B are forward_training (benchdnn's mapping) without / with bias; BWD_D
 * and BWD_W are created with a forward hint. Threads: oneDNN's OpenMP runtime,
 * omp_set_num_threads before each primitive is created.
 * Mode C checks oneDNN (reorders included) against the bench's loop oracle
 * (bench/conv_oracle.h): exact on small integers unless oneDNN chose Winograd, relative
 * L2 error on [-1, 1] data within 4 eps sqrt(L) + 4 eps (+1e-3 for Winograd); it
 * validates this driver's wiring (pads, dilation, groups, layouts).
 * f32 only; --algo is ignored (oneDNN chooses). Exit status as pdnn-bench's. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl_debug.h>

#include "bench_util.h"
#include "conv_desc_parse.h"
#include "conv_oracle.h"

#define MAX_ARGS 4

typedef struct {
    int arg;                  /* DNNL_ARG_* of the convolution */
    bool input;               /* reorder user -> primitive, else primitive -> user */
    void *buf;                /* the user's plain buffer */
    dnnl_memory_t user, prim; /* prim == user when the layouts agree */
    dnnl_primitive_t reorder; /* NULL when they agree */
} arg_mem;

typedef struct {
    const bench_job *job;
    const conv_desc *d;
    dnnl_engine_t eng;
    dnnl_stream_t strm;
    dnnl_primitive_desc_t pd;
    dnnl_primitive_t prim;
    arg_mem a[MAX_ARGS];
    int na;
    dnnl_memory_t scratch;
    size_t scratch_bytes;
    void *x, *w, *y, *bias; /* plain user data */
    int64_t nx, nw, ny;
    char impl[128];
    char err[512];
} peer;

static bool dn(peer *p, dnnl_status_t s, const char *what)
{
    if (s == dnnl_success) return false;
    snprintf(p->err, sizeof p->err, "oneDNN %s: %s", what, dnnl_status2str(s));
    return true;
}

static dnnl_format_tag_t data_tag(int nsp, bool nhwc)
{
    static const dnnl_format_tag_t plain[] = {dnnl_ncw, dnnl_nchw, dnnl_ncdhw};
    static const dnnl_format_tag_t last[] = {dnnl_nwc, dnnl_nhwc, dnnl_ndhwc};
    return nhwc ? last[nsp - 1] : plain[nsp - 1];
}

static dnnl_format_tag_t wei_tag(int nsp, bool nhwc, bool grouped)
{
    static const dnnl_format_tag_t plain[] = {dnnl_oiw, dnnl_oihw, dnnl_oidhw};
    static const dnnl_format_tag_t last[] = {dnnl_owi, dnnl_ohwi, dnnl_odhwi};
    static const dnnl_format_tag_t gplain[] = {dnnl_goiw, dnnl_goihw, dnnl_goidhw};
    static const dnnl_format_tag_t glast[] = {dnnl_gowi, dnnl_gohwi, dnnl_godhwi};
    if (grouped) return nhwc ? glast[nsp - 1] : gplain[nsp - 1];
    return nhwc ? last[nsp - 1] : plain[nsp - 1];
}

static void peer_free(peer *p)
{
    for (int i = 0; i < p->na; i++) {
        arg_mem *m = &p->a[i];
        if (m->reorder) dnnl_primitive_destroy(m->reorder);
        if (m->prim && m->prim != m->user) dnnl_memory_destroy(m->prim);
        if (m->user) dnnl_memory_destroy(m->user);
    }
    p->na = 0;
    if (p->scratch) dnnl_memory_destroy(p->scratch);
    if (p->prim) dnnl_primitive_destroy(p->prim);
    if (p->pd) dnnl_primitive_desc_destroy(p->pd);
    p->scratch = NULL;
    p->prim = NULL;
    p->pd = NULL;
}

/* One argument: the user's memory on its buffer, the primitive's memory and the
 * reorder between them when the layouts differ. */
static bool add_arg(peer *p, int arg, bool input, const dnnl_memory_desc_t *user_md, void *buf)
{
    arg_mem *m = &p->a[p->na++];
    memset(m, 0, sizeof *m);
    m->arg = arg;
    m->input = input;
    m->buf = buf;
    const dnnl_memory_desc_t *pmd = dnnl_primitive_desc_query_md(p->pd, dnnl_query_exec_arg_md, arg);
    if (!pmd) {
        snprintf(p->err, sizeof p->err, "oneDNN: no memory descriptor for argument %d", arg);
        return false;
    }
    if (dn(p, dnnl_memory_create(&m->user, user_md, p->eng, buf), "memory_create (user)"))
        return false;
    if (dnnl_memory_desc_equal(pmd, user_md)) {
        m->prim = m->user;
        return true;
    }
    if (dn(p, dnnl_memory_create(&m->prim, pmd, p->eng, DNNL_MEMORY_ALLOCATE),
           "memory_create (primitive layout)"))
        return false;
    dnnl_primitive_desc_t rpd;
    if (dn(p,
           input ? dnnl_reorder_primitive_desc_create(&rpd, user_md, p->eng, pmd, p->eng, NULL)
                 : dnnl_reorder_primitive_desc_create(&rpd, pmd, p->eng, user_md, p->eng, NULL),
           "reorder_primitive_desc_create"))
        return false;
    dnnl_status_t s = dnnl_primitive_create(&m->reorder, rpd);
    dnnl_primitive_desc_destroy(rpd);
    return !dn(p, s, "primitive_create (reorder)");
}

/* Creates the convolution for the job at the current OpenMP thread count. */
static bool peer_setup(peer *p)
{
    const conv_desc *d = p->d;
    const bench_job *j = p->job;
    const int nb = d->nsp + 2;
    const bool grouped = d->g > 1;
    dnnl_dims_t xdim, ydim, wdim, bdim, strides, dil, pl, pr;
    xdim[0] = ydim[0] = d->mb;
    xdim[1] = d->ic;
    ydim[1] = d->oc;
    int wo = 0;
    if (grouped) wdim[wo++] = d->g;
    wdim[wo++] = d->oc / d->g;
    wdim[wo++] = d->ic / d->g;
    for (int i = 0; i < d->nsp; i++) {
        xdim[2 + i] = d->in[i];
        ydim[2 + i] = d->out[i];
        wdim[wo + i] = d->k[i];
        strides[i] = d->s[i];
        dil[i] = d->dil[i] - 1;
        pl[i] = d->pb[i];
        pr[i] = d->pe[i];
    }
    bdim[0] = d->oc;
    dnnl_memory_desc_t ux, uw, uy, ub, ax, aw, ay, ab;
    const dnnl_data_type_t f32 = dnnl_f32;
    if (dn(p, dnnl_memory_desc_init_by_tag(&ux, nb, xdim, f32, data_tag(d->nsp, j->s.nhwc)), "x md") ||
        dn(p, dnnl_memory_desc_init_by_tag(&uy, nb, ydim, f32, data_tag(d->nsp, j->s.nhwc)), "y md") ||
        dn(p, dnnl_memory_desc_init_by_tag(&uw, nb + grouped, wdim, f32,
                                           wei_tag(d->nsp, j->s.nhwc, grouped)), "w md") ||
        dn(p, dnnl_memory_desc_init_by_tag(&ub, 1, bdim, f32, dnnl_x), "bias md") ||
        dn(p, dnnl_memory_desc_init_by_tag(&ax, nb, xdim, f32, dnnl_format_tag_any), "x md") ||
        dn(p, dnnl_memory_desc_init_by_tag(&ay, nb, ydim, f32, dnnl_format_tag_any), "y md") ||
        dn(p, dnnl_memory_desc_init_by_tag(&aw, nb + grouped, wdim, f32, dnnl_format_tag_any),
           "w md") ||
        dn(p, dnnl_memory_desc_init_by_tag(&ab, 1, bdim, f32, dnnl_format_tag_any), "bias md"))
        return false;

    dnnl_primitive_attr_t attr;
    if (dn(p, dnnl_primitive_attr_create(&attr), "primitive_attr_create")) return false;
    bool ok = !dn(p, dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user),
                  "set_scratchpad_mode");
    dnnl_convolution_desc_t fwd, bwd;
    const bool bias = j->s.dir == BENCH_FWD_B;
    ok = ok && !dn(p,
                   dnnl_dilated_convolution_forward_desc_init(
                       &fwd, dnnl_forward_training, dnnl_convolution_auto, &ax, &aw,
                       bias ? &ab : NULL, &ay, strides, dil, pl, pr),
                   "convolution_forward_desc_init");
    if (ok && (j->s.dir == BENCH_FWD_D || j->s.dir == BENCH_FWD_B)) {
        ok = !dn(p, dnnl_primitive_desc_create(&p->pd, &fwd, attr, p->eng, NULL),
                 "primitive_desc_create (forward)");
    } else if (ok) {
        dnnl_primitive_desc_t hint = NULL;
        ok = !dn(p, dnnl_primitive_desc_create(&hint, &fwd, NULL, p->eng, NULL),
                 "primitive_desc_create (forward hint)");
        if (ok && j->s.dir == BENCH_BWD_D)
            ok = !dn(p,
                     dnnl_dilated_convolution_backward_data_desc_init(
                         &bwd, dnnl_convolution_auto, &ax, &aw, &ay, strides, dil, pl, pr),
                     "convolution_backward_data_desc_init");
        else if (ok)
            ok = !dn(p,
                     dnnl_dilated_convolution_backward_weights_desc_init(
                         &bwd, dnnl_convolution_auto, &ax, &aw, NULL, &ay, strides, dil, pl, pr),
                     "convolution_backward_weights_desc_init");
        if (ok)
            ok = !dn(p, dnnl_primitive_desc_create(&p->pd, &bwd, attr, p->eng, hint),
                     "primitive_desc_create (backward)");
        if (hint) dnnl_primitive_desc_destroy(hint);
    }
    dnnl_primitive_attr_destroy(attr);
    if (!ok) return false;

    const char *impl = NULL;
    dnnl_primitive_desc_query(p->pd, dnnl_query_impl_info_str, 0, &impl);
    snprintf(p->impl, sizeof p->impl, "%s", impl ? impl : "?");

    switch (j->s.dir) {
    case BENCH_FWD_D:
    case BENCH_FWD_B:
        ok = add_arg(p, DNNL_ARG_SRC, true, &ux, p->x) &&
             add_arg(p, DNNL_ARG_WEIGHTS, true, &uw, p->w) &&
             (!bias || add_arg(p, DNNL_ARG_BIAS, true, &ub, p->bias)) &&
             add_arg(p, DNNL_ARG_DST, false, &uy, p->y);
        break;
    case BENCH_BWD_D:
        ok = add_arg(p, DNNL_ARG_DIFF_DST, true, &uy, p->y) &&
             add_arg(p, DNNL_ARG_WEIGHTS, true, &uw, p->w) &&
             add_arg(p, DNNL_ARG_DIFF_SRC, false, &ux, p->x);
        break;
    case BENCH_BWD_W:
        ok = add_arg(p, DNNL_ARG_SRC, true, &ux, p->x) &&
             add_arg(p, DNNL_ARG_DIFF_DST, true, &uy, p->y) &&
             add_arg(p, DNNL_ARG_DIFF_WEIGHTS, false, &uw, p->w);
        break;
    }
    if (!ok) return false;
    const dnnl_memory_desc_t *smd =
        dnnl_primitive_desc_query_md(p->pd, dnnl_query_exec_arg_md, DNNL_ARG_SCRATCHPAD);
    p->scratch_bytes = smd ? dnnl_memory_desc_get_size(smd) : 0;
    if (p->scratch_bytes &&
        dn(p, dnnl_memory_create(&p->scratch, smd, p->eng, DNNL_MEMORY_ALLOCATE), "scratchpad"))
        return false;
    return !dn(p, dnnl_primitive_create(&p->prim, p->pd), "primitive_create");
}

static bool run_conv(peer *p)
{
    dnnl_exec_arg_t args[MAX_ARGS + 1];
    int n = 0;
    for (int i = 0; i < p->na; i++) args[n++] = (dnnl_exec_arg_t){p->a[i].arg, p->a[i].prim};
    if (p->scratch) args[n++] = (dnnl_exec_arg_t){DNNL_ARG_SCRATCHPAD, p->scratch};
    return !dn(p, dnnl_primitive_execute(p->prim, p->strm, n, args), "execute") &&
           !dn(p, dnnl_stream_wait(p->strm), "stream_wait");
}

/* inputs (in = true) or the output (in = false) through their reorders */
static bool run_reorders(peer *p, bool in)
{
    for (int i = 0; i < p->na; i++) {
        arg_mem *m = &p->a[i];
        if (!m->reorder || m->input != in) continue;
        dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, in ? m->user : m->prim},
                                   {DNNL_ARG_TO, in ? m->prim : m->user}};
        if (dn(p, dnnl_primitive_execute(m->reorder, p->strm, 2, args), "reorder") ||
            dn(p, dnnl_stream_wait(p->strm), "stream_wait"))
            return false;
    }
    return true;
}

static int count_reorders(const peer *p)
{
    int n = 0;
    for (int i = 0; i < p->na; i++) n += p->a[i].reorder != NULL;
    return n;
}

/* The timed calls of mode P (bench_block_call_s; arg is the peer): the convolution, and
 * the reorders in and out. */
static void timed_conv(void *arg) { run_conv(arg); }

static void timed_reorders(void *arg)
{
    if (run_reorders(arg, true)) run_reorders(arg, false);
}

typedef struct {
    int ok, skipped, failed;
} tally;

static void row(const bench_run_opts *o, const peer *p, char mode, int thr, double ms,
                double gflops, double reorder_ms, const char *status, const char *extra)
{
    char label[160], desc[160];
    conv_desc_label(p->d, label, sizeof label);
    conv_desc_str(p->d, desc, sizeof desc);
    const char *dir = bench_dir_name(p->job->s.dir), *tag = p->job->s.nhwc ? "nhwc" : "nchw";
    double mib = (double)p->scratch_bytes / 1048576.0;
    if (mode == 'P' && o->csv)
        printf("P,%s,%s,%s,f32,%s,%d,auto,%s,%.6f,%.3f,%.3f,%s,%.6f\n", label, desc, dir, tag,
               thr, p->impl, ms, gflops, mib, status, reorder_ms);
    else if (mode == 'P' && !strcmp(status, "ok"))
        printf("%-34s %-5s %-4s %3d %-26s %10.3f %9.1f %10.3f %2d %8.2f %5.2f\n", label, dir, tag,
               thr, p->impl, ms, gflops, reorder_ms, count_reorders(p), mib, bench_load1());
    else if (o->csv)
        printf("%c,%s,%s,%s,f32,%s,%d,auto,%s,%s,%s\n", mode, label, desc, dir, tag, thr,
               p->impl, extra, status);
    else
        printf("%-34s %-5s %-4s %3d %-26s %-8s %s\n", label, dir, tag, thr, p->impl, status,
               extra);
    fflush(stdout);
}

static void mode_p(const bench_run_opts *o, peer *p, int thr, tally *t)
{
    bench_fill_real(p->x, false, p->nx, 1);
    bench_fill_real(p->w, false, p->nw, 2);
    bench_fill_real(p->y, false, p->ny, 3);
    bench_fill_real(p->bias, false, p->d->oc, 4);
    if (!run_reorders(p, true) || !run_conv(p) || !run_reorders(p, false)) { /* warm-up */
        row(o, p, 'P', thr, NAN, NAN, NAN, "FAILED", p->err);
        t->failed++;
        return;
    }
    double best = INFINITY, rbest = INFINITY;
    bool any_reorder = count_reorders(p) > 0;
    for (int r = 0; r < o->rounds; r++) {
        bench_pause_ms(20);
        double x = bench_block_call_s(timed_conv, p, o->min_s, o->mean);
        if (x < best) best = x;
        if (any_reorder) {
            bench_pause_ms(20);
            x = bench_block_call_s(timed_reorders, p, o->min_s / 2, o->mean);
            if (x < rbest) rbest = x;
        }
    }
    row(o, p, 'P', thr, best * 1e3, conv_desc_flops(p->d) / best * 1e-9,
        any_reorder ? rbest * 1e3 : 0.0, "ok", "");
    t->ok++;
}

static void mode_c(const bench_run_opts *o, peer *p, int thr, tally *t)
{
    const bench_dir dir = p->job->s.dir;
    void *out = dir == BENCH_BWD_D ? p->x : dir == BENCH_BWD_W ? p->w : p->y;
    int64_t n = dir == BENCH_BWD_D ? p->nx : dir == BENCH_BWD_W ? p->nw : p->ny;
    float *ref = bench_alloc((size_t)n * sizeof(float));
    if (!ref) {
        snprintf(p->err, sizeof p->err, "out of memory");
        row(o, p, 'C', thr, NAN, NAN, NAN, "FAILED", p->err);
        t->failed++;
        return;
    }
    conv_layout lay;
    conv_layout_packed(p->d, p->job->s.nhwc, &lay);
    const bool approx = strstr(p->impl, "wino") != NULL;
    const double eps = 0x1p-24;
    double len = 1;
    for (int i = 0; i < p->d->nsp; i++)
        len *= dir == BENCH_BWD_W ? (double)p->d->out[i] : (double)p->d->k[i];
    len *= dir == BENCH_BWD_W   ? (double)p->d->mb
           : dir == BENCH_BWD_D ? (double)(p->d->oc / p->d->g)
                                : (double)(p->d->ic / p->d->g);
    double tol = o->tol >= 0 ? o->tol : 4 * eps * sqrt(len) + 4 * eps + (approx ? 1e-3 : 0.0);
    double err[2] = {NAN, NAN};
    bool ok = true;
    for (int pass = 0; pass < 2 && ok; pass++) {
        void *in[3] = {p->x, p->w, p->y};
        int64_t cnt[3] = {p->nx, p->nw, p->ny};
        for (int i = 0; i < 3; i++) {
            if (in[i] == out) continue;
            if (pass == 0)
                bench_fill_int(in[i], false, cnt[i], 1000 + 17 * (uint64_t)i, 2);
            else
                bench_fill_real(in[i], false, cnt[i], 1001 + 17 * (uint64_t)i);
        }
        if (pass == 0)
            bench_fill_int(p->bias, false, p->d->oc, 1099, 2);
        else
            bench_fill_real(p->bias, false, p->d->oc, 1100);
        bench_fill_nan(out, false, n);
        conv_oracle(p->d, &lay, dir, false, p->x, p->w, p->y, p->bias);
        memcpy(ref, out, (size_t)n * sizeof(float));
        bench_fill_nan(out, false, n);
        ok = run_reorders(p, true) && run_conv(p) && run_reorders(p, false);
        if (ok) err[pass] = bench_rel_err(out, ref, false, n);
    }
    free(ref);
    char extra[256];
    const char *status;
    if (!ok) {
        status = "FAILED";
        snprintf(extra, sizeof extra, "%.250s", p->err);
        t->failed++;
    } else {
        bool good = (approx || err[0] == 0) && err[1] <= tol;
        status = good ? "ok" : "FAILED";
        good ? t->ok++ : t->failed++;
        snprintf(extra, sizeof extra, "int_err=%.3g real_err=%.3g tol=%.3g ref=loop", err[0],
                 err[1], tol);
    }
    row(o, p, 'C', thr, NAN, NAN, NAN, status, extra);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: pdnn-bench-onednn [--mode=P|C] [--dir=FWD_D|FWD_B|BWD_D|BWD_W] "
                   "[--tag=nchw|nhwc] [--mb=N] [-t 1,2]\n"
                   "                         [-c] [-r ROUNDS] [-m SECONDS] [--timing=best|mean] "
                   "[--tol=X] [--csv]\n"
                   "                         [--list] [--index=I] [--batch=FILE] PROBLEM...\n"
                   "See bench/README.md.\n");
            return 0;
        }
    char err[1024];
    bench_tokens toks;
    if (bench_tokens_read(argc, argv, &toks, err, sizeof err)) {
        fprintf(stderr, "pdnn-bench-onednn: %s\n", err);
        return 2;
    }
    bench_run_opts o;
    bench_run_opts_default(&o);
    bench_job *jobs;
    int njobs;
    int rc = bench_parse_jobs(&toks, &o, NULL, NULL, &jobs, &njobs, err, sizeof err);
    bench_tokens_free(&toks);
    if (rc) {
        fprintf(stderr, "pdnn-bench-onednn: %s\n", err);
        return 2;
    }
    for (int j = 0; j < njobs; j++) {
        const char *why = jobs[j].s.dbl         ? "f64 (oneDNN computes f32 convolutions)"
                          : jobs[j].s.mode == 'B' ? "--mode=B (oneDNN's determinism is not "
                                                    "pdnn's to check; use P or C)"
                                                  : NULL;
        if (why) {
            fprintf(stderr, "pdnn-bench-onednn: %s: %s is not supported\n", jobs[j].origin, why);
            free(jobs);
            return 2;
        }
    }
    if (!njobs) {
        fprintf(stderr, "pdnn-bench-onednn: no problem given (see --help)\n");
        free(jobs);
        return 2;
    }
    if (o.index > njobs) {
        fprintf(stderr, "pdnn-bench-onednn: --index=%d but there are %d problems\n", o.index,
                njobs);
        free(jobs);
        return 2;
    }
    if (o.list) {
        for (int j = 0; j < njobs; j++) {
            char desc[160];
            conv_desc_str(&jobs[j].d, desc, sizeof desc);
            printf("%d %s %s %s\n", j + 1, bench_dir_name(jobs[j].s.dir), desc,
                   jobs[j].d.name[0] ? jobs[j].d.name : "-");
        }
        free(jobs);
        return 0;
    }
    if (o.index) {
        jobs[0] = jobs[o.index - 1];
        njobs = 1;
    }
    if (o.cpu_clock) bench_use_cpu_clock();

    peer p;
    memset(&p, 0, sizeof p);
    if (dn(&p, dnnl_engine_create(&p.eng, dnnl_cpu, 0), "engine_create") ||
        dn(&p, dnnl_stream_create(&p.strm, p.eng, dnnl_stream_default_flags), "stream_create")) {
        fprintf(stderr, "pdnn-bench-onednn: %s\n", p.err);
        free(jobs);
        return 1;
    }
    if (!o.csv) {
        char date[32], model[256];
        bench_date(date, sizeof date);
        bench_cpu_model(model, sizeof model);
        const dnnl_version_t *v = dnnl_version();
        printf("# pdnn-bench-onednn %s, oneDNN %d.%d.%d (%s runtime, isa %s), %d problem(s)\n",
               date, v->major, v->minor, v->patch, dnnl_runtime2str(v->cpu_runtime),
               dnnl_cpu_isa2str(dnnl_get_effective_cpu_isa()), njobs);
        printf("# cpu: %s, %ld online\n", model, sysconf(_SC_NPROCESSORS_ONLN));
        bool timed = false; /* the timing lines only where mode P runs */
        for (int j = 0; j < njobs; j++) timed = timed || jobs[j].s.mode == 'P';
        if (timed) {
            printf("# P: %s of %d rounds x blocks >= %.2f s (%s); load average at "
                   "start %.2f\n",
                   o.mean ? "best block mean per call" : "best single call", o.rounds,
                   o.min_s, bench_cpu_clock() ? "thread CPU clock" : "wall clock",
                   bench_load1());
            printf("# ms: the primitive alone; reorder ms: one pass of the n reorders from/to "
                   "the plain layout; algorithm convolution_auto\n");
        }
    }
    tally t = {0, 0, 0};
    char shown_mode = 0;
    for (int j = 0; j < njobs; j++) {
        const bench_job *job = &jobs[j];
        if (!o.csv && job->s.mode != shown_mode) {
            shown_mode = job->s.mode;
            if (shown_mode == 'P')
                printf("%-34s %-5s %-4s %3s %-26s %10s %9s %10s %2s %8s %5s\n", "# problem", "dir",
                       "tag", "thr", "impl", "ms", "GFLOP/s", "reorder ms", "n", "scr MiB", "load");
            else
                printf("%-34s %-5s %-4s %3s %-26s %-8s %s\n", "# problem", "dir", "tag", "thr",
                       "impl", "status", "errors (relative L2) vs the loop oracle");
        }
        p.job = job;
        p.d = &job->d;
        p.nx = conv_desc_nx(p.d);
        p.nw = conv_desc_nw(p.d);
        p.ny = conv_desc_ny(p.d);
        p.x = bench_alloc((size_t)p.nx * sizeof(float));
        p.w = bench_alloc((size_t)p.nw * sizeof(float));
        p.y = bench_alloc((size_t)p.ny * sizeof(float));
        p.bias = bench_alloc((size_t)p.d->oc * sizeof(float));
        int nthr = job->s.mode == 'C' ? 1 : job->s.nthreads;
        for (int ti = 0; ti < nthr; ti++) {
            /* C: the largest thread count given */
            int thr = job->s.threads[ti];
            if (job->s.mode == 'C')
                for (int i = 0; i < job->s.nthreads; i++)
                    if (job->s.threads[i] > thr) thr = job->s.threads[i];
            omp_set_num_threads(thr);
            snprintf(p.impl, sizeof p.impl, "-");
            if (!p.x || !p.w || !p.y || !p.bias) {
                snprintf(p.err, sizeof p.err, "out of memory");
                row(&o, &p, job->s.mode, thr, NAN, NAN, NAN, "FAILED", p.err);
                t.failed++;
            } else if (!peer_setup(&p)) {
                row(&o, &p, job->s.mode, thr, NAN, NAN, NAN,
                    strstr(p.err, "unimplemented") ? "skipped" : "FAILED", p.err);
                strstr(p.err, "unimplemented") ? t.skipped++ : t.failed++;
            } else if (job->s.mode == 'C') {
                mode_c(&o, &p, thr, &t);
            } else {
                mode_p(&o, &p, thr, &t);
            }
            peer_free(&p);
        }
        free(p.x);
        free(p.w);
        free(p.y);
        free(p.bias);
    }
    dnnl_stream_destroy(p.strm);
    dnnl_engine_destroy(p.eng);
    if (!o.csv)
        printf("# runs: %d ok, %d skipped (unimplemented), %d failed\n", t.ok, t.skipped,
               t.failed);
    free(jobs);
    return t.failed ? 1 : 0;
}
