#!/bin/sh
# SPDX-License-Identifier: MIT
# The whole test suite: installs what is missing, builds the default (x86-64 assembly stubs,
# Ninja) and the pure-C (Unix Makefiles, so that both CMake generators are built every time)
# configurations and runs ctest in both (in pure-C, the tests that call through the stubs), runs
# the unit, dispatch, EGL, GLX, selector and tool tests (not those that run Mesa's own programs;
# the lifetime, pixels-vendor and layer-program tests with Mesa too, glxgears among them) and
# the fuzz targets' smoke runs (libFuzzer, a fixed number of executions each) in an ASan+UBSan
# Debug build made with clang, the unit and fake-vendor tests under ThreadSanitizer (gcc, with
# the pixels vendor's and glxgears through the layers), and everything in a build with EGL,
# GLX and GLES switched off.
# It installs what is missing of .ci/packages first (scripts/install-deps.sh), which adds no
# foreign architecture; the builds require Present in the pixels vendor (GLMUX_REQUIRE_PRESENT,
# its tests test it). With CI=true it also runs the packaging tests (label "packaging": builds
# the .deb and .rpm packages, nocheck: the suite a package build would run inside is the default
# configuration's, just run) and the cross-architecture runs of i386 (natively where the kernel
# runs 32-bit programs, else under qemu-user) and arm64 (qemu-user) with the probe that chooses
# (label "cross", tests/cross/run_cross.sh; GLMUX_CROSS=all: every architecture); the cross runs
# need .ci/packages-cross, whose NAME:ARCH packages add the architectures i386, arm64 and armhf,
# so it is installed only then (CI=true, or GLMUX_CROSS set, which runs the cross rows without
# CI). `scripts/test.sh --deps` installs and stops. Extra arguments go to ctest. Ends with one
# table (scripts/test-summary.py): a row per ctest run with its tests, passed, failed, skipped
# and time, each skipped test's reason and each failed test's name (its output is printed above,
# as it fails). Everything runs with a TMPDIR of the suite's own, which must be empty at the end
# (else a failing row names what was left); it is removed, so /tmp is left as it was found.
# `scripts/test.sh --help` lists the variables.
#   scripts/test.sh [--deps] [CTEST_ARGS...]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in -h|--help)
    cat <<'EOH'
Usage: scripts/test.sh [--deps] [CTEST_ARGS...]
Builds and tests glmux in every configuration: default (Ninja), pure-c (Unix Makefiles),
sanitize (clang, ASan+UBSan, fuzz smoke runs), tsan, minimal. Extra arguments go to each
configuration's ctest run. Ends with a table: a row per ctest run, with its time.
First installs what is missing of .ci/packages (no foreign architecture); --deps stops there.

Variables:
  CI=true             also the packaging tests (label packaging: the .deb and .rpm builds,
                      nocheck, side by side, about 3 minutes on two cores) and the cross
                      runs (label cross: i386 and arm64, about 3 minutes), both after the
                      default configuration
  GLMUX_CROSS=all     every cross architecture (armhf, ppc64el, riscv64, s390x, i386 forced
                      under qemu, the i386 package build) instead of i386 and arm64
  GLMUX_CROSS=yes     the cross runs without CI=true. With CI=true or any GLMUX_CROSS, the
                      packages of .ci/packages-cross are installed too, which adds the
                      foreign architectures i386, arm64 and armhf (dpkg --add-architecture)
  GLMUX_CONFIGS="default tsan"
                      only these configurations (default: all five, in this order)
  GLMUX_PACKAGING=full
                      with CI=true: also the package builds that run the whole test suite
                      inside, the second build that shows the .debs reproducible (label
                      fulltests: packaging_deb_check, packaging_rpm_check,
                      packaging_reproducible) and the clean mmdebstrap chroot build (label
                      chroot: packaging_chroot, root and the Debian archive needed); 2 to 30
                      minutes each (docs/packaging.md, "Tests")
  TMPDIR=DIR          where the suite's own temporary directory is made (default /tmp);
                      every build and test writes there, and whatever is left in it at the
                      end fails the run (a row of the table names it) and is removed
Opt-in tests run alone from a configured build, e.g.:
  cd build && ctest -L fulltests      cd build && ctest -L chroot
EOH
    exit 0 ;;
esac
jobs=$(nproc 2>/dev/null || echo 2)
# The cross rows (and only they) need the other architectures' packages.
cross_rows=false
[ "${CI:-}" != true ] && [ -z "${GLMUX_CROSS:-}" ] || cross_rows=true
if [ "$cross_rows" = true ]; then
    "$top/scripts/install-deps.sh" "$top/.ci/packages" "$top/.ci/packages-cross"
