#!/bin/bash
# SPDX-License-Identifier: MIT
# Builds glmux's RPMs with rpmbuild -bb (works on Debian: apt-get install rpm): makes the
# source tarball from the tree (tracked and untracked, not ignored, files), then builds in a
# scratch _topdir with --nodeps (Debian has no RPM database of build dependencies). Parts a
# tree does not build are left out with --without egl|glx|gl|tools (none now); set
# GLMUX_RPM_ARGS="--without check" to skip %check. The RPMs land in OUTDIR. The tree is
# HEAD's committed files (GLMUX_PKG_FROM=worktree: the working tree as it is).
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
without=""
for part in $(glmux_missing_parts "$scratch/tree/$name"); do without="$without --without $part"; done
echo "glmux: rpmbuild $GLMUX_PKG_VERSION;${without:- all parts}"
# shellcheck disable=SC2086
rpmbuild -bb --nodeps --define "_topdir $scratch" \
    --define "glmux_version $GLMUX_VERSION" --define "glvnd_compat $GLMUX_GLVND_COMPAT" \
    --define "_build_id_links none" --define "_enable_debug_packages 1" \
    --define "glmux_debug_package 1" \
    --define "glmux_khronos_registry_dir ${GLMUX_KHRONOS_REGISTRY_DIR:-/usr/lib/python3/dist-packages/glad/files}" \
    $without ${GLMUX_RPM_ARGS:-} "$top/packaging/rpm/glmux.spec"
rm -f "$out"/*.rpm
find "$scratch/RPMS" -name '*.rpm' -exec mv {} "$out/" \;
glmux_missing_parts "$scratch/tree/$name" > "$out/glmux-left-out"
echo "glmux: packages in $out:"
ls "$out"
