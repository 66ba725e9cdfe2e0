#!/bin/sh
# SPDX-License-Identifier: MIT
# cross_probe: the probe run_cross.sh uses to choose between running the target's programs
# natively and under qemu-user, both ways, and its check that a required test ran and passed.
#  1. i386: the probe answers what running its program directly shows (native where this
#     kernel runs 32-bit x86, qemu otherwise); GLMUX_CROSS_RUN=qemu takes the qemu-i386 path,
#     the one a host without 32-bit support takes, and the program runs there.
#  2. arm64: native only where this kernel runs AArch64 programs (binfmt_misc), else qemu;
#     GLMUX_CROSS_RUN=native on a kernel that cannot fails with a message, as does a bad value.
#  3. cross_require_ran, with a stand-in ctest: a failed test gives FAIL and no "ok:", a skipped
#     one FAIL, a passing one "ok: ... ran and passed".
#   test_cross_lib.sh WORK_DIR
set -u
work=$1
here=$(cd "$(dirname "$0")" && pwd)
. "$here/cross_lib.sh"
fail() { echo "FAIL: $*"; exit 1; }
for tool in i686-linux-gnu-gcc aarch64-linux-gnu-gcc qemu-i386 qemu-aarch64; do
    command -v $tool > /dev/null || { echo "SKIP: $tool missing (scripts/install-deps.sh)"; exit 77; }
done
rm -rf "$work" && mkdir -p "$work"

# direct TRIPLET: does this kernel run a program of TRIPLET by itself? (the test's own look)
direct() {
    printf 'int main(void) { return 42; }\n' > "$work/d.c"
    "$1-gcc" -o "$work/d-$1" "$work/d.c" || fail "$1-gcc cannot build a program"
    rc=0; sh -c '"$1"' sh "$work/d-$1" > /dev/null 2>&1 || rc=$?
    [ $rc = 42 ] && echo native || echo qemu
}

for arch in i386:i686-linux-gnu:qemu-i386 arm64:aarch64-linux-gnu:qemu-aarch64; do
    name=${arch%%:*} rest=${arch#*:}
    triplet=${rest%%:*} qemu=${rest#*:}
    expect=$(direct "$triplet")
    got=$(GLMUX_CROSS_RUN= cross_runner "$triplet" "$qemu" "$work/$name") ||
        fail "$name: the probe found no way to run $triplet programs"
    [ "$got" = "$expect" ] || fail "$name: the probe says '$got', running the program directly says '$expect'"
    echo "ok: $name: the probe says $got (this kernel $([ "$expect" = native ] && echo runs || echo does not run) $triplet programs)"
    got=$(GLMUX_CROSS_RUN=qemu cross_runner "$triplet" "$qemu" "$work/$name-q") ||
        fail "$name: GLMUX_CROSS_RUN=qemu: $qemu does not run the probe"
    [ "$got" = qemu ] || fail "$name: GLMUX_CROSS_RUN=qemu gave '$got'"
    echo "ok: $name: GLMUX_CROSS_RUN=qemu runs the probe under $qemu"
    if [ "$expect" = qemu ]; then
        if out=$(GLMUX_CROSS_RUN=native cross_runner "$triplet" "$qemu" "$work/$name-n" 2>&1); then
            fail "$name: GLMUX_CROSS_RUN=native succeeded on a kernel that does not run $triplet programs: $out"
        fi
        case $out in *"does not run $triplet programs"*) ;; *) fail "$name: no clear message: $out" ;; esac
        echo "ok: $name: GLMUX_CROSS_RUN=native fails: $out"
    fi
done
if out=$(GLMUX_CROSS_RUN=sometimes cross_runner i686-linux-gnu qemu-i386 "$work/bad" 2>&1); then
    fail "GLMUX_CROSS_RUN=sometimes accepted"
fi
echo "ok: a bad GLMUX_CROSS_RUN is refused: $out"

# cross_require_ran against a stand-in ctest whose answer FAKE_CTEST chooses.
mkdir -p "$work/bin"
cat > "$work/bin/ctest" <<'EOF'
#!/bin/sh
case $FAKE_CTEST in
    fail) echo "1/1 Test #1: $2 ...***Failed"; echo "0% tests passed, 1 tests failed out of 1"; exit 8 ;;
    skip) echo "1/1 Test #1: $2 ...***Skipped"; echo "100% tests passed, 0 tests failed out of 1"; exit 0 ;;
    pass) echo "1/1 Test #1: $2 ... Passed"; echo "100% tests passed, 0 tests failed out of 1"; exit 0 ;;
esac
exit 2
EOF
chmod +x "$work/bin/ctest"
for case in fail skip pass; do
    rc=0
    out=$(PATH="$work/bin:$PATH" FAKE_CTEST=$case cross_require_ran egl_mesa_gl 2>&1) || rc=$?
    case $case/$rc in
        pass/0) case $out in *"ok: egl_mesa_gl ran and passed"*) ;; *) fail "pass: no ok line: $out" ;; esac ;;
        pass/*) fail "a passing test was reported as failed: $out" ;;
        */0) fail "a $case test was reported as passed: $out" ;;
        *) case $out in *"ok:"*) fail "a $case test printed an ok line: $out" ;; esac
           case $out in *"FAIL: egl_mesa_gl"*) ;; *) fail "$case: no FAIL line: $out" ;; esac ;;
    esac
    echo "ok: cross_require_ran on a $case test: exit $rc"
done
echo "cross_probe passed"
