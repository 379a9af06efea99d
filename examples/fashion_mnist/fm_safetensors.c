/* safetensors reader and writer (see fm_safetensors.h). */
#include "fm_safetensors.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define META_KEY "__metadata__"
#define CRC_KEY "pdnn.data_crc32"
#define MAX_HEADER (100u << 20) /* the limit the reference implementation uses too */

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* CRC-32 of the tensors' bytes, in order (zlib's crc32 takes at most UINT_MAX bytes). */
static uint32_t data_crc(const fm_st_tensor *t, int n)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    for (int i = 0; i < n; i++) {
        const unsigned char *p = (const unsigned char *)t[i].data;
        size_t left = t[i].numel * sizeof(float);
        while (left) {
            unsigned chunk = left > (1u << 30) ? (1u << 30) : (unsigned)left;
            crc = crc32(crc, p, chunk);
            p += chunk;
            left -= chunk;
        }
    }
    return (uint32_t)crc;
}

int fm_st_save(const char *path, const fm_st_tensor *tensors, int n, const char *const *kv,
               int nmeta, char *err, size_t errlen)
{
    json_t *root = json_object(), *meta = json_object();
    char *hdr = NULL, *tmp = NULL;
    FILE *f = NULL;
    int rc = -1;
    if (!root || !meta) {
        fail(err, errlen, "%s: out of memory", path);
        goto done;
    }
    for (int i = 0; i < nmeta; i++)
        json_object_set_new(meta, kv[2 * i], json_string(kv[2 * i + 1]));
    char crc[16];
    snprintf(crc, sizeof crc, "%08" PRIx32, data_crc(tensors, n));
    json_object_set_new(meta, CRC_KEY, json_string(crc));
    json_object_set(root, META_KEY, meta);
    uint64_t off = 0;
    for (int i = 0; i < n; i++) {
        const fm_st_tensor *t = &tensors[i];
        if (!strcmp(t->name, META_KEY) || json_object_get(root, t->name)) {
            fail(err, errlen, "%s: tensor name '%s' used twice or reserved", path, t->name);
            goto done;
        }
        json_t *shape = json_array();
        for (int d = 0; d < t->ndim; d++) json_array_append_new(shape, json_integer(t->shape[d]));
        uint64_t bytes = (uint64_t)t->numel * sizeof(float);
        json_t *e = json_pack("{s:s, s:o, s:[I, I]}", "dtype", "F32", "shape", shape,
                              "data_offsets", (json_int_t)off, (json_int_t)(off + bytes));
        if (!e || json_object_set_new(root, t->name, e)) {
            fail(err, errlen, "%s: out of memory building the header", path);
            goto done;
        }
        off += bytes;
    }
    hdr = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!hdr) {
        fail(err, errlen, "%s: out of memory building the header", path);
        goto done;
    }
    size_t hlen = strlen(hdr), padded = (hlen + 7) / 8 * 8;
    size_t plen = strlen(path) + 32;
    tmp = malloc(plen);
    if (!tmp) {
        fail(err, errlen, "%s: out of memory", path);
        goto done;
    }
    snprintf(tmp, plen, "%s.tmp.%ld", path, (long)getpid());
    f = fopen(tmp, "wb");
    if (!f) {
        fail(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
        goto done;
    }
    unsigned char len8[8];
    for (int i = 0; i < 8; i++) len8[i] = (unsigned char)((uint64_t)padded >> (8 * i));
    int ok = fwrite(len8, 1, 8, f) == 8 && fwrite(hdr, 1, hlen, f) == hlen;
    for (size_t i = hlen; ok && i < padded; i++) ok = fputc(' ', f) != EOF;
    for (int i = 0; ok && i < n; i++)
        ok = !tensors[i].numel ||
             fwrite(tensors[i].data, sizeof(float), tensors[i].numel, f) == tensors[i].numel;
    ok = ok && fflush(f) == 0 && fsync(fileno(f)) == 0;
    ok = (fclose(f) == 0) && ok;
    f = NULL;
    if (!ok || rename(tmp, path) != 0) {
        fail(err, errlen, "cannot write %s: %s", path, strerror(errno));
        remove(tmp);
        goto done;
    }
    rc = 0;
done:
    if (f) {
        fclose(f);
        remove(tmp);
    }
    free(tmp);
    free(hdr);
    json_decref(meta);
    json_decref(root);
    return rc;
}

typedef struct {
    int idx;
    uint64_t begin, end;
} span;

