#!/bin/bash
# SPDX-License-Identifier: MIT
# Packaging test: apt resolves the package's build dependencies for a cross build to ARCH
# (`apt-get build-dep -aARCH ./`, simulated: nothing is installed), test ones included:
# python3-glad and the build machine's test tools must be :native. Skips (77) when dpkg does
# not know ARCH as a foreign architecture or apt has no package lists for it. A suite whose list
# apt has for the build machine but not for ARCH (a security mirror caught in a sync) leaves
# ARCH's packages older than the installed native ones, which multiarch cannot pair: then the
# answer is asked of the suites that have both, pinned to 1001 for this simulation only, and
# the output names the suite left out.
# Usage: check_builddep.sh SOURCE_DIR WORK_DIR ARCH
set -eu
top=$1 work=$2 arch=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v apt-get > /dev/null || { echo "SKIP: apt-get missing" >&2; exit 77; }
dpkg --print-foreign-architectures | grep -qxF "$arch" ||
    { echo "SKIP: $arch is not a dpkg foreign architecture here (scripts/install-deps.sh .ci/packages .ci/packages-cross adds it, as CI=true scripts/test.sh does)" >&2; exit 77; }
apt-cache policy "libc6:$arch" 2>/dev/null | grep -q 'Candidate: [0-9]' ||
    { echo "SKIP: apt has no $arch package lists (apt-get update)" >&2; exit 77; }
rm -rf "$work"
mkdir -p "$work/src/debian"
cp "$top/packaging/debian/control" "$work/src/debian/"
printf 'glmux (0) unstable; urgency=medium\n\n  * x\n\n -- x <x@example.org>  Thu, 01 Jan 2026 00:00:00 +0000\n' \
    > "$work/src/debian/changelog"
# The suites of the package lists apt has, for the build machine and for ARCH.
native=$(dpkg --print-architecture)
# shellcheck disable=SC2016  # $(CODENAME): apt's format, not the shell's
suites() { apt-get indextargets --format '$(CODENAME) $(ARCHITECTURE)' 'Created-By: Packages' |
               awk -v a="$1" '$2 == a { print $1 }' | sort -u; }
both=$(comm -12 <(suites "$native") <(suites "$arch"))
missing=$(comm -23 <(suites "$native") <(suites "$arch"))
opts=()
against=""
if [ -n "$missing" ] && [ -n "$both" ]; then
    mkdir -p "$work/preferences"
    for suite in $both; do
        printf 'Package: *\nPin: release n=%s\nPin-Priority: 1001\n\n' "$suite"
    done > "$work/preferences/builddep.pref"
    opts=(-o Dir::Etc::PreferencesParts="$work/preferences")
    against=" against ${both//$'\n'/ } (${missing//$'\n'/ } has no $arch package list here)"
fi
apt-get "${opts[@]}" build-dep --simulate -a "$arch" "$work/src" > "$work/build-dep.log" 2>&1 ||
    { cat "$work/build-dep.log" >&2; fail "apt-get build-dep -a$arch does not resolve$against"; }
echo "ok: apt-get build-dep -a$arch resolves$against ($(grep -c '^Inst ' "$work/build-dep.log" || true) packages to install)"
