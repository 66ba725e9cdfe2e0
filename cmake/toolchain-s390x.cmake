# SPDX-License-Identifier: MIT
# Toolchain file: 64-bit IBM Z, big-endian (Debian s390x): pure-C stubs. Tests run under qemu-user.
# Debian's cross compiler gcc-s390x-linux-gnu; libraries of the target (libX11 for libGLX/libGL, Mesa for
# the real-vendor tests) through multiarch: dpkg --add-architecture s390x.
#   cmake -S . -B build-s390x -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-s390x.cmake
include("${CMAKE_CURRENT_LIST_DIR}/GlmuxCrossToolchain.cmake")
glmux_cross_toolchain(PROCESSOR s390x TRIPLET s390x-linux-gnu MULTIARCH s390x-linux-gnu DEBIAN_ARCH s390x QEMU qemu-s390x)
