#!/bin/sh
# SPDX-License-Identifier: MIT
# Instructions per GL call through libOpenGL.so.0's glColor3f stub, glmux against Debian's
# libglvnd, counted by callgrind inside calls_loop() only (loop + stub + trivial vendor call),
# and the whole start-up of the same program with no call. Exit status 1 if ours costs more
# per call.
#   bench/dispatch/run_dispatch_bench.sh [BUILD_DIR] [CALLS]    (BUILD_DIR may be an i386 build)
set -eu
build=${1:-build}
calls=${2:-100000}
prog="$build/bench/dispatch/bench_gl_call"
ours="$build/src/opengl:$build/src/dispatch"
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)"; exit 2; }
[ -x "$prog" ] || { echo "build first: $prog is missing"; exit 2; }
# Compare with Debian's libglvnd of the program's architecture: an i386 build
# (cmake/toolchain-i386.cmake) runs natively under callgrind next to libglvnd's i386 libraries.
case $(od -An -tu2 -j18 -N2 "$prog" | tr -d ' ') in
    3) system=/usr/lib/i386-linux-gnu ;;     # ELF e_machine EM_386
    *) system=/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu) ;;
esac
[ -e "$system/libOpenGL.so.0" ] || { echo "Debian's libopengl0 is needed for the comparison"; exit 2; }

count() {   # $1 = library path, $2 = calls, $3... = callgrind options; prints instructions
    out=$(mktemp)
    lib=$1 n=$2
    shift 2
    LD_LIBRARY_PATH="$lib" valgrind --tool=callgrind --callgrind-out-file="$out" "$@" \
        "$prog" "$n" >/dev/null 2>&1
    callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
    rm -f "$out"
}
ours_ir=$(count "$ours" "$calls" --toggle-collect=calls_loop)
glvnd_ir=$(count "$system" "$calls" --toggle-collect=calls_loop)
# Whole process with no GL call: load, init, table creation, first make-current (which fills
# every static slot through the vendor's getProcAddress), exit.
ours_start=$(count "$ours" 0)
glvnd_start=$(count "$system" 0)
LD_LIBRARY_PATH="$ours" "$prog" 1 | sed 's/^/glmux:   /'
LD_LIBRARY_PATH="$system" "$prog" 1 | sed 's/^/libglvnd: /'
awk -v o="$ours_ir" -v g="$glvnd_ir" -v n="$calls" 'BEGIN {
    printf "%-10s %14s %16s\n", "library", "instructions", "per GL call"
    printf "%-10s %14d %16.2f\n", "glmux", o, o / n
    printf "%-10s %14d %16.2f\n", "libglvnd", g, g / n
    printf "ratio glmux/libglvnd: %.3f\n", o / g
    exit (o <= g) ? 0 : 1
}'
awk -v o="$ours_start" -v g="$glvnd_start" 'BEGIN {
    printf "start-up (whole process, 0 calls): glmux %d, libglvnd %d, ratio %.3f\n", o, g, o / g
}'
