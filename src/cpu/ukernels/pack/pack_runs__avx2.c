/* Run packer and unpacker (pack_runs.h), avx2 build of pack_runs_tmpl.h. */
#include "cpu/ukernels/pack/pack_runs.h"

#define PR_FN pdnn_pack_runs__avx2
#define PR_UNFN pdnn_unpack_runs__avx2
#include "cpu/ukernels/pack/pack_runs_tmpl.h"
