#!/bin/bash
# SPDX-License-Identifier: MIT
# Packaging test: builds the RPMs with packaging/build-rpm.sh (rpmbuild -bb, %check included:
# the spec's ctest run must pass inside rpmbuild) and checks Fedora's libglvnd split: the
# subpackage set (every part, nothing left out), what each ships, Epoch/version, Fedora's
# Provides (plain and arch-qualified), debuginfo, %license, URL, ldconfig scriptlets, the owned
# vendor directories, the RPM macros (glmux-rpm-macros, without libglvnd-core-devel), no file in
# two subpackages, and Fedora-style dependent packages installing (check_rpm_deps.sh).
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

want="libglvnd libglvnd-opengl libglvnd-gles libglvnd-core-devel libglvnd-devel glmux-rpm-macros"
case $left in *" egl "*) ;; *) want="$want libglvnd-egl" ;; esac
case $left in *" glx "*) ;; *) want="$want libglvnd-glx glmux-glx-pixels" ;; esac
case $left in *" tools "*) ;; *) want="$want glmux-tools" ;; esac
got=$(for f in *.rpm; do q --qf '%{NAME}\n' "$f"; done | grep -v -- '-debug\(info\|source\)$' | sort | tr '\n' ' ')
[ "$got" = "$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')" ] || fail "subpackages '$got', expected '$want'"
echo "ok: subpackages $got"

rpmof() { ls "$1"-[0-9]*.rpm; }
# Debuginfo: the spec keeps rpm's debuginfo packages (no debug_package %{nil}).
ls ./*-debuginfo-[0-9]*.rpm > /dev/null 2>&1 || fail "no -debuginfo package was built"
q -l "$(ls ./*-debuginfo-[0-9]*.rpm | head -1)" | grep -q '^/usr/lib/debug/.*libGL\.so\.1.*\.debug$' ||
    fail "the debuginfo package lacks libGL's debug file"
echo "ok: debuginfo: $(ls ./*-debug*-[0-9]*.rpm | tr '\n' ' ')"
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
need glmux-rpm-macros /usr/lib/rpm/macros.d/macros.glmux
[ "$(q --qf '%{ARCH}' "$(rpmof glmux-rpm-macros)")" = noarch ] || fail "glmux-rpm-macros is not noarch"
q --requires "$(rpmof libglvnd-core-devel)" | grep -q '^glmux-rpm-macros = ' ||
    fail "libglvnd-core-devel does not require glmux-rpm-macros"
for p in libglvnd glmux-rpm-macros libglvnd-core-devel glmux-tools; do
    q -l "$(rpmof $p)" | grep -q "^/usr/share/licenses/.*/LICENSE$" || fail "$p has no %license LICENSE"
done
[ "$(q --qf '%{URL}' "$(rpmof libglvnd)")" != "(none)" ] || fail "no URL:"
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
    q --provides "$(rpmof libglvnd-egl)" | grep -qx 'libEGL(x86-64)' || fail "libglvnd-egl lacks Provides libEGL(x86-64)"
    ;;
esac
case $left in *" glx "*) ;; *)
    need libglvnd-glx $L/libGLX.so.0
    need libglvnd-devel /usr/include/GL/glx.h
    need libglvnd-devel $L/pkgconfig/glx.pc
    case $left in *" gl "*) ;; *) need libglvnd-glx $L/libGL.so.1; need libglvnd-devel $L/pkgconfig/gl.pc ;; esac
    # The pixels vendor: a subpackage of its own that libglvnd-glx recommends; it needs
    # nothing of glmux's, so libglvnd's libGLX loads it too.
    need glmux-glx-pixels $L/libGLX_glmux-pixels.so.0
    q --recommends "$(rpmof libglvnd-glx)" | grep -q '^glmux-glx-pixels(x86-64) = ' ||
        fail "libglvnd-glx does not recommend glmux-glx-pixels"
    ! q --requires "$(rpmof glmux-glx-pixels)" | grep -q '^libglvnd' ||
        fail "glmux-glx-pixels requires glmux: $(q --requires "$(rpmof glmux-glx-pixels)" | tr '\n' ' ')"
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
rpm2cpio "$(rpmof glmux-rpm-macros)" | (mkdir -p x && cd x && cpio -idm --quiet)
got_dir=$(rpm --load x/usr/lib/rpm/macros.d/macros.glmux --eval '%{glmux_vendordir}')
[ "$got_dir" = "$(rpm --eval '%{_libdir}')/glvnd/vendors" ] || fail "%glmux_vendordir is $got_dir"
echo "ok: %glmux_vendordir = $got_dir, %glvnd_egl_vendordir = $(rpm --load x/usr/lib/rpm/macros.d/macros.glmux --eval '%{glvnd_egl_vendordir}')"
# The library subpackages run ldconfig (Fedora's %ldconfig_scriptlets; EL/SUSE-style here).
for p in libglvnd libglvnd-opengl libglvnd-gles libglvnd-egl libglvnd-glx glmux-glx-pixels; do
    q --scripts "$(rpmof $p)" | grep -q 'postinstall program: /sbin/ldconfig' ||
        fail "$p has no ldconfig scriptlet"
done
echo "ok: ldconfig scriptlets"
# Fedora's arch-qualified names, as its libglvnd provides them.
for pv in libglvnd-gles:libGLES libglvnd-gles:mesa-libGLES libglvnd-egl:libEGL libglvnd-glx:libGL \
          libglvnd-devel:mesa-khr-devel libglvnd-devel:mesa-libGLES-devel libglvnd-devel:libGLES-devel; do
    p=${pv%%:*} name=${pv#*:}
    for v in "$name" "$name(x86-64)"; do
        q --provides "$(rpmof "$p")" | grep -qx "$v" || fail "$p does not provide $v"
    done
done
echo "ok: Provides of Fedora's libglvnd, plain and arch-qualified"
bash "$top/tests/packaging/check_rpm_deps.sh" "$work/rpms" "$work/deps" ||
    fail "Fedora-style dependent packages (tests/packaging/check_rpm_deps.sh)"
echo "packaging_rpm passed"
