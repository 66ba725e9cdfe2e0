#!/bin/bash
# SPDX-License-Identifier: MIT
# Packaging test: builds the RPMs with packaging/build-rpm.sh (rpmbuild -bb, %check included:
# the spec's ctest run must pass inside rpmbuild) and checks Fedora's libglvnd split: the
# subpackage set (every part, nothing left out), what each ships, Epoch/version/Provides, the
# owned vendor directories, the RPM macros file, and no file in two subpackages.
# Usage: check_rpms.sh SOURCE_DIR WORK_DIR
set -eu
top=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in rpmbuild rpm2cpio cpio; do
    command -v $tool > /dev/null || { echo "SKIP: $tool missing (apt-get install rpm cpio)" >&2; exit 77; }
done
rm -rf "$work"
mkdir -p "$work"
"$top/packaging/build-rpm.sh" "$work/rpms" > "$work/build.log" 2>&1 ||
    { tail -50 "$work/build.log" >&2; fail "build-rpm.sh failed (log: $work/build.log)"; }
# %check ran the suite (ctest -LE packaging) and it passed.
sed -n '/Executing(%check)/,$p' "$work/build.log" > "$work/check.log"
grep -E '^100% tests passed, 0 tests failed out of [1-9]' "$work/check.log" ||
    fail "%check did not run the test suite to a pass (log: $work/build.log)"
cd "$work/rpms"
[ ! -s glmux-left-out ] || fail "build-rpm.sh left parts out: $(tr '\n' ' ' < glmux-left-out)"
left=" "
q() { rpm -qp "$@" 2>/dev/null; }
L=/usr/lib64

want="libglvnd libglvnd-opengl libglvnd-gles libglvnd-core-devel libglvnd-devel"
case $left in *" egl "*) ;; *) want="$want libglvnd-egl" ;; esac
case $left in *" glx "*) ;; *) want="$want libglvnd-glx" ;; esac
case $left in *" tools "*) ;; *) want="$want glmux-tools" ;; esac
got=$(for f in *.rpm; do q --qf '%{NAME}\n' "$f"; done | sort | tr '\n' ' ')
[ "$got" = "$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')" ] || fail "subpackages '$got', expected '$want'"
echo "ok: subpackages $got"

rpmof() { ls "$1"-[0-9]*.rpm; }
files() { q -l "$(rpmof "$1")" | grep -v '^/usr/share/licenses/'; }
need() { files "$1" | grep -qx "$2" || fail "$1 lacks $2"; }
need libglvnd $L/libGLdispatch.so.0
need libglvnd /etc/glvnd
need libglvnd /usr/share/glvnd
need libglvnd $L/glvnd/vendors
need libglvnd-opengl $L/libOpenGL.so.0
need libglvnd-gles $L/libGLESv1_CM.so.1
need libglvnd-gles $L/libGLESv2.so.2
need libglvnd-core-devel /usr/include/glvnd/GLdispatchABI.h
need libglvnd-core-devel $L/pkgconfig/libglvnd.pc
need libglvnd-core-devel $L/pkgconfig/glmux.pc
need libglvnd-core-devel /usr/lib/rpm/macros.d/macros.glmux
for f in /usr/include/GL/gl.h /usr/include/KHR/khrplatform.h /usr/include/GLES2/gl2.h \
         $L/libOpenGL.so $L/libGLESv2.so $L/pkgconfig/opengl.pc $L/pkgconfig/glesv2.pc; do
    need libglvnd-devel $f
done
case $left in *" egl "*) ;; *)
    need libglvnd-egl $L/libEGL.so.1
    need libglvnd-egl /usr/share/glvnd/egl_vendor.d
    need libglvnd-egl /etc/glvnd/egl_vendor.d
    need libglvnd-egl /usr/share/egl/egl_external_platform.d
    need libglvnd-devel /usr/include/EGL/egl.h
    need libglvnd-devel $L/pkgconfig/egl.pc
    q --provides "$(rpmof libglvnd-egl)" | grep -q '^libEGL(x86-64) = 1:' || fail "libglvnd-egl lacks Provides libEGL(x86-64)"
    ;;
esac
case $left in *" glx "*) ;; *)
    need libglvnd-glx $L/libGLX.so.0
    need libglvnd-devel /usr/include/GL/glx.h
    need libglvnd-devel $L/pkgconfig/glx.pc
    case $left in *" gl "*) ;; *) need libglvnd-glx $L/libGL.so.1; need libglvnd-devel $L/pkgconfig/gl.pc ;; esac
    ;;
esac
need glmux-tools /usr/bin/glmux
# brp-compress gzips man pages on Fedora; on Debian's /bin/sh it fails quietly and leaves them.
files glmux-tools | grep -Eqx '/usr/share/man/man1/glmux\.1(\.gz)?' || fail "glmux-tools lacks the man page"
[ "$(q --qf '%{EPOCH}' "$(rpmof libglvnd)")" = 1 ] || fail "Epoch is not 1"
rpmdev_cmp=$(q --qf '%{VERSION}' "$(rpmof libglvnd)")
case $rpmdev_cmp in 1.7.0+glmux*) ;; *) fail "version $rpmdev_cmp does not start with 1.7.0+glmux" ;; esac
echo "ok: each subpackage ships its files; Epoch 1, version $rpmdev_cmp"

# No file in two subpackages (directories may be listed once each too).
for f in *.rpm; do q -l "$f"; done | grep -v '^/usr/share/licenses/' | sort | uniq -d > dup.txt
[ ! -s dup.txt ] || fail "owned twice: $(cat dup.txt)"
echo "ok: no path owned by two subpackages"

# The macros give vendor packages the vendor directory.
rpm2cpio "$(rpmof libglvnd-core-devel)" | (mkdir -p x && cd x && cpio -idm --quiet)
got_dir=$(rpm --load x/usr/lib/rpm/macros.d/macros.glmux --eval '%{glmux_vendordir}')
[ "$got_dir" = "$(rpm --eval '%{_libdir}')/glvnd/vendors" ] || fail "%glmux_vendordir is $got_dir"
echo "ok: %glmux_vendordir = $got_dir, %glvnd_egl_vendordir = $(rpm --load x/usr/lib/rpm/macros.d/macros.glmux --eval '%{glvnd_egl_vendordir}')"
echo "packaging_rpm passed"
