/* SPDX-License-Identifier: MIT */
/*
 * glmux tests: AddressSanitizer's defaults for every test program, compiled into each program
 * that links glmux_test in an ASan build (tests/CMakeLists.txt). intercept_tls_get_addr=0:
 * clang 14's runtime hooks __tls_get_addr to tell LeakSanitizer each thread's dynamic TLS
 * blocks, and where glibc's malloc puts such a block (a dlopened vendor's or layer's __thread
 * data) at a page offset of 16, it takes the 16 bytes before it (ASan's chunk header) for the
 * TLS header of glibc 2.19, records a bogus range, and LeakSanitizer's tracer dies (signal 11)
 * scanning it at exit. Without the hook LeakSanitizer still scans those blocks: glibc's DTV
 * points at them from the static TLS it scans. A root region less can only make it report
 * more, never hide a leak. ASAN_OPTIONS in a test's environment is read after these and adds
 * to them (or sets the flag back).
 */
const char *__asan_default_options(void);

__attribute__((visibility("default"))) const char *__asan_default_options(void)
{
    return "intercept_tls_get_addr=0";
}
