#!/bin/sh
# SPDX-License-Identifier: MIT
# One cross-architecture run: configure glmux with cmake/toolchain-ARCH.cmake, build it and run
# the tests that make sense there. i386 (amd64 kernels run it natively) and arm64 (qemu-user)
# run everything that does not need a program of the build machine, including one Mesa
# llvmpipe frame through our libraries and the slot and export checks against Debian's
# libglvnd of the same architecture; armhf the unit, dispatch, patching and fake-vendor tests;
# ppc64el, riscv64 and s390x (pure-C stubs; s390x is big-endian) the unit and dispatch tests.
#   run_cross.sh ARCH SOURCE_DIR BUILD_DIR
set -eu
arch=$1 src=$2 build=$3
jobs=$(nproc 2>/dev/null || echo 2)
case $arch in
    i386) triplet=i686-linux-gnu multiarch=i386-linux-gnu emulator= ;;
    arm64) triplet=aarch64-linux-gnu multiarch=aarch64-linux-gnu emulator=qemu-aarch64 ;;
    armhf) triplet=arm-linux-gnueabihf multiarch=arm-linux-gnueabihf emulator=qemu-arm ;;
    ppc64el) triplet=powerpc64le-linux-gnu multiarch=powerpc64le-linux-gnu emulator=qemu-ppc64le ;;
    riscv64) triplet=riscv64-linux-gnu multiarch=riscv64-linux-gnu emulator=qemu-riscv64 ;;
    s390x) triplet=s390x-linux-gnu multiarch=s390x-linux-gnu emulator=qemu-s390x ;;
    *) echo "run_cross.sh: unknown architecture $arch (i386 arm64 armhf ppc64el riscv64 s390x)"; exit 2 ;;
esac
skip() { echo "SKIP: $*"; exit 77; }
command -v "$triplet-gcc" >/dev/null || skip "no $triplet-gcc (apt-get install gcc-$triplet)"
[ -z "$emulator" ] || command -v "$emulator" >/dev/null || skip "no $emulator (apt-get install qemu-user)"

# Where Debian has no libX11 of this architecture installed (multiarch), build without GLX.
opts=""
[ -e "/usr/lib/$multiarch/libX11.so" ] || opts="-DGLMUX_ENABLE_GLX=OFF"
mesa=no
[ -e "/usr/lib/$multiarch/libEGL_mesa.so.0" ] && mesa=yes

# Programs of the build machine (eglinfo, glxinfo, glxgears, the demos, valgrind, umockdev's
# preload, the install consumers' compilers) cannot run the target's libraries; setcap'ed
# programs do not run under qemu-user, nor do the scripts that start test programs themselves
# (egl_mesa_x11; no binfmt_misc here). The glx_pixels_* scripts run the build machine's glxinfo.
exclude="valgrind|eglinfo|glxinfo|glxgears|demo|beds|cli_tool|cli_watch|install_consumer|filesystem_layout|glx_pixels"
skiplabels="packaging|cross|memcheck|device|fuzz"
# Without Debian's Mesa or libglvnd of this architecture, the tests that use them cannot run.
[ $mesa = yes ] || skiplabels="$skiplabels|mesa"
[ -e "/usr/lib/$multiarch/libOpenGL.so.0" ] || exclude="$exclude|abi_mix|slots_match_libglvnd"
case $arch in
    i386) labels="" ;;
    arm64) labels="unit|dispatch|egl|glx|gl|abi|select"; exclude="$exclude|secure|egl_mesa_x11" ;;
    armhf) labels="unit|dispatch|egl|glx|gl|abi|select"; exclude="$exclude|secure|egl_mesa_x11" ;;
    *) labels="unit|dispatch" ;;
esac

echo "== $arch: configure ($build)"
mkdir -p "$build"
log="$build/configure.log"
# shellcheck disable=SC2086
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchain-$arch.cmake" \
    $opts >"$log" 2>&1 || { cat "$log"; exit 1; }
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
        for t in egl_mesa_gl egl_mesa_gles2 slots_match_libglvnd symbols_OpenGL; do
            out=$(ctest -R "^$t\$" --output-on-failure 2>&1) || { echo "$out"; status=1; }
            case $out in
                *"Skipped"*|*"Not Run"*|*"No tests were found"*) echo "$out"; echo "FAIL: $t did not run"; status=1 ;;
                *) echo "ok: $t ran and passed" ;;
            esac
        done
        if [ "$arch" = i386 ]; then
            for t in gl_mesa_render glx_mesa_render; do
                out=$(ctest -R "^$t\$" --output-on-failure 2>&1) || { echo "$out"; status=1; }
                case $out in
                    *"Skipped"*|*"Not Run"*|*"No tests were found"*) echo "$out"; echo "FAIL: $t did not run"; status=1 ;;
                    *) echo "ok: $t ran and passed" ;;
                esac
            done
        fi ;;
esac
exit $status
