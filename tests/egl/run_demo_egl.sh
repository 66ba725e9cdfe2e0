#!/bin/sh
# SPDX-License-Identifier: MIT
# glmux tests: the README's EGL demonstration (demo/glmux-demo-egl, run by scripts/demo.sh):
# one frame rendered by Mesa through our libEGL and libOpenGL, with Mesa found by the default
# vendor search as the README runs it (no __EGL_VENDOR_LIBRARY_* override).
# usage: run_demo_egl.sh DEMO BUILD_DIR
# Passes when the demo exits 0 (its pixels read back as drawn), names Mesa as the EGL vendor
# and a renderer, and reports libEGL.so.1, libOpenGL.so.0 and libGLdispatch.so.0 loaded from
# BUILD_DIR only, and Mesa's vendor library.
set -u
demo=$1
build=$2
if [ ! -r /usr/share/glvnd/egl_vendor.d/50_mesa.json ]; then
    echo "skipped: Debian's Mesa EGL vendor is not installed (apt-get install libegl-mesa0)"
    exit 77
fi
unset __EGL_VENDOR_LIBRARY_FILENAMES __EGL_VENDOR_LIBRARY_DIRS GLMUX_VENDOR_DIRS
out=$("$demo" 2>&1)
rc=$?
echo "$out"
fail() { echo "FAIL: $*"; exit 1; }
[ $rc -eq 0 ] || fail "the demo exited $rc"
echo "$out" | grep -q "as drawn" || fail "pixels not as drawn"
echo "$out" | grep -q "^EGL vendor: *Mesa" || fail "the EGL vendor is not Mesa"
echo "$out" | grep -q "^GL renderer: *[^ ]" || fail "no GL renderer printed"
for lib in egl/libEGL.so.1 opengl/libOpenGL.so.0 dispatch/libGLdispatch.so.0; do
    echo "$out" | grep -qF "loaded $build/src/$lib" || fail "$lib not loaded from $build"
done
others=$(echo "$out" | grep -E "loaded .*/lib(EGL|OpenGL|GLdispatch)\.so" | grep -vF "loaded $build/")
[ -z "$others" ] || fail "also loaded: $others"
echo "$out" | grep -q "loaded .*/libEGL_mesa.so.0" || fail "Mesa's EGL vendor not loaded"
echo "ok: the EGL demonstration rendered through glmux"
