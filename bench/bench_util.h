/* Small helpers shared by the bench drivers (pdnn-bench and its peers,
 * pdnn-gemm-bench): clocks, machine description, data fills and comparisons. */
#ifndef PDNN_BENCH_UTIL_H
#define PDNN_BENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Seconds on the bench clock: the wall clock, or with bench_use_cpu_clock() the
 * calling thread's CPU time (meaningful for 1 thread; insensitive to the time the
 * thread is descheduled on a loaded machine). */
double bench_now_s(void);
void bench_use_cpu_clock(void);
bool bench_cpu_clock(void);
void bench_pause_ms(int ms);
/* Best single-call time of fn(arg), in seconds on the bench clock, over a block of
 * calls lasting at least min_s (2 calls at least); with mean, the block's time over its
 * calls instead (the steady cost of back-to-back calls: thread wake-ups, caches the
 * calls share and evict; benchdnn reports both). */
double bench_best_call_s(void (*fn)(void *arg), void *arg, double min_s);
double bench_block_call_s(void (*fn)(void *arg), void *arg, double min_s, bool mean);
/* 1-minute load average, -1 when unknown. */
double bench_load1(void);
/* "model name" of /proc/cpuinfo. */
void bench_cpu_model(char *buf, size_t n);
/* "YYYY-MM-DD HH:MM" local time. */
void bench_date(char *buf, size_t n);

/* 64-byte aligned, zeroed; NULL when out of memory (n may be 0). */
void *bench_alloc(size_t bytes);

/* Deterministic fills from a seed: small integers in [-range, range] (exact in any
 * sum the bench makes) or uniform reals in [-1, 1]. dbl: double, else float. */
void bench_fill_int(void *p, bool dbl, int64_t n, uint64_t seed, int range);
void bench_fill_real(void *p, bool dbl, int64_t n, uint64_t seed);
/* Every element NaN (outputs before a beta = 0 run: nothing of it may leak). */
void bench_fill_nan(void *p, bool dbl, int64_t n);

/* ||a - b||_2 / ||b||_2 (||a - b||_2 when b is zero); NaN anywhere gives +inf. */
double bench_rel_err(const void *a, const void *b, bool dbl, int64_t n);
/* Elements whose bytes differ. */
int64_t bench_bitwise_diff(const void *a, const void *b, bool dbl, int64_t n);

#endif
