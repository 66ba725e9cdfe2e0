#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/install-deps.sh against fake apt-get, dpkg and sleep (fake_tools.sh): nothing runs
# when everything is installed; while another apt holds the package lists' lock, apt-get update
# is tried again until it gets it, or until GLMUX_APT_LOCK_TIMEOUT with a clear message; any
# other apt error stops at once; a mirror in sync is tried again with growing pauses, and after
# GLMUX_APT_RETRIES tries the install goes on from the lists apt has, and if that install fails,
# it is tried once more with the failed lists' suite pinned to 100, and no more; --update
# refreshes the lists though nothing is missing; a failed install or update says why in plain
# words and removes the architectures it added; two lists go in one install; the
# demonstration's list and .ci/packages add no foreign architecture, .ci/packages-cross adds
# those it names, and scripts/test.sh --deps installs it only with CI=true or GLMUX_CROSS; a
# normal user's install through sudo still gets DEBIAN_FRONTEND=noninteractive.
#   test_install_deps.sh SOURCE_DIR WORK_DIR
set -u
src=$1
work=$2
. "$src/tests/scripts/fake_tools.sh"
fake_work "$work"
script=$src/scripts/install-deps.sh
printf 'gcc\n# a comment\ncmake  # another\n' >"$work/list"
run() {   # expected exit status, then the environment; output in $work/out
    want=$1
    shift
    rc=0
    env PATH="$FAKE_DIR:$PATH" "$@" sh "$script" "$work/list" >"$work/out" 2>&1 || rc=$?
    [ "$rc" = "$want" ] || { cat "$work/out"; fail "exit status $rc, expected $want"; }
}
count() { grep -c "^$1" "$FAKE_DIR/calls" || true; }
fake_broken_source() {   # fresh fake tools whose apt-get fails as a broken source makes it fail
    fake_tools "$FAKE_DIR"
    cat >>"$FAKE_DIR/apt-get" <<'FAKE'
echo "E: The repository 'http://example.invalid bookworm Release' does not have a Release file." >&2
exit 100
FAKE
}

# Everything installed: apt is not called.
fake_tools "$FAKE_DIR"
printf 'gcc\ncmake\n' >"$FAKE_DIR/installed"
run 0
[ "$(count apt-get)" = 0 ] || fail "apt-get ran though everything is installed"

# The lists' lock is held three times: three waits, then the update and the install.
fake_tools "$FAKE_DIR"
echo gcc >"$FAKE_DIR/installed"
echo 3 >"$FAKE_DIR/lock-failures"
run 0
[ "$(count 'apt-get .*update')" = 4 ] || fail "apt-get update ran $(count 'apt-get .*update') times, expected 4"
[ "$(count sleep)" = 3 ] || fail "slept $(count sleep) times, expected 3"
grep -q "^apt-get .*install -y -q --no-install-recommends  *cmake$" "$FAKE_DIR/calls" ||
    fail "the missing package was not installed"
[ "$(grep -c "waiting" "$work/out")" = 1 ] || fail "the wait was not said once: $(cat "$work/out")"

# The lock is never released: the script gives up after GLMUX_APT_LOCK_TIMEOUT seconds.
fake_tools "$FAKE_DIR"
echo 1000 >"$FAKE_DIR/lock-failures"
run 1 GLMUX_APT_LOCK_TIMEOUT=10
[ "$(count sleep)" = 2 ] || fail "slept $(count sleep) times for a 10 s limit, expected 2"
grep -q "another apt held the package lists for 10s" "$work/out" || fail "no clear message: $(cat "$work/out")"
[ "$(count 'apt-get .*install')" = 0 ] || fail "installed without the package lists"

# Another error (no network, a broken source) is not waited for.
fake_broken_source
run 1
[ "$(count sleep)" = 0 ] || fail "waited on an error that is not the lock"
grep -q "does not have a Release file" "$work/out" || fail "apt's error was not shown"

# A mirror in sync fails twice: two pauses (15 s, 30 s), then the update and the install.
fake_tools "$FAKE_DIR"
echo gcc >"$FAKE_DIR/installed"
echo 2 >"$FAKE_DIR/fetch-failures"
run 0
[ "$(count 'apt-get .*update')" = 3 ] || fail "apt-get update ran $(count 'apt-get .*update') times, expected 3"
[ "$(grep '^sleep' "$FAKE_DIR/calls" | tr '\n' ' ')" = "sleep 15 sleep 30 " ] ||
    fail "the pauses were not 15 s then 30 s"
