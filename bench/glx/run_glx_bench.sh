#!/bin/sh
# SPDX-License-Identifier: MIT
# GLX start-up and make-current, glmux against Debian's libglvnd, in instructions counted by
# callgrind inside glx_startup() / make_current_loop() only. Vendors: the test suite's fake
# vendors (fakea on screen 0, fakeb on screen 1: the cost of the dispatch layer alone), and
# Debian's Mesa for start-up (what an application sees). Starts its own two-screen Xvfb.
#   bench/glx/run_glx_bench.sh [BUILD_DIR] [CALLS]
set -eu
build=${1:-build}
calls=${2:-20000}
prog="$build/bench/glx/bench_glx"
vendors="$build/tests/glx/vendors"
ours="$build/src/glx:$build/src/dispatch"
system=/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)"; exit 2; }
command -v Xvfb >/dev/null || { echo "Xvfb is needed (apt-get install xvfb)"; exit 2; }
[ -x "$prog" ] || { echo "build first: $prog is missing"; exit 2; }
[ -e "$vendors/libGLX_fakea.so.0" ] || { echo "build the tests first (fake vendors)"; exit 2; }
[ -e "$system/libGLX.so.0" ] || { echo "Debian's libglx0 is needed for the comparison"; exit 2; }

work=$(mktemp -d)
Xvfb -displayfd 3 -nolisten tcp -screen 0 64x64x24 -screen 1 64x64x24 3>"$work/fd" \
    >"$work/xvfb.log" 2>&1 </dev/null &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
i=0
while [ ! -s "$work/fd" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
export DISPLAY=":$(head -n 1 "$work/fd")"

count() {   # $1 = library path, $2 = vendor (fake|mesa), $3 = function, $4... = arguments
    lib=$1 vendor=$2 fn=$3
    shift 3
    if [ "$vendor" = fake ]; then
        force0=fakea force1=fakeb lib="$lib:$vendors"
    else
        force0= force1=
    fi
    env LD_LIBRARY_PATH="$lib" __GLX_FORCE_VENDOR_LIBRARY_0="$force0" \
        __GLX_FORCE_VENDOR_LIBRARY_1="$force1" \
        valgrind --tool=callgrind --callgrind-out-file="$work/cg" --toggle-collect="$fn" \
        "$@" >/dev/null 2>&1
    callgrind_annotate "$work/cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
}

row() {     # label, ours, libglvnd, divisor
    awk -v l="$1" -v o="$2" -v g="$3" -v n="$4" 'BEGIN {
        printf "%-34s %14.1f %14.1f %8.3f\n", l, o / n, g / n, o / g }'
}

printf "%-34s %14s %14s %8s\n" "instructions" "glmux" "libglvnd" "ratio"
row "start-up, fake vendor" "$(count "$ours" fake glx_startup "$prog" startup)" \
    "$(count "$system" fake glx_startup "$prog" startup)" 1
row "start-up, Mesa (llvmpipe)" "$(count "$ours" mesa glx_startup "$prog" startup)" \
    "$(count "$system" mesa glx_startup "$prog" startup)" 1
row "make-current, same vendor (per call)" \
    "$(count "$ours" fake make_current_loop "$prog" same "$calls")" \
    "$(count "$system" fake make_current_loop "$prog" same "$calls")" "$calls"
row "make-current, two vendors (per call)" \
    "$(count "$ours" fake make_current_loop "$prog" switch "$calls")" \
    "$(count "$system" fake make_current_loop "$prog" switch "$calls")" "$calls"
for lib in "$ours" "$system"; do
    LD_LIBRARY_PATH="$lib:$vendors" __GLX_FORCE_VENDOR_LIBRARY_0=fakea \
        __GLX_FORCE_VENDOR_LIBRARY_1=fakeb "$prog" switch 200000 |
        while IFS= read -r line; do printf '%s: %s\n' "$lib" "$line"; done
done
