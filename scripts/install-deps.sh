#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages of one or more lists that are missing (needs root or sudo): by
# default .ci/packages, everything the build and the tests of this machine's architecture need;
# scripts/test.sh adds .ci/packages-cross (the other architectures' rows) with CI=true or
# GLMUX_CROSS set; scripts/demo.sh passes its own short list (scripts/demo-packages). A package
# named NAME:ARCH is another architecture's (multiarch): that architecture is added with dpkg
# --add-architecture first, and the package lists are updated. A list without NAME:ARCH entries
# adds no architecture. When the install fails, the architectures this run added are removed
# again, and what went wrong is said in plain words before apt's own lines: the system is left
# as it was. Idempotent: nothing happens when everything is installed, unless --update asks for
# fresh package lists anyway.
# When another apt or dpkg holds its locks (the package lists while it updates them, dpkg's
# while it installs), this waits for it, up to GLMUX_APT_LOCK_TIMEOUT seconds (600). When a
# mirror answers badly for a while (a sync in progress: "File has unexpected size", "Hash Sum
# mismatch", a failed fetch), the update is tried again, GLMUX_APT_RETRIES times (3) with
# growing pauses; if the lists still cannot all be fetched, this says so and installs from
# what apt has. When that install fails (a suite's list missing for one architecture leaves its
# packages at other versions than the native ones, which multiarch forbids), it is tried once
# more with the suites whose lists failed pinned below the others (priority 100) for this one
# install: the versions that every architecture has. A later apt-get upgrade brings the rest.
# If that fails too (on an up-to-date system the installed packages come from the suite now
# pinned), the architectures are removed again and the message says to try later.
#   scripts/install-deps.sh [--update] [LIST...]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
update=false
case ${1:-} in
    --update) update=true; shift ;;
    -h|--help) sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "install-deps: unknown option $1 (try --help)" >&2; exit 2 ;;
esac
[ $# -gt 0 ] || set -- "$top/.ci/packages"
timeout=${GLMUX_APT_LOCK_TIMEOUT:-600}
retries=${GLMUX_APT_RETRIES:-3}
case $retries in ''|*[!0-9]*) echo "install-deps: GLMUX_APT_RETRIES=$retries is not a number; using 3" >&2
                              retries=3 ;; esac
for list in "$@"; do
    [ -r "$list" ] || { echo "install-deps: cannot read the package list $list" >&2; exit 2; }
done
missing=""
arches=""
for pkg in $(cat "$@" | sed 's/#.*//'); do
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
added=""
for arch in $arches; do
    [ "$arch" = "$native" ] && continue
    if ! dpkg --print-foreign-architectures | grep -qxF "$arch"; then
        echo "adding architecture $arch (multiarch: the list names packages NAME:$arch)"
        $sudo dpkg --add-architecture "$arch"
        added="$added $arch"
    fi
done
# give_up MESSAGE...: the architectures this run added are removed again (none of their
# packages got in), the message is said, exit 1.
give_up() {
    undone=""
    for arch in $added; do
        if $sudo dpkg --remove-architecture "$arch" 2>/dev/null; then
            undone="$undone $arch"
        else
            echo "install-deps: could not remove the architecture $arch again (packages of it" \
                 "are installed: dpkg --get-selections '*:$arch')" >&2
        fi
    done
    for line in "$@"; do echo "install-deps: $line" >&2; done
    [ -z "$undone" ] || echo "install-deps: the architecture(s)$undone added for this install" \
        "were removed again; the system is as it was" >&2
    exit 1
}

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
        give_up "another apt held the package lists for ${waited}s; try again when it has" \
                "finished"
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
        give_up "apt-get update failed (above: apt's words); nothing was installed"
    fi
done
cat "$log"
[ -n "$missing" ] || exit 0
ilog=$(mktemp)
trap 'rm -rf "$log" "$pins" "$ilog" "$ilog.rc"' EXIT
apt_install() {   # apt-get install of the missing packages; extra apt options first
    # -q, not -qq: when apt cannot resolve, its lines say which package needs what.
    # Shown as it goes, and kept in $ilog for explain.
    # shellcheck disable=SC2086
    # The variables go through env after sudo: sudo's env_reset drops DEBIAN_FRONTEND set before
    # it, and debconf then warns that it cannot start its Dialog frontend (or, with a terminal,
    # would stop at a package's question).
    { $sudo env DEBIAN_FRONTEND=noninteractive LC_ALL=C apt-get \
          -o DPkg::Lock::Timeout="$timeout" "$@" install -y -q --no-install-recommends $missing \
          2>&1; echo $? >"$ilog.rc"; } | tee "$ilog"
    return "$(cat "$ilog.rc")"
}
# explain: apt's failed install, in plain words (its own lines were shown above).
explain() {
    if grep -Eq "but it is not going to be installed|but [^ ]* is to be installed" "$ilog" ||
       grep -Eq "held broken packages|Unable to correct problems" "$ilog"; then
        echo "the packages' versions do not fit together: one architecture's or suite's package" \
             "list is older than another's (a Debian mirror in the middle of a sync, often" \
             "bookworm-security for i386 or armhf); try again in an hour"
    elif grep -q "Unable to locate package\|has no installation candidate" "$ilog"; then
        echo "apt does not know a package of the list: are Debian 12 (bookworm) sources" \
             "configured, with the main component?"
    elif grep -q "Failed to fetch" "$ilog"; then
        echo "a package could not be downloaded (network or mirror); try again later"
    else
        echo "apt-get install failed (its words are above)"
    fi
}
failed() {   # the install failed for good
    give_up "could not install:$missing" "$(explain)"
}
if [ "$partial" = false ]; then apt_install || failed; exit 0; fi
apt_install && exit 0
# The suites of the lists that failed ("Failed to fetch http://.../dists/SUITE/..."), each
# pinned to 100 in a preferences file of this install only.
suites=$(sed -n 's|.*Failed to fetch [^ ]*/dists/\([^/ ]*\)/.*|\1|p' "$log" | sort -u | tr '\n' ' ')
[ -n "$suites" ] || failed
for suite in $suites; do
    printf 'Package: *\nPin: release n=%s\nPin-Priority: 100\n\n' "$suite"
done >"$pins/glmux-install-deps.pref"
echo "install-deps: the install failed with incomplete package lists; trying once more with" \
     "${suites% } pinned below the other suites for this install" >&2
apt_install -o Dir::Etc::PreferencesParts="$pins" || failed
