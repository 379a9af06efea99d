/* pdnnGetScheduleRate: validate, then the closed form. */
#include "core/error.h"
#include "core/train_desc.h"
#include "ops/sched/sched_ref.h"

pdnnStatus_t pdnnGetScheduleRate(const pdnnScheduleDescriptor_t schedDesc, int64_t step,
                                 double *rate)
{
    PDNN_TRY(pdnn_check_schedule(schedDesc, __func__, "schedDesc"));
    PDNN_CHECK_NULL(rate);
    if (step < 0)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, __func__,
                          "step is %lld, must be >= 0", (long long)step);
    if (schedDesc->type == PDNN_SCHEDULE_ONE_CYCLE && step > schedDesc->total)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, __func__,
                          "step is %lld but the one-cycle schedule has %lld total steps "
                          "(PyTorch's OneCycleLR raises past them too)", (long long)step,
                          (long long)schedDesc->total);
    *rate = pdnn_sched_rate_ref(schedDesc, step);
    return PDNN_STATUS_SUCCESS;
}
