# SPDX-License-Identifier: MIT
# Toolchain file: 64-bit RISC-V (Debian riscv64): pure-C stubs. Tests run under qemu-user.
# Debian's cross compiler gcc-riscv64-linux-gnu; libraries of the target (libX11 for libGLX/libGL, Mesa for
# the real-vendor tests) through multiarch: dpkg --add-architecture riscv64.
#   cmake -S . -B build-riscv64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-riscv64.cmake
include("${CMAKE_CURRENT_LIST_DIR}/GlmuxCrossToolchain.cmake")
glmux_cross_toolchain(PROCESSOR riscv64 TRIPLET riscv64-linux-gnu MULTIARCH riscv64-linux-gnu DEBIAN_ARCH riscv64 QEMU qemu-riscv64)
