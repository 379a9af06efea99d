/* benchdnn-style convolution descriptors, batch files and settings for the bench
 * drivers (see conv_desc_parse.h for the rules). */
#include "conv_desc_parse.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int fail(char *err, size_t errn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errn, fmt, ap);
    va_end(ap);
    return -1;
}

/* ------------------------------------------------------------------ descriptor */

enum { E_I, E_O, E_K, E_S, E_P, E_D, E_COUNT }; /* per spatial slot d/h/w */

/* The descriptor while parsing: benchdnn's three slots d, h, w, unset = -1. */
typedef struct {
    int64_t g, mb, ic, oc;
    int64_t v[3][E_COUNT];
} raw_desc;

static const char *const slot_letter = "dhw";
static const char *const entry_letter = "iokspd";

static int64_t ext_kernel(int64_t k, int64_t d) { return (k - 1) * (d + 1) + 1; }

int conv_desc_parse(const char *str, conv_desc *out, char *err, size_t errn)
{
    raw_desc r;
    r.g = r.mb = r.ic = r.oc = -1;
    for (int s = 0; s < 3; s++)
        for (int e = 0; e < E_COUNT; e++) r.v[s][e] = -1;
    char name[CONV_DESC_NAME_MAX] = "";

    const char *p = str;
    char key_dt = 0, key_dir = 0;
    int key_layout = 0; /* bits: 1 _wkrsc, 2 _xnhwc, 4 _ynhwc */
    while (*p) {
        if (*p == '_') {
            p++;
            continue;
        }
        if (p > str && p[-1] == '_') { /* a tag of pdnn's problem key? */
            static const char *const tags[] = {"f32",   "f64",   "fwd",   "bwd_d", "bwd_w",
                                               "wkrsc", "xnhwc", "ynhwc", NULL};
            int tag = -1;
            size_t tl = 0;
            for (int i = 0; tags[i]; i++) {
                tl = strlen(tags[i]);
                if (!strncmp(p, tags[i], tl) && (p[tl] == '_' || !p[tl])) {
                    tag = i;
                    break;
                }
            }
            if (tag >= 0) {
                /* each kind of tag at most once (a second one, even a different type or
                 * direction, would silently win) */
                if ((tag <= 1 && key_dt) || (tag >= 2 && tag <= 4 && key_dir) ||
                    (tag >= 5 && (key_layout & (1 << (tag - 5)))))
                    return fail(err, errn, "the key tag '_%s' repeats a type, direction or "
                                "layout tag given before", tags[tag]);
                if (tag <= 1) key_dt = tag == 0 ? 's' : 'd';
                else if (tag <= 4) key_dir = "fdw"[tag - 2];
                else key_layout |= 1 << (tag - 5);
                p += tl;
                continue;
            }
            if (!strncmp(p, "acc", 3) || !strncmp(p, "flip", 4) || !strncmp(p, "xs", 2) ||
                !strncmp(p, "ys", 2))
                return fail(err, errn, "the pdnn key tag '_%.*s' cannot be replayed (pdnn-bench "
                            "runs cross-correlation, accumulates in the data type, packed NCHW "
                            "or NHWC tensors)", (int)strcspn(p, "_"), p);
        }
        if (*p == 'n') { /* the name: the rest of the string */
            const char *b = p + 1, *e = b + strlen(b);
            if (e - b >= 2 && *b == '"' && e[-1] == '"') {
                b++;
                e--;
            } else if (e > b && (*b == '"' || e[-1] == '"')) {
                return fail(err, errn, "name %s has an unmatched quote (n\"NAME\" or nNAME)",
                            p + 1);
            }
            if (e - b >= (ptrdiff_t)sizeof name)
                return fail(err, errn, "name '%s' longer than %d characters", p + 1,
                            CONV_DESC_NAME_MAX - 1);
            memcpy(name, b, (size_t)(e - b));
            name[e - b] = 0;
            break;
        }
        int64_t *dst = NULL;
        int len = 2;
        if (*p == 'g') {
            dst = &r.g;
            len = 1;
        } else if (!strncmp(p, "mb", 2)) {
            dst = &r.mb;
        } else if (!strncmp(p, "ic", 2)) {
            dst = &r.ic;
        } else if (!strncmp(p, "oc", 2)) {
            dst = &r.oc;
        } else {
            const char *el = strchr(entry_letter, p[0]);
            const char *sl = p[0] ? strchr(slot_letter, p[1]) : NULL;
            if (el && sl && p[1]) dst = &r.v[sl - slot_letter][el - entry_letter];
        }
        if (!dst)
            return fail(err, errn, "unknown entry at '%s' (expected g mb ic oc, i/o/k/s/p/d "
                        "followed by d/h/w, or n<name>)", p);
        char key[3] = {p[0], len == 2 ? p[1] : 0, 0};
        p += len;
        if (!isdigit((unsigned char)*p))
            return fail(err, errn, "'%s' must be followed by a non-negative integer", key);
        errno = 0;
        char *end;
        long long v = strtoll(p, &end, 10);
        if (errno || v > ((long long)1 << 40))
            return fail(err, errn, "'%s%.*s' is out of range", key, (int)(end - p), p);
        if (*dst != -1) return fail(err, errn, "'%s' given twice", key);
        *dst = v;
        p = end;
    }

    /* which slots are present: any i/o/k/d entry, a stride != 1 or a pad >= 1 */
    bool present[3];
    for (int s = 0; s < 3; s++) {
        int64_t *v = r.v[s];
        present[s] = v[E_I] > 0 || v[E_O] > 0 || v[E_K] > 0 || v[E_D] > 0 ||
                     (v[E_S] != -1 && v[E_S] != 1) || v[E_P] >= 1;
    }
    for (int s = 0; s < 3; s++) {
        int64_t *v = r.v[s];
        if (!present[s]) continue;
        char c = slot_letter[s];
        if (v[E_I] <= 0 || v[E_K] <= 0)
            return fail(err, errn, "the %c dimension needs i%c and k%c (both >= 1)", c, c, c);
        if (v[E_S] == -1) v[E_S] = 1;
        if (v[E_D] == -1) v[E_D] = 0;
        if (v[E_S] < 1) return fail(err, errn, "s%c must be >= 1", c);
        int64_t ext = ext_kernel(v[E_K], v[E_D]);
        if (v[E_O] <= 0) {
            if (v[E_P] < 0) v[E_P] = 0;
            int64_t num = v[E_I] - ext + 2 * v[E_P];
            if (num < 0)
                return fail(err, errn, "the %c kernel (extent %lld with dilation) is larger than "
                            "the padded input (%lld)", c, (long long)ext,
                            (long long)(v[E_I] + 2 * v[E_P]));
            v[E_O] = num / v[E_S] + 1;
        } else if (v[E_P] < 0) {
            int64_t pp = ((v[E_O] - 1) * v[E_S] - v[E_I] + ext) / 2;
            v[E_P] = pp < 0 ? 0 : pp;
        }
    }
    int nsp;
    if (present[0]) {
        if (present[1] != present[2])
            return fail(err, errn, "a 3-d problem gives both the h and w entries or neither");
        if (!present[1])
            for (int e = 0; e < E_COUNT; e++) r.v[1][e] = r.v[2][e] = r.v[0][e];
        nsp = 3;
    } else if (present[1]) {
        if (!present[2])
            for (int e = 0; e < E_COUNT; e++) r.v[2][e] = r.v[1][e];
        nsp = 2;
    } else if (present[2]) {
        nsp = 1;
    } else {
        return fail(err, errn, "no spatial size: give ih and kh (or iw/kw, id/kd)");
    }

    conv_desc d;
    memset(&d, 0, sizeof d);
    d.has_g = r.g != -1;
    d.g = r.g == -1 ? 1 : r.g;
    d.mb = r.mb == -1 ? 2 : r.mb;
    d.ic = r.ic;
    d.oc = r.oc;
    d.nsp = nsp;
    if (d.g < 1) return fail(err, errn, "g must be >= 1");
    if (d.mb < 1) return fail(err, errn, "mb must be >= 1");
    if (d.ic < 1 || d.oc < 1) return fail(err, errn, "ic and oc are required (>= 1)");
    if (d.ic % d.g || d.oc % d.g)
        return fail(err, errn, "ic=%lld and oc=%lld must be multiples of g=%lld",
                    (long long)d.ic, (long long)d.oc, (long long)d.g);
    for (int i = 0; i < nsp; i++) {
        int s = 3 - nsp + i;
        int64_t *v = r.v[s];
        char c = slot_letter[s];
        d.in[i] = v[E_I];
        d.out[i] = v[E_O];
        d.k[i] = v[E_K];
        d.s[i] = v[E_S];
        d.dil[i] = v[E_D] + 1;
        d.pb[i] = v[E_P];
        /* end padding that makes the output exact: any e with
         * (in + pb + e - ext) / s == out - 1, i.e. e in [e0, e0 + s - 1] */
        int64_t ext = ext_kernel(v[E_K], v[E_D]);
        int64_t e0 = (v[E_O] - 1) * v[E_S] - v[E_I] + ext - v[E_P];
        if (e0 + v[E_S] - 1 < 0)
            return fail(err, errn, "o%c=%lld is too small for i%c=%lld, k%c=%lld, s%c=%lld, "
                        "p%c=%lld (would need a negative end padding)", c, (long long)v[E_O], c,
                        (long long)v[E_I], c, (long long)v[E_K], c, (long long)v[E_S], c,
                        (long long)v[E_P]);
        if (v[E_P] >= e0 && v[E_P] <= e0 + v[E_S] - 1)
            d.pe[i] = v[E_P];
        else
            d.pe[i] = e0 < 0 ? 0 : e0;
    }
    if (key_layout && key_layout != 7)
        return fail(err, errn, "_wkrsc, _xnhwc and _ynhwc replay together (--tag=nhwc) or not "
                    "at all");
    if (!conv_desc_fits(&d))
        return fail(err, errn, "a size above %d (pdnn's descriptors take int sizes) or a tensor "
                    "above 2^60 elements", INT_MAX);
    snprintf(d.name, sizeof d.name, "%s", name);
    d.key_dt = key_dt;
    d.key_dir = key_dir;
    d.key_nhwc = key_layout == 7;
    *out = d;
    return 0;
}

