#!/bin/sh
# SPDX-License-Identifier: MIT
# The packages installed and removed as docs/packaging.md says ("Installing the packages, and
# going back"), on a fresh Debian 12 system (labels "packaging" and "chroot": it downloads and
# installs a Debian system, minutes; `ctest -L chroot` runs it). mmdebstrap makes a minimal
# Debian 12 root (variant minbase) with the host's apt sources and proxy; in it, as root:
#   * Debian's libglvnd (the 14 packages glmux replaces), Mesa, mesa-utils and Xvfb go in, and
#     glxinfo renders (llvmpipe) through them;
#   * `apt install ./out/deb/*.deb` (packaging_deb's .debs, this tree's source copied in): the 14
#     packages at glmux's version, `glmux check` passes, glxinfo renders again, and the libGLX.so.0
#     ld.so loaded is glmux's (its mark string);
#   * `scripts/uninstall-packages.sh` prints the way back, `--run` takes it: every package is at
#     the version it had, `dpkg --verify` of the 14 finds nothing changed, no package at a
#     glmux version and no file with glmux in its name is left outside the copied tree, and
#     glxinfo renders through Debian's libglvnd.
# Downloaded packages are kept in CACHE_DIR for the next run. Skips (77) without root or
# mmdebstrap, without the .debs, without Debian 12 sources, or when the archive cannot be reached.
#   check_install_chroot.sh SOURCE_DIR DEBS_DIR WORK_DIR CACHE_DIR
set -eu
top=$(cd "$1" && pwd) debs=$2 work=$3 cache=$4
. "$top/tests/common/chroot.sh"
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "skipped: $*"; exit 77; }
chroot_require
ls "$debs"/libglvnd0_*.deb >/dev/null 2>&1 || skip "no .debs in $debs (packaging_deb makes them)"
debs=$(cd "$debs" && pwd)
suite=bookworm
chroot_work "$suite"

# What runs in the new system; its last line says whether every step passed.
cat >"$work/inside.sh" <<'INSIDE'
set -eu
export DEBIAN_FRONTEND=noninteractive
cd /home/demo/glmux
replaced="libglvnd0 libgl1 libglx0 libopengl0 libegl1 libgles1 libgles2 libglvnd-core-dev
          libglvnd-dev libgl-dev libglx-dev libopengl-dev libegl-dev libgles-dev"
fail() { echo "FAIL: $*"; exit 1; }
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
# render LABEL: glxinfo under a private Xvfb; lib is then the libGLX.so.0 ld.so loaded.
render() {
    LD_DEBUG=libs xvfb-run -a -s "-screen 0 640x480x24" glxinfo -B >/tmp/glxinfo.log 2>/tmp/ld.log ||
        { cat /tmp/glxinfo.log; tail -n 20 /tmp/ld.log; fail "glxinfo failed ($1)"; }
    grep -q "OpenGL renderer string: llvmpipe" /tmp/glxinfo.log ||
        fail "glxinfo rendered with no llvmpipe ($1): $(grep renderer /tmp/glxinfo.log)"
    lib=$(sed -n 's/.*calling init: \(.*libGLX\.so\.0\)$/\1/p' /tmp/ld.log | head -n 1)
    [ -n "$lib" ] || fail "no libGLX.so.0 in ld.so's log ($1)"
}
mark="glmux: vendor-neutral GL dispatch, not libglvnd"

echo "== Debian's libglvnd, Mesa, mesa-utils, Xvfb"
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $replaced libegl-mesa0 libglx-mesa0 \
    libgl1-mesa-dri mesa-utils xvfb xauth >/tmp/apt1.log 2>&1 ||
    { tail -n 30 /tmp/apt1.log; fail "Debian's packages did not install"; }
# shellcheck disable=SC2086
dpkg-query -W -f '${Package} ${Version}\n' $replaced | sort >/tmp/versions.before
render "Debian's libglvnd"
grep -qF "$mark" "$lib" && fail "$lib is glmux's before the install"
echo "ok: glxinfo renders through Debian's libglvnd ($lib)"

