#!/bin/sh
# SPDX-License-Identifier: MIT
# The main demonstration: installs what is missing, builds glmux, runs the demo programs.
#   scripts/demo.sh [BUILD_DIR]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
"$top/scripts/install-deps.sh"
cmake -S "$top" -B "$build" -G Ninja >/dev/null
cmake --build "$build"
for demo in "$build"/demo/glmux-demo*; do
    [ -x "$demo" ] || continue
    echo "== $(basename "$demo")"
    "$demo"
done
