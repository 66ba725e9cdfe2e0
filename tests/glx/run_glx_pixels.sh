#!/bin/sh
# SPDX-License-Identifier: MIT
# glmux tests: the pixels GLX vendor against an Xvfb started here, for this test alone (ctest -j
# safe), in a fresh directory. usage: run_glx_pixels.sh MODE PROGRAM BUILD_DIR [DEMO]
#   noglx        server without GLX (Unix socket, MIT-SHM): test_glx_pixels render shm (and put
#                with GLMUX_GLX_REMOTE_SHM=0), withegl (libEGL used in the same process),
#                glxinfo -B (a >= 3.3 core profile from llvmpipe), glxgears for a few frames,
#                the GLX demo
#   noglx-noshm  the same server without MIT-SHM: frames go out with XPutImage
#   tcp          a server with GLX, reached over TCP as 127.0.0.1:N: the pixels vendor serves it
#                (not the server's vendor); the server attaches no shared memory for a TCP
#                client, so frames go out with XPutImage
#   noegl        no EGL vendor installed (__EGL_VENDOR_LIBRARY_DIRS=<empty directory>)
#   iodeath      the server is killed mid-frame: the application's I/O error handler runs
#   configs      server without GLX: PROGRAM is test_glx_pixels_configs (choose, render, visuals,
#                tfp); glxgears -samples 4 runs (a multisampled visual)
#   glmark2      a server reached over TCP: glmark2 with its default config request renders a
#                short benchmark selection through the pixels vendor
#   depth        (test_glx_pixels_present) one screen, then five of depth 24, 16, 8, 30 and 15,
#                and pixmaps of every depth: each FBConfig shows frames or raises BadMatch, with
#                MIT-SHM and with GLMUX_GLX_REMOTE_SHM=0
# Our libraries: the test program is linked to the build tree (it checks the loaded path); for
# glxinfo and glxgears, the glmux log their run writes proves that our libGLX served them.
set -u
mode=$1
prog=$2
build=$3
demo=${4:-}
command -v Xvfb >/dev/null 2>&1 || { echo "skipped: Xvfb is not installed"; exit 77; }
work=$(mktemp -d)
xpid=
cleanup() {
    [ -n "$xpid" ] && kill "$xpid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$work/glmux.log" ] && cat "$work/glmux.log"; exit 1; }

start_xvfb() {
    rm -f "$work/fd"
    # Xvfb loads GL libraries itself: it must not get ours from LD_LIBRARY_PATH.
    setsid env -u LD_LIBRARY_PATH Xvfb -displayfd 3 -noreset -screen 0 1024x768x24 "$@" \
        3>"$work/fd" >"$work/xvfb.log" 2>&1 </dev/null &
    xpid=$!
    i=0
    while [ $i -lt 100 ] && ! [ -s "$work/fd" ]; do
        kill -0 "$xpid" 2>/dev/null || { cat "$work/xvfb.log"; fail "Xvfb did not start"; }
        sleep 0.1
        i=$((i + 1))
    done
    [ -s "$work/fd" ] || fail "Xvfb did not start in 10 s"
    num=$(head -n 1 "$work/fd")
}

# src/egl too: libGLX finds libEGL through its RUNPATH, which ASan's dlopen interceptor hides.
export LD_LIBRARY_PATH="$build/src/gl:$build/src/glx:$build/src/dispatch:$build/src/opengl:$build/src/egl"
export GLMUX_DEBUG=vendor,info GLMUX_DEBUG_FILE="$work/glmux.log"
export LSAN_OPTIONS=detect_leaks=0

run_prog() {
    rm -f "$work/glmux.log"
    "$prog" "$@" || fail "$prog $* exited $?"
}

