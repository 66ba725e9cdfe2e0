#!/bin/sh
# SPDX-License-Identifier: MIT
# The way back from glmux's packages (apt install ./out/deb/*.deb) to Debian's libglvnd, for the
# archive versions this system has. glmux's packages take the names of libglvnd's (libglvnd0,
# libgl1, libegl1, ... libglvnd-dev: each installed at a version with "+glmux") at a version
# that sorts above Debian's, so `apt-get install --reinstall libglvnd0` keeps glmux's. The way
# back is a downgrade of each of them to the highest version apt knows from an archive
# (`apt-cache madison`; every architecture installed, libglvnd0:i386 too), and the purge of the
# packages that are only glmux's (each with glmux in its name: glmux-tools, glmux-layers, ...;
# the -dbgsym packages of out/deb), in one apt transaction: `apt-get install --allow-downgrades
# --purge NAME=VERSION... NAME-...` (a replaced library's -dbgsym depends on its exact version,
# so a purge after the downgrade would not find it). Prints the command; --run runs it (with
# sudo when not root), then checks that no glmux package is left. Exits 1 and runs nothing
# when apt knows no archive version of a package (apt-get update, and Debian 12's sources, are
# needed); 0 with a message when no glmux package is installed.
#   scripts/uninstall-packages.sh [--run]
set -eu
run=false
case ${1:-} in
    --run) run=true ;;
    '') ;;
    -h|--help) sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "uninstall-packages: unknown argument $1 (try --help)" >&2; exit 2 ;;
esac
native=$(dpkg --print-architecture)
downgrade="" purge="" unknown=""
# Every package dpkg knows, with its architecture, version and state.
list=$(dpkg-query -W -f '${Package} ${Architecture} ${Version} ${db:Status-Abbrev}\n')
while read -r pkg arch version state; do
    [ -n "$pkg" ] || continue
    name=$pkg
    [ "$arch" = "$native" ] || [ "$arch" = all ] || name=$pkg:$arch
    # glmux's own packages: no archive has them (a new one, glmux-layers say, needs no list).
    case $pkg in
        *glmux*) case $state in un*|pn*) ;; *) purge="$purge $name" ;; esac
                 continue ;;
    esac
    case $version in *+glmux*) ;; *) continue ;; esac
    case $state in ii*) ;; *) continue ;; esac
    # The debug symbols of glmux's libraries (out/deb has them too): Debian's are in another
    # archive (debian-debug), so they go.
    case $pkg in *-dbgsym) purge="$purge $name"; continue ;; esac
    # The highest version an archive has (madison lists the sources' versions, never dpkg's
    # status), leaving glmux's own out (a local repository of them).
    best=""
    for v in $(apt-cache madison "$name" 2>/dev/null |
               awk -F'|' '{ gsub(/ /, "", $2); print $2 }'); do
        case $v in *+glmux*) continue ;; esac
        if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then best=$v; fi
    done
    if [ -n "$best" ]; then downgrade="$downgrade $name=$best"
    else unknown="$unknown $name"; fi
done <<EOF
$list
EOF
if [ -n "$unknown" ]; then
    echo "uninstall-packages: apt knows no Debian version of:$unknown" >&2
    echo "uninstall-packages: run apt-get update, with Debian 12's sources (bookworm main)" \
         "configured, then this again; nothing was changed" >&2
    exit 1
fi
if [ -z "$downgrade" ] && [ -z "$purge" ]; then
    echo "uninstall-packages: no glmux package is installed; nothing to do"
    exit 0
fi
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
removals=$(for p in $purge; do printf ' %s-' "$p"; done)
echo "# Back to Debian's libglvnd: the archive's versions, and glmux's own packages purged."
echo "${sudo:+sudo }apt-get install --allow-downgrades --purge$downgrade$removals"
[ "$run" = true ] || exit 0
# DEBIAN_FRONTEND through env after sudo, whose env_reset would drop it.
# shellcheck disable=SC2086
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --allow-downgrades --purge $downgrade \
    $removals
left=$(dpkg-query -W -f '${Package} ${Version} ${db:Status-Abbrev}\n' | awk '
    $3 ~ /^(un|pn)/ { next }
    $2 ~ /\+glmux/ || $1 ~ /glmux/ { printf "%s ", $1 }')
if [ -n "$left" ]; then
    echo "uninstall-packages: glmux packages are still installed: $left" >&2
    exit 1
fi
echo "uninstall-packages: back to Debian's libglvnd; no glmux package is installed"
