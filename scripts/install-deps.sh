#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages listed in .ci/packages that are missing (needs root or sudo).
# A package named NAME:ARCH is another architecture's (multiarch): that architecture is added
# with dpkg --add-architecture first, and the package lists are updated. Idempotent: nothing
# happens when everything is installed.
#   scripts/install-deps.sh
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
missing=""
arches=""
for pkg in $(sed 's/#.*//' "$top/.ci/packages"); do
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
$sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
    --no-install-recommends $missing
