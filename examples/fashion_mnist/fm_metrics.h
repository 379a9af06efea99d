/* fm_metrics - the training log of the Fashion-MNIST example: metrics.csv (read and
 * written whole, atomically) and its plot, a PNG drawn with cairo. */
#ifndef FM_METRICS_H
#define FM_METRICS_H

#include <stddef.h>
#include <stdint.h>

/** One row of metrics.csv. Train rows: one per optimizer step, loss and accuracy of
 *  that batch, the rate used, the epoch's images/s so far. Test rows: one per epoch
 *  end, the mean loss and accuracy on the test set, the epoch's training images/s. */
typedef struct {
    int64_t step;   /**< optimizer steps taken so far (1-based for train rows) */
    int epoch;      /**< 1-based epoch the row belongs to */
    int test;       /**< 0: a train row, 1: a test row */
    double loss, accuracy, lr, images_per_s;
} fm_metric;

/** Growable list of rows. */
typedef struct {
    fm_metric *rows;
    int n, cap;
} fm_metrics;

/** Appends a row; returns 0 or -1 (out of memory). */
int fm_metrics_add(fm_metrics *m, const fm_metric *row);
void fm_metrics_free(fm_metrics *m);

/** The CSV header line (without the newline). */
#define FM_METRICS_HEADER "step,epoch,split,loss,accuracy,lr,images_per_s"

/** Writes every row to path (temp file, then rename). Returns 0, or -1 with err. */
int fm_metrics_write(const char *path, const fm_metrics *m, char *err, size_t errlen);
/** Reads a file fm_metrics_write wrote, keeping rows with step <= max_step. Returns 0,
 *  or -1 with err (missing file, bad header or row). */
int fm_metrics_read(const char *path, int64_t max_step, fm_metrics *m, char *err, size_t errlen);

/** Draws train loss (per step, and a moving average) on the left axis and accuracy
 *  (test per epoch, train moving average) on the right axis against steps, to a PNG
 *  at path (temp file, then rename). Returns 0, or -1 with err. */
int fm_plot_png(const char *path, const fm_metrics *m, char *err, size_t errlen);

#endif
