#!/usr/bin/env bash
# The README's main-job command: installs what is missing (including Debian's
# dataset-fashion-mnist), builds pdnn and trains the Fashion-MNIST example with its
# defaults (3 epochs, Adam), ending with the test accuracy. Options are passed on:
# scripts/main.sh --epochs 1 --threads 2 (see ./build/bin/fashion_mnist --help).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
# the main job needs no test: skip building them (scripts/test.sh turns them back on)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPDNN_BUILD_TESTS=OFF
cmake --build build -j "$(nproc)"
./build/bin/fashion_mnist "$@"
