/* Run packer (pack_runs.h), avx512 build of pack_runs_tmpl.h. */
#include "cpu/ukernels/pack/pack_runs.h"

#define PR_FN pdnn_pack_runs__avx512
#include "cpu/ukernels/pack/pack_runs_tmpl.h"