else
    "$top/scripts/install-deps.sh" "$top/.ci/packages"
fi
[ "${1:-}" != --deps ] || exit 0
status=0
rows=$(mktemp)
# Every build and test writes its temporary files into a TMPDIR of the suite's own: what is left
# in it at the end was left by the suite (other programs writing /tmp meanwhile do not count), and
# is said in a row of the table that fails the run. It is removed then, so /tmp is as it was.
outer_tmp=${TMPDIR:-/tmp}
suite_tmp=$(mktemp -d "$outer_tmp/glmux-test.XXXXXX")
trap 'rm -f "$rows"; rm -rf "$suite_tmp"' EXIT
export TMPDIR="$suite_tmp"

# run_ctest ROW-NAME CTEST-ARGS...: one ctest run in $build, a row of the closing table.
run_ctest() {
    row=$1
    shift
    junit="$build/Testing/junit-$(echo "$row" | tr '[:upper:]' '[:lower:]' | tr -c 'a-z0-9\n' '-').xml"
    rm -f "$junit"
    started=$(date +%s)
    (cd "$build" && ctest --output-on-failure --output-junit "$junit" "$@") || status=1
    printf '%s\t%s\t%s\t\n' "$row" "$junit" $(($(date +%s) - started + ${build_s:-0})) >>"$rows"
    build_s=0
}

