#!/bin/bash
# SPDX-License-Identifier: MIT
# Packaging test: the .debs are reproducible. Builds them a second time from the same commit,
# in a scratch directory of another name and length (packaging/build-deb.sh under another
# TMPDIR; DEB_BUILD_OPTIONS=nocheck, which changes no installed file), and compares every
# .deb, -dbgsym included, byte for byte with packaging_deb's. On a difference it names the
# files inside the packages that differ.
# Usage: check_reproducible.sh SOURCE_DIR FIRST_DEBS_DIR WORK_DIR
set -eu
top=$1 first=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v dpkg-buildpackage > /dev/null || { echo "SKIP: dpkg-buildpackage missing" >&2; exit 77; }
ls "$first"/*.deb > /dev/null 2>&1 || fail "no .debs from packaging_deb in $first"
rm -rf "$work"
mkdir -p "$work/a-much-longer-temporary-directory-name"
TMPDIR="$work/a-much-longer-temporary-directory-name" DEB_BUILD_OPTIONS=nocheck \
    "$top/packaging/build-deb.sh" "$work/debs" > "$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log" >&2; fail "the second build failed (log: $work/build.log)"; }
n=0 bad=0
for deb in "$first"/*.deb; do
    name=$(basename "$deb")
    other="$work/debs/$name"
    [ -f "$other" ] || fail "the second build made no $name"
    n=$((n + 1))
    if ! cmp -s "$deb" "$other"; then
        bad=$((bad + 1))
        rm -rf "$work/x" && mkdir -p "$work/x/1" "$work/x/2"
        dpkg-deb -R "$deb" "$work/x/1" && dpkg-deb -R "$other" "$work/x/2"
        echo "FAIL: $name differs:" >&2
        diff -rq "$work/x/1" "$work/x/2" >&2 || true
    fi
done
[ "$n" -gt 0 ] || fail "nothing compared"
[ "$bad" = 0 ] || fail "$bad of $n packages differ between two builds"
echo "ok: $n .debs byte-identical between builds in two directories"
