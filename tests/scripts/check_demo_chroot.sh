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
# Downloaded packages are kept in CACHE_DIR for the next run. Skips (77) without root or
# mmdebstrap, without Debian 12 sources, or when the archive cannot be reached.
#   check_demo_chroot.sh SOURCE_DIR WORK_DIR CACHE_DIR
set -eu
top=$(cd "$1" && pwd) work=$2 cache=$3
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "skipped: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "mmdebstrap's root mode needs root"
command -v mmdebstrap >/dev/null || skip "mmdebstrap is not installed (apt-get install mmdebstrap)"
suite=bookworm
rm -rf "$work"
mkdir -p "$work" "$cache"
work=$(cd "$work" && pwd) cache=$(cd "$cache" && pwd)

# The host's Debian 12 sources and the apt options that decide how it reaches them.
apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' 'Created-By: Packages' \
    "Architecture: $(dpkg --print-architecture)" | awk -v s="$suite" '$2 ~ "^" s "([-/]|$)"' |
    sort -u | sed 's/^/deb /' >"$work/sources.list"
[ -s "$work/sources.list" ] || skip "the host's apt has no $suite sources"
apt-config dump | grep -E '^Acquire::(https?|ftp)::Proxy|^Acquire::Check-(Valid-Until|Date)|^Acquire::Retries' \
    >"$work/apt.conf" || true
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
    --customize-hook="sync-out /var/cache/apt/archives $cache" \
    "$suite" /dev/null - <"$work/sources.list" >"$work/mmdebstrap.log" 2>&1
rc=$?
set -e
secs=$(($(date +%s) - start))
if [ $rc != 0 ]; then
    if grep -qE 'Failed to fetch|Temporary failure resolving|Could not resolve|Unable to connect' \
        "$work/mmdebstrap.log"; then
        tail -n 5 "$work/mmdebstrap.log"
        skip "the Debian archive cannot be reached from here (log: $work/mmdebstrap.log)"
    fi
    tail -n 20 "$work/mmdebstrap.log"
    fail "mmdebstrap failed after ${secs}s (log: $work/mmdebstrap.log)"
fi
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
rm -rf "$work"
