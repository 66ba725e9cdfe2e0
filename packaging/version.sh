# SPDX-License-Identifier: MIT
# Sourced by build-deb.sh and build-rpm.sh: the package version and helpers shared by both.
# The package version is the libglvnd version we are compatible with plus ours
# (1.7.0+glmux0.1.0), so that it sorts above Debian's and Fedora's libglvnd and satisfies
# `libgl1 (>= 1.6.0)`-style dependencies of packages built against libglvnd.
GLMUX_VERSION=$(sed -n 's/^project(glmux VERSION \([0-9.]*\).*/\1/p' "$top/CMakeLists.txt")
GLMUX_GLVND_COMPAT=$(sed -n 's/^set(GLMUX_GLVND_COMPAT_VERSION "\([0-9.]*\)".*/\1/p' \
    "$top/cmake/GlmuxInstall.cmake")
GLMUX_PKG_VERSION="$GLMUX_GLVND_COMPAT+glmux$GLMUX_VERSION"
# The commit the packages are built from: HEAD, which edits in the working tree do not change
# (so two builds of one commit say the same); "-dirty" only when the working tree is packaged.
glmux_dirty=""
[ "${GLMUX_PKG_FROM:-head}" != worktree ] || glmux_dirty=--dirty
GLMUX_GIT_DESC=$(git -C "$top" describe --always $glmux_dirty 2>/dev/null || echo "no git")
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH
[ -n "$GLMUX_VERSION" ] && [ -n "$GLMUX_GLVND_COMPAT" ] ||
    { echo "version.sh: cannot read the versions from CMakeLists.txt" >&2; exit 1; }

# glmux_copy_tree SRC DEST: the source files of a checkout, without build trees. From git, the
# committed tree (HEAD) by default, so that a package build is reproducible while others edit
# the working tree; GLMUX_PKG_FROM=worktree takes tracked and untracked (not ignored) files as
# they are on disk.
glmux_copy_tree() {
    if ! git -C "$1" rev-parse --git-dir > /dev/null 2>&1; then
        echo "glmux: $1 is not a git checkout: the package is built from its files as they" \
             "are on disk (copied with tar, without build* and out); its changelog names no" \
             "commit (\"no git\")" >&2
        tar -C "$1" --exclude='./build*' --exclude=./out -cf - . | tar -C "$2" -xf -
    elif [ "${GLMUX_PKG_FROM:-head}" = worktree ]; then
        (cd "$1" && git ls-files -z --cached --others --exclude-standard |
            while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
            tar --null -T - -cf -) | tar -C "$2" -xf -
    else
        git -C "$1" archive --format=tar HEAD | tar -C "$2" -xf -
    fi
}

# glmux_missing_parts TREE: egl, glx, gl, tools for each part whose library (or tool) no
# TREE/src/*/CMakeLists.txt builds yet; the package builds leave those packages out.
glmux_missing_parts() {
    local lists
    lists=$(cat "$1"/src/*/CMakeLists.txt 2>/dev/null)
    grep -Eq 'OUTPUT_NAME[[:space:]]+EGL([[:space:]]|\))' <<< "$lists" || echo egl
    grep -Eq 'OUTPUT_NAME[[:space:]]+GLX([[:space:]]|\))' <<< "$lists" || echo glx
    grep -Eq 'OUTPUT_NAME[[:space:]]+GL([[:space:]]|\))' <<< "$lists" || echo gl
    [ -f "$1/src/cli/CMakeLists.txt" ] || echo tools
}
