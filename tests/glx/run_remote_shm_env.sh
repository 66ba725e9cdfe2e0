#!/bin/sh
# SPDX-License-Identifier: MIT
# glmux tests: GLMUX_GLX_REMOTE_SHM=99999999999999999999 read by the pixels vendor. glxinfo -B
# (Debian's, through our libraries, GLMUX_GLX_REMOTE=pixels on the fixture's Xvfb) sets a
# display up and shows no frame: the warning must come all the same (the variable is read
# when the display is set up, not at the first frame), once, calling the value out of range.
# usage: run_remote_shm_env.sh LIBDIRS
set -u
display=$(cat "$GLMUX_TEST_XVFB_DIR/one.display" 2>/dev/null) || { echo "no fixture"; exit 1; }
[ "$display" = none ] && { echo "skipped: Xvfb is not installed"; exit 77; }
command -v glxinfo >/dev/null || { echo "skipped: glxinfo is not installed (mesa-utils)"; exit 77; }
[ -z "${PIXELS_SANITIZED:-}" ] ||
    { echo "skipped: glxinfo cannot load this sanitized build's libraries"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
expected='glmux: ignoring GLMUX_GLX_REMOTE_SHM="99999999999999999999": out of range (from -9223372036854775808 to 9223372036854775807); using 1'
LD_LIBRARY_PATH=$1 DISPLAY=$display GLMUX_GLX_REMOTE=pixels \
    GLMUX_GLX_REMOTE_SHM=99999999999999999999 glxinfo -B >"$work/out" 2>"$work/err" || {
    echo "FAIL: glxinfo -B failed"; cat "$work/err"; exit 1; }
grep -q 'OpenGL renderer string' "$work/out" || { echo "FAIL: no renderer"; exit 1; }
n=$(grep -cxF "$expected" "$work/err")
if [ "$n" != 1 ]; then
    echo "FAIL: the warning came $n times; stderr:"
    cat "$work/err"
    exit 1
fi
echo "ok: $expected"
