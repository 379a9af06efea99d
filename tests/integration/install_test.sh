#!/usr/bin/env bash
# Installs the built pdnn into a temporary prefix, then builds a consumer through
# find_package(pdnn) and another through pkg-config, and runs both.
# Usage: install_test.sh <build dir> <source dir>
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > /dev/null
lib=$(ls -d "$tmp"/prefix/lib*/ | head -1)
test -L "$lib/libpdnn.so"                       # dev symlink
readelf -d "$lib/libpdnn.so" | grep -q 'SONAME.*libpdnn.so.0'
test -f "$lib/libpdnn.a"
test -f "$tmp/prefix/include/pdnn.h"
cmake -S "$src/tests/integration/consumer" -B "$tmp/cmake" -G Ninja \
      -DCMAKE_PREFIX_PATH="$tmp/prefix" > /dev/null
cmake --build "$tmp/cmake" > /dev/null
LD_LIBRARY_PATH="$lib" "$tmp/cmake/consumer"
PKG_CONFIG_PATH="$lib/pkgconfig" cc -std=c11 "$src/tests/integration/consumer/main.c" \
    $(PKG_CONFIG_PATH="$lib/pkgconfig" pkg-config --cflags --libs pdnn) -o "$tmp/pc_consumer"
LD_LIBRARY_PATH="$lib" "$tmp/pc_consumer"
echo "install: 1 passed, 0 failed"
