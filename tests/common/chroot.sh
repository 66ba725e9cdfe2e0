# SPDX-License-Identifier: MIT
# Sourced by the clean-root tests (sh) that make a Debian root with mmdebstrap: the steps they
# share. chroot_require and chroot_work open each test; chroot_apt_setup writes the root's apt
# sources and options from the host's, so that the root reaches the archive the way the host's
# apt does; chroot_mmdebstrap_check judges how mmdebstrap ended, chroot_ended and
# chroot_inside_verdict how it and the steps run inside the root did. The sourcing script
# defines skip (exit 77 with its message), which is called when the archive cannot be reached,
# and fail; its other messages stay its own.
#   chroot_require
# Calls skip unless the script runs as root (mmdebstrap's root mode) with mmdebstrap installed.
#   chroot_work SUITE
# Makes the caller's $work anew and $cache when missing, sets both to absolute paths, then runs
# chroot_apt_setup SUITE "$work", and calls skip when the host has no SUITE sources.
#   chroot_apt_setup SUITE WORK
# Writes WORK/sources.list, one "deb URI RELEASE COMPONENT" line per index of the host's for
# SUITE (and its -updates, -security, ... suites), and WORK/apt.conf, the host's proxy,
# release-date and retry settings. Returns 1 when the host has no SUITE sources.
#   chroot_mmdebstrap_check RC LOG
# After mmdebstrap exited RC with its output in LOG. Returns 0 when RC is 0. When LOG says the
# archive could not be reached, shows its last 5 lines and calls skip; else shows its last 20
# lines and returns 1, for the caller to fail with its own message.
#   chroot_ended RC START
# After mmdebstrap exited RC, begun at START (date +%s), with its output in $work/mmdebstrap.log:
# sets secs to the seconds it ran, and calls fail (the sourcing script's) when
# chroot_mmdebstrap_check says it failed.
#   chroot_inside_verdict VERDICT
# Shows $work/inside.log, what the steps run inside the root wrote; returns 1, for the caller to
# fail with its own message, when their exit status ($work/inside.rc) is not 0; calls fail when
# their last line is not VERDICT.
chroot_require() {
    [ "$(id -u)" = 0 ] || skip "mmdebstrap's root mode needs root"
    command -v mmdebstrap >/dev/null || skip "mmdebstrap is not installed (apt-get install mmdebstrap)"
}

chroot_work() {
    rm -rf "$work"
    mkdir -p "$work" "$cache"
    work=$(cd "$work" && pwd) cache=$(cd "$cache" && pwd)
    chroot_apt_setup "$1" "$work" || skip "the host's apt has no $1 sources"
}

chroot_apt_setup() {
    # shellcheck disable=SC2016
    apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' 'Created-By: Packages' \
        "Architecture: $(dpkg --print-architecture)" | awk -v s="$1" '
        index($2, s) == 1 && substr($2, length(s) + 1) ~ /^([-\/]|$)/' |
        sort -u | sed 's/^/deb /' >"$2/sources.list"
    apt-config dump |
        grep -E '^Acquire::(https?|ftp)::Proxy|^Acquire::Check-(Valid-Until|Date)|^Acquire::Retries' \
        >"$2/apt.conf" || true
    [ -s "$2/sources.list" ]
}

chroot_mmdebstrap_check() {
    [ "$1" != 0 ] || return 0
    if grep -qE 'Failed to fetch|Temporary failure resolving|Could not resolve|Unable to connect' "$2"; then
        tail -n 5 "$2"
        skip "the Debian archive cannot be reached from here (log: $2)"
    fi
    tail -n 20 "$2"
    return 1
}

chroot_ended() {
    secs=$(($(date +%s) - $2))
    chroot_mmdebstrap_check "$1" "$work/mmdebstrap.log" ||
        fail "mmdebstrap failed after ${secs}s (log: $work/mmdebstrap.log)"
}

chroot_inside_verdict() {
    cat "$work/inside.log"
    [ "$(cat "$work/inside.rc")" = 0 ] || return 1
    [ "$(tail -n 1 "$work/inside.log")" = "$1" ] || fail "no verdict"
}
