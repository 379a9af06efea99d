/* Run packer and unpacker (pack_runs.h), scalar build of pack_runs_tmpl.h. */
#include "cpu/ukernels/pack/pack_runs.h"

#define PR_FN pdnn_pack_runs__scalar
#define PR_UNFN pdnn_unpack_runs__scalar
#include "cpu/ukernels/pack/pack_runs_tmpl.h"