/* appends to buf (at *pos) */
static void put(char *buf, size_t n, size_t *pos, const char *fmt, ...)
{
    if (*pos >= n) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *pos, n - *pos, fmt, ap);
    va_end(ap);
    if (w > 0) *pos += (size_t)w;
}

void conv_desc_str(const conv_desc *d, char *buf, size_t n)
{
    size_t pos = 0;
    if (!n) return;
    buf[0] = 0;
    /* print the leading spatial dims only where they differ from the innermost */
    bool all_same = true;
    for (int i = 0; i + 1 < d->nsp; i++) {
        int j = d->nsp - 1;
        if (d->in[i] != d->in[j] || d->out[i] != d->out[j] || d->k[i] != d->k[j] ||
            d->s[i] != d->s[j] || d->pb[i] != d->pb[j] || d->dil[i] != d->dil[j])
            all_same = false;
    }
    const char *letters = d->nsp == 3 ? "dhw" : d->nsp == 2 ? "hw" : "w";
    int shown = all_same ? 1 : d->nsp;
    bool stride1 = true, dil1 = true;
    for (int i = 0; i < d->nsp; i++) {
        stride1 = stride1 && d->s[i] == 1;
        dil1 = dil1 && d->dil[i] == 1;
    }
    if (d->has_g || d->g != 1) put(buf, n, &pos, "g%lld", (long long)d->g);
    put(buf, n, &pos, "mb%lldic%lld", (long long)d->mb, (long long)d->ic);
    for (int i = 0; i < shown; i++) put(buf, n, &pos, "i%c%lld", letters[i], (long long)d->in[i]);
    put(buf, n, &pos, "oc%lld", (long long)d->oc);
    for (int i = 0; i < shown; i++) put(buf, n, &pos, "o%c%lld", letters[i], (long long)d->out[i]);
    for (int i = 0; i < shown; i++) put(buf, n, &pos, "k%c%lld", letters[i], (long long)d->k[i]);
    if (!stride1)
        for (int i = 0; i < shown; i++) put(buf, n, &pos, "s%c%lld", letters[i], (long long)d->s[i]);
    for (int i = 0; i < shown; i++) put(buf, n, &pos, "p%c%lld", letters[i], (long long)d->pb[i]);
    if (!dil1)
        for (int i = 0; i < shown; i++)
            put(buf, n, &pos, "d%c%lld", letters[i], (long long)(d->dil[i] - 1));
}

