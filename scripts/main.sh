#!/usr/bin/env bash
# The README's main-job command: installs what is missing, builds pdnn and runs the
# main example.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
./build/bin/cnn_demo "$@"
