/* Closed-form learning rates of the schedule descriptor (internal). */
#ifndef PDNN_SCHED_REF_H
#define PDNN_SCHED_REF_H

#include <stdint.h>

#include "core/train_desc.h"

/* Rate of a set schedule at step t (t >= 0, and t <= total for ONE_CYCLE: the API
 * checks). Plain double arithmetic following pdnn/train.h's formulas. */
double pdnn_sched_rate_ref(const struct pdnnScheduleStruct *s, int64_t t);

#endif