echo "== apt install ./out/deb/*.deb"
apt install -y ./out/deb/*.deb >/tmp/apt2.log 2>&1 ||
    { tail -n 30 /tmp/apt2.log; fail "apt install ./out/deb/*.deb failed"; }
for p in $replaced glmux-tools libglx-glmux-pixels0; do
    v=$(dpkg-query -W -f '${Version}' "$p")
    case $v in *+glmux*) ;; *) fail "$p is at $v after the install, not glmux's" ;; esac
done
glmux check || fail "glmux check failed"
render "glmux's packages"
grep -qF "$mark" "$lib" || fail "the libGLX.so.0 loaded ($lib) is not glmux's"
echo "ok: 16 packages at glmux's version, glmux check passes, glxinfo renders through glmux ($lib)"

echo "== the way back"
scripts/uninstall-packages.sh >/tmp/way-back.txt || { cat /tmp/way-back.txt; fail "no way back printed"; }
cat /tmp/way-back.txt
grep -q "^apt-get install --allow-downgrades --purge .*libglvnd0=[^ ]* .* glmux-tools- " \
    /tmp/way-back.txt || fail "the way back printed is not a downgrade and a purge"
scripts/uninstall-packages.sh --run >/tmp/back.log 2>&1 ||
    { tail -n 30 /tmp/back.log; fail "scripts/uninstall-packages.sh --run failed"; }
# shellcheck disable=SC2086
dpkg-query -W -f '${Package} ${Version}\n' $replaced | sort >/tmp/versions.after
diff /tmp/versions.before /tmp/versions.after || fail "the packages are not at the versions they had"
# shellcheck disable=SC2086
dpkg --verify $replaced >/tmp/verify.log 2>&1 || true
[ ! -s /tmp/verify.log ] || { cat /tmp/verify.log; fail "dpkg --verify: Debian's libglvnd files changed"; }
left=$(dpkg-query -W -f '${Package} ${Version} ${db:Status-Abbrev}\n' |
       awk '$3 !~ /^(un|pn)/ && ($1 ~ /glmux/ || $2 ~ /glmux/)')
[ -z "$left" ] || fail "glmux packages left: $left"
files=$(find / -xdev \( -path /home/demo/glmux -o -path /proc -o -path /sys -o -path /tmp \) -prune \
        -o -name '*glmux*' -print)
[ -z "$files" ] || fail "glmux files left: $files"
[ ! -e "/usr/lib/$multiarch/glvnd/vendors" ] || fail "glmux's vendor directory is left"
render "back to Debian's libglvnd"
grep -qF "$mark" "$lib" && fail "$lib is still glmux's"
echo "ok: back at Debian's versions, dpkg --verify clean, no glmux package or file left, glxinfo renders ($lib)"
echo "install-chroot: all steps passed"
INSIDE

start=$(date +%s)
set +e
mmdebstrap --mode=root --variant=minbase --aptopt="$work/apt.conf" --dpkgopt=force-unsafe-io \
    --setup-hook='mkdir -p "$1"/var/cache/apt/archives/' \
    --setup-hook="sync-in $cache /var/cache/apt/archives/" \
    --customize-hook='mkdir -p "$1/home/demo/glmux/out/deb"' \
    --customize-hook="tar -C '$top' --exclude=./.git --exclude='./build*' --exclude=./out -cf - . |
        tar -C \"\$1/home/demo/glmux\" -xf -" \
    --customize-hook="cp '$debs'/*.deb \"\$1/home/demo/glmux/out/deb/\"" \
    --customize-hook="cp '$work/inside.sh' \"\$1/root/inside.sh\"" \
    --customize-hook="chroot \"\$1\" sh /root/inside.sh >'$work/inside.log' 2>&1; echo \$? >'$work/inside.rc'" \
    --customize-hook="sync-out /var/cache/apt/archives $cache" \
    "$suite" /dev/null - <"$work/sources.list" >"$work/mmdebstrap.log" 2>&1
rc=$?
set -e
chroot_ended $rc "$start"
chroot_inside_verdict "install-chroot: all steps passed" ||
    fail "the steps in the new system failed (exit $(cat "$work/inside.rc"))"
echo "ok: installed, rendered and gone back on a fresh Debian 12 system (${secs}s)"
rm -rf "$work"
