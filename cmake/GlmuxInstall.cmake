# SPDX-License-Identifier: MIT
# Install rules for everything that is not a library: the vendor-ABI headers (include/glvnd), the
# GL layer interface (include/glmux/glmux_layer.h and glmux-layer.pc, docs/layers.md), the
# Khronos API headers that libglvnd's -dev packages ship (generated at build time from the
# Khronos registry, never committed: cmake/GlmuxKhronosHeaders.cmake), the pkg-config files (written at
# install time so that `cmake --install --prefix X` gives correct files anywhere), and the empty
# vendor and layer directories. Included once at the end of the top-level CMakeLists.txt, after
# every library target exists. docs/packaging.md explains the choices.
include_guard(GLOBAL)

set(GLMUX_GLVND_COMPAT_VERSION "1.7.0" CACHE STRING
    "Version libglvnd.pc reports (Mesa requires >= 1.3.2)")
option(GLMUX_INSTALL_KHRONOS_HEADERS
       "Install GL/ GLX/ EGL/ GLES*/ KHR/ headers like libglvnd's -dev packages" ON)

# glmux_install_find_library(var output_name): the library target whose OUTPUT_NAME is
# output_name, searched in every directory of the project, or "" when it is not built.
function(glmux_install_find_library var name)
  set(dirs "${PROJECT_SOURCE_DIR}")
  set(found "")
  while(dirs)
    list(POP_FRONT dirs dir)
    get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
    list(APPEND dirs ${subdirs})
    get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
    foreach(t IN LISTS targets)
      get_target_property(type ${t} TYPE)
      get_target_property(out ${t} OUTPUT_NAME)
      if(type STREQUAL "SHARED_LIBRARY" AND out STREQUAL "${name}")
        set(found ${t})
      endif()
    endforeach()
  endwhile()
  set(${var} "${found}" PARENT_SCOPE)
endfunction()

# API -> library output name, pkg-config files and Khronos headers (the Debian -dev split).
set(glmux_api_list opengl gl glx egl gles1 gles2)
set(glmux_api_opengl_lib OpenGL)
set(glmux_api_opengl_pc opengl)
set(glmux_api_opengl_headers GL/gl.h GL/glext.h GL/glcorearb.h KHR/khrplatform.h)
set(glmux_api_gl_lib GL)
set(glmux_api_gl_pc gl)
set(glmux_api_gl_headers GL/gl.h GL/glext.h GL/glcorearb.h KHR/khrplatform.h)
set(glmux_api_glx_lib GLX)
set(glmux_api_glx_pc glx)
set(glmux_api_glx_headers GL/glx.h GL/glxext.h)
set(glmux_api_egl_lib EGL)
set(glmux_api_egl_pc egl)
set(glmux_api_egl_headers EGL/egl.h EGL/eglext.h EGL/eglplatform.h KHR/khrplatform.h)
set(glmux_api_gles1_lib GLESv1_CM)
set(glmux_api_gles1_pc glesv1_cm)
set(glmux_api_gles1_headers GLES/egl.h GLES/gl.h GLES/glext.h GLES/glplatform.h
    KHR/khrplatform.h)
set(glmux_api_gles2_lib GLESv2)
set(glmux_api_gles2_pc glesv2)
set(glmux_api_gles2_headers GLES2/gl2.h GLES2/gl2ext.h GLES2/gl2platform.h GLES3/gl3.h
    GLES3/gl31.h GLES3/gl32.h GLES3/gl3ext.h GLES3/gl3platform.h KHR/khrplatform.h)

set(glmux_pc_files libglvnd glmux glmux-layer)
set(glmux_khronos_headers)
set(glmux_built_apis)
foreach(api IN LISTS glmux_api_list)
  glmux_install_find_library(tgt ${glmux_api_${api}_lib})
  if(tgt)
    list(APPEND glmux_built_apis ${api})
    list(APPEND glmux_pc_files ${glmux_api_${api}_pc})
    list(APPEND glmux_khronos_headers ${glmux_api_${api}_headers})
  endif()
