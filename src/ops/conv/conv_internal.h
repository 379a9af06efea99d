/* Shared between the convolution entry points (conv_api.c, conv_find.c) and the
 * reference (conv_ref.c) (internal). */
#ifndef PDNN_CONV_INTERNAL_H
#define PDNN_CONV_INTERNAL_H

#include "core/registry.h"
#include "ops/conv/conv_problem.h"

/* The NULL-terminated implementation list of a direction (conv_impls.h). */
const pdnn_impl *const *pdnn_conv_impl_list(pdnn_conv_dir dir);

/* Number of cuDNN algorithm enum values of a direction (FWD 8, BWD_DATA 6,
 * BWD_FILTER 7). */
int pdnn_conv_algo_count(pdnn_conv_dir dir);

/* Validates the descriptors of one convolution and builds its problem. x is x (FWD,
 * BWD_FILTER) or dx (BWD_DATA), y is y (FWD) or dy, w is w or dw (BWD_FILTER); the
 * output of the direction is checked as an output. Checks: live and set descriptors,
 * equal data types (FLOAT or DOUBLE data, else NOT_SUPPORTED_DATA_TYPE), a compute
 * type that accumulates the data type (FLOAT data: FLOAT or DOUBLE; DOUBLE data:
 * DOUBLE), ranks (nbSpatial + 2, 1 to 3 spatial dims), channels and groups, y's dims
 * equal to the computed output dims. Writes nothing but *p. */
pdnnStatus_t pdnn_conv_problem_from(const char *func, pdnn_conv_dir dir,
                                    const struct pdnnTensorStruct *x, const char *xname,
                                    const struct pdnnFilterStruct *w, const char *wname,
                                    const struct pdnnConvolutionStruct *cd,
                                    const struct pdnnTensorStruct *y, const char *yname,
                                    pdnn_conv_problem *p);

/* Data pointers of a validated problem: NULL only for a tensor with no elements, and
 * the output of the direction shares no memory with an input (BAD_PARAM). Names and
 * roles as in pdnn_conv_problem_from; w is the filter as a packed tensor
 * (pdnn_filter_as_tensor). */
pdnnStatus_t pdnn_conv_check_buffers(const char *func, pdnn_conv_dir dir,
                                     const struct pdnnTensorStruct *x, const void *xp,
                                     const char *xp_name, const struct pdnnTensorStruct *w,
                                     const void *wp, const char *wp_name,
                                     const struct pdnnTensorStruct *y, const void *yp,
                                     const char *yp_name);
/* BAD_PARAM_NULL_POINTER when ws is NULL and bytes > 0; BAD_PARAM when bytes > 0 and
 * [ws, ws + bytes) overlaps the memory of x, w or y (names and roles as in
 * pdnn_conv_check_buffers). */
pdnnStatus_t pdnn_conv_check_workspace(const char *func, const void *ws, size_t bytes,
                                       const struct pdnnTensorStruct *x, const void *xp,
                                       const char *xp_name, const struct pdnnTensorStruct *w,
                                       const void *wp, const char *wp_name,
                                       const struct pdnnTensorStruct *y, const void *yp,
                                       const char *yp_name);

/* Workspace bytes impl needs for p: 0 for an empty batch (nothing runs). */
size_t pdnn_conv_workspace(const pdnn_impl *impl, const pdnn_conv_problem *p);
/* Runs impl on p with the handle's threads, after the caller validated everything;
 * a zero-sized problem (n == 0) runs nothing except BWD_FILTER's dw = beta * dw. */
pdnnStatus_t pdnn_conv_exec(const pdnn_impl *impl, const pdnn_conv_problem *p,
                            const pdnn_conv_args *a, int nthreads, void *ws, size_t ws_bytes);

/* First entry of the list that serves algo, runs on this CPU and supports p (any
 * workspace); NULL with *why set (static text) otherwise. Records no error. */
const pdnn_impl *pdnn_conv_find_impl(pdnn_conv_dir dir, int algo, const pdnn_conv_problem *p,
                                     const char **why);

/* ---- conv_cost.c: estimated milliseconds of one call of im on p with nthreads threads
 * (a model of the multiply-adds, the micro-kernels' tile fill, packing and memory
 * traffic; nothing runs). Get*_v7 ranks by it. */
double pdnn_conv_cost_ms(const pdnn_impl *im, const pdnn_conv_problem *p, int nthreads);

/* ---- conv_ref.c: the plain loops around convolution */

/* db[k] = alpha * sum_{n, spatial} dy[n, k, ...] + beta * db[k]; db is 1 x K x 1... */
void pdnn_conv_ref_bwd_bias(const struct pdnnTensorStruct *dyd, const void *dy,
                            const struct pdnnTensorStruct *dbd, void *db, double alpha,
                            double beta, int nthreads);

/* y = act(y + alpha2 * z + bias[k]) elementwise (z NULL: no z term); y holds
 * alpha1 * conv(x, w) on entry. */
void pdnn_conv_ref_bias_act(const struct pdnnTensorStruct *yd, void *y,
                            const struct pdnnTensorStruct *zd, const void *z, double alpha2,
                            const struct pdnnTensorStruct *bd, const void *bias,
                            const struct pdnnActivationStruct *act, int nthreads);

/* ---- cpu/conv_cpu_bias.c: fast paths of the same two loops for tensors with packed
 * spatial dims (RELU / IDENTITY epilogue without z); false when they do not apply
 * (nothing done: the caller runs the reference). */
bool pdnn_conv_cpu_bias_act(const struct pdnnTensorStruct *yd, void *y,
                            const struct pdnnTensorStruct *bd, const void *bias,
                            const struct pdnnActivationStruct *act, int nthreads);
bool pdnn_conv_cpu_bwd_bias(const struct pdnnTensorStruct *dyd, const void *dy,
                            const struct pdnnTensorStruct *dbd, void *db, double alpha,
                            double beta, int nthreads);

#endif
