# SPDX-License-Identifier: MIT
# Toolchain file: 64-bit ARM (Debian arm64). Tests run under qemu-user.
# Debian's cross compiler gcc-aarch64-linux-gnu; libraries of the target (libX11 for libGLX/libGL, Mesa for
# the real-vendor tests) through multiarch: dpkg --add-architecture arm64.
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-arm64.cmake
include("${CMAKE_CURRENT_LIST_DIR}/GlmuxCrossToolchain.cmake")
glmux_cross_toolchain(PROCESSOR aarch64 TRIPLET aarch64-linux-gnu MULTIARCH aarch64-linux-gnu DEBIAN_ARCH arm64 QEMU qemu-aarch64)
