# SPDX-License-Identifier: MIT
# Wayland protocol code generated at build time with wayland-scanner, from the XML of Debian's
# wayland-protocols package (or, for wl_drm, which no Debian package ships, the subset in
# src/select/wayland-drm.xml). Nothing generated is committed.
#   glmux_wayland_protocol(NAME XML OUTVAR)
# writes NAME-protocol.c (the interface descriptions, hidden), NAME-client-protocol.h and
# NAME-server-protocol.h into CMAKE_CURRENT_BINARY_DIR/wayland and appends the .c and both
# headers to OUTVAR (add them to a target's sources in the same directory).
find_program(GLMUX_WAYLAND_SCANNER wayland-scanner REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(GLMUX_WAYLAND_PROTOCOLS REQUIRED wayland-protocols)
pkg_get_variable(GLMUX_WAYLAND_PROTOCOLS_DIR wayland-protocols pkgdatadir)
set(GLMUX_LINUX_DMABUF_XML
    "${GLMUX_WAYLAND_PROTOCOLS_DIR}/unstable/linux-dmabuf/linux-dmabuf-unstable-v1.xml")
set(GLMUX_WL_DRM_XML "${PROJECT_SOURCE_DIR}/src/select/wayland-drm.xml")

function(glmux_wayland_protocol name xml outvar)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/wayland")
  set(outputs "${dir}/${name}-protocol.c" "${dir}/${name}-client-protocol.h"
              "${dir}/${name}-server-protocol.h")
  add_custom_command(OUTPUT ${outputs}
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
    COMMAND "${GLMUX_WAYLAND_SCANNER}" private-code "${xml}" "${dir}/${name}-protocol.c"
    COMMAND "${GLMUX_WAYLAND_SCANNER}" client-header "${xml}" "${dir}/${name}-client-protocol.h"
    COMMAND "${GLMUX_WAYLAND_SCANNER}" server-header "${xml}" "${dir}/${name}-server-protocol.h"
    DEPENDS "${xml}" VERBATIM)
  set(${outvar} ${${outvar}} ${outputs} PARENT_SCOPE)
endfunction()
