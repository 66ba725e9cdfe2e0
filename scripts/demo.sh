#!/bin/sh
# SPDX-License-Identifier: MIT
# The main demonstration: installs what is missing (the short list scripts/demo-packages, not
# the tests' .ci/packages), builds glmux and runs the demonstration programs: a GL call
# reaching two in-process test vendors (dispatch tables the program registers itself, not GPU
# drivers), one frame rendered by Mesa through our libEGL + libOpenGL, one through our libGL +
# libGLX in a window of a private Xvfb, then the same one through the EGL port of that GLX
# program (libEGL + libOpenGL, X11 platform). Ends with one line: "demo: all N demonstrations
# passed", or which failed (exit status 1).
# A build tree that exists is built as it was configured (either CMake generator); a new one
# is configured with Ninja and without the tests (scripts/test.sh turns them on).
#   scripts/demo.sh [BUILD_DIR]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
"$top/scripts/install-deps.sh" "$top/scripts/demo-packages"
if [ -f "$build/CMakeCache.txt" ]; then
    cmake -S "$top" -B "$build" >/dev/null
else
    cmake -S "$top" -B "$build" -G Ninja -DBUILD_TESTING=OFF >/dev/null
fi
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)"

passed=0
failed=""
# The GLX program first, then its EGL port.
for name in dispatch egl glx egl-x11; do
    demo="$build/demo/glmux-demo-$name"
    [ -x "$demo" ] || continue   # not built in this configuration (EGL or GLX switched off)
    echo "== $(basename "$demo")"
    case $name in
        glx|egl-x11)   # these need an X server: a private Xvfb unless one is given
            if [ -n "${DISPLAY:-}" ]; then set -- "$demo"
            else set -- xvfb-run -a -s "-screen 0 640x480x24" "$demo"; fi ;;
        *) set -- "$demo" ;;
    esac
    rc=0
    "$@" || rc=$?
    if [ "$rc" = 0 ]; then passed=$((passed + 1))
    else failed="$failed $(basename "$demo") (exit status $rc),"; fi
done
echo
if [ -z "$failed" ]; then
    echo "demo: all $passed demonstrations passed"
else
    echo "demo: FAILED:${failed%,}; $passed passed"
    exit 1
fi
