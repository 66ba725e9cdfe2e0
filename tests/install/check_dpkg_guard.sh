#!/bin/sh
# SPDX-License-Identifier: MIT
# `cmake --install` refuses to overwrite files that dpkg owns (cmake/GlmuxInstallGuard.cmake):
# into a scratch prefix that holds an include/GL/gl.h which a fake dpkg-query says a package
# owns, the install stops, says what it would overwrite and what to do instead, and writes
# nothing (the file is as it was, no library is there); with GLMUX_ALLOW_OVERWRITE_DPKG=1 it
# installs; into a DESTDIR (a package build's staging) it installs without asking.
#   check_dpkg_guard.sh BUILD_DIR WORK_DIR
set -u
build=$1 work=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work/bin" "$work/prefix/include/GL"
prefix=$work/prefix
cat >"$work/bin/dpkg-query" <<'FAKE'
#!/bin/sh
# dpkg-query -S PATH...: every path is owned by libgl-dev (the fake).
[ "$1" = -S ] || exit 2
shift
for p in "$@"; do echo "libgl-dev:amd64: $p"; done
FAKE
chmod +x "$work/bin/dpkg-query"
echo "dpkg's file" >"$prefix/include/GL/gl.h"

rc=0
PATH="$work/bin:$PATH" cmake --install "$build" --prefix "$prefix" >"$work/out" 2>&1 || rc=$?
[ "$rc" != 0 ] || fail "installed over a file dpkg owns: $(tail -n 5 "$work/out")"
# CMake wraps the message: one line, single spaces.
said=$(tr -s ' \n' '  ' <"$work/out")
case $said in *"would overwrite files that dpkg's packages own"*) ;;
    *) fail "the refusal was not said: $(tail -n 10 "$work/out")" ;; esac
case $said in *"libgl-dev:amd64: $prefix/include/GL/gl.h"*) ;;
    *) fail "the owned file was not named: $said" ;; esac
case $said in *"-DGLMUX_ALLOW_OVERWRITE_DPKG=ON"*) ;; *) fail "the way to insist was not said" ;; esac
[ "$(cat "$prefix/include/GL/gl.h")" = "dpkg's file" ] || fail "the owned file was overwritten"
[ -z "$(find "$prefix" -name 'libGLdispatch.so*')" ] || fail "a library was installed before the refusal"
echo "ok: refused, nothing written"

PATH="$work/bin:$PATH" GLMUX_ALLOW_OVERWRITE_DPKG=1 cmake --install "$build" --prefix "$prefix" \
    >"$work/out" 2>&1 || fail "GLMUX_ALLOW_OVERWRITE_DPKG=1 did not install: $(tail -n 5 "$work/out")"
[ "$(cat "$prefix/include/GL/gl.h")" != "dpkg's file" ] || fail "GLMUX_ALLOW_OVERWRITE_DPKG=1 left the file"
echo "ok: GLMUX_ALLOW_OVERWRITE_DPKG=1 installs"

PATH="$work/bin:$PATH" DESTDIR="$work/stage" cmake --install "$build" --prefix "$prefix" \
    >"$work/out" 2>&1 || fail "an install into DESTDIR was refused: $(tail -n 5 "$work/out")"
echo "ok: an install into a DESTDIR is not checked"
rm -rf "$work"
