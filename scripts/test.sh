#!/bin/sh
# SPDX-License-Identifier: MIT
# The whole test suite: installs what is missing, builds the default (x86-64 assembly stubs)
# and the pure-C configurations, and runs ctest in both. Extra arguments go to ctest.
#   scripts/test.sh [CTEST_ARGS...]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
"$top/scripts/install-deps.sh"
status=0
for config in default pure-c; do
    build="$top/build"
    opts=""
    if [ "$config" = pure-c ]; then
        build="$top/build-pure-c"
        opts="-DGLMUX_ENABLE_ASM=OFF"
    fi
    echo "== configuration: $config ($build)"
    # shellcheck disable=SC2086
    cmake -S "$top" -B "$build" -G Ninja $opts >/dev/null
    cmake --build "$build" -j "$jobs"
    (cd "$build" && ctest --output-on-failure -j "$jobs" -LE packaging "$@") || status=1
done
exit $status
