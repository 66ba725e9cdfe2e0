#!/bin/sh
# SPDX-License-Identifier: MIT
# Code that only the glmux tool may contain is in the tool and in none of the libraries: the
# functions of src/select/gpu_monitor.c (the udev monitor of `glmux gpus --watch`; libEGL and
# libGLX never listen, docs/architecture.md). Reads the build's symbol tables with nm; skips
# (77) when the tool has none (a stripped build).
#   check_tool_only.sh TOOL LIBRARY...
set -u
tool=$1
shift
pattern='glmux_gpu_monitor_'
command -v nm >/dev/null || { echo "skipped: nm (binutils) is not installed"; exit 77; }
n=$(nm "$tool" 2>/dev/null | grep -c "$pattern")
if [ "$n" = 0 ]; then
    echo "skipped: $tool has no $pattern symbols (stripped?), so their absence proves nothing"
    exit 77
fi
echo "$tool: $n $pattern functions"
status=0
for lib in "$@"; do
    found=$(nm "$lib" 2>/dev/null | grep "$pattern")
    if [ -n "$found" ]; then
        echo "FAIL: $lib contains the tool's udev monitor:"
        echo "$found"
        status=1
    else
        echo "$lib: none"
    fi
done
exit $status
