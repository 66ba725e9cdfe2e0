#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/demo.sh on a fresh Debian 12 system (labels "packaging" and "chroot": it downloads
# and installs a Debian system, minutes; `ctest -L chroot` runs it). mmdebstrap makes a minimal
# Debian 12 root (variant minbase: what the debian:12 container holds) with the host's apt
# sources and proxy; this tree is copied in and scripts/demo.sh runs there as a new user would
# run it, installing what it needs itself. Checks, on the real system:
#   * the demonstration ends with its verdict, "demo: all 4 demonstrations passed";
#   * no foreign architecture was added;
#   * it installed exactly the packages scripts/count-packages.sh predicts for a minimal
#     system, so that the count of the scripts_demo_packages test (the installer's desktop
#     system, under 60) is made the way the packages really go in.
# MODE "test" (scripts_demo_test_chroot) goes on as a new user goes on, in the same system:
#   * scripts/test.sh, no CI, passes (GLMUX_CONFIGS and the ctest arguments of
#     GLMUX_CHROOT_CTEST_ARGS narrow it for a quicker run by hand: the whole run takes an hour
#     on two cores), and still no foreign architecture was added;
#   * build/, which the demonstration built without xcb/present.h, has Present now;
#   * CI=true scripts/test.sh --deps (the cross rows' packages) adds i386, arm64 and armhf.
# Downloaded packages are kept in CACHE_DIR for the next run. Skips (77) without root or
# mmdebstrap, without Debian 12 sources, or when the archive cannot be reached.
#   check_demo_chroot.sh SOURCE_DIR WORK_DIR CACHE_DIR [demo|test]
set -eu
top=$(cd "$1" && pwd) work=$2 cache=$3 mode=${4:-demo}
. "$top/tests/common/chroot.sh"
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "skipped: $*"; exit 77; }
chroot_require
suite=bookworm
# The host's Debian 12 sources and the apt options that decide how it reaches them.
chroot_work "$suite"
configs=${GLMUX_CONFIGS:-default pure-c sanitize tsan minimal}
ctest_args=${GLMUX_CHROOT_CTEST_ARGS:-}
case $ctest_args in *"'"*) fail "GLMUX_CHROOT_CTEST_ARGS may not hold a single quote" ;; esac
predicted=$(sh "$top/scripts/count-packages.sh" minbase "$top/scripts/demo-packages" |
    sed -n 's/^minbase: \([0-9]*\) packages.*/\1/p')
[ -n "$predicted" ] || fail "scripts/count-packages.sh minbase gave no count"

# Hooks: the cached packages in; the tree in (no build trees, no .git); the packages before;
# the demonstration as root in the new system (its output and exit status to the host); the
# packages and foreign architectures after; the cache out.
start=$(date +%s)
set +e
mmdebstrap --mode=root --variant=minbase --aptopt="$work/apt.conf" --dpkgopt=force-unsafe-io \
    --setup-hook='mkdir -p "$1"/var/cache/apt/archives/' \
    --setup-hook="sync-in $cache /var/cache/apt/archives/" \
    --customize-hook='mkdir -p "$1/home/demo/glmux"' \
    --customize-hook="tar -C '$top' --exclude=./.git --exclude='./build*' -cf - . |
        tar -C \"\$1/home/demo/glmux\" -xf -" \
    --customize-hook="chroot \"\$1\" dpkg-query -W -f '\${Package}\n' | sort >'$work/before'" \
    --customize-hook="chroot \"\$1\" sh -c 'cd /home/demo/glmux && scripts/demo.sh' \
        >'$work/demo.log' 2>&1; echo \$? >'$work/demo.rc'" \
    --customize-hook="chroot \"\$1\" dpkg-query -W -f '\${Package}\n' | sort >'$work/after'" \
    --customize-hook="chroot \"\$1\" dpkg --print-foreign-architectures >'$work/foreign'" \
    --customize-hook="[ '$mode' != test ] || [ \"\$(cat '$work/demo.rc')\" != 0 ] ||
        chroot \"\$1\" sh -c 'cd /home/demo/glmux && GLMUX_CONFIGS=\"$configs\" scripts/test.sh $ctest_args' \
        >'$work/test.log' 2>&1; echo \$? >'$work/test.rc'" \
    --customize-hook="chroot \"\$1\" dpkg --print-foreign-architectures >'$work/foreign-test'" \
    --customize-hook="[ '$mode' != test ] || cat \"\$1/home/demo/glmux/build/build.ninja\" \
        \"\$1/home/demo/glmux/build/src/pixels/CMakeFiles/GLX_pixels.dir/flags.make\" 2>/dev/null |
        grep -c -- -DGLMUX_PIXELS_PRESENT=1 >'$work/present' || true" \
    --customize-hook="[ '$mode' != test ] || chroot \"\$1\" sh -c 'cd /home/demo/glmux &&
        CI=true scripts/test.sh --deps' >'$work/ci-deps.log' 2>&1; echo \$? >'$work/ci-deps.rc'" \
    --customize-hook="chroot \"\$1\" dpkg --print-foreign-architectures >'$work/foreign-ci'" \
    --customize-hook="sync-out /var/cache/apt/archives $cache" \
    "$suite" /dev/null - <"$work/sources.list" >"$work/mmdebstrap.log" 2>&1
rc=$?
set -e
chroot_ended $rc "$start"
tail -n 15 "$work/demo.log"
[ "$(cat "$work/demo.rc")" = 0 ] || fail "scripts/demo.sh exited $(cat "$work/demo.rc")"
verdict=$(tail -n 1 "$work/demo.log")
[ "$verdict" = "demo: all 4 demonstrations passed" ] || fail "the last line is '$verdict'"
echo "ok: scripts/demo.sh on a fresh minimal Debian 12 system: $verdict (${secs}s)"
[ ! -s "$work/foreign" ] || fail "foreign architectures added: $(tr '\n' ' ' <"$work/foreign")"
echo "ok: no foreign architecture"
installed=$(comm -13 "$work/before" "$work/after" | wc -l)
[ "$installed" = "$predicted" ] ||
    fail "the demonstration installed $installed packages; scripts/count-packages.sh minbase predicts $predicted"
echo "ok: $installed packages installed, as scripts/count-packages.sh minbase predicts"
if [ "$mode" = test ]; then
    tail -n 40 "$work/test.log"
    [ "$(cat "$work/test.rc")" = 0 ] || fail "scripts/test.sh after the demonstration exited $(cat "$work/test.rc") (log: $work/test.log)"
    echo "ok: scripts/test.sh passed after the demonstration (configurations: $configs${ctest_args:+; ctest $ctest_args})"
    [ ! -s "$work/foreign-test" ] ||
        fail "scripts/test.sh without CI added foreign architectures: $(tr '\n' ' ' <"$work/foreign-test")"
    echo "ok: still no foreign architecture"
    [ "$(cat "$work/present" 2>/dev/null || echo 0)" != 0 ] ||
        fail "build/ has no Present after scripts/test.sh installed xcb/present.h"
    echo "ok: build/, built by the demonstration without Present, has it now"
    [ "$(cat "$work/ci-deps.rc")" = 0 ] || { tail -n 20 "$work/ci-deps.log"; fail "CI=true scripts/test.sh --deps failed"; }
    for arch in i386 arm64 armhf; do
        grep -qxF "$arch" "$work/foreign-ci" || fail "CI=true scripts/test.sh --deps did not add $arch"
    done
    echo "ok: CI=true adds the cross rows' architectures: $(tr '\n' ' ' <"$work/foreign-ci")"
fi
rm -rf "$work"
