#!/bin/sh
# SPDX-License-Identifier: MIT
# libEGL benchmarks, glmux against Debian's libglvnd, in callgrind instructions (same binary,
# LD_LIBRARY_PATH picks the libraries). Prints one table; exit status 1 if glmux costs more
# than libglvnd anywhere.
#   bench/egl/run_egl_bench.sh [BUILD_DIR] [SWITCHES]
# Needs valgrind, Debian's libegl1 + libopengl0 (the reference) and, for the Mesa rows,
# libegl-mesa0 + libgl1-mesa-dri (llvmpipe, surfaceless platform).
set -eu
build=${1:-build}
switches=${2:-10000}
src=$(cd "$(dirname "$0")/../.." && pwd)
prog="$build/bench/egl/bench_egl"
vendors="$build/tests/egl/vendors"
ours="$build/src/egl:$build/src/dispatch:$build/src/opengl"
system=/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)"; exit 2; }
[ -x "$prog" ] || { echo "build first: $prog is missing"; exit 2; }
[ -e "$vendors/libEGL_fake0.so.0" ] || { echo "build the fake vendors: ninja egl_fake_vendors"; exit 2; }
[ -e "$system/libEGL.so.1" ] || { echo "Debian's libegl1 is needed for the comparison"; exit 2; }

# count LIBS ENV-ASSIGNMENTS -- CALLGRIND-OPTIONS -- ARGS: prints instructions
count() {
    libs=$1
    shift
    envs=
    while [ "$1" != "--" ]; do envs="$envs $1"; shift; done
    shift
    opts=
    while [ "$1" != "--" ]; do opts="$opts $1"; shift; done
    shift
    out=$(mktemp)
    # shellcheck disable=SC2086
    env LD_LIBRARY_PATH="$libs:$vendors" $envs valgrind --tool=callgrind \
        --callgrind-out-file="$out" $opts "$prog" "$@" >/dev/null 2>&1 || { rm -f "$out"; echo 0; return; }
    callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
    rm -f "$out"
}

fake="__EGL_VENDOR_LIBRARY_DIRS=$src/tests/egl/json/two"
mesa="LIBGL_ALWAYS_SOFTWARE=1 EGL_PLATFORM=surfaceless"
status=0
row() {   # name divisor ours glvnd
    awk -v n="$1" -v d="$2" -v o="$3" -v g="$4" 'BEGIN {
        if (o == 0 || g == 0) { printf "%-34s %14s %14s   (failed to run)\n", n, o, g; exit 0 }
        printf "%-34s %14.1f %14.1f %8.3f\n", n, o / d, g / d, o / g
        exit (o <= g) ? 0 : 1 }' || status=1
}
printf "%-34s %14s %14s %8s\n" "instructions" "glmux" "libglvnd" "ratio"
row "start-up, fake vendors (process)" 1 \
    "$(count "$ours" $fake -- -- startup fake0)" "$(count "$system" $fake -- -- startup fake0)"
if [ -e /usr/share/glvnd/egl_vendor.d/50_mesa.json ]; then
    row "start-up, Mesa llvmpipe (process)" 1 \
        "$(count "$ours" $mesa -- -- startup mesa)" "$(count "$system" $mesa -- -- startup mesa)"
fi
row "make-current, same vendor (each)" $((switches * 2)) \
    "$(count "$ours" $fake -- --toggle-collect=switch_loop -- switch "$switches" fake)" \
    "$(count "$system" $fake -- --toggle-collect=switch_loop -- switch "$switches" fake)"
row "make-current, two vendors (each)" $((switches * 2)) \
    "$(count "$ours" $fake -- --toggle-collect=switch_loop -- switch "$switches" fake2)" \
    "$(count "$system" $fake -- --toggle-collect=switch_loop -- switch "$switches" fake2)"
names=$(grep -vc '^#' "$src/src/dispatch/gl_slots.txt")
names=$((names + 57))
row "eglGetProcAddress, all names (each)" "$names" \
    "$(count "$ours" $fake -- --toggle-collect=lookup_all -- procaddr "$src/src/dispatch/gl_slots.txt")" \
    "$(count "$system" $fake -- --toggle-collect=lookup_all -- procaddr "$src/src/dispatch/gl_slots.txt")"
exit $status
