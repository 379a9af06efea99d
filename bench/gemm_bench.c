/* pdnn-gemm-bench: times pdnn's internal GEMM (src/gemm) and, when built with a peer
 * (bench/peers/), the peer's GEMM side by side in one run, on the same matrices and
 * thread counts. Row-major C = A * B, no transposes, alpha 1, beta 0.
 *
 *   pdnn-gemm-bench [-d] [-P] [-c] [-t 1,2] [-r ROUNDS] [-m SECONDS] [MxNxK ...]
 *
 * -d: DOUBLE instead of FLOAT. -P: pdnn alone (no peer calls). -c: time with the calling
 * thread's CPU clock instead of the wall clock: meaningful for 1 thread only (both
 * libraries then compute in the calling thread), and insensitive to the time the thread
 * spends descheduled on a loaded machine (comparisons, not the reported numbers). Default shapes: M=N=K in {256, 512, 1024, 2048} and the
 * tall-skinny GEMMs of convolutions (64x25088x800, 32x50176x25). For every shape and
 * thread count, ROUNDS rounds (default 3) each time pdnn, then the peer, in blocks of at
 * least SECONDS (default 0.25) with a pause between blocks so the other library's idle
 * threads stop spinning (OpenBLAS's spin for ~0.1 s after each call); the best single call of all rounds is reported (the machine may
 * be shared: the best run is the one least disturbed). This is a benchmark, never a
 * test: it prints numbers and checks only that both libraries agree. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"
#include "cpu/cache.h"
#include "cpu/isa.h"
#include "gemm/gemm.h"

#ifdef PDNN_BENCH_PEER
#include "peers.h"
#endif

typedef struct {
    int64_t m, n, k;
} shape;

typedef struct {
    int dbl;
    int64_t m, n, k;
    const void *a, *b;
    void *c, *scratch;
    int threads;
} job;

/* The timed calls (bench_best_call_s): arg is a job. */
static void run_pdnn(void *arg)
{
    const job *j = arg;
    pdnn_gemm(j->dbl ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT, false, false, j->m, j->n, j->k, 1.0,
              j->a, j->k, j->b, j->n, 0.0, j->c, j->n, j->scratch, j->threads);
}

#ifdef PDNN_BENCH_PEER
static void run_peer(void *arg)
{
    const job *j = arg;
    if (j->dbl)
        peer_dgemm(j->m, j->n, j->k, j->a, j->b, j->c);
    else
        peer_sgemm(j->m, j->n, j->k, j->a, j->b, j->c);
}
#endif

int main(int argc, char **argv)
{
    int dbl = 0, no_peer = 0, rounds = 3, threads[8] = {1, 2}, nthr = 2;
    double min_s = 0.25;
    shape shapes[32];
    int ns = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-d")) {
            dbl = 1;
        } else if (!strcmp(argv[i], "-P")) {
            no_peer = 1;
        } else if (!strcmp(argv[i], "-c")) {
            bench_use_cpu_clock();
        } else if (!strcmp(argv[i], "-r") && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "-m") && i + 1 < argc) {
            min_s = atof(argv[++i]);
        } else if (!strcmp(argv[i], "-t") && i + 1 < argc) {
            nthr = 0;
            for (char *p = argv[++i]; *p && nthr < 8;) {
                threads[nthr++] = (int)strtol(p, &p, 10);
                if (*p == ',') p++;
                else break;
            }
        } else {
            long long m, n, k;
            if (ns < 32 && sscanf(argv[i], "%lldx%lldx%lld", &m, &n, &k) == 3 && m > 0 && n > 0 &&
                k > 0) {
                shapes[ns++] = (shape){m, n, k};
            } else {
                fprintf(stderr,
                        "usage: %s [-d] [-P] [-c] [-t 1,2] [-r ROUNDS] [-m SECONDS] [MxNxK ...]\n",
                        argv[0]);
                return 2;
            }
        }
    }
    if (!ns) {
        static const shape def[] = {{256, 256, 256},    {512, 512, 512}, {1024, 1024, 1024},
                                    {2048, 2048, 2048}, {64, 25088, 800}, {32, 50176, 25}};
        for (size_t i = 0; i < sizeof def / sizeof def[0]; i++) shapes[ns++] = def[i];
    }
    if (rounds < 1) rounds = 1;

    const pdnnDataType_t t = dbl ? PDNN_DATA_DOUBLE : PDNN_DATA_FLOAT;
    const size_t es = dbl ? sizeof(double) : sizeof(float);
    const pdnn_gemm_ukernel *uk = pdnn_gemm_ukernel_select(t);
    const pdnn_cpu_caches *cc = pdnn_cpu_cache_sizes();
    char model[256];
    bench_cpu_model(model, sizeof model);
    char date[32];
    bench_date(date, sizeof date);
    printf("# pdnn-gemm-bench %s, %s GEMM, row-major NN, alpha 1 beta 0\n", date,
           dbl ? "f64" : "f32");
    printf("# cpu: %s, %ld online, isa %s, caches L1d %zu KiB, L2 %zu KiB, L3 %zu KiB\n", model,
           sysconf(_SC_NPROCESSORS_ONLN), pdnn_isa_name(pdnn_cpu_isa()), cc->l1d >> 10,
           cc->l2 >> 10, cc->l3 >> 10);
    printf("# pdnn: %s\n", uk ? uk->name : "(no kernel)");
