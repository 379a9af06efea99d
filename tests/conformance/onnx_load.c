/* Reading ONNX models and tensors with protobuf-c (see onnx_load.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_load.h"

uint8_t *ox_read_file(const char *path, size_t *len, char *why, size_t why_len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, why_len, "cannot open %s", path);
        return NULL;
    }
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 1 << 16;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                fclose(f);
                snprintf(why, why_len, "out of memory reading %s", path);
                return NULL;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        snprintf(why, why_len, "read error on %s", path);
        return NULL;
    }
    *len = n;
    return buf;
}

int ox_load_model(const char *path, ox_model *m, char *why, size_t why_len)
{
    size_t len;
    memset(m, 0, sizeof *m);
    uint8_t *buf = ox_read_file(path, &len, why, why_len);
    if (!buf) return -1;
    m->proto = onnx__model_proto__unpack(NULL, len, buf);
    free(buf);
    if (!m->proto || !m->proto->graph) {
        snprintf(why, why_len, "%s is not a ModelProto with a graph", path);
        ox_free_model(m);
        return -1;
    }
    for (size_t i = 0; i < m->proto->n_opset_import; i++) {
        const Onnx__OperatorSetIdProto *o = m->proto->opset_import[i];
        if (!o->domain || !o->domain[0] || !strcmp(o->domain, "ai.onnx"))
            m->opset = o->version;
    }
    return 0;
}

void ox_free_model(ox_model *m)
{
    if (m->proto) onnx__model_proto__free_unpacked(m->proto, NULL);
    m->proto = NULL;
}

static size_t ox_esize(int dtype)
{
    switch (dtype) {
    case OX_FLOAT: return 4;
    case OX_DOUBLE: return 8;
    case OX_INT64: return 8;
    default: return 0;
    }
}

int ox_tensor_from_proto(const Onnx__TensorProto *p, ox_tensor *t, char *why,
                         size_t why_len)
{
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", p->name ? p->name : "");
    t->dtype = p->has_data_type ? p->data_type : 0;
    if (p->n_dims > OX_MAX_RANK) {
        snprintf(why, why_len, "tensor '%s' has rank %zu > %d", t->name, p->n_dims,
                 OX_MAX_RANK);
        return -1;
    }
    t->rank = (int)p->n_dims;
    t->count = 1;
    for (int i = 0; i < t->rank; i++) {
        if (p->dims[i] < 0) {
            snprintf(why, why_len, "tensor '%s' has a negative dim", t->name);
            return -1;
        }
        t->dims[i] = p->dims[i];
        t->count *= (size_t)p->dims[i];
    }
    size_t es = ox_esize(t->dtype);
    if (!es) return 0; /* a type the runner does not compute: data stays NULL */
    t->data = malloc(t->count ? t->count * es : 1);
    if (!t->data) {
        snprintf(why, why_len, "out of memory for tensor '%s'", t->name);
        return -1;
    }
    size_t have;
    const void *src;
    if (p->has_raw_data) {
        have = p->raw_data.len / es;
        src = p->raw_data.data;
        if (p->raw_data.len % es) have = (size_t)-1;
    } else if (t->dtype == OX_FLOAT) {
        have = p->n_float_data;
        src = p->float_data;
    } else if (t->dtype == OX_DOUBLE) {
        have = p->n_double_data;
        src = p->double_data;
    } else {
        have = p->n_int64_data;
        src = p->int64_data;
    }
    if (have != t->count) {
        snprintf(why, why_len, "tensor '%s' holds %zu values for %zu elements", t->name,
                 have, t->count);
        ox_free_tensor(t);
        return -1;
    }
    /* raw_data is little-endian IEEE / two's complement: the host's layout on x86-64 */
    if (t->count) memcpy(t->data, src, t->count * es);
    return 0;
}

int ox_load_tensor(const char *path, ox_tensor *t, char *why, size_t why_len)
{
    size_t len;
    memset(t, 0, sizeof *t);
    uint8_t *buf = ox_read_file(path, &len, why, why_len);
    if (!buf) return -1;
    Onnx__TensorProto *p = onnx__tensor_proto__unpack(NULL, len, buf);
    free(buf);
    if (!p) {
        snprintf(why, why_len, "%s is not a TensorProto", path);
        return -1;
    }
    int r = ox_tensor_from_proto(p, t, why, why_len);
    onnx__tensor_proto__free_unpacked(p, NULL);
    return r;
}

void ox_free_tensor(ox_tensor *t)
{
    free(t->data);
    t->data = NULL;
}

int ox_alloc_tensor(ox_tensor *t, int dtype, int rank, const int64_t *dims)
{
    memset(t, 0, sizeof *t);
    t->dtype = dtype;
    t->rank = rank;
    t->count = 1;
    for (int i = 0; i < rank; i++) {
        t->dims[i] = dims[i];
        t->count *= (size_t)dims[i];
    }
    size_t es = ox_esize(dtype);
    t->data = malloc(t->count && es ? t->count * es : 1);
    if (!t->data) return -1;
    for (size_t i = 0; i < t->count; i++) {
        if (dtype == OX_FLOAT)
            ((float *)t->data)[i] = NAN;
        else if (dtype == OX_DOUBLE)
            ((double *)t->data)[i] = NAN;
        else if (dtype == OX_INT64)
            ((int64_t *)t->data)[i] = 0;
    }
    return 0;
}

const char *ox_dtype_name(int dtype)
{
    static const char *names[] = {"undefined", "float",  "uint8",     "int8",
                                  "uint16",    "int16",  "int32",     "int64",
                                  "string",    "bool",   "float16",   "double",
                                  "uint32",    "uint64", "complex64", "complex128",
                                  "bfloat16"};
    if (dtype >= 0 && dtype < (int)(sizeof names / sizeof names[0])) return names[dtype];
    return "unknown";
}

const Onnx__AttributeProto *ox_attr(const Onnx__NodeProto *n, const char *name)
{
    for (size_t i = 0; i < n->n_attribute; i++)
        if (n->attribute[i]->name && !strcmp(n->attribute[i]->name, name))
            return n->attribute[i];
    return NULL;
}

int64_t ox_attr_int(const Onnx__NodeProto *n, const char *name, int64_t def)
{
    const Onnx__AttributeProto *a = ox_attr(n, name);
    return a ? a->i : def;
}

float ox_attr_float(const Onnx__NodeProto *n, const char *name, float def)
{
    const Onnx__AttributeProto *a = ox_attr(n, name);
    return a ? a->f : def;
}

const char *ox_attr_string(const Onnx__NodeProto *n, const char *name, const char *def,
                           char *buf, size_t len)
{
    const Onnx__AttributeProto *a = ox_attr(n, name);
    if (!a) {
        snprintf(buf, len, "%s", def);
    } else {
        size_t k = a->s.len < len - 1 ? a->s.len : len - 1;
        if (k) memcpy(buf, a->s.data, k);
        buf[k] = '\0';
    }
    return buf;
}

int ox_attr_ints(const Onnx__NodeProto *n, const char *name, int64_t *out, int max)
{
    const Onnx__AttributeProto *a = ox_attr(n, name);
    if (!a) return -1;
    for (size_t i = 0; i < a->n_ints && (int)i < max; i++) out[i] = a->ints[i];
    return (int)a->n_ints;
}
