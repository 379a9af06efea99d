#!/usr/bin/env bash
# Times pdnn's Fashion-MNIST example (build/bin/fashion_mnist) and the same network in
# PyTorch (bench/peers/fmnist_torch.py, Debian's python3-torch run by Debian's
# /usr/bin/python3, once with OMP_WAIT_POLICY=passive and once with =active, the faster
# counting) side by side in one invocation: same
# threads, epochs, batch size and training images. Prints each side's epoch times and
# the ratio pdnn time / PyTorch time (the issue's target: <= 0.67, goal 0.5).
# The timed part on both sides is the training steps of an epoch; the test pass after
# it is timed apart and left out.
#
# Usage: bench/fmnist_compare.sh [--epochs N] [--threads N] [--batch N] [--limit N]
#                                [--rounds R] [--bin PATH]
#   defaults: 1 epoch of all 60000 images, 2 threads, batch 64, 1 round.
#   --limit N    train on the first N images per epoch (quick, preliminary runs)
#   --rounds R   run pdnn then PyTorch R times, alternating; each side's best round
#                (least disturbed by other jobs on the machine) gives the ratio
#   --bin PATH   the fashion_mnist binary (./build/bin/fashion_mnist)
# Needs: scripts/deps.sh bench (python3-torch) and a built pdnn (scripts/main.sh, or
# cmake -S . -B build -G Ninja && cmake --build build).
set -euo pipefail
cd "$(dirname "$0")/.."

epochs=1 threads=2 batch=64 limit=0 rounds=1 bin=./build/bin/fashion_mnist
while [ $# -gt 0 ]; do
  case "$1" in
    --epochs|--threads|--batch|--limit|--rounds|--bin)
      [ $# -ge 2 ] || { echo "fmnist_compare: $1 needs a value" >&2; exit 2; }
      v="$2"
      case "$1" in
        --epochs) epochs=$v ;; --threads) threads=$v ;; --batch) batch=$v ;;
        --limit) limit=$v ;; --rounds) rounds=$v ;; --bin) bin=$v ;;
      esac
      shift 2 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fmnist_compare: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for n in epochs threads batch rounds; do
  [[ "${!n}" =~ ^[1-9][0-9]*$ ]] || { echo "fmnist_compare: --$n wants an integer >= 1, got '${!n}'" >&2; exit 2; }
done
[[ "$limit" =~ ^[0-9]+$ ]] || { echo "fmnist_compare: --limit wants an integer >= 0, got '$limit'" >&2; exit 2; }
[ -x "$bin" ] || { echo "fmnist_compare: $bin not found: build pdnn first (scripts/main.sh --help, or cmake -S . -B build -G Ninja && cmake --build build)" >&2; exit 1; }
py=/usr/bin/python3
"$py" -c 'import torch' 2>/dev/null || { echo "fmnist_compare: Debian's python3-torch is missing (scripts/deps.sh bench)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a short test pass when the training set is limited: it is not timed anyway
ltest=0
[ "$limit" -gt 0 ] && ltest=1000
pdnn_args=(--epochs "$epochs" --threads "$threads" --batch-size "$batch" --out "$tmp/out")
torch_args=(--epochs "$epochs" --threads "$threads" --batch "$batch")
[ "$limit" -gt 0 ] && pdnn_args+=(--limit-train "$limit") && torch_args+=(--limit "$limit")
[ "$ltest" -gt 0 ] && pdnn_args+=(--limit-test "$ltest") && torch_args+=(--limit-test "$ltest")

echo "fmnist_compare: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg);" \
     "threads $threads, batch $batch, epochs $epochs, images/epoch ${limit/#0/all}, rounds $rounds"

# Per round: the summed epoch seconds of each side (epoch seconds = images / images/s,
# as both print images/s with more digits than seconds).
best_p="" best_t=""
for r in $(seq 1 "$rounds"); do
  echo "== round $r: pdnn: $bin ${pdnn_args[*]}"
  "$bin" "${pdnn_args[@]}" > "$tmp/pdnn.log" 2>&1 || { cat "$tmp/pdnn.log" >&2; exit 1; }
  grep -E '^(pdnn|epoch [0-9]+/)' "$tmp/pdnn.log" | sed 's/^/   /'
  n=$(sed -n 's/.*Fashion-MNIST: \([0-9]*\) training.*/\1/p' "$tmp/pdnn.log")
  tp=$(awk -v n="$n" '/^epoch [0-9]+\/[0-9]+:/ { for (i = 1; i < NF; i++) if ($(i+1) == "images/s,") s += n / $i }
                      END { printf "%.3f", s }' "$tmp/pdnn.log")
  # PyTorch at its best: OMP_WAIT_POLICY=passive (the issue's setting) and active (faster
  # on some quiet machines), the faster of the two
  tt=""
  for pol in passive active; do
    echo "== round $r: torch: OMP_WAIT_POLICY=$pol $py bench/peers/fmnist_torch.py ${torch_args[*]}"
    OMP_WAIT_POLICY=$pol OMP_NUM_THREADS="$threads" "$py" bench/peers/fmnist_torch.py \
      "${torch_args[@]}" > "$tmp/torch.log" 2>&1 || { cat "$tmp/torch.log" >&2; exit 1; }
    sed 's/^/   /' "$tmp/torch.log"
    tpol=$(awk '/^torch epoch/ { for (i = 1; i < NF; i++) if ($(i+1) == "images/s,") s += $(i-4) / $i }
                END { printf "%.3f", s }' "$tmp/torch.log")
    tt=$(awk -v a="$tpol" -v b="${tt:-inf}" 'BEGIN { print (b == "inf" || a < b) ? a : b }')
  done
  echo "== round $r: epoch time pdnn ${tp} s, torch ${tt} s, ratio pdnn/torch $(awk -v a="$tp" -v b="$tt" 'BEGIN { printf "%.3f", a / b }')"
  best_p=$(awk -v a="$tp" -v b="${best_p:-inf}" 'BEGIN { print (b == "inf" || a < b) ? a : b }')
  best_t=$(awk -v a="$tt" -v b="${best_t:-inf}" 'BEGIN { print (b == "inf" || a < b) ? a : b }')
done
awk -v p="$best_p" -v t="$best_t" -v e="$epochs" 'BEGIN {
  printf "pdnn %.2f s per epoch, torch %.2f s per epoch: ratio pdnn/torch %.3f (target <= 0.67, goal 0.5)\n",
         p / e, t / e, p / t }'
