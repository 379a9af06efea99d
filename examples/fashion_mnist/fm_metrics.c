/* metrics.csv and its plot (see fm_metrics.h). */
#include "fm_metrics.h"

#include <cairo.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

int fm_metrics_add(fm_metrics *m, const fm_metric *row)
{
    if (m->n == m->cap) {
        int cap = m->cap ? 2 * m->cap : 1024;
        fm_metric *r = realloc(m->rows, (size_t)cap * sizeof *r);
        if (!r) return -1;
        m->rows = r;
        m->cap = cap;
    }
    m->rows[m->n++] = *row;
    return 0;
}

void fm_metrics_free(fm_metrics *m)
{
    free(m->rows);
    memset(m, 0, sizeof *m);
}

static void tmp_name(char *buf, size_t len, const char *path)
{
    snprintf(buf, len, "%s.tmp.%ld", path, (long)getpid());
}

int fm_metrics_write(const char *path, const fm_metrics *m, char *err, size_t errlen)
{
    char tmp[4200];
    tmp_name(tmp, sizeof tmp, path);
    FILE *f = fopen(tmp, "w");
    if (!f) return fail(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
    int ok = fprintf(f, FM_METRICS_HEADER "\n") > 0;
    for (int i = 0; ok && i < m->n; i++) {
        const fm_metric *r = &m->rows[i];
        ok = fprintf(f, "%" PRId64 ",%d,%s,%.6f,%.6f,%.6g,%.1f\n", r->step, r->epoch,
                     r->test ? "test" : "train", r->loss, r->accuracy, r->lr,
                     r->images_per_s) > 0;
    }
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path)) {
        int e = errno;
        remove(tmp);
        return fail(err, errlen, "cannot write %s: %s", path, strerror(e));
    }
    return 0;
}

int fm_metrics_read(const char *path, int64_t max_step, fm_metrics *m, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) return fail(err, errlen, "cannot open %s: %s", path, strerror(errno));
    char line[512];
    int rc = -1, lineno = 1;
    if (!fgets(line, sizeof line, f) || strncmp(line, FM_METRICS_HEADER, strlen(FM_METRICS_HEADER))) {
        fail(err, errlen, "%s: not a metrics file (header '%s' expected)", path, FM_METRICS_HEADER);
        goto done;
    }
    while (fgets(line, sizeof line, f)) {
        lineno++;
        fm_metric r;
        char split[8];
        if (sscanf(line, "%" SCNd64 ",%d,%7[a-z],%lf,%lf,%lf,%lf", &r.step, &r.epoch, split,
                   &r.loss, &r.accuracy, &r.lr, &r.images_per_s) != 7 ||
            (strcmp(split, "train") && strcmp(split, "test"))) {
            fail(err, errlen, "%s:%d: malformed row", path, lineno);
            goto done;
        }
        r.test = !strcmp(split, "test");
        if (r.step <= max_step && fm_metrics_add(m, &r)) {
            fail(err, errlen, "%s: out of memory", path);
            goto done;
        }
    }
    rc = 0;
done:
    fclose(f);
    return rc;
}

/* ---- plot */

typedef struct {
    double x0, y0, w, h;         /* plot area in pixels */
    double xmin, xmax;           /* steps */
    double lmin, lmax;           /* loss axis */
    double amin, amax;           /* accuracy axis (%) */
} frame;

static double px(const frame *f, double step)
{
    return f->x0 + (step - f->xmin) / (f->xmax - f->xmin) * f->w;
}
static double py(const frame *f, double v, double lo, double hi)
{
    return f->y0 + f->h - (v - lo) / (hi - lo) * f->h;
}

/* a "nice" tick spacing giving about n ticks over range */
static double tick_step(double range, int n)
{
    double raw = range / n, mag = pow(10.0, floor(log10(raw))), r = raw / mag;
    return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
}

static void text(cairo_t *cr, double x, double y, double ax, double ay, const char *s)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    cairo_move_to(cr, x - ax * e.width - e.x_bearing, y - ay * e.height - e.y_bearing);
    cairo_show_text(cr, s);
}

