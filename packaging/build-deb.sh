#!/bin/bash
# SPDX-License-Identifier: MIT
# Builds glmux's Debian binary packages: copies the source tree (tracked and untracked,
# not ignored, files) into a scratch directory, puts packaging/debian in place as debian/,
# writes debian/changelog for this version, and runs dpkg-buildpackage -us -uc: the source
# package (.dsc, native .tar.xz, which lintian checks) and the binary packages. Parts a
# tree does not build (libEGL, libGLX, libGL, the tool: all built now) are left out through the
# build profiles pkg.glmux.no{egl,glx,gl,tools}. The .dsc, .tar.xz, .debs, .changes and
# .buildinfo land in OUTDIR.
# The tree is HEAD's committed files (GLMUX_PKG_FROM=worktree: the working tree as it is).
#   packaging/build-deb.sh [OUTDIR]      (default: out/deb; DEB_BUILD_OPTIONS=nocheck skips tests)
#   GLMUX_DEB_PROFILES="..." overrides the detected profiles; GLMUX_DEB_HOST_ARCH=i386 cross-builds;
#   GLMUX_DEB_SOURCE_ONLY=1 makes only the source package (.dsc, .tar.xz; no build dependencies).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$top/out/deb}" && cd "${1:-$top/out/deb}" && pwd)
# shellcheck source=packaging/version.sh
. "$top/packaging/version.sh"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/glmux-deb.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# mktemp -d makes it 0700; the secure-execution tests run a test binary as nobody, which must
# reach the build tree's libraries through their absolute RUNPATH.
chmod 0755 "$scratch"
src="$scratch/glmux-$GLMUX_PKG_VERSION"
mkdir -p "$src"
glmux_copy_tree "$top" "$src"
rm -rf "$src/debian"
cp -r "$top/packaging/debian" "$src/debian"
cat > "$src/debian/changelog" <<EOC
glmux ($GLMUX_PKG_VERSION) unstable; urgency=medium

  * glmux $GLMUX_VERSION ($GLMUX_GIT_DESC), libglvnd $GLMUX_GLVND_COMPAT compatible,
    built by packaging/build-deb.sh.

 -- glmux developers <dev@glmux.org>  $(date -R -u -d "@$SOURCE_DATE_EPOCH")
EOC
# The source package must not depend on the builder's umask: dpkg-source keeps the modes the
# files have here (git archive and cp create them through the umask).
chmod -R u+rwX,go+rX,go-w "$src"
if [ "${GLMUX_DEB_SOURCE_ONLY:-}" = 1 ]; then
    (cd "$scratch" && dpkg-source -b "glmux-$GLMUX_PKG_VERSION")
    rm -f "$out"/*.dsc "$out"/*.tar.*
    mv "$scratch"/*.dsc "$scratch"/*.tar.* "$out/"
    echo "glmux: source package in $out:"
    ls "$out"
    exit 0
fi

glmux_missing_parts "$src" > "$scratch/missing-parts"
profiles=${GLMUX_DEB_PROFILES-$(sed 's/^/pkg.glmux.no/' "$scratch/missing-parts" | paste -sd, -)}
# DEB_BUILD_OPTIONS=nocheck also drops the test-only build dependencies (<!nocheck>), as
# Debian's convention pairs the option with the nocheck build profile.
case " ${DEB_BUILD_OPTIONS:-} " in
    *" nocheck "*) case ",$profiles," in *,nocheck,*) ;; *) profiles=${profiles:+$profiles,}nocheck ;; esac ;;
esac
# Build in parallel unless the caller chose (debhelper builds serially without parallel=N).
case " ${DEB_BUILD_OPTIONS:-} " in *" parallel="*) ;; *)
    DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }parallel=$(nproc 2>/dev/null || echo 2)"
    export DEB_BUILD_OPTIONS ;;
esac
echo "glmux: building $GLMUX_PKG_VERSION in $src; profiles: ${profiles:-none}"
# The build's temporary files (its test suite's among them) go to a TMPDIR in the scratch
# directory, removed with it, so the build leaves /tmp as it found it; what the suite left
# there is said (scripts/test.sh fails on it).
mkdir -m 1777 "$scratch/tmp"
# GLMUX_DEB_HOST_ARCH=i386 cross-builds for that architecture (Debian's cross compiler and the
# target's build dependencies through multiarch).
(cd "$src" && TMPDIR="$scratch/tmp" dpkg-buildpackage -us -uc ${profiles:+-P"$profiles"} \
    ${GLMUX_DEB_HOST_ARCH:+-a"$GLMUX_DEB_HOST_ARCH"})
left=$(ls -A "$scratch/tmp")
[ -z "$left" ] || echo "glmux: the package build's tests left in its TMPDIR (removed now):" $left
rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo "$out"/*.dsc "$out"/*.tar.*
mv "$scratch"/*.deb "$scratch"/*.changes "$scratch"/*.buildinfo "$scratch"/*.dsc \
    "$scratch"/*.tar.* "$out/"
# The parts left out, for tests/packaging.
sed "s/^/pkg.glmux.no/" "$scratch/missing-parts" > "$out/glmux-left-out"
echo "glmux: packages in $out:"
ls "$out"
