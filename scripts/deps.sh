#!/usr/bin/env bash
# Installs the Debian packages pdnn's build, tests and main job need, when missing.
# Usage: scripts/deps.sh [build|test|bench]
set -euo pipefail
# build: the library and the main job (Fashion-MNIST data, JSON for its checkpoints,
# cairo for its plot)
pkgs=(build-essential cmake ninja-build pkg-config zlib1g-dev
      dataset-fashion-mnist libjansson-dev libcairo2-dev)
if [ "${1:-build}" = test ]; then
  pkgs+=(libprotobuf-c-dev protobuf-c-compiler libonnx-dev libonnx-testdata)
fi
if [ "${1:-build}" = bench ]; then
  pkgs+=(libopenblas-dev) # peer of bench/gemm_bench.c (bench/peers/openblas_sgemm.c)
  pkgs+=(libdnnl-dev) # oneDNN 2.x, peer of pdnn-bench: pdnn-bench-onednn (bench/peers/onednn_conv.c)
  pkgs+=(python3-torch) # peer of the main job: bench/fmnist_compare.sh (bench/peers/fmnist_torch.py)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  SUDO=()
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "deps: not root and no sudo here: as root, run" \
           "apt-get install --no-install-recommends ${missing[*]}" >&2
      exit 1
    fi
    SUDO=(sudo)
  fi
  "${SUDO[@]}" apt-get update -qq
  # env after sudo: sudo resets the environment
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
