#!/bin/sh
# SPDX-License-Identifier: MIT
# glmux tests: Debian's glxinfo / glxgears through our libraries under the fixture's Xvfb.
# usage: run_mesa_tool.sh glxinfo|glxgears LIBDIRS [OURS [SYSTEM]]
#   LIBDIRS  the LD_LIBRARY_PATH to run with (our build directories first)
#   OURS     the libraries that must come from our build directories (default: libGL.so.1
#            libGLX.so.0 libGLdispatch.so.0); the others must be libglvnd's, from SYSTEM (the
#            directory tests/abi/reference.py found them in; default /usr/lib/<multiarch>), to
#            check that each of our libraries works next to libglvnd's.
# Proves the tool resolved OURS from our build directories (ldd) and that the dynamic linker
# really initialised those files in the run (LD_DEBUG=files).
set -u
tool=$1
libdirs=$2
ours=${3:-libGL.so.1 libGLX.so.0 libGLdispatch.so.0}
system=$(readlink -f "${4:-/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)}")
ourdirs=$(echo "$libdirs" | tr ':' '\n' | grep -vxF "$system" | tr '\n' ':')
display=$(cat "$GLMUX_TEST_XVFB_DIR/two.display" 2>/dev/null) || { echo "no fixture"; exit 1; }
[ "$display" = none ] && { echo "skipped: Xvfb is not installed"; exit 77; }
path=$(command -v "$tool") || { echo "skipped: $tool is not installed (mesa-utils)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LD_LIBRARY_PATH="$libdirs"
export DISPLAY="$display"

ldd "$path" >"$work/ldd" || exit 1
# resolved LIB: the path ldd resolved LIB to (the whole of it: a build directory may hold spaces).
resolved() {
    awk -v l="$1" '$1 == l { s = $0; sub(/^[^>]*=> /, "", s); sub(/ \(0x[0-9a-f]+\)$/, "", s)
                             print s }' "$work/ldd"
}
for lib in $ours; do
    found=$(resolved "$lib")
    case ":$ourdirs:" in
    *":$(dirname "$found"):"*) echo "$lib => $found" ;;
    *) echo "FAIL: $lib resolves to '$found', not to the build tree"; exit 1 ;;
    esac
done

for lib in libGL.so.1 libGLX.so.0 libGLdispatch.so.0; do
    case " $ours " in *" $lib "*) continue ;; esac
    found=$(resolved "$lib")
    [ "$(dirname "$(readlink -f "$found")")" = "$system" ] ||
        { echo "FAIL: $lib should be libglvnd's (from $system): $found"; exit 1; }
    echo "$lib => $found (libglvnd)"
done

case $tool in
glxinfo)
    LD_DEBUG=files LD_DEBUG_OUTPUT="$work/ld" glxinfo -B >"$work/out" 2>&1
    rc=$?
    cat "$work/out"
    [ $rc -eq 0 ] || { echo "FAIL: glxinfo exited $rc"; exit 1; }
    grep -q "OpenGL renderer string: llvmpipe" "$work/out" || { echo "FAIL: no llvmpipe"; exit 1; }
    grep -q "OpenGL version string: [1-9]" "$work/out" || { echo "FAIL: no GL version"; exit 1; }
    grep -q "OpenGL core profile version string: [3-9]" "$work/out" ||
        { echo "FAIL: no core profile version"; exit 1; }
    ;;
glxgears)
    # Until it reports its first 5 seconds of frames, then stopped.
    . "$(dirname "$0")/../common/run_until.sh"
    run_until "frames in [0-9.]+ seconds" "$work/out" "$work/out" \
        env LD_DEBUG=files LD_DEBUG_OUTPUT="$work/ld" glxgears
    rc=$?
    cat "$work/out"
    [ $rc -ne 1 ] || { echo "FAIL: glxgears exited $run_until_status before a frame count"; exit 1; }
    [ $rc -eq 0 ] || { echo "FAIL: glxgears printed no frame count"; exit 1; }
    if grep -qi "error" "$work/out"; then echo "FAIL: glxgears reported an error"; exit 1; fi
    ;;
esac

for lib in $ours; do
    # The line that ends in /LIB, matched as a fixed string (LIB's dots are no pattern).
    cat "$work"/ld.* | awk -v l="/$lib" 'index($0, "calling init: ") &&
        substr($0, length($0) - length(l) + 1) == l' | head -n 1 >"$work/init"
    init=$(sed 's/.*calling init: //' "$work/init")
    case ":$ourdirs:" in
    *":$(dirname "$init"):"*) echo "initialised $init" ;;
    *) echo "FAIL: the run initialised '$init' for $lib"; exit 1 ;;
    esac
done
grep -q "calling init: .*/libGLX_mesa.so.0" "$work"/ld.* || { echo "FAIL: Mesa not loaded"; exit 1; }
echo "ok: $tool ran through glmux"
