#!/bin/sh
# SPDX-License-Identifier: MIT
# The soak test (docs/reliability.md): THREADS threads rendering with Debian's Mesa (llvmpipe)
# through glmux's libEGL and libGLX for MINUTES minutes, with lookups of real and random names,
# fork and dlopen/dlclose of libGL and libEGL beside them. Starts its own Xvfb. Not part of
# ctest (it runs for minutes). Exit status: 0 pass, 1 a failed check, 3 a hang, 2 setup,
# anything else the soak's signal (a crash).
#   bench/soak/run_soak.sh [BUILD_DIR] [MINUTES] [THREADS] [--egl-unloads]   defaults: build 10 8
# MINUTES may be given in seconds with an "s" suffix (30s) for a quick try. SOAK_LIBS=libglvnd
# runs the same soak through Debian's libglvnd instead (for the figures side by side).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
minutes=${2:-10}
case $minutes in
    *s) seconds=${minutes%s} ;;
    *) seconds=$((minutes * 60)) ;;
esac
threads=${3:-8}
shift $(($# < 3 ? $# : 3))
prog="$build/bench/soak/glmux_soak"
mesa_json=/usr/share/glvnd/egl_vendor.d/50_mesa.json
command -v Xvfb >/dev/null || { echo "Xvfb is needed (apt-get install xvfb)"; exit 2; }
[ -x "$prog" ] || { echo "build first: $prog is missing"; exit 2; }
[ -e "$mesa_json" ] || { echo "Debian's Mesa is needed (apt-get install libegl-mesa0 libglx-mesa0)"; exit 2; }

# Our libraries (or Debian's libglvnd), all in one directory the soak checks they were loaded
# from.
work=$(mktemp -d)
mkdir "$work/lib"
system=/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
for lib in src/egl/libEGL.so.1 src/glx/libGLX.so.0 src/gl/libGL.so.1 \
           src/dispatch/libGLdispatch.so.0 src/opengl/libOpenGL.so.0; do
    if [ "${SOAK_LIBS:-glmux}" = libglvnd ]; then
        [ -e "$system/$(basename "$lib")" ] || { echo "no $system/$(basename "$lib") (apt-get install libglvnd0 libegl1 libglx0 libgl1 libopengl0)"; exit 2; }
        ln -s "$system/$(basename "$lib")" "$work/lib/$(basename "$lib")"
    else
        ln -s "$build/$lib" "$work/lib/$(basename "$lib")"
    fi
done
Xvfb -displayfd 3 -nolisten tcp -screen 0 64x64x24 3>"$work/fd" >"$work/xvfb.log" 2>&1 </dev/null &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
i=0
while [ ! -s "$work/fd" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$work/fd" ] || { echo "Xvfb did not start"; cat "$work/xvfb.log"; exit 2; }

set +e
env DISPLAY=":$(head -n 1 "$work/fd")" LD_LIBRARY_PATH="$work/lib" \
    __EGL_VENDOR_LIBRARY_FILENAMES="$mesa_json" EGL_PLATFORM=surfaceless \
    LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe \
    "$prog" --threads "$threads" --seconds "$seconds" --libdir "$work/lib/" \
    --names "$top/src/dispatch/gl_slots.txt" "$@"
status=$?
set -e
[ $status -gt 128 ] && echo "soak: FAIL: killed by signal $((status - 128)) (a crash)"
exit $status
