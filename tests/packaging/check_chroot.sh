#!/bin/bash
# SPDX-License-Identifier: MIT
# Packaging test (labels "packaging" and "chroot", outside CI's run): glmux's source package builds where Debian builds it. Makes
# the source package (packaging/build-deb.sh, GLMUX_DEB_SOURCE_ONLY=1), then a clean Debian 12
# chroot with mmdebstrap (variant buildd: the Essential set and build-essential) holding only
# the package's declared Build-Depends (apt-get build-dep), and builds the package there as a
# user that is not root, with its test suite on (dh_auto_test), which must pass. The chroot's
# apt sources and options are the host's (its bookworm entries, and its proxy and release-date
# settings), so it reaches the archive the way the host's apt does. Downloaded packages are
# kept in CACHE_DIR for the next run. Skips (77) without root or mmdebstrap, or when the
# archive cannot be reached.
# Usage: check_chroot.sh SOURCE_DIR WORK_DIR CACHE_DIR
set -eu
top=$1 work=$2 cache=$3
. "$top/tests/common/chroot.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
chroot_require
suite=bookworm
# The host's sources for the suite, one "deb URI RELEASE COMPONENT" line per index, and the
# apt options that decide how it reaches them.
chroot_work "$suite"
echo "chroot sources (the host's):"
cat "$work/sources.list" "$work/apt.conf"

GLMUX_DEB_SOURCE_ONLY=1 "$top/packaging/build-deb.sh" "$work/source" > "$work/source.log" 2>&1 ||
    { cat "$work/source.log" >&2; fail "the source package could not be made"; }
dsc=$(basename "$(ls "$work"/source/*.dsc)")
mkdir -p "$work/out"
jobs=$(nproc 2>/dev/null || echo 2)
start=$(date +%s)
# Hooks, in order: the cached packages in; the source package in and unpacked; its
# Build-Depends installed (as root, by apt) and the cache synced out; a user "builder" (uid
# 1000, written into the chroot's passwd and group files) builds it with the tests on; the
# packages out. The build's output goes to build.log on the host.
set +e
mmdebstrap --mode=root --variant=buildd --aptopt="$work/apt.conf" --dpkgopt=force-unsafe-io \
    --setup-hook='mkdir -p "$1"/var/cache/apt/archives/' \
    --setup-hook="sync-in $cache /var/cache/apt/archives/" \
    --customize-hook='mkdir -p "$1/build"' \
    --customize-hook="sync-in $work/source /build" \
    --customize-hook="chroot \"\$1\" sh -c 'cd /build && dpkg-source -x $dsc glmux'" \
    --customize-hook='chroot "$1" apt-get build-dep --yes --no-install-recommends /build/glmux' \
    --customize-hook="sync-out /var/cache/apt/archives $cache" \
    --customize-hook='chroot "$1" dpkg-query -W -f "\${Package} \${Version}\n" > '"$work/installed.txt" \
    --customize-hook='echo "builder:x:1000:1000:glmux builder:/home/builder:/bin/sh" >> "$1/etc/passwd" &&
        echo "builder:x:1000:" >> "$1/etc/group" && mkdir -p "$1/home/builder" &&
        chown -R 1000:1000 "$1/home/builder" "$1/build"' \
    --customize-hook="chroot --userspec=1000:1000 \"\$1\" env HOME=/home/builder USER=builder \
        LOGNAME=builder DEB_BUILD_OPTIONS=parallel=$jobs \
        sh -c 'id; cd /build/glmux && dpkg-buildpackage -us -uc -b' > $work/build.log 2>&1" \
    --customize-hook='cp "$1"/build/*.deb "$1"/build/*.buildinfo '"$work/out/" \
    "$suite" /dev/null - < "$work/sources.list" > "$work/mmdebstrap.log" 2>&1
rc=$?
set -e
secs=$(( $(date +%s) - start ))
if ! chroot_mmdebstrap_check $rc "$work/mmdebstrap.log"; then
    [ ! -s "$work/build.log" ] || tail -60 "$work/build.log" >&2
    fail "the chroot build failed after ${secs}s (logs: $work/mmdebstrap.log, $work/build.log)"
fi
echo "ok: mmdebstrap $suite chroot, Build-Depends installed, package built in ${secs}s"
grep -q '^uid=1000(builder)' "$work/build.log" || fail "the build did not run as the user builder"
echo "ok: built as $(grep -m1 '^uid=' "$work/build.log")"
# Only what the buildd variant and the Build-Depends bring: none of glmux's own packages, nor
# libglvnd-dev or the other -dev packages glmux replaces (their headers must not be inputs).
for p in libglvnd-dev libgl-dev libegl-dev libgles-dev libglx-dev libopengl-dev libglvnd-core-dev; do
    ! awk -v p="$p" '$1 == p { found = 1 } END { exit !found }' "$work/installed.txt" ||
        fail "the chroot had $p, which glmux builds itself"
done
echo "ok: $(wc -l < "$work/installed.txt") packages in the chroot, none of the -dev packages glmux builds"
grep -E '^100% tests passed, 0 tests failed out of [1-9]' "$work/build.log" ||
    fail "the package build did not run the test suite to a pass (log: $work/build.log)"
grep -A200 'The following tests did not run' "$work/build.log" | grep 'Skipped' | sed 's/^/  skipped: /' || true
# Every binary package debian/control declares (no build profile leaves one out now).
for p in $(sed -n 's/^Package: //p' "$top/packaging/debian/control"); do
    ls "$work/out/${p}_"*.deb > /dev/null 2>&1 || fail "the chroot build made no $p"
done
echo "ok: the chroot build made every package: $(ls "$work/out" | grep -c '\.deb$') .debs"
echo "packaging_chroot passed in ${secs}s"
