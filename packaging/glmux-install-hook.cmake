# SPDX-License-Identifier: MIT
# Passed as CMAKE_PROJECT_INCLUDE by the package builds (debian/rules, glmux.spec) while the
# top-level CMakeLists.txt does not include cmake/GlmuxInstall.cmake itself: defers that include
# to the end of the top-level directory, when every library target exists. Harmless once the
# top-level includes it (include_guard).
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}"
               CALL include "${CMAKE_SOURCE_DIR}/cmake/GlmuxInstall.cmake")
