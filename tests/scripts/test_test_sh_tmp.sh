#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/test.sh leaves /tmp as it found it: it runs every build and test with a TMPDIR of the
# suite's own and removes it at the end, and what a test left in it fails the run with a row of
# the table that names it. Against fake cmake and ctest, in a copy of scripts/ (so that no real
# build tree is touched), with an outer TMPDIR of this test's own standing for /tmp:
#   * a run that leaves nothing passes, and the outer TMPDIR is as it was (the suite's is gone);
#   * a run whose test leaves a file fails, the table's row names it, and it is removed too;
#   * a file another program writes into the outer TMPDIR meanwhile is not the suite's: the run
#     passes and the file stays.
#   test_test_sh_tmp.sh SOURCE_DIR WORK_DIR
set -u
src=$1 work=$2
fail() { echo "FAIL: $*"; echo "--- output:"; cat "$work/out"; exit 1; }
rm -rf "$work"
mkdir -p "$work/tree/scripts" "$work/tree/.ci" "$work/bin" "$work/tmp"
work=$(cd "$work" && pwd)
cp "$src/scripts/test.sh" "$src/scripts/test-summary.py" "$src/scripts/install-deps.sh" \
    "$work/tree/scripts/"
: >"$work/tree/.ci/packages"   # nothing to install
# cmake -S SRC -B BUILD ...: makes BUILD; cmake --build: nothing.
cat >"$work/bin/cmake" <<'FAKE'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = -B ] && mkdir -p "$2"; shift; done
exit 0
FAKE
# ctest --output-junit FILE ...: one passing test in FILE; FAKE_LEAVE names a file it leaves in
# its TMPDIR, FAKE_OTHER a file "another program" writes into the outer TMPDIR.
cat >"$work/bin/ctest" <<'FAKE'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = --output-junit ] && junit=$2; shift; done
mkdir -p "$(dirname "$junit")"
printf '<testsuite tests="1"><testcase name="t" status="run"/></testsuite>\n' >"$junit"
echo "$TMPDIR" >>"$FAKE_SEEN"
[ -z "${FAKE_LEAVE:-}" ] || mkdir -p "$TMPDIR/$FAKE_LEAVE"
[ -z "${FAKE_OTHER:-}" ] || : >"$FAKE_OTHER"
exit 0
FAKE
chmod +x "$work/bin/cmake" "$work/bin/ctest"
run() {   # expected exit status, then the environment
    want=$1
    shift
    : >"$work/seen"
    rc=0
    # Not the caller's CI rows: the copied tree has no .ci/packages-cross.
    env -u CI -u GLMUX_CROSS -u GLMUX_PACKAGING \
        PATH="$work/bin:$PATH" TMPDIR="$work/tmp" GLMUX_CONFIGS=default FAKE_SEEN="$work/seen" \
        "$@" sh "$work/tree/scripts/test.sh" >"$work/out" 2>&1 || rc=$?
    [ "$rc" = "$want" ] || fail "exit status $rc, expected $want"
}

run 0
seen=$(cat "$work/seen")
case $seen in
    "$work/tmp/glmux-test."*) ;;
    *) fail "the tests ran with TMPDIR '$seen', not a directory of the suite's own in $work/tmp" ;;
esac
[ -z "$(ls -A "$work/tmp")" ] || fail "the outer TMPDIR is not as it was: $(ls -A "$work/tmp")"
echo "ok: a run that leaves nothing passes, with a TMPDIR of its own that is gone after it"

run 1 FAKE_LEAVE=umockdev.AbC123
grep -q "^TMPDIR .*1 left behind (removed now): umockdev.AbC123$" "$work/out" ||
    fail "no row names what the test left"
grep -q "^[0-9:.]* \./umockdev.AbC123$" "$work/out" || fail "what was left is not listed with its time"
[ -z "$(ls -A "$work/tmp")" ] || fail "what the test left was not removed: $(ls -A "$work/tmp")"
echo "ok: a file left by a test fails the run, named in the table and listed, and is removed"

run 0 FAKE_OTHER="$work/tmp/another-program.log"
[ -e "$work/tmp/another-program.log" ] || fail "another program's file was removed"
[ "$(ls -A "$work/tmp")" = another-program.log ] ||
    fail "left in the outer TMPDIR: $(ls -A "$work/tmp")"
echo "ok: another program's file in /tmp meanwhile neither fails the run nor is touched"
rm -rf "$work"
echo "test.sh: /tmp left as it was found, 3 cases"
