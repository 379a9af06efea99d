/* The f32 NCHW fast paths of "cpu:direct_dw" (conv_cpu_direct_dw.c), one interface: each
 * path has one function per direction (indexed by pdnn_conv_dir) taking the direction's
 * src, wei and dst (conv_problem.h's pdnn_conv_args order) that returns false, touching
 * nothing, when the problem is outside the path's set, and (for tests) a predicate
 * saying whether it would run. */
#ifndef PDNN_CONV_CPU_DIRECT_DW_PATH_H
#define PDNN_CONV_CPU_DIRECT_DW_PATH_H

#include <stdbool.h>

#include "ops/conv/conv_problem.h"

typedef bool (*pdnn_dw_path_fn)(const pdnn_conv_problem *p, const float *src, const float *wei,
                                float *dst, float alpha, float beta, int nthreads);

typedef struct {
    bool (*applies)(const pdnn_conv_problem *p); /* NULL: not offered */
    pdnn_dw_path_fn run[3];                      /* FWD, BWD_DATA, BWD_FILTER */
} pdnn_dw_path;

/* Runs p->dir of path on the arguments a; false when the path refuses the problem. */
static inline bool pdnn_dw_path_run(const pdnn_dw_path *path, const pdnn_conv_problem *p,
                                    const pdnn_conv_args *a, int nthreads)
{
    return path->run[p->dir](p, a->src, a->wei, a->dst, (float)a->alpha, (float)a->beta,
                             nthreads);
}

#endif
