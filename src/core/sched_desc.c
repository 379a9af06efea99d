/* Learning-rate schedule descriptor (pdnn/train.h): one Set/Get pair per kind. The
 * rate itself is computed in src/ops/sched/. */
#include <math.h>
#include <stdio.h>

#include "core/error.h"
#include "core/objects.h"
#include "core/train_desc.h"

typedef struct pdnnScheduleStruct sched_t;

pdnnStatus_t pdnn_check_schedule(const sched_t *d, const char *func, const char *argname)
{
    PDNN_TRY(pdnn_obj_check(PDNN_OBJ_SCHEDULE, d, func, argname));
    if (!d->set)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "%s was created but never set (call pdnnSetScheduleDescriptor*)",
                          argname);
    return PDNN_STATUS_SUCCESS;
}

static const char *kind_name(pdnnScheduleType_t t)
{
    switch (t) {
    case PDNN_SCHEDULE_CONSTANT: return "CONSTANT";
    case PDNN_SCHEDULE_STEP: return "STEP";
    case PDNN_SCHEDULE_MULTI_STEP: return "MULTI_STEP";
    case PDNN_SCHEDULE_EXPONENTIAL: return "EXPONENTIAL";
    case PDNN_SCHEDULE_COSINE: return "COSINE";
    case PDNN_SCHEDULE_WARMUP_COSINE: return "WARMUP_COSINE";
    case PDNN_SCHEDULE_ONE_CYCLE: return "ONE_CYCLE";
    case PDNN_SCHEDULE_POLYNOMIAL: return "POLYNOMIAL";
    }
    return "unknown";
}

/* Finite and >= lo. */
static pdnnStatus_t check_real(double v, double lo, bool open, const char *name,
                               const char *func)
{
    if (!(isfinite(v) && (open ? v > lo : v >= lo)))
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, func,
                          "%s is %g, must be finite and %s %g", name, v, open ? ">" : ">=",
                          lo);
    return PDNN_STATUS_SUCCESS;
}

static pdnnStatus_t check_int(int64_t v, int64_t lo, const char *name, const char *func)
{
    if (v < lo)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, func, "%s is %lld, must be >= %lld",
                          name, (long long)v, (long long)lo);
    return PDNN_STATUS_SUCCESS;
}

#define REAL_GE(v, lo) PDNN_TRY(check_real((v), (lo), false, #v, __func__))
#define REAL_GT(v, lo) PDNN_TRY(check_real((v), (lo), true, #v, __func__))
#define INT_GE(v, lo) PDNN_TRY(check_int((v), (lo), #v, __func__))
#define LIVE(d) PDNN_TRY(pdnn_obj_check(PDNN_OBJ_SCHEDULE, (d), __func__, "schedDesc"))

static pdnnStatus_t check_get(const sched_t *d, pdnnScheduleType_t want, const char *func)
{
    PDNN_TRY(pdnn_check_schedule(d, func, "schedDesc"));
    if (d->type != want)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, func,
                          "schedDesc holds a %s schedule, not %s (use pdnnGetScheduleType)",
                          kind_name(d->type), kind_name(want));
    return PDNN_STATUS_SUCCESS;
}

#define GET_PROLOGUE(kind) PDNN_TRY(check_get(schedDesc, (kind), __func__))

