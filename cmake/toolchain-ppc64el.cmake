# SPDX-License-Identifier: MIT
# Toolchain file: 64-bit little-endian POWER (Debian ppc64el): pure-C stubs. Tests run under qemu-user.
# Debian's cross compiler gcc-powerpc64le-linux-gnu; libraries of the target (libX11 for libGLX/libGL, Mesa for
# the real-vendor tests) through multiarch: dpkg --add-architecture ppc64el.
#   cmake -S . -B build-ppc64el -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-ppc64el.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ppc64le)
set(CMAKE_C_COMPILER powerpc64le-linux-gnu-gcc)
set(CMAKE_ASM_COMPILER powerpc64le-linux-gnu-gcc)
# Multiarch: find_library and find_path look under /usr/lib/powerpc64le-linux-gnu and /usr/include/powerpc64le-linux-gnu.
set(CMAKE_LIBRARY_ARCHITECTURE powerpc64le-linux-gnu)
set(GLMUX_DEBIAN_ARCH ppc64el CACHE STRING "Debian architecture of the target")
# The target's .pc files first; cmake/pkgconfig-headers supplies header-only libdrm, libudev, xcb, xcb-dri3
# where the target has none installed (no multiarch packages, e.g. riscv64 on Debian 12).
set(ENV{PKG_CONFIG_LIBDIR}
    "/usr/lib/powerpc64le-linux-gnu/pkgconfig:/usr/share/pkgconfig:${CMAKE_CURRENT_LIST_DIR}/pkgconfig-headers")
# ctest runs the test programs under qemu-user. The foreign architecture's Debian libraries
# come from multiarch (/usr/lib/powerpc64le-linux-gnu) where installed; otherwise -L points qemu at the
# cross toolchain's C library.
if(EXISTS "/usr/lib/powerpc64le-linux-gnu/libc.so.6")
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-ppc64le)
else()
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-ppc64le -L /usr/powerpc64le-linux-gnu)
endif()