for config in ${GLMUX_CONFIGS:-default pure-c sanitize tsan minimal}; do
    build="$top/build"
    opts=""
    generator=Ninja
    labels="-LE ^(packaging|memcheck|cross)$"   # anchored: "nocross" is not "cross"
    case $config in
        # The pure-C stubs: every test that calls GL through them. Not the selector's beds,
        # the tool, the fuzz replays, the docs checks nor the pixels vendor's long depth and
        # config sweeps: none of them goes through the stubs, and the default configuration
        # has just run them.
        pure-c) build="$top/build-pure-c"; opts="-DGLMUX_ENABLE_ASM=OFF"
                generator="Unix Makefiles"
                labels="-LE packaging|memcheck|cross|scripts|select|cli|fuzz|docs -E ^glx_pixels_(depth|depth-put|configs)$" ;;
        # clang: its warnings over the whole tree (gcc's are the other configurations'), its
        # sanitizer runtime and libFuzzer, in one build (a gcc ASan build besides it took two
        # minutes more and found nothing this one does not).
        sanitize) build="$top/build-sanitize"
                  opts="-DCMAKE_C_COMPILER=clang -DGLMUX_SANITIZE=address,undefined -DGLMUX_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug"
                  labels="-L unit|dispatch|egl|glx|gl|select|cli|fuzz|layers -LE packaging|mesa|cross" ;;
        tsan) build="$top/build-tsan"   # data races: the unit and fake-vendor tests, and the
              # selector's threads test (label threads) (~2 min)
              opts="-DGLMUX_SANITIZE=thread -DCMAKE_BUILD_TYPE=Debug -DGLMUX_ENABLE_GLES1=OFF -DGLMUX_ENABLE_GLES2=OFF"
              labels="-L unit|dispatch|egl|glx|gl|threads|layers -LE packaging|mesa|select|cli|memcheck|fuzz|cross" ;;
        minimal) build="$top/build-minimal"   # only libGLdispatch and libOpenGL
                 opts="-DGLMUX_ENABLE_EGL=OFF -DGLMUX_ENABLE_GLX=OFF -DGLMUX_ENABLE_GLES1=OFF -DGLMUX_ENABLE_GLES2=OFF"
                 labels="-LE packaging|memcheck|cross|scripts" ;;
    esac
    echo "== configuration: $config ($build, $generator)"
    # A tree configured with the other generator or compiler (an older checkout's) is
    # configured afresh.
    cache="$build/CMakeCache.txt"
    if [ -f "$cache" ]; then
        want_clang=false has_clang=false
        case $opts in *COMPILER=clang*) want_clang=true ;; esac
        ! grep -q '^CMAKE_C_COMPILER:[A-Z]*=.*clang' "$cache" || has_clang=true
        if ! grep -qxF "CMAKE_GENERATOR:INTERNAL=$generator" "$cache" ||
           [ "$want_clang" != "$has_clang" ]; then
            rm -rf "$cache" "$build/CMakeFiles"
        fi
    fi
    # The build time counts in the configuration's first row. A build that fails is a row that
    # says so; the other configurations still run.
    started=$(date +%s)
    # Present in the pixels vendor (a tree that demo.sh built without it gets it now), in every
    # configuration that builds GLX.
    [ "$config" = minimal ] || opts="$opts -DGLMUX_REQUIRE_PRESENT=ON"
    # shellcheck disable=SC2086
    if ! cmake -S "$top" -B "$build" -G "$generator" -DBUILD_TESTING=ON $opts >/dev/null ||
       ! cmake --build "$build" -j "$jobs"; then
        printf '%s\t\t%s\tbuild failed\n' "$config" $(($(date +%s) - started)) >>"$rows"
        status=1
        continue
    fi
    build_s=$(($(date +%s) - started))
    # shellcheck disable=SC2086
    run_ctest "$config" -j "$jobs" $labels "$@"
    # The lifetime tests (unload and fork with contexts current) under ASan with Mesa too.
    if [ "$config" = sanitize ]; then
        run_ctest "sanitize: lifetime, Mesa" -j "$jobs" -L lifetime -L mesa "$@"
        # The pixels vendor's tests (Xvfb, Mesa's llvmpipe) under ASan: frame buffers sized from
        # what the X server answers, with MIT-SHM and with XPutImage (docs/remote.md).
        run_ctest "sanitize: pixels vendor" -j "$jobs" -R '^glx_pixels_' "$@"
        # glmux's layers in real programs with Mesa (label mesa, left out above): our own
        # program and glxgears (not instrumented: the harness preloads the ASan runtime).
        run_ctest "sanitize: layers, Mesa" -j "$jobs" \
            -R '^layer_tools_(programs_(glx|egl)|glxgears)$' "$@"
    fi
    # The pixels vendor's frame transport under ThreadSanitizer (Xvfb, Mesa's llvmpipe; Mesa's
    # own threads are suppressed by tests/glx/tsan_mesa.supp): threads, swaps across threads,
    # displays closed while others show frames, contexts and windows destroyed (objects), the
    # frame after a resize, MIT-SHM errors through a proxy, the server killed under threads
    # (~4 min).
    if [ "$config" = tsan ]; then
        run_ctest "tsan: pixels vendor" -j "$jobs" \
            -R '^glx_pixels_(noglx|nopresent|count|swap|interval|resize|shmerrors|threads|objects|iodeath(-threads)?)$' "$@"
        # glxgears through the frame limiter, the frame-time log and the call counter, with
        # Mesa's threads (label mesa, left out above).
        run_ctest "tsan: layers, Mesa" -j "$jobs" -R '^layer_tools_glxgears$' "$@"
    fi
    # CI also builds the .deb and .rpm packages (label "packaging", nocheck, a few minutes).
    if [ "$config" = default ] && [ "${CI:-}" = true ]; then
        # Not the package builds with the suite inside (label fulltests) nor the clean-chroot
        # build (label chroot): GLMUX_PACKAGING=full, or ctest -L fulltests / -L chroot.
        if [ "${GLMUX_PACKAGING:-}" = full ]; then
            run_ctest "default: packaging" -j "$jobs" -L packaging
        else
            run_ctest "default: packaging" -j "$jobs" -L packaging -LE "chroot|fulltests"
        fi
    fi
    if [ "$config" = default ] && [ "$cross_rows" = true ]; then
        # Other architectures, one after the other (each builds with -j; two side by side take
        # no less time on two cores): i386 and arm64 (about three minutes together);
        # GLMUX_CROSS=all adds armhf, ppc64el, riscv64, s390x and the i386 package build.
        cross='-R cross_(i386|arm64|probe)$'
        [ "${GLMUX_CROSS:-}" != all ] || cross=""
        # shellcheck disable=SC2086
        run_ctest "default: cross" -L cross $cross
    fi
done
left=$(cd "$suite_tmp" && find . -mindepth 1 -maxdepth 1 | sed 's|^\./||' | sort)
if [ -n "$left" ]; then
    n=$(echo "$left" | wc -l)
    some=$(echo "$left" | head -n 3 | paste -sd' ' -)
    [ "$n" -le 3 ] || some="$some and $((n - 3)) more"
    printf '%s\t\t0\t%s\n' "TMPDIR" "$n left behind (removed now): $some" >>"$rows"
    # What is in them, with their times, tells which test left them.
    echo "test.sh: left in the suite's TMPDIR (modification time, path):" >&2
    (cd "$suite_tmp" && find . -mindepth 1 -maxdepth 4 -printf '%TT %p\n' | sort | head -n 30) >&2
    status=1
fi
python3 "$top/scripts/test-summary.py" "$rows" || status=1
exit $status
