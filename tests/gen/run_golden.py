#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden-file tests for scripts/gen/gen_dispatch.py on the fixture registry.

  run_golden.py [--update]

Runs the generator on tests/gen/fixture/ in every mode into a fresh directory and compares each
output (libGLdispatch's below stubs, the bottom of a GL layer chain, included) with
tests/gen/golden/. --update rewrites the golden files (review the diff!). It also
checks that the generator refuses a symbol list that disagrees with the registry features and
a slot list that is not sorted, with a message that names the file.
"""
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "..", "scripts", "gen", "gen_dispatch.py")
FIX = os.path.join(HERE, "fixture")
GOLDEN = os.path.join(HERE, "golden")


def gen(out, *args, expect_ok=True):
    cmd = [sys.executable, GEN, *args[:1], out, "--xml", os.path.join(FIX, "gl.xml"),
           "--slots", args[1] if len(args) > 1 and args[1].endswith(".txt") else
           os.path.join(FIX, "slots.txt"),
           "--extra", os.path.join(FIX, "extra.txt"), "--dynamic", "2", "--glx-count", "2",
           *[a for a in args[1:] if not a.endswith("slots.txt")]]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if expect_ok and r.returncode != 0:
        sys.exit(f"FAIL: generator failed: {' '.join(cmd)}\n{r.stderr}")
    return r


def main():
    update = "--update" in sys.argv
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        sym = os.path.join(FIX, "libFixture.symbols")
        gen(tmp, "core")
        gen(tmp, "stubs", "--lib", "Fixture", "--symbols", sym, "--mode", "x86_64_tls",
            "--check-api", "gl", "--check-features", "GL_VERSION_1_0,GL_VERSION_1_1",
            "--extra-exports", os.path.join(FIX, "extra_exports.txt"))
        c_dir = os.path.join(tmp, "c")
        gen(c_dir, "core", "--mode", "pure_c")
        gen(c_dir, "stubs", "--lib", "Dispatch", "--all-slots", "--mode", "pure_c")
        shutil.move(os.path.join(c_dir, "Dispatch_stubs.c"), os.path.join(tmp, "Dispatch_stubs.c"))
        shutil.move(os.path.join(c_dir, "glmux_noop.c"), os.path.join(tmp, "glmux_noop.c"))
        # libGLdispatch's below stubs (the bottom of a GL layer chain): typed C ones here.
        gen(c_dir, "below", "--mode", "pure_c")
        shutil.move(os.path.join(c_dir, "GLdispatch_below.c"),
                    os.path.join(tmp, "GLdispatch_below.c"))
        shutil.rmtree(c_dir)
        # Every other flavour: its header, trampolines, entry stubs and GLX stubs, renamed.
        for mode in ("x86_tls", "aarch64_tls", "armv7_tls", "pure_c"):
            m_dir = os.path.join(tmp, mode)
            gen(m_dir, "core", "--mode", mode)
            gen(m_dir, "stubs", "--lib", "Fixture", "--symbols", sym, "--mode", mode)
            gen(m_dir, "glx", "--mode", mode)
            gen(m_dir, "below", "--mode", mode)
            for name in ("glmux_constants.h", "glmux_lazy.S", "Fixture_stubs.S",
                         "GLdispatch_below.S"):
                if os.path.exists(os.path.join(m_dir, name)):
                    shutil.move(os.path.join(m_dir, name), os.path.join(tmp, f"{mode}.{name}"))
            shutil.rmtree(m_dir)
        gen(tmp, "glx", "--mode", "x86_64_tls")
        gen(tmp, "below", "--mode", "x86_64_tls")

        produced = sorted(os.listdir(tmp))
        if update:
            os.makedirs(GOLDEN, exist_ok=True)
            for name in produced:
                shutil.copy(os.path.join(tmp, name), os.path.join(GOLDEN, name))
            print(f"updated {len(produced)} golden files")
            return 0
        # (sub-folders hold other generators' golden files)
        expected = sorted(n for n in os.listdir(GOLDEN)
                          if os.path.isfile(os.path.join(GOLDEN, n)))
        if produced != expected:
            print(f"FAIL: produced {produced}, golden has {expected}")
            failures += 1
        for name in produced:
            golden = os.path.join(GOLDEN, name)
            if os.path.exists(golden) and not filecmp.cmp(os.path.join(tmp, name), golden,
                                                         shallow=False):
                print(f"FAIL: {name} differs from tests/gen/golden/{name} "
                      "(run tests/gen/run_golden.py --update if the change is intended)")
                failures += 1

        # Determinism: a second run produces the same bytes.
        again = os.path.join(tmp, "again")
        gen(again, "core")
        for name in os.listdir(again):
            if not filecmp.cmp(os.path.join(again, name), os.path.join(tmp, name), shallow=False):
                print(f"FAIL: {name} differs between two runs")
                failures += 1

        # A symbol list that disagrees with the registry stops the build, naming the file.
        r = gen(os.path.join(tmp, "bad"), "stubs", "--lib", "Bad", "--symbols", sym,
                "--check-api", "gl", "--check-features", "GL_VERSION_1_0", expect_ok=False)
        if r.returncode == 0 or "libFixture.symbols: error: export list differs" not in r.stderr:
            print(f"FAIL: disagreeing export list not refused: {r.stderr}")
            failures += 1
        bad_slots = os.path.join(tmp, "unsorted_slots.txt")
        with open(bad_slots, "w") as f:
            f.write("glBeta\nglAlpha\nglDeltaEXT\nglEpsilonMUX\nglGamma\n")
        r = gen(os.path.join(tmp, "bad2"), "core", bad_slots, expect_ok=False)
        if r.returncode == 0 or "must be sorted and unique" not in r.stderr:
            print(f"FAIL: unsorted slot list not refused: {r.stderr}")
            failures += 1
    print(f"{len(produced)} golden files checked, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
