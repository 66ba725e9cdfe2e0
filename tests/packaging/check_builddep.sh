#!/bin/bash
# SPDX-License-Identifier: MIT
# Packaging test: apt resolves the package's build dependencies for a cross build to ARCH
# (`apt-get build-dep -aARCH ./`, simulated: nothing is installed), test ones included:
# python3-glad and the build machine's test tools must be :native. Skips (77) when dpkg does
# not know ARCH as a foreign architecture or apt has no package lists for it.
# Usage: check_builddep.sh SOURCE_DIR WORK_DIR ARCH
set -eu
top=$1 work=$2 arch=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v apt-get > /dev/null || { echo "SKIP: apt-get missing" >&2; exit 77; }
dpkg --print-foreign-architectures | grep -qx "$arch" ||
    { echo "SKIP: $arch is not a dpkg foreign architecture here (dpkg --add-architecture $arch; scripts/install-deps.sh adds it)" >&2; exit 77; }
apt-cache policy "libc6:$arch" 2>/dev/null | grep -q 'Candidate: [0-9]' ||
    { echo "SKIP: apt has no $arch package lists (apt-get update)" >&2; exit 77; }
rm -rf "$work"
mkdir -p "$work/src/debian"
cp "$top/packaging/debian/control" "$work/src/debian/"
printf 'glmux (0) unstable; urgency=medium\n\n  * x\n\n -- x <x@example.org>  Thu, 01 Jan 2026 00:00:00 +0000\n' \
    > "$work/src/debian/changelog"
apt-get build-dep --simulate -a "$arch" "$work/src" > "$work/build-dep.log" 2>&1 ||
    { cat "$work/build-dep.log" >&2; fail "apt-get build-dep -a$arch does not resolve"; }
echo "ok: apt-get build-dep -a$arch resolves ($(grep -c '^Inst ' "$work/build-dep.log" || true) packages to install)"
