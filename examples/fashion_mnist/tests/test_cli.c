/* The fashion_mnist program's command line, run as a user would: --help, bad options
 * and values (exit 2 with a message), missing or corrupted data and checkpoints (exit
 * 1 with a message naming the problem), and a tiny complete run with its outputs
 * (metrics.csv, training.png, checkpoint, no temporary files left). */
#include <dirent.h>
#include <sys/stat.h>
#include <string.h>
#include <zlib.h>

#include "fm_model.h"
#include "fm_safetensors.h"
#include "fm_testrun.h"

static char dir[256];

/* Runs args; checks the exit status and that stderr (or stdout when want_out) holds
 * needle. */
static void expect(const char *args, int status, const char *needle, int want_out)
{
    char *out, *err;
    int st = fmt_run(dir, args, &out, &err);
    TU_CHECK(st == status, "'%s': exit %d, expected %d (stderr: %s)", args, st, status, err);
    const char *where = want_out ? out : err;
    TU_CHECK(strstr(where, needle) != NULL, "'%s': %s lacks '%s': %s", args,
             want_out ? "stdout" : "stderr", needle, where);
    free(out);
    free(err);
}

static void test_options(void)
{
    expect("--help", 0, "--limit-train", 1);
    expect("-h", 0, "--freeze", 1);
    expect("--bogus", 2, "unknown option '--bogus'", 0);
    expect("--epochs", 2, "needs a value", 0);
    expect("--epochs 0", 2, "--epochs wants an integer in [1,", 0);
    expect("--epochs 2x", 2, "got '2x'", 0);
    expect("--batch-size -3", 2, "--batch-size", 0);
    expect("--lr 0", 2, "--lr wants a number > 0", 0);
    expect("--lr nan", 2, "--lr", 0);
    expect("--optimizer adamax", 2, "unknown value 'adamax' (one of: sgd, adam, adamw, rmsprop, adagrad)", 0);
    expect("--schedule linear", 2, "--schedule: unknown value 'linear'", 0);
    expect("--freeze conv3", 2, "unknown layer 'conv3'", 0);
    expect("--freeze conv1,conv2,fc1,fc2", 2, "nothing would be trained", 0);
    expect("--threads 0", 2, "--threads", 0);
    expect("--limit-test 0", 2, "--limit-test", 0);
    expect("extra", 2, "unexpected argument 'extra'", 0);
}

static void test_bad_inputs(void)
{
    char args[2048], p[1024];
    expect("--data /nonexistent/fmnist", 1, "Install the Debian package dataset-fashion-mnist", 0);
    expect("--data /nonexistent/fmnist", 1, "--data DIR", 0);

    /* a data folder whose training images have the wrong magic */
    char data[512];
    snprintf(data, sizeof data, "%s/data", dir);
    mkdir(data, 0777);
    const char *names[] = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                           "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"};
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s/%s.gz", FM_DATA_DIR, names[i]);
        size_t len;
        char *bytes = fmt_slurp(p, &len);
        snprintf(p, sizeof p, "%s/%s.gz", data, names[i]);
        FILE *f = fopen(p, "wb");
        fwrite(bytes, 1, len, f);
        fclose(f);
        free(bytes);
    }
    snprintf(p, sizeof p, "%s/train-images-idx3-ubyte.gz", data);
    gzFile g = gzopen(p, "wb");
    gzwrite(g, "\x00\x00\x08\x01\x00\x00\x00\x01\x00", 9);
    gzclose(g);
    snprintf(args, sizeof args, "--data %s", data);
    expect(args, 1, "bad IDX magic 0x00000801", 0);

    /* checkpoints: missing, not safetensors, corrupted, another architecture */
    expect("--resume /nonexistent.safetensors", 1, "cannot resume: cannot open", 0);
    snprintf(p, sizeof p, "%s/junk.safetensors", dir);
    FILE *f = fopen(p, "wb");
    fputs("this is not a checkpoint at all", f);
    fclose(f);
    snprintf(args, sizeof args, "--resume %s", p);
    expect(args, 1, "cannot resume", 0);
    expect(args, 1, "not a safetensors file", 0);

    pdnnHandle_t h;
    TU_OK(pdnnCreate(&h));
    fm_net net;
    TU_CHECK(fm_net_create(&net, h, 1) == 0, "create: %s", net.err);
    fm_net_init(&net, 1);
    fm_st_tensor t[FM_NPARAMS];
    int n = fm_net_tensors(&net, false, t);
    t[2].shape[0] = 48; /* conv2 with 48 filters */
    t[2].numel = 48 * 32 * 25;
    float *w = calloc(t[2].numel, 4);
    t[2].data = w;
    const char *kv[] = {"pdnn.arch", "some-other-net", "pdnn.format",
                        "pdnn-fashion-mnist-checkpoint-1", "epoch", "1", "step", "10",
                        "optimizer", "sgd"};
    snprintf(p, sizeof p, "%s/other.safetensors", dir);
    char err[1024];
    TU_CHECK(fm_st_save(p, t, n, kv, 5, err, sizeof err) == 0, "save: %s", err);
    snprintf(args, sizeof args, "--resume %s --optimizer adam", p);
    expect(args, 1, "architecture 'some-other-net'", 0);
    kv[1] = FM_ARCH;
    TU_CHECK(fm_st_save(p, t, n, kv, 5, err, sizeof err) == 0, "save: %s", err);
    expect(args, 1, "tensor 'conv2.weight' has shape [48, 32, 5, 5], this network needs [64, 32, 5, 5]", 0);
    /* epoch and step past anything a run records (the header is not checksummed): an
     * int-overflowing epoch, a step at the 64-bit limit */
    const char *bad[][2] = {{"2147483648", "10"}, {"4294967297", "10"}, {"1", "99999999999999999999"},
                            {"1", "9223372036854775807"}};
    for (int i = 0; i < 4; i++) {
        kv[5] = bad[i][0];
        kv[7] = bad[i][1];
        TU_CHECK(fm_st_save(p, t, n, kv, 5, err, sizeof err) == 0, "save: %s", err);
        expect(args, 1, "out of range", 0);
    }
    kv[5] = "1";
    kv[7] = "10";
    free(w);
    fm_net_destroy(&net);
    TU_OK(pdnnDestroy(h));
    /* a safetensors file without this program's metadata */
    float x[2] = {1, 2};
    fm_st_tensor one = {"x", 1, {2}, 2, x};
    TU_CHECK(fm_st_save(p, &one, 1, NULL, 0, err, sizeof err) == 0, "save: %s", err);
    snprintf(args, sizeof args, "--resume %s", p);
    expect(args, 1, "is not a checkpoint of this program", 0);
}

