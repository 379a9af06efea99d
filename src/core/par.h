/* Thread count and work split of the ops' OpenMP loops (internal). Every op partitions
 * over outputs with a fixed-order reduction per output, so neither choice changes a
 * result bit. */
#ifndef PDNN_CORE_PAR_H
#define PDNN_CORE_PAR_H

#include <stdint.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Threads worth using for a loop over `units` independent pieces of output that does
 * about `work` elementary steps in all: 1 for fewer than 2 units or work below
 * min_work (there a parallel region costs more than it saves; each op picks the
 * threshold for its own step), else the handle's count, at most one per unit. */
static inline int pdnn_par_threads(int nthreads, int64_t units, double work, double min_work)
{
    if (units < 2 || work < min_work) return 1;
    return (int64_t)nthreads > units ? (int)units : nthreads;
}

/* Inside a parallel region: the calling thread's contiguous share [*lo, *hi) of n
 * items (all of them outside one). The shares depend only on n and the team size. */
static inline void pdnn_par_share(int64_t n, int64_t *lo, int64_t *hi)
{
    int64_t t = 0, nthr = 1;
#ifdef _OPENMP
    t = omp_get_thread_num();
    nthr = omp_get_num_threads();
#endif
    *lo = n * t / nthr;
    *hi = n * (t + 1) / nthr;
}

#define PDNN_PAR_PRAGMA_(x) _Pragma(#x)

/* `for (int64_t VAR = 0; VAR < N; VAR++) BODY` split over nt threads in a static
 * schedule, so the shares depend only on N and the thread count. One thread runs the
 * loop inline, without a parallel region: libgomp builds and frees a team for every
 * region, even one of a single thread (an aligned allocation, a futex call; ~0.2 us),
 * which a fully connected layer at minibatch 1 (~0.5 us a call) feels. */
#define PDNN_PAR_FOR(nt, var, n, ...)                                                    \
    do {                                                                                 \
        const int pdnn_par_nt_ = (nt);                                                   \
        const int64_t pdnn_par_n_ = (n);                                                 \
        if (pdnn_par_nt_ > 1) {                                                          \
            PDNN_PAR_PRAGMA_(omp parallel for num_threads(pdnn_par_nt_) schedule(static)) \
            for (int64_t var = 0; var < pdnn_par_n_; var++) __VA_ARGS__                  \
        } else {                                                                         \
            for (int64_t var = 0; var < pdnn_par_n_; var++) __VA_ARGS__                  \
        }                                                                                \
    } while (0)

#endif
