# SPDX-License-Identifier: MIT
# glmux_add_library(): one shipped shared library with its exact file name, soname and export
# list. glmux_add_stub_library(): an API library whose exports are generated GL entry stubs.

# glmux_add_library(target OUTPUT_NAME n SOVERSION s VERSION v MAP file SOURCES ...)
function(glmux_add_library target)
  cmake_parse_arguments(A "" "OUTPUT_NAME;SOVERSION;VERSION;MAP" "SOURCES" ${ARGN})
  add_library(${target} SHARED ${A_SOURCES})
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME "${A_OUTPUT_NAME}" SOVERSION "${A_SOVERSION}" VERSION "${A_VERSION}"
    LINK_DEPENDS "${A_MAP}")
  target_include_directories(${target} PRIVATE
    "${PROJECT_SOURCE_DIR}/src" "${PROJECT_SOURCE_DIR}/include" "${GLMUX_GEN_DIR}")
  target_link_options(${target} PRIVATE "-Wl,--version-script=${A_MAP}"
    -Wl,--no-undefined -Wl,-Bsymbolic -Wl,-z,relro -Wl,-z,now)
  if(GLMUX_USE_ASM)
    target_compile_definitions(${target} PRIVATE GLMUX_HAVE_ASM_STUBS=1)
  endif()
  install(TARGETS ${target} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          NAMELINK_COMPONENT dev)
endfunction()

# glmux_add_stub_library(target OUTPUT_NAME n SOVERSION s VERSION v SYMBOLS file
#                        [API api FEATURES f... [EXTENSIONS e...]] [EXTRA_EXPORTS file]
#                        [SOURCES ...])
# With API, the symbol list must equal what those gl.xml features require. EXTRA_EXPORTS
# names functions written in C (e.g. libGL's glX* wrappers) that the version script exports.
function(glmux_add_stub_library target)
  cmake_parse_arguments(A "" "OUTPUT_NAME;SOVERSION;VERSION;SYMBOLS;API;EXTRA_EXPORTS"
                        "FEATURES;EXTENSIONS;SOURCES" ${ARGN})
  set(gen "${CMAKE_CURRENT_BINARY_DIR}/gen")
  if(GLMUX_USE_ASM)
    set(stubs "${gen}/${target}_stubs.S")
  else()
    set(stubs "${gen}/${target}_stubs.c")
  endif()
  list(JOIN A_FEATURES "," features)
  list(JOIN A_EXTENSIONS "," extensions)
  set(check)
  if(A_API)
    set(check "--check-api=${A_API}" "--check-features=${features}"
        "--check-extensions=${extensions}")
  endif()
  if(A_EXTRA_EXPORTS)
    list(APPEND check "--extra-exports=${A_EXTRA_EXPORTS}")
  endif()
  add_custom_command(
    OUTPUT "${stubs}" "${gen}/${target}_entries.c" "${gen}/${target}.map"
    COMMAND Python3::Interpreter "${GLMUX_GEN_SCRIPT}" stubs "${gen}" ${GLMUX_GEN_ARGS}
            --lib ${target} --mode ${GLMUX_STUB_MODE} --symbols "${A_SYMBOLS}" ${check}
    DEPENDS ${GLMUX_GEN_DEPS} "${A_SYMBOLS}" ${A_EXTRA_EXPORTS}
    COMMENT "Generating ${A_OUTPUT_NAME} entry stubs from gl.xml")
  set(sources "${stubs}" ${A_SOURCES} "${PROJECT_SOURCE_DIR}/src/entry/entry_lib.c")
  if(GLMUX_USE_ASM)
    list(APPEND sources "${gen}/${target}_entries.c" "${PROJECT_SOURCE_DIR}/src/entry/entry_patch.c")
  endif()
  glmux_add_library(${target} OUTPUT_NAME ${A_OUTPUT_NAME} SOVERSION ${A_SOVERSION}
    VERSION ${A_VERSION} MAP "${gen}/${target}.map" SOURCES ${sources})
  target_include_directories(${target} PRIVATE "${PROJECT_SOURCE_DIR}/src/dispatch")
  target_link_libraries(${target} PRIVATE GLdispatch)
  set_property(TARGET ${target} PROPERTY GLMUX_SYMBOLS_FILE "${A_SYMBOLS}")
endfunction()