grep -q "mirror answered badly (try 1 of 3)" "$work/out" || fail "the retry was not said: $(cat "$work/out")"
grep -q "^apt-get .*install -y" "$FAKE_DIR/calls" || fail "nothing installed after the mirror recovered"

# The mirror never recovers: after GLMUX_APT_RETRIES tries, a clear message and the install from
# the lists apt has.
fake_tools "$FAKE_DIR"
echo 1000 >"$FAKE_DIR/fetch-failures"
run 0 GLMUX_APT_RETRIES=3
[ "$(count 'apt-get .*update')" = 3 ] || fail "apt-get update ran $(count 'apt-get .*update') times, expected 3"
[ "$(count sleep)" = 2 ] || fail "slept $(count sleep) times for 3 tries, expected 2"
grep -q "could not be fetched after 3 tries" "$work/out" || fail "no clear message: $(cat "$work/out")"
grep -q "Mirror sync in progress" "$work/out" || fail "apt's error was not shown"
grep -q "^apt-get .*install -y" "$FAKE_DIR/calls" || fail "the install did not go on"

# The lists stay incomplete and the install fails (multiarch versions that do not fit): once
# more with the failed suite pinned below the others, which installs.
fake_tools "$FAKE_DIR"
echo 1000 >"$FAKE_DIR/fetch-failures"
echo 1 >"$FAKE_DIR/install-failures"
run 0 GLMUX_APT_RETRIES=1
[ "$(count 'apt-get .*install -y')" = 2 ] || fail "apt-get install ran $(count 'apt-get .*install -y') times, expected 2"
grep -q "^apt-get .*-o Dir::Etc::PreferencesParts=.* install -y" "$FAKE_DIR/calls" ||
    fail "the second install had no preferences of its own"
grep -qx "Pin: release n=bookworm-security" "$FAKE_DIR/calls" || fail "the failed suite was not pinned"
grep -qx "Pin-Priority: 100" "$FAKE_DIR/calls" || fail "the pin's priority is not 100"
grep -q "trying once more with bookworm-security pinned" "$work/out" || fail "the second try was not said: $(cat "$work/out")"
# ... and when that fails too, apt's error stands and nothing else is tried.
fake_tools "$FAKE_DIR"
echo 1000 >"$FAKE_DIR/fetch-failures"
echo 2 >"$FAKE_DIR/install-failures"
run 1 GLMUX_APT_RETRIES=1
[ "$(count 'apt-get .*install -y')" = 2 ] || fail "apt-get install ran $(count 'apt-get .*install -y') times, expected 2"
grep -q "held broken packages" "$work/out" || fail "apt's error was not shown"
grep -q "versions do not fit together" "$work/out" || fail "not said in plain words: $(cat "$work/out")"
# Complete lists and a failing install: no second try.
fake_tools "$FAKE_DIR"
echo 1 >"$FAKE_DIR/install-failures"
run 1
[ "$(count 'apt-get .*install -y')" = 1 ] || fail "an install with complete lists was tried again"
grep -q "could not install: gcc cmake" "$work/out" || fail "the failed packages were not named: $(cat "$work/out")"
[ "$(count 'dpkg --remove-architecture')" = 0 ] || fail "removed an architecture it did not add"

# An odd GLMUX_APT_RETRIES is said and replaced by the default.
fake_tools "$FAKE_DIR"
run 0 GLMUX_APT_RETRIES=many
grep -q "GLMUX_APT_RETRIES=many is not a number" "$work/out" || fail "the odd value was not said"

# --update with everything installed: the lists are refreshed, nothing is installed.
fake_tools "$FAKE_DIR"
printf 'gcc\ncmake\n' >"$FAKE_DIR/installed"
rc=0
env PATH="$FAKE_DIR:$PATH" sh "$script" --update "$work/list" >"$work/out" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$work/out"; fail "--update exited $rc"; }
[ "$(count 'apt-get .*update')" = 1 ] || fail "--update did not update the lists"
[ "$(count 'apt-get .*install')" = 0 ] || fail "--update installed though nothing is missing"
rc=0
env PATH="$FAKE_DIR:$PATH" sh "$script" --bogus >"$work/out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "an unknown option exited $rc, expected 2"
grep -q "unknown option --bogus" "$work/out" || fail "an unknown option was not said: $(cat "$work/out")"

