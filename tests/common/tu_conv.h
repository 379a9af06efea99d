/* Convolution test harness shared by the tests of every convolution implementation
 * (tests/ops/test_conv_*.c): shapes, layouts, an independent naive oracle in double,
 * buffers with NaN gaps and sentinels, and checks of one registry entry or of one
 * public algorithm against the oracle.
 *
 * A check builds x, w and y in the shape's layouts (inputs: gaps hold NaN and must
 * never be read; outputs: gaps hold a sentinel that must stay, the output holds NaN
 * when beta == 0), computes dst = alpha * result + beta * dst with the oracle, runs
 * the implementation with exactly the workspace it declares, with 1 and 2 threads,
 * and compares: small-integer data exactly (tol 0) and random data within a relative
 * error (tu_rel_err), the two thread counts bitwise. */
#ifndef PDNN_TU_CONV_H
#define PDNN_TU_CONV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/registry.h"
#include "ops/conv/conv_problem.h"
#include "ops/conv/cpu/conv_cpu_direct_dw_path.h"
#include "testutil.h"

/* One problem. Spatial dims past nsp are 1 after tu_conv_finish_shape. pb/pe: padding
 * before/after; flip: PDNN_CONVOLUTION; krsc: KRSC filter (else KCRS); xkind/ykind:
 * TU_LAYOUT_* (tu_layout.h). out is computed by tu_conv_finish_shape. */
typedef struct {
    pdnnDataType_t t;
    int nsp, n, g, cg, kg;
    int in[3], kern[3], out[3], str[3], dil[3], pb[3], pe[3];
    bool flip, krsc;
    int xkind, ykind;
} tu_conv_shape;

typedef struct {
    int nb;
    int dims[5], st[5];
    int64_t span;
} tu_conv_layout;

/* A shape laid out: x, y and w layouts and the problem an implementation reads. */
typedef struct {
    tu_conv_shape s;
    tu_conv_layout x, y, w;
    pdnn_conv_problem p;
} tu_conv_setup;

/* Output sizes from the rest; unused spatial dims set to 1 (padding 0). */
void tu_conv_finish_shape(tu_conv_shape *s);
/* A small random shape: 1-3 spatial dims, groups, stride, dilation, asymmetric
 * padding, flip, KRSC, random layouts. */
void tu_conv_rand_shape(tu_conv_shape *s, pdnnDataType_t t);
/* Upper bounds of a random shape's sizes (lower bounds 1, padding 0); in and kern are
 * indexed by nsp - 1. cg == 1: one input channel per group, not drawn. */
typedef struct {
    int g, cg, kg;
    int in[3], kern[3];
    int pad;
} tu_conv_ranges;
/* A random shape with nsp spatial dims within r: batch 1..3, stride 1..3, dilation 1..2,
 * padding 0..r->pad on each side (the dilated kernel fits the padded image), flip, KRSC,
 * random layouts. */
void tu_conv_rand_shape_in(tu_conv_shape *s, pdnnDataType_t t, int nsp, const tu_conv_ranges *r);
/* A 2-d packed NCHW / KCRS cross-correlation shape. */
tu_conv_shape tu_conv_shape2d(pdnnDataType_t t, int n, int g, int cg, int kg, int h, int w,
                              int r, int ks, int str, int pad, int dil);
/* The same in 1-d (width w, filter width r). */
tu_conv_shape tu_conv_shape1d(pdnnDataType_t t, int n, int g, int cg, int kg, int w, int r,
                              int str, int pad, int dil);

void tu_conv_setup_init(tu_conv_setup *cs, const tu_conv_shape *s, pdnn_conv_dir dir);
const char *tu_conv_dir_name(pdnn_conv_dir dir);
/* One line describing the shape, for failure messages. */
void tu_conv_describe(const tu_conv_shape *s, char *buf, size_t n);

/* Runs a registry entry with exactly its declared workspace and nt threads. */
pdnnStatus_t tu_conv_run_impl(const pdnn_impl *im, const pdnn_conv_problem *p, const void *src,
                              const void *wei, void *dst, double alpha, double beta, int nt);

/* Checks im in direction dir on shape s against the oracle. tol == 0: small-integer
 * data (ints) must match exactly and random data within 1e-5 (FLOAT) / 1e-12 (DOUBLE);
 * tol > 0: both within relative error tol (algorithms that are not exact, e.g.
 * Winograd). 1 and 2 threads must agree bitwise. When im refuses the problem, returns
 * false and checks nothing, except that must_support turns the refusal into a failure. */
bool tu_conv_check(const pdnn_impl *im, const tu_conv_shape *s, pdnn_conv_dir dir, bool ints,
                   double alpha, double beta, double tol, bool must_support);

/* The public descriptors of shape s (x, w, y in the roles of tu_conv_setup for dir),
 * and their setup (a new one: gapped layouts draw new strides; _from: the given one). */
typedef struct {
    tu_conv_setup cs;
    pdnnTensorDescriptor_t xd, yd;
    pdnnFilterDescriptor_t wd;
    pdnnConvolutionDescriptor_t cd;
} tu_conv_descs;
void tu_conv_descs_init(tu_conv_descs *d, const tu_conv_shape *s, pdnn_conv_dir dir);
void tu_conv_descs_from(tu_conv_descs *d, const tu_conv_setup *cs);
void tu_conv_descs_free(tu_conv_descs *d);

