#!/bin/sh
# SPDX-License-Identifier: MIT
# glmux on a machine with an NVIDIA GPU and NVIDIA's proprietary driver. Not
# part of ctest: run it by hand where such a machine is available and record its output in
# docs/compatibility.md ("NVIDIA"). It builds glmux from this checkout, then prints one line per
# check, "ok", "FAIL" or "note":
#   build      glmux builds (Ninja when installed, else Unix Makefiles)
#   imports    every symbol libEGL_nvidia / libGLX_nvidia import from libGLdispatch (nm -D -u,
#              against the system libGLdispatch's exports) is exported by ours
#   render     a headless frame through our libEGL on the EGL device platform with
#              libEGL_nvidia only (__EGL_VENDOR_LIBRARY_FILENAMES), pixels read back, and our
#              libEGL, libGLdispatch and libOpenGL were the ones loaded
#   patching   whether NVIDIA rewrites our entry stubs at make-current (glClear's bytes before
#              and after), and the frame with __GLVND_DISALLOW_PATCHING=1 is the same
#   eager      the frame and strings with GLMUX_EAGER_TABLES=1 equal the default (lazy) ones
# Without NVIDIA's driver it prints one "skip" line and exits 0. Exit 1 when a check failed.
#   tests/device/nvidia.sh [BUILD_DIR]      (default: build-nvidia in the checkout)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-"$top/build-nvidia"}
work=$(mktemp -d "${TMPDIR:-/tmp}/glmux-nvidia-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
status=0

line() { printf '%-10s %-5s %s\n' "$1" "$2" "$3"; }
fail() { line "$1" FAIL "$2"; status=1; }

# ---- is NVIDIA's driver here? -------------------------------------------------------------
find_lib() {
    for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib \
             /usr/lib/x86_64-linux-gnu/nvidia/current; do
        if [ -e "$d/$1" ]; then
            echo "$d/$1"
            return 0
        fi
    done
    ldconfig -p 2>/dev/null | awk -v n="$1" '$1 == n { print $NF; exit }'
}
egl_nvidia=$(find_lib libEGL_nvidia.so.0)
glx_nvidia=$(find_lib libGLX_nvidia.so.0)
nvidia_json=
for f in /usr/share/glvnd/egl_vendor.d/10_nvidia.json /etc/glvnd/egl_vendor.d/10_nvidia.json; do
    [ -f "$f" ] && nvidia_json=$f && break
done
if [ ! -r /proc/driver/nvidia/version ] || [ -z "$egl_nvidia" ]; then
    line nvidia skip "no NVIDIA driver here (/proc/driver/nvidia/version or libEGL_nvidia.so.0 missing)"
    exit 0
fi
line driver note "$(head -n 1 /proc/driver/nvidia/version | tr -s ' ')"
if [ -z "$nvidia_json" ]; then
    nvidia_json="$work/10_nvidia.json"
    printf '{ "file_format_version": "1.0.0", "ICD": { "library_path": "%s" } }\n' \
        "$egl_nvidia" >"$nvidia_json"
fi

# ---- build ----------------------------------------------------------------------------------
generator="Unix Makefiles"
command -v ninja >/dev/null 2>&1 && generator=Ninja
if cmake -S "$top" -B "$build" -G "$generator" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        >"$work/configure.log" 2>&1 &&
   cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >"$work/build.log" 2>&1; then
    line build ok "$generator, $build"
else
    fail build "see the log below"
    tail -n 30 "$work/configure.log" "$work/build.log"
    exit 1
fi
lib_egl=$(find "$build/src/egl" -name 'libEGL.so.1' | head -n 1)
lib_dispatch=$(find "$build/src/dispatch" -name 'libGLdispatch.so.0' | head -n 1)
lib_opengl=$(find "$build/src/opengl" -name 'libOpenGL.so.0' | head -n 1)
if [ -z "$lib_egl" ] || [ -z "$lib_dispatch" ] || [ -z "$lib_opengl" ]; then
    fail build "libEGL.so.1, libGLdispatch.so.0 or libOpenGL.so.0 missing from $build"
    exit 1
fi

# ---- imports from libGLdispatch ---------------------------------------------------------------
# What a vendor imports from libGLdispatch: its undefined symbols that the system's (libglvnd's)
# libGLdispatch defines; without one, those named like libGLdispatch's (__glDispatch*, _glapi_*).
nm -D --defined-only "$lib_dispatch" | awk '{ print $NF }' | sort -u >"$work/ours"
system_dispatch=$(find_lib libGLdispatch.so.0)
if [ -n "$system_dispatch" ] && [ "$(readlink -f "$system_dispatch")" != "$(readlink -f "$lib_dispatch")" ]; then
    nm -D --defined-only "$system_dispatch" | awk '{ print $NF }' | sed 's/@.*//' |
        sort -u >"$work/provider"
else
    grep -E '^(__glDispatch|_glapi_)' "$work/ours" >"$work/provider"
fi
for lib in "$egl_nvidia" "$glx_nvidia"; do
    [ -n "$lib" ] || continue
    needed=$(readelf -d "$lib" 2>/dev/null | grep -c 'NEEDED.*libGLdispatch\.so\.0')
    nm -D -u "$lib" | awk '{ print $NF }' | sed 's/@.*//' | sort -u >"$work/undefined"
    comm -12 "$work/undefined" "$work/provider" >"$work/imports"
    missing=$(comm -23 "$work/imports" "$work/ours" | tr '\n' ' ')
    count=$(wc -l <"$work/imports")
    what="$(basename "$lib") (NEEDED libGLdispatch: $([ "$needed" -gt 0 ] && echo yes || echo no)): $count imported"
    if [ -n "$missing" ]; then
        fail imports "$what; missing from ours: $missing"
    else
        line imports ok "$what, all exported by ours: $(tr '\n' ' ' <"$work/imports")"
    fi
done

# ---- the headless renderer --------------------------------------------------------------------
cat >"$work/render.c" <<'EOF'
/* Renders one frame headless on the EGL device platform and prints what it saw. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>

static int print_lib(struct dl_phdr_info *info, size_t size, void *data)
{
    static const char *const names[] = { "libEGL.so", "libGLdispatch.so", "libOpenGL.so",
                                         "libEGL_nvidia.so" };
    const char *base = strrchr(info->dlpi_name, '/');
    (void)size, (void)data;
    base = base ? base + 1 : info->dlpi_name;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strncmp(base, names[i], strlen(names[i])) == 0)
            printf("loaded %s\n", info->dlpi_name);
    return 0;
}

int main(void)
{
    PFNEGLQUERYDEVICESEXTPROC query_devices =
        (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    EGLDeviceEXT devices[16];
    EGLint n = 0, count;
    static const EGLint config_attribs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
        EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
        EGL_BLUE_SIZE, 8, EGL_NONE };
    static const EGLint pbuffer_attribs[] = { EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE };
    EGLConfig config;
    EGLDisplay dpy;
    EGLSurface surf;
    EGLContext ctx;
    unsigned char before[32], after[32], pixel[4] = { 0 };
    void *gl_clear = dlsym(RTLD_DEFAULT, "glClear");

    if (query_devices == NULL || !query_devices(16, devices, &n) || n < 1) {
        printf("error no EGL device (eglQueryDevicesEXT: %d devices)\n", n);
        return 1;
    }
    dpy = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[0], NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        printf("error eglInitialize on the device display: 0x%04x\n", eglGetError());
        return 1;
    }
    if (!eglChooseConfig(dpy, config_attribs, &config, 1, &count) || count < 1 ||
        (surf = eglCreatePbufferSurface(dpy, config, pbuffer_attribs)) == EGL_NO_SURFACE ||
        !eglBindAPI(EGL_OPENGL_API) ||
        (ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, NULL)) == EGL_NO_CONTEXT) {
        printf("error config, pbuffer or context: 0x%04x\n", eglGetError());
        return 1;
    }
    memcpy(before, gl_clear, sizeof(before));
    if (!eglMakeCurrent(dpy, surf, surf, ctx)) {
        printf("error eglMakeCurrent: 0x%04x\n", eglGetError());
        return 1;
    }
    memcpy(after, gl_clear, sizeof(after));
    printf("vendor %s\n", eglQueryString(dpy, EGL_VENDOR));
    printf("gl %s | %s | %s\n", (const char *)glGetString(GL_VENDOR),
           (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glFinish();
    glReadPixels(8, 8, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
    printf("pixel %u %u %u %u\n", pixel[0], pixel[1], pixel[2], pixel[3]);
    printf("glGetError 0x%04x\n", glGetError());
    printf("patched %s\n", memcmp(before, after, sizeof(before)) != 0 ? "yes" : "no");
    dl_iterate_phdr(print_lib, NULL);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglDestroySurface(dpy, surf);
    eglTerminate(dpy);
    return 0;
}
EOF
libdir_egl=$(dirname "$lib_egl")
libdir_dispatch=$(dirname "$lib_dispatch")
libdir_opengl=$(dirname "$lib_opengl")
if ! cc -std=gnu11 -O1 -o "$work/render" "$work/render.c" -I"$top/include" \
        -I"$build/khronos-include" -L"$libdir_egl" -L"$libdir_opengl" \
        -Wl,-rpath,"$libdir_egl:$libdir_opengl:$libdir_dispatch" \
        "$lib_egl" "$lib_opengl" -ldl >"$work/cc.log" 2>&1; then
    fail render "cannot compile the renderer: $(head -n 3 "$work/cc.log" | tr '\n' ' ')"
    exit 1
fi

# render NAME [VAR=VALUE...]: runs the renderer with only NVIDIA's EGL vendor; output in
# $work/NAME.out, GLMUX_DEBUG=dispatch log in $work/NAME.log.
render() {
    name=$1
    shift
    env __EGL_VENDOR_LIBRARY_FILENAMES="$nvidia_json" GLMUX_DEBUG=dispatch \
        GLMUX_DEBUG_FILE="$work/$name.log" "$@" "$work/render" >"$work/$name.out" 2>&1
}

if render default; then
    loaded_ok=yes
    for lib in "$lib_egl" "$lib_dispatch" "$lib_opengl"; do
        real=$(readlink -f "$lib")
        grep -qxF "loaded $real" "$work/default.out" || grep -qxF "loaded $lib" "$work/default.out" ||
            loaded_ok="no ($(basename "$lib") not ours)"
    done
    pixel=$(sed -n 's/^pixel //p' "$work/default.out")
    if [ "$loaded_ok" != yes ]; then
        fail render "loaded libraries: $loaded_ok; $(grep '^loaded' "$work/default.out" | tr '\n' ' ')"
    elif ! echo "$pixel" | awk '{ exit !(NF == 4 && $1 >= 63 && $1 <= 65 && $2 >= 127 &&
                                         $2 <= 129 && $3 >= 190 && $3 <= 192 && $4 == 255) }'; then
        fail render "pixel '$pixel', expected about 64 128 191 255; $(sed -n 's/^gl //p' "$work/default.out")"
    else
        line render ok "$(sed -n 's/^gl //p' "$work/default.out"); pixel $pixel; our libEGL, libGLdispatch, libOpenGL"
    fi
else
    fail render "$(tail -n 3 "$work/default.out" | tr '\n' ' ')"
fi

# ---- patching ---------------------------------------------------------------------------------
if [ -f "$work/default.out" ] && grep -q '^patched' "$work/default.out"; then
    patched=$(sed -n 's/^patched //p' "$work/default.out")
    why=$(grep -E 'patched|could not patch|patching' "$work/default.log" 2>/dev/null | head -n 1)
    render nopatch __GLVND_DISALLOW_PATCHING=1
    if [ "$(sed -n 's/^pixel //p' "$work/nopatch.out")" = "$(sed -n 's/^pixel //p' "$work/default.out")" ] &&
       [ "$(sed -n 's/^patched //p' "$work/nopatch.out")" = no ]; then
        line patching ok "NVIDIA patched our glClear stub: $patched${why:+ ($why)}; the frame is the same with __GLVND_DISALLOW_PATCHING=1"
    else
        fail patching "patched: $patched; with __GLVND_DISALLOW_PATCHING=1: $(grep -E '^(pixel|patched|error)' "$work/nopatch.out" | tr '\n' ' ')"
    fi
fi

# ---- lazy versus eager tables -------------------------------------------------------------------
if [ -f "$work/default.out" ] && grep -q '^pixel' "$work/default.out"; then
    render eager GLMUX_EAGER_TABLES=1
    grep -E '^(vendor|gl|pixel|glGetError)' "$work/default.out" >"$work/default.key"
    grep -E '^(vendor|gl|pixel|glGetError)' "$work/eager.out" >"$work/eager.key"
    if cmp -s "$work/default.key" "$work/eager.key"; then
        line eager ok "GLMUX_EAGER_TABLES=1 gives the same strings, pixel and glGetError as lazy tables"
    else
        fail eager "lazy and eager tables differ: $(diff "$work/default.out" "$work/eager.out" | tr '\n' ' ')"
    fi
fi
exit $status
