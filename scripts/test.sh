#!/bin/sh
# SPDX-License-Identifier: MIT
# The whole test suite: installs what is missing, builds the default (x86-64 assembly stubs,
# Ninja) and the pure-C (Unix Makefiles, so that both CMake generators are built every time)
# configurations and runs ctest in both, runs the unit, dispatch, EGL, GLX, selector and tool
# tests (not those that run Mesa's own programs; the lifetime and pixels-vendor tests with Mesa
# too) in an ASan+UBSan Debug build, the same again built with clang with the fuzz targets'
# smoke runs (libFuzzer, a fixed number of executions each), the unit and fake-vendor tests under
# ThreadSanitizer, and everything in a build with EGL, GLX and GLES switched off.
# With CI=true it also runs the packaging tests (label "packaging": builds the .deb and .rpm
# packages) and the cross-architecture runs of i386 (natively) and arm64 (qemu-user)
# (label "cross", tests/cross/run_cross.sh; GLMUX_CROSS=all: every architecture). Extra
# arguments go to ctest.
#   scripts/test.sh [CTEST_ARGS...]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
"$top/scripts/install-deps.sh"
status=0
for config in default pure-c sanitize clang tsan minimal; do
    build="$top/build"
    opts=""
    generator=Ninja
    labels="-LE packaging|memcheck|cross"
    case $config in
        pure-c) build="$top/build-pure-c"; opts="-DGLMUX_ENABLE_ASM=OFF"
                generator="Unix Makefiles" ;;
        sanitize) build="$top/build-sanitize"
                  opts="-DGLMUX_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=Debug"
                  labels="-L unit|dispatch|egl|glx|gl|select|cli -LE packaging|mesa|cross" ;;
        clang) build="$top/build-clang"   # clang's sanitizer runtime, and libFuzzer
               opts="-DCMAKE_C_COMPILER=clang -DGLMUX_SANITIZE=address,undefined -DGLMUX_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug"
               labels="-L unit|dispatch|egl|glx|gl|select|cli|fuzz -LE packaging|mesa|cross" ;;
        tsan) build="$top/build-tsan"   # data races: the unit and fake-vendor tests (~2 min)
              opts="-DGLMUX_SANITIZE=thread -DCMAKE_BUILD_TYPE=Debug -DGLMUX_ENABLE_GLES1=OFF -DGLMUX_ENABLE_GLES2=OFF"
              labels="-L unit|dispatch|egl|glx|gl -LE packaging|mesa|select|cli|memcheck|fuzz|cross" ;;
        minimal) build="$top/build-minimal"   # only libGLdispatch and libOpenGL
                 opts="-DGLMUX_ENABLE_EGL=OFF -DGLMUX_ENABLE_GLX=OFF -DGLMUX_ENABLE_GLES1=OFF -DGLMUX_ENABLE_GLES2=OFF"
                 labels="-LE packaging|memcheck|cross" ;;
    esac
    echo "== configuration: $config ($build, $generator)"
    # A tree configured with the other generator (an older checkout) is configured afresh.
    if [ -f "$build/CMakeCache.txt" ] &&
       ! grep -qx "CMAKE_GENERATOR:INTERNAL=$generator" "$build/CMakeCache.txt"; then
        rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"
    fi
    # shellcheck disable=SC2086
    cmake -S "$top" -B "$build" -G "$generator" $opts >/dev/null
    cmake --build "$build" -j "$jobs"
    # shellcheck disable=SC2086
    (cd "$build" && ctest --output-on-failure -j "$jobs" $labels "$@") || status=1
    # The lifetime tests (unload and fork with contexts current) under ASan with Mesa too.
    if [ "$config" = sanitize ]; then
        (cd "$build" && ctest --output-on-failure -j "$jobs" -L lifetime -L mesa "$@") || status=1
        # The pixels vendor's tests (Xvfb, Mesa's llvmpipe) under ASan: frame buffers sized from
        # what the X server answers, with MIT-SHM and with XPutImage (docs/remote.md).
        (cd "$build" && ctest --output-on-failure -j "$jobs" -R '^glx_pixels_' "$@") || status=1
    fi
    # CI also builds the .deb and .rpm packages (label "packaging", about two minutes).
    if [ "$config" = default ] && [ "${CI:-}" = true ]; then
        (cd "$build" && ctest --output-on-failure -L packaging) || status=1
        # Other architectures, one after the other (each builds with -j): i386 and arm64 (about
        # five minutes together on two cores); GLMUX_CROSS=all adds armhf, ppc64el, riscv64,
        # s390x and the i386 package build.
        cross='-R cross_(i386|arm64)$'
        [ "${GLMUX_CROSS:-}" != all ] || cross=""
        # shellcheck disable=SC2086
        (cd "$build" && ctest --output-on-failure -L cross $cross) || status=1
    fi
done
exit $status
