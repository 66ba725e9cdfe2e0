#!/bin/sh
# SPDX-License-Identifier: MIT
# glmux tests: glmux's own layers in real programs, with Mesa under the Xvfb fixture, through
# our libraries and the layer chain. Writes a folder of manifests for the build tree's layer
# libraries, points GLMUX_LAYER_PATH at it, and runs layer_frames (exactly N frames, a normal
# exit) with the layers GLMUX_LAYERS names; the program proves the loaded path (our libraries
# and each layer library in the process). Then what the layers report must equal what the
# program drew: the call counter's swap and glClear counts, one frame-time line per frame, the
# Android-ABI layer's hook counts; with the frame limiter, the frames no faster than asked.
# Mode "installed": the build installed into a scratch prefix (cmake --install), the EGL program
# run against the installed libraries with the installed manifests (their library_path relative
# to ${libdir}/glvnd/explicit_layer.d), the call counter's counts checked.
# Mode "glxgears": Mesa's glxgears through the layers, stopped by layer_gears_frames right after
# its first "N frames" report; the counts must be N (see gears_frames.c).
# usage: run_layer_programs.sh glx|egl PROGRAM LAYER_DIR
#        run_layer_programs.sh installed PROGRAM BUILD_DIR
#        run_layer_programs.sh glxgears HARNESS LAYER_DIR LIBGL LIBGLX LIBGLDISPATCH
set -u
api=$1 prog=$2 layers=$3
frames=30
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/glmux-layer-programs.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
unset GLMUX_LAYERS_ENABLE GLMUX_LAYERS_DISABLE GLMUX_FRAME_LIMIT
if [ "$api" = installed ]; then
    cmake --install "$layers" --prefix "$work/prefix" > "$work/install.log" 2>&1 ||
        { cat "$work/install.log"; fail "cmake --install failed"; }
    lib=$(find "$work/prefix" -name libEGL.so.1 | head -n 1)
    [ -n "$lib" ] || fail "no libEGL.so.1 installed"
    libdir=$(dirname "$lib")
    ls "$libdir"/glvnd/explicit_layer.d/*.json > /dev/null || fail "no layer manifest installed"
    export LD_LIBRARY_PATH="$libdir" GLMUX_TEST_LIB_DIR="$libdir" XDG_DATA_HOME="$work/xdg"
    export GLMUX_LAYER_PATH="$libdir/glvnd/explicit_layer.d" GLMUX_CALL_COUNT_FILE="$work/calls.txt"
    GLMUX_LAYERS=glmux_call_counter LAYER_FRAMES_EXPECT=libglmux-layer-call-counter.so \
        "$prog" $frames > "$work/out" 2>&1
    rc=$?
    cat "$work/out"
    [ $rc -eq 77 ] && exit 77
    [ $rc -eq 0 ] || fail "the program exited $rc"
    grep -F "layer loaded: $libdir/glmux/layers/libglmux-layer-call-counter.so" "$work/out" ||
        fail "the installed layer library was not the one loaded"
    cat "$work/calls.txt"
    grep -qx "$frames eglSwapBuffers" "$work/calls.txt" &&
        grep -qx "$frames glClear" "$work/calls.txt" ||
        fail "the installed call counter did not count $frames frames"
    echo "ok: the installed layers, found through the installed manifests"
    exit 0
fi
mkdir "$work/manifests.d"
manifest() {   # name library apis
    cat > "$work/manifests.d/$1.json" <<JSON
{ "file_format_version": "1.0.0",
  "layer": { "name": "$1", "type": "explicit", "library_path": "$layers/$2", "apis": [$3] } }
JSON
}
manifest glmux_call_counter libglmux-layer-call-counter.so '"gl", "glx", "egl"'
manifest glmux_frame_time libglmux-layer-frame-time.so '"glx", "egl"'
manifest glmux_frame_limiter libglmux-layer-frame-limiter.so '"glx", "egl"'
manifest glmux_android_counter libglmux-layer-android-counter.so '"gles2", "egl"'
export GLMUX_LAYER_PATH="$work/manifests.d" XDG_DATA_HOME="$work/xdg"
export GLMUX_CALL_COUNT_FILE="$work/calls.txt" GLMUX_FRAMETIME_LOG="$work/frames.csv"
export GLMUX_ANDROID_COUNTER_FILE="$work/android.txt"

# Mode glxgears: Mesa's glxgears (no frame limit of its own), with the call counter on top,
# the frame-time log, the frame limiter at 20 frames a second, through our libGL, libGLX and
# libGLdispatch; layer_gears_frames (gears_frames.c) stops it right after its first report,
# proves what it mapped, and checks the counts against the frames it reported.
if [ "$api" = glxgears ]; then
    command -v glxgears > /dev/null ||
        { echo "skipped: glxgears is not installed (mesa-utils)"; exit 77; }
    gl=$4 glx=$5 dispatch=$6
    LD_LIBRARY_PATH="$(dirname "$gl"):$(dirname "$glx"):$(dirname "$dispatch")"
    export LD_LIBRARY_PATH
    GLMUX_LAYERS=glmux_call_counter,glmux_frame_time,glmux_frame_limiter GLMUX_FRAME_LIMIT=20 \
        "$prog" --lib "$gl" --lib "$glx" --lib "$dispatch" \
        --lib "$layers/libglmux-layer-call-counter.so" \
        --lib "$layers/libglmux-layer-frame-time.so" \
        --lib "$layers/libglmux-layer-frame-limiter.so" --mapped libGLX_mesa.so.0 \
        --calls glXSwapBuffers --calls glClear -- glxgears
    exit $?
fi
if [ "$api" = glx ]; then swap=glXSwapBuffers; else swap=eglSwapBuffers; fi

# 1. Three layers at once: counter on top, then the frame-time log, then the Android-ABI one.
expect=libglmux-layer-call-counter.so,libglmux-layer-frame-time.so
expect=$expect,libglmux-layer-android-counter.so
GLMUX_LAYERS=glmux_call_counter,glmux_frame_time,glmux_android_counter \
LAYER_FRAMES_EXPECT=$expect "$prog" $frames > "$work/out" 2>&1
rc=$?
cat "$work/out"
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || fail "the program exited $rc"
grep -qx "frames $frames" "$work/out" || fail "the program did not draw $frames frames"
echo "--- call counter"; cat "$work/calls.txt"
grep -qx "$frames $swap" "$work/calls.txt" || fail "the call counter did not count $frames $swap"
grep -qx "$frames glClear" "$work/calls.txt" ||
    fail "the call counter did not count $frames glClear"
grep -qx "$frames glClearColor" "$work/calls.txt" ||
    fail "the call counter did not count $frames glClearColor"
echo "--- frame-time log"; head -3 "$work/frames.csv"
[ "$(head -n 1 "$work/frames.csv")" = "frame,elapsed_ms,frametime_ms" ] || fail "no header line"
lines=$(($(wc -l < "$work/frames.csv") - 1))
[ "$lines" -eq $frames ] || fail "the frame-time log has $lines lines for $frames frames"
[ "$(tail -n 1 "$work/frames.csv" | cut -d, -f1)" = $frames ] ||
    fail "the last frame is not $frames"
echo "--- Android-ABI layer"; cat "$work/android.txt"
grep -qx "glClear $frames" "$work/android.txt" || fail "the Android-ABI layer's glClear hook"
if [ "$api" = egl ]; then
    grep -qx "eglSwapBuffers $frames" "$work/android.txt" ||
        fail "the Android-ABI layer's eglSwapBuffers hook"
    grep -qx "get_next found glGetError" "$work/android.txt" || fail "get_next found nothing"
fi

# 2. The frame limiter at 50 frames a second, measured by the frame-time log below it: never
# faster (absolute deadlines: 29 periods of 20 ms at least between the first and last swap).
rm -f "$work/frames.csv"
GLMUX_LAYERS=glmux_frame_time,glmux_frame_limiter GLMUX_FRAME_LIMIT=50 \
LAYER_FRAMES_EXPECT=libglmux-layer-frame-limiter.so,libglmux-layer-frame-time.so \
    "$prog" $frames > "$work/out" 2>&1 || { cat "$work/out"; fail "the limited program failed"; }
# The frame-time log above the limiter times each swap call as it comes down: the last frame's
# call comes after the limiter's deadline for the one before it, 28 periods after the first's.
span=$(awk -F, 'NR == 2 { a = $2 } END { printf "%d", $2 - a }' "$work/frames.csv")
echo "frames 1 to $frames: $span ms (at least $(((frames - 2) * 20 - 1)) ms expected at 50 fps)"
[ "$span" -ge $(((frames - 2) * 20 - 1)) ] ||
    fail "the frame limiter let frames through faster than 50 a second"
echo "ok: $api: the layers saw the $frames frames the program drew"
