/* Convolution implementations (internal): one NULL-terminated list per direction,
 * best first, the reference last. Dispatch takes the first entry that serves the
 * requested cuDNN algorithm (impl->algo), supports the problem and fits the workspace.
 *
 * Included by conv_api.c only (other files reach the lists through
 * pdnn_conv_impl_list in conv_internal.h). A new algorithm is a new file that defines
 * `const pdnn_impl pdnn_conv_<dir>_<backend>_<algo>` plus two lines here: its extern
 * declaration and its place in the list. Every entry reads a pdnn_conv_problem and
 * runs on pdnn_conv_args (ops/conv/conv_problem.h). */
#ifndef PDNN_CONV_IMPLS_H
#define PDNN_CONV_IMPLS_H

#include "core/registry.h"
#include "ops/conv/conv_problem.h"

/* ---- forward (impl->algo is a pdnnConvolutionFwdAlgo_t) */
extern const pdnn_impl pdnn_conv_fwd_ref_direct;          /* "ref:direct", DIRECT */
extern const pdnn_impl pdnn_conv_fwd_cpu_gemm;            /* "cpu:gemm", GEMM */
extern const pdnn_impl pdnn_conv_fwd_cpu_direct_1x1;      /* "cpu:direct_1x1", DIRECT */
extern const pdnn_impl pdnn_conv_fwd_cpu_direct_dw;       /* "cpu:direct_dw", DIRECT */
extern const pdnn_impl pdnn_conv_fwd_cpu_direct_fewc;     /* "cpu:direct_fewc", DIRECT */
extern const pdnn_impl pdnn_conv_fwd_cpu_direct_phase;    /* "cpu:direct_phase", DIRECT */
extern const pdnn_impl pdnn_conv_fwd_cpu_direct_kvec;     /* "cpu:direct_kvec", DIRECT */
extern const pdnn_impl pdnn_conv_fwd_cpu_implicit_gemm;   /* "cpu:implicit_gemm", IMPLICIT_GEMM */
extern const pdnn_impl pdnn_conv_fwd_cpu_implicit_precomp_gemm; /* IMPLICIT_PRECOMP_GEMM */
extern const pdnn_impl pdnn_conv_fwd_cpu_wino;            /* "cpu:winograd_f4x3", WINOGRAD */
extern const pdnn_impl pdnn_conv_fwd_cpu_wino_nonfused;   /* "cpu:winograd_nonfused_f4x3" */
extern const pdnn_impl pdnn_conv_fwd_cpu_wino5;           /* "cpu:winograd_f4x5", WINOGRAD */
extern const pdnn_impl pdnn_conv_fwd_cpu_wino5_nonfused;  /* "cpu:winograd_nonfused_f4x5" */

/* ---- backward data (pdnnConvolutionBwdDataAlgo_t) */
extern const pdnn_impl pdnn_conv_bwd_data_ref_direct;     /* "ref:direct", ALGO_0 */
extern const pdnn_impl pdnn_conv_bwd_data_cpu_gemm;       /* "cpu:gemm", ALGO_1 */
extern const pdnn_impl pdnn_conv_bwd_data_cpu_direct_1x1; /* "cpu:direct_1x1", ALGO_0 */
extern const pdnn_impl pdnn_conv_bwd_data_cpu_direct_dw;  /* "cpu:direct_dw", ALGO_0 */
extern const pdnn_impl pdnn_conv_bwd_data_cpu_direct_phase; /* "cpu:direct_phase", ALGO_0 */
extern const pdnn_impl pdnn_conv_bwd_data_cpu_direct_kvec;  /* "cpu:direct_kvec", ALGO_0 */
extern const pdnn_impl pdnn_conv_bwd_data_cpu_wino;       /* "cpu:winograd_f4x3", WINOGRAD */
extern const pdnn_impl pdnn_conv_bwd_data_cpu_wino_nonfused; /* WINOGRAD_NONFUSED */
extern const pdnn_impl pdnn_conv_bwd_data_cpu_wino5;      /* "cpu:winograd_f4x5", WINOGRAD */
extern const pdnn_impl pdnn_conv_bwd_data_cpu_wino5_nonfused; /* WINOGRAD_NONFUSED, 5x5 */

