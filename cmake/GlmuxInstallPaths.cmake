# SPDX-License-Identifier: MIT
# Runs at install time (from cmake/GlmuxInstall.cmake's install(CODE)): resolves the install
# directories against the prefix actually in force (`cmake --install --prefix X` overrides the
# configured one), writes the pkg-config files with `${prefix}`-relative paths, and creates the
# empty vendor and layer directories. GNUInstallDirs' rules for sysconfdir are repeated here
# because they depend on the prefix: /usr gives /etc, /opt/<x> gives /etc/opt/<x>, anything
# else <prefix>/etc.

cmake_policy(PUSH)
cmake_policy(VERSION 3.25)
set(prefix "${CMAKE_INSTALL_PREFIX}")
if(NOT prefix STREQUAL "/")
  string(REGEX REPLACE "/+$" "" prefix "${prefix}")
endif()

# glmux_paths_resolve(pcvar fsvar dir): the .pc form ("${prefix}/dir" or an absolute path) and
# the real path of an install directory.
function(glmux_paths_resolve pcvar fsvar dir)
  if(IS_ABSOLUTE "${dir}")
    set(${pcvar} "${dir}" PARENT_SCOPE)
    set(${fsvar} "${dir}" PARENT_SCOPE)
  else()
    set(${pcvar} "\${prefix}/${dir}" PARENT_SCOPE)
    set(${fsvar} "${prefix}/${dir}" PARENT_SCOPE)
  endif()
endfunction()

if(NOT IS_ABSOLUTE "${GLMUX_SYSCONFDIR}" AND (prefix STREQUAL "/usr" OR prefix STREQUAL "/"))
  set(GLMUX_SYSCONFDIR "/${GLMUX_SYSCONFDIR}")
elseif(NOT IS_ABSOLUTE "${GLMUX_SYSCONFDIR}" AND prefix MATCHES "^/opt/")
  set(GLMUX_SYSCONFDIR "/${GLMUX_SYSCONFDIR}${prefix}")
endif()

glmux_paths_resolve(GLMUX_PC_LIBDIR libdir_fs "${GLMUX_LIBDIR}")
glmux_paths_resolve(GLMUX_PC_INCLUDEDIR includedir_fs "${GLMUX_INCLUDEDIR}")
glmux_paths_resolve(GLMUX_PC_DATAROOTDIR datarootdir_fs "${GLMUX_DATAROOTDIR}")
glmux_paths_resolve(GLMUX_PC_SYSCONFDIR sysconfdir_fs "${GLMUX_SYSCONFDIR}")
# datadir defaults to datarootdir; express it through ${datarootdir} like GNU does.
if(GLMUX_DATADIR STREQUAL GLMUX_DATAROOTDIR)
  set(GLMUX_PC_DATADIR "\${datarootdir}")
  set(datadir_fs "${datarootdir_fs}")
else()
  glmux_paths_resolve(GLMUX_PC_DATADIR datadir_fs "${GLMUX_DATADIR}")
endif()
set(GLMUX_PC_PREFIX "${prefix}")
# The vendor directory is compiled into the libraries (GLMUX_VENDOR_DIR, src/select), so the
# .pc files state that path: as ${libdir}/glvnd/vendors when the install puts libdir where the
# build was configured for (every package build), verbatim otherwise (`--prefix X` moves the
# files, not the path the libraries search).
set(vendordir_fs "${libdir_fs}/glvnd/vendors")
if(NOT GLMUX_VENDOR_DIR)
  set(GLMUX_VENDOR_DIR "${GLMUX_CONFIGURED_FULL_LIBDIR}/glvnd/vendors")
endif()
if(GLMUX_VENDOR_DIR STREQUAL vendordir_fs)
  set(GLMUX_PC_VENDORDIR "\${libdir}/glvnd/vendors")
