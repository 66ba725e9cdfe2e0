#!/bin/sh
# SPDX-License-Identifier: MIT
# The pixels GLX vendor (docs/remote.md) against Mesa through Debian's libglvnd, in one run, on
# one Xvfb with GLX (llvmpipe renders both): frames per second and CPU milliseconds per frame
# (bench_frames: every thread of the process) and glxgears' frame rate, at 300x300 and
# 1920x1080, over the local socket (MIT-SHM), over TCP (127.0.0.1:N) and, when openssh-server
# is installed, over an `ssh -Y` loop-back (sshd started here on a free port, keys of its own,
# X11 forwarding to this Xvfb). glmux's runs force the pixels vendor (GLMUX_GLX_REMOTE=pixels:
# on a local server with GLX glmux would otherwise use Mesa's vendor, as libglvnd does).
# Wall-clock and noisy on a shared machine: the median of RUNS runs is printed; compare the two
# rows of a case, measured one after the other.
#   bench/remote/run_remote_bench.sh [BUILD_DIR] [RUNS] [GEARS_SECONDS]
set -eu
build=$(cd "${1:-build}" && pwd)
runs=${2:-3}
gears_s=${3:-11}
prog="$build/bench/remote/bench_frames"
system_gl=$(ldconfig -p | sed -n 's/.*libGL.so.1 (libc6,x86-64) => //p' | head -n 1)
command -v Xvfb >/dev/null || { echo "Xvfb is needed (apt-get install xvfb)"; exit 2; }
[ -x "$prog" ] || { echo "build first: $prog is missing"; exit 2; }
[ -n "$system_gl" ] || { echo "Debian's libGL.so.1 (libgl1) is needed"; exit 2; }
work=$(mktemp -d)
xvfb= sshd=
cleanup() {
    [ -n "$sshd" ] && kill "$sshd" 2>/dev/null
    [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
env -u LD_LIBRARY_PATH Xvfb -displayfd 3 -listen tcp -screen 0 1920x1080x24 3>"$work/fd" \
    >"$work/xvfb.log" 2>&1 </dev/null &
xvfb=$!
i=0
while [ ! -s "$work/fd" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
num=$(head -n 1 "$work/fd")
ours="$build/src/gl:$build/src/glx:$build/src/dispatch:$build/src/opengl:$build/src/egl"

# An sshd of our own on a free port, for the ssh -Y loop-back (root, a key made here).
ssh_ok=no
if [ -x /usr/sbin/sshd ] && command -v ssh >/dev/null && command -v xauth >/dev/null; then
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    ssh-keygen -q -t ed25519 -N '' -f "$work/host" && ssh-keygen -q -t ed25519 -N '' -f "$work/user"
    cp "$work/user.pub" "$work/authorized_keys"
    cat >"$work/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $work/host
AuthorizedKeysFile $work/authorized_keys
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
X11Forwarding yes
X11UseLocalhost yes
XAuthLocation $(command -v xauth)
PidFile $work/sshd.pid
EOF
    mkdir -p /run/sshd
    /usr/sbin/sshd -D -e -f "$work/sshd_config" 2>"$work/sshd.log" &
    sshd=$!
    ssh_cmd="ssh -Y -q -F /dev/null -i $work/user -p $port -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null root@127.0.0.1"
    i=0
    while [ $i -lt 50 ] && ! DISPLAY=":$num" $ssh_cmd true 2>/dev/null; do sleep 0.2; i=$((i + 1)); done
    DISPLAY=":$num" $ssh_cmd 'test -n "$DISPLAY"' 2>/dev/null && ssh_ok=yes
fi

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }

# run TRANSPORT IMPL COMMAND...: the command under the transport's DISPLAY and the stack's
# libraries (for ssh, on the far side of the loop-back).
run() {
    transport=$1 impl=$2
    shift 2
    if [ "$impl" = glmux ]; then
        vars="LD_LIBRARY_PATH=$ours GLMUX_GLX_REMOTE=pixels"
    else
        vars="vblank_mode=0"
    fi
    case $transport in
        shm) env DISPLAY=":$num" $vars "$@" ;;
        tcp) env DISPLAY="127.0.0.1:$num" $vars "$@" ;;
        ssh) DISPLAY=":$num" $ssh_cmd "env $vars $*" ;;
    esac
}

# The frame rate glxgears prints (the mean of its 5-second reports after the first).
gears() {
    transport=$1 impl=$2 w=$3 h=$4
    run "$transport" "$impl" timeout "$gears_s" glxgears -geometry "${w}x${h}" 2>/dev/null |
        awk '/frames in/ { n++; if (n > 1) { s += $1; t += $5 } } END { if (t) printf "%.0f\n", s / t; else print "-" }'
}

echo "| transport | size | stack | frames/s | CPU ms/frame | bytes/frame | glxgears frames/s |"
echo "|---|---|---|---:|---:|---:|---:|"
for transport in shm tcp ssh; do
    [ $transport != ssh ] || [ $ssh_ok = yes ] || { echo "| ssh -Y | - | - | (no openssh-server) | | | |"; continue; }
    for size in "300 300" "1920 1080"; do
        # shellcheck disable=SC2086
        set -- $size
        frames=300
        [ "$1" -gt 1000 ] && frames=60
        for impl in mesa glmux; do
            lib=$system_gl
            [ $impl = glmux ] && lib="$build/src/gl/libGL.so.1"
            : >"$work/runs"
            for r in $(seq "$runs"); do
                run $transport $impl "$prog" "$lib" "$1" "$2" "$frames" >>"$work/runs" 2>&1 || true
            done
            fps=$(sed -n 's/.*fps=\([0-9.]*\).*/\1/p' "$work/runs" | median)
            cpu=$(sed -n 's/.*cpu_ms_per_frame=\([0-9.]*\).*/\1/p' "$work/runs" | median)
            bytes=$(sed -n 's/.*bytes_per_frame=\([0-9]*\).*/\1/p' "$work/runs" | median)
            g=$(gears $transport $impl "$1" "$2")
            name="Mesa (libglvnd)"
            [ $impl = glmux ] && name="glmux pixels"
            label=$transport
            [ $transport = shm ] && label="local (MIT-SHM)"
            [ $transport = ssh ] && label="ssh -Y"
            echo "| $label | ${1}x$2 | $name | $fps | $cpu | $bytes | $g |"
        done
    done
done
