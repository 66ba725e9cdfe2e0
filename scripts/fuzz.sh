#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs fuzz targets (tests/fuzz) with libFuzzer under ASan+UBSan and keeps what they find: each
# crash, leak, timeout or out-of-memory input is minimized and saved under
# tests/fuzz/regressions/TARGET/ (as text when it is short printable text, else base64 in a .b64
# file), where the normal test suite replays it (fuzz_replay_TARGET). Needs clang and
# libclang-rt-14-dev (.ci/packages). The corpus grows in build-fuzz/fuzz/TARGET/corpus.
#   scripts/fuzz.sh TARGET SECONDS [LIBFUZZER_OPTIONS...]   e.g. scripts/fuzz.sh json 600
#   scripts/fuzz.sh all SECONDS [LIBFUZZER_OPTIONS...]      every target, SECONDS each, in turn
# The targets are those the build lists (build-fuzz/tests/fuzz/targets.tsv: every
# glmux_add_fuzzer call adds one), each run under its wrapper (umockdev-wrapper for select).
# A target that does not start (no execution) is a failure, never a pass. A summary line per
# target gives its executions and its open descriptors after the first 100 inputs and at the
# end; a count that grows by more than 16 fails the target ("descriptors grew": something it
# does per input leaks them). JOBS=N runs N fuzzing processes per target (libFuzzer -fork=N).
# FUZZ_BUILD=DIR uses that GLMUX_FUZZ=ON build as it is instead of building build-fuzz;
# FUZZ_WORK=DIR keeps the corpora there; FUZZ_REGRESSIONS=DIR saves findings there, not in the
# source tree. Exit status: 0 every target ran and found nothing; 1 something was saved, a
# target did not start or its descriptors grew; 2 usage or build error.
set -eu
[ $# -ge 2 ] || { sed -n '3,19p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
target=$1 seconds=$2
shift 2
case $seconds in ''|*[!0-9]*) echo "fuzz.sh: SECONDS must be a number, not '$seconds'"; exit 2 ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${FUZZ_BUILD:-}" ]; then
    build=$(cd "$FUZZ_BUILD" && pwd)
else
    build="$top/build-fuzz"
    command -v clang >/dev/null || { echo "fuzz.sh: clang is needed (apt-get install clang libclang-rt-14-dev)"; exit 2; }
    if [ ! -f "$build/CMakeCache.txt" ]; then
        cmake -S "$top" -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang -DGLMUX_FUZZ=ON \
            -DGLMUX_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 2
    fi
    cmake --build "$build" --target glmux_fuzz || exit 2
fi
list="$build/tests/fuzz/targets.tsv"
grep -q '^GLMUX_FUZZ:BOOL=ON$' "$build/CMakeCache.txt" 2>/dev/null && [ -f "$list" ] ||
    { echo "fuzz.sh: $build is not a glmux build configured with -DGLMUX_FUZZ=ON"; exit 2; }
exec python3 "$top/tests/fuzz/run_fuzz.py" long "$target" --list "$list" --top "$top" \
    --work "${FUZZ_WORK:-$build/fuzz}" --seconds "$seconds" ${JOBS:+--jobs "$JOBS"} \
    ${FUZZ_REGRESSIONS:+--regressions "$FUZZ_REGRESSIONS"} -- "$@"
