# SPDX-License-Identifier: MIT
# Toolchain file: 32-bit x86 (Debian i386; what Steam and Wine load). amd64 kernels with 32-bit
# support run the tests natively; -DGLMUX_CROSS_RUN=qemu runs them under qemu-i386 instead.
# Debian's cross compiler gcc-i686-linux-gnu; libraries of the target (libX11 for libGLX/libGL, Mesa for
# the real-vendor tests) through multiarch: dpkg --add-architecture i386.
#   cmake -S . -B build-i386 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-i386.cmake
include("${CMAKE_CURRENT_LIST_DIR}/GlmuxCrossToolchain.cmake")
glmux_cross_toolchain(PROCESSOR i686 TRIPLET i686-linux-gnu MULTIARCH i386-linux-gnu DEBIAN_ARCH i386
  QEMU qemu-i386 RUN native)
