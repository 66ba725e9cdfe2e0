#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages of a list that are missing (needs root or sudo): by default
# .ci/packages, everything the build, the tests and CI need; scripts/demo.sh passes its own
# short list (scripts/demo-packages). A package named NAME:ARCH is another architecture's
# (multiarch): that architecture is added with dpkg --add-architecture first, and the package
# lists are updated. A list without NAME:ARCH entries adds no architecture. Idempotent: nothing
# happens when everything is installed. When another apt or dpkg holds its locks (the package
# lists while it updates them, dpkg's while it installs), this waits for it, up to
# GLMUX_APT_LOCK_TIMEOUT seconds (600).
#   scripts/install-deps.sh [LIST]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
list=${1:-$top/.ci/packages}
timeout=${GLMUX_APT_LOCK_TIMEOUT:-600}
[ -r "$list" ] || { echo "install-deps: cannot read the package list $list" >&2; exit 2; }
missing=""
arches=""
for pkg in $(sed 's/#.*//' "$list"); do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    case "$status" in
        *" installed") ;;
        *) missing="$missing $pkg"
           case $pkg in
               *:*) arch=${pkg#*:}
                    case " $arches " in *" $arch "*) ;; *) arches="$arches $arch" ;; esac ;;
           esac ;;
    esac
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
native=$(dpkg --print-architecture)
for arch in $arches; do
    [ "$arch" = "$native" ] && continue
    if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
        echo "adding architecture $arch (multiarch)"
        $sudo dpkg --add-architecture "$arch"
    fi
done

# apt-get update takes the package lists' lock (/var/lib/apt/lists/lock) without waiting, and
# DPkg::Lock::Timeout covers only dpkg's lock: while another apt holds the lists' lock (an
# unattended upgrade, a second install), try again every 5 seconds.
waited=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
until $sudo env LC_ALL=C apt-get -o DPkg::Lock::Timeout="$timeout" update -qq >"$log" 2>&1; do
    if ! grep -q "Could not get lock" "$log" || [ "$waited" -ge "$timeout" ]; then
        cat "$log" >&2
        [ "$waited" -lt "$timeout" ] ||
            echo "install-deps: another apt held the package lists for ${waited}s; try again" \
                 "when it has finished" >&2
        exit 1
    fi
    [ "$waited" -gt 0 ] || echo "install-deps: another apt holds the package lists; waiting" \
                                "(up to ${timeout}s)"
    sleep 5
    waited=$((waited + 5))
done
cat "$log"
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout="$timeout" install -y -qq \
    --no-install-recommends $missing
