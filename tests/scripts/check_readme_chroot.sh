#!/bin/sh
# SPDX-License-Identifier: MIT
# The README followed by a new user on a fresh Debian 12 system, from the demonstration to the
# packages and back (labels "scripts", "packaging" and "chroot": it downloads and installs a
# Debian system and builds the packages with the whole suite inside; `ctest -L chroot` runs it).
# mmdebstrap makes a minimal Debian 12 root (variant minbase, the debian:12 container) with sudo
# and the host's apt sources and proxy; a normal user, demo, may use sudo without a password,
# and this tree (no .git, no build trees) is copied to a source path that holds a space, '+',
# '[' and '*' ("/home/demo/src +[x] *dir/glmux"). As demo, in that directory, in the README's
# order:
#   * scripts/demo.sh ends with "demo: all 4 demonstrations passed", and the README's
#     `build/src/cli/glmux run --gpu discrete -- build/demo/glmux-demo-egl` renders;
#   * scripts/test.sh passes (GLMUX_CONFIGS, default here "default", picks its configurations);
#   * packaging/build-deb.sh, with its tests on, makes the .debs (the suite runs again inside the
#     package build, from a directory named glmux-<version>+glmux<version>) and says that the
#     tree is not a git checkout;
#   * `sudo apt install ./out/deb/*.deb`: the 14 replaced packages at glmux's version; the
#     packages it adds are counted and named; `glmux check` passes; glxinfo renders under Xvfb
#     and the libGLX.so.0 ld.so loaded is the installed glmux one;
#   * scripts/uninstall-packages.sh --run: every replaced package back at its version, `dpkg
#     --verify` clean, no glmux package left, glxinfo renders through Debian's libglvnd.
# Then, on the host: no log says "debconf: unable to initialize frontend" (DEBIAN_FRONTEND gets
# through sudo), and /tmp holds nothing that was not there before demo began (X's empty socket
# directories aside). Downloaded packages are kept in CACHE_DIR. Skips (77) without root or
# mmdebstrap, without Debian 12 sources, or when the archive cannot be reached. The package
# build's suite makes it long: half an hour or more on two cores.
#   check_readme_chroot.sh SOURCE_DIR WORK_DIR CACHE_DIR
set -eu
top=$(cd "$1" && pwd) work=$2 cache=$3
. "$top/tests/common/chroot.sh"
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "skipped: $*"; exit 77; }
chroot_require
suite=bookworm
chroot_work "$suite"
configs=${GLMUX_CONFIGS:-default}
case $configs in *"'"*|*'"'*) fail "GLMUX_CONFIGS may not hold a quote" ;; esac

# What demo runs, in the source directory; its last line says whether every step passed. Logs
# go to ~/logs, never /tmp, whose contents are compared afterwards.
cat >"$work/inside.sh" <<'INSIDE'
set -eu
src="$HOME/src +[x] *dir/glmux"
logs=$HOME/logs
mkdir -p "$logs"
cd "$src"
replaced="libglvnd0 libgl1 libglx0 libopengl0 libegl1 libgles1 libgles2 libglvnd-core-dev
          libglvnd-dev libgl-dev libglx-dev libopengl-dev libegl-dev libgles-dev"
mark="glmux: vendor-neutral GL dispatch, not libglvnd"
fail() { echo "FAIL: $*"; exit 1; }
step() { echo "== $* ($(date -u +%H:%M:%S))"; }
# render LABEL: glxinfo under a private Xvfb; lib is then the libGLX.so.0 ld.so loaded.
render() {
    LD_DEBUG=libs xvfb-run -a -s "-screen 0 640x480x24" glxinfo -B >"$logs/glxinfo.log" \
        2>"$logs/ld.log" || { tail -n 20 "$logs/ld.log"; fail "glxinfo failed ($1)"; }
    grep -q "OpenGL renderer string: llvmpipe" "$logs/glxinfo.log" ||
        fail "glxinfo rendered with no llvmpipe ($1)"
    lib=$(sed -n 's/.*calling init: \(.*libGLX\.so\.0\)$/\1/p' "$logs/ld.log" | head -n 1)
    [ -n "$lib" ] || fail "no libGLX.so.0 in ld.so's log ($1)"
    # xvfb-run signals its Xvfb and returns at once: the server removes its lock and socket
    # from /tmp a moment later (up to 10 s), before /tmp is compared.
    i=0
    while ls /tmp/.X*-lock >/dev/null 2>&1 && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
}
[ "$(id -u)" != 0 ] || fail "running as root, not as a normal user"
sudo -n true || fail "demo cannot use sudo"

