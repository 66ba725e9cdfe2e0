#!/bin/bash
# SPDX-License-Identifier: MIT
# Packaging test: the packages are reproducible. Builds them a second time from the same commit
# and compares every .deb, -dbgsym included, and the source package (.dsc, .tar.xz) byte for
# byte with packaging_deb's. As reprotest
# would, the second build varies what a builder's machine varies: the build path (a scratch
# directory of another name and length), the time (it runs later; SOURCE_DATE_EPOCH is the
# commit's), umask 0002, the locale, the time zone, HOME, and the number of parallel jobs.
# Both builds run with DEB_BUILD_OPTIONS=nocheck (packaging_deb_check shows that the tests change
# no installed file). On a difference it
# names the files inside the packages that differ, and shows diffoscope's report when
# diffoscope is installed (not needed for the pass/fail result).
# Usage: check_reproducible.sh SOURCE_DIR FIRST_DEBS_DIR WORK_DIR
set -eu
top=$1 first=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v dpkg-buildpackage > /dev/null || { echo "SKIP: dpkg-buildpackage missing" >&2; exit 77; }
ls "$first"/*.deb > /dev/null 2>&1 || fail "no .debs from packaging_deb in $first"
rm -rf "$work"
tmp="$work/a-much-longer-temporary-directory-name"
mkdir -p "$tmp" "$work/home"
# packaging_deb builds with parallel=$(nproc); this one with one job more.
jobs=$(( $(nproc 2>/dev/null || echo 2) + 1 ))
(
    umask 0002
    export TMPDIR="$tmp" HOME="$work/home" TZ=Etc/GMT-14 LC_ALL=C.UTF-8 LANG=C.UTF-8
    export DEB_BUILD_OPTIONS="nocheck parallel=$jobs"
    exec "$top/packaging/build-deb.sh" "$work/debs"
) > "$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log" >&2; fail "the second build failed (log: $work/build.log)"; }
n=0 bad=0
# The source package: the tarball's file modes must not follow the umask (0022 first, 0002 here).
for f in "$first"/*.dsc "$first"/*.tar.xz; do
    name=$(basename "$f")
    [ -f "$work/debs/$name" ] || fail "the second build made no $name"
    n=$((n + 1))
    if ! cmp -s "$f" "$work/debs/$name"; then
        bad=$((bad + 1))
        echo "FAIL: $name differs:" >&2
        case $name in
            *.tar.xz) diff <(tar -tvJf "$f") <(tar -tvJf "$work/debs/$name") | head -20 >&2 || true ;;
            *) diff "$f" "$work/debs/$name" >&2 || true ;;
        esac
    fi
done
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
        diff -rq --no-dereference "$work/x/1" "$work/x/2" >&2 || true
        if command -v diffoscope > /dev/null; then
            diffoscope --text - "$deb" "$other" 2>&1 | head -100 >&2 || true
        fi
    fi
done
[ "$n" -gt 0 ] || fail "nothing compared"
[ "$bad" = 0 ] || fail "$bad of $n packages differ between two builds"
echo "ok: $n files (.debs, .dsc, .tar.xz) byte-identical between builds in two directories (umask, locale, time zone, HOME, jobs varied)"