# A list that adds an architecture and whose install fails: the architecture is removed again,
# and the message says why and that the system is as it was. The same when the package lists
# cannot be updated at all.
printf 'gcc\nlibx11-dev:i386\n' >"$work/list"
fake_tools "$FAKE_DIR"
echo 1 >"$FAKE_DIR/install-failures"
run 1
grep -qx "dpkg --add-architecture i386" "$FAKE_DIR/calls" || fail "i386 was not added"
grep -qx "dpkg --remove-architecture i386" "$FAKE_DIR/calls" || fail "i386 was left added after the failed install"
grep -q "removed again; the system is as it was" "$work/out" || fail "the undo was not said: $(cat "$work/out")"
fake_broken_source
run 1
grep -qx "dpkg --remove-architecture i386" "$FAKE_DIR/calls" || fail "i386 was left added after the failed update"
[ "$(count 'apt-get .*install')" = 0 ] || fail "installed after a failed update"
# ... and one that succeeds keeps it.
fake_tools "$FAKE_DIR"
run 0
[ "$(count 'dpkg --remove-architecture')" = 0 ] || fail "removed the architecture of a good install"

# Two lists at once: the packages of both in one install.
fake_tools "$FAKE_DIR"
printf 'gcc\n' >"$work/list"
printf 'cmake\n' >"$work/list2"
env PATH="$FAKE_DIR:$PATH" sh "$script" "$work/list" "$work/list2" >"$work/out" 2>&1 ||
    fail "two lists did not install: $(cat "$work/out")"
grep -q "^apt-get .*install -y -q --no-install-recommends  *gcc cmake$" "$FAKE_DIR/calls" ||
    fail "the two lists were not installed together"

# The demonstration's list and .ci/packages add no architecture; .ci/packages-cross adds those it
# names; scripts/test.sh installs .ci/packages-cross only with CI=true or GLMUX_CROSS.
fake_tools "$FAKE_DIR"
env PATH="$FAKE_DIR:$PATH" sh "$script" "$src/scripts/demo-packages" >"$work/out" 2>&1 ||
    fail "the demonstration's list did not install: $(cat "$work/out")"
sed 's/#.*//' "$src/scripts/demo-packages" | grep -q ':' && fail "scripts/demo-packages names a NAME:ARCH package"
[ "$(count 'dpkg --add-architecture')" = 0 ] || fail "the demonstration's list added an architecture"
sed 's/#.*//' "$src/.ci/packages" | grep -q ':' && fail ".ci/packages names a NAME:ARCH package"
fake_tools "$FAKE_DIR"
env PATH="$FAKE_DIR:$PATH" sh "$script" >"$work/out" 2>&1 || fail "the default list did not install"
[ "$(count 'dpkg --add-architecture')" = 0 ] || fail "the default list (.ci/packages) added an architecture"
fake_tools "$FAKE_DIR"
env PATH="$FAKE_DIR:$PATH" sh "$script" "$src/.ci/packages" "$src/.ci/packages-cross" >"$work/out" 2>&1 ||
    fail "the cross list did not install"
for arch in i386 arm64 armhf; do
    grep -qx "dpkg --add-architecture $arch" "$FAKE_DIR/calls" || fail "the cross list did not add $arch"
done
for ci in "" "CI=true" "GLMUX_CROSS=all"; do
    fake_tools "$FAKE_DIR"
    env -u CI -u GLMUX_CROSS PATH="$FAKE_DIR:$PATH" $ci sh "$src/scripts/test.sh" --deps \
        >"$work/out" 2>&1 || fail "test.sh --deps ($ci) failed: $(cat "$work/out")"
    case $ci in
        "") [ "$(count 'dpkg --add-architecture')" = 0 ] ||
                fail "test.sh without CI added an architecture: $(grep add-arch "$FAKE_DIR/calls")"
            grep -q "qemu-user" "$FAKE_DIR/calls" && fail "test.sh without CI asked for the cross packages" ;;
        *) grep -qx "dpkg --add-architecture i386" "$FAKE_DIR/calls" ||
                fail "test.sh with $ci did not install the cross packages" ;;
    esac
done
# A normal user: the install goes through sudo, which resets the environment, and apt-get still
# gets DEBIAN_FRONTEND=noninteractive (else debconf warns that its Dialog frontend cannot start).
fake_tools "$FAKE_DIR"
printf '#!/bin/sh\necho "id $*" >>"%s/calls"\necho 1000\n' "$FAKE_DIR" >"$FAKE_DIR/id"
chmod +x "$FAKE_DIR/id"
printf 'gcc\n' >"$work/list"
run 0
grep -q "^sudo env .*apt-get .*install" "$FAKE_DIR/calls" || fail "a normal user's install did not go through sudo"
[ "$(cat "$FAKE_DIR/frontend")" = noninteractive ] ||
    fail "apt-get install under sudo got DEBIAN_FRONTEND=$(cat "$FAKE_DIR/frontend"), not noninteractive"
echo "install-deps.sh: 20 cases as expected"
