/* pdnnGetScheduleRate: every schedule against its closed form (torch.optim.lr_scheduler)
 * at chosen steps worked by hand, then at many random parameters and steps against the
 * formulas written out here. */
#include <math.h>
#include <string.h>

#include "testutil.h"

#define PI 3.14159265358979323846

static pdnnScheduleDescriptor_t S;

static double rate(int64_t t)
{
    double r = NAN;
    TU_OK(pdnnGetScheduleRate(S, t, &r));
    return r;
}

static void near(double got, double want, const char *what, int64_t t)
{
    TU_CHECK(fabs(got - want) <= 1e-14 * fmax(1, fabs(want)), "%s at step %lld: %.17g vs %.17g",
             what, (long long)t, got, want);
}

static void test_hand(void)
{
    TU_OK(pdnnSetScheduleDescriptorConstant(S, 0.3));
    near(rate(0), 0.3, "constant", 0);
    near(rate(1000000), 0.3, "constant", 1000000);

    TU_OK(pdnnSetScheduleDescriptorStep(S, 0.1, 3, 0.5));
    const double step_want[8] = {0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.025, 0.025};
    for (int t = 0; t < 8; t++) near(rate(t), step_want[t], "step", t);

    int64_t ms[3] = {5, 2, 5}; /* any order; 5 twice counts twice */
    TU_OK(pdnnSetScheduleDescriptorMultiStep(S, 1.0, 3, ms, 0.1));
    const double ms_want[7] = {1, 1, 0.1, 0.1, 0.1, 0.001, 0.001};
    for (int t = 0; t < 7; t++) near(rate(t), ms_want[t], "multistep", t);
    TU_OK(pdnnSetScheduleDescriptorMultiStep(S, 0.5, 0, NULL, 0.1));
    near(rate(100), 0.5, "multistep without milestones", 100);

    TU_OK(pdnnSetScheduleDescriptorExponential(S, 2.0, 0.5));
    near(rate(0), 2.0, "exponential", 0);
    near(rate(3), 0.25, "exponential", 3);

    TU_OK(pdnnSetScheduleDescriptorCosine(S, 1.0, 10, 0.2));
    near(rate(0), 1.0, "cosine", 0);
    near(rate(5), 0.6, "cosine", 5);
    near(rate(10), 0.2, "cosine", 10);
    near(rate(20), 1.0, "cosine (periodic past tMax)", 20);

    /* warm-up 4 steps from 0.25 * base, then cosine to 0 over 8 more */
    TU_OK(pdnnSetScheduleDescriptorWarmupCosine(S, 0.8, 4, 12, 0.25, 0.0));
    near(rate(0), 0.2, "warmup", 0);
    near(rate(2), 0.8 * (0.25 + 0.75 * 0.5), "warmup", 2);
    near(rate(4), 0.8, "warmup end", 4);
    near(rate(8), 0.4, "cosine middle", 8);
    near(rate(12), 0.0, "cosine end", 12);
    near(rate(50), 0.0, "past the end", 50);
    TU_OK(pdnnSetScheduleDescriptorWarmupCosine(S, 0.8, 0, 10, 1.0, 0.1));
    near(rate(0), 0.8, "no warm-up", 0);
    near(rate(5), 0.45, "no warm-up", 5);

    /* OneCycleLR defaults, max 1, 100 steps: starts at 1/25, peaks at step 29 (= 0.3 *
     * 100 - 1), ends at 1/25/1e4 at step 99 */
    TU_OK(pdnnSetScheduleDescriptorOneCycle(S, 1.0, 100, 0.3, 25, 1e4, PDNN_ANNEAL_COS, 0));
    near(rate(0), 0.04, "onecycle start", 0);
    near(rate(29), 1.0, "onecycle peak", 29);
    near(rate(99), 4e-6, "onecycle end", 99);
    double mid = 29 + 35; /* middle of the second phase: pct 0.5 */
    near(rate((int64_t)mid), 4e-6 + (1 - 4e-6) * 0.5, "onecycle mid", (int64_t)mid);
    double r;
    TU_OK(pdnnGetScheduleRate(S, 100, &r)); /* PyTorch allows step == total */
    TU_STATUS(PDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, pdnnGetScheduleRate(S, 101, &r));
    /* linear, three phases: 0.04 -> 1 over [0, 29], 1 -> 0.04 over [29, 58], -> 4e-6 */
    TU_OK(pdnnSetScheduleDescriptorOneCycle(S, 1.0, 100, 0.3, 25, 1e4, PDNN_ANNEAL_LINEAR, 1));
    near(rate(0), 0.04, "onecycle3 start", 0);
    near(rate(29), 1.0, "onecycle3 peak", 29);
    near(rate(58), 0.04, "onecycle3 back", 58);
    near(rate(99), 4e-6, "onecycle3 end", 99);
    near(rate(10), 0.04 + (1 - 0.04) * 10 / 29.0, "onecycle3 linear", 10);

    TU_OK(pdnnSetScheduleDescriptorPolynomial(S, 0.1, 4, 2.0, 0.0));
    near(rate(0), 0.1, "poly", 0);
    near(rate(2), 0.025, "poly", 2);
    near(rate(4), 0.0, "poly", 4);
    near(rate(9), 0.0, "poly past", 9);
    TU_OK(pdnnSetScheduleDescriptorPolynomial(S, 0.1, 4, 1.0, 0.02));
    near(rate(1), 0.08 * 0.75 + 0.02, "poly end rate", 1);
    near(rate(7), 0.02, "poly end rate past", 7);
}