void conv_desc_label(const conv_desc *d, char *buf, size_t n)
{
    if (d->name[0])
        snprintf(buf, n, "%s", d->name);
    else
        conv_desc_str(d, buf, n);
}

int64_t conv_desc_nx(const conv_desc *d)
{
    int64_t v = d->mb * d->ic;
    for (int i = 0; i < d->nsp; i++) v *= d->in[i];
    return v;
}

bool conv_desc_fits(const conv_desc *d)
{
    const int64_t v[] = {d->mb, d->ic, d->oc, d->g};
    for (int i = 0; i < 4; i++)
        if (v[i] > INT_MAX) return false;
    double nx = (double)d->mb * (double)d->ic, ny = (double)d->mb * (double)d->oc,
           nw = (double)d->oc * (double)(d->g > 0 ? d->ic / d->g : d->ic);
    for (int i = 0; i < d->nsp; i++) {
        if (d->in[i] > INT_MAX || d->out[i] > INT_MAX || d->k[i] > INT_MAX ||
            d->s[i] > INT_MAX || d->pb[i] > INT_MAX || d->pe[i] > INT_MAX ||
            d->dil[i] > INT_MAX)
            return false;
        nx *= (double)d->in[i];
        ny *= (double)d->out[i];
        nw *= (double)d->k[i];
    }
    const double lim = 1152921504606846976.0; /* 2^60 */
    return nx <= lim && ny <= lim && nw <= lim;
}

