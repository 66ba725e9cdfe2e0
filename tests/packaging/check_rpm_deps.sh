#!/bin/bash
# SPDX-License-Identifier: MIT
# Packaging test, part of packaging_rpm: Fedora's packages that depend on libglvnd resolve
# against glmux's RPMs. Builds dummy packages with Fedora's names and dependencies (a
# mesa-libEGL-devel that requires mesa-khr-devel%{?_isa}, a program that requires
# mesa-libGLES%{?_isa} and libGLES-devel%{?_isa}, Mesa's vendor packages, an NVIDIA-style
# vendor that provides glmux-egl-vendor / glmux-glx-vendor) and checks with rpm --test installs
# into an empty rpm database:
#   1. glmux + Mesa + the dependent packages: every dependency resolves;
#   2. glmux without any vendor: refused, naming the rich (mesa-libEGL or glmux-egl-vendor)
#      dependency, so that a system without weak dependencies still gets a vendor;
#   3. glmux + the NVIDIA-style vendor and no Mesa: resolves.
# What the distribution itself provides (libc, libX11 sonames, /bin/sh) comes from one dummy
# "base" package made from the requirements nothing else here provides.
# Usage: check_rpm_deps.sh RPM_DIR WORK_DIR
set -eu
rpms=$(cd "$1" && pwd) work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"/{SPECS,RPMS,BUILD,SOURCES,SRPMS}
cd "$work"

# dummy NAME ARCH "TAG: value" ...: an empty package with these dependency tags.
dummy() {
    local name=$1 arch=$2
    shift 2
    {
        echo "Name: $name"
        echo "Version: 22.3.6"
        echo "Release: 1"
        echo "Summary: glmux test dummy in Fedora's shape"
        echo "License: MIT"
        [ "$arch" = noarch ] && echo "BuildArch: noarch"
        for tag in "$@"; do echo "$tag"; done
        printf '%%description\nDummy package for tests/packaging/check_rpm_deps.sh.\n%%files\n'
    } > "SPECS/$name.spec"
    rpmbuild -bb --quiet --define "_topdir $work" --define "debug_package %{nil}" \
        --define "_build_id_links none" "SPECS/$name.spec" > "build-$name.log" 2>&1 ||
        { cat "build-$name.log" >&2; fail "cannot build the dummy $name"; }
}
isa='%{?_isa}'
dummy mesa-libEGL x86_64 "Requires: libglvnd-egl$isa >= 1:1.3.2"
dummy mesa-libGL x86_64 "Requires: libglvnd-glx$isa >= 1:1.3.2"
dummy mesa-libEGL-devel x86_64 "Requires: mesa-khr-devel$isa" "Requires: libglvnd-devel$isa >= 1:1.3.2" \
    "Requires: mesa-libEGL$isa = 22.3.6-1"
dummy gles-program x86_64 "Requires: mesa-libGLES$isa" "Requires: libGLES$isa" \
    "Requires: libGLES-devel$isa" "Requires: mesa-libGLES-devel$isa" "Requires: libEGL$isa" \
    "Requires: libGL$isa"
dummy nvidia-style-vendor x86_64 "Provides: glmux-egl-vendor$isa" "Provides: glmux-glx-vendor$isa"

ours=$(ls "$rpms"/*.rpm | grep -v -- '-debug\(info\|source\)-')
dummies=$(find RPMS -name '*.rpm' | sort)
# The base: every plain requirement that no package here provides.
for f in $ours $dummies; do rpm -qp --provides "$f" 2>/dev/null; rpm -qpl "$f" 2>/dev/null; done |
    sed 's/ .*//' | sort -u > provided.txt
for f in $ours $dummies; do rpm -qp --requires "$f" 2>/dev/null; done |
    grep -v '^rpmlib(\|^(' | sed 's/ .*//' | sort -u > required.txt
comm -23 required.txt provided.txt > base.txt
mapfile -t base < <(sed 's/^/Provides: /' base.txt)
dummy fedora-base noarch "${base[@]}"
basepkg=$(find RPMS -name 'fedora-base-*.rpm')

try() {  # try LABEL PACKAGE...: rpm --test install into a fresh database
    local label=$1 root
    shift
    root="$work/root-$label"
    rm -rf "$root" && mkdir -p "$root"
    rpm --root "$root" --initdb
    rpm --root "$root" --test --ignorearch -i "$@" > "$label.log" 2>&1
}
find_rpm() { find RPMS -name "$1-[0-9]*.rpm"; }
mesa="$(find_rpm mesa-libEGL) $(find_rpm mesa-libGL)"
# shellcheck disable=SC2086
try everything $ours $basepkg $mesa "$(find_rpm mesa-libEGL-devel)" "$(find_rpm gles-program)" ||
    { cat everything.log >&2; fail "Fedora-style dependent packages do not install against glmux's RPMs"; }
echo "ok: mesa-libEGL-devel (mesa-khr-devel$isa), a GLES program (mesa-libGLES$isa, libGLES-devel$isa, ...) and Mesa install with glmux"
# shellcheck disable=SC2086
if try novendor $ours $basepkg; then
    fail "glmux's RPMs install without any vendor"
fi
grep -q '(mesa-libEGL(x86-64) or glmux-egl-vendor(x86-64)) is needed by libglvnd-egl' novendor.log ||
    { cat novendor.log >&2; fail "no vendor: the rich EGL vendor dependency is not what is missing"; }
grep -q '(mesa-libEGL(x86-64) or glmux-egl-vendor(x86-64)) is needed by libglvnd-gles' novendor.log ||
    { cat novendor.log >&2; fail "no vendor: libglvnd-gles does not ask for an EGL vendor"; }
grep -q '(mesa-libGL(x86-64) or glmux-glx-vendor(x86-64)) is needed by libglvnd-glx' novendor.log ||
    { cat novendor.log >&2; fail "no vendor: the rich GLX vendor dependency is not what is missing"; }
echo "ok: without a vendor rpm refuses: $(grep -c 'is needed by' novendor.log) unresolved, the rich vendor dependencies"
# shellcheck disable=SC2086
try nvidia $ours $basepkg "$(find_rpm nvidia-style-vendor)" ||
    { cat nvidia.log >&2; fail "a vendor providing glmux-egl-vendor/glmux-glx-vendor does not satisfy glmux"; }
echo "ok: an NVIDIA-style vendor (Provides glmux-egl-vendor$isa, glmux-glx-vendor$isa) instead of Mesa"
echo "check_rpm_deps passed"
