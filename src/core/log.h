/* API logging: PDNN_LOGINFO_DBG=1, destination PDNN_LOGDEST_DBG=stderr|stdout|FILE. */
#ifndef PDNN_CORE_LOG_H
#define PDNN_CORE_LOG_H

#include <stdbool.h>
#include "core/error.h"

/* True when API logging is on (read once). */
bool pdnn_log_on(void);
/* Writes one line "pdnn: <func>: <formatted>" to the log destination. */
void pdnn_log_call(const char *func, const char *fmt, ...) PDNN_PRINTF(2, 3);
/* Monotonic clock in milliseconds. */
double pdnn_now_ms(void);

#endif
