#!/bin/sh
# SPDX-License-Identifier: MIT
# glmux tests: the README's GLX demonstration (demo/glmux-demo-glx, run by scripts/demo.sh) on
# the fixture's Xvfb. usage: run_demo_glx.sh DEMO BUILD_DIR
# Passes when the demo exits 0 (its pixels read back as drawn) and reports that the process
# loaded libGL.so.1, libGLX.so.0 and libGLdispatch.so.0 from BUILD_DIR and Mesa's vendor.
set -u
demo=$1
build=$2
display=$(cat "$GLMUX_TEST_XVFB_DIR/two.display" 2>/dev/null) || { echo "no fixture"; exit 1; }
[ "$display" = none ] && { echo "skipped: Xvfb is not installed"; exit 77; }
out=$(DISPLAY=$display "$demo" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: the demo exited $rc"; exit 1; }
echo "$out" | grep -q "as drawn" || { echo "FAIL: pixels not as drawn"; exit 1; }
for lib in gl/libGL.so.1 glx/libGLX.so.0 dispatch/libGLdispatch.so.0; do
    echo "$out" | grep -qF "loaded $build/src/$lib" ||
        { echo "FAIL: $lib not loaded from $build"; exit 1; }
done
echo "$out" | grep -q "loaded .*/libGLX_mesa.so.0" || { echo "FAIL: Mesa not loaded"; exit 1; }
echo "ok: the GLX demonstration rendered through glmux"
