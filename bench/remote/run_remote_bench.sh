#!/bin/sh
# SPDX-License-Identifier: MIT
# The pixels GLX vendor (docs/remote.md): frames per second and bytes written per frame at
# 256x256 and 1024x768, XShmPutImage against XPutImage (GLMUX_GLX_REMOTE_SHM=0), on an Xvfb
# without GLX started here, rendering with Debian's Mesa (llvmpipe). Wall-clock, so noisy: the
# median of RUNS runs is printed. libglvnd has no such path (it gets no GL on this server), so
# there is no side-by-side column.
#   bench/remote/run_remote_bench.sh [BUILD_DIR] [FRAMES] [RUNS]
set -eu
build=${1:-build}
frames=${2:-200}
runs=${3:-5}
prog="$build/bench/remote/bench_pixels"
command -v Xvfb >/dev/null || { echo "Xvfb is needed (apt-get install xvfb)"; exit 2; }
[ -x "$prog" ] || { echo "build first: $prog is missing"; exit 2; }
work=$(mktemp -d)
Xvfb -displayfd 3 -nolisten tcp -extension GLX -screen 0 1280x1024x24 3>"$work/fd" \
    >"$work/xvfb.log" 2>&1 </dev/null &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
i=0
while [ ! -s "$work/fd" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
export DISPLAY=":$(head -n 1 "$work/fd")"
export LD_LIBRARY_PATH="$build/src/glx:$build/src/dispatch:$build/src/opengl"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "| size | transfer | frames/s (median of $runs) | bytes written per frame |"
echo "|---|---|---|---|"
for size in "256 256" "1024 768"; do
    for shm in 1 0; do
        : >"$work/runs"
        for r in $(seq "$runs"); do
            # shellcheck disable=SC2086
            GLMUX_GLX_REMOTE_SHM=$shm "$prog" $size "$frames" >>"$work/runs"
        done
        fps=$(sed 's/.*fps=\([0-9.]*\).*/\1/' "$work/runs" | median)
        bytes=$(sed 's/.*bytes_per_frame=\([0-9]*\).*/\1/' "$work/runs" | median)
        name=XShmPutImage
        [ "$shm" = 0 ] && name=XPutImage
        echo "| $(echo "$size" | tr ' ' x) | $name | $fps | $bytes |"
    done
done
