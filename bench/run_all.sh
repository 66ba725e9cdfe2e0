#!/bin/sh
# SPDX-License-Identifier: MIT
# Every performance figure of glmux next to Debian's libglvnd, in one run and one table:
# instructions counted by callgrind (the same benchmark binaries run on both; LD_LIBRARY_PATH
# chooses the libraries), the stripped size and relocation entries of the seven libraries, and
# the symbol relocations ld.so processes at EGL start-up. Each row has a target for glmux; the
# exit status is 1 when a row misses it. Build glmux RelWithDebInfo first:
#   cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo && ninja -C build
#   bench/run_all.sh [--debs DEBS_DIR] [BUILD_DIR] [CALLS]
# The glmux figures are those of the build tree's libraries, unless --debs names the built
# .debs (packaging/build-deb.sh's output: they are unpacked with dpkg -x and their libraries
# measured, so the published figures are those of what is shipped) or GLMUX_BENCH_PREFIX an
# installed tree (its lib/MULTIARCH or lib). The benchmark programs still come from BUILD_DIR.
# Needs valgrind, Xvfb, python3, binutils, Debian's libglvnd (libgl1 libopengl0 libglx0 libegl1
# libgles1 libgles2 libglvnd0) and Mesa (libegl-mesa0 libglx-mesa0 libgl1-mesa-dri). The
# vendor is Debian's Mesa (llvmpipe) except for the GetProcAddress rows of EGL and the GL-call
# row, which use the test suite's fake vendors (the dispatch layer alone).
set -eu
debs=""
[ "${1:-}" != --debs ] || { debs=$(cd "$2" && pwd); shift 2; }
build=$(cd "${1:-build}" && pwd)
calls=${2:-20000}
src=$(cd "$(dirname "$0")/.." && pwd)
system=/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
cgsum="python3 $src/bench/cgsum.py"
# The seven libraries, as file names: "own" instructions are the self cost of these objects.
own='^lib(GL|OpenGL|GLX|EGL|GLESv1_CM|GLESv2|GLdispatch)\.so'
libs="gl/libGL.so.1 opengl/libOpenGL.so.0 glx/libGLX.so.0 egl/libEGL.so.1 gles/libGLESv1_CM.so.1
      gles/libGLESv2.so.2 dispatch/libGLdispatch.so.0"
ours="$build/src/egl:$build/src/glx:$build/src/gl:$build/src/dispatch:$build/src/opengl:$build/src/gles"
slots="$src/src/dispatch/gl_slots.txt"
glx_names="$src/src/gl/libGL_glx.symbols"

for tool in valgrind Xvfb python3 readelf strip; do
    command -v $tool >/dev/null || { echo "$tool is needed (.ci/packages)"; exit 2; }
done
for prog in bench/dispatch/bench_gl_call bench/egl/bench_egl bench/glx/bench_glx \
            tests/egl/vendors/libEGL_fake0.so.0; do
    [ -e "$build/$prog" ] || { echo "build first: $build/$prog is missing"; exit 2; }
done
for lib in libGLdispatch.so.0 libEGL.so.1 libGLX.so.0 libEGL_mesa.so.0 libGLX_mesa.so.0; do
    [ -e "$system/$lib" ] || { echo "Debian's $lib is needed for the comparison"; exit 2; }
done