tools() {
    # Mesa's programs are not built with the sanitizer runtime: they cannot load our sanitized
    # libraries (PIXELS_SANITIZED is set by tests/glx/CMakeLists.txt in sanitizer builds).
    if [ -n "${PIXELS_SANITIZED:-}" ]; then
        echo "glxinfo and glxgears skipped: this build is sanitized"
        return 0
    fi
    rm -f "$work/glmux.log"
    glxinfo -B >"$work/glxinfo" 2>&1
    rc=$?
    [ $rc -eq 0 ] || { cat "$work/glxinfo"; fail "glxinfo exited $rc"; }
    cat "$work/glxinfo"
    grep -q "OpenGL renderer string: llvmpipe" "$work/glxinfo" || fail "glxinfo: no llvmpipe"
    grep -Eq "OpenGL core profile version string: (3\.[3-9]|[4-9]\.)" "$work/glxinfo" ||
        fail "glxinfo: no core profile >= 3.3"
    grep -q 'vendor "glmux-pixels"' "$work/glmux.log" || fail "glxinfo: not the pixels vendor"
    if command -v glxgears >/dev/null 2>&1; then
        rm -f "$work/glmux.log"
        timeout 3 glxgears >"$work/gears" 2>&1
        rc=$?
        cat "$work/gears"
        [ $rc -eq 124 ] || fail "glxgears exited $rc before it was stopped"
        grep -q "frames go out with" "$work/glmux.log" || fail "glxgears sent no frame"
    fi
}

# glmux explain says that libGLX renders here, and why.
explain() {
    [ -x "$build/src/cli/glmux" ] || return 0
    "$build/src/cli/glmux" explain >"$work/explain" 2>&1 || fail "glmux explain exited $?"
    grep "GLX pixels:" "$work/explain"
    grep -q "GLX pixels:  libGLX renders here.*$1" "$work/explain" ||
        { cat "$work/explain"; fail "glmux explain does not say: $1"; }
    GLMUX_GLX_REMOTE=off "$build/src/cli/glmux" explain | grep -q "GLX pixels:  not used" ||
        fail "glmux explain ignores GLMUX_GLX_REMOTE=off"
}

case $mode in
noglx)
    start_xvfb -nolisten tcp -extension GLX
    export PIXELS_DISPLAY=":$num" DISPLAY=":$num"
    run_prog render shm
    grep -q "the X server has no GLX extension" "$work/glmux.log" || fail "no reason logged"
    # It renders with the vendors our libEGL loaded (libGLX dlopened it: not linked here).
    grep -q "EGL vendors from glmux's libEGL $build/src/egl/libEGL.so.1" "$work/glmux.log" ||
        fail "not our libEGL's vendors"
    # The application's libEGL and the pixels vendor share one load of Mesa's EGL vendor.
    PIXELS_LIBEGL="$build/src/egl/libEGL.so.1" run_prog withegl
    explain "the X server has no GLX extension"
    GLMUX_GLX_REMOTE_SHM=0 run_prog render put
    tools
    if [ -n "$demo" ]; then
        out=$("$demo" 2>&1)
        rc=$?
        [ $rc -eq 0 ] || { echo "$out"; fail "the GLX demo exited $rc"; }
        echo "$out"
        echo "$out" | grep -q "as drawn" || fail "demo: pixels not as drawn"
        echo "$out" | grep -q "GLX vendor:  glmux pixels" || fail "demo: not the pixels vendor"
        echo "$out" | grep -q "loaded $build/src/glx/libGLX.so.0" || fail "demo: not our libGLX"
    fi
    ;;
noglx-noshm)
    start_xvfb -nolisten tcp -extension GLX -extension MIT-SHM
    export PIXELS_DISPLAY=":$num"
    run_prog render put
    ;;
tcp)
    start_xvfb -listen tcp
    export PIXELS_DISPLAY="127.0.0.1:$num" DISPLAY="127.0.0.1:$num"
    # The server does not attach shared memory for a TCP client: XPutImage.
    run_prog render put
    grep -q "the X connection is not local" "$work/glmux.log" || fail "no reason logged"
    explain "the X connection is not local"
    tools
    # GLMUX_GLX_REMOTE=off: the server's vendor (Mesa) again, never the pixels vendor.
    rm -f "$work/glmux.log"
    GLMUX_GLX_REMOTE=off glxinfo -B >/dev/null 2>&1
    grep -q 'vendor "glmux-pixels"' "$work/glmux.log" && fail "GLMUX_GLX_REMOTE=off ignored"
    ;;
noegl)
    start_xvfb -nolisten tcp -extension GLX
    mkdir "$work/empty"
    export PIXELS_DISPLAY=":$num" __EGL_VENDOR_LIBRARY_DIRS="$work/empty"
    run_prog noegl
    ;;
