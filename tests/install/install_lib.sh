# SPDX-License-Identifier: MIT
# Shared helpers for the install tests (sourced by bash scripts): failing and skipping with a
# message, the API table (library, soname, .pc file, pkg-config Version as in Debian 12's
# libglvnd), and the pkg-config environment that sees only the temporary install.

glmux_fail() { echo "FAIL: $*" >&2; exit 1; }
glmux_skip() { echo "SKIP: $*" >&2; exit 77; }

# name soname pc version
GLMUX_APIS="OpenGL libOpenGL.so.0 opengl 4.5
GL libGL.so.1 gl 1.2
GLX libGLX.so.0 glx 1.4
EGL libEGL.so.1 egl 1.5
GLESv1_CM libGLESv1_CM.so.1 glesv1_cm 1.0
GLESv2 libGLESv2.so.2 glesv2 3.2"

# glmux_libdir PREFIX: the directory holding the installed libraries (lib, lib64 or multiarch).
glmux_libdir() {
    local d
    d=$(dirname "$(find "$1" -name 'libGLdispatch.so.0' -print -quit)")
    [ -n "$d" ] && [ "$d" != . ] || glmux_fail "no libGLdispatch.so.0 under $1"
    echo "$d"
}

# glmux_pkgconfig_only LIBDIR: pkg-config sees the install's .pc files and nothing else.
glmux_pkgconfig_only() {
    export PKG_CONFIG_LIBDIR="$1/pkgconfig"
    unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR || true
}

# glmux_require_libs LIBDIR NAME...: skip unless lib<NAME>.so (the dev link) is installed. The
# install_prefix fixture has already failed if an enabled library is missing, so an absent one
# was switched off in this build (GLMUX_ENABLE_*), e.g. scripts/test.sh's minimal build.
glmux_require_libs() {
    local libdir=$1 name
    shift
    for name in "$@"; do
        [ -e "$libdir/lib$name.so" ] || glmux_skip "lib$name is switched off in this build," \
            "so this consumer cannot link"
    done
}
