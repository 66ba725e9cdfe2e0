# SPDX-License-Identifier: MIT
# The first install rule: `cmake --install` refuses to overwrite files that dpkg owns. With
# prefix /usr on Debian, glmux's libraries, headers and pkg-config files are the paths of
# libglvnd's packages (libglvnd0, libgl1, libegl-dev, ...): an install would overwrite them
# behind dpkg's back, and the usual undo, `xargs rm < install_manifest.txt`, would then delete
# Debian's files. So when no DESTDIR is set (a package build stages into one) and one of the
# paths this install writes already exists and `dpkg-query -S` names a package that owns it, the
# install stops before writing anything and says what to do instead: install the packages
# (docs/packaging.md, "Installing the packages, and going back"), or a prefix of its own
# (docs/prefix.md). A user who means it configures with -DGLMUX_ALLOW_OVERWRITE_DPKG=ON (or
# sets GLMUX_ALLOW_OVERWRITE_DPKG=1 for one install). Included by cmake/GlmuxLibrary.cmake,
# before any library's install rule (install rules run in the order they are declared).
include_guard(GLOBAL)

option(GLMUX_ALLOW_OVERWRITE_DPKG
       "Let cmake --install overwrite files that dpkg's packages own (prefix /usr on Debian)" OFF)

# The paths, relative to the prefix, that stand for the whole install: every library's soname
# link, the headers and pkg-config files libglvnd's -dev packages ship, the tool.
set(glmux_guard_paths "")
foreach(lib libGLdispatch.so.0 libOpenGL.so.0 libGL.so.1 libGLX.so.0 libEGL.so.1
            libGLESv1_CM.so.1 libGLESv2.so.2 libGLX_glmux-pixels.so.0 libGL.so libEGL.so
            pkgconfig/gl.pc pkgconfig/egl.pc pkgconfig/libglvnd.pc)
  list(APPEND glmux_guard_paths "${CMAKE_INSTALL_LIBDIR}/${lib}")
endforeach()
foreach(header GL/gl.h GL/glx.h EGL/egl.h GLES2/gl2.h KHR/khrplatform.h glvnd/libeglabi.h)
  list(APPEND glmux_guard_paths "${CMAKE_INSTALL_INCLUDEDIR}/${header}")
endforeach()
list(APPEND glmux_guard_paths "${CMAKE_INSTALL_BINDIR}/glmux")

install(CODE "
  set(glmux_guard_paths \"${glmux_guard_paths}\")
  set(glmux_guard_allow \"${GLMUX_ALLOW_OVERWRITE_DPKG}\")
  if(\"\$ENV{GLMUX_ALLOW_OVERWRITE_DPKG}\" MATCHES \"^(1|ON|on|yes|true)$\")
    set(glmux_guard_allow ON)
  endif()
  if(\"\$ENV{DESTDIR}\" STREQUAL \"\" AND NOT glmux_guard_allow)
    set(glmux_guard_existing \"\")
    foreach(p IN LISTS glmux_guard_paths)
      if(IS_ABSOLUTE \"\${p}\")
        set(f \"\${p}\")
      else()
        set(f \"\${CMAKE_INSTALL_PREFIX}/\${p}\")
      endif()
      if(EXISTS \"\${f}\")
        list(APPEND glmux_guard_existing \"\${f}\")
      endif()
    endforeach()
    if(glmux_guard_existing)
      execute_process(COMMAND dpkg-query -S \${glmux_guard_existing}
        OUTPUT_VARIABLE glmux_guard_owned ERROR_QUIET RESULT_VARIABLE glmux_guard_rc)
      string(STRIP \"\${glmux_guard_owned}\" glmux_guard_owned)
      if(glmux_guard_owned)
        message(FATAL_ERROR \"glmux: this install (prefix \${CMAKE_INSTALL_PREFIX}) would \"
          \"overwrite files that dpkg's packages own:\\n\${glmux_guard_owned}\\n\"
          \"dpkg would not know, and removing the install (xargs rm < install_manifest.txt) \"
          \"would then delete those packages' files. Nothing was installed. Instead: install \"
          \"glmux's packages (packaging/build-deb.sh, then apt install ./out/deb/*.deb: \"
          \"docs/packaging.md, 'Installing the packages, and going back'), or install into \"
          \"a prefix of its own \"
          \"(cmake --install build --prefix /opt/glmux: docs/prefix.md). To overwrite them \"
          \"anyway, configure with -DGLMUX_ALLOW_OVERWRITE_DPKG=ON or set \"
          \"GLMUX_ALLOW_OVERWRITE_DPKG=1 for this install.\")
      endif()
    endif()
  endif()
")
