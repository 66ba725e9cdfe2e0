#!/bin/sh
# SPDX-License-Identifier: MIT
# glmux tests: the Xvfb fixture of the GLX tests. "start DIR" starts three servers on free
# displays (Xvfb -displayfd): "two" with two screens and GLX, "one" with one screen and GLX,
# "noglx" with one screen and the GLX extension disabled, and writes DIR/<name>.display (":N",
# or "none" when Xvfb is not installed, so that the tests skip). "stop DIR" stops them. A
# start first stops the servers that an earlier start in DIR left running (ctest --repeat
# runs the setup before each repetition but the cleanup once).
set -u
cmd=$1
dir=$2

start_one() {
    name=$1
    shift
    rm -f "$dir/$name.fd" "$dir/$name.display"
    setsid Xvfb -displayfd 3 -nolisten tcp -noreset "$@" \
        3>"$dir/$name.fd" >"$dir/$name.log" 2>&1 </dev/null &
    echo $! >"$dir/$name.pid"
    i=0
    while [ $i -lt 100 ]; do
        if [ -s "$dir/$name.fd" ]; then
            echo ":$(head -n 1 "$dir/$name.fd")" >"$dir/$name.display"
            echo "Xvfb $name on $(cat "$dir/$name.display")"
            return 0
        fi
        if ! kill -0 "$(cat "$dir/$name.pid")" 2>/dev/null; then
            break
        fi
        sleep 0.1
        i=$((i + 1))
    done
    echo "Xvfb $name did not start; its log:" >&2
    cat "$dir/$name.log" >&2
    return 1
}

# Stops the servers DIR's pid files name; a pid that is no longer an Xvfb (reused after a
# reboot) is left alone.
stop_all() {
    for name in two noglx one; do
        if [ -f "$dir/$name.pid" ]; then
            pid=$(cat "$dir/$name.pid")
            if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = Xvfb ]; then
                kill "$pid" 2>/dev/null
            fi
            rm -f "$dir/$name.pid"
        fi
    done
}

case $cmd in
start)
    mkdir -p "$dir"
    stop_all
    if ! command -v Xvfb >/dev/null 2>&1; then
        echo none >"$dir/two.display"
        echo none >"$dir/noglx.display"
        echo none >"$dir/one.display"
        echo "Xvfb is not installed: the GLX tests will skip"
        exit 0
    fi
    start_one two -screen 0 320x240x24 -screen 1 320x240x24 || exit 1
    start_one noglx -screen 0 320x240x24 -extension GLX || exit 1
    start_one one -screen 0 320x240x24 || exit 1
    ;;
stop)
    stop_all
    ;;
*)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
