#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs one fuzz target (tests/fuzz) with libFuzzer for SECONDS seconds under ASan+UBSan and keeps
# what it finds: each crash, leak, timeout or out-of-memory input is minimized and saved under
# tests/fuzz/regressions/TARGET/ (as text when it is short printable text, else base64 in a .b64
# file), where the normal test suite replays it (fuzz_replay_TARGET). Needs clang and
# libclang-rt-14-dev (.ci/packages). The corpus grows in build-fuzz/fuzz/TARGET/corpus across runs.
#   scripts/fuzz.sh TARGET SECONDS [LIBFUZZER_OPTIONS...]     e.g. scripts/fuzz.sh json 600
# Targets: json manifest env glx_reply select port_lex pixels_present (those this tree builds).
# JOBS=N: N processes (libFuzzer -fork=N). Exit status: 0 nothing found, 1 something saved.
set -eu
[ $# -ge 2 ] || { sed -n '3,11p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
target=$1 seconds=$2
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build-fuzz"
work="$build/fuzz/$target"
regressions="$top/tests/fuzz/regressions/$target"
command -v clang >/dev/null || { echo "fuzz.sh: clang is needed (apt-get install clang libclang-rt-14-dev)"; exit 2; }
if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$top" -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang -DGLMUX_FUZZ=ON \
        -DGLMUX_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" --target "glmux_fuzz_$target"
exe="$build/tests/fuzz/glmux_fuzz_$target"
mkdir -p "$work/corpus" "$work/artifacts"
python3 "$top/tests/fuzz/make_corpus.py" "$target" "$work/seeds" --top "$top"
# The saved regressions (decoded) seed the run too.
rm -rf "$work/regressions"
python3 -c 'import pathlib, sys; sys.path.insert(0, sys.argv[1]); import run_fuzz
run_fuzz.decode_regressions(sys.argv[2], pathlib.Path(sys.argv[3]), pathlib.Path(sys.argv[4]))' \
    "$top/tests/fuzz" "$target" "$top" "$work/regressions"
fork=""
[ -n "${JOBS:-}" ] && fork="-fork=$JOBS -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1"
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
set +e
# shellcheck disable=SC2086
"$exe" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -max_len=4096 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/" $fork "$@" \
    "$work/corpus" "$work/seeds" "$work/regressions" 2>&1 | tail -n 60
set -e
found=0
for art in "$work"/artifacts/crash-* "$work"/artifacts/leak-* "$work"/artifacts/timeout-* \
           "$work"/artifacts/oom-*; do
    [ -f "$art" ] || continue
    found=1
    kind=$(basename "$art" | cut -d- -f1)
    small="$art.min"
    # Minimize (a bounded number of tries); keep the original when that fails.
    "$exe" -minimize_crash=1 -runs=5000 -exact_artifact_path="$small" "$art" >/dev/null 2>&1 || true
    [ -s "$small" ] || cp "$art" "$small"
    python3 - "$small" "$regressions" "$kind" <<'PY'
import base64, hashlib, pathlib, sys
raw = pathlib.Path(sys.argv[1]).read_bytes()
out = pathlib.Path(sys.argv[2]); out.mkdir(parents=True, exist_ok=True)
name = f"{sys.argv[3]}-{hashlib.sha1(raw).hexdigest()[:12]}"
try:
    text = raw.decode("ascii")
    printable = all(c.isprintable() or c in "\n\t" for c in text)
except UnicodeDecodeError:
    printable = False
if printable and len(raw) <= 4096:
    path = out / name
    path.write_bytes(raw)
else:
    path = out / (name + ".b64")
    b64 = base64.b64encode(raw).decode()
    path.write_text("\n".join(b64[i:i + 76] for i in range(0, len(b64), 76)) + "\n")
print(f"saved {path} ({len(raw)} bytes): commit it with the fix")
PY
    mv "$art" "$art.saved"
done
[ $found = 0 ] && echo "fuzz.sh: $target ran $seconds s, nothing found"
exit $found
