/* IDX reader (see fm_idx.h). The format: a big-endian 32-bit magic 0x0000TTDD (TT the
 * element type, 0x08 = unsigned byte; DD the number of dimensions), DD big-endian
 * 32-bit sizes, then the data in row-major order. */
#include "fm_idx.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

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

/* Reads exactly len bytes; returns the count read (< len at the end of the data) or -1
 * on a zlib error, with its text in *why. */
static int64_t read_full(gzFile f, void *buf, int64_t len, const char **why)
{
    int64_t got = 0;
    while (got < len) {
        int64_t chunk = len - got;
        if (chunk > (1 << 24)) chunk = 1 << 24;
        int r = gzread(f, (char *)buf + got, (unsigned)chunk);
        if (r < 0) {
            int zerr;
            *why = gzerror(f, &zerr);
            return -1;
        }
        if (r == 0) break;
        got += r;
    }
    return got;
}

static uint32_t be32(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

int fm_idx_read(const char *path, int expected_ndims, fm_idx *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    gzFile f = gzopen(path, "rb");
    if (!f)
        return fail(err, errlen, "cannot open %s: %s", path,
                    errno ? strerror(errno) : "out of memory");
    const char *why = NULL;
    unsigned char hdr[16];
    int64_t hbytes = 4 + 4 * (int64_t)expected_ndims;
    int64_t got = read_full(f, hdr, 4, &why);
    int rc = -1;
    if (got < 0) {
        fail(err, errlen, "%s: gzip error: %s", path, why);
        goto done;
    }
    if (got < 4) {
        fail(err, errlen, "%s: truncated: %lld bytes, shorter than the 4-byte IDX magic",
             path, (long long)got);
        goto done;
    }
    uint32_t magic = be32(hdr), want = 0x00000800u | (uint32_t)expected_ndims;
    if (magic != want) {
        fail(err, errlen, "%s: bad IDX magic 0x%08x, expected 0x%08x (unsigned bytes, %d %s)",
             path, magic, want, expected_ndims,
             expected_ndims == 1 ? "dimension: a label file" : "dimensions: an image file");
        goto done;
    }
    got = read_full(f, hdr + 4, hbytes - 4, &why);
    if (got < 0) {
        fail(err, errlen, "%s: gzip error: %s", path, why);
        goto done;
    }
    if (got < hbytes - 4) {
        fail(err, errlen, "%s: truncated header: %lld of %lld bytes", path,
             (long long)(got + 4), (long long)hbytes);
        goto done;
    }
    int64_t total = 1;
    out->ndims = expected_ndims;
    for (int d = 0; d < expected_ndims; d++) {
        uint32_t v = be32(hdr + 4 + 4 * d);
        /* 2^31 bytes is far above any MNIST-like file; it also keeps int counts safe */
        if (v == 0 || v > (1u << 30) || total * (int64_t)v > ((int64_t)1 << 31)) {
            fail(err, errlen, "%s: dimension %d is %u: not a plausible size", path, d, v);
            goto done;
        }
        out->dims[d] = v;
        total *= v;
    }
    out->data = malloc((size_t)total);
    if (!out->data) {
        fail(err, errlen, "%s: cannot allocate %lld bytes", path, (long long)total);
        goto done;
    }
    got = read_full(f, out->data, total, &why);
    if (got < 0) {
        fail(err, errlen, "%s: gzip error (corrupted file?): %s", path, why);
        goto done;
    }
    if (got < total) {
        fail(err, errlen, "%s: truncated: the header declares %lld data bytes, the file has %lld",
             path, (long long)total, (long long)got);
        goto done;
    }
    unsigned char extra;
    got = read_full(f, &extra, 1, &why);
    if (got < 0) {
        fail(err, errlen, "%s: gzip error (corrupted file?): %s", path, why);
        goto done;
    }
    if (got > 0) {
        fail(err, errlen, "%s: more data than the header declares (%lld bytes): wrong header?",
             path, (long long)total);
        goto done;
    }
    rc = 0;
done:
    gzclose(f);
    if (rc) fm_idx_free(out);
    return rc;
}

void fm_idx_free(fm_idx *idx)
{
    free(idx->data);
    memset(idx, 0, sizeof *idx);
}

/* dir/base.gz if it exists, else dir/base if it exists; -1 when neither does. */
static int find_file(const char *dir, const char *base, char *path, size_t len)
{
    struct stat st;
    snprintf(path, len, "%s/%s.gz", dir, base);
    if (stat(path, &st) == 0) return 0;
    snprintf(path, len, "%s/%s", dir, base);
    if (stat(path, &st) == 0) return 0;
    snprintf(path, len, "%s/%s.gz", dir, base);
    return -1;
}

int fm_split_load(const char *dir, const char *prefix, fm_split *out, char *err,
                  size_t errlen)
{
    memset(out, 0, sizeof *out);
    char path[2][4096], base[256];
    for (int i = 0; i < 2; i++) {
        snprintf(base, sizeof base, "%s-%s", prefix, i ? "labels-idx1-ubyte" : "images-idx3-ubyte");
        if (find_file(dir, base, path[i], sizeof path[i]))
            return fail(err, errlen,
                        "Fashion-MNIST file %s not found. Install the Debian package "
                        "dataset-fashion-mnist (apt-get install dataset-fashion-mnist puts "
                        "the files in %s) or give their folder with --data DIR",
                        path[i], FM_DEFAULT_DATA_DIR);
    }
    const char *ipath = path[0], *lpath = path[1];
    fm_idx im, lb;
    if (fm_idx_read(ipath, 3, &im, err, errlen)) return -1;
    if (fm_idx_read(lpath, 1, &lb, err, errlen)) {
        fm_idx_free(&im);
        return -1;
    }
    int rc = -1;
    if (im.dims[0] != lb.dims[0]) {
        fail(err, errlen, "%s holds %lld images but %s holds %lld labels", ipath,
             (long long)im.dims[0], lpath, (long long)lb.dims[0]);
        goto done;
    }
    for (int64_t i = 0; i < lb.dims[0]; i++) {
        if (lb.data[i] >= FM_CLASSES) {
            fail(err, errlen, "%s: label %d of item %lld is outside [0, %d]", lpath,
                 lb.data[i], (long long)i, FM_CLASSES - 1);
            goto done;
        }
    }
    out->n = im.dims[0];
    out->rows = (int)im.dims[1];
    out->cols = (int)im.dims[2];
    out->images = im.data;
    out->labels = lb.data;
    im.data = lb.data = NULL;
    rc = 0;
done:
    fm_idx_free(&im);
    fm_idx_free(&lb);
    return rc;
}

void fm_split_free(fm_split *s)
{
    free(s->images);
    free(s->labels);
    memset(s, 0, sizeof *s);
}
