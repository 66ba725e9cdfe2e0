# SPDX-License-Identifier: MIT
# Toolchain file: 32-bit ARM hard-float, ARMv7-A (Debian armhf). Tests run under qemu-user.
# Debian's cross compiler gcc-arm-linux-gnueabihf; libraries of the target (libX11 for libGLX/libGL, Mesa for
# the real-vendor tests) through multiarch: dpkg --add-architecture armhf.
#   cmake -S . -B build-armhf -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-armhf.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR armv7l)
set(CMAKE_C_COMPILER arm-linux-gnueabihf-gcc)
set(CMAKE_ASM_COMPILER arm-linux-gnueabihf-gcc)
# Multiarch: find_library and find_path look under /usr/lib/arm-linux-gnueabihf and /usr/include/arm-linux-gnueabihf.
set(CMAKE_LIBRARY_ARCHITECTURE arm-linux-gnueabihf)
set(GLMUX_DEBIAN_ARCH armhf CACHE STRING "Debian architecture of the target")
# The target's .pc files first; cmake/pkgconfig-headers supplies header-only libdrm, libudev, xcb, xcb-dri3
# where the target has none installed (no multiarch packages, e.g. riscv64 on Debian 12).
set(ENV{PKG_CONFIG_LIBDIR}
    "/usr/lib/arm-linux-gnueabihf/pkgconfig:/usr/share/pkgconfig:${CMAKE_CURRENT_LIST_DIR}/pkgconfig-headers")
# ctest runs the test programs under qemu-user. The foreign architecture's Debian libraries
# come from multiarch (/usr/lib/arm-linux-gnueabihf) where installed; otherwise -L points qemu at the
# cross toolchain's C library.
if(EXISTS "/usr/lib/arm-linux-gnueabihf/libc.so.6")
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-arm)
else()
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-arm -L /usr/arm-linux-gnueabihf)
endif()
