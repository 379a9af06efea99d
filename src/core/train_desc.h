/* Internal layout of the training descriptors of pdnn/train.h (loss, optimizer,
 * learning-rate schedule), immutable once set. */
#ifndef PDNN_CORE_TRAIN_DESC_H
#define PDNN_CORE_TRAIN_DESC_H

#include <stdbool.h>
#include <stdint.h>

#include "pdnn.h"

struct pdnnLossStruct {
    bool set;
    pdnnLossMode_t mode;
    pdnnLossReduction_t reduction;
    int64_t ignore_index;
    double smoothing;             /* SOFTMAX_CROSS_ENTROPY only, else 0 */
};

struct pdnnOptimizerStruct {
    bool set;
    pdnnOptimizerType_t type;
    double weight_decay;          /* every algorithm */
    double momentum, dampening;   /* SGD; momentum also RMSprop */
    double beta1, beta2;          /* Adam, AdamW */
    double eps;                   /* Adam, AdamW, RMSprop, Adagrad */
    double alpha;                 /* RMSprop */
    double lr_decay, init_acc;    /* Adagrad */
    bool nesterov, amsgrad, centered;
};

/* Number of state buffers (each numel(w) elements of w's type) an optimizer keeps. */
int pdnn_optimizer_nbufs(const struct pdnnOptimizerStruct *o);

struct pdnnScheduleStruct {
    bool set;
    pdnnScheduleType_t type;
    double base_lr;               /* max_lr for ONE_CYCLE */
    double gamma;                 /* STEP, MULTI_STEP, EXPONENTIAL */
    double eta_min;               /* COSINE, WARMUP_COSINE */
    double start_factor;          /* WARMUP_COSINE */
    double pct_start, div_factor, final_div_factor; /* ONE_CYCLE */
    double power, end_lr;         /* POLYNOMIAL */
    int64_t step_size;            /* STEP */
    int64_t t_max;                /* COSINE */
    int64_t warmup, total;        /* WARMUP_COSINE; total also ONE_CYCLE, POLYNOMIAL */
    pdnnAnnealStrategy_t anneal;  /* ONE_CYCLE */
    bool three_phase;             /* ONE_CYCLE */
    int nb_milestones;            /* MULTI_STEP */
    int64_t milestones[PDNN_SCHEDULE_MILESTONES_MAX];
};

/* Checks d is a live, set loss / optimizer / schedule descriptor (BAD_PARAM otherwise,
 * BAD_PARAM_NULL_POINTER for NULL). */
pdnnStatus_t pdnn_check_loss(const struct pdnnLossStruct *d, const char *func,
                             const char *argname);
pdnnStatus_t pdnn_check_optimizer(const struct pdnnOptimizerStruct *d, const char *func,
                                  const char *argname);
pdnnStatus_t pdnn_check_schedule(const struct pdnnScheduleStruct *d, const char *func,
                                 const char *argname);

#endif
