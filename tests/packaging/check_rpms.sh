#!/bin/bash
# SPDX-License-Identifier: MIT
# Packaging test: builds the RPMs with packaging/build-rpm.sh (rpmbuild -ba; brp-compress under
# bash, as on Fedora) and checks Fedora's libglvnd split: the spec parses with no definitions
# and `rpmbuild -bs` makes the source RPM with none, the subpackage set (every part, nothing
# left out), what each ships (the man page gzipped), Epoch/version, Fedora's
# Provides (plain and arch-qualified, the obsoleted names versioned), libglvnd-gles's EGL
# vendor, debuginfo, %license, each subpackage's License: against licensecheck, URL, ldconfig
# scriptlets, the owned vendor directories, the RPM macros (glmux-rpm-macros, without
# libglvnd-core-devel), no file in two subpackages, rpmlint with Fedora's filters
# (rpmlint-fedora.toml) reporting no error but the two kinds Fedora's libglvnd gets too, and
# Fedora-style dependent packages installing (check_rpm_deps.sh).
# MODE nocheck (packaging_rpm, CI's run): built --without check, and the log must show that the
# test suite was not built (the default configuration has just run it). MODE check
# (packaging_rpm_check, label fulltests): %check runs the spec's ctest, which must pass.
# Usage: check_rpms.sh SOURCE_DIR WORK_DIR nocheck|check
set -eu
top=$1 work=$2 mode=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in rpmbuild rpm2cpio cpio; do
    command -v $tool > /dev/null || { echo "SKIP: $tool missing (apt-get install rpm cpio)" >&2; exit 77; }
done
rm -rf "$work"
mkdir -p "$work"
spec=$top/packaging/rpm/glmux.spec
# The spec parses with no definitions at all (a Fedora packager's rpmbuild -bs, fedpkg): no
# macro of python3-rpm-macros or a path of Debian's in BuildRequires.
rpmspec -q --srpm --qf '%{NAME} %{EPOCH}:%{VERSION}\n' "$spec" > "$work/parse.txt" 2>&1 ||
    { cat "$work/parse.txt" >&2; fail "rpmspec cannot parse the spec without definitions"; }
rpmspec -q --buildrequires "$spec" > "$work/buildrequires.txt" 2>&1 ||
    { cat "$work/buildrequires.txt" >&2; fail "rpmspec cannot list the BuildRequires"; }
! grep -n '%\|/usr/lib/python3\|/usr/share/khronos' "$work/buildrequires.txt" ||
    fail "BuildRequires name an unexpanded macro or a Debian path"
echo "ok: the spec parses without definitions: $(cat "$work/parse.txt"), $(wc -l < "$work/buildrequires.txt") BuildRequires"
case $mode in
    nocheck) export GLMUX_RPM_ARGS="--without check${GLMUX_RPM_ARGS:+ $GLMUX_RPM_ARGS}" ;;
    check) ;;
    *) fail "mode must be nocheck or check, not '$mode'" ;;
esac
"$top/packaging/build-rpm.sh" "$work/rpms" > "$work/build.log" 2>&1 ||
    { tail -50 "$work/build.log" >&2; fail "build-rpm.sh failed (log: $work/build.log)"; }
# In check mode %check ran the suite (ctest -LE packaging).
. "$top/tests/packaging/build_log.sh"
log=$work/build.log
if [ "$mode" = check ]; then
    sed -n '/Executing(%check)/,$p' "$work/build.log" > "$work/check.log"
    log=$work/check.log
fi
build_log_check "$mode" "$log" "the $mode rpmbuild"
cd "$work/rpms"
[ ! -s glmux-left-out ] || fail "build-rpm.sh left parts out: $(tr '\n' ' ' < glmux-left-out)"
left=" "
q() { rpm -qp "$@" 2>/dev/null; }
L=/usr/lib64