else()
  # `--prefix` at install time moves the files, not the paths compiled into the libraries.
  message(WARNING "glmux is installed into ${prefix} but was configured for another prefix: "
    "its libraries search the vendor directory ${GLMUX_VENDOR_DIR}, not "
    "${vendordir_fs}. Configure with -DCMAKE_INSTALL_PREFIX=${prefix} for them to search "
    "the installed one, or set GLMUX_VENDOR_DIRS (docs/prefix.md).")
  set(vendordir_fs "${GLMUX_VENDOR_DIR}")
  set(GLMUX_PC_VENDORDIR "${GLMUX_VENDOR_DIR}")
endif()
if(GLMUX_EGL_VENDOR_DIRS)
  set(GLMUX_PC_EGL_VENDOR_DIRS "${GLMUX_EGL_VENDOR_DIRS}")
else()
  set(GLMUX_PC_EGL_VENDOR_DIRS "\${sysconfdir}/glvnd/egl_vendor.d:\${datadir}/glvnd/egl_vendor.d")
endif()

# pkg-config splits Libs and Cflags into words at spaces: a path holding one is written with
# "\ ", as Meson writes libglvnd's files, and pkg-config gives it back as one word.
foreach(v GLMUX_PC_PREFIX GLMUX_PC_LIBDIR GLMUX_PC_INCLUDEDIR GLMUX_PC_DATAROOTDIR
          GLMUX_PC_DATADIR GLMUX_PC_SYSCONFDIR GLMUX_PC_VENDORDIR GLMUX_PC_EGL_VENDOR_DIRS)
  string(REPLACE " " "\\ " ${v} "${${v}}")
endforeach()

# One staging folder per destination, so that concurrent installs (ctest -j) do not collide.
string(MD5 dest_hash "$ENV{DESTDIR}${prefix}")
set(pc_out "${GLMUX_BUILD_DIR}/pkgconfig/install-${dest_hash}")
file(REMOVE_RECURSE "${pc_out}")
set(pc_files)
foreach(tmpl IN LISTS GLMUX_PC_TEMPLATES)
  get_filename_component(name "${tmpl}" NAME)
  string(REGEX REPLACE "\\.in$" "" name "${name}")
  configure_file("${tmpl}" "${pc_out}/${name}" @ONLY)
  list(APPEND pc_files "${pc_out}/${name}")
endforeach()
file(INSTALL ${pc_files} DESTINATION "${libdir_fs}/pkgconfig")

# Vendor directories: glmux's own, and libglvnd's EGL JSON pair when libEGL is built. Layer
# directories (docs/layers.md): this architecture's packaged layers and the administrator's,
# implicit and explicit.
set(dirs "${vendordir_fs}")
foreach(kind implicit explicit)
  list(APPEND dirs "${libdir_fs}/glvnd/${kind}_layer.d" "${sysconfdir_fs}/glmux/${kind}_layer.d")
endforeach()
if("egl" IN_LIST GLMUX_BUILT_APIS)
  list(APPEND dirs "${sysconfdir_fs}/glvnd/egl_vendor.d" "${datadir_fs}/glvnd/egl_vendor.d")
endif()
# A directory outside the prefix (sysconfdir /etc) is made only when staging under DESTDIR: a
# test install into a scratch prefix must not touch the machine's /etc, and the directory is
# optional (libEGL only scans it); the packages create it.
foreach(d IN LISTS dirs)
  string(FIND "${d}/" "${prefix}/" at)
  if(NOT at EQUAL 0 AND "$ENV{DESTDIR}" STREQUAL "" AND NOT prefix STREQUAL "/")
    message(STATUS "Not creating ${d}: outside the prefix ${prefix} (set DESTDIR to stage it)")
    continue()
  endif()
  message(STATUS "Creating vendor directory: $ENV{DESTDIR}${d}")
  file(MAKE_DIRECTORY "$ENV{DESTDIR}${d}")
endforeach()
cmake_policy(POP)