work=$(mktemp -d)
Xvfb -displayfd 3 -nolisten tcp -screen 0 64x64x24 3>"$work/fd" >"$work/xvfb.log" 2>&1 </dev/null &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
i=0
while [ ! -s "$work/fd" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$work/fd" ] || { echo "Xvfb did not start"; cat "$work/xvfb.log"; exit 2; }
export DISPLAY=":$(head -n 1 "$work/fd")"
# The shipped libraries instead of the build tree's: the .debs unpacked, or an installed tree.
shipped=""
if [ -n "$debs" ]; then
    for deb in "$debs"/*.deb; do dpkg -x "$deb" "$work/debs"; done
    shipped=$work/debs/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)
elif [ -n "${GLMUX_BENCH_PREFIX:-}" ]; then
    shipped=$GLMUX_BENCH_PREFIX/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
    [ -d "$shipped" ] || shipped=$GLMUX_BENCH_PREFIX/lib
fi
if [ -n "$shipped" ]; then
    grep -q GLMUX_DEBUG "$shipped/libEGL.so.1" 2>/dev/null ||
        { echo "$shipped/libEGL.so.1 is not glmux's"; exit 2; }
    ours=$shipped
    echo "glmux: the libraries of $shipped"
fi
export LIBGL_ALWAYS_SOFTWARE=1 EGL_PLATFORM=surfaceless
unset __GLX_VENDOR_LIBRARY_NAME __EGL_VENDOR_LIBRARY_FILENAMES __EGL_VENDOR_LIBRARY_DIRS \
    GLMUX_DEBUG GLMUX_EAGER_TABLES 2>/dev/null || true
fake_egl="__EGL_VENDOR_LIBRARY_DIRS=$src/tests/egl/json/two"

# cg WHICH SELECT ENV... -- CALLGRIND-OPTIONS... -- PROGRAM ARGS...: runs the program under
# callgrind with the library set WHICH (ours|glvnd) and prints its instructions: the total, or
# with SELECT=own the self cost of the seven libraries only.
cg() {
    which=$1 select=$2
    shift 2
    lib=$ours
    [ "$which" = glvnd ] && lib=$system
    envs=
    while [ "$1" != "--" ]; do envs="$envs $1"; shift; done
    shift
    opts=
    while [ "$1" != "--" ]; do opts="$opts $1"; shift; done
    shift
    out="$work/cg.out"
    rm -f "$out"
    # shellcheck disable=SC2086
    if ! env LD_LIBRARY_PATH="$lib:$build/tests/egl/vendors" $envs valgrind --tool=callgrind \
        --callgrind-out-file="$out" $opts "$@" >"$work/run.log" 2>&1; then
        echo "bench: failed: $which $*" >&2
        tail -n 5 "$work/run.log" >&2
        echo 0
        return
    fi
    if [ "$select" = own ]; then $cgsum "$out" "$own"; else $cgsum "$out"; fi
}

# Sizes: the seven libraries stripped, and their relocation entries.
sizes() {   # DIR-KIND (ours|glvnd) -> "bytes relocations"
    bytes=0 relocs=0
    for l in $libs; do
        if [ "$1" = ours ]; then f=${shipped:+$shipped/${l#*/}}; f=${f:-$build/src/$l}
        else f="$system/${l#*/}"; fi
        strip -o "$work/stripped" "$f"
        bytes=$((bytes + $(stat -c %s "$work/stripped")))
        relocs=$((relocs + $(readelf -rW "$f" | grep -c '^[0-9a-f]\{8,\}')))
    done
    echo "$bytes $relocs"
}

# Symbol relocations ld.so processes before main() of an EGL program.
startup_relocs() {
    lib=$ours
    [ "$1" = glvnd ] && lib=$system
    LD_DEBUG=statistics LD_LIBRARY_PATH="$lib:$build/tests/egl/vendors" \
        "$build/bench/egl/bench_egl" startup mesa 2>&1 |
        awk '/number of relocations:/ { print $NF; exit }'
}

status=0
# row LABEL DIVISOR TARGET GLVND OURS: TARGET is glmux's limit per DIVISOR, "libglvnd", or
# "F x libglvnd" (a fraction of libglvnd's figure in the same run, whatever the machine counts)
row() {
    awk -v l="$1" -v d="$2" -v t="$3" -v g="$4" -v o="$5" 'BEGIN {
        if (o == 0 || g == 0) { printf "| %s | %s | %s | (failed) | %s | FAIL |\n", l, g, o, t; exit 1 }
        fmt = (d == 1) ? "%.0f" : "%.1f"
        gv = sprintf(fmt, g / d); ov = sprintf(fmt, o / d)
        if (t == "libglvnd") { ok = (o <= g); t = "libglvnd" }
        else if (t ~ / x libglvnd$/) { split(t, f, " "); ok = (o <= f[1] * g)
            t = sprintf("%s (%s)", t, sprintf(fmt, f[1] * g / d)) }
        else ok = (o / d <= t)
        printf "| %s | %s | %s | %.2f | <= %s | %s |\n", l, gv, ov, o / g, t, ok ? "ok" : "MISSED"
        exit ok ? 0 : 1 }' || status=1
}

nslots=$(grep -c '^gl' "$slots")
nglx=$(grep -c '^glX' "$glx_names")
echo "| figure | libglvnd | glmux | ratio | target | |"
echo "|---|---:|---:|---:|---:|---|"
for w in glvnd ours; do
    eval "call_$w=\$(cg $w all -- --toggle-collect=calls_loop -- \"\$build/bench/dispatch/bench_gl_call\" $calls)"
