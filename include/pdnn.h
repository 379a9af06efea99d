/*
 * pdnn.h - umbrella header of pdnn, a C11 library of deep-neural-network primitives
 * whose API mirrors cuDNN's legacy C API (rename cudnn -> pdnn, CUDNN_ -> PDNN_).
 * No CUDA types appear here.
 */
#ifndef PDNN_H
#define PDNN_H
#include "pdnn/core.h"
#include "pdnn/tensor.h"
#include "pdnn/cnn.h"
#include "pdnn/train.h"
#endif
