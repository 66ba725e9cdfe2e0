#!/bin/bash
# SPDX-License-Identifier: MIT
# Install test (fixture for the consumers): `cmake --install` into PREFIX, then check the tree:
# every built library with its soname link and dev link, the vendor-ABI and Khronos headers
# (identical to the build-time copies), every .pc file valid (`pkg-config --validate`), with
# Debian's names and versions, pointing into PREFIX, libglvnd.pc/glmux.pc variables, and the
# vendor directories. Installs with DESTDIR and --prefix /usr, then /opt/glmux, check relocation.
# Usage: install_check.sh BUILD_DIR SOURCE_DIR PREFIX WORK_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/install_lib.sh"
build=$1 src=$2 prefix=$3 work=$4
rm -rf "$prefix" "$work"
mkdir -p "$work"
[ -f "$build/glmux_install_paths.cmake" ] ||
    glmux_fail "cmake/GlmuxInstall.cmake did not run: the top-level CMakeLists.txt must include" \
        "it, or the build installs no headers or .pc files"

cmake --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 ||
    { cat "$work/install.log" >&2; glmux_fail "cmake --install --prefix $prefix failed"; }
libdir=$(glmux_libdir "$prefix")
pcdir="$libdir/pkgconfig"
[ -d "$pcdir" ] || glmux_fail "no pkgconfig directory in $libdir (is cmake/GlmuxInstall.cmake included?)"
glmux_pkgconfig_only "$libdir"

# Libraries: soname link, dev link, matching .pc with Debian's Version.
[ -e "$libdir/libGLdispatch.so.0" ] || glmux_fail "libGLdispatch.so.0 not installed"
# Its GL layers' re-entry guard, in glmux/ beside it, where it looks (docs/layers.md §2.4).
[ -f "$libdir/glmux/libglmux-layer-guard.so" ] ||
    glmux_fail "glmux/libglmux-layer-guard.so not installed beside libGLdispatch.so.0"
