/* Body of the packed optimizer step for one element type (internal; included by
 * optim_cpu_packed.c with OPT_T = float or double, OPT_SQRT and OPT_FN defined). The
 * arithmetic is done in OPT_T, as PyTorch does for a tensor of that type, with the
 * per-step scalars rounded once from double. Elementwise: bitwise identical for any
 * thread count. */

static void OPT_FN(const pdnn_optim_problem *p, const pdnn_optim_coefs *cf, OPT_T *restrict w,
                   const OPT_T *restrict g, OPT_T *restrict st, int nthreads)
{
    const int64_t n = p->n;
    const struct pdnnOptimizerStruct *o = &p->opt;
    const bool first = cf->first;
    const int nt = pdnn_par_threads(nthreads, n, (double)n, PAR_MIN_ELEMS);
    const OPT_T lr = (OPT_T)cf->lr, wd = (OPT_T)cf->wd, decay = (OPT_T)cf->decay;
    const OPT_T mu = (OPT_T)cf->mu, damp1 = (OPT_T)cf->damp1, eps = (OPT_T)cf->eps;
    const bool use_wd = cf->wd != 0.0, use_decay = cf->decay != 1.0;
    OPT_T *restrict s0 = st; /* NULL for SGD without momentum */

    switch (o->type) {
    case PDNN_OPTIMIZER_SGD: {
        const bool mom = cf->mu != 0.0, nesterov = o->nesterov;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
        for (int64_t i = 0; i < n; i++) {
            OPT_T gi = g[i];
            if (use_wd) gi += wd * w[i];
            if (mom) {
                OPT_T b = first ? gi : mu * s0[i] + damp1 * gi;
                s0[i] = b;
                gi = nesterov ? gi + mu * b : b;
            }
            w[i] -= lr * gi;
        }
        break;
    }
    case PDNN_OPTIMIZER_ADAM:
    case PDNN_OPTIMIZER_ADAMW: {
        const OPT_T b1 = (OPT_T)cf->b1, c1 = (OPT_T)cf->c1, b2 = (OPT_T)cf->b2;
        const OPT_T c2 = (OPT_T)cf->c2, step_size = (OPT_T)cf->step_size;
        const OPT_T bc2_sqrt = (OPT_T)cf->bc2_sqrt;
        const bool ams = o->amsgrad;
        OPT_T *restrict s1 = st + n, *restrict s2 = st + 2 * n;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
        for (int64_t i = 0; i < n; i++) {
            OPT_T wi = w[i], gi = g[i];
            if (use_decay) wi *= decay;
            if (use_wd) gi += wd * wi;
            OPT_T m = first ? c1 * gi : b1 * s0[i] + c1 * gi;
            OPT_T v = first ? c2 * gi * gi : b2 * s1[i] + c2 * gi * gi;
            s0[i] = m;
            s1[i] = v;
            if (ams) {
                OPT_T vm = first ? v : s2[i];
                vm = (v > vm || v != v) ? v : vm;
                s2[i] = vm;
                v = vm;
            }
            w[i] = wi - step_size * m / (OPT_SQRT(v) / bc2_sqrt + eps);
        }
        break;
    }
    case PDNN_OPTIMIZER_RMSPROP: {
        const OPT_T a = (OPT_T)cf->a, ca = (OPT_T)cf->ca;
        const bool centered = o->centered, mom = cf->mu > 0.0;
        OPT_T *restrict sb = st + cf->ib * n, *restrict sga = st + cf->iga * n;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
        for (int64_t i = 0; i < n; i++) {
            OPT_T gi = g[i];
            if (use_wd) gi += wd * w[i];
            OPT_T v = first ? ca * gi * gi : a * s0[i] + ca * gi * gi;
            s0[i] = v;
            if (centered) {
                OPT_T ga = first ? ca * gi : a * sga[i] + ca * gi;
                sga[i] = ga;
                v -= ga * ga;
            }
            OPT_T d = OPT_SQRT(v) + eps;
            if (mom) {
                OPT_T b = first ? gi / d : mu * sb[i] + gi / d;
                sb[i] = b;
                w[i] -= lr * b;
            } else {
                w[i] -= lr * gi / d;
            }
        }
        break;
    }
    case PDNN_OPTIMIZER_ADAGRAD: {
        const OPT_T clr = (OPT_T)cf->clr, init = (OPT_T)cf->init;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
        for (int64_t i = 0; i < n; i++) {
            OPT_T gi = g[i];
            if (use_wd) gi += wd * w[i];
            OPT_T s = (first ? init : s0[i]) + gi * gi;
            s0[i] = s;
            w[i] -= clr * gi / (OPT_SQRT(s) + eps);
        }
        break;
    }
    }
}