/* ---- backward filter (pdnnConvolutionBwdFilterAlgo_t) */
extern const pdnn_impl pdnn_conv_bwd_filter_ref_direct;   /* "ref:direct", ALGO_0 */
extern const pdnn_impl pdnn_conv_bwd_filter_cpu_gemm;     /* "cpu:gemm", ALGO_1 */
extern const pdnn_impl pdnn_conv_bwd_filter_cpu_direct_1x1; /* "cpu:direct_1x1", ALGO_0 */
extern const pdnn_impl pdnn_conv_bwd_filter_cpu_direct_dw; /* "cpu:direct_dw", ALGO_0 */
extern const pdnn_impl pdnn_conv_bwd_filter_cpu_direct_bcast; /* "cpu:direct_bcast", ALGO_0 */
extern const pdnn_impl pdnn_conv_bwd_filter_cpu_wino_nonfused; /* WINOGRAD_NONFUSED */
extern const pdnn_impl pdnn_conv_bwd_filter_cpu_wino5_nonfused; /* WINOGRAD_NONFUSED, 5x5 */

static const pdnn_impl *const pdnn_conv_fwd_impls[] = {
    &pdnn_conv_fwd_cpu_gemm,
    &pdnn_conv_fwd_cpu_wino,
    &pdnn_conv_fwd_cpu_wino_nonfused,
    &pdnn_conv_fwd_cpu_wino5,
    &pdnn_conv_fwd_cpu_wino5_nonfused,
    &pdnn_conv_fwd_cpu_direct_fewc,
    &pdnn_conv_fwd_cpu_direct_phase, /* before the depthwise path: one-channel stems */
    &pdnn_conv_fwd_cpu_direct_dw,
    &pdnn_conv_fwd_cpu_direct_1x1,
    &pdnn_conv_fwd_cpu_direct_kvec, /* after 1x1: its stride-2 projections stay there */
    &pdnn_conv_fwd_cpu_implicit_gemm,
    &pdnn_conv_fwd_cpu_implicit_precomp_gemm,
    &pdnn_conv_fwd_ref_direct,
    NULL,
};

static const pdnn_impl *const pdnn_conv_bwd_data_impls[] = {
    &pdnn_conv_bwd_data_cpu_gemm,
    &pdnn_conv_bwd_data_cpu_wino,
    &pdnn_conv_bwd_data_cpu_wino_nonfused,
    &pdnn_conv_bwd_data_cpu_wino5,
    &pdnn_conv_bwd_data_cpu_wino5_nonfused,
    &pdnn_conv_bwd_data_cpu_direct_dw,
    &pdnn_conv_bwd_data_cpu_direct_1x1,
    &pdnn_conv_bwd_data_cpu_direct_phase,
    &pdnn_conv_bwd_data_cpu_direct_kvec, /* AVX-512 (direct_phase: AVX2 exactly) */
    &pdnn_conv_bwd_data_ref_direct,
    NULL,
};

static const pdnn_impl *const pdnn_conv_bwd_filter_impls[] = {
    &pdnn_conv_bwd_filter_cpu_gemm,
    &pdnn_conv_bwd_filter_cpu_wino_nonfused,
    &pdnn_conv_bwd_filter_cpu_wino5_nonfused,
    &pdnn_conv_bwd_filter_cpu_direct_1x1,
    &pdnn_conv_bwd_filter_cpu_direct_bcast, /* after 1x1, before the one-channel groups */
    &pdnn_conv_bwd_filter_cpu_direct_dw,
    &pdnn_conv_bwd_filter_ref_direct,
    NULL,
};

#endif