int64_t conv_desc_nw(const conv_desc *d)
{
    int64_t v = d->oc * (d->ic / d->g);
    for (int i = 0; i < d->nsp; i++) v *= d->k[i];
    return v;
}

int64_t conv_desc_ny(const conv_desc *d)
{
    int64_t v = d->mb * d->oc;
    for (int i = 0; i < d->nsp; i++) v *= d->out[i];
    return v;
}

double conv_desc_flops(const conv_desc *d)
{
    double f = 2.0 * (double)d->mb * (double)d->oc * (double)(d->ic / d->g);
    for (int i = 0; i < d->nsp; i++) f *= (double)d->out[i] * (double)d->k[i];
    return f;
}

/* ------------------------------------------------------------------ tokens */

static int push_token(bench_tokens *t, const char *text, size_t len, const char *origin)
{
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 64;
        bench_token *v = realloc(t->v, (size_t)cap * sizeof *v);
        if (!v) return -1;
        t->v = v;
        t->cap = cap;
    }
    char *s = malloc(len + 1);
    if (!s) return -1;
    memcpy(s, text, len);
    s[len] = 0;
    t->v[t->n].text = s;
    snprintf(t->v[t->n].origin, sizeof t->v[t->n].origin, "%s", origin);
    t->n++;
    return 0;
}

static int add_token(bench_tokens *t, const char *tok, const char *next, bool *used_next,
                     const char *origin, const char *dir, int depth, char *err, size_t errn);

/* One line of f (with its newline) into line: 1, or 0 at the end of the file, -1 at a NUL
 * byte (not a text file: /dev/zero would never end), -2 for a line of cap or more bytes
 * (it would be cut into two). */
static int read_line(FILE *f, char *line, size_t cap)
{
    size_t n = 0;
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (c == 0) return -1;
        if (n + 1 >= cap) return -2;
        line[n++] = (char)c;
        if (c == '\n') break;
    }
    line[n] = 0;
    return n > 0;
}

