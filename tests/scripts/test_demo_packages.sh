#!/bin/sh
# SPDX-License-Identifier: MIT
# The demo stays cheap to try: on a fresh Debian 12 machine (the installer's default system)
# scripts/demo.sh installs fewer than 60 packages. scripts/count-packages.sh counts them with
# apt-get --simulate against this machine's Debian 12 package lists; skipped (77) elsewhere or
# without the lists (apt-get update fills them).
#   test_demo_packages.sh SOURCE_DIR
set -u
src=$1
limit=60
. /etc/os-release 2>/dev/null || true
if [ "${ID:-}" != debian ] || [ "${VERSION_ID:-}" != 12 ]; then
    echo "skipped: not Debian 12 (${PRETTY_NAME:-unknown system}); the count is of Debian 12's packages"
    exit 77
fi
if ! apt-cache show task-gnome-desktop >/dev/null 2>&1; then
    echo "skipped: apt knows no Debian 12 package lists here (apt-get update fills them)"
    exit 77
fi
out=$(sh "$src/scripts/count-packages.sh" -v desktop "$src/scripts/demo-packages") || {
    echo "FAIL: count-packages.sh failed: $out"; exit 1; }
echo "$out"
n=$(echo "$out" | sed -n 's/^desktop: \([0-9]*\) packages.*/\1/p')
[ -n "$n" ] || { echo "FAIL: no count in the output"; exit 1; }
if [ "$n" -ge "$limit" ]; then
    echo "FAIL: scripts/demo.sh installs $n packages on a fresh Debian 12 desktop; fewer than $limit wanted"
    exit 1
fi
echo "scripts/demo.sh installs $n packages (< $limit) on a fresh Debian 12 desktop"
