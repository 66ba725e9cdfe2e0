# SPDX-License-Identifier: MIT
# Toolchain file: 64-bit ARM (Debian arm64). Tests run under qemu-user.
# Debian's cross compiler gcc-aarch64-linux-gnu; libraries of the target (libX11 for libGLX/libGL, Mesa for
# the real-vendor tests) through multiarch: dpkg --add-architecture arm64.
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-arm64.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_ASM_COMPILER aarch64-linux-gnu-gcc)
# Multiarch: find_library and find_path look under /usr/lib/aarch64-linux-gnu and /usr/include/aarch64-linux-gnu.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(GLMUX_DEBIAN_ARCH arm64 CACHE STRING "Debian architecture of the target")
# The target's .pc files first; cmake/pkgconfig-headers supplies header-only libdrm, libudev, xcb, xcb-dri3
# where the target has none installed (no multiarch packages, e.g. riscv64 on Debian 12).
set(ENV{PKG_CONFIG_LIBDIR}
    "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig:${CMAKE_CURRENT_LIST_DIR}/pkgconfig-headers")
# ctest runs the test programs under qemu-user. The foreign architecture's Debian libraries
# come from multiarch (/usr/lib/aarch64-linux-gnu) where installed; otherwise -L points qemu at the
# cross toolchain's C library.
if(EXISTS "/usr/lib/aarch64-linux-gnu/libc.so.6")
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
else()
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
endif()