want="libglvnd libglvnd-opengl libglvnd-gles libglvnd-core-devel libglvnd-devel glmux-rpm-macros"
want="$want glmux-layers"
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
need() { files "$1" | grep -qxF "$2" || fail "$1 lacks $2"; }
need libglvnd $L/libGLdispatch.so.0
need libglvnd $L/glmux/libglmux-layer-guard.so
need libglvnd /etc/glvnd
need libglvnd /usr/share/glvnd
need libglvnd $L/glvnd/vendors
need libglvnd-opengl $L/libOpenGL.so.0
need libglvnd-gles $L/libGLESv1_CM.so.1
need libglvnd-gles $L/libGLESv2.so.2
need libglvnd-core-devel /usr/include/glvnd/GLdispatchABI.h
need libglvnd-core-devel $L/pkgconfig/libglvnd.pc
need libglvnd-core-devel $L/pkgconfig/glmux.pc
# GL layers (docs/layers.md): libglvnd owns the folders, glmux-layers holds glmux's own layers.
need libglvnd $L/glvnd/implicit_layer.d
need libglvnd $L/glvnd/explicit_layer.d
need libglvnd /etc/glmux/implicit_layer.d
need libglvnd /etc/glmux/explicit_layer.d
need libglvnd-core-devel /usr/include/glmux/glmux_layer.h
need libglvnd-core-devel $L/pkgconfig/glmux-layer.pc
for l in frame-limiter frame-time call-counter android-counter; do
    need glmux-layers $L/glmux/layers/libglmux-layer-$l.so
done
for l in frame_limiter frame_time call_counter android_counter; do
    need glmux-layers $L/glvnd/explicit_layer.d/glmux_$l.json
done
# ... and nothing else: the layers, their manifests (in whichever layer folder) and its folders.
other=$(files glmux-layers | grep -v -e "^$L/glmux$" -e "^$L/glmux/layers$" \
    -e "^$L/glmux/layers/libglmux-layer-[a-z-]*\.so$" -e "^$L/glvnd/[^/]*/glmux_[a-z_]*\.json$" || true)
[ -z "$other" ] || fail "glmux-layers holds more than the layers and their manifests: $other"
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
# brp-compress (run under bash, as on Fedora) gzipped the man page after %install.
need glmux-tools /usr/share/man/man1/glmux.1.gz
grep -q 'brp-compress: .*Illegal option' "$work/build.log" && fail "brp-compress failed (log: $work/build.log)"
ls srpm/glmux-*.src.rpm > /dev/null 2>&1 || fail "no source RPM"
# A packager's `rpmbuild -bs glmux.spec` with no --define at all: rpm's default _topdir
# (~/rpmbuild, HOME a scratch directory here) holding the source RPM's sources.
mkdir -p "$work/home/rpmbuild/SOURCES"
(cd "$work/home/rpmbuild/SOURCES" && rpm2cpio "$work/rpms"/srpm/glmux-*.src.rpm | cpio -idm --quiet)
rm -f "$work/home/rpmbuild/SOURCES/glmux.spec"
HOME="$work/home" rpmbuild -bs "$spec" > "$work/srpm-only.log" 2>&1 ||
    { cat "$work/srpm-only.log" >&2; fail "rpmbuild -bs without definitions failed"; }
ls "$work"/home/rpmbuild/SRPMS/glmux-*.src.rpm > /dev/null 2>&1 ||
    fail "rpmbuild -bs without definitions made no source RPM (log: $work/srpm-only.log)"
