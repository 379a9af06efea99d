/* Reading ONNX node-test files: a ModelProto (model.onnx) and the TensorProtos of a
 * test_data_set_N folder, with the C code protoc-c generates from onnx.proto at build
 * time (never committed). */
#ifndef PDNN_ONNX_LOAD_H
#define PDNN_ONNX_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "onnx.pb-c.h"

#define OX_MAX_RANK 8

/* ONNX TensorProto.DataType values the runner distinguishes. */
enum { OX_FLOAT = 1, OX_UINT8 = 2, OX_INT32 = 6, OX_INT64 = 7, OX_FLOAT16 = 10,
       OX_DOUBLE = 11 };

/* A dense row-major tensor. data holds float for OX_FLOAT, double for OX_DOUBLE and
 * int64_t for OX_INT64; for any other type data is NULL (the case cannot map). */
typedef struct {
    char name[128];
    int dtype;              /* ONNX data type */
    int rank;               /* 0 for a scalar */
    int64_t dims[OX_MAX_RANK];
    size_t count;           /* product of dims (1 for a scalar) */
    void *data;
} ox_tensor;

/* A parsed model: the protobuf-c message plus the default-domain opset version. */
typedef struct {
    Onnx__ModelProto *proto;
    int64_t opset;          /* version of the "" / "ai.onnx" domain, 0 if absent */
} ox_model;

/* Reads path into a malloc'ed buffer; NULL (and why) on failure. */
uint8_t *ox_read_file(const char *path, size_t *len, char *why, size_t why_len);

/* 0 on success; on failure -1 with a reason in why. */
int ox_load_model(const char *path, ox_model *m, char *why, size_t why_len);
void ox_free_model(ox_model *m);

/* Converts a TensorProto (raw_data, float_data, double_data or int64_data) into t.
 * Returns 0, or -1 with why set when the proto is malformed (wrong byte count, rank
 * above OX_MAX_RANK). A tensor of another data type converts with data == NULL. */
int ox_tensor_from_proto(const Onnx__TensorProto *p, ox_tensor *t, char *why,
                         size_t why_len);
/* Reads a serialized TensorProto file (input_N.pb / output_N.pb). */
int ox_load_tensor(const char *path, ox_tensor *t, char *why, size_t why_len);
void ox_free_tensor(ox_tensor *t);

/* Allocates a tensor of dtype (OX_FLOAT / OX_DOUBLE / OX_INT64) and dims, filled with
 * quiet NaN for floating types. Returns 0, or -1 when memory runs out. */
int ox_alloc_tensor(ox_tensor *t, int dtype, int rank, const int64_t *dims);

/* Short name of an ONNX data type ("float", "uint8", ...). */
const char *ox_dtype_name(int dtype);

/* ---- node attributes */
const Onnx__AttributeProto *ox_attr(const Onnx__NodeProto *n, const char *name);
int64_t ox_attr_int(const Onnx__NodeProto *n, const char *name, int64_t def);
float ox_attr_float(const Onnx__NodeProto *n, const char *name, float def);
/* Copies the string attribute into buf (def when absent). */
const char *ox_attr_string(const Onnx__NodeProto *n, const char *name, const char *def,
                           char *buf, size_t len);
/* Number of ints of the attribute (-1 when absent); copies at most max of them. */
int ox_attr_ints(const Onnx__NodeProto *n, const char *name, int64_t *out, int max);

#endif
