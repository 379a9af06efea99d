/* Run-time CPU ISA detection, capped by PDNN_MAX_CPU_ISA (internal). */
#ifndef PDNN_CPU_ISA_H
#define PDNN_CPU_ISA_H

typedef enum {
    PDNN_ISA_SCALAR = 0, /* baseline x86-64 (SSE2) */
    PDNN_ISA_AVX2 = 1,   /* AVX2 + FMA3 */
    PDNN_ISA_AVX512 = 2  /* AVX-512 F, CD, BW, DQ, VL */
} pdnn_isa;

/* The ISA kernels may use: what the CPU and OS support, capped by PDNN_MAX_CPU_ISA
 * (scalar | avx2 | avx512, case-insensitive; read at the first call, as oneDNN reads
 * its ONEDNN_MAX_CPU_ISA once). */
pdnn_isa pdnn_cpu_isa(void);
/* Makes the next pdnn_cpu_isa() read PDNN_MAX_CPU_ISA again (tests that change it
 * within one process call it after setenv / unsetenv). */
void pdnn_cpu_isa_reread(void);
/* What the CPU and OS support, uncapped (detected once). */
pdnn_isa pdnn_cpu_isa_detected(void);
const char *pdnn_isa_name(pdnn_isa isa);

#endif
