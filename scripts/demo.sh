#!/bin/sh
# SPDX-License-Identifier: MIT
# The main demonstration: installs what is missing, builds glmux, runs the demo programs: a GL
# call reaching in-process vendors, one frame rendered by Mesa through our libEGL + libOpenGL,
# one through our libGL + libGLX in a window of a private Xvfb, and the same one through the
# EGL port of that program (libEGL + libOpenGL, X11 platform).
#   scripts/demo.sh [BUILD_DIR]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
"$top/scripts/install-deps.sh"
cmake -S "$top" -B "$build" -G Ninja >/dev/null
cmake --build "$build"
status=0
for demo in "$build"/demo/glmux-demo*; do
    [ -x "$demo" ] || continue
    echo "== $(basename "$demo")"
    case $demo in
        *-glx|*-egl-x11)  # these need an X server: a private Xvfb unless one is given
            if [ -n "${DISPLAY:-}" ]; then "$demo" || status=1
            else xvfb-run -a -s "-screen 0 640x480x24" "$demo" || status=1; fi ;;
        *) "$demo" || status=1 ;;
    esac
done
exit $status