done
row "GL call through an exported stub (Ir/call, loop and vendor body included)" "$calls" libglvnd \
    "$call_glvnd" "$call_ours"

for w in glvnd ours; do
    for fn in lookup_first lookup_again; do
        eval "egl_${fn}_$w=\$(cg $w all $fake_egl -- --toggle-collect=$fn -- \
            \"\$build/bench/egl/bench_egl\" procaddr-gl \"\$slots\")"
    done
done
row "eglGetProcAddress, GL name, first lookup (Ir/name)" "$nslots" 500 \
    "$egl_lookup_first_glvnd" "$egl_lookup_first_ours"
row "eglGetProcAddress, GL name, repeated lookup (Ir/name)" "$nslots" 150 \
    "$egl_lookup_again_glvnd" "$egl_lookup_again_ours"

for w in glvnd ours; do
    for fn in gl_first gl_again glx_first; do
        eval "glx_${fn}_$w=\$(cg $w all -- --toggle-collect=$fn -- \
            \"\$build/bench/glx/bench_glx\" procaddr \"\$slots\" \"\$glx_names\")"
    done
done
row "glXGetProcAddress, GL name, first lookup (Ir/name)" "$nslots" 500 \
    "$glx_gl_first_glvnd" "$glx_gl_first_ours"
row "glXGetProcAddress, GL name, repeated lookup (Ir/name)" "$nslots" 150 \
    "$glx_gl_again_glvnd" "$glx_gl_again_ours"
row "glXGetProcAddress, GLX name, first lookup (Ir/name)" "$nglx" 2000 \
    "$glx_glx_first_glvnd" "$glx_glx_first_ours"

# Start-up targets: 25,000 and 50,000 own instructions (34,054 and 57,414 before the no-op
# table was filled two slots a store and FBConfig lists were claimed in one pass).
row "glvnd's own Ir, EGL start-up to first context (process)" 1 25000 \
    "$(cg glvnd own -- -- "$build/bench/egl/bench_egl" startup mesa)" \
    "$(cg ours own -- -- "$build/bench/egl/bench_egl" startup mesa)"
row "glvnd's own Ir, GLX start-up to first context (glx_startup)" 1 50000 \
    "$(cg glvnd own -- --toggle-collect=glx_startup -- "$build/bench/glx/bench_glx" startup)" \
    "$(cg ours own -- --toggle-collect=glx_startup -- "$build/bench/glx/bench_glx" startup)"
row "glXMakeCurrent, same context again (Ir/call)" "$calls" 200 \
    "$(cg glvnd all -- --toggle-collect=make_current_loop -- "$build/bench/glx/bench_glx" again "$calls")" \
    "$(cg ours all -- --toggle-collect=make_current_loop -- "$build/bench/glx/bench_glx" again "$calls")"
# The switches' targets are 0.4 x libglvnd's own instructions in the same run (first set as 215
# and 278 where libglvnd counted 537 and 694; this machine counts fewer for both).
row "eglMakeCurrent, switch between two Mesa contexts, own Ir (per call)" $((calls * 2)) "0.4 x libglvnd" \
    "$(cg glvnd own -- --toggle-collect=switch_loop -- "$build/bench/egl/bench_egl" switch "$calls" mesa)" \
    "$(cg ours own -- --toggle-collect=switch_loop -- "$build/bench/egl/bench_egl" switch "$calls" mesa)"
row "glXMakeCurrent, switch between two Mesa contexts, own Ir (per call)" "$calls" "0.4 x libglvnd" \
    "$(cg glvnd own -- --toggle-collect=make_current_loop -- "$build/bench/glx/bench_glx" same "$calls")" \
    "$(cg ours own -- --toggle-collect=make_current_loop -- "$build/bench/glx/bench_glx" same "$calls")"
row "symbol relocations ld.so processes at EGL start-up (LD_DEBUG=statistics)" 1 103 \
    "$(startup_relocs glvnd)" "$(startup_relocs ours)"
set -- $(sizes glvnd) $(sizes ours)
row "the 7 libraries, stripped bytes on disk" 1 1777432 "$1" "$3"
row "relocation entries in the 7 libraries (readelf -r)" 1 4000 "$2" "$4"
exit $status
