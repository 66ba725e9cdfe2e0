#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/uninstall-packages.sh against fake dpkg, dpkg-query, apt-cache and apt-get: with
# glmux's packages installed (libglvnd0 and libegl1 for amd64, libglvnd0 for i386, glmux-tools,
# libglx-glmux-pixels0, glmux-layers, a -dbgsym), it prints one apt-get install: the downgrade
# of each replaced package to the highest archive version (not glmux's, not a lower one) and
# the purge of glmux's own (NAME-, --purge); --run runs (through sudo for a normal user, with
# DEBIAN_FRONTEND=noninteractive) exactly those and finds no glmux package left; a package
# apt knows no archive version of stops it before it changes anything; a system without glmux
# has nothing to do.
#   test_uninstall_packages.sh SOURCE_DIR WORK_DIR
set -u
src=$1 work=$2
script=$src/scripts/uninstall-packages.sh
fail() {
    echo "FAIL: $*"; echo "--- output:"; cat "$work/out"; echo "--- calls:"; cat "$d/calls"; exit 1
}
rm -rf "$work"
d=$work/bin
mkdir -p "$d"
real_dpkg=$(command -v dpkg)
cat >"$d/dpkg" <<FAKE
#!/bin/sh
case \$1 in
    --print-architecture) echo amd64 ;;
    *) exec "$real_dpkg" "\$@" ;;
esac
FAKE
# dpkg-query -W -f FORMAT: the status file, in the 4 fields (with the architecture) or 3.
cat >"$d/dpkg-query" <<FAKE
#!/bin/sh
case "\$*" in
    *Architecture*) cat "$d/status" ;;
    *) awk '{ print \$1, \$3, \$4 }' "$d/status" ;;
esac
FAKE
cat >"$d/apt-cache" <<FAKE
#!/bin/sh
# apt-cache madison NAME: the lines of the madison file for NAME
[ "\$1" = madison ] || exit 1
awk -F'|' -v n="\$2" '\$1 == n {
    printf " %s | %s | http://deb.debian.org/debian bookworm/main\\n", \$1, \$2 }' "$d/madison"
FAKE
# apt-get install NAME=VERSION...: the status file takes those versions; purge NAME...: drops them.
cat >"$d/apt-get" <<FAKE
#!/bin/sh
echo "apt-get \$*" >>"$d/calls"
echo "\${DEBIAN_FRONTEND:-unset}" >"$d/frontend"
op=""
for a in "\$@"; do
    case \$a in
        install|purge) op=\$a ;;
        -*) ;;
        *-) n=\${a%-}
            awk -v n="\$n" '\$1 != n' "$d/status" >"$d/status.new"
            mv "$d/status.new" "$d/status" ;;
        *=*) n=\${a%%=*} v=\${a#*=}
             awk -v n="\$n" -v v="\$v" '{ full = (\$2 == "amd64" ? \$1 : \$1 ":" \$2)
                 if (full == n) \$3 = v; print }' "$d/status" >"$d/status.new"
             mv "$d/status.new" "$d/status" ;;
        *) [ "\$op" = purge ] || continue
           awk -v n="\$a" '\$1 != n' "$d/status" >"$d/status.new"; mv "$d/status.new" "$d/status" ;;
    esac
done
FAKE
# id -u: the uid in the file uid (0 unless a case says otherwise), so the test means the same
# as root and as a package build's unprivileged user; sudo records itself and runs the rest
# with the environment reset, as sudo's env_reset does.
real_id=$(command -v id)
cat >"$d/id" <<FAKE
#!/bin/sh
[ "\$1" = -u ] && { cat "$d/uid"; exit 0; }
exec "$real_id" "\$@"
FAKE
cat >"$d/sudo" <<FAKE
#!/bin/sh
echo "sudo" >>"$d/calls"
exec env -i PATH="\$PATH" "\$@"
FAKE
chmod +x "$d"/*
setup() {
    : >"$d/calls"
    echo 0 >"$d/uid"
    cat >"$d/status" <<'S'
libc6 amd64 2.36-9+deb12u9 ii
libglvnd0 amd64 1.7.0+glmux0.1.0 ii
libglvnd0 i386 1.7.0+glmux0.1.0 ii
libegl1 amd64 1.7.0+glmux0.1.0 ii
libgl1 amd64 1.6.0-1 ii
glmux-tools amd64 1.7.0+glmux0.1.0 ii
libglx-glmux-pixels0 amd64 1.7.0+glmux0.1.0 ii
glmux-layers amd64 1.7.0+glmux0.1.0 ii
libegl1-dbgsym amd64 1.7.0+glmux0.1.0 ii
S
    cat >"$d/madison" <<'M'
libglvnd0|1.6.0-1
libglvnd0|1.5.0-1
libglvnd0|1.7.0+glmux0.1.0
libglvnd0:i386|1.6.0-1
libegl1|1.6.0-1
libgl1|1.6.0-1
M
}
run() {   # expected exit status, arguments
    want=$1
    shift
    rc=0
    PATH="$d:$PATH" sh "$script" "$@" >"$work/out" 2>&1 || rc=$?
    [ "$rc" = "$want" ] || fail "exit status $rc, expected $want"
}

setup
run 0
way="install --allow-downgrades --purge libglvnd0=1.6.0-1 libglvnd0:i386=1.6.0-1 libegl1=1.6.0-1"
way="$way glmux-tools- libglx-glmux-pixels0- glmux-layers- libegl1-dbgsym-"
grep -qxF "apt-get $way" "$work/out" || fail "not the way back expected"
[ -s "$d/calls" ] && fail "apt-get ran without --run"
echo "ok: prints the way back"

setup
run 0 --run
grep -qxF "apt-get $(echo "$way" | sed 's/^install/install -y/')" "$d/calls" ||
    fail "--run did not run what it prints"
grep -q "no glmux package is installed" "$work/out" || fail "the end was not said"
grep -q glmux "$d/status" && fail "glmux packages left: $(grep glmux "$d/status")"
echo "ok: --run goes back"

setup
echo 1000 >"$d/uid"
run 0
grep -qxF "sudo apt-get $way" "$work/out" || fail "not the way back through sudo for a user"
run 0 --run
grep -qx sudo "$d/calls" || fail "--run as a user did not go through sudo"
[ "$(cat "$d/frontend")" = noninteractive ] ||
    fail "apt-get under sudo got DEBIAN_FRONTEND=$(cat "$d/frontend"), not noninteractive"
grep -q glmux "$d/status" && fail "glmux packages left: $(grep glmux "$d/status")"
echo "ok: a user goes back through sudo"

setup
grep -v '^libegl1' "$d/madison" >"$d/madison.new" && mv "$d/madison.new" "$d/madison"
run 1
grep -q "apt knows no Debian version of: libegl1" "$work/out" ||
    fail "the unknown package was not named"
grep -q "apt-get install" "$work/out" && fail "printed a way back that misses a package"
echo "ok: a package without an archive version stops it"

setup
grep -v glmux "$d/status" >"$d/status.new" && mv "$d/status.new" "$d/status"
run 0 --run
grep -q "no glmux package is installed; nothing to do" "$work/out" ||
    fail "nothing to do was not said"
[ -s "$d/calls" ] && fail "apt-get ran with nothing to do"
echo "uninstall-packages.sh: 5 cases as expected"
rm -rf "$work"