pdnnStatus_t pdnnCreateScheduleDescriptor(pdnnScheduleDescriptor_t *schedDesc)
{
    PDNN_CHECK_NULL(schedDesc);
    sched_t *d = pdnn_obj_new(PDNN_OBJ_SCHEDULE, sizeof *d);
    if (!d) return pdnn_error(PDNN_STATUS_ALLOC_FAILED, __func__, "out of host memory");
    *schedDesc = d;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnDestroyScheduleDescriptor(pdnnScheduleDescriptor_t schedDesc)
{
    if (schedDesc == NULL) return PDNN_STATUS_SUCCESS;
    LIVE(schedDesc);
    pdnn_obj_free(PDNN_OBJ_SCHEDULE, schedDesc);
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetScheduleType(const pdnnScheduleDescriptor_t schedDesc,
                                 pdnnScheduleType_t *type)
{
    PDNN_TRY(pdnn_check_schedule(schedDesc, __func__, "schedDesc"));
    PDNN_CHECK_NULL(type);
    *type = schedDesc->type;
    return PDNN_STATUS_SUCCESS;
}

/* ---------------------------------------------------------------- constant */

pdnnStatus_t pdnnSetScheduleDescriptorConstant(pdnnScheduleDescriptor_t schedDesc, double baseLr)
{
    LIVE(schedDesc);
    REAL_GE(baseLr, 0.0);
    sched_t s = {.set = true, .type = PDNN_SCHEDULE_CONSTANT, .base_lr = baseLr};
    *schedDesc = s;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetScheduleDescriptorConstant(const pdnnScheduleDescriptor_t schedDesc,
                                               double *baseLr)
{
    GET_PROLOGUE(PDNN_SCHEDULE_CONSTANT);
    PDNN_CHECK_NULL(baseLr);
    *baseLr = schedDesc->base_lr;
    return PDNN_STATUS_SUCCESS;
}

/* ---------------------------------------------------------------- step */

pdnnStatus_t pdnnSetScheduleDescriptorStep(pdnnScheduleDescriptor_t schedDesc, double baseLr,
                                           int64_t stepSize, double gamma)
{
    LIVE(schedDesc);
    REAL_GE(baseLr, 0.0);
    INT_GE(stepSize, 1);
    REAL_GE(gamma, 0.0);
    sched_t s = {.set = true, .type = PDNN_SCHEDULE_STEP, .base_lr = baseLr,
                 .step_size = stepSize, .gamma = gamma};
    *schedDesc = s;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetScheduleDescriptorStep(const pdnnScheduleDescriptor_t schedDesc,
                                           double *baseLr, int64_t *stepSize, double *gamma)
{
    GET_PROLOGUE(PDNN_SCHEDULE_STEP);
    PDNN_CHECK_NULL(baseLr);
    PDNN_CHECK_NULL(stepSize);
    PDNN_CHECK_NULL(gamma);
    *baseLr = schedDesc->base_lr;
    *stepSize = schedDesc->step_size;
    *gamma = schedDesc->gamma;
    return PDNN_STATUS_SUCCESS;
}

/* ---------------------------------------------------------------- multi-step */

pdnnStatus_t pdnnSetScheduleDescriptorMultiStep(pdnnScheduleDescriptor_t schedDesc,
                                                double baseLr, int nbMilestones,
                                                const int64_t milestones[], double gamma)
{
    LIVE(schedDesc);
    REAL_GE(baseLr, 0.0);
    if (nbMilestones < 0 || nbMilestones > PDNN_SCHEDULE_MILESTONES_MAX)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, __func__,
                          "nbMilestones is %d, must be in [0, %d]", nbMilestones,
                          PDNN_SCHEDULE_MILESTONES_MAX);
    if (nbMilestones > 0) PDNN_CHECK_NULL(milestones);
    for (int i = 0; i < nbMilestones; i++)
        if (milestones[i] < 0)
            return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, __func__,
                              "milestones[%d] is %lld, must be >= 0", i,
                              (long long)milestones[i]);
    REAL_GE(gamma, 0.0);
    sched_t s = {.set = true, .type = PDNN_SCHEDULE_MULTI_STEP, .base_lr = baseLr,
                 .gamma = gamma, .nb_milestones = nbMilestones};
    for (int i = 0; i < nbMilestones; i++) s.milestones[i] = milestones[i];
    *schedDesc = s;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetScheduleDescriptorMultiStep(const pdnnScheduleDescriptor_t schedDesc,
                                                double *baseLr, int nbMilestonesRequested,
                                                int *nbMilestones, int64_t milestones[],
                                                double *gamma)
{
    GET_PROLOGUE(PDNN_SCHEDULE_MULTI_STEP);
    PDNN_CHECK_NULL(baseLr);
    PDNN_CHECK_NULL(nbMilestones);
    PDNN_CHECK_NULL(gamma);
    if (nbMilestonesRequested < 0)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, __func__,
                          "nbMilestonesRequested is %d, must be >= 0", nbMilestonesRequested);
    int m = nbMilestonesRequested < schedDesc->nb_milestones ? nbMilestonesRequested
                                                             : schedDesc->nb_milestones;
    if (m > 0) PDNN_CHECK_NULL(milestones);
    for (int i = 0; i < m; i++) milestones[i] = schedDesc->milestones[i];
    *baseLr = schedDesc->base_lr;
    *nbMilestones = schedDesc->nb_milestones;
    *gamma = schedDesc->gamma;
    return PDNN_STATUS_SUCCESS;
}

/* ---------------------------------------------------------------- exponential */

pdnnStatus_t pdnnSetScheduleDescriptorExponential(pdnnScheduleDescriptor_t schedDesc,
                                                  double baseLr, double gamma)
{
    LIVE(schedDesc);
    REAL_GE(baseLr, 0.0);
    REAL_GE(gamma, 0.0);
    sched_t s = {.set = true, .type = PDNN_SCHEDULE_EXPONENTIAL, .base_lr = baseLr,
                 .gamma = gamma};
    *schedDesc = s;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetScheduleDescriptorExponential(const pdnnScheduleDescriptor_t schedDesc,
                                                  double *baseLr, double *gamma)
{
    GET_PROLOGUE(PDNN_SCHEDULE_EXPONENTIAL);
    PDNN_CHECK_NULL(baseLr);
    PDNN_CHECK_NULL(gamma);
    *baseLr = schedDesc->base_lr;
    *gamma = schedDesc->gamma;
    return PDNN_STATUS_SUCCESS;
}

/* ---------------------------------------------------------------- cosine */

pdnnStatus_t pdnnSetScheduleDescriptorCosine(pdnnScheduleDescriptor_t schedDesc,
                                             double baseLr, int64_t tMax, double etaMin)
{
    LIVE(schedDesc);
    REAL_GE(baseLr, 0.0);
    INT_GE(tMax, 1);
    REAL_GE(etaMin, 0.0);
    sched_t s = {.set = true, .type = PDNN_SCHEDULE_COSINE, .base_lr = baseLr, .t_max = tMax,
                 .eta_min = etaMin};
    *schedDesc = s;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetScheduleDescriptorCosine(const pdnnScheduleDescriptor_t schedDesc,
                                             double *baseLr, int64_t *tMax, double *etaMin)
{
    GET_PROLOGUE(PDNN_SCHEDULE_COSINE);
    PDNN_CHECK_NULL(baseLr);
    PDNN_CHECK_NULL(tMax);
    PDNN_CHECK_NULL(etaMin);
    *baseLr = schedDesc->base_lr;
    *tMax = schedDesc->t_max;
    *etaMin = schedDesc->eta_min;
    return PDNN_STATUS_SUCCESS;
}

/* ---------------------------------------------------------------- warm-up + cosine */

pdnnStatus_t pdnnSetScheduleDescriptorWarmupCosine(pdnnScheduleDescriptor_t schedDesc,
                                                   double baseLr, int64_t warmupSteps,
                                                   int64_t totalSteps, double startFactor,
                                                   double etaMin)
{
    LIVE(schedDesc);
    REAL_GE(baseLr, 0.0);
    INT_GE(warmupSteps, 0);
    if (totalSteps <= warmupSteps)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, __func__,
                          "totalSteps is %lld, must exceed warmupSteps (%lld)",
                          (long long)totalSteps, (long long)warmupSteps);
    if (!(startFactor >= 0.0 && startFactor <= 1.0))
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, __func__,
                          "startFactor is %g, must be in [0, 1]", startFactor);
    REAL_GE(etaMin, 0.0);
    sched_t s = {.set = true, .type = PDNN_SCHEDULE_WARMUP_COSINE, .base_lr = baseLr,
                 .warmup = warmupSteps, .total = totalSteps, .start_factor = startFactor,
                 .eta_min = etaMin};
    *schedDesc = s;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetScheduleDescriptorWarmupCosine(const pdnnScheduleDescriptor_t schedDesc,
                                                   double *baseLr, int64_t *warmupSteps,
                                                   int64_t *totalSteps, double *startFactor,
                                                   double *etaMin)
{
    GET_PROLOGUE(PDNN_SCHEDULE_WARMUP_COSINE);
    PDNN_CHECK_NULL(baseLr);
    PDNN_CHECK_NULL(warmupSteps);
    PDNN_CHECK_NULL(totalSteps);
    PDNN_CHECK_NULL(startFactor);
    PDNN_CHECK_NULL(etaMin);
    *baseLr = schedDesc->base_lr;
    *warmupSteps = schedDesc->warmup;
    *totalSteps = schedDesc->total;
    *startFactor = schedDesc->start_factor;
    *etaMin = schedDesc->eta_min;
    return PDNN_STATUS_SUCCESS;
}

/* ---------------------------------------------------------------- one-cycle */

pdnnStatus_t pdnnSetScheduleDescriptorOneCycle(pdnnScheduleDescriptor_t schedDesc,
                                               double maxLr, int64_t totalSteps,
                                               double pctStart, double divFactor,
                                               double finalDivFactor,
                                               pdnnAnnealStrategy_t anneal, int threePhase)
{
    LIVE(schedDesc);
    REAL_GE(maxLr, 0.0);
    INT_GE(totalSteps, 1);
    if (!(pctStart >= 0.0 && pctStart <= 1.0))
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, __func__,
                          "pctStart is %g, must be in [0, 1]", pctStart);
    REAL_GT(divFactor, 0.0);
    REAL_GT(finalDivFactor, 0.0);
    if (anneal != PDNN_ANNEAL_COS && anneal != PDNN_ANNEAL_LINEAR)
        return pdnn_error(PDNN_STATUS_BAD_PARAM, __func__,
                          "anneal is %d, not a pdnnAnnealStrategy_t (COS 0, LINEAR 1)",
                          (int)anneal);
    if (threePhase != 0 && threePhase != 1)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, __func__,
                          "threePhase is %d, must be 0 or 1", threePhase);
    double T = (double)totalSteps, e1 = pctStart * T - 1.0;
    double e2 = threePhase ? 2.0 * pctStart * T - 2.0 : T - 1.0, e3 = T - 1.0;
    if (!(e1 > 0.0 && e2 > e1 && (!threePhase || e3 > e2))) {
        char ends[96];
        if (threePhase)
            snprintf(ends, sizeof ends, "%g, %g, %g", e1, e2, e3);
        else
            snprintf(ends, sizeof ends, "%g, %g", e1, e2);
        return pdnn_error(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, __func__,
                          "pctStart %g with totalSteps %lld gives a phase of no length "
                          "(phases end at steps %s, starting from 0); every phase must be "
                          "longer than 0 steps", pctStart, (long long)totalSteps, ends);
    }
    sched_t s = {.set = true, .type = PDNN_SCHEDULE_ONE_CYCLE, .base_lr = maxLr,
                 .total = totalSteps, .pct_start = pctStart, .div_factor = divFactor,
                 .final_div_factor = finalDivFactor, .anneal = anneal,
                 .three_phase = threePhase};
    *schedDesc = s;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetScheduleDescriptorOneCycle(const pdnnScheduleDescriptor_t schedDesc,
                                               double *maxLr, int64_t *totalSteps,
                                               double *pctStart, double *divFactor,
                                               double *finalDivFactor,
                                               pdnnAnnealStrategy_t *anneal, int *threePhase)
{
    GET_PROLOGUE(PDNN_SCHEDULE_ONE_CYCLE);
    PDNN_CHECK_NULL(maxLr);
    PDNN_CHECK_NULL(totalSteps);
    PDNN_CHECK_NULL(pctStart);
    PDNN_CHECK_NULL(divFactor);
    PDNN_CHECK_NULL(finalDivFactor);
    PDNN_CHECK_NULL(anneal);
    PDNN_CHECK_NULL(threePhase);
    *maxLr = schedDesc->base_lr;
    *totalSteps = schedDesc->total;
    *pctStart = schedDesc->pct_start;
    *divFactor = schedDesc->div_factor;
    *finalDivFactor = schedDesc->final_div_factor;
    *anneal = schedDesc->anneal;
    *threePhase = schedDesc->three_phase;
    return PDNN_STATUS_SUCCESS;
}

/* ---------------------------------------------------------------- polynomial */

pdnnStatus_t pdnnSetScheduleDescriptorPolynomial(pdnnScheduleDescriptor_t schedDesc,
                                                 double baseLr, int64_t totalIters,
                                                 double power, double endLr)
{
    LIVE(schedDesc);
    REAL_GE(baseLr, 0.0);
    INT_GE(totalIters, 1);
    REAL_GE(power, 0.0);
    REAL_GE(endLr, 0.0);
    sched_t s = {.set = true, .type = PDNN_SCHEDULE_POLYNOMIAL, .base_lr = baseLr,
                 .total = totalIters, .power = power, .end_lr = endLr};
    *schedDesc = s;
    return PDNN_STATUS_SUCCESS;
}

pdnnStatus_t pdnnGetScheduleDescriptorPolynomial(const pdnnScheduleDescriptor_t schedDesc,
                                                 double *baseLr, int64_t *totalIters,
                                                 double *power, double *endLr)
{
    GET_PROLOGUE(PDNN_SCHEDULE_POLYNOMIAL);
    PDNN_CHECK_NULL(baseLr);
    PDNN_CHECK_NULL(totalIters);
    PDNN_CHECK_NULL(power);
    PDNN_CHECK_NULL(endLr);
    *baseLr = schedDesc->base_lr;
    *totalIters = schedDesc->total;
    *power = schedDesc->power;
    *endLr = schedDesc->end_lr;
    return PDNN_STATUS_SUCCESS;
}
