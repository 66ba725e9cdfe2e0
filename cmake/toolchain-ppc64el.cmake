# SPDX-License-Identifier: MIT
# Toolchain file: 64-bit little-endian POWER (Debian ppc64el): pure-C stubs. Tests run under qemu-user.
# Debian's cross compiler gcc-powerpc64le-linux-gnu; libraries of the target (libX11 for libGLX/libGL, Mesa for
# the real-vendor tests) through multiarch: dpkg --add-architecture ppc64el.
#   cmake -S . -B build-ppc64el -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-ppc64el.cmake
include("${CMAKE_CURRENT_LIST_DIR}/GlmuxCrossToolchain.cmake")
glmux_cross_toolchain(PROCESSOR ppc64le TRIPLET powerpc64le-linux-gnu MULTIARCH powerpc64le-linux-gnu DEBIAN_ARCH ppc64el QEMU qemu-ppc64le)
