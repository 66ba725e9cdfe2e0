#!/bin/sh
# SPDX-License-Identifier: MIT
# What GPU selection adds to libGLX's start-up, in callgrind instructions: the selector calls
# libGLX makes (glmux_glx_selector_vendor_name, _library and _prepare in src/glx/glx_selector.c,
# including the one-time selector and vendor-list set-up and any GPU enumeration) and, for
# comparison, vendor discovery (glmux_vendor_list_discover_glx) and the whole process. The
# program is tests/glx's glx_select (one glXMakeCurrent on screen 0) with the fake vendors
# `mesa` and `nvidia` (tests/glx/gpu), under the umockdev bed of an Intel + NVIDIA laptop
# (tests/cli/beds/intel-nvidia.umockdev, rows marked "bed"), on an Xvfb of its own (which names
# "mesa").
#   bench/glx/run_select_bench.sh [BUILD_DIR]
# Needs valgrind, umockdev and Xvfb. Exit status 1 if a case without a variable enumerates GPUs.
set -eu
build=$(cd "${1:-build}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
prog="$build/tests/glx/glx_select"
gpu="$build/tests/glx/gpu"
bed="$src/tests/cli/beds/intel-nvidia.umockdev"
for tool in valgrind umockdev-run Xvfb; do
    command -v $tool >/dev/null || { echo "$tool is needed (.ci/packages)"; exit 2; }
done
[ -x "$prog" ] || { echo "build first: ninja glx_select"; exit 2; }
[ -e "$gpu/vendors/mesa/libGLX_mesa.so.0" ] || { echo "build the fake vendors: ninja glx_select"; exit 2; }

work=$(mktemp -d)
Xvfb -displayfd 3 -nolisten tcp -screen 0 64x64x24 3>"$work/fd" >"$work/xvfb.log" 2>&1 </dev/null &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
i=0
while [ ! -s "$work/fd" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$work/fd" ] || { echo "Xvfb did not start"; cat "$work/xvfb.log"; exit 2; }
echo ":$(head -n 1 "$work/fd")" >"$work/two.display"
# One vendor: Mesa's manifest alone in a vendor directory.
mkdir "$work/solo"
cp "$gpu/vendors/50_mesa.json" "$work/solo/"
ln -s "$gpu/vendors/mesa" "$work/solo/mesa"

# measure DIRS ENV-ASSIGNMENTS: prints "selector discovery process enumerated". Under the bed
# when $wrap is set: umockdev's preload then adds its own path translation to every file access
# (discovery included), so the rows without a variable, which read no sysfs, run without it.
measure() {
    dirs=$1
    shift
    out="$work/cg.out"
    rm -f "$out"
    # shellcheck disable=SC2086
    env -u DRI_PRIME -u GLMUX_GPU -u __NV_PRIME_RENDER_OFFLOAD -u __GLX_VENDOR_LIBRARY_NAME \
        -u GLMUX_DEBUG -u LD_LIBRARY_PATH GLMUX_TEST_XVFB_DIR="$work" GLMUX_VENDOR_DIRS="$dirs" \
        "$@" \
        $wrap valgrind --tool=callgrind --callgrind-out-file="$out" \
        --dump-instr=no "$prog" >/dev/null 2>&1 || { echo "0 0 0 failed"; return; }
    callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null | awk '
        /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
        /:glmux_glx_selector_vendor_name / { gsub(",", "", $1); sel += $1 }
        /:glmux_glx_selector_library / { gsub(",", "", $1); sel += $1 }
        /:glmux_glx_selector_prepare / { gsub(",", "", $1); sel += $1 }
        /:glmux_vendor_list_discover_glx / { gsub(",", "", $1); disc += $1 }
        /:glmux_gpu_list_enumerate / { gsub(",", "", $1); enum += $1 }
        END { printf "%d %d %d %s\n", sel, disc, total, (enum > 0 ? "yes" : "no") }'
}

row() {   # label dirs env...
    label=$1
    shift
    set -- $(measure "$@")
    printf "%-46s %9s %9s %10s %5s\n" "$label" "$1" "$2" "$3" "$4"
    case "$label" in *"no variable"*) [ "$4" = "no" ] || status=1 ;; esac
}

status=0
wrap=""
printf "%-46s %9s %9s %10s %5s\n" "instructions" "selector" "discovery" "process" "enum."
row "one vendor, no variable" "$work/solo"
row "two vendors, no variable" "$gpu/vendors"
row "two vendors, __GLX_VENDOR_LIBRARY_NAME=mesa" "$gpu/vendors" __GLX_VENDOR_LIBRARY_NAME=mesa
wrap="umockdev-run -d $bed --"
row "one vendor, no variable (bed)" "$work/solo"
row "one vendor, DRI_PRIME=1 (bed)" "$work/solo" DRI_PRIME=1
row "two vendors, no variable (bed)" "$gpu/vendors"
row "two vendors, DRI_PRIME=1 (bed)" "$gpu/vendors" DRI_PRIME=1
exit $status
