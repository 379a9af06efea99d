/* The IDX loader on Debian's real Fashion-MNIST files (counts, first labels and
 * checksums computed once, independently, with Python's gzip and zlib modules) and on
 * corrupted copies made here: bad magic, truncated data, a cut gzip stream, trailing
 * bytes, zero dimensions, image/label count mismatch, labels out of range, missing
 * files. */
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "fm_idx.h"
#include "fm_testrun.h"

static void check_split(const char *prefix, int64_t n, const int *first5, uint64_t pixel_sum,
                        uint32_t crc, uint64_t label_sum, size_t first_nonzero,
                        uint64_t first_image_sum)
{
    fm_split s;
    char err[1024];
    int rc = fm_split_load(FM_DATA_DIR, prefix, &s, err, sizeof err);
    TU_CHECK(rc == 0, "%s: %s", prefix, err);
    if (rc) return;
    TU_CHECK(s.n == n && s.rows == 28 && s.cols == 28, "%s: %lld x %d x %d", prefix,
             (long long)s.n, s.rows, s.cols);
    for (int i = 0; i < 5; i++)
        TU_CHECK(s.labels[i] == first5[i], "%s label %d: %d, expected %d", prefix, i, s.labels[i],
                 first5[i]);
    uint64_t ps = 0, ls = 0;
    size_t bytes = (size_t)s.n * 784;
    for (size_t i = 0; i < bytes; i++) ps += s.images[i];
    for (int64_t i = 0; i < s.n; i++) ls += s.labels[i];
    uLong c = crc32(0L, s.images, (uInt)bytes);
    TU_CHECK(ps == pixel_sum, "%s pixel sum %llu, expected %llu", prefix, (unsigned long long)ps,
             (unsigned long long)pixel_sum);
    TU_CHECK((uint32_t)c == crc, "%s pixel CRC-32 %08lx, expected %08x", prefix, c, crc);
    TU_CHECK(ls == label_sum, "%s label sum %llu", prefix, (unsigned long long)ls);
    size_t nz = 0;
    uint64_t is = 0;
    while (nz < bytes && !s.images[nz]) nz++;
    for (size_t i = 0; i < 784; i++) is += s.images[i];
    TU_CHECK(nz == first_nonzero && is == first_image_sum,
             "%s first image: first non-zero pixel %zu, sum %llu", prefix, nz,
             (unsigned long long)is);
    fm_split_free(&s);
}

/* Writes an IDX file (gzip when gz) with the given magic, dims and data bytes. */
static void write_idx(const char *path, int gz, uint32_t magic, int nd, const uint32_t *dims,
                      const uint8_t *data, size_t n)
{
    unsigned char hdr[16];
    uint32_t words[4] = {magic, 0, 0, 0};
    for (int i = 0; i < nd; i++) words[1 + i] = dims[i];
    for (int w = 0; w <= nd; w++)
        for (int b = 0; b < 4; b++) hdr[4 * w + b] = (unsigned char)(words[w] >> (24 - 8 * b));
    if (gz) {
        gzFile f = gzopen(path, "wb");
        gzwrite(f, hdr, (unsigned)(4 + 4 * nd));
        if (n) gzwrite(f, data, (unsigned)n);
        gzclose(f);
    } else {
        FILE *f = fopen(path, "wb");
        fwrite(hdr, 1, (size_t)(4 + 4 * nd), f);
        fwrite(data, 1, n, f);
        fclose(f);
    }
}

/* A split of n images (n_labels labels) of 28x28 in dir under prefix "train". */
static void write_split(const char *dir, int gz, uint32_t n_images, uint32_t n_labels,
                        uint32_t img_magic, size_t img_bytes, uint8_t bad_label)
{
    char p[4200];
    const char *ext = gz ? ".gz" : "";
    uint8_t *buf = calloc(img_bytes + 1, 1);
    for (size_t i = 0; i < img_bytes; i++) buf[i] = (uint8_t)(i * 7);
    uint32_t d3[3] = {n_images, 28, 28}, d1[1] = {n_labels};
    snprintf(p, sizeof p, "%s/train-images-idx3-ubyte%s", dir, ext);
    write_idx(p, gz, img_magic, 3, d3, buf, img_bytes);
    uint8_t *lb = calloc(n_labels + 1, 1);
    for (uint32_t i = 0; i < n_labels; i++) lb[i] = (uint8_t)(i % 10);
    if (n_labels) lb[n_labels - 1] = bad_label ? bad_label : lb[n_labels - 1];
    snprintf(p, sizeof p, "%s/train-labels-idx1-ubyte%s", dir, ext);
    write_idx(p, gz, 0x801, 1, d1, lb, n_labels);
    free(buf);
    free(lb);
}

