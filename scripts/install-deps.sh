#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages of a list that are missing (needs root or sudo): by default
# .ci/packages, everything the build, the tests and CI need; scripts/demo.sh passes its own
# short list (scripts/demo-packages). A package named NAME:ARCH is another architecture's
# (multiarch): that architecture is added with dpkg --add-architecture first, and the package
# lists are updated. A list without NAME:ARCH entries adds no architecture. Idempotent: nothing
# happens when everything is installed, unless --update asks for fresh package lists anyway.
# When another apt or dpkg holds its locks (the package lists while it updates them, dpkg's
# while it installs), this waits for it, up to GLMUX_APT_LOCK_TIMEOUT seconds (600). When a
# mirror answers badly for a while (a sync in progress: "File has unexpected size", "Hash Sum
# mismatch", a failed fetch), the update is tried again, GLMUX_APT_RETRIES times (3) with
# growing pauses; if the lists still cannot all be fetched, this says so and installs from
# what apt has. When that install fails (a suite's list missing for one architecture leaves its
# packages at other versions than the native ones, which multiarch forbids), it is tried once
# more with the suites whose lists failed pinned below the others (priority 100) for this one
# install: the versions that every architecture has. A later apt-get upgrade brings the rest.
# If that fails too, apt's error stands.
#   scripts/install-deps.sh [--update] [LIST]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
update=false
case ${1:-} in
    --update) update=true; shift ;;
    -h|--help) sed -n '3,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "install-deps: unknown option $1 (try --help)" >&2; exit 2 ;;
esac
list=${1:-$top/.ci/packages}
timeout=${GLMUX_APT_LOCK_TIMEOUT:-600}
retries=${GLMUX_APT_RETRIES:-3}
case $retries in ''|*[!0-9]*) echo "install-deps: GLMUX_APT_RETRIES=$retries is not a number; using 3" >&2
                              retries=3 ;; esac
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
[ -z "$missing" ] && [ "$update" = false ] && exit 0
[ -z "$missing" ] || echo "installing:$missing"
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
# unattended upgrade, a second install), try again every 5 seconds. A mirror caught in a sync
# answers with index files of the wrong size or hash for a few minutes: try again after 15, 30,
# 60, ... seconds. Any other error (no Release file, a broken sources.list) stops at once.
waited=0
tries=1
pause=15
partial=false
log=$(mktemp)
pins=$(mktemp -d)
trap 'rm -rf "$log" "$pins"' EXIT
until $sudo env LC_ALL=C apt-get -o DPkg::Lock::Timeout="$timeout" -o Acquire::Retries=3 \
        update -qq >"$log" 2>&1; do
    if grep -q "Could not get lock" "$log" && [ "$waited" -lt "$timeout" ]; then
        [ "$waited" -gt 0 ] || echo "install-deps: another apt holds the package lists; waiting" \
                                    "(up to ${timeout}s)"
        sleep 5
        waited=$((waited + 5))
    elif grep -q "Could not get lock" "$log"; then
        cat "$log" >&2
        echo "install-deps: another apt held the package lists for ${waited}s; try again" \
             "when it has finished" >&2
        exit 1
    elif grep -Eq "Failed to fetch|Hash Sum mismatch|unexpected size|Mirror sync" "$log" &&
         ! grep -q "does not have a Release file" "$log"; then
        if [ "$tries" -ge "$retries" ]; then
            cat "$log" >&2
            echo "install-deps: some package lists could not be fetched after $tries tries;" \
                 "installing from the lists apt has" >&2
            partial=true
            break
        fi
        grep -E "^E: " "$log" | head -n 2 >&2
        echo "install-deps: a mirror answered badly (try $tries of $retries); trying again" \
             "in ${pause}s" >&2
        sleep "$pause"
        tries=$((tries + 1))
        pause=$((pause * 2))
    else
        cat "$log" >&2
        exit 1
    fi
done
cat "$log"
[ -n "$missing" ] || exit 0
apt_install() {   # apt-get install of the missing packages; extra apt options first
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout="$timeout" "$@" \
        install -y -qq --no-install-recommends $missing
}
[ "$partial" = true ] || { apt_install; exit; }
apt_install && exit 0
# The suites of the lists that failed ("Failed to fetch http://.../dists/SUITE/..."), each
# pinned to 100 in a preferences file of this install only.
suites=$(sed -n 's|.*Failed to fetch [^ ]*/dists/\([^/ ]*\)/.*|\1|p' "$log" | sort -u | tr '\n' ' ')
[ -n "$suites" ] || exit 1
for suite in $suites; do
    printf 'Package: *\nPin: release n=%s\nPin-Priority: 100\n\n' "$suite"
done >"$pins/glmux-install-deps.pref"
echo "install-deps: the install failed with incomplete package lists; trying once more with" \
     "${suites% } pinned below the other suites for this install" >&2
apt_install -o Dir::Etc::PreferencesParts="$pins"
