#!/usr/bin/env bash
# The README's test command: installs what is missing, builds pdnn with warnings as
# errors, runs the whole ctest suite, then builds again with AddressSanitizer and
# UndefinedBehaviorSanitizer and runs the suite there too.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
jobs=$(nproc)

# ONNX conformance ON: a missing package fails here rather than skipping the cases
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPDNN_WERROR=ON \
      -DPDNN_BUILD_TESTS=ON -DPDNN_ONNX_CONFORMANCE=ON
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs"

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPDNN_WERROR=ON \
      -DPDNN_SANITIZE=address,undefined -DPDNN_BUILD_EXAMPLES=ON \
      -DPDNN_BUILD_TESTS=ON -DPDNN_ONNX_CONFORMANCE=ON
cmake --build build-asan -j "$jobs"
# OpenMP's runtime keeps thread pools alive at exit: leaks there are not ours. Tests
# labelled slow (training runs) are left to the Release pass.
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" -LE slow
