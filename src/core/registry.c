#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/env.h"
#include "core/error.h"
#include "core/registry.h"

bool pdnn_supports_any(const void *prob, const char **why)
{
    (void)prob;
    (void)why;
    return true;
}

size_t pdnn_impl_workspace(const pdnn_impl *impl, const void *prob)
{
    return impl->workspace ? impl->workspace(prob) : 0;
}

pdnnStatus_t pdnn_dispatch(const pdnn_impl *const *list, int algo, const void *prob,
                           size_t ws_bytes, const char *func, const pdnn_impl **out)
{
    int verbose = pdnn_verbose("dispatch");
    pdnn_isa isa = pdnn_cpu_isa();
    if (!verbose) {
        /* the common case first, without composing any message: the first entry that
         * supports the problem within the workspace */
        for (const pdnn_impl *const *p = list; *p; p++) {
            const pdnn_impl *e = *p;
            const char *why = NULL;
            if ((algo >= 0 && e->algo != algo) || e->min_isa > isa || !e->supports(prob, &why))
                continue;
            if (ws_bytes == SIZE_MAX || pdnn_impl_workspace(e, prob) <= ws_bytes) {
                *out = e;
                return PDNN_STATUS_SUCCESS;
            }
        }
    }
    /* logging, or no entry serves: the same walk again, with every entry's reason */
    char reasons[768];
    size_t off = 0;
    reasons[0] = '\0';
    const pdnn_impl *short_ws = NULL;
    size_t need = 0;

    for (const pdnn_impl *const *p = list; *p; p++) {
        const pdnn_impl *e = *p;
        const char *why = NULL;
        char buf[96];
        if (algo >= 0 && e->algo != algo) continue;
        if (e->min_isa > isa) {
            snprintf(buf, sizeof buf, "needs ISA %s, this CPU runs %s",
                     pdnn_isa_name(e->min_isa), pdnn_isa_name(isa));
            why = buf;
        } else if (!e->supports(prob, &why)) {
            if (!why) why = "problem not supported";
        } else {
            size_t ws = pdnn_impl_workspace(e, prob);
            if (ws_bytes == SIZE_MAX || ws <= ws_bytes) {
                if (verbose) fprintf(stderr, "pdnn: dispatch %s: chose %s\n", func, e->name);
                *out = e;
                return PDNN_STATUS_SUCCESS;
            }
            if (!short_ws) short_ws = e, need = ws;
            snprintf(buf, sizeof buf, "needs %zu workspace bytes, %zu given", ws, ws_bytes);
            why = buf;
        }
        if (verbose) fprintf(stderr, "pdnn: dispatch %s: skip %s: %s\n", func, e->name, why);
        if (off < sizeof reasons) {
            int r = snprintf(reasons + off, sizeof reasons - off, "%s%s: %s", off ? "; " : "",
                             e->name, why);
            if (r > 0) off += (size_t)r;
        }
    }
    if (short_ws)
        return pdnn_error(PDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, func,
                          "workspace of %zu bytes is too small: %s needs %zu bytes", ws_bytes,
                          short_ws->name, need);
    if (off == 0)
        return pdnn_error(PDNN_STATUS_NOT_SUPPORTED, func,
                          "no implementation serves algorithm %d", algo);
    return pdnn_error(PDNN_STATUS_NOT_SUPPORTED, func, "no implementation supports this "
                      "problem: %s", reasons);
}
