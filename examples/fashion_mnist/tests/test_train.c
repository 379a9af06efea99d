/* Training end to end (label `slow`): one epoch on 5,000 real training images reaches
 * >= 70% on 1,000 test images; resuming its checkpoint continues the loss where it was
 * (not back at ~2.3) and the step count; a run split by a checkpoint equals an
 * uninterrupted one bitwise (weights, optimizer state, losses); freezing keeps the
 * frozen layers bitwise equal to the checkpoint while the others train. */
#include <math.h>
#include <string.h>

#include "fm_metrics.h"
#include "fm_model.h"
#include "fm_safetensors.h"
#include "fm_testrun.h"

static char dir[256];

static int run(const char *args, char **out)
{
    char *err;
    int st = fmt_run(dir, args, out, &err);
    TU_CHECK(st == 0, "'%s': exit %d: %s", args, st, err);
    free(err);
    return st;
}

static double final_accuracy(const char *out)
{
    const char *p = strstr(out, "final test accuracy: ");
    return p ? atof(p + strlen("final test accuracy: ")) : -1;
}

static int load(const char *path, fm_st_file *f)
{
    char err[1024];
    int rc = fm_st_load(path, f, err, sizeof err);
    TU_CHECK(rc == 0, "%s: %s", path, err);
    return rc;
}

/* 1 when tensor name is bitwise the same in both files */
static int same_tensor(const fm_st_file *a, const fm_st_file *b, const char *name)
{
    const fm_st_tensor *x = fm_st_get(a, name), *y = fm_st_get(b, name);
    TU_CHECK(x && y, "tensor %s missing", name);
    return x && y && x->numel == y->numel && !memcmp(x->data, y->data, x->numel * 4);
}

static void test_train_and_resume(void)
{
    char args[2048], p[1024];
    char *out;
    /* one epoch on 5,000 images */
    snprintf(args, sizeof args, "--epochs 1 --limit-train 5000 --limit-test 1000 --threads 2 "
                                "--out %s/a", dir);
    if (run(args, &out)) return;
    double acc = final_accuracy(out);
    printf("1 epoch on 5000 images: test accuracy %.2f%% on 1000 images\n", acc);
    TU_CHECK(acc >= 70.0, "test accuracy %.2f%% < 70%%: %s", acc, out);
    free(out);

    /* resume for a second epoch (a shorter one: 20 steps) */
    snprintf(args, sizeof args, "--resume %s/a/checkpoint_epoch1.safetensors --epochs 2 "
                                "--limit-train 1280 --limit-test 200 --threads 2 --out %s/a", dir, dir);
    if (run(args, &out)) return;
    TU_CHECK(strstr(out, "resuming") && strstr(out, "at epoch 1, step 79"), "resume line: %s", out);
    TU_CHECK(strstr(out, "epoch 2/2: train loss"), "no epoch 2: %s", out);
    free(out);
    fm_metrics m = {0};
    char err[1024];
    snprintf(p, sizeof p, "%s/a/metrics.csv", dir);
    TU_CHECK(fm_metrics_read(p, INT64_MAX, &m, err, sizeof err) == 0, "%s", err);
    /* rows: 79 train steps of epoch 1, its test row, then epoch 2's 20 steps and test */
    TU_CHECK(m.n == 79 + 1 + 20 + 1, "%d metrics rows", m.n);
    if (m.n == 101) {
        TU_CHECK(m.rows[79].test && m.rows[79].step == 79 && m.rows[80].step == 80 &&
                     m.rows[80].epoch == 2 && !m.rows[80].test && m.rows[100].step == 99,
                 "step numbering continues after the resume");
        double first = 0, before = 0, after = 0;
        for (int i = 0; i < 5; i++) first += m.rows[i].loss / 5;
        for (int i = 69; i < 79; i++) before += m.rows[i].loss / 10;
        for (int i = 80; i < 85; i++) after += m.rows[i].loss / 5;
        printf("mean train loss: first 5 steps %.3f, last 10 before the checkpoint %.3f, "
               "first 5 after resuming %.3f\n", first, before, after);
        TU_CHECK(first > 1.5, "a fresh start begins near ln(10) = 2.3: %.3f", first);
        TU_CHECK(after < 1.0 && after < 1.5 * before + 0.1,
                 "the loss after resuming (%.3f) continues from before (%.3f)", after, before);
    }
    fm_metrics_free(&m);
}

/* 2 epochs straight == resuming the straight run's epoch-1 checkpoint for epoch 2:
 * bitwise (the schedule spans both epochs in both runs). */