step "scripts/demo.sh"
scripts/demo.sh >"$logs/demo.log" 2>&1 || { tail -n 30 "$logs/demo.log"; fail "scripts/demo.sh failed"; }
tail -n 1 "$logs/demo.log"
[ "$(tail -n 1 "$logs/demo.log")" = "demo: all 4 demonstrations passed" ] || fail "no verdict"
build/src/cli/glmux run --gpu discrete -- build/demo/glmux-demo-egl >"$logs/run.log" 2>&1 ||
    { cat "$logs/run.log"; fail "glmux run --gpu discrete -- build/demo/glmux-demo-egl failed"; }
grep -q "as drawn" "$logs/run.log" || { cat "$logs/run.log"; fail "glmux run: not as drawn"; }
echo "ok: the demonstration, and glmux run --gpu discrete with its EGL program"

step "scripts/test.sh (GLMUX_CONFIGS=$GLMUX_CONFIGS)"
scripts/test.sh >"$logs/test.log" 2>&1 || { tail -n 40 "$logs/test.log"; fail "scripts/test.sh failed"; }
sed -n '/^== summary/,$p' "$logs/test.log"

step "packaging/build-deb.sh (its tests on)"
started=$(date +%s)
packaging/build-deb.sh >"$logs/build-deb.log" 2>&1 ||
    { grep -E "Failed|\*\*\*|FAIL" "$logs/build-deb.log" | tail -n 20; tail -n 30 "$logs/build-deb.log"
      fail "packaging/build-deb.sh failed"; }
grep -q "tests passed" "$logs/build-deb.log" || fail "the package build ran no tests"
grep -E "tests passed|Total Test time" "$logs/build-deb.log"
grep -q "is not a git checkout" "$logs/build-deb.log" ||
    fail "build-deb.sh did not say that it copies a tree that is not a git checkout"
echo "ok: the .debs, with the suite inside, in $(($(date +%s) - started)) s"