built=""
# A library is absent only when its GLMUX_ENABLE_* option switched it off (the minimal build);
# an enabled one must be installed. The consumers rely on this and skip on an absent library.
enabled() {
    local opt
    case $1 in
    opengl) return 0 ;;
    gl | glx) opt=GLMUX_ENABLE_GLX ;;
    egl) opt=GLMUX_ENABLE_EGL ;;
    glesv1_cm) opt=GLMUX_ENABLE_GLES1 ;;
    glesv2) opt=GLMUX_ENABLE_GLES2 ;;
    esac
    ! grep -Eqi "^$opt:BOOL=(OFF|0|FALSE|NO|N)\$" "$build/CMakeCache.txt"
}
while read -r name soname pc version; do
    if ! enabled "$pc"; then
        [ ! -e "$libdir/$soname" ] && [ ! -e "$pcdir/$pc.pc" ] ||
            glmux_fail "$soname or $pc.pc installed although this build switched it off"
        echo "switched off in this build: $soname (no $pc.pc)"
        continue
    fi
    [ -e "$libdir/$soname" ] || glmux_fail "$soname not installed although this build enables it"
    built="$built $pc"
    [ -L "$libdir/lib$name.so" ] || glmux_fail "dev link lib$name.so missing"
    [ "$(readlink -f "$libdir/lib$name.so")" = "$(readlink -f "$libdir/$soname")" ] ||
        glmux_fail "lib$name.so does not point at $soname"
    [ -f "$pcdir/$pc.pc" ] || glmux_fail "$pc.pc missing for $soname"
    got=$(pkg-config --modversion "$pc") || glmux_fail "pkg-config cannot read $pc.pc"
    [ "$got" = "$version" ] || glmux_fail "$pc.pc Version is $got, Debian's is $version"
    # The words a shell makes of them, as a Makefile's command does: pkg-config escapes the
    # characters of a prefix a shell would take apart (a space, '[', '*').
    libs=$(pkg-config --libs "$pc")
    eval "set -- $libs"
    [ $# = 2 ] && [ "$1" = "-L$libdir" ] && [ "$2" = "-l$name" ] ||
        glmux_fail "$pc --libs gives '$libs'"
    cflags=$(pkg-config --cflags "$pc")
    eval "set -- $cflags"
    [ $# = 1 ] && [ "$1" = "-I$prefix/include" ] || glmux_fail "$pc --cflags gives '$cflags'"
    # Name, Version, Libs, Cflags and Requires lines as in Debian's file, where Debian's
    # libglvnd (not glmux's package) is installed on this machine.
    deb=/usr/lib/$(gcc -dumpmachine 2>/dev/null)/pkgconfig/$pc.pc
    owner=$(dpkg-query -S "$deb" 2>/dev/null | cut -d: -f1) || owner=""
    if [ -f "$deb" ] && [ -n "$owner" ] &&
       ! dpkg-query -W -f '${Version}' "$owner" 2>/dev/null | grep -q glmux; then
        fields() { grep -E '^(Name|Version|Libs|Libs.private|Cflags|Requires|Requires.private):' "$1"; }
        diff <(fields "$deb") <(fields "$pcdir/$pc.pc") > "$work/$pc.diff" ||
            { cat "$work/$pc.diff" >&2; glmux_fail "$pc.pc fields differ from Debian's $deb"; }
        echo "ok: $soname, $pc.pc fields identical to Debian's ($owner), dev link"
    else
        echo "ok: $soname, $pc.pc $version, dev link (no Debian $pc.pc here to compare with)"
    fi
done <<< "$GLMUX_APIS"

# The pixels GLX vendor: a vendor library (no dev link, no .pc) of its own install component.
if enabled glx; then
    [ -e "$libdir/libGLX_glmux-pixels.so.0" ] || glmux_fail "libGLX_glmux-pixels.so.0 not installed"
    [ ! -e "$libdir/libGLX_glmux-pixels.so" ] || glmux_fail "libGLX_glmux-pixels.so: a vendor has no dev link"
    cmake --install "$build" --prefix "$work/pixels" --component pixels > "$work/pixels.log" 2>&1 ||
        glmux_fail "cmake --install --component pixels failed"
    rel=${libdir#"$prefix"/}
    got=$(cd "$work/pixels" && find . ! -type d | sort | tr '\n' ' ')
    [ "$got" = "./$rel/libGLX_glmux-pixels.so.0 ./$rel/libGLX_glmux-pixels.so.0.0.0 " ] ||
        glmux_fail "install component pixels holds: $got (libdir $rel)"
    echo "ok: libGLX_glmux-pixels.so.0, alone in install component \"pixels\""
fi

# Every .pc validates and names no other prefix (an absolute sysconfdir only when configured so,
# as debhelper does with -DCMAKE_INSTALL_SYSCONFDIR=/etc).
# A .pc file writes a space in a path as "\ " (pkg-config splits words at spaces otherwise):
# pcesc PATH is that form; pcvar NAME PACKAGE a variable's value as the path it names.
pcesc() { printf '%s\n' "$1" | sed 's/ /\\ /g'; }
pcvar() { pkg-config --variable="$1" "$2" | sed 's/\\ / /g'; }
# pcvalidate FILE: pkg-config --validate, given FILE from its own directory (pkg-config takes a
# path with a space for a list of packages).
pcvalidate() { (cd "$(dirname "$1")" && pkg-config --validate "./${1##*/}"); }
conf_sysconfdir=$(sed -n 's/^set(GLMUX_SYSCONFDIR "\(.*\)")$/\1/p' "$build/glmux_install_paths.cmake")
abs_ok=""
case $conf_sysconfdir in /*) abs_ok="|sysconfdir" ;; esac
for f in "$pcdir"/*.pc; do
    pcvalidate "$f" || glmux_fail "pkg-config --validate $f"
    grep -qxF "prefix=$(pcesc "$prefix")" "$f" || glmux_fail "$f: prefix is not $prefix"
    abs=$(grep -E '^[a-z_]+=/' "$f" | grep -vE "^(prefix|egl_vendor_dirs|vendordir$abs_ok)=" || true)
    [ -z "$abs" ] || glmux_fail "$f has a path not below \${prefix}: $abs"
done
echo "ok: pkg-config --validate on $(ls "$pcdir" | tr '\n' ' ')"

# The command line the consumers use.
want="opengl"
for pc in glx egl; do
    case " $built " in *" $pc "*) want="$want $pc" ;; esac
done
echo "pkg-config --cflags --libs $want: $(pkg-config --cflags --libs $want)"

# libglvnd.pc: a version Mesa accepts and the variables vendor builds read.
pkg-config --atleast-version=1.3.2 libglvnd || glmux_fail "libglvnd.pc Version < 1.3.2"
[ "$(pcvar datadir libglvnd)" = "$prefix/share" ] ||
    glmux_fail "libglvnd datadir is $(pcvar datadir libglvnd)"
sysconfdir=$(pcvar sysconfdir libglvnd)
case $conf_sysconfdir in
/*) [ "$sysconfdir" = "$conf_sysconfdir" ] || glmux_fail "libglvnd sysconfdir is $sysconfdir" ;;
*) [ "$sysconfdir" = "$prefix/$conf_sysconfdir" ] || glmux_fail "libglvnd sysconfdir is $sysconfdir" ;;
esac
# A libEGL that compiles in its search path publishes it (GLMUX_EGL_VENDOR_DIRS) verbatim.
want_dirs=$(sed -n 's/^set(GLMUX_EGL_VENDOR_DIRS "\(.*\)")$/\1/p' "$build/glmux_install_paths.cmake")
[ -n "$want_dirs" ] || want_dirs="$sysconfdir/glvnd/egl_vendor.d:$prefix/share/glvnd/egl_vendor.d"
[ "$(pcvar egl_vendor_dirs libglvnd)" = "$want_dirs" ] ||
    glmux_fail "libglvnd egl_vendor_dirs is $(pcvar egl_vendor_dirs libglvnd)"
# vendordir: the GLMUX_VENDOR_DIR compiled into the libraries, which is the install's
# ${libdir}/glvnd/vendors only when the install prefix is the configured one.
conf() { sed -n "s/^set($1 \"\\(.*\\)\")\$/\\1/p" "$build/glmux_install_paths.cmake"; }
want_vd=$(conf GLMUX_VENDOR_DIR)
[ -n "$want_vd" ] || want_vd="$(conf GLMUX_CONFIGURED_FULL_LIBDIR)/glvnd/vendors"
case " $built " in *" egl "*)
    strings "$libdir/libEGL.so.1" | grep -qxF "$want_vd" ||
        glmux_fail "libEGL.so.1 does not search the vendordir the .pc files name ($want_vd)" ;;
esac
for m in libglvnd glmux; do
    vd=$(pcvar vendordir $m)
    [ "$vd" = "$want_vd" ] || glmux_fail "$m vendordir is '$vd', expected '$want_vd'"
done
[ "$want_vd" != "$libdir/glvnd/vendors" ] || [ -d "$want_vd" ] ||
    glmux_fail "vendor directory $want_vd not created"
pkg-config --exists glmux || glmux_fail "glmux.pc unreadable"
echo "ok: libglvnd $(pkg-config --modversion libglvnd), glmux $(pkg-config --modversion glmux)," \
     "vendordir $(pcvar vendordir glmux)"
case " $built " in
*" egl "*)
    [ -d "$sysconfdir/glvnd/egl_vendor.d" ] || [ "${sysconfdir#"$prefix"/}" = "$sysconfdir" ] ||
        glmux_fail "EGL vendor directory $sysconfdir/glvnd/egl_vendor.d not created"
    [ -d "$prefix/share/glvnd/egl_vendor.d" ] ||
        glmux_fail "EGL vendor directories not created"
    ;;
esac

# Headers: every vendor-ABI header, and the Khronos headers generated at build time (each
# installed one is the build tree's; which ones depend on the APIs built).
for h in "$src"/include/glvnd/*.h; do
    cmp -s "$h" "$prefix/include/glvnd/$(basename "$h")" || glmux_fail "glvnd/$(basename "$h") not installed"
done
[ -d "$build/khronos-include" ] || glmux_fail "no generated Khronos headers in $build"
n=0
while read -r h; do
    cmp -s "$build/khronos-include/$h" "$prefix/include/$h" || glmux_fail "$h differs from the generated one"
    n=$((n + 1))
done < <(cd "$prefix/include" && find GL GLES GLES2 GLES3 EGL KHR -name '*.h' 2>/dev/null | sort)
for h in GL/gl.h KHR/khrplatform.h; do
    [ -f "$prefix/include/$h" ] || glmux_fail "$h not installed"
done
case " $built " in *" glx "*) [ -f "$prefix/include/GL/glx.h" ] || glmux_fail "GL/glx.h missing" ;; esac
case " $built " in *" egl "*) [ -f "$prefix/include/EGL/egl.h" ] || glmux_fail "EGL/egl.h missing" ;; esac
case " $built " in *" glesv2 "*) [ -f "$prefix/include/GLES2/gl2.h" ] || glmux_fail "GLES2/gl2.h missing" ;; esac
echo "ok: $(ls "$src"/include/glvnd | wc -l) vendor-ABI headers, $n Khronos headers"

# Relocation: the same build staged for /usr through DESTDIR writes nothing outside DESTDIR and
# gives /usr paths.
DESTDIR="$work/destdir" cmake --install "$build" --prefix /usr > "$work/install-destdir.log" 2>&1 ||
    glmux_fail "DESTDIR install failed"
f=$(find "$work/destdir" -name libglvnd.pc -print -quit)
[ -n "$f" ] || glmux_fail "DESTDIR install has no libglvnd.pc"
grep -q '^prefix=/usr$' "$f" || glmux_fail "DESTDIR install: $f prefix is not /usr"
! grep -qF "$work" "$f" || glmux_fail "DESTDIR leaked into $f"
grep -q '^sysconfdir=/etc$' "$f" || glmux_fail "prefix /usr: sysconfdir must be /etc"
echo "ok: DESTDIR + --prefix /usr gives prefix=/usr, sysconfdir=/etc"
# An /opt prefix: GNU's /etc/opt/<x> sysconfdir, valid files, the compiled-in vendordir.
DESTDIR="$work/destdir-opt" cmake --install "$build" --prefix /opt/glmux > "$work/install-opt.log" 2>&1 ||
    glmux_fail "DESTDIR install with --prefix /opt/glmux failed"
while read -r f; do
    pcvalidate "$f" || glmux_fail "pkg-config --validate $f (prefix /opt/glmux)"
    grep -q '^prefix=/opt/glmux$' "$f" || glmux_fail "$f: prefix is not /opt/glmux"
done < <(find "$work/destdir-opt" -name '*.pc')
[ "$(find "$work/destdir-opt" -name '*.pc' | wc -l)" = "$(find "$pcdir" -name '*.pc' | wc -l)" ] ||
    glmux_fail "the /opt install lacks .pc files"
f=$(find "$work/destdir-opt" -name libglvnd.pc -print -quit)
want_etc=/etc/opt/glmux
case $conf_sysconfdir in /*) want_etc=$conf_sysconfdir ;; esac
grep -qxF "sysconfdir=$want_etc" "$f" || glmux_fail "prefix /opt/glmux: sysconfdir must be $want_etc"
grep -qxF "vendordir=$(pcesc "$want_vd")" "$f" || [ "$want_vd" = "$libdir/glvnd/vendors" ] ||
    glmux_fail "prefix /opt/glmux: vendordir must stay the compiled-in $want_vd"
echo "ok: DESTDIR + --prefix /opt/glmux gives sysconfdir=$want_etc, valid .pc files"
echo "install test passed: $prefix"
