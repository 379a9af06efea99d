/* Helpers shared by the bench drivers (see bench_util.h). */
#include "bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static clockid_t bench_clock = CLOCK_MONOTONIC;

double bench_now_s(void)
{
    struct timespec t;
    clock_gettime(bench_clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void bench_use_cpu_clock(void) { bench_clock = CLOCK_THREAD_CPUTIME_ID; }

bool bench_cpu_clock(void) { return bench_clock != CLOCK_MONOTONIC; }

void bench_pause_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

double bench_best_call_s(void (*fn)(void *arg), void *arg, double min_s)
{
    return bench_block_call_s(fn, arg, min_s, false);
}

double bench_block_call_s(void (*fn)(void *arg), void *arg, double min_s, bool mean)
{
    double best = INFINITY, t0 = bench_now_s(), t1 = t0;
    long calls = 0;
    if (mean) { /* no clock reads between the calls */
        do {
            fn(arg);
            calls++;
            t1 = bench_now_s();
        } while (calls < 2 || t1 - t0 < min_s);
        return (t1 - t0) / (double)calls;
    }
    do {
        double s = bench_now_s();
        fn(arg);
        double e = bench_now_s() - s;
        if (e < best) best = e;
        calls++;
    } while (calls < 2 || bench_now_s() - t0 < min_s);
    return best;
}

double bench_load1(void)
{
    double l[1] = {-1};
    return getloadavg(l, 1) == 1 ? l[0] : -1;
}

void bench_cpu_model(char *buf, size_t n)
{
    snprintf(buf, n, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10)) {
            char *p = strchr(line, ':');
            if (p) {
                p += 2;
                p[strcspn(p, "\n")] = 0;
                snprintf(buf, n, "%s", p);
            }
            break;
        }
    fclose(f);
}

void bench_date(char *buf, size_t n)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(buf, n, "%Y-%m-%d %H:%M", &tm);
}

void *bench_alloc(size_t bytes)
{
    size_t b = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, b ? b : 64);
    if (p) memset(p, 0, b ? b : 64);
    return p;
}

/* splitmix64: a full-period generator good enough for test data */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void store(void *p, bool dbl, int64_t i, double v)
{
    if (dbl)
        ((double *)p)[i] = v;
    else
        ((float *)p)[i] = (float)v;
}

void bench_fill_int(void *p, bool dbl, int64_t n, uint64_t seed, int range)
{
    uint64_t s = seed;
    for (int64_t i = 0; i < n; i++)
        store(p, dbl, i, (double)((int64_t)(next_u64(&s) % (uint64_t)(2 * range + 1)) - range));
}

void bench_fill_real(void *p, bool dbl, int64_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (int64_t i = 0; i < n; i++)
        store(p, dbl, i, (double)(next_u64(&s) >> 11) * 0x1.0p-52 - 1.0);
}

void bench_fill_nan(void *p, bool dbl, int64_t n)
{
    for (int64_t i = 0; i < n; i++) store(p, dbl, i, NAN);
}

double bench_rel_err(const void *a, const void *b, bool dbl, int64_t n)
{
    double num = 0, den = 0;
    for (int64_t i = 0; i < n; i++) {
        double x = dbl ? ((const double *)a)[i] : ((const float *)a)[i];
        double y = dbl ? ((const double *)b)[i] : ((const float *)b)[i];
        if (isnan(x) || isnan(y)) return INFINITY;
        num += (x - y) * (x - y);
        den += y * y;
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

int64_t bench_bitwise_diff(const void *a, const void *b, bool dbl, int64_t n)
{
    size_t es = dbl ? sizeof(double) : sizeof(float);
    int64_t d = 0;
    for (int64_t i = 0; i < n; i++)
        if (memcmp((const char *)a + (size_t)i * es, (const char *)b + (size_t)i * es, es)) d++;
    return d;
}