echo "ok: rpmbuild -bs with no definitions: $(basename "$(ls "$work"/home/rpmbuild/SRPMS/*.src.rpm)")"
rpm -qpl srpm/glmux-*.src.rpm | grep -qx "glad-[0-9.]*\.tar\.gz" || fail "the source RPM lacks Source1, glad's tarball"
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
# Fedora's arch-qualified names, as its libglvnd provides them; each name that an Obsoletes
# names too is versioned (this release), so that it does not obsolete itself.
evr=$(q --qf '%{EPOCH}:%{VERSION}-%{RELEASE}' "$(rpmof libglvnd)")
for pv in libglvnd-gles:libGLES libglvnd-gles:mesa-libGLES libglvnd-egl:libEGL libglvnd-glx:libGL \
          libglvnd-devel:mesa-khr-devel libglvnd-devel:mesa-libGLES-devel libglvnd-devel:libGLES-devel; do
    p=${pv%%:*} name=${pv#*:}
    ver=""
    q --obsoletes "$(rpmof "$p")" | awk -v n="$name" '$1 == n { f = 1 } END { exit !f }' &&
        ver=" = $evr"
    for v in "$name" "$name(x86-64)"; do
        q --provides "$(rpmof "$p")" | grep -qxF "$v$ver" || fail "$p does not provide '$v$ver'"
    done
done
echo "ok: Provides of Fedora's libglvnd, plain and arch-qualified, the obsoleted ones versioned"
# OpenGL ES contexts come from EGL: libglvnd-gles requires an EGL vendor, as Fedora's does.
q --requires "$(rpmof libglvnd-gles)" | grep -qxF '(mesa-libEGL(x86-64) or glmux-egl-vendor(x86-64))' ||
    fail "libglvnd-gles does not require an EGL vendor"
echo "ok: libglvnd-gles requires an EGL vendor"
# Licences: the Khronos headers' in libglvnd-devel, MIT elsewhere; licensecheck agrees.
for p in libglvnd libglvnd-opengl libglvnd-gles libglvnd-egl libglvnd-glx glmux-glx-pixels \
         libglvnd-core-devel glmux-rpm-macros glmux-tools; do
    [ "$(q --qf '%{LICENSE}' "$(rpmof $p)")" = MIT ] || fail "$p: License: $(q --qf '%{LICENSE}' "$(rpmof $p)")"
done
[ "$(q --qf '%{LICENSE}' "$(rpmof libglvnd-devel)")" = "MIT AND Apache-2.0 AND MIT-Khronos-old" ] ||
    fail "libglvnd-devel: License: $(q --qf '%{LICENSE}' "$(rpmof libglvnd-devel)")"
python3 "$top/tests/packaging/check_licenses.py" rpm . "$work/licenses" ||
    fail "a file's licence is not in its RPM's License: (above)"
echo "ok: License: per subpackage, as licensecheck finds"
# rpmlint as Fedora runs it: no error but two that Fedora's libglvnd gets as well:
# missing-hash-section (the libraries have only the GNU hash table, as Fedora's toolchain links
# every library) and shared-library-without-dependency-information for the -debuginfo
# package's separate debug files (no dynamic section, as every -debuginfo package's).
if command -v rpmlint > /dev/null; then
    rpmlint -c "$top/tests/packaging/rpmlint-fedora.toml" "$spec" ./*.rpm srpm/*.rpm \
        > "$work/rpmlint.txt" 2>&1 || true
    grep -E '(^|: )E: ' "$work/rpmlint.txt" | grep -v -e ': E: missing-hash-section ' \
        -e '-debuginfo\.[^ ]*: E: shared-library-without-dependency-information /usr/lib/debug/' \
        > "$work/rpmlint-errors.txt" || true
    [ ! -s "$work/rpmlint-errors.txt" ] ||
        { cat "$work/rpmlint-errors.txt" >&2; fail "rpmlint reports errors (log: $work/rpmlint.txt)"; }
    echo "ok: rpmlint: $(grep -c ': E: ' "$work/rpmlint.txt") errors, all of the two kinds Fedora's libglvnd has too; $(grep -c ': W: ' "$work/rpmlint.txt") warnings"
else
    echo "note: rpmlint not installed (apt-get install rpmlint): not run"
fi
bash "$top/tests/packaging/check_rpm_deps.sh" "$work/rpms" "$work/deps" ||
    fail "Fedora-style dependent packages (tests/packaging/check_rpm_deps.sh)"
echo "check_rpms.sh ($mode) passed"
