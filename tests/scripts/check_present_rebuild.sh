#!/bin/sh
# SPDX-License-Identifier: MIT
# A build configured before xcb/present.h was installed gets Present at its next build, as
# scripts/demo.sh (whose short package list lacks libxcb-present-dev) followed by
# scripts/test.sh (which installs it) needs. A tree of its own is configured with the check
# pointed at a header that does not exist yet (GLMUX_PRESENT_HEADER, an absolute path standing
# in for xcb/present.h), and the pixels vendor is built: without Present (its flags say
# GLMUX_PIXELS_PRESENT=0), with the configure warning. GLMUX_REQUIRE_PRESENT=ON then fails to configure, and says what to
# install. The header appears (a copy of the real one), and a plain `cmake --build`, with no
# configure asked for, configures again by itself and builds the vendor with Present; the
# build after that has no work to do (a positive result is kept).
#   check_present_rebuild.sh SOURCE_DIR WORK_DIR [GENERATOR]
set -u
top=$1 work=$2 generator=${3:-Ninja}
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "skipped: $*"; exit 77; }
[ -r /usr/include/xcb/present.h ] || skip "no /usr/include/xcb/present.h to copy (apt-get install libxcb-present-dev)"
rm -rf "$work"
# The stand-in's directory holds the other xcb headers (present.h includes them by quoted
# names), as /usr/include/xcb does before libxcb-present-dev is installed.
mkdir -p "$work/inc/xcb"
for h in /usr/include/xcb/*.h; do
    [ "$h" = /usr/include/xcb/present.h ] || cp "$h" "$work/inc/xcb/"
done
b=$work/build
stand_in=$work/inc/xcb/present.h
lib=$b/src/pixels/libGLX_glmux-pixels.so.0
jobs=$(nproc 2>/dev/null || echo 2)
# with_present: the pixels vendor is compiled with Present (GLMUX_PIXELS_PRESENT=1 in its
# flags, either generator's). The library's strings cannot tell: the X libraries' one loader
# (src/select/x11_libs.c) names libxcb-present.so.0 in every build.
with_present() {
    grep -qsF -- "-DGLMUX_PIXELS_PRESENT=1" "$b/build.ninja" \
        "$b/src/pixels/CMakeFiles/GLX_pixels.dir/flags.make"
}

cmake -S "$top" -B "$b" -G "$generator" -DBUILD_TESTING=OFF \
    -DGLMUX_PRESENT_HEADER="$stand_in" >"$work/configure1.log" 2>&1 ||
    { tail -n 20 "$work/configure1.log"; fail "the first configure failed"; }
grep -q "built without Present" "$work/configure1.log" ||
    fail "no warning that the vendor is built without Present: $(tail -n 5 "$work/configure1.log")"
cmake --build "$b" -j "$jobs" --target GLX_pixels >"$work/build1.log" 2>&1 ||
    { tail -n 20 "$work/build1.log"; fail "the first build failed"; }
[ -f "$lib" ] || fail "no $lib after the first build"
with_present && fail "built with Present though the header was missing"
echo "ok: configured without the header: built without Present, and the configure said so"

rc=0
cmake -S "$top" -B "$b" -DGLMUX_REQUIRE_PRESENT=ON >"$work/configure2.log" 2>&1 || rc=$?
[ "$rc" != 0 ] || fail "GLMUX_REQUIRE_PRESENT=ON configured without the header"
grep -q "libxcb-present-dev" "$work/configure2.log" ||
    fail "the refusal does not name the package: $(tail -n 8 "$work/configure2.log")"
cmake -S "$top" -B "$b" -DGLMUX_REQUIRE_PRESENT=OFF >"$work/configure3.log" 2>&1 ||
    { tail -n 20 "$work/configure3.log"; fail "configure with GLMUX_REQUIRE_PRESENT=OFF failed"; }
echo "ok: GLMUX_REQUIRE_PRESENT=ON refuses to configure without the header"


cp /usr/include/xcb/present.h "$stand_in"
cmake --build "$b" -j "$jobs" --target GLX_pixels >"$work/build2.log" 2>&1 ||
    { tail -n 20 "$work/build2.log"; fail "the build after the header appeared failed"; }
with_present ||
    fail "built again after the header appeared, still without Present (log: $work/build2.log)"
echo "ok: built again after the header appeared (no configure asked for): Present"
cmake --build "$b" -j "$jobs" --target GLX_pixels >"$work/build3.log" 2>&1 ||
    fail "the third build failed"
grep -qi "re-run\|rerun\|Configuring done" "$work/build3.log" &&
    fail "configured again though the header was found: $(cat "$work/build3.log")"
echo "ok: once found, the result is kept (the next build configures nothing)"
rm -rf "$work"
