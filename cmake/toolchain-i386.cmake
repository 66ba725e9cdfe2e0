# SPDX-License-Identifier: MIT
# Toolchain file: 32-bit x86 (Debian i386; what Steam and Wine load). amd64 kernels run the tests natively.
# Debian's cross compiler gcc-i686-linux-gnu; libraries of the target (libX11 for libGLX/libGL, Mesa for
# the real-vendor tests) through multiarch: dpkg --add-architecture i386.
#   cmake -S . -B build-i386 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-i386.cmake
# No emulator: an x86-64 kernel runs i386 programs (libc6:i386 through multiarch).
include("${CMAKE_CURRENT_LIST_DIR}/GlmuxCrossToolchain.cmake")
glmux_cross_toolchain(PROCESSOR i686 TRIPLET i686-linux-gnu MULTIARCH i386-linux-gnu DEBIAN_ARCH i386)
