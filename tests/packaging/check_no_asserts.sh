#!/bin/sh
# SPDX-License-Identifier: MIT
# The shipped libraries are the release build: no assert() is left in them. A build without
# NDEBUG keeps every assert, GLMUX_ASSERT_LOCKED among them (src/util/lock.h: a read of glibc's
# private mutex owner and a gettid system call on libGLdispatch's make-current path and
# libGLX's and libEGL's), which debhelper's CMAKE_BUILD_TYPE=None and the RPM spec's flags
# once did. objdump -d of each library finds no call to __assert_fail; a failure names the
# functions that still call it.
#   check_no_asserts.sh --debs DEBS_DIR WORK_DIR   the packaged libraries (dpkg -x of every .deb)
#   check_no_asserts.sh --rpms RPMS_DIR WORK_DIR   the same from the RPMs (rpm2cpio | cpio)
#   check_no_asserts.sh LIBRARY...                 built libraries (a release build's)
set -eu
fail() { echo "FAIL: $*"; exit 1; }
command -v objdump >/dev/null || { echo "skipped: objdump missing (binutils)"; exit 77; }
if [ "${1:-}" = --debs ] || [ "${1:-}" = --rpms ]; then
    kind=${1#--} pkgs=$2 work=$3
    ext=${kind%s}
    ls "$pkgs"/*."$ext" >/dev/null 2>&1 ||
        { echo "skipped: no .$ext in $pkgs (packaging_$ext makes them)"; exit 77; }
    rm -rf "$work"
    mkdir -p "$work/root"
    for pkg in "$pkgs"/*."$ext"; do
        case $pkg in *dbgsym*|*-debuginfo-*|*-debugsource-*|*.src.rpm) continue ;; esac
        if [ "$kind" = debs ]; then dpkg -x "$pkg" "$work/root"
        else (cd "$work/root" && rpm2cpio "$pkg" | cpio -idm --quiet); fi
    done
    set --
    for name in libGLdispatch.so.0 libGLX.so.0 libEGL.so.1 libGL.so.1 libOpenGL.so.0 \
                libGLESv1_CM.so.1 libGLESv2.so.2 libGLX_glmux-pixels.so.0; do
        f=$(find "$work/root" -name "$name" | head -n 1)
        [ -n "$f" ] || fail "no $name in the packages of $pkgs"
        set -- "$@" "$f"
    done
fi
[ $# -gt 0 ] || fail "no library named"
bad=0
for lib in "$@"; do
    [ -e "$lib" ] || fail "$lib is missing"
    # The functions (objdump's "<name>:" headers) whose code calls __assert_fail.
    callers=$(objdump -d --no-show-raw-insn "$lib" | awk '
        /^[0-9a-f]+ <.*>:$/ { fn = $2; sub(/^</, "", fn); sub(/>:$/, "", fn) }
        /call.*<__assert_fail(@plt)?>/ { n[fn]++ }
        END { for (f in n) printf "%s ", f }')
    if [ -n "$callers" ]; then
        echo "$(basename "$lib"): __assert_fail called from: $callers"
        bad=1
    else
        echo "ok: $(basename "$lib"): no call to __assert_fail"
    fi
done
[ $bad = 0 ] ||
    fail "asserts left in: built without -DNDEBUG? (debian/rules, rpm/glmux.spec)"
[ -z "${work:-}" ] || rm -rf "$work"
