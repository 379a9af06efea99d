/* The plan of the stride-2 3 x 3 depthwise kernels (dws2f_ukernels.h), AVX-512. */
#include <stdint.h>

#include "cpu/ukernels/dwconv/dws2f_ukernels.h"

enum { L = 16 };

int pdnn_f32_dws2f_plan__avx512(const pdnn_dws2_geom *g, pdnn_dws2f_plan *pl)
{
    if (g->kh != 3 || g->kw != 3 || g->OW < 1 || g->OW > 2 * L || g->OH < 1 || g->H < 1 ||
        g->W < 1 || g->p1 < 0 || g->p2 < 0)
        return 0;
    pl->g = *g;
    pl->np = g->OW <= 7 ? 2 : 1;
    pl->nv = g->OW <= 15 ? 1 : 2;
    /* one-vector x rows within a unit's vectors (always, with the output sizes of the
     * padding; two vectors read columns up to 64 - p2, all an output row can reach) */
    if (g->OH > PDNN_DWS2F_ROWS || (pl->nv == 1 && g->W > (pl->np == 2 ? L : 2 * L)))
        return 0;
    const int hw = pl->np == 2 ? 8 : L; /* lanes a plane */
    for (int k = 0; k < 2; k++)
        for (int r2 = 0; r2 < 3; r2++) {
            pl->km[k][r2] = 0;
            for (int l = 0; l < L; l++) {
                const int64_t j = k * L + l % hw, c = 2 * j + r2 - g->p2;
                if (j < g->OW && c >= 0 && c < g->W) pl->km[k][r2] |= (uint16_t)(1u << l);
            }
        }
    pl->st[0] = pl->st[1] = 0;
    for (int l = 0; l < L; l++) {
        if (pl->np == 2) {
            if (l < g->OW) pl->st[0] |= (uint16_t)(1u << l);
            if (l < g->OW) pl->st[1] |= (uint16_t)(1u << (l + 8));
        } else {
            if (l < g->OW) pl->st[0] |= (uint16_t)(1u << l);
            if (L + l < g->OW) pl->st[1] |= (uint16_t)(1u << l);
        }
    }
    return 1;
}
