#!/bin/sh
# SPDX-License-Identifier: MIT
# glmux tests: the GLX demonstration and its EGL port (demo/egl_x11_demo.c, made by following
# docs/porting-glx-to-egl.md) render the same pixels on the fixture's Xvfb with Debian's Mesa.
# usage: run_demo_pixels.sh GLX_DEMO EGL_DEMO BUILD_DIR WORK_DIR GLMUX EGL_DEMO_SOURCE
# Passes when both exit 0 (their pixels read back as drawn), their frames (PPM dumps) are
# byte-identical, the GLX one loaded our libGL/libGLX/libGLdispatch and Mesa's GLX vendor, and
# the EGL one loaded our libEGL/libOpenGL/libGLdispatch and Mesa's EGL vendor and no libGL or
# libGLX at all; and `glmux port-check` finds no GLX use left in the port's source.
set -u
glx=$1
egl=$2
build=$3
work=$4
glmux=$5
source=$6
fail() { echo "FAIL: $*"; exit 1; }
display=$(cat "$GLMUX_TEST_XVFB_DIR/two.display" 2>/dev/null) || fail "no Xvfb fixture"
[ "$display" = none ] && { echo "skipped: Xvfb is not installed"; exit 77; }
if [ ! -r /usr/share/glvnd/egl_vendor.d/50_mesa.json ]; then
    echo "skipped: Debian's Mesa EGL vendor is not installed (apt-get install libegl-mesa0)"
    exit 77
fi
unset __EGL_VENDOR_LIBRARY_FILENAMES __EGL_VENDOR_LIBRARY_DIRS GLMUX_VENDOR_DIRS
rm -rf "$work" && mkdir -p "$work" || fail "cannot make $work"

out_glx=$(DISPLAY=$display "$glx" "$work/glx.ppm" 2>&1) || { echo "$out_glx"; fail "the GLX demo failed"; }
echo "$out_glx"
out_egl=$(DISPLAY=$display "$egl" "$work/egl.ppm" 2>&1) || { echo "$out_egl"; fail "the EGL demo failed"; }
echo "$out_egl"

for lib in gl/libGL.so.1 glx/libGLX.so.0 dispatch/libGLdispatch.so.0; do
    echo "$out_glx" | grep -qF "loaded $build/src/$lib" || fail "GLX demo: $lib not loaded from $build"
done
echo "$out_glx" | grep -q "loaded .*/libGLX_mesa.so.0" || fail "GLX demo: Mesa's GLX vendor not loaded"
for lib in egl/libEGL.so.1 opengl/libOpenGL.so.0 dispatch/libGLdispatch.so.0; do
    echo "$out_egl" | grep -qF "loaded $build/src/$lib" || fail "EGL demo: $lib not loaded from $build"
done
others=$(echo "$out_egl" | grep -E "loaded .*/lib(EGL|OpenGL|GLdispatch)\.so" | grep -vF "loaded $build/")
[ -z "$others" ] || fail "EGL demo: also loaded $others"
echo "$out_egl" | grep -q "loaded .*/libEGL_mesa.so.0" || fail "EGL demo: Mesa's EGL vendor not loaded"
echo "$out_egl" | grep -Eq "loaded .*/lib(GL|GLX)\.so" && fail "EGL demo: the port still loads libGL or libGLX"
echo "$out_egl" | grep -q "^EGL vendor: *Mesa" || fail "EGL demo: the EGL vendor is not Mesa"

"$glmux" port-check "$source" || fail "glmux port-check still finds GLX uses in $source"

size=$(wc -c <"$work/glx.ppm")
[ "$size" -gt 64 ] || fail "the GLX frame is empty"
cmp "$work/glx.ppm" "$work/egl.ppm" || fail "the two frames differ ($work/glx.ppm, $work/egl.ppm)"
rm -rf "$work"
echo "ok: the EGL port renders the same $size-byte frame as the GLX demonstration"
