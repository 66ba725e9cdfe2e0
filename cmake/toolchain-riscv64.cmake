# SPDX-License-Identifier: MIT
# Toolchain file: 64-bit RISC-V (Debian riscv64): pure-C stubs. Tests run under qemu-user.
# Debian's cross compiler gcc-riscv64-linux-gnu; libraries of the target (libX11 for libGLX/libGL, Mesa for
# the real-vendor tests) through multiarch: dpkg --add-architecture riscv64.
#   cmake -S . -B build-riscv64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-riscv64.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(CMAKE_C_COMPILER riscv64-linux-gnu-gcc)
set(CMAKE_ASM_COMPILER riscv64-linux-gnu-gcc)
# Multiarch: find_library and find_path look under /usr/lib/riscv64-linux-gnu and /usr/include/riscv64-linux-gnu.
set(CMAKE_LIBRARY_ARCHITECTURE riscv64-linux-gnu)
set(GLMUX_DEBIAN_ARCH riscv64 CACHE STRING "Debian architecture of the target")
# The target's .pc files first; cmake/pkgconfig-headers supplies header-only libdrm, libudev, xcb, xcb-dri3
# where the target has none installed (no multiarch packages, e.g. riscv64 on Debian 12).
set(ENV{PKG_CONFIG_LIBDIR}
    "/usr/lib/riscv64-linux-gnu/pkgconfig:/usr/share/pkgconfig:${CMAKE_CURRENT_LIST_DIR}/pkgconfig-headers")
# ctest runs the test programs under qemu-user. The foreign architecture's Debian libraries
# come from multiarch (/usr/lib/riscv64-linux-gnu) where installed; otherwise -L points qemu at the
# cross toolchain's C library.
if(EXISTS "/usr/lib/riscv64-linux-gnu/libc.so.6")
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-riscv64)
else()
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-riscv64 -L /usr/riscv64-linux-gnu)
endif()
