#!/bin/sh
# SPDX-License-Identifier: MIT
# The pixels GLX vendor (docs/remote.md) against Mesa through Debian's libglvnd, in one run, on
# one Xvfb with GLX (llvmpipe renders every stack): frames per second and CPU milliseconds per
# frame (bench_frames: every thread of the process) and glxgears' frame rate, at 300x300 and
# 1920x1080, over the local socket (MIT-SHM), over TCP (127.0.0.1:N) and, when openssh-server
# is installed, over an `ssh -Y` loop-back (sshd started here on a free port, keys of its own,
# X11 forwarding to this Xvfb). Three stacks:
#   mesa    Debian's libGL/libGLX/libGLdispatch (libglvnd) and Mesa's libGLX_mesa
#   glmux   glmux's libraries, vendor of glmux's own choosing (docs/remote.md, "When it is used":
#           on this machine, with no GPU, Mesa's vendor on every transport)
#   pixels  glmux's libraries with GLMUX_GLX_REMOTE=pixels: the pixels vendor, forced
# Each process's mapped GL libraries are checked (bench_frames prints them; glxgears' are read
# from /proc/PID/maps): a run that did not load the stack it names stops the bench.
# bench_frames runs with two configs: "rgb" (what glxgears asks for: no alpha, so llvmpipe
# renders into an X8 buffer) and "rgba" (8 bits of alpha).
# Wall-clock and noisy on a shared machine: the stacks run in turn, RUNS times (glxgears: 3
# times at 1920x1080, once at 300x300); each figure is the median of those runs, each ratio the
# median of the ratios of runs made one after the other. About 15 minutes with RUNS=5.
#   bench/remote/run_remote_bench.sh [BUILD_DIR] [RUNS] [GEARS_SECONDS]
set -eu
build=$(cd "${1:-build}" && pwd)
runs=${2:-5}
gears_s=${3:-11}
prog="$build/bench/remote/bench_frames"
system_gl=$(ldconfig -p | sed -n 's/.*libGL.so.1 (libc6,x86-64) => //p' | head -n 1)
command -v Xvfb >/dev/null || { echo "Xvfb is needed (apt-get install xvfb)"; exit 2; }
if ! command -v glxgears >/dev/null || ! command -v stdbuf >/dev/null; then
    echo "glxgears (mesa-utils) and stdbuf (coreutils) are needed"
    exit 2
fi
[ -x "$prog" ] || { echo "build first: $prog is missing"; exit 2; }
[ -n "$system_gl" ] || { echo "Debian's libGL.so.1 (libgl1) is needed"; exit 2; }
case $system_gl in "$build"/*) echo "ldconfig names glmux's libGL: $system_gl"; exit 2 ;; esac
work=$(mktemp -d)
xvfb='' sshd=''
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
    # shellcheck disable=SC2016 # $DISPLAY of the far side
    DISPLAY=":$num" $ssh_cmd 'test -n "$DISPLAY"' 2>/dev/null && ssh_ok=yes
fi

# glxgears for SECONDS, its mapped GL libraries written to MAPS once a GLX vendor library
# (libGLX_*) is mapped: polled every 0.1 s for at most 60 s, as a loaded machine may take more
# than a few seconds to start it (a fixed wait read the maps too early and stopped the bench).
cat >"$work/gears.sh" <<'EOF'
maps=$1 seconds=$2
shift 2
stdbuf -oL glxgears "$@" &
p=$!
libs() { grep -o '/[^ ]*/lib\(GL\|EGL\|OpenGL\)[^ /]*$' "/proc/$p/maps" 2>/dev/null | sort -u; }
start=$(date +%s)
i=0
while [ $i -lt 600 ] && kill -0 "$p" 2>/dev/null && ! libs | grep -q '/libGLX_[^/]*$'; do
    sleep 0.1
    i=$((i + 1))
done
libs | paste -sd, - >"$maps"
left=$((seconds - ($(date +%s) - start)))
[ "$left" -le 0 ] || sleep "$left"
kill "$p"
wait "$p" 2>/dev/null || true
EOF

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }

