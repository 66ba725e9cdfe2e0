# SPDX-License-Identifier: MIT
# What every cmake/toolchain-ARCH.cmake file sets, from four facts of the target: the CPU name
# CMake reports, the GNU triplet of Debian's cross compiler (gcc-TRIPLET), the multiarch
# directory of the target's libraries (dpkg --add-architecture DEBIAN_ARCH) and the qemu-user
# program that runs its tests where the build machine's kernel cannot. RUN is how tests run by
# default: "qemu", or "native" where most build machines' kernels execute the target's programs
# themselves (i386 on amd64); -DGLMUX_CROSS_RUN=native|qemu overrides it (tests/cross/run_cross.sh
# probes which one works).
#   glmux_cross_toolchain(PROCESSOR NAME TRIPLET T MULTIARCH M DEBIAN_ARCH A QEMU PROGRAM [RUN native])
macro(glmux_cross_toolchain)
  cmake_parse_arguments(_glmux_cross "" "PROCESSOR;TRIPLET;MULTIARCH;DEBIAN_ARCH;QEMU;RUN" "" ${ARGN})
  if(NOT _glmux_cross_RUN)
    set(_glmux_cross_RUN qemu)
  endif()
  set(GLMUX_CROSS_RUN ${_glmux_cross_RUN} CACHE STRING
      "How test programs of the target run: native (the build machine's kernel) or qemu (qemu-user)")
  set(CMAKE_SYSTEM_NAME Linux)
  set(CMAKE_SYSTEM_PROCESSOR ${_glmux_cross_PROCESSOR})
  set(CMAKE_C_COMPILER ${_glmux_cross_TRIPLET}-gcc)
  set(CMAKE_ASM_COMPILER ${_glmux_cross_TRIPLET}-gcc)
  # Multiarch: find_library and find_path look under /usr/lib/MULTIARCH and /usr/include/MULTIARCH.
  set(CMAKE_LIBRARY_ARCHITECTURE ${_glmux_cross_MULTIARCH})
  set(GLMUX_DEBIAN_ARCH ${_glmux_cross_DEBIAN_ARCH} CACHE STRING "Debian architecture of the target")
  # The target's .pc files first; cmake/pkgconfig-headers supplies header-only libdrm, libudev,
  # xcb, xcb-dri3, wayland-client where the target has none installed (no multiarch packages,
  # e.g. riscv64).
  set(ENV{PKG_CONFIG_LIBDIR}
      "/usr/lib/${_glmux_cross_MULTIARCH}/pkgconfig:/usr/share/pkgconfig:${CMAKE_CURRENT_LIST_DIR}/pkgconfig-headers")
  # With GLMUX_CROSS_RUN=qemu, ctest runs the test programs under qemu-user. The foreign architecture's Debian libraries
  # come from multiarch where installed; otherwise -L points qemu at the cross toolchain's C
  # library.
  if(GLMUX_CROSS_RUN STREQUAL "qemu")
    if(EXISTS "/usr/lib/${_glmux_cross_MULTIARCH}/libc.so.6")
      set(CMAKE_CROSSCOMPILING_EMULATOR ${_glmux_cross_QEMU})
    else()
      set(CMAKE_CROSSCOMPILING_EMULATOR ${_glmux_cross_QEMU} -L /usr/${_glmux_cross_TRIPLET})
    endif()
  endif()
endmacro()
