#!/bin/sh
# SPDX-License-Identifier: MIT
# GL layers (docs/layers.md), the figures of docs/performance.md "GL layers": what a layer
# costs, with callgrind, and whether the frame limiter holds real programs to the asked rate.
#   bench/layers/run_layers_bench.sh [BUILD_DIR] [BASE_BUILD_DIR] [CALLS]
# BUILD_DIR (default build): glmux with layers; its four layers are installed as explicit
# layers, their build-tree manifests copied into a user's explicit_layer.d
# ($XDG_DATA_HOME/glmux/explicit_layer.d, read only when a layer is asked for, as the packages'
# ${libdir}/glvnd/explicit_layer.d). BASE_BUILD_DIR (optional): a build of glmux from
# before the layers ("today"), whose libraries run the same benchmark programs for the
# start-up rows. Rows:
#   1. a GL call through an exported stub (bench_gl_call: libOpenGL's glColor3f into an
#      in-process vendor), Ir a call: no layer; one layer that intercepts only the swaps
#      (glmux_frame_limiter); the same call intercepted (glmux_call_counter, whose wrapper
#      counts and calls next): the difference is the layer's body plus one indirect call;
#   2. the dispatch libraries' own instructions from start to the first EGL context (bench_egl
#      startup mesa) and GLX context (bench_glx startup): no layer installed (no manifest in
#      any folder: XDG_DATA_HOME names an empty folder), four explicit layers installed (in
#      the user's explicit_layer.d) and none asked for (target: within 3% of none installed),
#      the same four in a GLMUX_LAYER_PATH folder (read whenever set), all switched off by
#      GLMUX_LAYERS_DISABLE=~all~ (the scan skipped), and BASE_BUILD_DIR's libraries;
#   3. glxgears and es2gears_x11 (Mesa, llvmpipe, under Xvfb) with glmux_frame_limiter at
#      GLMUX_FRAME_LIMIT (30 and 60) and glmux_frame_time below it: the mean rate from the log
#      over about 6 seconds (the first second dropped), against the asked rate (within 5%).
# A benchmark, not a test: it prints a table and exits 1 when a row misses its target.
# Needs valgrind, Xvfb, python3, mesa-utils (glxgears) and mesa-utils-extra (es2gears_x11).
set -eu
build=$(cd "${1:-build}" && pwd)
base=${2:-}
[ -z "$base" ] || base=$(cd "$base" && pwd)
calls=${3:-20000}
src=$(cd "$(dirname "$0")/../.." && pwd)
cgsum="python3 $src/bench/cgsum.py"
own='^lib(GL|OpenGL|GLX|EGL|GLESv1_CM|GLESv2|GLdispatch)\.so'
libdirs() { echo "$1/src/egl:$1/src/glx:$1/src/gl:$1/src/dispatch:$1/src/opengl:$1/src/gles"; }
ours=$(libdirs "$build")
layers=$build/src/layers/tools
for tool in valgrind Xvfb python3; do
    command -v $tool >/dev/null || { echo "$tool is needed"; exit 2; }
done
for f in bench/dispatch/bench_gl_call bench/egl/bench_egl bench/glx/bench_glx \
         src/layers/tools/libglmux-layer-frame-limiter.so; do
    [ -e "$build/$f" ] || { echo "build first: $build/$f is missing"; exit 2; }
done

work=$(mktemp -d)
Xvfb -displayfd 3 -nolisten tcp -screen 0 320x240x24 3>"$work/fd" >"$work/xvfb.log" 2>&1 \
    </dev/null &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
