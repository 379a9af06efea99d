/* Closed-form learning rates (torch.optim.lr_scheduler's _get_closed_form_lr and
 * OneCycleLR.get_lr, written from their documented formulas). */
#include <math.h>

#include "ops/sched/sched_ref.h"

static double cosine(double from, double to, double pct)
{
    return to + (from - to) * 0.5 * (1.0 + cos(M_PI * pct));
}

static double one_cycle(const struct pdnnScheduleStruct *s, int64_t t)
{
    double T = (double)s->total, max_lr = s->base_lr;
    double initial = max_lr / s->div_factor, min_lr = initial / s->final_div_factor;
    double end[3], from[3], to[3];
    int nph;
    end[0] = s->pct_start * T - 1.0, from[0] = initial, to[0] = max_lr;
    if (s->three_phase) {
        end[1] = 2.0 * s->pct_start * T - 2.0, from[1] = max_lr, to[1] = initial;
        end[2] = T - 1.0, from[2] = initial, to[2] = min_lr;
        nph = 3;
    } else {
        end[1] = T - 1.0, from[1] = max_lr, to[1] = min_lr;
        nph = 2;
    }
    double x = (double)t, start = 0.0;
    for (int i = 0; i < nph; i++) {
        if (x <= end[i] || i == nph - 1) {
            double pct = (x - start) / (end[i] - start);
            if (s->anneal == PDNN_ANNEAL_LINEAR) return from[i] + (to[i] - from[i]) * pct;
            return cosine(from[i], to[i], pct);
        }
        start = end[i];
    }
    return to[nph - 1]; /* not reached */
}

double pdnn_sched_rate_ref(const struct pdnnScheduleStruct *s, int64_t t)
{
    double x = (double)t, base = s->base_lr;
    switch (s->type) {
    case PDNN_SCHEDULE_CONSTANT: return base;
    case PDNN_SCHEDULE_STEP: return base * pow(s->gamma, (double)(t / s->step_size));
    case PDNN_SCHEDULE_MULTI_STEP: {
        int k = 0;
        for (int i = 0; i < s->nb_milestones; i++) k += s->milestones[i] <= t;
        return base * pow(s->gamma, (double)k);
    }
    case PDNN_SCHEDULE_EXPONENTIAL: return base * pow(s->gamma, x);
    case PDNN_SCHEDULE_COSINE: return cosine(base, s->eta_min, x / (double)s->t_max);
    case PDNN_SCHEDULE_WARMUP_COSINE:
        if (t < s->warmup)
            return base * (s->start_factor + (1.0 - s->start_factor) * x / (double)s->warmup);
        if (t > s->total) return s->eta_min;
        return cosine(base, s->eta_min,
                      (double)(t - s->warmup) / (double)(s->total - s->warmup));
    case PDNN_SCHEDULE_ONE_CYCLE: return one_cycle(s, t);
    case PDNN_SCHEDULE_POLYNOMIAL: {
        double f = 1.0 - (double)(t < s->total ? t : s->total) / (double)s->total;
        return (base - s->end_lr) * pow(f, s->power) + s->end_lr;
    }
    }
    return base;
}
