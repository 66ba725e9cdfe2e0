# SPDX-License-Identifier: MIT
# glmux_detect_stub_flavour(var): sets var to the assembly stub flavour of the target compiler
# (x86_64_tls, x86_tls, aarch64_tls, armv7_tls), or to an empty string when only pure C fits.
# The test is the compiler's own predefined macros, so a toolchain file, a native build and
# a -m32 build all get what they compile for.
include(CheckCSourceCompiles)

function(glmux_detect_stub_flavour var)
  set(found "")
  set(tests
    x86_64_tls "defined(__x86_64__) && defined(__LP64__)"
    x86_tls "defined(__i386__)"
    aarch64_tls "defined(__aarch64__) && defined(__LP64__)"
    # ARMv7-A or later in ARM state: TPIDRURO holds the thread pointer.
    armv7_tls "defined(__arm__) && defined(__ARM_ARCH) && __ARM_ARCH >= 7 && defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'A'")
  while(tests)
    list(POP_FRONT tests flavour condition)
    set(CMAKE_REQUIRED_QUIET ON)
    check_c_source_compiles("#if !(${condition})\n#error not this one\n#endif\nint main(void) { return 0; }"
                            GLMUX_ARCH_IS_${flavour})
    if(GLMUX_ARCH_IS_${flavour})
      set(found ${flavour})
      break()
    endif()
  endwhile()
  set(${var} "${found}" PARENT_SCOPE)
endfunction()