int fm_plot_png(const char *path, const fm_metrics *m, char *err, size_t errlen)
{
    const int W = 1000, H = 560;
    frame f = {80, 50, W - 170, H - 120, 0, 1, 0, 1, 0, 100};
    double lmax = 0;
    for (int i = 0; i < m->n; i++) {
        const fm_metric *r = &m->rows[i];
        if (r->step > f.xmax) f.xmax = (double)r->step;
        if (isfinite(r->loss) && r->loss > lmax) lmax = r->loss;
    }
    double lstep = tick_step(lmax > 0 ? lmax : 1, 6);
    f.lmax = ceil((lmax > 0 ? lmax : 1) / lstep) * lstep;
    double xstep = tick_step(f.xmax - f.xmin, 8);

    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 13);
    char buf[64];

    /* grid and ticks */
    cairo_set_line_width(cr, 1);
    for (double v = 0; v <= f.lmax + 1e-9; v += lstep) {
        double y = py(&f, v, f.lmin, f.lmax);
        cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
        cairo_move_to(cr, f.x0, y);
        cairo_line_to(cr, f.x0 + f.w, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0.1, 0.3, 0.7);
        snprintf(buf, sizeof buf, "%g", v);
        text(cr, f.x0 - 6, y, 1, 0.5, buf);
    }
    for (double v = 0; v <= 100 + 1e-9; v += 20) {
        cairo_set_source_rgb(cr, 0.8, 0.35, 0.0);
        snprintf(buf, sizeof buf, "%g%%", v);
        text(cr, f.x0 + f.w + 6, py(&f, v, f.amin, f.amax), 0, 0.5, buf);
    }
    for (double v = 0; v <= f.xmax + 1e-9; v += xstep) {
        double x = px(&f, v);
        cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
        cairo_move_to(cr, x, f.y0);
        cairo_line_to(cr, x, f.y0 + f.h);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(buf, sizeof buf, "%g", v);
        text(cr, x, f.y0 + f.h + 6, 0.5, 0, buf);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_rectangle(cr, f.x0, f.y0, f.w, f.h);
    cairo_stroke(cr);
    text(cr, f.x0 + f.w / 2, H - 22, 0.5, 0.5, "optimizer step");
    cairo_save(cr);
    cairo_translate(cr, 24, f.y0 + f.h / 2);
    cairo_rotate(cr, -M_PI / 2);
    cairo_set_source_rgb(cr, 0.1, 0.3, 0.7);
    text(cr, 0, 0, 0.5, 0.5, "loss (cross-entropy)");
    cairo_restore(cr);
    cairo_save(cr);
    cairo_translate(cr, W - 22, f.y0 + f.h / 2);
    cairo_rotate(cr, M_PI / 2);
    cairo_set_source_rgb(cr, 0.8, 0.35, 0.0);
    text(cr, 0, 0, 0.5, 0.5, "accuracy");
    cairo_restore(cr);
    cairo_set_font_size(cr, 16);
    cairo_set_source_rgb(cr, 0, 0, 0);
    text(cr, W / 2.0, 24, 0.5, 0.5, "Fashion-MNIST training with pdnn");
    cairo_set_font_size(cr, 13);

    /* series: raw train loss, its moving average, train accuracy moving average, test */
    cairo_rectangle(cr, f.x0, f.y0, f.w, f.h);
    cairo_clip(cr);
    const int win = 50;
    int *train = malloc(sizeof(int) * (size_t)(m->n ? m->n : 1));
    int nt = 0;
    for (int i = 0; train && i < m->n; i++)
        if (!m->rows[i].test) train[nt++] = i;
    for (int pass = 0; pass < 3; pass++) {
        /* 0: batch loss, 1: loss averaged over the last `win` steps, 2: accuracy so */
        static const double rgb[3][3] = {{0.7, 0.8, 0.95}, {0.1, 0.3, 0.7}, {0.95, 0.7, 0.45}};
        cairo_set_source_rgb(cr, rgb[pass][0], rgb[pass][1], rgb[pass][2]);
        cairo_set_line_width(cr, pass == 1 ? 2 : 1);
        double sum = 0;
        int cnt = 0, first = 1, lo = 0;
        for (int k = 0; k < nt; k++) {
            const fm_metric *r = &m->rows[train[k]];
            double v = pass == 2 ? 100 * r->accuracy : r->loss;
            if (!isfinite(v)) continue;
            sum += v;
            cnt++;
            if (cnt > win) {
                const fm_metric *old = &m->rows[train[lo++]];
                sum -= pass == 2 ? 100 * old->accuracy : old->loss;
                cnt--;
            }
            double y = pass == 0 ? v : sum / cnt;
            double yy = pass == 2 ? py(&f, y, f.amin, f.amax) : py(&f, y, f.lmin, f.lmax);
            if (first) cairo_move_to(cr, px(&f, (double)r->step), yy);
            else cairo_line_to(cr, px(&f, (double)r->step), yy);
            first = 0;
        }
        cairo_stroke(cr);
    }
    free(train);
    cairo_set_source_rgb(cr, 0.8, 0.35, 0.0);
    cairo_set_line_width(cr, 2);
    int first = 1;
    for (int i = 0; i < m->n; i++) {
        const fm_metric *r = &m->rows[i];
        if (!r->test) continue;
        double x = px(&f, (double)r->step), y = py(&f, 100 * r->accuracy, f.amin, f.amax);
        if (first) cairo_move_to(cr, x, y);
        else cairo_line_to(cr, x, y);
        first = 0;
    }
    cairo_stroke(cr);
    for (int i = 0; i < m->n; i++) {
        const fm_metric *r = &m->rows[i];
        if (!r->test) continue;
        double x = px(&f, (double)r->step), y = py(&f, 100 * r->accuracy, f.amin, f.amax);
        cairo_arc(cr, x, y, 4, 0, 2 * M_PI);
        cairo_fill(cr);
        snprintf(buf, sizeof buf, "%.2f%%", 100 * r->accuracy);
        text(cr, x - 6, y + 8, 1, 0, buf);
    }
    cairo_reset_clip(cr);

    /* legend */
    static const struct {
        double r, g, b;
        const char *label;
    } legend[] = {{0.7, 0.8, 0.95, "train loss (batch)"},
                  {0.1, 0.3, 0.7, "train loss (mean of 50 steps)"},
                  {0.95, 0.7, 0.45, "train accuracy (mean of 50 steps)"},
                  {0.8, 0.35, 0.0, "test accuracy (epoch end)"}};
    double lx = f.x0 + f.w - 270, ly = f.y0 + 0.45 * f.h; /* clear of late loss and accuracy */
    cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
    cairo_rectangle(cr, lx - 8, ly - 10, 262, 4 * 18 + 4);
    cairo_fill(cr);
    for (int i = 0; i < 4; i++) {
        cairo_set_source_rgb(cr, legend[i].r, legend[i].g, legend[i].b);
        cairo_set_line_width(cr, 3);
        cairo_move_to(cr, lx, ly + 18 * i);
        cairo_line_to(cr, lx + 24, ly + 18 * i);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        text(cr, lx + 30, ly + 18 * i, 0, 0.5, legend[i].label);
    }

    cairo_destroy(cr);
    char tmp[4200];
    tmp_name(tmp, sizeof tmp, path);
    cairo_status_t st = cairo_surface_write_to_png(s, tmp);
    cairo_surface_destroy(s);
    if (st != CAIRO_STATUS_SUCCESS) {
        remove(tmp);
        return fail(err, errlen, "cannot write %s: %s", path, cairo_status_to_string(st));
    }
    if (rename(tmp, path)) {
        int e = errno;
        remove(tmp);
        return fail(err, errlen, "cannot write %s: %s", path, strerror(e));
    }
    return 0;
}
