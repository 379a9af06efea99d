/* API logging: with PDNN_LOGINFO_DBG=1 and PDNN_LOGDEST_DBG=<file>, each call writes one
 * line naming the function, the shapes, the implementation, the workspace and the time. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

int main(void)
{
    char path[] = "/tmp/pdnn_log_XXXXXX";
    int fd = mkstemp(path);
    TU_CHECK(fd >= 0, "mkstemp");
    if (fd < 0) return tu_finish("integration/logging");
    close(fd);
    setenv("PDNN_LOGINFO_DBG", "1", 1);
    setenv("PDNN_LOGDEST_DBG", path, 1);

    pdnnHandle_t h;
    TU_OK(pdnnCreate(&h));
    pdnnTensorDescriptor_t xd = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 2, 5, 5);
    pdnnTensorDescriptor_t yd = tu_tensor4d(PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 1, 3, 5, 5);
    pdnnFilterDescriptor_t wd;
    pdnnConvolutionDescriptor_t cd;
    TU_OK(pdnnCreateFilterDescriptor(&wd));
    TU_OK(pdnnSetFilter4dDescriptor(wd, PDNN_DATA_FLOAT, PDNN_TENSOR_NCHW, 3, 2, 3, 3));
    TU_OK(pdnnCreateConvolutionDescriptor(&cd));
    TU_OK(pdnnSetConvolution2dDescriptor(cd, 1, 1, 1, 1, 1, 1, PDNN_CROSS_CORRELATION,
                                         PDNN_DATA_FLOAT));
    float x[50], w[54], y[75], one = 1, zero = 0;
    tu_fill_int(x, PDNN_DATA_FLOAT, 50, -2, 2);
    tu_fill_int(w, PDNN_DATA_FLOAT, 54, -2, 2);
    TU_OK(pdnnConvolutionForward(h, &one, xd, x, wd, w, cd, PDNN_CONVOLUTION_FWD_ALGO_DIRECT,
                                 NULL, 0, &zero, yd, y));
    pdnnActivationDescriptor_t ad;
    TU_OK(pdnnCreateActivationDescriptor(&ad));
    TU_OK(pdnnSetActivationDescriptor(ad, PDNN_ACTIVATION_RELU, PDNN_NOT_PROPAGATE_NAN, 0));
    TU_OK(pdnnActivationForward(h, ad, &one, yd, y, &zero, yd, y));
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnSetNumThreads(h, 0)); /* logged too */

    FILE *f = fopen(path, "r");
    TU_CHECK(f != NULL, "log file %s missing", path);
    char line[2048];
    int conv_lines = 0, act_lines = 0, err_lines = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (strstr(line, "pdnnConvolutionForward")) {
            conv_lines++;
            TU_CHECK(strstr(line, "1x2x5x5") && strstr(line, "1x3x5x5"), "shapes in: %s", line);
            TU_CHECK(strstr(line, "impl=") != NULL, "implementation in: %s", line);
            TU_CHECK(strstr(line, "ws=") != NULL, "workspace in: %s", line);
            TU_CHECK(strstr(line, "mb1ic2") != NULL, "replayable problem in: %s", line);
        }
        if (strstr(line, "pdnnActivationForward")) act_lines++;
        if (strstr(line, "pdnnSetNumThreads") && strstr(line, "error") &&
            strstr(line, "BAD_PARAM_OUT_OF_BOUND") && strstr(line, "numThreads is 0"))
            err_lines++;
    }
    if (f) fclose(f);
    TU_CHECK(conv_lines == 1, "%d convolution log lines, expected 1", conv_lines);
    TU_CHECK(act_lines == 1, "%d activation log lines, expected 1", act_lines);
    TU_CHECK(err_lines == 1, "%d error log lines for the failing call, expected 1", err_lines);
    unlink(path);
    pdnnDestroyActivationDescriptor(ad);
    pdnnDestroyConvolutionDescriptor(cd);
    pdnnDestroyFilterDescriptor(wd);
    pdnnDestroyTensorDescriptor(xd);
    pdnnDestroyTensorDescriptor(yd);
    pdnnDestroy(h);
    return tu_finish("integration/logging");
}