i=0
while [ ! -s "$work/fd" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$work/fd" ] || { echo "Xvfb did not start"; cat "$work/xvfb.log"; exit 2; }
export DISPLAY=":$(head -n 1 "$work/fd")"
unset GLMUX_LAYERS GLMUX_LAYERS_ENABLE GLMUX_LAYERS_DISABLE GLMUX_DEBUG GLMUX_FRAME_LIMIT \
    GLMUX_FRAMETIME_LOG GLMUX_CALL_COUNT_FILE __GLX_VENDOR_LIBRARY_NAME \
    __EGL_VENDOR_LIBRARY_FILENAMES __EGL_VENDOR_LIBRARY_DIRS 2>/dev/null || true
unset GLMUX_LAYER_PATH
export XDG_DATA_HOME="$work/xdg" GLMUX_CALL_COUNT_FILE="$work/calls.txt"
mkdir -p "$work/xdg/glmux/explicit_layer.d" "$work/empty"
for m in "$layers"/explicit_layer.d/*.json; do cp "$m" "$work/xdg/glmux/explicit_layer.d/"; done
# The build's own folders (its prefix's ${libdir}/glvnd/{implicit,explicit}_layer.d and
# ${sysconfdir}/glmux/...) must hold nothing for "no layer installed" to mean it.
for d in $(strings "$build/src/dispatch/libGLdispatch.so.0" | grep '/implicit_layer\.d$'); do
    for k in implicit explicit; do
        [ -z "$(ls "${d%/*}/${k}_layer.d" 2>/dev/null)" ] ||
            echo "note: ${d%/*}/${k}_layer.d holds manifests; they count in the rows" >&2
    done
done

# cg LIBDIRS SELECT ENV... -- CALLGRIND-OPTIONS... -- PROGRAM ARGS...: instructions counted
# (all, or SELECT=own: the self cost of the seven dispatch libraries).
cg() {
    lib=$1 select=$2
    shift 2
    envs=
    while [ "$1" != "--" ]; do envs="$envs $1"; shift; done
    shift
    opts=
    while [ "$1" != "--" ]; do opts="$opts $1"; shift; done
    shift
    rm -f "$work/cg.out"
    # shellcheck disable=SC2086
    if ! env LD_LIBRARY_PATH="$lib" $envs valgrind --tool=callgrind \
        --callgrind-out-file="$work/cg.out" $opts "$@" >"$work/run.log" 2>&1; then
        echo "bench: failed: $*" >&2
        tail -n 5 "$work/run.log" >&2
        echo 0
        return
    fi
    if [ "$select" = own ]; then $cgsum "$work/cg.out" "$own"; else $cgsum "$work/cg.out"; fi
}

status=0
# row LABEL DIVISOR TARGET VALUE [REFERENCE]: TARGET a number (VALUE/DIVISOR must not exceed
# it), "= REF" (within 1% of REFERENCE/DIVISOR, or the same to one decimal) or "-" (shown only).
row() {
    awk -v l="$1" -v d="$2" -v t="$3" -v v="$4" -v r="${5:-}" 'BEGIN {
        if (v == 0) { printf "| %s | (failed) | %s | FAIL |\n", l, t; exit 1 }
        val = v / d; ok = 1
        if (t == "-") { tt = "-" }
        else if (t == "= REF") {
            ref = r / d; tt = sprintf("= %.1f", ref)
            ok = (val <= ref * 1.01 || sprintf("%.1f", val) == sprintf("%.1f", ref)) }
        else { ok = (val <= t + 0); tt = "<= " t }
        printf "| %s | %.1f | %s | %s |\n", l, val, tt, ok ? "ok" : "MISSED"
        exit ok ? 0 : 1 }' || status=1
}

echo "| figure | glmux | target | |"
echo "|---|---:|---:|---|"
gl=$build/bench/dispatch/bench_gl_call
none=$(cg "$ours" all -- --toggle-collect=calls_loop -- "$gl" "$calls")
swap=$(cg "$ours" all GLMUX_LAYERS=glmux_frame_limiter GLMUX_FRAME_LIMIT=60 -- \
    --toggle-collect=calls_loop -- "$gl" "$calls")
counted=$(cg "$ours" all GLMUX_LAYERS=glmux_call_counter -- --toggle-collect=calls_loop -- \
    "$gl" "$calls")
grep -q "glColor3f" "$work/calls.txt" 2>/dev/null || {
    echo "bench: the call counter did not count glColor3f: the GL call was not intercepted" >&2
    status=1; }
row "GL call through an exported stub, no layer (Ir/call, loop and vendor body included)" \
    "$calls" - "$none"
row "the same, one layer intercepting only the swaps (glmux_frame_limiter)" "$calls" "= REF" \
    "$swap" "$none"
row "the same call intercepted (glmux_call_counter): Ir/call" "$calls" - "$counted"
row "  of which the layer: counter body + indirect call (Ir/call)" "$calls" 10 \
    "$((counted - none))"

egl=$build/bench/egl/bench_egl
glx=$build/bench/glx/bench_glx
for w in none installed path off base; do
    case $w in
    none) lib=$ours envs=XDG_DATA_HOME=$work/empty ;;
    installed) lib=$ours envs= ;;
    path) lib=$ours envs="XDG_DATA_HOME=$work/empty GLMUX_LAYER_PATH=$layers/explicit_layer.d" ;;
    off) lib=$ours envs=GLMUX_LAYERS_DISABLE=~all~ ;;
    base) [ -n "$base" ] || continue; lib=$(libdirs "$base") envs= ;;
    esac
    eval "egl_$w=\$(cg \"\$lib\" own EGL_PLATFORM=surfaceless LIBGL_ALWAYS_SOFTWARE=1 $envs \
        -- -- \"\$egl\" startup mesa)"
    eval "glx_$w=\$(cg \"\$lib\" own $envs -- --toggle-collect=glx_startup -- \"\$glx\" startup)"
done
if [ -n "$base" ]; then
    row "EGL start-up to the first context, own Ir: before the layers (BASE_BUILD_DIR)" 1 - \
        "$egl_base"
    row "  with layers, none installed (target: within 3%)" 1 \
        "$(awk -v b="$egl_base" 'BEGIN { printf "%d", b * 1.03 }')" "$egl_none"
    row "GLX start-up to the first context, own Ir: before the layers" 1 - "$glx_base"
    row "  with layers, none installed (target: within 3%)" 1 \
        "$(awk -v b="$glx_base" 'BEGIN { printf "%d", b * 1.03 }')" "$glx_none"
else
    row "EGL start-up to the first context, own Ir, no layer installed" 1 - "$egl_none"
    row "GLX start-up to the first context, own Ir, no layer installed" 1 - "$glx_none"
fi
# Installed explicit layers nobody asks for cost nothing: their folder is not even read.
row "EGL start-up, four explicit layers installed, none asked for (target: within 3% of none installed)" 1 \
    "$(awk -v b="$egl_none" 'BEGIN { printf "%d", b * 1.03 }')" "$egl_installed"
row "GLX start-up, four explicit layers installed, none asked for (target: within 3% of none installed)" 1 \
    "$(awk -v b="$glx_none" 'BEGIN { printf "%d", b * 1.03 }')" "$glx_installed"
row "EGL start-up, the four in a GLMUX_LAYER_PATH folder (read whenever set), none asked for: own Ir" 1 - \
    "$egl_path"
row "GLX start-up, the four in a GLMUX_LAYER_PATH folder (read whenever set), none asked for: own Ir" 1 - \
    "$glx_path"
row "EGL start-up, GLMUX_LAYERS_DISABLE=~all~ (no scan): own Ir" 1 - "$egl_off"
row "GLX start-up, GLMUX_LAYERS_DISABLE=~all~ (no scan): own Ir" 1 - "$glx_off"

# Real programs held by the frame limiter, measured by the frame-time log below it.
gears() {   # PROGRAM RATE -> "measured-rate frames"
    rm -f "$work/frames.csv"
    env LD_LIBRARY_PATH="$ours" GLMUX_LAYERS=glmux_frame_limiter,glmux_frame_time \
        GLMUX_FRAME_LIMIT="$2" GLMUX_FRAMETIME_LOG="$work/frames.csv" vblank_mode=0 \
        timeout -s TERM 7 "$1" >"$work/gears.log" 2>&1 || true
    awk -F, 'NR > 1 && $2 >= 1000 { if (!n++) a = $2; b = $2 }
             END { if (n > 1) printf "%.2f %d", (n - 1) * 1000 / (b - a), n; else print "0 0" }' \
        "$work/frames.csv" 2>/dev/null || echo "0 0"
}
for prog in glxgears es2gears_x11; do
    path=$(command -v $prog) || { echo "| $prog | not installed | | skipped |"; continue; }
    for rate in 30 60; do
        set -- $(gears "$path" $rate)
        label="$prog, GLMUX_FRAME_LIMIT=$rate: frames a second from the frame-time log"
        awk -v l="$label ($2 frames)" \
            -v v="$1" -v r="$rate" 'BEGIN {
            ok = (v >= r * 0.95 && v <= r * 1.05)
            printf "| %s | %.2f | %d +- 5%% | %s |\n", l, v, r, ok ? "ok" : "MISSED"
            exit ok ? 0 : 1 }' ||
            status=1
    done
done
exit $status