#ifdef PDNN_BENCH_PEER
    printf("# peer: %s\n", no_peer ? "none (-P)" : peer_gemm_describe());
#else
    printf("# peer: none (built without OpenBLAS)\n");
#endif
    printf("# best single call of %d rounds x blocks >= %.2f s (%s); load average at start %.2f\n",
           rounds, min_s, bench_cpu_clock() ? "thread CPU clock" : "wall clock",
           bench_load1());
    printf("%6s %6s %6s %3s %11s %11s %7s %9s %5s\n", "M", "N", "K", "thr", "pdnn GF/s",
           "peer GF/s", "ratio", "max diff", "load");

    for (int si = 0; si < ns; si++) {
        const shape s = shapes[si];
        size_t na = (size_t)(s.m * s.k), nb = (size_t)(s.k * s.n), nc = (size_t)(s.m * s.n);
        void *a = malloc(na * es), *b = malloc(nb * es), *c = malloc(nc * es);
        void *c2 = malloc(nc * es);
        srand(42);
        for (size_t i = 0; i < na + nb; i++) {
            double v = (double)rand() / RAND_MAX - 0.5;
            if (dbl)
                ((double *)(i < na ? a : b))[i < na ? i : i - na] = v;
            else
                ((float *)(i < na ? a : b))[i < na ? i : i - na] = (float)v;
        }
        for (int ti = 0; ti < nthr; ti++) {
            int maxt = threads[ti] > 1 ? threads[ti] : 1;
            size_t sb = pdnn_gemm_scratch_size(t, s.m, s.n, s.k, maxt);
            void *scratch = malloc(sb ? sb : 1);
            job j = {dbl, s.m, s.n, s.k, a, b, c, scratch, maxt};
            double tp = INFINITY, tq = INFINITY;
#ifdef PDNN_BENCH_PEER
            job jq = j;
            jq.c = c2;
            if (!no_peer) {
                peer_gemm_set_threads(maxt);
                run_peer(&jq); /* warm-up */
            }
#endif
            run_pdnn(&j);
            for (int r = 0; r < rounds; r++) {
                /* OpenBLAS's idle threads spin (sched_yield) for about 2^28 cycles after
                 * a call and would steal the cores from pdnn's team: let them sleep */
                bench_pause_ms(no_peer ? 20 : 500);
                double x = bench_best_call_s(run_pdnn, &j, min_s);
                if (x < tp) tp = x;
#ifdef PDNN_BENCH_PEER
                if (!no_peer) {
                    bench_pause_ms(100);
                    x = bench_best_call_s(run_peer, &jq, min_s);
                    if (x < tq) tq = x;
                }
#endif
            }
            double flop = 2.0 * (double)s.m * (double)s.n * (double)s.k;
            double diff = NAN; /* max |pdnn - peer| / max |peer| */
            if (isfinite(tq)) {
                double num = 0, den = 0;
                for (size_t i = 0; i < nc; i++) {
                    double x = dbl ? ((double *)c)[i] : ((float *)c)[i];
                    double y = dbl ? ((double *)c2)[i] : ((float *)c2)[i];
                    num = fmax(num, fabs(x - y));
                    den = fmax(den, fabs(y));
                }
                diff = den > 0 ? num / den : num;
            }
            double gp = flop / tp * 1e-9, gq = flop / tq * 1e-9;
            printf("%6lld %6lld %6lld %3d %11.1f %11.1f %7.3f %9.2g %5.2f\n", (long long)s.m,
                   (long long)s.n, (long long)s.k, maxt, gp, isfinite(tq) ? gq : NAN,
                   isfinite(tq) ? gp / gq : NAN, diff, bench_load1());
            fflush(stdout);
            free(scratch);
        }
        free(a);
        free(b);
        free(c);
        free(c2);
    }
    return 0;
}
