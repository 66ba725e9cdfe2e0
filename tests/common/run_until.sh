# SPDX-License-Identifier: MIT
# Sourced by test scripts (sh). run_until runs a program that never ends by itself (glxgears)
# until what the test waits for has happened, then stops it: no wall-clock bound decides the
# result, only a generous watchdog against a hang.
#   run_until PATTERN FILE OUT CMD [ARGS...]
# Starts CMD with stdout and stderr in OUT and waits until FILE (may be OUT) holds a line that
# matches the extended regular expression PATTERN, then stops CMD with SIGTERM. Returns 0 when
# the line came while CMD still ran; 1 when CMD exited first (its status in run_until_status);
# 2 when nothing came within RUN_UNTIL_WATCHDOG seconds (300).
run_until() {
    ru_pattern=$1 ru_file=$2 ru_out=$3
    shift 3
    "$@" >"$ru_out" 2>&1 &
    ru_pid=$!
    ru_left=$((${RUN_UNTIL_WATCHDOG:-300} * 10))
    run_until_status=
    while ! grep -Eq "$ru_pattern" "$ru_file" 2>/dev/null; do
        if ! kill -0 "$ru_pid" 2>/dev/null; then
            wait "$ru_pid"
            run_until_status=$?
            return 1
        fi
        if [ "$ru_left" -le 0 ]; then
            kill "$ru_pid" 2>/dev/null
            wait "$ru_pid" 2>/dev/null
            return 2
        fi
        sleep 0.1
        ru_left=$((ru_left - 1))
    done
    if kill "$ru_pid" 2>/dev/null; then
        wait "$ru_pid" 2>/dev/null
        return 0
    fi
    wait "$ru_pid"
    run_until_status=$?
    return 1
}
