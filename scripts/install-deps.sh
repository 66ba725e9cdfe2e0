#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages listed in .ci/packages that are missing (needs root or sudo).
#   scripts/install-deps.sh
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
missing=""
for pkg in $(sed 's/#.*//' "$top/.ci/packages"); do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    case "$status" in
        *" installed") ;;
        *) missing="$missing $pkg" ;;
    esac
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
$sudo apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
