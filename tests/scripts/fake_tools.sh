# SPDX-License-Identifier: MIT
# Sourced by the tests of scripts/: fake_tools DIR writes into DIR the programs those scripts
# call (apt-get, dpkg, dpkg-query, sudo, sleep, cmake, xvfb-run), each appending its command
# line to DIR/calls. Their behaviour comes from files in DIR:
#   installed      packages dpkg-query reports as installed, one a line
#   lock-failures  how many times apt-get update fails with apt's lock message (counted down)
#   fetch-failures how many times, after that, it fails as a mirror in sync makes it fail
#   install-failures how many times apt-get install fails as with versions that do not fit
#                  (counted down); an install given Dir::Etc::PreferencesParts=DIR copies
#                  DIR's files into DIR/calls
# apt-get install appends its DEBIAN_FRONTEND (or "unset") to DIR/frontend; sudo resets the
# environment as sudo's env_reset does.
# fake_work WORK_DIR: WORK_DIR made afresh; FAKE_DIR, where fake_tools puts the programs, in it.
fake_work() {
    rm -rf "$1"
    mkdir -p "$1"
    FAKE_DIR=$1/bin
}

fake_tools() {
    d=$1
    mkdir -p "$d"
    : >"$d/calls"
    : >"$d/installed"
    : >"$d/frontend"
    echo 0 >"$d/lock-failures"
    echo 0 >"$d/fetch-failures"
    echo 0 >"$d/install-failures"
    for tool in apt-get dpkg dpkg-query sudo sleep cmake xvfb-run; do
        cat >"$d/$tool" <<FAKE
#!/bin/sh
echo "$tool \$*" >>"$d/calls"
d="$d"
FAKE
    done
    cat >>"$d/dpkg-query" <<'FAKE'
pkg=$(eval echo "\${$#}")
grep -qxF "$pkg" "$d/installed" && { printf 'install ok installed'; exit 0; }
exit 1
FAKE
    cat >>"$d/dpkg" <<'FAKE'
case $1 in
    --print-architecture) echo amd64 ;;
    --print-foreign-architectures) ;;
esac
FAKE
    cat >>"$d/apt-get" <<'FAKE'
# fails COUNTER MESSAGE...: when the file COUNTER is above 0, counts it down, prints the
# messages (one a line) and exits as apt does.
fails() {
    n=$(cat "$d/$1")
    [ "$n" -gt 0 ] || return 0
    echo $((n - 1)) >"$d/$1"
    shift
    printf '%s\n' "$@" >&2
    exit 100
}
for a in "$@"; do
    case $a in
        update)
            fails lock-failures \
                "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 1 (apt-get)"
            fails fetch-failures \
                "E: Failed to fetch http://deb.debian.org/debian-security/dists/bookworm-security/main/binary-i386/Packages.xz  File has unexpected size (371952 != 372316). Mirror sync in progress? [IP: 192.0.2.1 80]" \
                "E: Some index files failed to download. They have been ignored, or old ones used instead." ;;
        install)
            echo "${DEBIAN_FRONTEND:-unset}" >>"$d/frontend"
            fails install-failures "E: Unable to correct problems, you have held broken packages." ;;
        Dir::Etc::PreferencesParts=*) cat "${a#*=}"/* >>"$d/calls" ;;
    esac
done
FAKE
    # sudo resets the environment (env_reset): only what goes through env after it reaches
    # the program.
    echo 'exec env -i PATH="$PATH" "$@"' >>"$d/sudo"
    echo 'shift 3; exec "$@"' >>"$d/xvfb-run"   # xvfb-run -a -s ARGS PROGRAM
    chmod +x "$d"/*
}

fail() {
    echo "FAIL: $*"
    echo "--- calls:"
    cat "$FAKE_DIR/calls"
    exit 1
}