static int read_batch(bench_tokens *t, const char *path, const char *dir, int depth,
                      const char *origin, char *err, size_t errn)
{
    if (depth > 8) return fail(err, errn, "%s: batch files nested deeper than 8", origin);
    char full[1024];
    snprintf(full, sizeof full, "%s", path);
    FILE *f = fopen(full, "r");
    if (!f && path[0] != '/' && dir && *dir) {
        snprintf(full, sizeof full, "%s/%s", dir, path);
        f = fopen(full, "r");
    }
    if (!f) return fail(err, errn, "%s: cannot read batch file '%s'", origin, path);
    char here[1024];
    snprintf(here, sizeof here, "%s", full);
    char *slash = strrchr(here, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(here, sizeof here, ".");

    /* a whole file's tokens, so that two-token options ("-t 2") may span lines */
    char line[4096];
    int lineno = 0, rc = 0;
    bench_tokens local = {0};
    int got;
    while ((got = read_line(f, line, sizeof line)) > 0) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char org[160];
        /* the file name's tail when the whole does not fit */
        size_t fl = strlen(full);
        const char *tail = fl > 120 ? full + fl - 120 : full;
        snprintf(org, sizeof org, "%.120s:%d", tail, lineno);
        for (char *p = line; *p;) {
            while (*p && isspace((unsigned char)*p)) p++;
            char *b = p;
            while (*p && !isspace((unsigned char)*p)) p++;
            if (p > b && push_token(&local, b, (size_t)(p - b), org)) {
                rc = fail(err, errn, "out of memory");
                break;
            }
        }
        if (rc) break;
    }
    if (!rc && ferror(f)) /* a directory opens, then fails to read */
        rc = fail(err, errn, "%s: cannot read batch file '%s'", origin, path);
    else if (!rc && got < 0)
        rc = fail(err, errn, "%s: batch file '%s', line %d: %s", origin, path, lineno + 1,
                  got == -1 ? "a NUL byte (not a text file)" : "longer than 4095 characters");
    fclose(f);
    for (int i = 0; !rc && i < local.n; i++) {
        bool used = false;
        rc = add_token(t, local.v[i].text, i + 1 < local.n ? local.v[i + 1].text : NULL, &used,
                       local.v[i].origin, here, depth + 1, err, errn);
        if (used) i++;
    }
    bench_tokens_free(&local);
    return rc;
}

static int add_token(bench_tokens *t, const char *tok, const char *next, bool *used_next,
                     const char *origin, const char *dir, int depth, char *err, size_t errn)
{
    *used_next = false;
    if (!strncmp(tok, "--batch=", 8)) return read_batch(t, tok + 8, dir, depth, origin, err, errn);
    if (!strcmp(tok, "--batch")) {
        if (!next) return fail(err, errn, "%s: --batch needs a file", origin);
        *used_next = true;
        return read_batch(t, next, dir, depth, origin, err, errn);
    }
    if (push_token(t, tok, strlen(tok), origin)) return fail(err, errn, "out of memory");
    return 0;
}

int bench_tokens_read(int argc, char **argv, bench_tokens *t, char *err, size_t errn)
{
    memset(t, 0, sizeof *t);
    for (int i = 1; i < argc; i++) {
        char org[32];
        snprintf(org, sizeof org, "argv[%d]", i);
        bool used = false;
        if (add_token(t, argv[i], i + 1 < argc ? argv[i + 1] : NULL, &used, org, NULL, 0, err,
                      errn)) {
            bench_tokens_free(t);
            return -1;
        }
        if (used) i++;
    }
    return 0;
}

