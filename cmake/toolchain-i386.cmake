# SPDX-License-Identifier: MIT
# Toolchain file: 32-bit x86 (Debian i386; what Steam and Wine load). amd64 kernels run the tests natively.
# Debian's cross compiler gcc-i686-linux-gnu; libraries of the target (libX11 for libGLX/libGL, Mesa for
# the real-vendor tests) through multiarch: dpkg --add-architecture i386.
#   cmake -S . -B build-i386 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-i386.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_C_COMPILER i686-linux-gnu-gcc)
set(CMAKE_ASM_COMPILER i686-linux-gnu-gcc)
# Multiarch: find_library and find_path look under /usr/lib/i386-linux-gnu and /usr/include/i386-linux-gnu.
set(CMAKE_LIBRARY_ARCHITECTURE i386-linux-gnu)
set(GLMUX_DEBIAN_ARCH i386 CACHE STRING "Debian architecture of the target")
# The target's .pc files first; cmake/pkgconfig-headers supplies header-only libdrm, libudev, xcb, xcb-dri3
# where the target has none installed (no multiarch packages, e.g. riscv64 on Debian 12).
set(ENV{PKG_CONFIG_LIBDIR}
    "/usr/lib/i386-linux-gnu/pkgconfig:/usr/share/pkgconfig:${CMAKE_CURRENT_LIST_DIR}/pkgconfig-headers")
# No emulator: an x86-64 kernel runs i386 programs (libc6:i386 through multiarch).
