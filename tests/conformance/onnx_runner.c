/* ONNX node conformance: runs the node tests of Debian's libonnx-testdata
 * (<dir>/<case>/model.onnx + test_data_set_N/{input,output}_K.pb) through pdnn and
 * compares with the expected outputs as ONNX's backend tests do.
 *
 *   onnx_runner [--data DIR] [--case NAME]... [--by-op] [--threads N] [--dump] [-v]
 *               [family]...
 *
 * Families select cases by name: conv convtranspose pool activation softmax reduce
 * elementwise (default: all). --by-op selects instead every case of DIR whose graph
 * has at least one mapped op (for data/pytorch-converted and data/pytorch-operator,
 * whose older opsets exercise e.g. Softmax's flatten-from-axis semantics). Each case
 * prints PASS, FAIL or UNMAPPED with a reason; the last line is "N passed, N failed
 * (N unmapped)"; the exit status is non-zero when a case failed or nothing ran. A case that maps onto pdnn and then fails (a pdnn error,
 * a wrong shape or wrong values) is a FAIL, never a skip. Conv and ConvTranspose run
 * every algorithm the library accepts for the problem, each compared with the
 * expected output. Every case runs three times: with 1 thread, with N threads (default
 * 3) whose outputs must be bitwise those of 1 thread, and, for float cases, with the
 * inputs promoted to DOUBLE (outputs rounded to float and compared the same way).
 *
 * Cases that cannot map, and why (the runner prints the same reasons):
 *
 *   case(s)                                   reason
 *   ----------------------------------------  ---------------------------------------
 *   node/test_basic_convinteger,              ConvInteger: uint8/int8 arithmetic, not
 *   node/test_convinteger_with(out)_padding   in the mapped list
 *   node/test_maxpool_with_argmax_2d_         MaxPool's Indices output (storage_order
 *   precomputed_{pads,strides}                0 and 1): pdnn pooling returns no argmax
 *   node/test_maxpool_2d_uint8,               integer element types: pdnn computes
 *   node/test_{add,mul}_uint8,                FLOAT and DOUBLE only
 *   node/test_{min,max}_{int8,int16,int32,
 *   int64,uint8,uint16,uint32,uint64},
 *   pytorch-operator/test_operator_non_
 *   float_params (int64 Add)
 *   node/test_{min,max}_float16               float16: pdnn ops return
 *                                             NOT_SUPPORTED_DATA_TYPE for HALF
 *   node/test_{softmax,logsoftmax}_*_expanded function bodies using Sub, Exp, Div, Log,
 *                                             outside the mapped list
 *   pytorch-converted/test_GLU, _GLU_dim,     Split, Exp, Sub, Neg, Abs, Div: outside
 *   _PoissonNLLLLoss_no_reduce, _Softmin,     the mapped list
 *   _Softsign; pytorch-operator/test_
 *   operator_basic, _params
 *
 * Besides the listed ops, Constant, Identity, Squeeze and Unsqueeze run as graph
 * plumbing (copies, no pdnn call) so that small graphs such as pytorch-converted's 1-d
 * pools (Unsqueeze -> AveragePool -> Squeeze) map.
 */
#define _POSIX_C_SOURCE 200809L /* strdup, opendir, stat */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "onnx_load.h"
#include "onnx_ops.h"

#define DEFAULT_DATA "/usr/share/libonnx-testdata/data/node"

static const struct {
    const char *family;
    const char *prefixes[10];
} families[] = {
    {"conv", {"test_basic_conv", "test_conv", "test_basic_convinteger", "test_convinteger"}},
    {"convtranspose", {"test_convtranspose"}},
    {"pool", {"test_maxpool", "test_averagepool", "test_globalaveragepool",
              "test_globalmaxpool"}},
    {"activation", {"test_relu", "test_sigmoid", "test_tanh", "test_elu"}},
    {"softmax", {"test_softmax", "test_logsoftmax"}},
    {"reduce", {"test_reduce_sum", "test_reduce_mean", "test_reduce_max", "test_reduce_min",
                "test_reduce_prod", "test_reduce_l1", "test_reduce_l2"}},
    {"elementwise", {"test_add", "test_mul", "test_min", "test_max", "test_sqrt"}},
};
#define NFAM ((int)(sizeof families / sizeof families[0]))

static int verbose, dump, by_op;
static int many_threads = 3; /* the multi-thread pass (odd: uneven partitions) */
#define MAX_VARIANTS 16       /* algorithms per op at most */