void bench_tokens_free(bench_tokens *t)
{
    for (int i = 0; i < t->n; i++) free(t->v[i].text);
    free(t->v);
    memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------------ settings */

void bench_settings_default(bench_settings *s)
{
    memset(s, 0, sizeof *s);
    s->dir = BENCH_FWD_D;
    snprintf(s->algo, sizeof s->algo, "auto");
    s->mode = 'P';
    s->threads[0] = 1;
    s->threads[1] = 2;
    s->nthreads = 2;
}

const char *bench_dir_name(bench_dir d)
{
    static const char *const names[] = {"FWD_D", "FWD_B", "BWD_D", "BWD_W"};
    return (unsigned)d < 4 ? names[d] : "?";
}

static int parse_threads(const char *v, bench_settings *s, char *err, size_t errn)
{
    int n = 0;
    const char *p = v;
    while (*p) {
        if (n == BENCH_MAX_THREADS_LIST)
            return fail(err, errn, "more than %d thread counts in '%s'", BENCH_MAX_THREADS_LIST, v);
        char *end;
        long t = strtol(p, &end, 10);
        if (end == p || t < 1 || t > 1024 || (*end && *end != ','))
            return fail(err, errn, "bad thread list '%s' (want counts 1..1024 like 1,2)", v);
        s->threads[n++] = (int)t;
        p = *end ? end + 1 : end;
    }
    if (!n) return fail(err, errn, "empty thread list");
    s->nthreads = n;
    return 0;
}

/* 1 handled, 0 not a setting, -1 bad value */
static int parse_setting(const char *tok, const char *next, bool *used_next, bench_settings *s,
                         char *err, size_t errn)
{
    const char *v;
    if (!strcmp(tok, "--reset")) {
        bench_settings_default(s);
        return 1;
    }
    if (!strncmp(tok, "--dir=", 6)) {
        v = tok + 6;
        for (int d = 0; d < 4; d++)
            if (!strcasecmp(v, bench_dir_name((bench_dir)d))) {
                s->dir = (bench_dir)d;
                return 1;
            }
        return fail(err, errn, "unknown --dir '%s' (FWD_D, FWD_B, BWD_D, BWD_W)", v);
    }
    if (!strncmp(tok, "--algo=", 7)) {
        v = tok + 7;
        if (!*v || strlen(v) >= sizeof s->algo) return fail(err, errn, "bad --algo '%s'", v);
        snprintf(s->algo, sizeof s->algo, "%s", v);
        return 1;
    }
    if (!strncmp(tok, "--mode=", 7)) {
        v = tok + 7;
        char m = (char)toupper((unsigned char)v[0]);
        if (strlen(v) != 1 || (m != 'C' && m != 'B' && m != 'P'))
            return fail(err, errn, "unknown --mode '%s' (C, B or P)", v);
        s->mode = m;
        return 1;
    }
    if (!strncmp(tok, "--dt=", 5) || !strncmp(tok, "--cfg=", 6)) {
        v = strchr(tok, '=') + 1;
        if (!strcasecmp(v, "f32"))
            s->dbl = false;
        else if (!strcasecmp(v, "f64"))
            s->dbl = true;
        else
            return fail(err, errn, "unknown data type '%s' (f32 or f64)", v);
        return 1;
    }
    if (!strncmp(tok, "--tag=", 6)) {
        v = tok + 6;
        if (!strcasecmp(v, "nchw") || !strcasecmp(v, "ncdhw") || !strcasecmp(v, "ncw"))
            s->nhwc = false;
        else if (!strcasecmp(v, "nhwc") || !strcasecmp(v, "ndhwc") || !strcasecmp(v, "nwc"))
            s->nhwc = true;
        else
            return fail(err, errn, "unknown --tag '%s' (nchw or nhwc)", v);
        return 1;
    }
    if (!strncmp(tok, "--mb=", 5)) {
        char *end;
        long long mb = strtoll(tok + 5, &end, 10);
        if (end == tok + 5 || *end || mb < 0 || mb > (1LL << 30))
            return fail(err, errn, "bad --mb '%s' (0 keeps the descriptor's)", tok + 5);
        s->mb = mb;
        return 1;
    }
    if (!strncmp(tok, "--threads=", 10)) return parse_threads(tok + 10, s, err, errn) ? -1 : 1;
    if (!strcmp(tok, "-t")) {
        if (!next) return fail(err, errn, "-t needs a thread list like 1,2");
        *used_next = true;
        return parse_threads(next, s, err, errn) ? -1 : 1;
    }
    if (!strncmp(tok, "-t", 2) && isdigit((unsigned char)tok[2]))
        return parse_threads(tok + 2, s, err, errn) ? -1 : 1;
    return 0;
}

void bench_run_opts_default(bench_run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->rounds = 3;
    o->min_s = 0.25;
    o->tol = -1;
}

/* 1 handled, 0 not a run option, -1 bad value */
static int parse_run_opt(const char *tok, const char *next, bool *used_next, bench_run_opts *o,
                         char *err, size_t errn)
{
    char *end;
    const char *v;
    if (!strcmp(tok, "-c")) return o->cpu_clock = true, 1;
    if (!strcmp(tok, "--csv")) return o->csv = true, 1;
    if (!strcmp(tok, "--list")) return o->list = true, 1;
    if (!strcmp(tok, "--timing"))
        return fail(err, errn, "--timing needs a value: --timing=best or --timing=mean");
    if (!strncmp(tok, "--timing=", 9)) {
        if (strcmp(tok + 9, "best") && strcmp(tok + 9, "mean"))
            return fail(err, errn, "bad --timing '%s' (best or mean)", tok + 9);
        o->mean = !strcmp(tok + 9, "mean");
        return 1;
    }
    if (!strncmp(tok, "--index=", 8)) {
        long i = strtol(tok + 8, &end, 10);
        if (end == tok + 8 || *end || i < 1 || i > 1000000)
            return fail(err, errn, "bad --index '%s' (1-based problem number)", tok + 8);
        o->index = (int)i;
        return 1;
    }
    if (!strncmp(tok, "--tol=", 6)) {
        double x = strtod(tok + 6, &end);
        if (end == tok + 6 || *end || !(x >= 0))
            return fail(err, errn, "bad --tol '%s' (a relative error >= 0)", tok + 6);
        o->tol = x;
        return 1;
    }
    bool rounds;
    if (!strcmp(tok, "-r") || !strcmp(tok, "-m")) {
        if (!next) return fail(err, errn, "%s needs a value", tok);
        *used_next = true;
        v = next;
        rounds = tok[1] == 'r';
    } else if (!strncmp(tok, "--rounds=", 9)) {
        v = tok + 9;
        rounds = true;
    } else if (!strncmp(tok, "--min-time=", 11)) {
        v = tok + 11;
        rounds = false;
    } else {
        return 0;
    }
    if (rounds) {
        long r = strtol(v, &end, 10);
        if (end == v || *end || r < 1 || r > 1000)
            return fail(err, errn, "bad round count '%s' (1..1000)", v);
        o->rounds = (int)r;
    } else {
        double m = strtod(v, &end);
        if (end == v || *end || !(m >= 0) || m > 600)
            return fail(err, errn, "bad block time '%s' (seconds, 0..600)", v);
        o->min_s = m;
    }
    return 1;
}

int bench_parse_jobs(const bench_tokens *t, bench_run_opts *run, bench_opt_fn opt, void *ctx,
                     bench_job **jobs, int *njobs, char *err, size_t errn)
{
    bench_settings s;
    bench_settings_default(&s);
    *jobs = NULL;
    *njobs = 0;
    int cap = 0;
    char msg[512];
    int late = -1; /* a setting after the last problem so far */
    for (int i = 0; i < t->n; i++) {
        const char *tok = t->v[i].text, *next = i + 1 < t->n ? t->v[i + 1].text : NULL;
        const char *origin = t->v[i].origin;
        bool used = false;
        int r = parse_setting(tok, next, &used, &s, msg, sizeof msg);
        const bool is_setting = r != 0;
        if (r == 0) r = parse_run_opt(tok, next, &used, run, msg, sizeof msg);
        if (r == 0 && opt) r = opt(ctx, tok, next, &used, msg, sizeof msg);
        if (r < 0) goto bad;
        if (r > 0) {
            if (is_setting && late < 0) late = i;
            if (used) i++;
            continue;
        }
        if (tok[0] == '-') {
            snprintf(msg, sizeof msg, "unknown option '%s'", tok);
            goto bad;
        }
        bench_job j;
        memset(&j, 0, sizeof j);
        if (conv_desc_parse(tok, &j.d, msg, sizeof msg)) {
            char m2[sizeof msg];
            memcpy(m2, msg, sizeof m2);
            snprintf(msg, sizeof msg, "bad problem '%.200s': %.280s", tok, m2);
            goto bad;
        }
        if (s.mb > 0) j.d.mb = s.mb;
        j.s = s;
        if (j.d.key_dt || j.d.key_dir || j.d.key_nhwc) { /* a pdnn problem key: its tags decide */
            if (j.d.key_dt) j.s.dbl = j.d.key_dt == 'd';
            if (j.d.key_dir == 'd') j.s.dir = BENCH_BWD_D;
            if (j.d.key_dir == 'w') j.s.dir = BENCH_BWD_W;
            if (j.d.key_dir == 'f' && j.s.dir != BENCH_FWD_B) j.s.dir = BENCH_FWD_D;
            j.s.nhwc = j.d.key_nhwc;
        }
        snprintf(j.origin, sizeof j.origin, "%s", origin);
        if (*njobs == cap) {
            cap = cap ? 2 * cap : 32;
            bench_job *v = realloc(*jobs, (size_t)cap * sizeof *v);
            if (!v) {
                snprintf(msg, sizeof msg, "out of memory");
                goto bad;
            }
            *jobs = v;
        }
        (*jobs)[(*njobs)++] = j;
        late = -1;
        continue;
    bad:
        fail(err, errn, "%s: %s", origin, msg);
        free(*jobs);
        *jobs = NULL;
        *njobs = 0;
        return -1;
    }
    if (late >= 0 && *njobs)
        fprintf(stderr, "warning: %s: '%s' comes after the last problem and applies to none "
                "(settings apply to the problems after them)\n", t->v[late].origin,
                t->v[late].text);
    return 0;
}