static void test_exact_resume(void)
{
    char args[2048], p[1024], q[1024];
    char *out;
    snprintf(args, sizeof args, "--epochs 2 --limit-train 192 --batch-size 32 --limit-test 64 "
                                "--threads 2 --schedule warmup-cosine --seed 5 --out %s/c1", dir);
    if (run(args, &out)) return;
    free(out);
    /* the resumed run takes the options the checkpoint recorded */
    snprintf(args, sizeof args, "--resume %s/c1/checkpoint_epoch1.safetensors --limit-test 64 "
                                "--threads 2 --out %s/c2", dir, dir);
    if (run(args, &out)) return;
    free(out);
    fm_st_file a, b;
    snprintf(p, sizeof p, "%s/c1/checkpoint_epoch2.safetensors", dir);
    snprintf(q, sizeof q, "%s/c2/checkpoint_epoch2.safetensors", dir);
    if (load(p, &a)) return;
    if (load(q, &b)) {
        fm_st_free(&a);
        return;
    }
    TU_CHECK(a.count == b.count && a.count == 2 * FM_NPARAMS, "tensor counts %d %d", a.count, b.count);
    for (int i = 0; i < a.count; i++)
        TU_CHECK(same_tensor(&a, &b, a.tensors[i].name), "%s differs between the straight and the "
                 "resumed run", a.tensors[i].name);
    TU_CHECK(!strcmp(fm_st_meta(&a, "step"), "12") && !strcmp(fm_st_meta(&b, "step"), "12"),
             "steps %s %s", fm_st_meta(&a, "step"), fm_st_meta(&b, "step"));
    fm_st_free(&a);
    fm_st_free(&b);
    fm_metrics ma = {0}, mb = {0};
    char err[1024];
    snprintf(p, sizeof p, "%s/c1/metrics.csv", dir);
    snprintf(q, sizeof q, "%s/c2/metrics.csv", dir);
    TU_CHECK(fm_metrics_read(p, INT64_MAX, &ma, err, sizeof err) == 0, "%s", err);
    TU_CHECK(fm_metrics_read(q, INT64_MAX, &mb, err, sizeof err) == 0, "%s", err);
    /* c2 has no metrics.csv to continue: it holds epoch 2 only */
    TU_CHECK(ma.n == 14 && mb.n == 7, "rows %d %d", ma.n, mb.n);
    for (int i = 0; i < mb.n && i + 7 < ma.n; i++)
        TU_CHECK(ma.rows[i + 7].step == mb.rows[i].step && ma.rows[i + 7].loss == mb.rows[i].loss &&
                     ma.rows[i + 7].lr == mb.rows[i].lr &&
                     ma.rows[i + 7].accuracy == mb.rows[i].accuracy,
                 "row %d: step %lld/%lld loss %g/%g lr %g/%g", i, (long long)ma.rows[i + 7].step,
                 (long long)mb.rows[i].step, ma.rows[i + 7].loss, mb.rows[i].loss,
                 ma.rows[i + 7].lr, mb.rows[i].lr);
    fm_metrics_free(&ma);
    fm_metrics_free(&mb);
}

/* Fine-tuning from the epoch-1 checkpoint with some layers frozen. */
static void test_freeze(const char *frozen_list, const bool *frozen, const char *tag)
{
    char args[2048], p[1024];
    char *out;
    snprintf(args, sizeof args, "--resume %s/a/checkpoint_epoch1.safetensors --epochs 2 "
                                "--limit-train 640 --limit-test 100 --threads 2 --freeze %s "
                                "--out %s/%s", dir, frozen_list, dir, tag);
    if (run(args, &out)) return;
    TU_CHECK(strstr(out, "frozen: "), "no frozen note: %s", out);
    free(out);
    fm_st_file a, b;
    snprintf(p, sizeof p, "%s/a/checkpoint_epoch1.safetensors", dir);
    if (load(p, &a)) return;
    snprintf(p, sizeof p, "%s/%s/checkpoint_epoch2.safetensors", dir, tag);
    if (load(p, &b)) {
        fm_st_free(&a);
        return;
    }
    for (int l = 0; l < FM_NLAYERS; l++) {
        const char *kinds[2] = {"weight", "bias"};
        for (int k = 0; k < 2; k++) {
            char name[64], state[80], steps[96];
            snprintf(name, sizeof name, "%s.%s", fm_layer_names[l], kinds[k]);
            snprintf(state, sizeof state, "optimizer.%s", name);
            snprintf(steps, sizeof steps, "optimizer.steps.%s", name);
            int same = same_tensor(&a, &b, name), same_state = same_tensor(&a, &b, state);
            const char *sa = fm_st_meta(&a, steps), *sb = fm_st_meta(&b, steps);
            if (frozen[l]) {
                TU_CHECK(same && same_state, "--freeze %s: %s changed", frozen_list, name);
                TU_CHECK(sa && sb && !strcmp(sa, "79") && !strcmp(sb, "79"),
                         "--freeze %s: %s steps %s -> %s", frozen_list, name, sa, sb);
            } else {
                TU_CHECK(!same && !same_state, "--freeze %s: %s did not train", frozen_list, name);
                TU_CHECK(sb && !strcmp(sb, "89"), "--freeze %s: %s steps %s", frozen_list, name, sb);
            }
        }
    }
    fm_st_free(&a);
    fm_st_free(&b);
}

int main(void)
{
    fmt_scratch(dir, sizeof dir, "train");
    test_train_and_resume();
    static const bool f1[FM_NLAYERS] = {true, false, false, false},
                      f23[FM_NLAYERS] = {false, true, true, false};
    test_freeze("conv1", f1, "f1");
    test_freeze("conv2,fc1", f23, "f23");
    test_exact_resume();
    if (!tu_failures) fmt_remove_tree(dir);
    return tu_finish("examples/fashion_mnist/train");
}
