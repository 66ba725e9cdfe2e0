# SPDX-License-Identifier: MIT
# Sourced by check_debs.sh and check_rpms.sh: what a package build's log must show.
# build_log_check MODE LOG WHAT: MODE check: the suite ran inside the build (LOG, or the part
# of it from the test step on) and passed; MODE nocheck: the build configured
# BUILD_TESTING=OFF and compiled nothing under tests/. Calls fail() (the caller's) otherwise.
build_log_check() {
    local mode=$1 log=$2 what=$3
    if [ "$mode" = check ]; then
        grep -E '^100% tests passed, 0 tests failed out of [1-9]' "$log" ||
            fail "$what did not run the test suite to a pass (log: $log)"
    else
        grep -q -- '-DBUILD_TESTING=OFF' "$log" ||
            fail "$what did not configure with BUILD_TESTING=OFF (log: $log)"
        ! grep -E 'Building C object tests/' "$log" | head -3 | grep . ||
            fail "$what compiled the test suite (log: $log)"
        echo "ok: $what built no test suite"
    fi
}
