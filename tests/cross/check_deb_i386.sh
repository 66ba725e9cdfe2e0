#!/bin/bash
# SPDX-License-Identifier: MIT
# Cross packaging test: builds glmux's .debs for i386 on amd64 (packaging/build-deb.sh with
# GLMUX_DEB_HOST_ARCH=i386: dpkg-buildpackage -ai386, Debian's i686 cross compiler, the i386
# build dependencies through multiarch; nocheck, the i386 suite runs in cross_i386) and checks
# that every Multi-Arch: same package can be co-installed with its amd64 twin: it is
# Architecture i386, its libraries are i386 ELF files under usr/lib/i386-linux-gnu, and every
# other file it ships is one the amd64 build ships with the same bytes (same path, same
# content), and dpkg unpacks them into one scratch root next to the amd64 build's packages.
# (packaging_builddep_i386 shows that apt-get build-dep -ai386 resolves.)
# Usage: check_deb_i386.sh SOURCE_DIR WORK_DIR [AMD64_DEBS]
set -eu
top=$1 work=$2 amd64=${3:-}
[ -z "$amd64" ] || ls "$amd64"/libglvnd0_*_amd64.deb > /dev/null 2>&1 || amd64=""
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in dpkg-buildpackage dh dpkg-deb i686-linux-gnu-gcc; do
    command -v $tool > /dev/null || { echo "SKIP: $tool missing" >&2; exit 77; }
done
dpkg-checkbuilddeps -a i386 -P nocheck "$top/packaging/debian/control" ||
    { echo "SKIP: i386 build dependencies missing (scripts/install-deps.sh installs them)" >&2; exit 77; }
rm -rf "$work"
mkdir -p "$work"
GLMUX_DEB_HOST_ARCH=i386 DEB_BUILD_OPTIONS=nocheck "$top/packaging/build-deb.sh" "$work/debs" \
    > "$work/build.log" 2>&1 ||
    { tail -40 "$work/build.log" >&2; fail "build-deb.sh for i386 failed (log: $work/build.log)"; }
grep -q -- '-DBUILD_TESTING=OFF' "$work/build.log" ||
    fail "the cross build configured the test suite (log: $work/build.log)"
cd "$work/debs"
ls ./*_i386.deb > /dev/null 2>&1 || fail "no i386 packages built"
M=usr/lib/i386-linux-gnu
same=0
for deb in *_i386.deb; do
    case $deb in *-dbgsym_*) continue ;; esac
    pkg=${deb%%_*}
    ma=$(dpkg-deb -f "$deb" Multi-Arch)
    [ "$(dpkg-deb -f "$deb" Architecture)" = i386 ] || fail "$deb is not Architecture: i386"
    rm -rf x && mkdir x && dpkg-deb -x "$deb" x
    if [ "$pkg" = glmux-tools ]; then
        [ "$ma" != same ] || fail "glmux-tools ships programs: it cannot be Multi-Arch: same"
        continue
    fi
    [ "$ma" = same ] || fail "$pkg: Multi-Arch is '$ma', expected same"
    same=$((same + 1))
    while read -r f; do
        case $f in
            "$M"/*.so.*)
                file -L "x/$f" | grep -q "ELF 32-bit LSB shared object, Intel 80386" ||
                    fail "$pkg: $f is not an i386 shared library" ;;
            "$M"/*) ;;
            usr/lib/x86_64-linux-gnu/*) fail "$pkg ships the amd64 path $f" ;;
            *) # Shared with the amd64 package: the bytes must be those the source gives
               # every architecture (headers, docs, lintian overrides, data).
               grep -q "x86_64\|amd64" "x/$f" 2>/dev/null && fail "$pkg: $f names amd64"
               ;;
        esac
    done < <(cd x && find . -type f | sed 's|^\./||')
    echo "ok: $pkg (i386, Multi-Arch: same)"
done
[ $same -ge 7 ] || fail "only $same Multi-Arch: same packages"
# Co-installation: dpkg installs the i386 packages into a scratch root, together with the amd64
# packages of the same version when AMD64_DEBS has them (packaging_deb's output: CI runs the
# packaging label first). dpkg refuses a Multi-Arch: same file whose bytes differ between the
# two architectures' instances, so its acceptance is the co-installation check.
root=$work/root
mkdir -p "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/info"
touch "$root/var/lib/dpkg/status"
dpkg --root="$root" --add-architecture i386
pkgs="libglvnd0 libopengl0 libgles1 libgles2 libegl1 libglx0 libglx-glmux-pixels0 libgl1
      libglvnd-core-dev libglvnd-dev libopengl-dev libgles-dev libegl-dev libglx-dev libgl-dev"
set --
for p in $pkgs; do
    set -- "$@" "$(ls "${p}"_*_i386.deb)"
    if [ -n "$amd64" ] && ls "$amd64/${p}"_*_amd64.deb > /dev/null 2>&1; then
        set -- "$@" "$(ls "$amd64/${p}"_*_amd64.deb)"
    fi
done
with=$([ -n "$amd64" ] && echo "with their amd64 twins" || echo "alone (no amd64 build given)")
dpkg --root="$root" --force-depends --force-script-chrootless --force-not-root \
    --instdir="$root" --admindir="$root/var/lib/dpkg" --unpack "$@" > "$work/install.log" 2>&1 ||
    { cat "$work/install.log" >&2; fail "dpkg refused to co-install the packages"; }
[ -e "$root/$M/libGLdispatch.so.0" ] || fail "libGLdispatch.so.0 not installed under $M"
[ -z "$amd64" ] || [ -e "$root/usr/lib/x86_64-linux-gnu/libGLdispatch.so.0" ] ||
    fail "the amd64 libGLdispatch.so.0 is missing next to the i386 one"
echo "ok: $# packages unpacked into one root, i386 $with"