static void expect_error(const char *dir, const char *what, const char *needle)
{
    fm_split s;
    char err[2048] = "";
    int rc = fm_split_load(dir, "train", &s, err, sizeof err);
    TU_CHECK(rc == -1, "%s: loaded, expected an error", what);
    TU_CHECK(strstr(err, needle) != NULL, "%s: message '%s' lacks '%s'", what, err, needle);
    if (rc == 0) fm_split_free(&s);
}

static void clean(const char *dir)
{
    char p[4200];
    const char *names[] = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte"};
    for (int i = 0; i < 2; i++) {
        snprintf(p, sizeof p, "%s/%s.gz", dir, names[i]);
        remove(p);
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        remove(p);
    }
}

static void test_corrupted(void)
{
    char dir[256];
    fmt_scratch(dir, sizeof dir, "idx");
    const size_t img = 784;

    /* a valid small split, gzip and plain, loads */
    for (int gz = 0; gz < 2; gz++) {
        write_split(dir, gz, 5, 5, 0x803, 5 * img, 0);
        fm_split s;
        char err[1024];
        int rc = fm_split_load(dir, "train", &s, err, sizeof err);
        TU_CHECK(rc == 0, "valid %s split: %s", gz ? "gzip" : "plain", err);
        if (rc == 0) {
            TU_CHECK(s.n == 5 && s.labels[3] == 3 && s.images[10] == 70, "valid split content");
            fm_split_free(&s);
        }
        clean(dir);
    }
    write_split(dir, 1, 5, 5, 0x804, 5 * img, 0);
    expect_error(dir, "bad magic", "bad IDX magic 0x00000804");
    clean(dir);
    write_split(dir, 1, 5, 5, 0x08030000, 5 * img, 0);
    expect_error(dir, "byte-swapped magic", "magic");
    clean(dir);
    write_split(dir, 1, 5, 5, 0x803, 5 * img - 100, 0);
    expect_error(dir, "truncated images", "truncated");
    clean(dir);
    write_split(dir, 0, 5, 5, 0x803, 5 * img + 3, 0);
    expect_error(dir, "trailing bytes", "more data than the header declares");
    clean(dir);
    write_split(dir, 1, 5, 4, 0x803, 5 * img, 0);
    expect_error(dir, "count mismatch", "5 images but");
    clean(dir);
    write_split(dir, 1, 0, 0, 0x803, 0, 0);
    expect_error(dir, "zero items", "not a plausible size");
    clean(dir);
    write_split(dir, 1, 5, 5, 0x803, 5 * img, 10);
    expect_error(dir, "label 10", "label 10 of item 4 is outside [0, 9]");
    clean(dir);

    /* a real gzip file cut in the middle of its stream */
    char src[4200], dst[4200];
    snprintf(src, sizeof src, "%s/t10k-images-idx3-ubyte.gz", FM_DATA_DIR);
    size_t len;
    char *bytes = fmt_slurp(src, &len);
    TU_CHECK(len > 1000, "read %s", src);
    write_split(dir, 1, 5, 5, 0x803, 5 * img, 0);
    snprintf(dst, sizeof dst, "%s/train-images-idx3-ubyte.gz", dir);
    FILE *f = fopen(dst, "wb");
    fwrite(bytes, 1, len / 2, f);
    fclose(f);
    free(bytes);
    /* the header says 10000 images: its labels file (5) would also mismatch, but the
     * images fail first */
    fm_split s;
    char err[1024] = "";
    TU_CHECK(fm_split_load(dir, "train", &s, err, sizeof err) == -1, "cut gzip stream loaded");
    TU_CHECK(strstr(err, "truncated") || strstr(err, "gzip error"), "cut gzip: '%s'", err);
    clean(dir);

    /* missing files name the Debian package */
    expect_error(dir, "empty folder", "dataset-fashion-mnist");
    expect_error("/nonexistent/fashion", "missing folder", "apt-get install dataset-fashion-mnist");
    fmt_remove_tree(dir);
}

static void test_read_direct(void)
{
    /* fm_idx_read itself: a label file read as images is a magic error */
    char path[4200], err[1024];
    snprintf(path, sizeof path, "%s/t10k-labels-idx1-ubyte.gz", FM_DATA_DIR);
    fm_idx idx;
    TU_CHECK(fm_idx_read(path, 3, &idx, err, sizeof err) == -1 && strstr(err, "magic"),
             "labels as images: %s", err);
    TU_CHECK(fm_idx_read(path, 1, &idx, err, sizeof err) == 0, "labels: %s", err);
    TU_CHECK(idx.dims[0] == 10000 && idx.data[0] == 9, "t10k labels");
    fm_idx_free(&idx);
}

int main(void)
{
    static const int train5[5] = {9, 0, 0, 3, 0}, test5[5] = {9, 2, 1, 1, 6};
    check_split("train", 60000, train5, 3431114169ull, 0xae65dccdu, 270000, 96, 76247);
    check_split("t10k", 10000, test5, 573469082ull, 0x12728439u, 45000, 215, 33456);
    test_read_direct();
    test_corrupted();
    return tu_finish("examples/fashion_mnist/idx");
}
