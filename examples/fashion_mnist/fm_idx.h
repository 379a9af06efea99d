/* fm_idx - reads the IDX files of (Fashion-)MNIST, gzip-compressed or plain, through
 * zlib, and checks them: magic, dimensions, exact data length, label range, and that
 * an image file and its label file hold the same number of items. */
#ifndef FM_IDX_H
#define FM_IDX_H

#include <stddef.h>
#include <stdint.h>

/** Where Debian's dataset-fashion-mnist package puts the four files. */
#define FM_DEFAULT_DATA_DIR "/usr/share/datasets/fashion-mnist"
/** Number of classes; labels outside [0, FM_CLASSES) are refused. */
#define FM_CLASSES 10

/** One IDX file of unsigned bytes: dims[0] items of dims[1] x ... bytes. */
typedef struct {
    int ndims;        /**< 1 for labels, 3 for images */
    int64_t dims[3];  /**< dims[0] is the item count */
    uint8_t *data;    /**< product of dims bytes, malloc'ed */
} fm_idx;

/** Reads path (gzip or plain). expected_ndims is 1 (labels) or 3 (images). Returns 0,
 *  or -1 with a message in err (file missing, bad magic 0x00000801/0x00000803, a zero
 *  or huge dimension, truncated data, bytes past the declared data, a gzip error). */
int fm_idx_read(const char *path, int expected_ndims, fm_idx *out, char *err, size_t errlen);
void fm_idx_free(fm_idx *idx);

/** One split: n images of rows x cols bytes and their n labels. */
typedef struct {
    int64_t n;
    int rows, cols;
    uint8_t *images; /**< n * rows * cols */
    uint8_t *labels; /**< n, each < FM_CLASSES */
} fm_split;

/** Loads <dir>/<prefix>-images-idx3-ubyte[.gz] and <dir>/<prefix>-labels-idx1-ubyte[.gz]
 *  (prefix "train" or "t10k"), preferring the .gz name. Returns 0, or -1 with a message
 *  in err: the files are missing (the message names the Debian package
 *  dataset-fashion-mnist), any fm_idx_read error, image and label counts that differ,
 *  a label out of range. */
int fm_split_load(const char *dir, const char *prefix, fm_split *out, char *err,
                  size_t errlen);
void fm_split_free(fm_split *s);

#endif
