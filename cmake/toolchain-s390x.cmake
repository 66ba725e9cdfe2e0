# SPDX-License-Identifier: MIT
# Toolchain file: 64-bit IBM Z, big-endian (Debian s390x): pure-C stubs. Tests run under qemu-user.
# Debian's cross compiler gcc-s390x-linux-gnu; libraries of the target (libX11 for libGLX/libGL, Mesa for
# the real-vendor tests) through multiarch: dpkg --add-architecture s390x.
#   cmake -S . -B build-s390x -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-s390x.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(CMAKE_C_COMPILER s390x-linux-gnu-gcc)
set(CMAKE_ASM_COMPILER s390x-linux-gnu-gcc)
# Multiarch: find_library and find_path look under /usr/lib/s390x-linux-gnu and /usr/include/s390x-linux-gnu.
set(CMAKE_LIBRARY_ARCHITECTURE s390x-linux-gnu)
set(GLMUX_DEBIAN_ARCH s390x CACHE STRING "Debian architecture of the target")
# The target's .pc files first; cmake/pkgconfig-headers supplies header-only libdrm, libudev, xcb, xcb-dri3
# where the target has none installed (no multiarch packages, e.g. riscv64 on Debian 12).
set(ENV{PKG_CONFIG_LIBDIR}
    "/usr/lib/s390x-linux-gnu/pkgconfig:/usr/share/pkgconfig:${CMAKE_CURRENT_LIST_DIR}/pkgconfig-headers")
# ctest runs the test programs under qemu-user. The foreign architecture's Debian libraries
# come from multiarch (/usr/lib/s390x-linux-gnu) where installed; otherwise -L points qemu at the
# cross toolchain's C library.
if(EXISTS "/usr/lib/s390x-linux-gnu/libc.so.6")
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-s390x)
else()
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-s390x -L /usr/s390x-linux-gnu)
endif()
