#!/bin/sh
# SPDX-License-Identifier: MIT
# One cross-architecture run: configure glmux with cmake/toolchain-ARCH.cmake, build it and run
# the tests that make sense there. A probe (cross_lib.sh) decides how the target's programs run:
# natively where the build machine's kernel executes a tiny program of the target (i386 on most
# amd64 kernels), else under qemu-user (GLMUX_CROSS_RUN=native|qemu forces one way). Run
# natively (i386), everything that needs no program of the build machine runs; under qemu-user
# (arm64, i386 on a kernel without 32-bit support) the unit, dispatch, ABI, EGL, GLX, GL and
# selector tests do; i386 and arm64 must render one Mesa llvmpipe frame through our libraries
# and pass the slot and export checks against Debian's libglvnd of the same architecture;
# armhf runs the unit, dispatch, patching and fake-vendor tests; ppc64el, riscv64 and s390x
# (pure-C stubs; s390x is big-endian) the unit and dispatch tests.
#   run_cross.sh ARCH SOURCE_DIR BUILD_DIR
set -eu
arch=$1 src=$2 build=$3
jobs=$(nproc 2>/dev/null || echo 2)
case $arch in
    i386) triplet=i686-linux-gnu multiarch=i386-linux-gnu emulator=qemu-i386 ;;
    arm64) triplet=aarch64-linux-gnu multiarch=aarch64-linux-gnu emulator=qemu-aarch64 ;;
    armhf) triplet=arm-linux-gnueabihf multiarch=arm-linux-gnueabihf emulator=qemu-arm ;;
    ppc64el) triplet=powerpc64le-linux-gnu multiarch=powerpc64le-linux-gnu emulator=qemu-ppc64le ;;
    riscv64) triplet=riscv64-linux-gnu multiarch=riscv64-linux-gnu emulator=qemu-riscv64 ;;
    s390x) triplet=s390x-linux-gnu multiarch=s390x-linux-gnu emulator=qemu-s390x ;;
    *) echo "run_cross.sh: unknown architecture $arch (i386 arm64 armhf ppc64el riscv64 s390x)"; exit 2 ;;
esac
skip() { echo "SKIP: $*"; exit 77; }
command -v "$triplet-gcc" >/dev/null || skip "no $triplet-gcc (apt-get install gcc-$triplet)"
. "$(dirname "$0")/cross_lib.sh"
mkdir -p "$build"
# native or qemu; the probe's message says why neither works.
run=$(cross_runner "$triplet" "$emulator" "$build") ||
    { command -v "$emulator" >/dev/null || skip "no $emulator (apt-get install qemu-user)"; exit 1; }
echo "== $arch: test programs run $([ "$run" = native ] && echo natively || echo "under $emulator")"

# Where Debian has no libX11 of this architecture installed (multiarch), build without GLX.
opts=""
[ -e "/usr/lib/$multiarch/libX11.so" ] || opts="-DGLMUX_ENABLE_GLX=OFF"
mesa=no
[ -e "/usr/lib/$multiarch/libEGL_mesa.so.0" ] && mesa=yes

# Programs of the build machine (eglinfo, glxinfo, glxgears, the demos, valgrind, umockdev's
# preload, the install consumers' compilers) cannot run the target's libraries; setcap'ed
# programs do not run under qemu-user, nor do the test programs that scripts or the build
# machine's umockdev-run start themselves (egl_mesa_x11, egl_wayland_*; no binfmt_misc here).
# The glx_pixels_* scripts run the build machine's glxinfo.
exclude="valgrind|eglinfo|glxinfo|glxgears|demo|beds|cli_tool|cli_watch|layers_tool|install_consumer|filesystem_layout|glx_pixels"
# Label "nocross" marks any other test that cannot run here: a harness that runs the built
# programs directly (no emulator) or wraps them in the build machine's tools (umockdev's
# preload, strace, switcheroo-control), and checks nothing that depends on the architecture.
skiplabels="packaging|cross|memcheck|device|fuzz|nocross"
# Without Debian's Mesa or libglvnd of this architecture, the tests that use them cannot run.
[ $mesa = yes ] || skiplabels="$skiplabels|mesa"
case $arch/$run in
    */native) labels="" ;;
    i386/qemu|arm64/qemu|armhf/qemu) labels="unit|dispatch|egl|glx|gl|abi|select"
                                     exclude="$exclude|secure|egl_mesa_x11|egl_wayland" ;;
    *) labels="unit|dispatch" ;;
esac

echo "== $arch: configure ($build)"
log="$build/configure.log"
# shellcheck disable=SC2086
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchain-$arch.cmake" \
    -DGLMUX_CROSS_RUN="$run" $opts >"$log" 2>&1 || { cat "$log"; exit 1; }
grep "glmux: entry stubs" "$log" || true
echo "== $arch: build"
cmake --build "$build" -j "$jobs"
echo "== $arch: test"
cd "$build"
status=0
if [ -n "$labels" ]; then
    ctest --output-on-failure -j "$jobs" -L "$labels" -LE "$skiplabels" -E "$exclude" || status=1
else
    ctest --output-on-failure -j "$jobs" -LE "$skiplabels" -E "$exclude" || status=1
fi

# i386 and arm64 must render with real Mesa: those tests may not have skipped.
case $arch in
    i386|arm64)
        [ $mesa = yes ] || { echo "FAIL: Mesa for $arch is not installed (libegl-mesa0:$arch)"; exit 1; }
        must="egl_mesa_gl egl_mesa_gles2 slots_match_libglvnd symbols_OpenGL"
        [ "$arch/$run" != i386/native ] || must="$must gl_mesa_render glx_mesa_render"
        for t in $must; do
            cross_require_ran "$t" || status=1
        done ;;
esac
exit $status
