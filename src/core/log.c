#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/env.h"
#include "core/log.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool enabled;
static FILE *dest;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void init(void)
{
    enabled = pdnn_env_long("PDNN_LOGINFO_DBG", 0) == 1;
    if (!enabled) return;
    const char *d = pdnn_env_str("PDNN_LOGDEST_DBG");
    if (!d || !strcmp(d, "stderr"))
        dest = stderr;
    else if (!strcmp(d, "stdout"))
        dest = stdout;
    else {
        dest = fopen(d, "a");
        if (!dest) enabled = false;
    }
}

bool pdnn_log_on(void)
{
    pthread_once(&once, init);
    return enabled;
}

void pdnn_log_call(const char *func, const char *fmt, ...)
{
    if (!pdnn_log_on()) return;
    pthread_mutex_lock(&lock);
    fprintf(dest, "pdnn: %s: ", func);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(dest, fmt, ap);
    va_end(ap);
    fputc('\n', dest);
    fflush(dest);
    pthread_mutex_unlock(&lock);
}

double pdnn_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}
