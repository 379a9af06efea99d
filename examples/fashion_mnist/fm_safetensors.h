/* fm_safetensors - reads and writes the safetensors format (F32 tensors only):
 *   8 bytes   little-endian unsigned header length H
 *   H bytes   JSON object: "name": {"dtype": "F32", "shape": [...],
 *             "data_offsets": [begin, end]} per tensor, plus "__metadata__": a
 *             string-to-string map; padded with spaces to a multiple of 8
 *   the data  every tensor's bytes, little-endian, offsets relative to this point
 * The JSON is made and parsed with Jansson. Writing goes to a temporary file that is
 * renamed over the target once complete, so a crash never leaves half a file. The
 * writer also stores the CRC-32 of the data as metadata "pdnn.data_crc32", which the
 * reader checks when present (a flipped bit in the data is caught). */
#ifndef FM_SAFETENSORS_H
#define FM_SAFETENSORS_H

#include <stddef.h>
#include <stdint.h>

#define FM_ST_MAX_DIMS 8

typedef struct {
    char *name;
    int ndim;
    int64_t shape[FM_ST_MAX_DIMS];
    size_t numel;
    float *data; /**< writer: the caller's; reader: owned by the fm_st_file */
} fm_st_tensor;

typedef struct {
    fm_st_tensor *tensors;
    int count;
    char **keys, **vals; /**< metadata pairs */
    int nmeta;
} fm_st_file;

/** Writes n tensors and nmeta metadata pairs (kv = key0, val0, key1, val1, ...) to path
 *  atomically. Names must be unique and not "__metadata__". Returns 0, or -1 with a
 *  message in err (the target is then untouched). */
int fm_st_save(const char *path, const fm_st_tensor *tensors, int n, const char *const *kv,
               int nmeta, char *err, size_t errlen);

/** Reads and validates a whole file: header length within the file, JSON object,
 *  every entry with dtype "F32", a shape of at most 8 non-negative dims and
 *  data_offsets matching it, the entries tiling the data exactly (no gap, overlap or
 *  missing bytes), metadata values strings, CRC-32 if stored. Returns 0, or -1 with a
 *  message in err. */
int fm_st_load(const char *path, fm_st_file *file, char *err, size_t errlen);

/** The tensor called name, or NULL. */
const fm_st_tensor *fm_st_get(const fm_st_file *file, const char *name);
/** The metadata value of key, or NULL. */
const char *fm_st_meta(const fm_st_file *file, const char *key);
void fm_st_free(fm_st_file *file);

#endif
