#!/bin/sh
# SPDX-License-Identifier: MIT
# Counts the packages apt would install for a package list (scripts/demo-packages,
# .ci/packages) on a fresh Debian 12 system, without installing anything: apt-get --print-uris
# (the packages apt would download) runs against the package lists of this machine (apt-get
# update fills them) and a dpkg status file of its own that holds only the fresh system, in a
# throw-away directory. The fresh system (BASELINE) is one of
#   minbase   Essential and Priority: required packages and apt, with what they depend on
#             (what `mmdebstrap --variant=minbase` and the debian:12 container image hold)
#   standard  minbase plus Priority: important and standard, with recommends (Debian's
#             installer with "standard system utilities" and no desktop)
#   desktop   standard plus task-desktop and task-gnome-desktop, with recommends (Debian's
#             installer with its default desktop)
# Packages are counted as scripts/install-deps.sh installs them (--no-install-recommends), in
# the machine's architecture and those the list names (NAME:ARCH). Prints one line,
# "BASELINE: N packages", and with -v the packages too. Needs apt's lists of Debian 12.
#   scripts/count-packages.sh [-v] BASELINE LIST...
set -eu
verbose=false
[ "${1:-}" = -v ] && { verbose=true; shift; }
[ $# -ge 2 ] || { sed -n '3,18s/^# \{0,1\}//p' "$0" >&2; exit 2; }
baseline=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
native=$(dpkg --print-architecture)
packages=$(sed 's/#.*//' "$@")
arches=$native
for p in $packages; do
    case $p in *:*) case " $arches " in *" ${p#*:} "*) ;; *) arches="$arches ${p#*:}" ;; esac ;; esac
done
# apt reads only the package lists of those architectures (a machine with foreign ones added
# would otherwise read them all, four times the work).
lists=$(apt-config shell d Dir::State::lists/d | sed "s/^d='\(.*\)'$/\1/")
mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
for f in "$lists"*_Packages* "$lists"*Release; do
    [ -e "$f" ] || continue
    case ${f##*/} in
        *_binary-*_Packages*) arch=${f##*_binary-}; arch=${arch%%_*}
                              case " $arches " in *" $arch "*) ;; *) continue ;; esac ;;
    esac
    ln -s "$f" "$work/lists/"
done

# What apt-get would install, with a dpkg status file of our own; no lock taken, apt's cache
# written only to the throw-away directory (its lists part serves every run).
sim() {   # STATUS-FILE RECOMMENDS ARCHES PACKAGES... -> the names apt would install
    status=$1 recommends=$2 arches=$3
    shift 3
    set -- -o Dir::State::status="$status" -o Dir::Cache="$work/cache" \
        -o Dir::State::lists="$work/lists/" -o Debug::NoLocking=1 \
        -o APT::Install-Recommends="$recommends" -o APT::Architecture="$native" "$@"
    for a in $arches; do set -- -o APT::Architectures::="$a" "$@"; done
    LC_ALL=C apt-get --print-uris -qq install "$@" >"$work/sim.log" 2>&1 ||
        { echo "count-packages: apt-get failed:" >&2; tail -n 5 "$work/sim.log" >&2; exit 1; }
    awk '/^\047/ { sub(/_.*/, "", $2); print $2 }' "$work/sim.log"
}

# apt's candidate of every package of the machine's architecture, one stanza each.
apt-cache -o Dir::Cache="$work/cache" -o Dir::State::lists="$work/lists/" dumpavail | awk -v arch="$native" '
    BEGIN { RS = ""; ORS = "\n\n" }
    $0 ~ ("\nArchitecture: (" arch "|all)\n") { print }' >"$work/avail"

# The stanzas of the named packages marked installed: a dpkg status file.
status_of() {   # NAMES-FILE -> status file on stdout
    awk -v list="$1" '
        BEGIN { while ((getline l < list) > 0) want[l] = 1; RS = ""; ORS = "\n\n" }
        { split($0, f, "\n"); name = f[1]; sub(/^Package: /, "", name)
          if (name in want) print $0 "\nStatus: install ok installed" }' "$work/avail"
}

# The packages of Priority PRIORITIES, and every Essential one.
by_priority() {   # REGEX
    awk -v prio="$1" '
        BEGIN { RS = "" }
        $0 ~ ("\nPriority: (" prio ")\n") || $0 ~ /\nEssential: yes\n/ {
            split($0, f, "\n"); sub(/^Package: /, "", f[1]); print f[1] }' "$work/avail" |
        sort -u
}

: >"$work/empty"
case $baseline in
    minbase)  sim "$work/empty" false "$arches" $(by_priority required) apt ;;
    standard) sim "$work/empty" true "$arches" $(by_priority 'required|important|standard') ;;
    desktop)  sim "$work/empty" true "$arches" $(by_priority 'required|important|standard') \
                  task-desktop task-gnome-desktop ;;
    *) echo "count-packages: unknown baseline '$baseline' (minbase, standard or desktop)" >&2
       exit 2 ;;
esac >"$work/base.names"
[ -s "$work/base.names" ] || { echo "count-packages: apt knows no Debian packages here" \
                                    "(run apt-get update)" >&2; exit 1; }
status_of "$work/base.names" >"$work/status"

# shellcheck disable=SC2086
sim "$work/status" false "$arches" $packages >"$work/new.names"
echo "$baseline: $(wc -l <"$work/new.names") packages (on a fresh system of $(wc -l \
    <"$work/base.names") packages)"
if $verbose; then tr '\n' ' ' <"$work/new.names"; echo; fi
