# SPDX-License-Identifier: MIT
# Toolchain file: 32-bit ARM hard-float, ARMv7-A (Debian armhf). Tests run under qemu-user.
# Debian's cross compiler gcc-arm-linux-gnueabihf; libraries of the target (libX11 for libGLX/libGL, Mesa for
# the real-vendor tests) through multiarch: dpkg --add-architecture armhf.
#   cmake -S . -B build-armhf -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-armhf.cmake
include("${CMAKE_CURRENT_LIST_DIR}/GlmuxCrossToolchain.cmake")
glmux_cross_toolchain(PROCESSOR armv7l TRIPLET arm-linux-gnueabihf MULTIARCH arm-linux-gnueabihf DEBIAN_ARCH armhf QEMU qemu-arm)