/* The same check through the public API (pdnnConvolutionForward / BackwardData /
 * BackwardFilter with algorithm algo, the workspace size from the API's query): also
 * checks that the API's workspace equals im's when im is not NULL, and that a
 * workspace one byte short fails with a BAD_PARAM status leaving the output bitwise
 * unchanged. */
void tu_conv_api_check(pdnnHandle_t h, const tu_conv_shape *s, pdnn_conv_dir dir, int algo,
                       const pdnn_impl *im, bool ints, double alpha, double beta, double tol);

/* The public API with algo (DIRECT or ALGO_0) on FLOAT shape s, small-integer data: the
 * workspace query equals im's; with it, at 1 and 2 threads, the result is im's bits;
 * with no workspace the call still runs (the algorithm's next entry, dispatch's rule)
 * and gives the same values (exact on small integers). NaN-poisoned output when beta ==
 * 0. */
void tu_conv_api_check_direct(pdnnHandle_t h, const tu_conv_shape *s, pdnn_conv_dir dir,
                              int algo, const pdnn_impl *im, double beta);

/* pdnnGet*Algorithm_v7 for shape s in direction dir ranks algo first, with im's
 * workspace as its memory (im: the entry expected to serve it); what names the shape in
 * the failure message. */
void tu_conv_check_ranked_first(pdnnHandle_t h, const tu_conv_shape *s, pdnn_conv_dir dir,
                                int algo, const pdnn_impl *im, const char *what);

/* im refuses shape s in direction dir, with a reason (what names the shape in the
 * failure message). */
void tu_conv_check_refused(const pdnn_impl *im, const tu_conv_shape *s, pdnn_conv_dir dir,
                           const char *what);

/* The registry entries of one implementation family by direction (indexed by
 * pdnn_conv_dir; NULL: the family does not serve that direction) and the public
 * algorithm each entry serves. */
typedef struct {
    const pdnn_impl *im[3];
    int algo[3];
} tu_conv_family;

/* cpu:direct_dw's entries (the depthwise paths), serving DIRECT (forward) and ALGO_0
 * (backward data, backward filter). */
extern const tu_conv_family tu_conv_family_dw;

/* A registry entry for one of cpu:direct_dw's f32 NCHW paths (its applies and runs;
 * AVX-512), for tu_conv_check: supports() is the path's applies (else *why is why_not),
 * and, while tu_conv_dw_path_any_layout is set, also every problem cpu:direct_dw's entry
 * takes; exec runs the path, counting tu_conv_dw_path_runs, or, where the path refuses
 * (a gapped layout the harness draws anew after supports()), cpu:direct_dw's entry. One
 * path a test program (the entry is shared). */
const pdnn_impl *tu_conv_dw_path_entry(const pdnn_dw_path *path, const char *name,
                                       const char *why_not);
extern long tu_conv_dw_path_runs;
extern bool tu_conv_dw_path_any_layout;

/* The 3 x 3 depthwise plane tests' tables: a row {H, W, stride, channels, images, end
 * padding, gapped} gives the f32 problem with padding 1 at the start and the row's at the
 * end, flipped where i % 3 == 1, KRSC where i % 4 == 2, packed or gapped. */
tu_conv_shape tu_conv_dw_plane_shape(const int c[7], int i);
/* Sweeps n table rows through a path's test entry (tu_conv_dw_path_entry, applies its
 * applies): for every direction the path must take a row exactly where rule(dir, row)
 * holds and x's and y's columns are unit-stride; packed rows taken are then checked twice
 * with tu_conv_check (alphas and betas drawn from the row and direction), gapped rows the
 * rule offers on drawn layouts until the path ran on one. what names the path in the
 * messages. Returns the packed direction cases run; *runs: the path runs counted. */
int tu_conv_dw_plane_sweep(const int (*cfg)[7], int n, const pdnn_impl *entry,
                           bool (*applies)(const pdnn_conv_problem *),
                           bool (*rule)(pdnn_conv_dir, const int *row), const char *what, long *runs);

/* Checks every direction f serves on s with tu_conv_check (exact tolerance,
 * must_support), each with its own alpha drawn from {1, 2, -0.5} and beta from
 * {0, 0, 1, -1.5, 0.5} (beta == 0 twice as likely: the NaN-poisoned output). */
void tu_conv_check_family(const tu_conv_family *f, const tu_conv_shape *s, bool ints);

/* tu_conv_check_family on shape(i) for i < n (small-integer data but for every fifth,
 * i % 5 == 3) at every ISA cap the CPU has, set through PDNN_MAX_CPU_ISA and restored
 * after; only at the cap already in force when given (PDNN_MAX_CPU_ISA set by ctest). */
void tu_conv_check_family_caps(const tu_conv_family *f, int n, tu_conv_shape (*shape)(int),
                               bool given);

/* DESIGN.md's named edge cases that every general convolution (the GEMM family) must
 * take, each through tu_conv_check_family with small-integer data unless said: batch 1
 * with 1x1 spatial; padding wider than the kernel and asymmetric; stride above the
 * kernel; groups == channels with multiplier 2, channels-last, KRSC; dilation in
 * convolution mode; 288 taps (more than one K block), packed and then gapped with
 * random data; 3-d channels-last KRSC convolution, small-integer and random data; zero
 * output channels (forward and backward filter write nothing, dx = beta * dx). */
void tu_conv_check_edges(const tu_conv_family *f, pdnnDataType_t t);

/* Direction cases checked so far (for the tests' summary line). */
long tu_conv_cases(void);

#endif
