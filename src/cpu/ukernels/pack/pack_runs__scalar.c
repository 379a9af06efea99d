/* Run packer (pack_runs.h), scalar build of pack_runs_tmpl.h. */
#include "cpu/ukernels/pack/pack_runs.h"

#define PR_FN pdnn_pack_runs__scalar
#include "cpu/ukernels/pack/pack_runs_tmpl.h"