static int span_cmp(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

/* Reads one tensor entry of the header into t (data not yet). */
static int parse_entry(const char *path, const char *name, json_t *e, uint64_t data_bytes,
                       fm_st_tensor *t, span *s, char *err, size_t errlen)
{
    if (!json_is_object(e))
        return fail(err, errlen, "%s: header entry '%s' is not an object", path, name);
    json_t *dt = json_object_get(e, "dtype"), *sh = json_object_get(e, "shape"),
           *of = json_object_get(e, "data_offsets");
    if (!json_is_string(dt) || !json_is_array(sh) || !json_is_array(of) ||
        json_array_size(of) != 2)
        return fail(err, errlen,
                    "%s: tensor '%s' lacks a dtype string, a shape array or a "
                    "[begin, end] data_offsets pair", path, name);
    if (strcmp(json_string_value(dt), "F32"))
        return fail(err, errlen, "%s: tensor '%s' has dtype %s; only F32 is supported", path,
                    name, json_string_value(dt));
    size_t nd = json_array_size(sh);
    if (nd > FM_ST_MAX_DIMS)
        return fail(err, errlen, "%s: tensor '%s' has %zu dimensions (at most %d)", path, name,
                    nd, FM_ST_MAX_DIMS);
    uint64_t numel = 1;
    t->ndim = (int)nd;
    for (size_t d = 0; d < nd; d++) {
        json_t *v = json_array_get(sh, d);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) > ((json_int_t)1 << 40))
            return fail(err, errlen, "%s: tensor '%s': shape[%zu] is not a valid size", path,
                        name, d);
        t->shape[d] = json_integer_value(v);
        numel *= (uint64_t)t->shape[d];
        if (numel > ((uint64_t)1 << 40))
            return fail(err, errlen, "%s: tensor '%s' is implausibly large", path, name);
    }
    json_t *b = json_array_get(of, 0), *en = json_array_get(of, 1);
    if (!json_is_integer(b) || !json_is_integer(en) || json_integer_value(b) < 0 ||
        json_integer_value(en) < json_integer_value(b))
        return fail(err, errlen, "%s: tensor '%s' has invalid data_offsets", path, name);
    s->begin = (uint64_t)json_integer_value(b);
    s->end = (uint64_t)json_integer_value(en);
    if (s->end - s->begin != numel * sizeof(float))
        return fail(err, errlen,
                    "%s: tensor '%s': data_offsets span %" PRIu64 " bytes but its shape needs %"
                    PRIu64, path, name, s->end - s->begin, numel * sizeof(float));
    if (s->end > data_bytes)
        return fail(err, errlen,
                    "%s: tensor '%s' ends at data byte %" PRIu64 " but the file holds only %"
                    PRIu64 " data bytes (truncated?)", path, name, s->end, data_bytes);
    t->numel = (size_t)numel;
    t->name = strdup(name);
    if (!t->name) return fail(err, errlen, "%s: out of memory", path);
    return 0;
}

