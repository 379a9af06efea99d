/* Stride-2 row packer (pack_s2.h), avx2 build of pack_s2_tmpl.h. */
#include "cpu/ukernels/pack/pack_s2.h"

#define PS_FN pdnn_f32_pack_s2__avx2
#include "cpu/ukernels/pack/pack_s2_tmpl.h"
