# SPDX-License-Identifier: MIT
# Sourced by run_cross.sh and test_cross_lib.sh: how the target's programs run on this build
# machine, and the check that a named test ran and passed.

# cross_runner TRIPLET QEMU WORKDIR: prints "native" when the build machine's kernel runs a
# program of the target (a tiny one compiled here with TRIPLET-gcc, run directly), else "qemu"
# when QEMU runs it; fails with a message when neither does. GLMUX_CROSS_RUN=native|qemu skips
# the probe of the other way (qemu: the way a host without 32-bit x86 support takes for i386).
cross_runner() {
    local triplet=$1 qemu=$2 work=$3 probe
    probe="$work/cross-probe"
    mkdir -p "$work"
    printf 'int main(void) { return 42; }\n' > "$probe.c"
    "$triplet-gcc" -o "$probe" "$probe.c" ||
        { echo "cross_runner: $triplet-gcc cannot build a program" >&2; return 1; }
    local rc=0
    case ${GLMUX_CROSS_RUN:-} in
        ""|native)
            # Through sh: a kernel without the target's binary format answers ENOEXEC, and sh
            # then reads the ELF file as a script and fails. Either way the result is not 42.
            sh -c '"$1"' sh "$probe" > /dev/null 2>&1 || rc=$?
            if [ $rc = 42 ]; then
                echo native
                return 0
            fi
            if [ "${GLMUX_CROSS_RUN:-}" = native ]; then
                echo "cross_runner: GLMUX_CROSS_RUN=native, but this kernel does not run $triplet programs" >&2
                return 1
            fi ;;
        qemu) ;;
        *) echo "cross_runner: GLMUX_CROSS_RUN is '$GLMUX_CROSS_RUN'; use native or qemu" >&2
           return 1 ;;
    esac
    command -v "$qemu" > /dev/null ||
        { echo "cross_runner: $triplet programs need $qemu (apt-get install qemu-user)" >&2; return 1; }
    # The target's C library through multiarch, else the cross toolchain's (-L).
    rc=0; "$qemu" "$probe" > /dev/null 2>&1 || rc=$?
    [ $rc = 42 ] || { rc=0; "$qemu" -L "/usr/$triplet" "$probe" > /dev/null 2>&1 || rc=$?; }
    if [ $rc = 42 ]; then
        echo qemu
        return 0
    fi
    echo "cross_runner: $qemu does not run a $triplet program either" >&2
    return 1
}

# cross_require_ran TEST: runs one ctest test of the current build directory again; it must
# pass and must not have been skipped. Prints "ok: TEST ran and passed" only then; returns 1
# after printing the test's output and "FAIL: ..." otherwise.
cross_require_ran() {
    local t=$1 out rc=0
    out=$(ctest -R "^$t\$" --output-on-failure 2>&1) || rc=$?
    case $out in
        *"Skipped"*|*"Not Run"*|*"No tests were found"*)
            echo "$out"; echo "FAIL: $t did not run"; return 1 ;;
    esac
    if [ $rc != 0 ]; then
        echo "$out"; echo "FAIL: $t failed (ctest exit $rc)"; return 1
    fi
    echo "ok: $t ran and passed"
}
