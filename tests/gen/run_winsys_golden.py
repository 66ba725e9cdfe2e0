#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden-file tests for scripts/gen/gen_winsys_wrappers.py on fixture registries of our own.

  run_winsys_golden.py [--update]

Generates libEGL's and libGLX's wrappers and implementation headers from
tests/gen/fixture/winsys/ into a fresh directory and compares each file with
tests/gen/golden/winsys/. --update rewrites the golden files (review the diff!). It also checks
that the generator refuses a symbol the registry lacks and a parameter named like one of the
wrapper's locals, with a message that names the cause.
"""
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "..", "scripts", "gen", "gen_winsys_wrappers.py")
FIX = os.path.join(HERE, "fixture", "winsys")
GOLDEN = os.path.join(HERE, "golden", "winsys")
OUTPUTS = ("glmux_egl_impl.h", "glmux_egl_wrappers.c", "glmux_glx_impl.h",
           "glmux_glx_wrappers.c")


def gen(api, symbols, out):
    cmd = [sys.executable, GEN, "--api", api, "--xml", os.path.join(FIX, f"{api}.xml"),
           "--symbols", os.path.join(FIX, symbols), out]
    return subprocess.run(cmd, capture_output=True, text=True)


def main():
    update = "--update" in sys.argv
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for api, symbols in (("egl", "libEGL.symbols"), ("glx", "libGLX.symbols")):
            r = gen(api, symbols, tmp)
            if r.returncode != 0:
                sys.exit(f"FAIL: the generator failed for {api}:\n{r.stderr}")
        for name in OUTPUTS:
            got, want = os.path.join(tmp, name), os.path.join(GOLDEN, name)
            if update:
                os.makedirs(GOLDEN, exist_ok=True)
                shutil.copyfile(got, want)
            elif not os.path.exists(want) or not filecmp.cmp(got, want, shallow=False):
                print(f"FAIL: {name} differs from {want}; diff -u {want} {got} (or --update)")
                subprocess.run(["diff", "-u", want, got])
                failures += 1
        # Deterministic and not rewritten when unchanged.
        stamp = os.stat(os.path.join(tmp, OUTPUTS[0])).st_mtime_ns
        gen("egl", "libEGL.symbols", tmp)
        if os.stat(os.path.join(tmp, OUTPUTS[0])).st_mtime_ns != stamp:
            print("FAIL: an unchanged output was rewritten")
            failures += 1
        for symbols, words in (("bad_name.symbols", ("bad_name.symbols", "glXNoSuchFunction")),
                               ("bad_param.symbols", ("glXBadParameterName", "top"))):
            r = gen("glx", symbols, os.path.join(tmp, "bad"))
            if r.returncode == 0 or not all(w in r.stderr for w in words):
                print(f"FAIL: {symbols}: expected a refusal naming {words}, got rc "
                      f"{r.returncode}: {r.stderr.strip()}")
                failures += 1
    if failures:
        sys.exit(1)
    print("gen_winsys_wrappers.py: golden files and refusals as expected")


if __name__ == "__main__":
    main()
