#!/bin/sh
# SPDX-License-Identifier: MIT
# Whether GPU enumeration may cost every GL program its libraries: libdrm and libudev are
# loaded with dlopen the first time a choice is needed, not linked into libEGL/libGLX. For the
# start-up of one EGL program (bench_egl startup mesa: default display, context, make-current,
# one glGetString) with tests/egl's fake vendors, this prints, side by side in one run:
#   glmux            what ships: nothing extra mapped unless GPUs are enumerated
#   glmux + linked   the same with libdrm.so.2 and libudev.so.1 preloaded, i.e. what linking
#                    them would add to every process (mapping, relocation, constructors)
#   libglvnd         Debian's libglvnd with the same vendors (__EGL_VENDOR_LIBRARY_FILENAMES)
# in callgrind instructions (whole process) and shared objects mapped, for one installed vendor
# without a variable (no enumeration: the common case) and for two vendors on the umockdev bed
# of an Intel + NVIDIA laptop (enumeration), and the same two vendors with WAYLAND_DISPLAY naming
# tests/egl's fake compositor (its linux-dmabuf feedback names the NVIDIA GPU): libEGL's short
# connection of its own to ask which GPU serves the default display. Every run is under
# umockdev-run, so the columns carry the same preload overhead.
#   bench/select/run_cost_bench.sh [BUILD_DIR]
# Needs valgrind, umockdev and Debian's libegl1. Exit status 1 if glmux maps libdrm or libudev
# in the one-vendor case.
set -eu
build=$(cd "${1:-build}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
prog="$build/bench/egl/bench_egl"
gpu="$build/tests/egl/gpu"
bed="$src/tests/cli/beds/intel-nvidia.umockdev"
ours="$build/src/egl:$build/src/dispatch:$build/src/opengl"
libdir=$(dirname "$(ldconfig -p | awk '/libudev.so.1 / { print $NF; exit }')")
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)"; exit 2; }
command -v umockdev-run >/dev/null || { echo "umockdev is needed (apt-get install umockdev)"; exit 2; }
[ -x "$prog" ] || { echo "build first: ninja bench_egl egl_select"; exit 2; }
[ -e "$gpu/vendors/mesa/libEGL_mesa.so.0" ] || { echo "build the fake vendors: ninja egl_select"; exit 2; }
compositor="$build/tests/egl/egl_wayland"
[ -x "$compositor" ] || { echo "build the fake compositor: ninja egl_wayland"; exit 2; }

work=$(mktemp -d)
trap 'exec 3>&-; wait; rm -rf "$work"' EXIT
# The fake compositor, until this script closes its standard input (fd 3).
mkdir -m 700 "$work/run"
mkfifo "$work/ctl"
XDG_RUNTIME_DIR="$work/run" "$compositor" serve <"$work/ctl" >"$work/serve.out" &
exec 3>"$work/ctl"
i=0
until grep -q '^ready' "$work/serve.out" 2>/dev/null; do
    i=$((i + 1))
    [ $i -le 100 ] || { echo "the fake compositor did not start"; exit 2; }
    sleep 0.1
done
mkdir "$work/solo"
cp "$gpu/vendors/50_mesa.json" "$work/solo/"
ln -s "$gpu/vendors/mesa" "$work/solo/mesa"
plain="$gpu/egl_vendor.d"

# run IMPL DIRS [wayland]: prints "instructions objects drm+udev wayland-client"
run() {
    impl=$1 dirs=$2 wl=${3:-}
    out="$work/cg.out"
    rm -f "$out" "$work"/ld.*
    case $impl in
        glmux) set -- LD_LIBRARY_PATH="$ours" GLMUX_VENDOR_DIRS="$dirs" ;;
        linked) set -- LD_LIBRARY_PATH="$ours" GLMUX_VENDOR_DIRS="$dirs" \
                       LD_PRELOAD="$libdir/libdrm.so.2:$libdir/libudev.so.1" ;;
        libglvnd)
            if [ "$dirs" = "$work/solo" ]; then files="$plain/50_mesa.json"
            else files="$plain/10_nvidia.json:$plain/50_mesa.json"; fi
            set -- __EGL_VENDOR_LIBRARY_FILENAMES="$files" ;;
    esac
    [ -z "$wl" ] || set -- "$@" WAYLAND_DISPLAY=glmux-test-wayland XDG_RUNTIME_DIR="$work/run"
    # umockdev-run adds its own preload to LD_PRELOAD, after ours.
    env -u DRI_PRIME -u GLMUX_GPU -u __NV_PRIME_RENDER_OFFLOAD -u __EGL_VENDOR_LIBRARY_DIRS \
        -u LD_PRELOAD -u DISPLAY -u WAYLAND_DISPLAY -u WAYLAND_SOCKET "$@" \
        umockdev-run -d "$bed" -- valgrind --tool=callgrind --callgrind-out-file="$out" \
        --dump-instr=no "$prog" startup mesa >/dev/null 2>&1 ||
        { echo "0 0 failed"; return; }
    total=$(callgrind_annotate --threshold=100 "$out" 2>/dev/null |
            awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    # Objects mapped: the ld.so trace of the same run, without valgrind.
    env -u DRI_PRIME -u GLMUX_GPU -u __NV_PRIME_RENDER_OFFLOAD -u __EGL_VENDOR_LIBRARY_DIRS \
        -u LD_PRELOAD -u DISPLAY -u WAYLAND_DISPLAY -u WAYLAND_SOCKET "$@" LD_DEBUG=files \
        LD_DEBUG_OUTPUT="$work/ld" umockdev-run -d "$bed" -- "$prog" startup mesa >/dev/null 2>&1 || true
    trace=$(grep -l "bench_egl" "$work"/ld.* 2>/dev/null | head -n 1)
    grep -o 'file=[^ ;]*' "$trace" | sed 's|^file=||; s|.*/||' | sort -u >"$work/objects"
    objects=$(wc -l <"$work/objects")
    devlibs=$(grep -c -E '^lib(drm|udev)\.so' "$work/objects" || true)
    wlc=$(grep -c -E '^libwayland-client\.so' "$work/objects" || true)
    echo "$total $objects $devlibs $wlc"
}

status=0
printf "%-38s %-10s %12s %8s %9s %8s\n" "case" "libraries" "instructions" "objects" \
    "drm+udev" "wayland"
for case in one two wayland; do
    wl=""
    case $case in
        one) label="one vendor, no variable"; dirs="$work/solo" ;;
        two) label="two vendors, Intel+NVIDIA bed"; dirs="$gpu/vendors" ;;
        wayland) label="two vendors, bed, WAYLAND_DISPLAY"; dirs="$gpu/vendors"; wl=yes ;;
    esac
    for impl in glmux linked libglvnd; do
        set -- $(run $impl "$dirs" $wl)
        printf "%-38s %-10s %12s %8s %9s %8s\n" "$label" "$impl" "$1" "$2" "$3" "${4:-}"
        if [ $case = one ] && [ $impl = glmux ] && [ "$3" != 0 ]; then status=1; fi
    done
done
exit $status