/* ------------------------------------------------------------------ formulas, random */

static double o_cos(double a, double b, double pct) { return b + (a - b) / 2 * (cos(PI * pct) + 1); }

static void test_random(void)
{
    tu_seed(31);
    for (int it = 0; it < 400; it++) {
        double base = tu_uniform(0, 1), gamma = tu_uniform(0, 1.2), eta = tu_uniform(0, 0.1);
        int64_t t = tu_int(0, 300), want_t = t;
        double want = NAN;
        switch (it % 8) {
        case 0:
            TU_OK(pdnnSetScheduleDescriptorConstant(S, base));
            want = base;
            break;
        case 1: {
            int64_t k = tu_int(1, 40);
            TU_OK(pdnnSetScheduleDescriptorStep(S, base, k, gamma));
            want = base * pow(gamma, floor((double)t / (double)k));
            break;
        }
        case 2: {
            int64_t m[6];
            int nm = tu_int(0, 6), below = 0;
            for (int i = 0; i < nm; i++) below += (m[i] = tu_int(0, 300)) <= t;
            TU_OK(pdnnSetScheduleDescriptorMultiStep(S, base, nm, m, gamma));
            want = base * pow(gamma, below);
            break;
        }
        case 3:
            TU_OK(pdnnSetScheduleDescriptorExponential(S, base, gamma));
            want = base * pow(gamma, (double)t);
            break;
        case 4: {
            int64_t T = tu_int(1, 200);
            TU_OK(pdnnSetScheduleDescriptorCosine(S, base, T, eta));
            want = o_cos(base, eta, (double)t / (double)T);
            break;
        }
        case 5: {
            int64_t W = tu_int(0, 50), T = W + tu_int(1, 200);
            double f = tu_uniform(0, 1);
            TU_OK(pdnnSetScheduleDescriptorWarmupCosine(S, base, W, T, f, eta));
            if (t < W)
                want = base * (f + (1 - f) * (double)t / (double)W);
            else if (t <= T)
                want = o_cos(base, eta, (double)(t - W) / (double)(T - W));
            else
                want = eta;
            break;
        }
        case 6: {
            int64_t T = tu_int(20, 300);
            double pct = tu_uniform(0.1, 0.45), div = tu_uniform(2, 30), fdiv = tu_uniform(10, 1e4);
            int three = tu_int(0, 1);
            pdnnAnnealStrategy_t an = tu_int(0, 1) ? PDNN_ANNEAL_COS : PDNN_ANNEAL_LINEAR;
            TU_OK(pdnnSetScheduleDescriptorOneCycle(S, base, T, pct, div, fdiv, an, three));
            want_t = t = tu_int(0, (int)T);
            double init = base / div, lo = init / fdiv, e1 = pct * T - 1;
            double ends[3] = {e1, three ? 2 * pct * T - 2 : T - 1, T - 1};
            double from[3] = {init, base, three ? init : 0}, to[3] = {base, three ? init : lo, lo};
            int np = three ? 3 : 2, ph = np - 1;
            for (int i = 0; i < np; i++)
                if (t <= ends[i]) {
                    ph = i;
                    break;
                }
            double start = ph == 0 ? 0 : ends[ph - 1], pc = (t - start) / (ends[ph] - start);
            want = an == PDNN_ANNEAL_COS ? o_cos(from[ph], to[ph], pc)
                                         : from[ph] + (to[ph] - from[ph]) * pc;
            break;
        }
        case 7: {
            int64_t T = tu_int(1, 200);
            double pw = tu_uniform(0, 3), end = tu_uniform(0, 0.05);
            TU_OK(pdnnSetScheduleDescriptorPolynomial(S, base, T, pw, end));
            want = (base - end) * pow(1 - (double)(t < T ? t : T) / (double)T, pw) + end;
            break;
        }
        }
        double got = NAN;
        TU_OK(pdnnGetScheduleRate(S, want_t, &got));
        TU_CHECK(fabs(got - want) <= 1e-12 * fmax(1, fabs(want)), "kind %d step %lld: %.17g vs %.17g",
                 it % 8, (long long)want_t, got, want);
    }
}

int main(void)
{
    TU_OK(pdnnCreateScheduleDescriptor(&S));
    test_hand();
    test_random();
    pdnnDestroyScheduleDescriptor(S);
    return tu_finish("ops/sched");
}