/* name is the prefix itself or the prefix followed by '_' */
static int has_prefix(const char *name, const char *p)
{
    size_t n = strlen(p);
    return !strncmp(name, p, n) && (name[n] == '\0' || name[n] == '_');
}

static int family_of(const char *name)
{
    for (int f = 0; f < NFAM; f++)
        for (int i = 0; i < 10 && families[f].prefixes[i]; i++)
            if (has_prefix(name, families[f].prefixes[i])) return f;
    return -1;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* ---- the values of a graph run: name -> tensor */
typedef struct {
    ox_tensor *v;
    int n, cap;
} value_map;

static ox_tensor *lookup(value_map *m, const char *name)
{
    for (int i = m->n - 1; i >= 0; i--)
        if (!strcmp(m->v[i].name, name)) return &m->v[i];
    return NULL;
}

static int put(value_map *m, const ox_tensor *t, const char *name)
{
    if (m->n == m->cap) {
        int nc = m->cap ? 2 * m->cap : 16;
        ox_tensor *nv = realloc(m->v, (size_t)nc * sizeof *nv);
        if (!nv) return -1;
        m->v = nv;
        m->cap = nc;
    }
    m->v[m->n] = *t;
    snprintf(m->v[m->n].name, sizeof m->v[m->n].name, "%s", name);
    m->n++;
    return 0;
}

static void clear_map(value_map *m, int keep)
{
    for (int i = keep; i < m->n; i++) ox_free_tensor(&m->v[i]);
    m->n = keep;
}

/* ---- comparison */
static void shape_str(char *buf, size_t len, const ox_tensor *t)
{
    size_t o = (size_t)snprintf(buf, len, "[");
    for (int i = 0; i < t->rank && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, i ? ",%lld" : "%lld", (long long)t->dims[i]);
    if (o < len) snprintf(buf + o, len - o, "]");
}

static double elem(const ox_tensor *t, size_t i)
{
    if (t->dtype == OX_DOUBLE) return ((const double *)t->data)[i];
    if (t->dtype == OX_INT64) return (double)((const int64_t *)t->data)[i];
    return ((const float *)t->data)[i];
}

static int compare(const ox_tensor *want, const ox_tensor *got, double rtol, double atol,
                   char *why, size_t len)
{
    char a[128], b[128];
    shape_str(a, sizeof a, want);
    shape_str(b, sizeof b, got);
    if (want->dtype != got->dtype) {
        snprintf(why, len, "output '%s': type %s, expected %s", want->name,
                 ox_dtype_name(got->dtype), ox_dtype_name(want->dtype));
        return -1;
    }
    int same = want->rank == got->rank;
    for (int i = 0; same && i < want->rank; i++) same = want->dims[i] == got->dims[i];
    if (!same) {
        snprintf(why, len, "output '%s': shape %s, expected %s", want->name, b, a);
        return -1;
    }
    size_t bad = 0, worst = 0;
    double worst_excess = -1;
    for (size_t i = 0; i < want->count; i++) {
        double w = elem(want, i), g = elem(got, i);
        int ok;
        if (isnan(w) || isnan(g))
            ok = isnan(w) && isnan(g);
        else if (isinf(w) || isinf(g))
            ok = w == g;
        else
            ok = fabs(g - w) <= atol + rtol * fabs(w);
        if (!ok) {
            double excess = isnan(g) || isinf(g) ? INFINITY : fabs(g - w) - rtol * fabs(w);
            if (bad == 0 || excess > worst_excess) worst = i, worst_excess = excess;
            bad++;
        }
    }
    if (bad) {
        snprintf(why, len,
                 "output '%s' %s: %zu of %zu elements off (rtol %g, atol %g); worst at "
                 "flat index %zu: expected %.9g, got %.9g",
                 want->name, a, bad, want->count, rtol, atol, worst, elem(want, worst),
                 elem(got, worst));
        return -1;
    }
    return 0;
}

/* ---- one model */
static void dump_model(const ox_model *m)
{
    const Onnx__GraphProto *g = m->proto->graph;
    printf("  opset %lld, %zu node(s)\n", (long long)m->opset, g->n_node);
    for (size_t i = 0; i < g->n_node; i++) {
        const Onnx__NodeProto *n = g->node[i];
        printf("  node %s:", n->op_type);
        for (size_t a = 0; a < n->n_attribute; a++) {
            const Onnx__AttributeProto *at = n->attribute[a];
            printf(" %s=", at->name);
            if (at->n_ints) {
                for (size_t k = 0; k < at->n_ints; k++)
                    printf(k ? ",%lld" : "%lld", (long long)at->ints[k]);
            } else if (at->has_s) {
                printf("'%.*s'", (int)at->s.len, (const char *)at->s.data);
            } else if (at->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT) {
                printf("%g", at->f);
            } else {
                printf("%lld", (long long)at->i);
            }
        }
        printf("  in:");
        for (size_t k = 0; k < n->n_input; k++) printf(" '%s'", n->input[k]);
        printf("  out:");
        for (size_t k = 0; k < n->n_output; k++) printf(" '%s'", n->output[k]);
        printf("\n");
    }
}

static int is_initializer(const Onnx__GraphProto *g, const char *name)
{
    for (size_t i = 0; i < g->n_initializer; i++)
        if (g->initializer[i]->name && !strcmp(g->initializer[i]->name, name)) return 1;
    return 0;
}

/* Runs the graph once with one variant. OX_OK when outputs are in vals. */
static ox_result run_graph(const ox_model *m, ox_ctx *ctx, value_map *vals, char *why,
                           size_t len, char *variant_desc, size_t vlen)
{
    const Onnx__GraphProto *g = m->proto->graph;
    for (size_t ni = 0; ni < g->n_node; ni++) {
        const Onnx__NodeProto *n = g->node[ni];
        ox_tensor *in[16], out[4];
        int n_in = (int)n->n_input, n_out = 0;
        if (n_in > 16) {
            snprintf(why, len, "node with %d inputs", n_in);
            return OX_UNMAPPED;
        }
        for (int k = 0; k < n_in; k++) {
            in[k] = NULL;
            if (!n->input[k][0]) continue; /* absent optional input */
            if (!(in[k] = lookup(vals, n->input[k]))) {
                snprintf(why, len, "node %s: input '%s' has no value", n->op_type,
                         n->input[k]);
                return OX_FAIL;
            }
        }
        for (size_t k = 0; k < n->n_output; k++)
            if (n->output[k][0]) n_out = (int)k + 1;
        if (n_out > 4) {
            snprintf(why, len, "node with %d outputs", n_out);
            return OX_UNMAPPED;
        }
        char nwhy[1024];
        ox_result r = ox_run_node(ctx, n, in, n_in, out, n_out, nwhy, sizeof nwhy);
        if (r != OX_OK) {
            snprintf(why, len, "%s: %s", n->op_type, nwhy);
            return r;
        }
        if (ctx->variant_name[0]) snprintf(variant_desc, vlen, "%s", ctx->variant_name);
        for (int k = 0; k < n_out; k++) {
            if (put(vals, &out[k], n->output[k])) {
                for (int j = k; j < n_out; j++) ox_free_tensor(&out[j]);
                snprintf(why, len, "out of memory");
                return OX_FAIL;
            }
        }
    }
    return OX_OK;
}

typedef enum { R_PASS, R_FAIL, R_UNMAPPED, R_NOT_SELECTED } case_result;

/* FLOAT -> DOUBLE in place (the second pass runs every float case in double too) */
static int promote(ox_tensor *t)
{
    if (t->dtype != OX_FLOAT) return 0;
    double *d = malloc(t->count ? t->count * sizeof *d : 1);
    if (!d) return -1;
    for (size_t i = 0; i < t->count; i++) d[i] = ((const float *)t->data)[i];
    free(t->data);
    t->data = d;
    t->dtype = OX_DOUBLE;
    return 0;
}

/* DOUBLE -> FLOAT in place, rounding once */
static int demote(ox_tensor *t)
{
    if (t->dtype != OX_DOUBLE) return 0;
    float *f = malloc(t->count ? t->count * sizeof *f : 1);
    if (!f) return -1;
    for (size_t i = 0; i < t->count; i++) f[i] = (float)((const double *)t->data)[i];
    free(t->data);
    t->data = f;
    t->dtype = OX_FLOAT;
    return 0;
}

/* Initializers, then input_K.pb into the K-th graph input that is not an initializer. */
static int load_inputs(const Onnx__GraphProto *g, const char *dir, const char *name, int ds,
                       int in_double, value_map *vals, char *why, size_t len)
{
    char path[4096];
    for (size_t i = 0; i < g->n_initializer; i++) {
        ox_tensor t;
        if (ox_tensor_from_proto(g->initializer[i], &t, why, len)) return -1;
        if ((in_double && promote(&t)) || put(vals, &t, g->initializer[i]->name)) {
            ox_free_tensor(&t);
            snprintf(why, len, "out of memory");
            return -1;
        }
    }
    int k = 0;
    for (size_t i = 0; i < g->n_input; i++) {
        const char *iname = g->input[i]->name;
        if (is_initializer(g, iname)) continue;
        snprintf(path, sizeof path, "%s/%s/test_data_set_%d/input_%d.pb", dir, name, ds, k);
        k++;
        if (!file_exists(path)) continue;
        ox_tensor t;
        if (ox_load_tensor(path, &t, why, len)) return -1;
        if ((in_double && promote(&t)) || put(vals, &t, iname)) {
            ox_free_tensor(&t);
            snprintf(why, len, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* Compares every graph output with output_K.pb; 0 when all match. */
static int check_outputs(const Onnx__GraphProto *g, const char *dir, const char *name, int ds,
                         value_map *vals, bool inexact, char *why, size_t len)
{
    char path[4096];
    double rtol = 0, atol = 0;
    for (size_t i = 0; i < g->n_node; i++) { /* the loosest tolerance of the graph's ops */
        double rt, at;
        ox_tolerance(g->node[i]->op_type, 0, &rt, &at);
        if (rt > rtol) rtol = rt;
        if (at > atol) atol = at;
    }
    for (size_t o = 0; o < g->n_output; o++) {
        snprintf(path, sizeof path, "%s/%s/test_data_set_%d/output_%zu.pb", dir, name, ds, o);
        ox_tensor want, *got = lookup(vals, g->output[o]->name);
        if (ox_load_tensor(path, &want, why, len)) return -1;
        snprintf(want.name, sizeof want.name, "%s", g->output[o]->name);
        int bad;
        if (!got) {
            snprintf(why, len, "no value for output '%s'", want.name);
            bad = -1;
        } else {
            /* a double run of a float case is rounded to float, then compared */
            if (want.dtype == OX_FLOAT && got->dtype == OX_DOUBLE && demote(got)) {
                ox_free_tensor(&want);
                snprintf(why, len, "out of memory");
                return -1;
            }
            double at = atol;
            if (inexact) { /* a transform algorithm: atol scaled to the outputs */
                double mx = 0;
                for (size_t i = 0; i < want.count; i++)
                    if (fabs(elem(&want, i)) > mx) mx = fabs(elem(&want, i));
                at = ox_inexact_atol(atol, mx);
            }
            bad = compare(&want, got, rtol, at, why, len);
        }
        ox_free_tensor(&want);
        if (bad) return -1;
    }
    return 0;
}

/* Copies the graph outputs of a 1-thread run (to compare the multi-thread run with). */
static int keep_outputs(const Onnx__GraphProto *g, value_map *vals, value_map *dst)
{
    clear_map(dst, 0);
    for (size_t o = 0; o < g->n_output; o++) {
        const ox_tensor *t = lookup(vals, g->output[o]->name);
        if (!t) continue;
        ox_tensor c = *t;
        size_t bytes = t->count * (t->dtype == OX_FLOAT ? 4 : 8);
        if (!(c.data = malloc(bytes ? bytes : 1))) return -1;
        if (bytes) memcpy(c.data, t->data, bytes);
        if (put(dst, &c, t->name)) {
            free(c.data);
            return -1;
        }
    }
    return 0;
}

/* True when every graph output is bitwise what the 1-thread run gave. */
static int same_bits(const Onnx__GraphProto *g, value_map *vals, value_map *ref, char *why,
                     size_t len)
{
    for (size_t o = 0; o < g->n_output; o++) {
        const ox_tensor *t = lookup(vals, g->output[o]->name);
        const ox_tensor *r = lookup(ref, g->output[o]->name);
        if (!t || !r) continue;
        size_t es = t->dtype == OX_FLOAT ? 4 : 8;
        for (size_t i = 0; i < t->count; i++) {
            if (memcmp((const char *)t->data + i * es, (const char *)r->data + i * es, es)) {
                snprintf(why, len, "output '%s' with %d threads differs bitwise from 1 "
                         "thread at flat index %zu: %.9g vs %.9g", t->name, many_threads, i,
                         elem(t, i), elem(r, i));
                return 0;
            }
        }
    }
    return 1;
}

static int has_float_input(const value_map *vals, int n)
{
    for (int i = 0; i < n; i++)
        if (vals->v[i].dtype == OX_FLOAT) return 1;
    return 0;
}

static case_result run_case(pdnnHandle_t h, const char *dir, const char *name)
{
    char path[4096], why[2048] = "", note[512] = "", tag[96] = "";
    ox_model m;
    value_map vals = {0}, one_thread[MAX_VARIANTS] = {{0}};
    case_result res = R_PASS;
    size_t no = 0;
    snprintf(path, sizeof path, "%s/%s/model.onnx", dir, name);
    if (by_op && !file_exists(path)) return R_NOT_SELECTED;
    if (ox_load_model(path, &m, why, sizeof why)) {
        printf("FAIL     %-52s %s\n", name, why);
        return R_FAIL;
    }
    const Onnx__GraphProto *g = m.proto->graph;
    if (by_op) { /* --by-op: only models with at least one mapped op */
        int known = 0;
        for (size_t i = 0; i < g->n_node; i++)
            known |= ox_op_known(g->node[i]->op_type) && !ox_op_is_plumbing(g->node[i]->op_type);
        if (!known) {
            ox_free_model(&m);
            return R_NOT_SELECTED;
        }
    }
    if (dump) {
        printf("%s:\n", name);
        dump_model(&m);
    }
    /* a node outside the list makes the whole case unmapped, whatever its data */
    char ops[512] = "";
    size_t o = 0;
    for (size_t k = 0; k < g->n_node && o < sizeof ops; k++)
        if (!ox_op_known(g->node[k]->op_type) && !strstr(ops, g->node[k]->op_type))
            o += (size_t)snprintf(ops + o, sizeof ops - o, "%s%s", o ? " " : "",
                                  g->node[k]->op_type);
    if (o) {
        snprintf(why, sizeof why, "%zu-node graph uses %s, outside the mapped list",
                 g->n_node, ops);
        res = R_UNMAPPED;
        goto out;
    }
    int sets = 0;
    for (int ds = 0;; ds++) {
        snprintf(path, sizeof path, "%s/%s/test_data_set_%d", dir, name, ds);
        if (!file_exists(path)) break;
        sets++;
        /* pass 0: the case's own types, 1 thread; pass 1: the same with several
         * threads, bitwise equal to pass 0; pass 2: float inputs promoted to double */
        int any_float = 0;
        for (int pass = 0; pass < 3; pass++) {
            if (pass == 2 && !any_float) break;
            if (pdnnSetNumThreads(h, pass ? many_threads : 1) != PDNN_STATUS_SUCCESS) {
                snprintf(why, sizeof why, "pdnnSetNumThreads failed");
                res = R_FAIL;
                goto out;
            }
            clear_map(&vals, 0);
            if (load_inputs(g, dir, name, ds, pass == 2, &vals, why, sizeof why)) {
                res = R_FAIL;
                goto out;
            }
            int base = vals.n;
            if (pass == 0) any_float = has_float_input(&vals, base);
            const char *prec = pass == 2 ? "double" : pass == 1 ? "threads" : "";
            /* variants (algorithms): each one's outputs checked */
            int ran = 0;
            for (int v = 0; v < MAX_VARIANTS; v++) {
                ox_ctx ctx = {.handle = h, .opset = m.opset, .variant = v};
                char vdesc[64] = "";
                clear_map(&vals, base);
                ox_result r = run_graph(&m, &ctx, &vals, why, sizeof why, vdesc, sizeof vdesc);
                snprintf(tag, sizeof tag, "%s%s%s", prec,
                         prec[0] && ctx.variant_name[0] ? " " : "", ctx.variant_name);
                if (r == OX_VARIANT_END) break;
                if (r == OX_VARIANT_SKIP) {
                    if (verbose) printf("  %s: [%s] not supported\n", name, tag);
                    continue;
                }
                if (r == OX_UNMAPPED) {
                    res = R_UNMAPPED;
                    goto out;
                }
                if (r != OX_OK || check_outputs(g, dir, name, ds, &vals, ctx.inexact, why, sizeof why)) {
                    res = R_FAIL;
                    goto out;
                }
                if (pass == 0 && keep_outputs(g, &vals, &one_thread[v])) {
                    snprintf(why, sizeof why, "out of memory");
                    res = R_FAIL;
                    goto out;
                }
                if (pass == 1 && !same_bits(g, &vals, &one_thread[v], why, sizeof why)) {
                    res = R_FAIL;
                    goto out;
                }
                ran++;
                if (pass == 0 && ctx.variant_name[0] && no < sizeof note)
                    no += (size_t)snprintf(note + no, sizeof note - no, "%s%s",
                                           no ? " " : "algos ", ctx.variant_name);
            }
            if (!ran) {
                snprintf(why, sizeof why, "no algorithm of the library supports the problem "
                                          "(every one returned NOT_SUPPORTED)");
                res = R_FAIL;
                goto out;
            }
            if (pass == 2 && ds == 0 && no < sizeof note)
                no += (size_t)snprintf(note + no, sizeof note - no, "%sfloat+double",
                                       no ? "; " : "");
        }
        for (int v = 0; v < MAX_VARIANTS; v++) clear_map(&one_thread[v], 0);
    }
    if (!sets) {
        snprintf(why, sizeof why, "no test_data_set_N folder");
        res = R_FAIL;
    }
    tag[0] = '\0';
out:
    if (res == R_PASS)
        printf("PASS     %-52s %s\n", name, note);
    else
        printf("%-8s %-52s %s%s%s%s\n", res == R_FAIL ? "FAIL" : "UNMAPPED", name,
               tag[0] ? "[" : "", tag, tag[0] ? "] " : "", why);
    clear_map(&vals, 0);
    free(vals.v);
    for (int v = 0; v < MAX_VARIANTS; v++) {
        clear_map(&one_thread[v], 0);
        free(one_thread[v].v);
    }
    ox_free_model(&m);
    return res;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    const char *dir = DEFAULT_DATA;
    int want_fam[NFAM] = {0}, any_fam = 0, ncases = 0;
    const char *cases[64];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--data") && i + 1 < argc) {
            dir = argv[++i];
        } else if (!strcmp(argv[i], "--case") && i + 1 < argc && ncases < 64) {
            cases[ncases++] = argv[++i];
        } else if (!strcmp(argv[i], "-v")) {
            verbose = 1;
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            many_threads = atoi(argv[++i]);
            if (many_threads < 1) many_threads = 1;
        } else if (!strcmp(argv[i], "--by-op")) {
            by_op = 1;
        } else if (!strcmp(argv[i], "--dump")) {
            dump = verbose = 1;
        } else {
            int f;
            for (f = 0; f < NFAM; f++)
                if (!strcmp(argv[i], families[f].family)) break;
            if (f == NFAM) {
                fprintf(stderr, "usage: %s [--data DIR] [--case NAME]... [--by-op] "
                                "[--threads N] [--dump] [-v] [family]...\nfamilies:",
                        argv[0]);
                for (f = 0; f < NFAM; f++) fprintf(stderr, " %s", families[f].family);
                fprintf(stderr, "\n");
                return 2;
            }
            want_fam[f] = any_fam = 1;
        }
    }
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "onnx_runner: cannot open %s (Debian package libonnx-testdata)\n", dir);
        return 2;
    }
    char **names = NULL;
    size_t nn = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        int sel = 0;
        if (ncases) {
            for (int i = 0; i < ncases; i++) sel |= !strcmp(cases[i], e->d_name);
        } else if (by_op) {
            sel = 1;
        } else {
            int f = family_of(e->d_name);
            sel = f >= 0 && (!any_fam || want_fam[f]);
        }
        if (!sel) continue;
        if (nn == cap) {
            cap = cap ? 2 * cap : 256;
            char **nv = realloc(names, cap * sizeof *nv);
            if (!nv) return 2;
            names = nv;
        }
        if (!(names[nn++] = strdup(e->d_name))) return 2;
    }
    closedir(d);
    qsort(names, nn, sizeof *names, cmp_names);

    pdnnHandle_t h;
    if (pdnnCreate(&h) != PDNN_STATUS_SUCCESS) {
        fprintf(stderr, "onnx_runner: pdnnCreate failed\n");
        return 2;
    }
    int passed = 0, failed = 0, unmapped = 0, ran = 0;
    for (size_t i = 0; i < nn; i++) {
        case_result r = run_case(h, dir, names[i]);
        passed += r == R_PASS;
        failed += r == R_FAIL;
        unmapped += r == R_UNMAPPED;
        ran += r != R_NOT_SELECTED;
        free(names[i]);
    }
    free(names);
    pdnnDestroy(h);
    printf("%d passed, %d failed (%d unmapped)\n", passed, failed, unmapped);
    if (!ran) fprintf(stderr, "onnx_runner: no case selected in %s\n", dir);
    return failed || !ran ? 1 : 0;
}
