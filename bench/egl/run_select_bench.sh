#!/bin/sh
# SPDX-License-Identifier: MIT
# What GPU selection adds to libEGL's start-up, in callgrind instructions: the selector calls
# libEGL makes (glmux_select_new, glmux_select_egl_vendor_order, including any GPU enumeration
# they do) and, for comparison, vendor discovery
# (glmux_vendor_list_discover) and the whole process. Uses tests/egl's fake vendors `mesa` and
# `nvidia` (tests/egl/gpu) and, for the hybrid rows, the umockdev bed of an Intel + NVIDIA
# laptop (tests/cli/beds/intel-nvidia.umockdev).
#   bench/egl/run_select_bench.sh [BUILD_DIR]
# Needs valgrind and umockdev. Exit status 1 if the single-vendor case enumerates GPUs.
set -eu
build=$(cd "${1:-build}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
prog="$build/bench/egl/bench_egl"
gpu="$build/tests/egl/gpu"
bed="$src/tests/cli/beds/intel-nvidia.umockdev"
ours="$build/src/egl:$build/src/dispatch:$build/src/opengl"
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)"; exit 2; }
command -v umockdev-run >/dev/null || { echo "umockdev is needed (apt-get install umockdev)"; exit 2; }
[ -x "$prog" ] || { echo "build first: ninja bench_egl egl_select"; exit 2; }
[ -e "$gpu/vendors/mesa/libEGL_mesa.so.0" ] || { echo "build the fake vendors: ninja egl_select"; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One vendor: Mesa's manifest alone in a vendor directory.
mkdir "$work/solo"
cp "$gpu/vendors/50_mesa.json" "$work/solo/"
ln -s "$gpu/vendors/mesa" "$work/solo/mesa"

# measure DIRS ENV-ASSIGNMENTS: prints "selector discovery process umockdev enumerated"
measure() {
    dirs=$1
    shift
    out="$work/cg.out"
    rm -f "$out"
    # shellcheck disable=SC2086
    env -u DRI_PRIME -u GLMUX_GPU -u __NV_PRIME_RENDER_OFFLOAD -u __EGL_VENDOR_LIBRARY_FILENAMES \
        -u __EGL_VENDOR_LIBRARY_DIRS LD_LIBRARY_PATH="$ours" GLMUX_VENDOR_DIRS="$dirs" \
        "$@" \
        umockdev-run -d "$bed" -- valgrind --tool=callgrind --callgrind-out-file="$out" \
        --dump-instr=no "$prog" startup mesa >/dev/null 2>&1 || { echo "0 0 0 0 failed"; return; }
    # Inclusive costs of the functions (callgrind_annotate --inclusive).
    # GPUs were enumerated when glmux_gpu_list_enumerate has a cost; umockdev is the self cost
    # of umockdev's preload library (its path translation of every file access) in the process.
    umock=$(callgrind_annotate --threshold=100 "$out" 2>/dev/null | awk '
        /libumockdev-preload/ { gsub(",", "", $1); n += $1 } END { printf "%d\n", n }')
    callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null | awk -v u="$umock" '
        /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
        /:glmux_select_new / { gsub(",", "", $1); sel += $1 }
        /:glmux_select_egl_vendor_order / { gsub(",", "", $1); sel += $1 }
        /:glmux_vendor_list_discover / { gsub(",", "", $1); disc += $1 }
        /:glmux_gpu_list_enumerate / { gsub(",", "", $1); enum += $1 }
        END { printf "%d %d %d %d %s\n", sel, disc, total, u, (enum > 0 ? "yes" : "no") }'
}

row() {   # label dirs env...
    label=$1
    shift
    set -- $(measure "$@")
    printf "%-48s %9s %9s %10s %9s %5s\n" "$label" "$1" "$2" "$3" "$4" "$5"
    [ "$label" != "one vendor, no variable" ] || [ "$5" = "no" ] || status=1
}

status=0
printf "%-48s %9s %9s %10s %9s %5s\n" "instructions" "selector" "discovery" "process" "umockdev" "enum."
row "one vendor, no variable" "$work/solo"
row "one vendor, DRI_PRIME=1" "$work/solo" DRI_PRIME=1
row "two vendors (Intel + NVIDIA bed), no variable" "$gpu/vendors"
row "two vendors (Intel + NVIDIA bed), DRI_PRIME=1" "$gpu/vendors" DRI_PRIME=1
row "two vendors, __EGL_VENDOR_LIBRARY_FILENAMES" "$gpu/vendors" \
    "__EGL_VENDOR_LIBRARY_FILENAMES=$gpu/egl_vendor.d/50_mesa.json:$gpu/egl_vendor.d/10_nvidia.json"
exit $status