step "sudo apt install ./out/deb/*.deb"
dpkg-query -W -f '${Package} ${Version}\n' | sort >"$logs/packages.before"
# shellcheck disable=SC2086
dpkg-query -W -f '${Package} ${Version}\n' $replaced | sort >"$logs/versions.before"
sudo apt install -y ./out/deb/*.deb >"$logs/apt-install.log" 2>&1 ||
    { tail -n 30 "$logs/apt-install.log"; fail "sudo apt install ./out/deb/*.deb failed"; }
dpkg-query -W -f '${Package} ${Version}\n' | sort >"$logs/packages.after"
for p in $replaced; do
    v=$(dpkg-query -W -f '${Version}' "$p")
    case $v in *+glmux*) ;; *) fail "$p is at $v after the install, not glmux's" ;; esac
done
cut -d' ' -f1 "$logs/packages.before" >"$logs/names.before"
cut -d' ' -f1 "$logs/packages.after" >"$logs/names.after"
added=$(comm -13 "$logs/names.before" "$logs/names.after")
echo "added $(echo "$added" | wc -l) packages ($(echo "$added" | grep -c -- '-dbgsym$') -dbgsym):" \
     $added
glmux check >"$logs/check.log" 2>&1 || { cat "$logs/check.log"; fail "glmux check failed"; }
glmux gpus >"$logs/gpus.log" 2>&1 || { cat "$logs/gpus.log"; fail "glmux gpus failed"; }
render "glmux's packages"
grep -qF "$mark" "$lib" || fail "the libGLX.so.0 loaded ($lib) is not glmux's"
echo "ok: 14 packages replaced, glmux check passes, glxinfo renders through glmux ($lib)"

step "scripts/uninstall-packages.sh --run"
scripts/uninstall-packages.sh >"$logs/way-back.txt" || { cat "$logs/way-back.txt"; fail "no way back"; }
cat "$logs/way-back.txt"
scripts/uninstall-packages.sh --run >"$logs/back.log" 2>&1 ||
    { tail -n 30 "$logs/back.log"; fail "scripts/uninstall-packages.sh --run failed"; }
# shellcheck disable=SC2086
dpkg-query -W -f '${Package} ${Version}\n' $replaced | sort >"$logs/versions.after"
diff "$logs/versions.before" "$logs/versions.after" || fail "not back at the versions they had"
# shellcheck disable=SC2086
dpkg --verify $replaced >"$logs/verify.log" 2>&1 || true
[ ! -s "$logs/verify.log" ] || { cat "$logs/verify.log"; fail "dpkg --verify: files changed"; }
left=$(dpkg-query -W -f '${Package} ${Version} ${db:Status-Abbrev}\n' |
       awk '$3 !~ /^(un|pn)/ && ($1 ~ /glmux/ || $2 ~ /glmux/)')
[ -z "$left" ] || fail "glmux packages left: $left"
render "back to Debian's libglvnd"
grep -qF "$mark" "$lib" && fail "$lib is still glmux's"
echo "ok: back at Debian's versions, dpkg --verify clean, no glmux package left ($lib)"
echo "readme-chroot: all steps passed"
INSIDE

# Hooks: the cached packages in; the user demo with sudo; the tree in, at a path with a space,
# '+', '[' and '*'; /tmp before; the README's steps as demo (runuser: no terminal, as in CI);
# /tmp after; the cache out.
home='$1/home/demo'
start=$(date +%s)
set +e
mmdebstrap --mode=root --variant=minbase --include=sudo --aptopt="$work/apt.conf" \
    --dpkgopt=force-unsafe-io \
    --setup-hook='mkdir -p "$1"/var/cache/apt/archives/' \
    --setup-hook="sync-in $cache /var/cache/apt/archives/" \
    --customize-hook='chroot "$1" useradd -m -s /bin/sh demo' \
    --customize-hook='echo "demo ALL=(ALL) NOPASSWD: ALL" >"$1/etc/sudoers.d/demo"' \
    --customize-hook="mkdir -p \"$home/src +[x] *dir/glmux\"" \
    --customize-hook="tar -C '$top' --exclude=./.git --exclude='./build*' --exclude=./out -cf - . |
        tar -C \"$home/src +[x] *dir/glmux\" -xf -" \
    --customize-hook="cp '$work/inside.sh' \"$home/inside.sh\"" \
    --customize-hook='chroot "$1" chown -R demo:demo /home/demo' \
    --customize-hook="chroot \"\$1\" find /tmp -mindepth 1 | sort >'$work/tmp.before'" \
    --customize-hook="chroot \"\$1\" runuser -u demo -- env -i HOME=/home/demo USER=demo \
        PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 GLMUX_CONFIGS='$configs' \
        sh /home/demo/inside.sh >'$work/inside.log' 2>&1; echo \$? >'$work/inside.rc'" \
    --customize-hook="chroot \"\$1\" find /tmp -mindepth 1 | sort >'$work/tmp.after'" \
    --customize-hook="mkdir -p '$work/logs' && cp -r \"$home/logs/.\" '$work/logs/' || true" \
    --customize-hook="sync-out /var/cache/apt/archives $cache" \
    "$suite" /dev/null - <"$work/sources.list" >"$work/mmdebstrap.log" 2>&1
rc=$?
set -e
chroot_ended $rc "$start"
chroot_inside_verdict "readme-chroot: all steps passed" ||
    fail "the README's steps failed (exit $(cat "$work/inside.rc"); logs: $work/logs)"
echo "ok: the README's steps as a normal user with sudo, from a source path with ' +[*', ${secs}s"
if grep -rl "unable to initialize frontend" "$work/logs" "$work/inside.log"; then
    grep -rh "unable to initialize frontend" "$work/logs" "$work/inside.log" | sort | uniq -c
    fail "debconf warned (above: the logs that say so)"
fi
echo "ok: no debconf frontend warning"
# X's socket directories are made by the X server (or at boot), empty, and not the suite's.
left=$(comm -13 "$work/tmp.before" "$work/tmp.after" |
       grep -vxE '/tmp/\.(X11|ICE|font|XIM|Test)-unix' || true)
[ -z "$left" ] || fail "left in /tmp: $(echo "$left" | head -n 20 | tr '\n' ' ')"
echo "ok: /tmp as it was before the demonstration"
rm -rf "$work"
