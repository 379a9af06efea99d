#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/env.h"

const char *pdnn_env_str(const char *name)
{
    const char *v = getenv(name);
    return (v && *v) ? v : NULL;
}

long pdnn_env_long(const char *name, long def)
{
    const char *v = pdnn_env_str(name);
    if (!v) return def;
    char *end;
    long r = strtol(v, &end, 10);
    return (end != v && *end == '\0') ? r : def;
}

/* PDNN_VERBOSE, read once: a dispatch looks at it on every call, and getenv walks the
 * whole environment. */
static pthread_once_t verbose_once = PTHREAD_ONCE_INIT;
static char verbose_list[256];

static void verbose_init(void)
{
    const char *v = pdnn_env_str("PDNN_VERBOSE");
    if (v) snprintf(verbose_list, sizeof verbose_list, "%s", v);
}

int pdnn_verbose(const char *topic)
{
    pthread_once(&verbose_once, verbose_init);
    const char *v = verbose_list;
    if (!*v) return 0;
    size_t n = strlen(topic);
    for (const char *p = v; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if ((len == n && strncmp(p, topic, n) == 0) || (len == 3 && !strncmp(p, "all", 3)))
            return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}