int fm_st_load(const char *path, fm_st_file *file, char *err, size_t errlen)
{
    memset(file, 0, sizeof *file);
    FILE *f = fopen(path, "rb");
    if (!f) return fail(err, errlen, "cannot open %s: %s", path, strerror(errno));
    unsigned char *buf = NULL;
    json_t *root = NULL;
    span *spans = NULL;
    int rc = -1;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fail(err, errlen, "%s is not a regular file", path);
        goto done;
    }
    uint64_t size = (uint64_t)st.st_size;
    if (size < 8) {
        fail(err, errlen, "%s: %" PRIu64 " bytes, too short for a safetensors file", path, size);
        goto done;
    }
    buf = malloc((size_t)size);
    if (!buf) {
        fail(err, errlen, "%s: cannot allocate %" PRIu64 " bytes", path, size);
        goto done;
    }
    if (fread(buf, 1, (size_t)size, f) != (size_t)size) {
        fail(err, errlen, "%s: read error", path);
        goto done;
    }
    uint64_t hlen = 0;
    for (int i = 0; i < 8; i++) hlen |= (uint64_t)buf[i] << (8 * i);
    if (hlen > MAX_HEADER || hlen > size - 8) {
        fail(err, errlen,
             "%s: header length %" PRIu64 " does not fit the file (%" PRIu64
             " bytes): not a safetensors file, or truncated", path, hlen, size);
        goto done;
    }
    json_error_t jerr;
    root = json_loadb((const char *)buf + 8, (size_t)hlen, JSON_REJECT_DUPLICATES, &jerr);
    if (!root || !json_is_object(root)) {
        fail(err, errlen, "%s: the header is not a JSON object (%s)", path,
             root ? "another JSON value" : jerr.text);
        goto done;
    }
    uint64_t data_bytes = size - 8 - hlen;
    const unsigned char *data = buf + 8 + hlen;
    size_t nobj = json_object_size(root);
    file->tensors = calloc(nobj ? nobj : 1, sizeof *file->tensors);
    spans = calloc(nobj ? nobj : 1, sizeof *spans);
    if (!file->tensors || !spans) {
        fail(err, errlen, "%s: out of memory", path);
        goto done;
    }
    const char *key;
    json_t *val;
    json_object_foreach(root, key, val) {
        if (!strcmp(key, META_KEY)) {
            if (!json_is_object(val)) {
                fail(err, errlen, "%s: __metadata__ is not an object", path);
                goto done;
            }
            size_t m = json_object_size(val);
            file->keys = calloc(m ? m : 1, sizeof(char *));
            file->vals = calloc(m ? m : 1, sizeof(char *));
            if (!file->keys || !file->vals) {
                fail(err, errlen, "%s: out of memory", path);
                goto done;
            }
            const char *mk;
            json_t *mv;
            json_object_foreach(val, mk, mv) {
                if (!json_is_string(mv)) {
                    fail(err, errlen, "%s: metadata '%s' is not a string", path, mk);
                    goto done;
                }
                file->keys[file->nmeta] = strdup(mk);
                file->vals[file->nmeta] = strdup(json_string_value(mv));
                file->nmeta++;
                if (!file->keys[file->nmeta - 1] || !file->vals[file->nmeta - 1]) {
                    fail(err, errlen, "%s: out of memory", path);
                    goto done;
                }
            }
            continue;
        }
        int i = file->count;
        if (parse_entry(path, key, val, data_bytes, &file->tensors[i], &spans[i], err, errlen))
            goto done;
        spans[i].idx = i;
        file->count++;
    }
    /* the entries must tile the data: sorted by begin, each starts where the last ended */
    qsort(spans, (size_t)file->count, sizeof *spans, span_cmp);
    uint64_t at = 0;
    for (int i = 0; i < file->count; i++) {
        if (spans[i].begin != at) {
            fail(err, errlen, "%s: tensor '%s' starts at data byte %" PRIu64 ", expected %"
                 PRIu64 " (overlap or gap in the data)", path,
                 file->tensors[spans[i].idx].name, spans[i].begin, at);
            goto done;
        }
        at = spans[i].end;
    }
    if (at != data_bytes) {
        fail(err, errlen, "%s: %" PRIu64 " data bytes but the tensors cover %" PRIu64, path,
             data_bytes, at);
        goto done;
    }
    for (int i = 0; i < file->count; i++) {
        fm_st_tensor *t = &file->tensors[spans[i].idx];
        t->data = malloc(t->numel ? t->numel * sizeof(float) : 1);
        if (!t->data) {
            fail(err, errlen, "%s: out of memory", path);
            goto done;
        }
        memcpy(t->data, data + spans[i].begin, t->numel * sizeof(float));
    }
    const char *crc = fm_st_meta(file, CRC_KEY);
    if (crc) {
        /* the writer hashes the tensors in data order, which is the sorted span order */
        uLong c = crc32(0L, Z_NULL, 0);
        for (uint64_t left = data_bytes, p = 0; left;) {
            unsigned chunk = left > (1u << 30) ? (1u << 30) : (unsigned)left;
            c = crc32(c, data + p, chunk);
            p += chunk;
            left -= chunk;
        }
        char want[16];
        snprintf(want, sizeof want, "%08" PRIx32, (uint32_t)c);
        if (strcmp(crc, want)) {
            fail(err, errlen, "%s: the data is corrupted (CRC-32 %s, the header records %s)",
                 path, want, crc);
            goto done;
        }
    }
    rc = 0;
done:
    if (rc) fm_st_free(file);
    free(spans);
    json_decref(root);
    free(buf);
    fclose(f);
    return rc;
}

const fm_st_tensor *fm_st_get(const fm_st_file *file, const char *name)
{
    for (int i = 0; i < file->count; i++)
        if (!strcmp(file->tensors[i].name, name)) return &file->tensors[i];
    return NULL;
}

const char *fm_st_meta(const fm_st_file *file, const char *key)
{
    for (int i = 0; i < file->nmeta; i++)
        if (!strcmp(file->keys[i], key)) return file->vals[i];
    return NULL;
}

void fm_st_free(fm_st_file *file)
{
    for (int i = 0; i < file->count; i++) {
        free(file->tensors[i].name);
        free(file->tensors[i].data);
    }
    for (int i = 0; i < file->nmeta; i++) {
        free(file->keys[i]);
        free(file->vals[i]);
    }
    free(file->tensors);
    free(file->keys);
    free(file->vals);
    memset(file, 0, sizeof *file);
}
