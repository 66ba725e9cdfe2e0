#!/bin/bash
# SPDX-License-Identifier: MIT
# Builds glmux's RPMs with rpmbuild -ba (works on Debian: apt-get install rpm): makes the
# source tarball from the tree, puts the spec's Source1 (glad's release tarball, which holds
# the Khronos registry) next to it, then builds in a scratch _topdir with --nodeps (Debian has
# no RPM database of build dependencies) and bash as the shell of the build scripts and of
# brp-compress, as /bin/sh is on Fedora (under Debian's /bin/sh, dash, brp-compress fails and
# leaves the man page uncompressed; Fedora's gzips it after %install), and without Debian's
# rpm's brp-elfperms, which Fedora's post-install list lacks (libraries stay executable, as
# Fedora ships them). Parts a tree does not build are left out with --without
# egl|glx|gl|tools (none now); set GLMUX_RPM_ARGS="--without check" to skip %check. The RPMs
# land in OUTDIR, the source RPM in OUTDIR/srpm.
# The tree is HEAD's committed files (GLMUX_PKG_FROM=worktree: the working tree as it is).
# Source1: GLMUX_GLAD_TARBALL names the downloaded glad-VERSION.tar.gz; without it (no network
# here) a stand-in is made from Debian's python3-glad of the same version: the same registry
# files under the same paths (glad-VERSION/glad/files/), not the whole tarball.
#   packaging/build-rpm.sh [OUTDIR]      (default: out/rpm)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$top/out/rpm}" && cd "${1:-$top/out/rpm}" && pwd)
# shellcheck source=packaging/version.sh
. "$top/packaging/version.sh"
command -v rpmbuild > /dev/null || { echo "build-rpm.sh: rpmbuild missing (apt-get install rpm)" >&2; exit 1; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/glmux-rpm.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# mktemp -d makes it 0700; the secure-execution tests run a test binary as nobody, which must
# reach the build tree's libraries through their absolute RUNPATH.
chmod 0755 "$scratch"
mkdir -p "$scratch"/{SOURCES,SPECS,BUILD,RPMS,SRPMS,tree}
name="glmux-$GLMUX_PKG_VERSION"
mkdir -p "$scratch/tree/$name"
glmux_copy_tree "$top" "$scratch/tree/$name"
tar -C "$scratch/tree" --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 \
    -czf "$scratch/SOURCES/$name.tar.gz" "$name"
cp "$top/packaging/rpm/macros.glmux" "$scratch/SOURCES/"
glad_version=$(sed -n 's/^%global glad_version[[:space:]]*//p' "$top/packaging/rpm/glmux.spec")
glad="glad-$glad_version"
if [ -n "${GLMUX_GLAD_TARBALL:-}" ]; then
    cp "$GLMUX_GLAD_TARBALL" "$scratch/SOURCES/$glad.tar.gz"
else
    files=/usr/lib/python3/dist-packages/glad/files
    have=$(dpkg-query -W -f '${Version}' python3-glad 2>/dev/null || true)
    case $have in
        "$glad_version"|"$glad_version"-*) ;;
        *) echo "build-rpm.sh: the spec wants glad $glad_version; python3-glad is '${have:-not installed}'" \
               "(set GLMUX_GLAD_TARBALL to glad's $glad.tar.gz)" >&2; exit 1 ;;
    esac
    mkdir -p "$scratch/glad/$glad/glad/files"
    for f in gl.xml glx.xml egl.xml khrplatform.h eglplatform.h; do
        cp "$files/$f" "$scratch/glad/$glad/glad/files/"
    done
    tar -C "$scratch/glad" --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 \
        -czf "$scratch/SOURCES/$glad.tar.gz" "$glad"
fi
without=""
for part in $(glmux_missing_parts "$scratch/tree/$name"); do without="$without --without $part"; done
echo "glmux: rpmbuild $GLMUX_PKG_VERSION;${without:- all parts}"
# The build's temporary files (its test suite's among them) go to a TMPDIR in the scratch
# directory, removed with it, and so do rpm's own scriptlet files (%_tmppath, /var/tmp by
# default): the build leaves /tmp and /var/tmp as it found them; what the suite left there is
# said (scripts/test.sh fails on it).
mkdir -m 1777 "$scratch/tmp"
# shellcheck disable=SC2086
TMPDIR="$scratch/tmp" rpmbuild -ba --nodeps --define "_topdir $scratch" --define "_tmppath $scratch/tmp" \
    --define "_buildshell /bin/bash" \
    --define "__brp_compress bash $(rpm --eval '%{__brp_compress}')" \
    --define "__brp_elfperms %{nil}" \
    --define "glmux_version $GLMUX_VERSION" --define "glvnd_compat $GLMUX_GLVND_COMPAT" \
    --define "_build_id_links none" --define "_enable_debug_packages 1" \
    --define "glmux_debug_package 1" \
    $without ${GLMUX_RPM_ARGS:-} "$top/packaging/rpm/glmux.spec"
left=$(ls -A "$scratch/tmp")
[ -z "$left" ] || echo "glmux: the package build's tests left in its TMPDIR (removed now): $(echo "$left" | paste -sd' ' -)"
rm -f "$out"/*.rpm
find "$scratch/RPMS" -name '*.rpm' -exec mv {} "$out/" \;
rm -rf "$out/srpm" && mkdir "$out/srpm" && mv "$scratch"/SRPMS/*.src.rpm "$out/srpm/"
glmux_missing_parts "$scratch/tree/$name" > "$out/glmux-left-out"
echo "glmux: packages in $out:"
ls "$out"
