#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/demo.sh with fake cmake, apt and xvfb-run (fake_tools.sh) and fake demonstration
# programs: it installs its own list only, configures a new build tree with Ninja and without
# the tests, builds an existing tree with the generator it was configured with, runs the GLX
# program before its EGL port (in xvfb-run without DISPLAY) and ends with one verdict line.
#   test_demo_sh.sh SOURCE_DIR WORK_DIR
set -u
src=$1
work=$2
. "$src/tests/scripts/fake_tools.sh"
fake_work "$work"
build=$work/build

setup() {   # a fresh fake machine with every demonstration package installed
    fake_tools "$FAKE_DIR"
    sed 's/#.*//' "$src/scripts/demo-packages" | tr -s ' \n' '\n' >"$FAKE_DIR/installed"
    rm -rf "$build"
    mkdir -p "$build/demo"
    for name in dispatch egl glx egl-x11; do
        printf '#!/bin/sh\necho "running %s"\n' "$name" >"$build/demo/glmux-demo-$name"
        chmod +x "$build/demo/glmux-demo-$name"
    done
}
demo() {   # expected exit status; output in $work/out
    rc=0
    env -u DISPLAY PATH="$FAKE_DIR:$PATH" sh "$src/scripts/demo.sh" "$build" >"$work/out" 2>&1 ||
        rc=$?
    [ "$rc" = "$1" ] || { cat "$work/out"; fail "exit status $rc, expected $1"; }
}

# A new tree: Ninja, no tests; the four programs in order, the X ones in xvfb-run.
setup
demo 0
grep -qxF "cmake -S $src -B $build -G Ninja -DBUILD_TESTING=OFF" "$FAKE_DIR/calls" ||
    fail "a new tree was not configured with Ninja and without the tests"
order=$(grep '^running' "$work/out" | tr '\n' ' ')
[ "$order" = "running dispatch running egl running glx running egl-x11 " ] ||
    fail "the programs ran in the order: $order"
[ "$(grep -c '^xvfb-run' "$FAKE_DIR/calls")" = 2 ] || fail "the X programs did not run in xvfb-run"
[ "$(tail -n 1 "$work/out")" = "demo: all 4 demonstrations passed" ] ||
    fail "the last line is: $(tail -n 1 "$work/out")"
grep -q "^apt-get" "$FAKE_DIR/calls" && fail "apt ran though every package is installed"

# A tree configured with Unix Makefiles is built with them (no -G that CMake would refuse).
setup
printf 'CMAKE_GENERATOR:INTERNAL=Unix Makefiles\n' >"$build/CMakeCache.txt"
demo 0
grep -qxF "cmake -S $src -B $build" "$FAKE_DIR/calls" ||
    fail "an existing tree was configured again with other options: $(grep '^cmake -S' "$FAKE_DIR/calls")"

# A program that fails and one that was not built: the verdict names the failure.
setup
printf '#!/bin/sh\necho "running glx"\nexit 3\n' >"$build/demo/glmux-demo-glx"
rm "$build/demo/glmux-demo-egl-x11"
demo 1
[ "$(tail -n 1 "$work/out")" = "demo: FAILED: glmux-demo-glx (exit status 3); 2 passed" ] ||
    fail "the last line is: $(tail -n 1 "$work/out")"

# Only the demonstration's list is asked about (never .ci/packages' cross compilers).
grep -q "dpkg-query.* qemu-user" "$FAKE_DIR/calls" && fail "the demonstration looked at the CI list"
echo "demo.sh: 3 runs as expected"