static void test_tiny_run(void)
{
    char args[2048], p[1024];
    snprintf(args, sizeof args, "--epochs 1 --limit-train 96 --limit-test 50 --batch-size 32 "
                                "--threads 2 --out %s/run --schedule cosine --optimizer sgd", dir);
    char *out, *err;
    int st = fmt_run(dir, args, &out, &err);
    TU_CHECK(st == 0, "tiny run: exit %d: %s", st, err);
    TU_CHECK(strstr(out, "final test accuracy: ") != NULL, "no final accuracy: %s", out);
    TU_CHECK(strstr(out, "epoch 1/1: train loss") != NULL, "no epoch line: %s", out);
    TU_CHECK(strstr(out, "  epoch 1/1 100%") != NULL, "no progress lines off a terminal: %s", out);
    free(out);
    free(err);
    snprintf(p, sizeof p, "%s/run/metrics.csv", dir);
    char *csv = fmt_slurp(p, NULL);
    TU_CHECK(!strncmp(csv, "step,epoch,split,loss,accuracy,lr,images_per_s\n1,1,train,", 57),
             "metrics.csv: %.200s", csv);
    TU_CHECK(strstr(csv, "\n3,1,test,") != NULL, "test row after 3 steps: %s", csv);
    free(csv);
    size_t len;
    snprintf(p, sizeof p, "%s/run/training.png", dir);
    char *png = fmt_slurp(p, &len);
    TU_CHECK(len > 1000 && !memcmp(png, "\x89PNG\r\n\x1a\n", 8), "training.png: %zu bytes", len);
    free(png);
    snprintf(p, sizeof p, "%s/run/checkpoint_epoch1.safetensors", dir);
    fm_st_file f;
    char e[1024];
    TU_CHECK(fm_st_load(p, &f, e, sizeof e) == 0, "checkpoint: %s", e);
    if (f.count) {
        TU_CHECK(!strcmp(fm_st_meta(&f, "epoch"), "1") && !strcmp(fm_st_meta(&f, "step"), "3"),
                 "epoch/step metadata");
        TU_CHECK(!strcmp(fm_st_meta(&f, "optimizer"), "sgd") &&
                     !strcmp(fm_st_meta(&f, "args.schedule"), "cosine"), "optimizer metadata");
        TU_CHECK(!strcmp(fm_st_meta(&f, "optimizer.steps.fc2.bias"), "3"), "step counts");
        TU_CHECK(fm_st_get(&f, "optimizer.fc2.weight") != NULL, "momentum buffer saved");
        fm_st_free(&f);
    }
    snprintf(p, sizeof p, "%s/run", dir);
    DIR *d = opendir(p);
    int files = 0;
    for (struct dirent *ent; d && (ent = readdir(d));) {
        if (ent->d_name[0] == '.') continue;
        files++;
        TU_CHECK(!strstr(ent->d_name, ".tmp"), "temporary file left: %s", ent->d_name);
    }
    if (d) closedir(d);
    TU_CHECK(files == 3, "%d files in the output folder", files);

    /* the checkpoint with one data byte flipped */
    snprintf(p, sizeof p, "%s/run/checkpoint_epoch1.safetensors", dir);
    char *bytes = fmt_slurp(p, &len);
    bytes[len - 100] ^= 1;
    snprintf(p, sizeof p, "%s/flipped.safetensors", dir);
    FILE *fp = fopen(p, "wb");
    fwrite(bytes, 1, len, fp);
    fclose(fp);
    snprintf(args, sizeof args, "--resume %s", p);
    expect(args, 1, "the data is corrupted", 0);
    /* and truncated */
    fp = fopen(p, "wb");
    fwrite(bytes, 1, len - 4096, fp);
    fclose(fp);
    expect(args, 1, "truncated", 0);
    free(bytes);

    /* resuming a finished checkpoint: nothing to train, it is evaluated */
    snprintf(args, sizeof args, "--resume %s/run/checkpoint_epoch1.safetensors --limit-test 50 "
                                "--out %s/run2", dir, dir);
    expect(args, 0, "nothing to train", 1);
    expect(args, 0, "final test accuracy", 1);
}

int main(void)
{
    fmt_scratch(dir, sizeof dir, "cli");
    test_options();
    test_bad_inputs();
    test_tiny_run();
    if (!tu_failures) fmt_remove_tree(dir);
    return tu_finish("examples/fashion_mnist/cli");
}
