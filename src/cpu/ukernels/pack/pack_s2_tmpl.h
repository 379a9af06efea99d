/* Body of the stride-2 row packer (pack_s2.h) in plain C, compiled once per ISA by
 * pack_s2__<isa>.c after it defines PS_FN: per tap and run, the lanes whose columns
 * lie before x's row (the left padding) are zero, then a strided copy, then zeros. */

PDNN_F32_PACK_S2_UKERNEL(PS_FN)
{
    for (int64_t t = 0; t < ntap; t++) {
        float *d = dst + t * nr;
        for (int r = 0; r < nrun; r++) {
            float *dd = d + runs[r].j0;
            const int64_t len = runs[r].len;
            int64_t lo = 0, hi = 0;
            const int64_t c0 = runs[r].col + taps[t].col;
            if (pdnn_pack_s2_row_ok(&taps[t], &runs[r], h)) {
                /* lanes l with 0 <= c0 + 2 l < w */
                lo = c0 < 0 ? (1 - c0) / 2 : 0;
                hi = c0 < w ? (w - c0 + 1) / 2 : 0;
                if (hi > len) hi = len;
                if (lo > hi) lo = hi;
            }
            for (int64_t l = 0; l < lo; l++) dd[l] = 0.0f;
            if (hi > lo) {
                const float *s = x + runs[r].base + taps[t].off + (c0 + 2 * lo) * xc;
                for (int64_t l = 0; l < hi - lo; l++) dd[lo + l] = s[2 * l * xc];
            }
            for (int64_t l = hi; l < len; l++) dd[l] = 0.0f;
        }
        for (int64_t l = nvalid; l < nr; l++) d[l] = 0.0f;
    }
}