iodeath)
    start_xvfb -nolisten tcp -extension GLX
    export PIXELS_DISPLAY=":$num" PIXELS_XVFB_PID=$xpid
    "$prog" iodeath
    rc=$?
    [ $rc -eq 42 ] || fail "expected the I/O error handler's exit status 42, got $rc"
    xpid=
    ;;
configs)
    start_xvfb -nolisten tcp -extension GLX
    export PIXELS_DISPLAY=":$num" DISPLAY=":$num"
    for what in choose render visuals tfp; do
        run_prog "$what"
    done
    [ -z "${PIXELS_SANITIZED:-}" ] || { echo "ok: configs (glxgears skipped: sanitized build)"; exit 0; }
    command -v glxgears >/dev/null 2>&1 || { echo "skipped: glxgears is not installed"; exit 77; }
    rm -f "$work/glmux.log"
    timeout 3 glxgears -samples 4 >"$work/gears" 2>&1
    rc=$?
    cat "$work/gears"
    [ $rc -eq 124 ] || fail "glxgears -samples 4 exited $rc before it was stopped"
    grep -q 'vendor "glmux-pixels"' "$work/glmux.log" || fail "glxgears: not the pixels vendor"
    grep -q "frames go out with" "$work/glmux.log" || fail "glxgears -samples 4 sent no frame"
    ;;
glmark2)
    [ -z "${PIXELS_SANITIZED:-}" ] ||
        { echo "skipped: glmark2 cannot load this sanitized build's libraries"; exit 77; }
    command -v glmark2 >/dev/null 2>&1 ||
        { echo "skipped: glmark2 (Debian: glmark2-x11) is not installed"; exit 77; }
    start_xvfb -listen tcp
    export DISPLAY="127.0.0.1:$num"
    rm -f "$work/glmux.log"
    # glmark2 dlopens libGL.so.1: ours, through LD_LIBRARY_PATH (the log proves it).
    timeout 300 glmark2 -s 160x120 -b build:duration=0.5 -b texture:duration=0.5 \
        -b shading:shading=phong:duration=0.5 >"$work/glmark2" 2>&1
    rc=$?
    cat "$work/glmark2"
    [ $rc -eq 0 ] || fail "glmark2 exited $rc"
    grep -q "Failed to find suitable" "$work/glmark2" && fail "glmark2 found no FB config"
    grep -q "GL_RENDERER: *llvmpipe" "$work/glmark2" || fail "glmark2: not llvmpipe"
    [ "$(grep -c "FPS: [1-9]" "$work/glmark2")" -eq 3 ] || fail "glmark2: not 3 scenes rendered"
    grep -q "glmark2 Score: [1-9]" "$work/glmark2" || fail "glmark2: no score"
    grep -q 'vendor "glmux-pixels"' "$work/glmux.log" || fail "glmark2: not the pixels vendor"
    grep -q "loaded GLX vendor \"glmux-pixels\"" "$work/glmux.log" ||
        fail "glmark2: our libGLX did not load the pixels vendor"
    grep -Eq "closed; [1-9][0-9]* frame\(s\) sent" "$work/glmux.log" ||
        fail "glmark2: no frame reached the server"
    ;;
depth)
    # One screen (with Composite's 32-bit visual, so 32-bit configs), then five screens (the
    # server has no Composite then): windows of depth 24, 32, 16, 8, 30 and 15.
    for screens in 1 5; do
        more=""
        [ $screens = 5 ] && more="-screen 1 64x64x16 -screen 2 64x64x8 -screen 3 64x64x30
            -screen 4 64x64x15"
        # shellcheck disable=SC2086
        start_xvfb -nolisten tcp -extension GLX $more -pixdepths 1 4 8 15 16 24 30 32
        export PIXELS_DISPLAY=":$num"
        run_prog depth
        GLMUX_GLX_REMOTE_SHM=0 run_prog depth
        kill "$xpid"
        wait "$xpid" 2>/dev/null
        xpid=
    done
    ;;
*)
    echo "unknown mode $mode" >&2
    exit 2
    ;;
esac
echo "ok: $mode"
