#!/bin/bash
# SPDX-License-Identifier: MIT
# Install-test consumers: copy one consumer project (make, cmake or meson) and render.c into a
# fresh directory, build it against the temporary install PREFIX made by install_check.sh (and
# nothing else: PKG_CONFIG_LIBDIR / CMAKE_PREFIX_PATH), then run it with real Mesa through
# surfaceless EGL and llvmpipe, with Mesa's EGL JSON named explicitly, and require that the GL
# libraries it loaded came from PREFIX. Skips (77) without make/meson or Mesa's EGL vendor, and
# when the build switched off a library it needs (install_prefix fails on any other absence).
# Usage: run_consumer.sh make|cmake|meson PREFIX WORK_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/install_lib.sh"
kind=$1 prefix=$2 work=$3
[ -d "$prefix/include" ] ||
    glmux_skip "no checked install at $prefix (the install_prefix test sets it up, or skipped)"
prefix=$(cd "$prefix" && pwd -P)
libdir=$(glmux_libdir "$prefix")
rm -rf "$work"
mkdir -p "$work/src" "$work/build"
cp -r "$here/consumer-$kind/." "$here/consumer/render.c" "$work/src/"
glmux_pkgconfig_only "$libdir"

case $kind in
make)
    command -v make > /dev/null || glmux_skip "make is not installed"
    glmux_require_libs "$libdir" OpenGL GLX EGL
    echo "pkg-config --cflags --libs opengl glx egl: $(pkg-config --cflags --libs opengl glx egl)"
    make -C "$work/src" > "$work/build.log" 2>&1 || { cat "$work/build.log" >&2; glmux_fail "make failed"; }
    exe="$work/src/glmux_consumer"
    sonames="libOpenGL.so.0 libGLX.so.0 libEGL.so.1 libGLdispatch.so.0"
    ;;
cmake)
    glmux_require_libs "$libdir" OpenGL GLX EGL
    # CMAKE_LIBRARY_PATH: CMake on Debian does not look in lib64 (an RPM-style libdir).
    cmake -S "$work/src" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" \
        -DCMAKE_LIBRARY_PATH="$libdir" \
        -DGLMUX_PREFIX="$prefix" > "$work/build.log" 2>&1 &&
        cmake --build "$work/build" >> "$work/build.log" 2>&1 ||
        { cat "$work/build.log" >&2; glmux_fail "CMake consumer failed"; }
    grep 'OPENGL_' "$work/build.log" || true
    exe="$work/build/glmux_consumer"
    sonames="libOpenGL.so.0 libGLX.so.0 libEGL.so.1 libGLdispatch.so.0"
    ;;
meson)
    command -v meson > /dev/null || glmux_skip "meson is not installed (apt-get install meson)"
    glmux_require_libs "$libdir" GL EGL
    meson setup "$work/build" "$work/src" > "$work/build.log" 2>&1 &&
        meson compile -C "$work/build" >> "$work/build.log" 2>&1 ||
        { cat "$work/build.log" >&2; glmux_fail "meson consumer failed"; }
    grep -i 'dependency' "$work/build.log" || true
    exe="$work/build/glmux_consumer"
    sonames="libGL.so.1 libGLX.so.0 libEGL.so.1 libGLdispatch.so.0"
    ;;
*) glmux_fail "unknown consumer kind $kind" ;;
esac
echo "built $exe"

# Run: only our libraries from the prefix, Mesa as the EGL vendor, software rendering, no X.
for so in libEGL.so.1 libGLX.so.0; do
    [ -e "$libdir/$so" ] || glmux_skip "built, but $so is switched off in this build, so it cannot run"
done
mesa_json=""
for d in /usr/share/glvnd/egl_vendor.d /etc/glvnd/egl_vendor.d; do
    [ -f "$d/50_mesa.json" ] && mesa_json="$d/50_mesa.json" && break
done
[ -n "$mesa_json" ] || glmux_skip "Mesa's EGL vendor (libegl-mesa0, 50_mesa.json) is not installed"
cd "$work"
env -u DISPLAY -u WAYLAND_DISPLAY LD_LIBRARY_PATH="$libdir" \
    __EGL_VENDOR_LIBRARY_FILENAMES="$mesa_json" EGL_PLATFORM=surfaceless \
    LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe \
    "$exe" "$prefix" $sonames
