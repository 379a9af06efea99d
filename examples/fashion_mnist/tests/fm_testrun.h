/* Helpers of the fashion_mnist tests: scratch folders, running the program and
 * reading what it wrote. Header-only (static functions), shared by the test files. */
#ifndef FM_TESTRUN_H
#define FM_TESTRUN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "testutil.h"

/* A fresh scratch folder under the current directory (the build folder); the path
 * is written to dir. */
static inline void fmt_scratch(char *dir, size_t len, const char *tag)
{
    snprintf(dir, len, "fmtest_%s.XXXXXX", tag);
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(1);
    }
}

static inline void fmt_remove_tree(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

/* The whole file as a NUL-terminated string (empty when missing); free it. */
static inline char *fmt_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0;
    if (f) {
        fseek(f, 0, SEEK_END);
        long sz = ftell(f);
        fseek(f, 0, SEEK_SET);
        buf = malloc((size_t)(sz > 0 ? sz : 0) + 1);
        if (buf) n = fread(buf, 1, (size_t)(sz > 0 ? sz : 0), f);
        fclose(f);
    }
    if (!buf) buf = calloc(1, 1);
    else buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

/* Runs the program with args (a shell fragment) in dir, its stdout and stderr going
 * to dir/out.txt and dir/err.txt, which are read into *out and *err (free them; either
 * pointer may be NULL). Returns the exit status (-1 if it did not exit normally). */
static inline int fmt_run(const char *dir, const char *args, char **out, char **err)
{
    char cmd[8192], p[4200];
    snprintf(cmd, sizeof cmd, "'%s' %s > '%s/out.txt' 2> '%s/err.txt' < /dev/null", FM_BIN, args,
             dir, dir);
    int st = system(cmd);
    snprintf(p, sizeof p, "%s/out.txt", dir);
    if (out) *out = fmt_slurp(p, NULL);
    snprintf(p, sizeof p, "%s/err.txt", dir);
    if (err) *err = fmt_slurp(p, NULL);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#endif
