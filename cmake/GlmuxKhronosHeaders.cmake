# SPDX-License-Identifier: MIT
# Generates the Khronos API headers that libglvnd's -dev packages ship (GL/, GLES/, GLES2/,
# GLES3/, EGL/, KHR/) into <build>/khronos-include with scripts/gen/gen_headers.py, from the
# registry files in GLMUX_KHRONOS_REGISTRY_DIR (Debian: python3-glad's glad/files/), and puts
# that directory first on every target's include path. So the build never reads the headers of
# the packages it produces (libgl-dev, libegl-dev, ...): glmux builds from scratch in a root
# that has none of them. Generated at configure time, again whenever an input changes.
# docs/packaging.md ("Khronos headers") explains the choice.
include_guard(GLOBAL)

set(GLMUX_KHRONOS_INCLUDE "${PROJECT_BINARY_DIR}/khronos-include")
set(glmux_khr_inputs)
foreach(f gl.xml glx.xml egl.xml khrplatform.h eglplatform.h)
  if(NOT EXISTS "${GLMUX_KHRONOS_REGISTRY_DIR}/${f}")
    message(FATAL_ERROR "glmux: ${f} not found in ${GLMUX_KHRONOS_REGISTRY_DIR}: install Debian's "
      "python3-glad (apt-get install python3-glad) or set GLMUX_KHRONOS_REGISTRY_DIR to a "
      "directory holding gl.xml, glx.xml, egl.xml, khrplatform.h and eglplatform.h")
  endif()
  list(APPEND glmux_khr_inputs "${GLMUX_KHRONOS_REGISTRY_DIR}/${f}")
endforeach()
set(glmux_khr_gen "${PROJECT_SOURCE_DIR}/scripts/gen/gen_headers.py")
execute_process(
  COMMAND "${Python3_EXECUTABLE}" "${glmux_khr_gen}"
          --gl-xml "${GLMUX_KHRONOS_REGISTRY_DIR}/gl.xml"
          --glx-xml "${GLMUX_KHRONOS_REGISTRY_DIR}/glx.xml"
          --egl-xml "${GLMUX_KHRONOS_REGISTRY_DIR}/egl.xml"
          --khr-dir "${GLMUX_KHRONOS_REGISTRY_DIR}" --out "${GLMUX_KHRONOS_INCLUDE}"
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "glmux: generating the Khronos headers failed: ${err}")
endif()
set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             "${glmux_khr_gen}" ${glmux_khr_inputs})
# Before /usr/include, so that a Khronos header on the build machine is never used.
include_directories(BEFORE SYSTEM "${GLMUX_KHRONOS_INCLUDE}")

# Which package each input came from, for the packaging tests and docs.
find_program(GLMUX_DPKG_QUERY dpkg-query)
set(owners "")
if(GLMUX_DPKG_QUERY)
  execute_process(COMMAND "${GLMUX_DPKG_QUERY}" -S ${glmux_khr_inputs} OUTPUT_VARIABLE owners
                  ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
file(WRITE "${PROJECT_BINARY_DIR}/khronos-headers-provenance.txt"
     "# inputs of scripts/gen/gen_headers.py\n${owners}\n")
