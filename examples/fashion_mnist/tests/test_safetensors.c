/* safetensors: round trip (names, shapes, data bitwise, metadata), the byte layout
 * (length prefix, JSON, 8-byte padding, offsets), a file written by hand as other
 * writers do (no metadata, no padding), corrupted files (truncated, flipped data byte,
 * bad header length, bad JSON, other dtype, offsets that do not match, overlap),
 * atomic writes; and network checkpoints: parameters and optimizer state restored
 * bitwise, wrong architecture and missing tensors refused without touching the
 * network. */
#include <dirent.h>
#include <math.h>
#include <string.h>

#include "fm_model.h"
#include "fm_safetensors.h"
#include "fm_testrun.h"

static char dir[256];

static void path_in(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

static void write_bytes(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    fwrite(p, 1, n, f);
    fclose(f);
}

static void expect_load_error(const char *path, const char *what, const char *needle)
{
    fm_st_file f;
    char err[2048] = "";
    int rc = fm_st_load(path, &f, err, sizeof err);
    TU_CHECK(rc == -1, "%s: loaded, expected an error", what);
    TU_CHECK(strstr(err, needle) != NULL, "%s: message '%s' lacks '%s'", what, err, needle);
    if (rc == 0) fm_st_free(&f);
}

static int count_entries(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

/* A hand-made file: header JSON text (unpadded) and data. */
static void handmade(const char *path, const char *json, const void *data, size_t n)
{
    size_t h = strlen(json);
    unsigned char *buf = malloc(8 + h + n);
    for (int i = 0; i < 8; i++) buf[i] = (unsigned char)((uint64_t)h >> (8 * i));
    memcpy(buf + 8, json, h);
    if (n) memcpy(buf + 8 + h, data, n);
    write_bytes(path, buf, 8 + h + n);
    free(buf);
}

static void test_round_trip(void)
{
    char path[4200], err[1024];
    path_in(path, sizeof path, "rt.safetensors");
    float a[24], b[3] = {1.5f, -0.0f, INFINITY}, c[1] = {42.0f};
    tu_seed(7);
    for (int i = 0; i < 24; i++) a[i] = (float)tu_uniform(-1, 1);
    fm_st_tensor t[4] = {
        {"layer.weight", 4, {2, 3, 2, 2}, 24, a},
        {"layer.bias", 1, {3}, 3, b},
        {"scalar", 0, {0}, 1, c},
        {"empty", 2, {0, 5}, 0, NULL},
    };
    const char *kv[] = {"epoch", "3", "note", "h\xc3\xa9llo \"quoted\""};
    TU_CHECK(fm_st_save(path, t, 4, kv, 2, err, sizeof err) == 0, "save: %s", err);
    TU_CHECK(count_entries() == 1, "a temporary file was left behind");

    /* the byte layout */
    size_t len;
    char *raw = fmt_slurp(path, &len);
    uint64_t h = 0;
    for (int i = 0; i < 8; i++) h |= (uint64_t)(unsigned char)raw[i] << (8 * i);
    TU_CHECK(h % 8 == 0 && 8 + h + (24 + 3 + 1) * 4 == len, "header %llu, file %zu bytes",
             (unsigned long long)h, len);
    TU_CHECK(raw[8] == '{', "header is not a JSON object");
    TU_CHECK(strstr(raw + 8, "\"layer.weight\":{\"dtype\":\"F32\",\"shape\":[2,3,2,2],"
                             "\"data_offsets\":[0,96]}") != NULL, "entry layout: %.300s", raw + 8);
    TU_CHECK(memcmp(raw + 8 + h, a, 96) == 0, "first tensor's bytes right after the header");
    free(raw);

    fm_st_file f;
    TU_CHECK(fm_st_load(path, &f, err, sizeof err) == 0, "load: %s", err);
    TU_CHECK(f.count == 4, "count %d", f.count);
    for (int i = 0; i < 4; i++) {
        const fm_st_tensor *g = fm_st_get(&f, t[i].name);
        TU_CHECK(g != NULL, "tensor %s missing", t[i].name);
        if (!g) continue;
        TU_CHECK(g->ndim == t[i].ndim && g->numel == t[i].numel &&
                     !memcmp(g->shape, t[i].shape, sizeof(int64_t) * (size_t)t[i].ndim),
                 "%s shape", t[i].name);
        TU_CHECK(!t[i].numel || !memcmp(g->data, t[i].data, t[i].numel * 4), "%s data", t[i].name);
    }
    TU_CHECK(fm_st_meta(&f, "epoch") && !strcmp(fm_st_meta(&f, "epoch"), "3"), "metadata epoch");
    TU_CHECK(fm_st_meta(&f, "note") && !strcmp(fm_st_meta(&f, "note"), kv[3]), "metadata note");
    TU_CHECK(fm_st_get(&f, "nope") == NULL && fm_st_meta(&f, "nope") == NULL, "absent names");
    fm_st_free(&f);

    /* overwrite in place: atomic replace, still one file */
    c[0] = 7.0f;
    TU_CHECK(fm_st_save(path, t, 3, NULL, 0, err, sizeof err) == 0, "resave: %s", err);
    TU_CHECK(fm_st_load(path, &f, err, sizeof err) == 0 && f.count == 3 &&
                 fm_st_get(&f, "scalar")->data[0] == 7.0f, "resaved: %s", err);
    fm_st_free(&f);
    TU_CHECK(count_entries() == 1, "files after resave");

    /* a folder that does not exist: error, nothing created */
    char bad[4200];
    path_in(bad, sizeof bad, "missing/dir/x.safetensors");
    TU_CHECK(fm_st_save(bad, t, 1, NULL, 0, err, sizeof err) == -1 && strstr(err, "cannot"),
             "save into a missing folder: %s", err);
    TU_CHECK(fm_st_save(path, t, 2, (const char *[]){"x", "y"}, 0, err, sizeof err) == 0, "ok");
    fm_st_tensor dup[2] = {t[0], t[0]};
    TU_CHECK(fm_st_save(bad, dup, 2, NULL, 0, err, sizeof err) == -1 && strstr(err, "twice"),
             "duplicate names: %s", err);
}

static void test_handmade_and_corrupted(void)
{
    char path[4200], err[1024];
    path_in(path, sizeof path, "hand.safetensors");
    float d[3] = {1, 2, 3};
    /* as another writer would: no metadata, no padding, keys in any order */
    handmade(path, "{\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[8,12]},"
                   "\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", d, 12);
    fm_st_file f;
    TU_CHECK(fm_st_load(path, &f, err, sizeof err) == 0, "hand-made: %s", err);
    if (f.count == 2) {
        TU_CHECK(fm_st_get(&f, "a")->data[1] == 2 && fm_st_get(&f, "b")->data[0] == 3,
                 "hand-made values");
        fm_st_free(&f);
    }
    handmade(path, "{\"a\":{\"dtype\":\"F16\",\"shape\":[2],\"data_offsets\":[0,4]}}", d, 4);
    expect_load_error(path, "F16", "only F32");
    handmade(path, "{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}", d, 8);
    expect_load_error(path, "offsets vs shape", "its shape needs 12");
    handmade(path, "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                   "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", d, 8);
    expect_load_error(path, "overlap", "overlap or gap");
    handmade(path, "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", d, 12);
    expect_load_error(path, "extra bytes", "tensors cover 8");
    handmade(path, "{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]}}", d, 8);
    expect_load_error(path, "short data", "truncated?");
    handmade(path, "{\"a\":{\"dtype\":\"F32\",\"shape\":[2]", d, 8);
    expect_load_error(path, "bad JSON", "not a JSON object");
    handmade(path, "[1,2]", d, 0);
    expect_load_error(path, "JSON array", "not a JSON object");
    handmade(path, "{\"a\":{\"dtype\":\"F32\",\"shape\":[-2],\"data_offsets\":[0,8]}}", d, 8);
    expect_load_error(path, "negative dim", "not a valid size");
    handmade(path, "{\"__metadata__\":{\"k\":5}}", d, 0);
    expect_load_error(path, "non-string metadata", "not a string");
    write_bytes(path, "\x05\x00", 2);
    expect_load_error(path, "2-byte file", "too short");
    write_bytes(path, "\xff\xff\xff\xff\x00\x00\x00\x00{}", 10);
    expect_load_error(path, "huge header length", "does not fit the file");
    write_bytes(path, "", 0);
    expect_load_error(path, "empty file", "too short");
    path_in(path, sizeof path, "absent.safetensors");
    expect_load_error(path, "missing file", "cannot open");
    expect_load_error(dir, "a folder", "not a regular file");

    /* a written file, truncated or with one data byte flipped */
    float a[64];
    for (int i = 0; i < 64; i++) a[i] = (float)i / 7;
    fm_st_tensor t = {"w", 2, {8, 8}, 64, a};
    path_in(path, sizeof path, "good.safetensors");
    TU_CHECK(fm_st_save(path, &t, 1, NULL, 0, err, sizeof err) == 0, "save: %s", err);
    size_t len;
    char *raw = fmt_slurp(path, &len);
    path_in(path, sizeof path, "cut.safetensors");
    write_bytes(path, raw, len - 5);
    expect_load_error(path, "truncated", "truncated?");
    write_bytes(path, raw, 20);
    expect_load_error(path, "cut in the header", "does not fit the file");
    raw[len - 30] ^= 0x10;
    path_in(path, sizeof path, "flip.safetensors");
    write_bytes(path, raw, len);
    expect_load_error(path, "flipped data bit", "corrupted (CRC-32");
    free(raw);
}

/* ---- network checkpoints */

static void fill_random(fm_net *net, uint64_t seed)
{
    tu_seed(seed);
    for (int i = 0; i < FM_NPARAMS; i++) {
        for (size_t j = 0; j < net->p[i].numel; j++) net->p[i].w[j] = (float)tu_uniform(-1, 1);
        float *s = net->p[i].state;
        for (size_t j = 0; j < net->p[i].state_bytes / 4; j++) s[j] = (float)tu_uniform(0, 1);
        net->p[i].steps = 5 + i;
    }
}

static int save_net(const fm_net *net, const char *path, const char *arch)
{
    char keys[FM_NPARAMS][64], vals[FM_NPARAMS][32], err[1024];
    const char *kv[2 * (FM_NPARAMS + 1)];
    kv[0] = "pdnn.arch";
    kv[1] = arch;
    for (int i = 0; i < FM_NPARAMS; i++) {
        snprintf(keys[i], sizeof keys[i], "optimizer.steps.%s", net->p[i].name);
        snprintf(vals[i], sizeof vals[i], "%lld", (long long)net->p[i].steps);
        kv[2 + 2 * i] = keys[i];
        kv[3 + 2 * i] = vals[i];
    }
    fm_st_tensor t[2 * FM_NPARAMS];
    int n = fm_net_tensors(net, true, t);
    int rc = fm_st_save(path, t, n, kv, FM_NPARAMS + 1, err, sizeof err);
    TU_CHECK(rc == 0, "save: %s", err);
    return rc;
}

static bool same_params(const fm_net *a, const fm_net *b, bool state)
{
    for (int i = 0; i < FM_NPARAMS; i++) {
        if (memcmp(a->p[i].w, b->p[i].w, a->p[i].numel * 4)) return false;
        if (state && (a->p[i].steps != b->p[i].steps ||
                      memcmp(a->p[i].state, b->p[i].state, a->p[i].state_bytes)))
            return false;
    }
    return true;
}

static void test_checkpoints(void)
{
    pdnnHandle_t h;
    TU_OK(pdnnCreate(&h));
    TU_OK(pdnnSetNumThreads(h, 2));
    pdnnOptimizerDescriptor_t adam, sgd;
    TU_OK(pdnnCreateOptimizerDescriptor(&adam));
    TU_OK(pdnnSetOptimizerDescriptorAdam(adam, 0.9, 0.999, 1e-8, 0, 0));
    TU_OK(pdnnCreateOptimizerDescriptor(&sgd));
    TU_OK(pdnnSetOptimizerDescriptorSGD(sgd, 0.9, 0, 0, 0));
    fm_net a, b;
    TU_CHECK(fm_net_create(&a, h, 2) == 0, "create: %s", a.err);
    TU_CHECK(fm_net_create(&b, h, 2) == 0, "create: %s", b.err);
    TU_CHECK(fm_net_set_optimizer(&a, adam) == 0 && fm_net_set_optimizer(&b, adam) == 0, "opt");
    TU_CHECK(a.p[0].state_bytes == 2 * a.p[0].numel * 4, "adam keeps 2 buffers: %zu bytes",
             a.p[0].state_bytes);
    fill_random(&a, 1);
    fill_random(&b, 2);
    char path[4200];
    path_in(path, sizeof path, "net.safetensors");
    save_net(&a, path, FM_ARCH);
    fm_st_file f;
    char err[1024];
    TU_CHECK(fm_st_load(path, &f, err, sizeof err) == 0, "load: %s", err);
    const fm_st_tensor *fc1 = fm_st_get(&f, "fc1.weight"), *st = fm_st_get(&f, "optimizer.conv2.weight");
    TU_CHECK(fc1 && fc1->ndim == 2 && fc1->shape[0] == 128 && fc1->shape[1] == 3136,
             "fc1.weight has PyTorch's Linear shape [128, 3136]");
    TU_CHECK(st && st->ndim == 5 && st->shape[0] == 2 && st->shape[1] == 64, "state shape");
    TU_CHECK(fm_net_load(&b, &f, path, true) == 0, "load into net: %s", b.err);
    TU_CHECK(same_params(&a, &b, true), "parameters, state and steps restored bitwise");
    fm_st_free(&f);

    /* weights only (another optimizer: its state is not read) */
    fm_net c;
    TU_CHECK(fm_net_create(&c, h, 2) == 0 && fm_net_set_optimizer(&c, sgd) == 0, "create c");
    TU_CHECK(fm_st_load(path, &f, err, sizeof err) == 0, "load: %s", err);
    TU_CHECK(fm_net_load(&c, &f, path, false) == 0, "weights only: %s", c.err);
    TU_CHECK(same_params(&a, &c, false) && c.p[0].steps == 0, "weights only restored");
    /* with state: SGD wants 1 buffer, the file has Adam's 2 */
    TU_CHECK(fm_net_load(&c, &f, path, true) == -1 && strstr(c.err, "optimizer.conv1.weight"),
             "sgd state from an adam checkpoint: %s", c.err);
    fm_st_free(&f);

    /* another architecture: conv1 with 16 filters; tag and shapes checked, net untouched */
    fill_random(&b, 3);
    fm_net snap;
    TU_CHECK(fm_net_create(&snap, h, 1) == 0 && fm_net_set_optimizer(&snap, adam) == 0, "snap");
    fill_random(&snap, 3);
    a.p[0].shape[0] = 16;
    a.p[0].numel = 16 * 25;
    path_in(path, sizeof path, "other.safetensors");
    save_net(&a, path, FM_ARCH);
    TU_CHECK(fm_st_load(path, &f, err, sizeof err) == 0, "load: %s", err);
    TU_CHECK(fm_net_load(&b, &f, path, true) == -1 && strstr(b.err, "another architecture") &&
                 strstr(b.err, "[16, 1, 5, 5]"), "wrong shape: %s", b.err);
    TU_CHECK(same_params(&b, &snap, true), "the network is unchanged after a refused load");
    fm_st_free(&f);
    a.p[0].shape[0] = 32;
    a.p[0].numel = 32 * 25;
    save_net(&a, path, "resnet18");
    TU_CHECK(fm_st_load(path, &f, err, sizeof err) == 0, "load: %s", err);
    TU_CHECK(fm_net_load(&b, &f, path, false) == -1 && strstr(b.err, "architecture 'resnet18'"),
             "wrong architecture tag: %s", b.err);
    fm_st_free(&f);
    fm_st_tensor one = {"conv1.weight", 4, {32, 1, 5, 5}, 800, a.p[0].w};
    const char *kv[] = {"pdnn.arch", FM_ARCH};
    TU_CHECK(fm_st_save(path, &one, 1, kv, 1, err, sizeof err) == 0, "save: %s", err);
    TU_CHECK(fm_st_load(path, &f, err, sizeof err) == 0, "load: %s", err);
    TU_CHECK(fm_net_load(&b, &f, path, false) == -1 && strstr(b.err, "no tensor 'conv1.bias'"),
             "missing tensor: %s", b.err);
    TU_CHECK(same_params(&b, &snap, true), "unchanged after a missing tensor");
    fm_st_free(&f);

    fm_net_destroy(&a);
    fm_net_destroy(&b);
    fm_net_destroy(&c);
    fm_net_destroy(&snap);
    TU_OK(pdnnDestroyOptimizerDescriptor(adam));
    TU_OK(pdnnDestroyOptimizerDescriptor(sgd));
    TU_OK(pdnnDestroy(h));
}

int main(void)
{
    fmt_scratch(dir, sizeof dir, "st");
    test_round_trip();
    fmt_remove_tree(dir);
    fmt_scratch(dir, sizeof dir, "st");
    test_handmade_and_corrupted();
    test_checkpoints();
    fmt_remove_tree(dir);
    return tu_finish("examples/fashion_mnist/safetensors");
}
