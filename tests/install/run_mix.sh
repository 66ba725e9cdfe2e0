#!/bin/bash
# SPDX-License-Identifier: MIT
# A process that mixes glmux with libglvnd is told so (docs/prefix.md). With the temporary
# install PREFIX (install_check.sh; its libraries have no RUNPATH, as installed ones) and
# Debian's libglvnd:
#   * a program without RUNPATH, started with only glmux's libEGL.so.1 on LD_LIBRARY_PATH (a
#     directory holding a link to it: what a RUNPATH into the prefix gives), loads Debian's
#     libGLdispatch.so.0 under glmux's libEGL, and libEGL warns, naming both files and the
#     LD_LIBRARY_PATH that fixes it; with the prefix's whole library directory, no warning;
#   * `glmux check` (no file) reports the same environments: glmux's libraries (exit 0),
#     libglvnd's (exit 0, glmux not in use), and the mix (exit 1, every library named).
# Skips (77) without the install, without EGL in the build, or when the system's
# libGLdispatch.so.0 is missing or glmux's own.
# CFLAGS: what a sanitized build's programs are compiled with (GLMUX_SANITIZE_PROGRAM_FLAGS:
# -fsanitize=..., with clang also its shared runtime), or nothing.
# Usage: run_mix.sh PREFIX GLMUX CC WORK_DIR [CFLAGS]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/install_lib.sh"
prefix=$1 glmux=$2 cc=$3 work=$4 cflags=${5:-}
[ -d "$prefix/include" ] ||
    glmux_skip "no checked install at $prefix (the install_prefix test sets it up, or skipped)"
prefix=$(cd "$prefix" && pwd -P)
libdir=$(glmux_libdir "$prefix")
glmux_require_libs "$libdir" EGL
# The system's libGLdispatch.so.0, as the compiler (and so the loader's default path) finds it.
system=$($cc -print-file-name=libGLdispatch.so.0)
[ -e "$system" ] || glmux_skip "no system libGLdispatch.so.0 (libglvnd0 is not installed)"
system=$(realpath "$system")
grep -q "glmux: vendor-neutral GL dispatch" "$system" &&
    glmux_skip "$system is glmux's: there is no libglvnd here to mix with"
rm -rf "$work"
mkdir -p "$work/only-egl"
ln -s "$libdir/libEGL.so.1" "$work/only-egl/libEGL.so.1"
unset LD_LIBRARY_PATH GLMUX_DEBUG GLMUX_DEBUG_FILE __EGL_VENDOR_LIBRARY_FILENAMES \
    __EGL_VENDOR_LIBRARY_DIRS || true
export GLMUX_VENDOR_DIRS="$work/no-vendors"   # check: no manifests to look at

printf '#include <EGL/egl.h>\nint main(void) { return eglGetError() == EGL_SUCCESS ? 0 : 1; }\n' \
    > "$work/prog.c"
# shellcheck disable=SC2086
$cc $cflags -I"$prefix/include" "$work/prog.c" -L"$libdir" -lEGL -o "$work/prog" ||
    glmux_fail "cannot build the test program against $prefix"
# (A clang-sanitized build's program has a RUNPATH to the sanitizer's runtime, none to the prefix.)
readelf -d "$work/prog" | grep -E 'RUNPATH|RPATH' | grep -qF "$prefix" &&
    glmux_fail "the test program has a RUNPATH into $prefix"

# The mix: glmux's libEGL, the system's libGLdispatch.
LD_LIBRARY_PATH="$work/only-egl" "$work/prog" 2> "$work/mixed.err" ||
    { cat "$work/mixed.err"; glmux_fail "the program failed with glmux's libEGL"; }
cat "$work/mixed.err"
grep -qF "libEGL ($work/only-egl/libEGL.so.1) runs with a libGLdispatch.so.0 that is not glmux's (" \
    "$work/mixed.err" || glmux_fail "no warning naming glmux's libEGL"
named=$(sed -n "s/.* that is not glmux's (\([^)]*\)).*/\1/p" "$work/mixed.err")
[ -n "$named" ] && [ "$(realpath "$named")" = "$system" ] ||
    glmux_fail "the warning names '$named', not the system's $system"
grep -qF "start it with LD_LIBRARY_PATH=$libdir," "$work/mixed.err" ||
    glmux_fail "the warning does not say which LD_LIBRARY_PATH fixes it ($libdir)"
[ "$(grep -c 'not glmux' "$work/mixed.err")" = 1 ] || glmux_fail "the warning is not said once"
# All of glmux: no warning.
LD_LIBRARY_PATH="$libdir" "$work/prog" 2> "$work/whole.err" ||
    { cat "$work/whole.err"; glmux_fail "the program failed with the whole prefix"; }
grep -q "not glmux" "$work/whole.err" && glmux_fail "a warning though every library is glmux's"

# glmux check in the three environments.
LD_LIBRARY_PATH="$libdir" "$glmux" check > "$work/check-glmux.out" 2> "$work/check-glmux.err" ||
    { cat "$work/check-glmux.out" "$work/check-glmux.err"; glmux_fail "check: the prefix alone is not ok"; }
grep -q "^libraries: ok: a program started here loads glmux's GL libraries" "$work/check-glmux.out" ||
    { cat "$work/check-glmux.out"; glmux_fail "check: glmux's libraries not reported"; }
"$glmux" check > "$work/check-system.out" 2> "$work/check-system.err" ||
    { cat "$work/check-system.err"; glmux_fail "check: the system's libraries alone are not ok"; }
grep -q "^libraries: a program started here loads another GL dispatch library" "$work/check-system.out" ||
    { cat "$work/check-system.out"; glmux_fail "check: libglvnd's libraries not reported"; }
rc=0
LD_LIBRARY_PATH="$work/only-egl" "$glmux" check > "$work/check-mix.out" 2> "$work/check-mix.err" || rc=$?
cat "$work/check-mix.err"
[ "$rc" = 1 ] || glmux_fail "check: exit status $rc for the mix, expected 1"
grep -q "error: a program started here would mix glmux's GL libraries" "$work/check-mix.err" ||
    glmux_fail "check: the mix is not reported"
# The paths are matched as fixed strings: a package build's directory holds a '+'.
grep -F "($work/only-egl/libEGL.so.1)" "$work/check-mix.err" | grep -Eq "libEGL\.so\.1 +glmux's \(" ||
    glmux_fail "check: glmux's libEGL.so.1 is not named"
grep -Eq "libGLdispatch.so.0 +not glmux's \(.*libGLdispatch.so.0\)" "$work/check-mix.err" ||
    glmux_fail "check: the system's libGLdispatch.so.0 is not named"
rm -rf "$work"
echo "the mix is warned about by libEGL and reported by glmux check"
