#!/usr/bin/env bash
# pdnn-bench against its oneDNN peer (pdnn-bench-onednn), problem by problem on the same
# machine state: for each problem of the list, pdnn is timed, then oneDNN, in separate
# processes, same problem line, direction, minibatch and thread count. Prints both
# times, the ratio oneDNN ms / pdnn ms (> 1: pdnn is faster; oneDNN's time is its
# primitive alone, without the reorders to and from plain layouts, which are shown
# apart) and the geometric mean of the ratios.
#
# usage: bench/compare.sh [--dir=FWD_D|FWD_B|BWD_D|BWD_W] [--mb=N] [-t THREADS]
#                         [--tag=nchw|nhwc] [-r ROUNDS] [-m SECONDS] [-c] [--timing=best|mean]
#                         [--algo=NAME] [--bin=DIR] [--repeat=N] BATCH_FILE|PROBLEM|--batch=FILE ...
#
# Defaults: 2 threads, FWD_D, the descriptors' minibatch, pdnn's algorithm "auto"
# (--algo goes to pdnn only), binaries in $PDNN_BENCH_BIN or build/bin, one process of
# each driver per problem (--repeat=N: N of each, alternating, the lowest time of each
# side kept: on a shared machine a whole process can run slow). A plain file argument is
# read as a batch file. Any other option is passed to both drivers, before the problems
# whatever its place on the line.
# Example: bench/compare.sh --mb=32 --dir=BWD_D bench/shapes/resnet50
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
bin="${PDNN_BENCH_BIN:-$here/../build/bin}"
threads=2
repeat=1
common=()
probs=()
pdnn_only=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --bin=*) bin="${1#--bin=}" ;;
    --repeat=*) repeat="${1#--repeat=}" ;;
    -t) [ $# -ge 2 ] || { echo "compare.sh: -t needs a thread count" >&2; exit 2; }
        threads="$2"; shift ;;
    --threads=*) threads="${1#--threads=}" ;;
    -t[0-9]*) threads="${1#-t}" ;;
    --algo=*|--no-impl|--ref=*) pdnn_only+=("$1") ;;
    --mode=*) echo "compare.sh: measures only (no --mode)" >&2; exit 2 ;;
    -r|-m) [ $# -ge 2 ] || { echo "compare.sh: $1 needs a value" >&2; exit 2; }
           common+=("$1" "$2"); shift ;;
    --batch=*) probs+=("$1") ;;
    -*) common+=("$1") ;;
    *) if [ -f "$1" ]; then probs+=("--batch=$1")
       elif [[ "$1" == */* && "$1" != *\"* ]]; then echo "compare.sh: no such file: $1" >&2; exit 2
       else probs+=("$1"); fi ;;
  esac
  shift
done
# options first, the pdnn-only ones too: benchdnn-style settings apply to the problems
# after them
case "$threads" in
  ''|*[!0-9]*) echo "compare.sh: -t takes one thread count, not '$threads'" >&2; exit 2 ;;
esac
case "$repeat" in
  ''|*[!0-9]*|0) echo "compare.sh: --repeat takes a count of 1 or more, not '$repeat'" >&2; exit 2 ;;
esac
pdnn="$bin/pdnn-bench"
peer="$bin/pdnn-bench-onednn"
for b in "$pdnn" "$peer"; do
  if [ ! -x "$b" ]; then
    echo "compare.sh: $b not found: build pdnn (cmake --build build) with oneDNN installed" \
         "(scripts/deps.sh bench), or give --bin=DIR" >&2
    exit 2
  fi
done

# the problem list, parsed once by pdnn-bench (bad lines stop here, before any timing)
list="$("$pdnn" --list "${common[@]+"${common[@]}"}" "${pdnn_only[@]+"${pdnn_only[@]}"}" \
        "${probs[@]+"${probs[@]}"}")"
n=$(printf '%s\n' "$list" | grep -c . || true)
if [ "$n" -eq 0 ]; then
  echo "compare.sh: no problem given" >&2
  exit 2
fi

model=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //' || echo unknown)
echo "# compare.sh $(date '+%Y-%m-%d %H:%M'), $model, $(nproc) online, threads $threads," \
     "load $(cut -d' ' -f1 /proc/loadavg)"
echo "# args: ${common[*]-} ${pdnn_only[*]-} ${probs[*]-}, $repeat process(es) a side a problem"
echo "# ratio = oneDNN ms / pdnn ms (>1: pdnn faster); oneDNN ms = primitive alone," \
     "reorder ms = its reorders from/to plain layouts"
printf '%-34s %-5s %10s %10s %7s %10s  %s\n' "# problem" dir "pdnn ms" "oneDNN ms" ratio \
       "reorder ms" "pdnn algo:impl / oneDNN impl"

# milliseconds with 3 decimals; anything else (a status) as it is
# faster ROW_A ROW_B FIELD: the row of the two whose status (field 13) is ok and whose ms
# (field FIELD) is lower; an empty or failed row loses to an ok one.
faster() {
  local a="$1" b="$2" f="$3"
  [ -n "$a" ] || { printf '%s' "$b"; return; }
  [ -n "$b" ] || { printf '%s' "$a"; return; }
  awk -v a="$a" -v b="$b" -v f="$f" 'BEGIN {
    na = split(a, x, ","); nb = split(b, y, ",")
    oka = x[13] == "ok"; okb = y[13] == "ok"
    if (okb && (!oka || y[f] + 0 < x[f] + 0)) print b; else print a }'
}

ms() { case "$1" in [0-9]*) awk -v x="$1" 'BEGIN { printf "%.3f", x }' ;; *) printf '%s' "$1" ;; esac; }

ratios=()
failed=0
for i in $(seq 1 "$n"); do
  p_row=""
  q_row=""
  for _rep in $(seq 1 "$repeat"); do
    p_new=$("$pdnn" --mode=P --csv -t "$threads" --index="$i" "${common[@]+"${common[@]}"}" \
              "${pdnn_only[@]+"${pdnn_only[@]}"}" "${probs[@]+"${probs[@]}"}" | grep '^P,' | \
              head -1 || true)
    q_new=$("$peer" --mode=P --csv -t "$threads" --index="$i" "${common[@]+"${common[@]}"}" \
              "${probs[@]+"${probs[@]}"}" | grep '^P,' | head -1 || true)
    p_row=$(faster "$p_row" "$p_new" 10)
    q_row=$(faster "$q_row" "$q_new" 10)
  done
  # CSV: P,label,desc,dir,dt,tag,threads,algo,impl,ms,gflops,ws_mib,status[,reorder_ms]
  IFS=, read -r _ label _ dir _ _ _ p_algo p_impl p_ms _ _ p_st <<<"$p_row" || true
  IFS=, read -r _ _ _ _ _ _ _ _ q_impl q_ms _ _ q_st q_re <<<"$q_row" || true
  if [ -z "${label:-}" ]; then
    label=$(printf '%s\n' "$list" | sed -n "${i}p" | awk '{print ($4 != "-") ? $4 : $3}')
    dir=$(printf '%s\n' "$list" | sed -n "${i}p" | awk '{print $2}')
  fi
  ratio="-"
  if [ "${p_st:-}" = ok ] && [ "${q_st:-}" = ok ]; then
    ratio=$(awk -v a="$q_ms" -v b="$p_ms" 'BEGIN { printf "%.3f", a / b }')
    ratios+=("$ratio")
  else
    failed=$((failed + 1))
    [ "${p_st:-}" = ok ] || p_ms="${p_st:-error}"
    [ "${q_st:-}" = ok ] || q_ms="${q_st:-error}"
  fi
  printf '%-34s %-5s %10s %10s %7s %10s  %s\n' "$label" "${dir:--}" "$(ms "${p_ms:--}")" \
         "$(ms "${q_ms:--}")" "$ratio" "$(ms "${q_re:--}")" "${p_algo:--}:${p_impl:--} / ${q_impl:--}"
done

if [ ${#ratios[@]} -gt 0 ]; then
  printf '%s\n' "${ratios[@]}" | awk -v n="$n" '
    { s += log($1); if (min == "" || $1 < min) min = $1; c++ }
    END { printf "# geometric mean of %d ratio(s): %.3f (lowest %.3f); %d problem(s) without a ratio\n",
                 c, exp(s / c), min, n - c }'
fi
[ "$failed" -eq 0 ]
