#!/bin/sh
# SPDX-License-Identifier: MIT
# glmux test: the pixels vendor is a library of its own (docs/remote.md). libGLX.so.0 holds
# nothing of it: no pixels symbol, and none of the calls only the vendor makes (reading frames
# back and putting them: XGetGeometry, XPutImage, XCreateImage, XCreateGC, XGetVisualInfo,
# System V shared memory). libGLX_glmux-pixels.so.0 needs no library of glmux's (libGLX,
# libGLdispatch, libEGL): the public ABI only, so libglvnd's libGLX loads it too. (Its exports,
# __glx_Main alone, are symbols_GLX_pixels's.) usage: check_pixels_library.sh LIBGLX VENDOR
set -u
glx=$1
vendor=$2
fail() { echo "FAIL: $*"; exit 1; }
command -v nm >/dev/null 2>&1 || { echo "skipped: nm (binutils) is not installed"; exit 77; }
syms=$(nm -D "$glx") || fail "nm -D $glx"
found=$(echo "$syms" | grep -Ei 'pixels|XGetGeometry|XPutImage|XCreateImage|XCreateGC|XGetVisualInfo|XShm|shm(get|at|dt|ctl)')
[ -z "$found" ] || fail "libGLX.so.0 still holds pixels-vendor symbols: $found"
echo "ok: nm -D $(basename "$glx"): no pixels-vendor symbol ($(echo "$syms" | wc -l) symbols)"
needed=$(readelf -d "$vendor" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
case " $needed " in
*" libGLX.so"* | *" libGLdispatch.so"* | *" libEGL.so"* | *" libGL.so"*)
    fail "$(basename "$vendor") needs $needed" ;;
esac
echo "ok: $(basename "$vendor") needs $needed"
