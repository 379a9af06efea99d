/* pdnn-info: prints the library version, the detected and the effective CPU ISA, and
 * the default thread count of a new handle. */
#include <stdio.h>

#include "pdnn.h"
#include "cpu/isa.h"

int main(void)
{
    size_t v = pdnnGetVersion();
    printf("pdnn %zu.%zu.%zu\n", v / 10000, v / 100 % 100, v % 100);
    printf("cpu isa detected: %s\n", pdnn_isa_name(pdnn_cpu_isa_detected()));
    printf("cpu isa in use:   %s (cap with PDNN_MAX_CPU_ISA=scalar|avx2|avx512)\n",
           pdnn_isa_name(pdnn_cpu_isa()));
    pdnnHandle_t h;
    if (pdnnCreate(&h) != PDNN_STATUS_SUCCESS) {
        char msg[256];
        pdnnGetLastErrorString(msg, sizeof msg);
        fprintf(stderr, "pdnn-info: %s\n", msg);
        return 1;
    }
    int t = 0;
    pdnnGetNumThreads(h, &t);
    printf("threads: %d (PDNN_NUM_THREADS, then OMP_NUM_THREADS)\n", t);
    pdnnDestroy(h);
    return 0;
}