# run TRANSPORT STACK COMMAND...: the command under the transport's DISPLAY and the stack's
# libraries (for ssh, on the far side of the loop-back).
run() {
    transport=$1 stack=$2
    shift 2
    case $stack in
        mesa) vars="vblank_mode=0" ;;
        glmux) vars="vblank_mode=0 LD_LIBRARY_PATH=$ours" ;;
        pixels) vars="vblank_mode=0 LD_LIBRARY_PATH=$ours GLMUX_GLX_REMOTE=pixels" ;;
    esac
    # shellcheck disable=SC2086 # $vars: several assignments
    case $transport in
        shm) env -u LD_LIBRARY_PATH DISPLAY=":$num" $vars "$@" ;;
        tcp) env -u LD_LIBRARY_PATH DISPLAY="127.0.0.1:$num" $vars "$@" ;;
        ssh) DISPLAY=":$num" $ssh_cmd "env -u LD_LIBRARY_PATH $vars $*" ;;
    esac
}

# check STACK LIBS WHAT: stops the bench unless LIBS (comma-separated paths) are the stack's;
# prints the GLX vendor library the process loaded.
check() {
    stack=$1 libs=$2 what=$3
    glx=$(echo "$libs" | tr , '\n' | grep '/libGLX\.so' || true)
    vendor=$(echo "$libs" | tr , '\n' | sed -n 's|.*/\(libGLX_[^/]*\)\.so.*|\1|p' | paste -sd+ -)
    ok=yes
    case $stack in
        mesa) case $glx in "$build"/*|"") ok=no ;; esac
              [ "$vendor" = libGLX_mesa ] || ok=no ;;
        glmux) case $glx in "$build"/*) ;; *) ok=no ;; esac ;;
        pixels) case $glx in "$build"/*) ;; *) ok=no ;; esac
                echo "$libs" | tr , '\n' | grep -F "/libGLX_glmux-pixels.so" |
                    grep -qF "$build/" || ok=no
                [ "$vendor" = libGLX_glmux-pixels ] || ok=no ;;
    esac
    if [ $ok = no ]; then
        echo "$what ($stack) loaded the wrong libraries: ${libs:-none}" >&2
        exit 1
    fi
    echo "$vendor"
}

# The frame rate glxgears prints (the mean of its 5-second reports after the first).
gears() {
    transport=$1 stack=$2 w=$3 h=$4
    rm -f "$work/maps"
    fps=$(run "$transport" "$stack" sh "$work/gears.sh" "$work/maps" "$gears_s" -geometry "${w}x${h}" 2>/dev/null |
        awk '/frames in/ { n++; if (n > 1) { s += $1; t += $4 } } END { if (t) printf "%.0f\n", s / t; else print "-" }')
    v=$(check "$stack" "$(cat "$work/maps" 2>/dev/null || true)" "glxgears over $transport") || exit 1
    echo "$fps $v"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f\n", a / b; else print "-" }'; }

stacks="mesa glmux pixels"
: >"$work/vendors"
echo "bench_frames: frames/s and CPU ms/frame (medians of $runs runs); pixels/mesa: the median of the $runs paired ratios"
echo
echo "| transport | size | config | fps mesa | fps glmux | fps pixels | fps pixels/mesa | CPU ms mesa | CPU ms glmux | CPU ms pixels | CPU pixels/mesa |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
: >"$work/gears"
for transport in shm tcp ssh; do
    label=$transport
    [ $transport = shm ] && label="local (MIT-SHM)"
    [ $transport = ssh ] && label="ssh -Y"
    if [ $transport = ssh ] && [ $ssh_ok != yes ]; then
        echo "| ssh -Y | (no openssh-server: not measured) | | | | | | | | | |"
        continue
    fi
    for size in "300 300" "1920 1080"; do
        # shellcheck disable=SC2086
        set -- $size
        w=$1 h=$2
        # About 2-3 seconds a run.
        case $transport/$w in
            shm/300|tcp/300) frames=2000 ;;
            ssh/300) frames=600 ;;
            shm/*) frames=300 ;;
            tcp/*) frames=150 ;;
            *) frames=40 ;;
        esac
        for config in rgb rgba; do
            for s in $stacks; do : >"$work/$s.runs"; done
            : >"$work/fps.ratio"
            : >"$work/cpu.ratio"
            for _ in $(seq "$runs"); do
                for s in $stacks; do
                    lib=$system_gl
                    [ $s = mesa ] || lib="$build/src/gl/libGL.so.1"
                    line=$(run $transport $s "$prog" "$lib" "$w" "$h" "$frames" $config 2>/dev/null | grep '^fps=' || true)
                    [ -n "$line" ] || { echo "bench_frames ($s over $transport) failed" >&2; exit 1; }
                    v=$(check $s "$(echo "$line" | sed -n 's/.* libs=//p')" "bench_frames over $transport") || exit 1
                    echo "$s $transport bench_frames: $v" >>"$work/vendors"
                    echo "$line" >>"$work/$s.runs"
                done
                fm=$(tail -n 1 "$work/mesa.runs" | sed -n 's/^fps=\([0-9.]*\).*/\1/p')
                fp=$(tail -n 1 "$work/pixels.runs" | sed -n 's/^fps=\([0-9.]*\).*/\1/p')
                cm=$(tail -n 1 "$work/mesa.runs" | sed -n 's/.*cpu_ms_per_frame=\([0-9.]*\).*/\1/p')
                cp=$(tail -n 1 "$work/pixels.runs" | sed -n 's/.*cpu_ms_per_frame=\([0-9.]*\).*/\1/p')
                ratio "$fp" "$fm" >>"$work/fps.ratio"
                ratio "$cp" "$cm" >>"$work/cpu.ratio"
            done
            row="| $label | ${w}x$h | $config"
            for s in $stacks; do
                row="$row | $(sed -n 's/^fps=\([0-9.]*\).*/\1/p' "$work/$s.runs" | median)"
            done
            row="$row | $(median <"$work/fps.ratio")"
            for s in $stacks; do
                row="$row | $(sed -n 's/.*cpu_ms_per_frame=\([0-9.]*\).*/\1/p' "$work/$s.runs" | median)"
            done
            echo "$row | $(median <"$work/cpu.ratio") |"
        done
        # glxgears: GEARS_SECONDS a run, the stacks in turn; 3 runs at 1920x1080, 1 at 300x300.
        gruns=1
        [ "$w" -gt 1000 ] && gruns=3
        for s in $stacks; do : >"$work/$s.gears"; done
        : >"$work/gp.ratio"
        : >"$work/gg.ratio"
        g_mesa='' g_glmux='' g_pixels=''
        for _ in $(seq $gruns); do
            for s in $stacks; do
                # shellcheck disable=SC2046
                set -- $(gears $transport $s "$w" "$h")
                [ $# -eq 2 ] || exit 1
                eval "g_$s=\$1"
                echo "$s $transport glxgears: $2" >>"$work/vendors"
                echo "$1" >>"$work/$s.gears"
            done
            ratio "$g_pixels" "$g_mesa" >>"$work/gp.ratio"
            ratio "$g_glmux" "$g_mesa" >>"$work/gg.ratio"
        done
        row="| $label | ${w}x$h | $gruns"
        for s in $stacks; do row="$row | $(median <"$work/$s.gears")"; done
        echo "$row | $(median <"$work/gp.ratio") | $(median <"$work/gg.ratio") |" >>"$work/gears"
    done
done
echo
echo "glxgears: frames/s (runs of ${gears_s} s, the reports after the first 5 s; medians, and medians of the paired ratios)"
echo
echo "| transport | size | runs | mesa | glmux | pixels | pixels/mesa | glmux/mesa |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
cat "$work/gears"
echo
echo "GLX vendor library each stack loaded (checked in every process):"
sort "$work/vendors" | uniq -c | sed 's/^ */    /'
