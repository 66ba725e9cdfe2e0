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
grep -qx "$pkg" "$d/installed" && { printf 'install ok installed'; exit 0; }
exit 1
FAKE
    cat >>"$d/dpkg" <<'FAKE'
case $1 in
    --print-architecture) echo amd64 ;;
    --print-foreign-architectures) ;;
esac
FAKE
    cat >>"$d/apt-get" <<'FAKE'
for a in "$@"; do
    if [ "$a" = update ]; then
        n=$(cat "$d/lock-failures")
        if [ "$n" -gt 0 ]; then
            echo $((n - 1)) >"$d/lock-failures"
            echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 1 (apt-get)" >&2
            exit 100
        fi
        n=$(cat "$d/fetch-failures")
        if [ "$n" -gt 0 ]; then
            echo $((n - 1)) >"$d/fetch-failures"
            echo "E: Failed to fetch http://deb.debian.org/debian-security/dists/bookworm-security/main/binary-i386/Packages.xz  File has unexpected size (371952 != 372316). Mirror sync in progress? [IP: 192.0.2.1 80]" >&2
            echo "E: Some index files failed to download. They have been ignored, or old ones used instead." >&2
            exit 100
        fi
    fi
    case $a in Dir::Etc::PreferencesParts=*) cat "${a#*=}"/* >>"$d/calls" ;; esac
    if [ "$a" = install ]; then
        n=$(cat "$d/install-failures")
        if [ "$n" -gt 0 ]; then
            echo $((n - 1)) >"$d/install-failures"
            echo "E: Unable to correct problems, you have held broken packages." >&2
            exit 100
        fi
    fi
done
FAKE
    echo 'exec "$@"' >>"$d/sudo"
    echo 'shift 3; exec "$@"' >>"$d/xvfb-run"   # xvfb-run -a -s ARGS PROGRAM
    chmod +x "$d"/*
}

fail() {
    echo "FAIL: $*"
    echo "--- calls:"
    cat "$FAKE_DIR/calls"
    exit 1
}