endforeach()
list(REMOVE_DUPLICATES glmux_khronos_headers)
message(STATUS "glmux: pkg-config files to install: ${glmux_pc_files}")

# Vendor-ABI headers: our own text, whatever exists under include/glvnd.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/glvnd" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        COMPONENT dev FILES_MATCHING PATTERN "*.h")

# The GL layer interface: what a layer library builds against (pkg-config glmux-layer).
install(FILES "${PROJECT_SOURCE_DIR}/include/glmux/glmux_layer.h"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/glmux" COMPONENT dev)

# Khronos headers: generated into the build tree (cmake/GlmuxKhronosHeaders.cmake); each API's
# set is installed with its library, as libglvnd's -dev packages split them.
if(GLMUX_INSTALL_KHRONOS_HEADERS AND glmux_khronos_headers)
  foreach(h IN LISTS glmux_khronos_headers)
    if(NOT EXISTS "${GLMUX_KHRONOS_INCLUDE}/${h}")
      message(FATAL_ERROR "glmux: ${h} was not generated into ${GLMUX_KHRONOS_INCLUDE}")
    endif()
    get_filename_component(sub "${h}" DIRECTORY)
    install(FILES "${GLMUX_KHRONOS_INCLUDE}/${h}" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/${sub}"
            COMPONENT dev)
  endforeach()
endif()

# pkg-config files and vendor directories: computed at install time from the prefix in force
# (cmake/GlmuxInstallPaths.cmake).
# A libEGL that compiles in its JSON search path may set GLMUX_EGL_VENDOR_DIRS (':'-separated,
# absolute) so that egl_vendor_dirs states exactly what it searches. vendordir is the compiled-in
# GLMUX_VENDOR_DIR (src/select); written as ${libdir}/glvnd/vendors when the install's libdir is
# the configured one.
set(glmux_pc_templates)
foreach(pc IN LISTS glmux_pc_files)
  list(APPEND glmux_pc_templates "${PROJECT_SOURCE_DIR}/pkgconfig/${pc}.pc.in")
endforeach()
set(glmux_install_script "${PROJECT_BINARY_DIR}/glmux_install_paths.cmake")
file(WRITE "${glmux_install_script}" "# generated by cmake/GlmuxInstall.cmake -- do not edit\n"
  "set(GLMUX_PC_TEMPLATES \"${glmux_pc_templates}\")\n"
  "set(GLMUX_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")\n"
  "set(GLMUX_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")\n"
  "set(GLMUX_DATAROOTDIR \"${CMAKE_INSTALL_DATAROOTDIR}\")\n"
  "set(GLMUX_DATADIR \"${CMAKE_INSTALL_DATADIR}\")\n"
  "set(GLMUX_SYSCONFDIR \"${CMAKE_INSTALL_SYSCONFDIR}\")\n"
  "set(GLMUX_EGL_VENDOR_DIRS \"${GLMUX_EGL_VENDOR_DIRS}\")\n"
  "set(GLMUX_BUILT_APIS \"${glmux_built_apis}\")\n"
  "set(GLMUX_BUILD_DIR \"${PROJECT_BINARY_DIR}\")\n"
  "set(GLMUX_VENDOR_DIR \"${GLMUX_VENDOR_DIR}\")\n"
  "set(GLMUX_CONFIGURED_FULL_LIBDIR \"${CMAKE_INSTALL_FULL_LIBDIR}\")\n"
  "set(PROJECT_VERSION \"${PROJECT_VERSION}\")\n"
  "set(GLMUX_GLVND_COMPAT_VERSION \"${GLMUX_GLVND_COMPAT_VERSION}\")\n")
install(CODE "include(\"${glmux_install_script}\")
include(\"${PROJECT_SOURCE_DIR}/cmake/GlmuxInstallPaths.cmake\")")
