#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden-file tests for scripts/gen/gen_headers.py on the fixture registries.

  run_headers_golden.py [--update]

Runs the header generator on tests/gen/headers/ (a gl.xml and an egl.xml of our own that
exercise profiles, <remove> then <require> again, API-specific types and enums, extension
order, platform-protected extensions and disabled extensions) into a fresh directory and
compares each header with tests/gen/headers/golden/. --update rewrites the golden files
(review the diff!). A second run must give the same bytes, and an unknown header is refused.
"""
import filecmp
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "..", "scripts", "gen", "gen_headers.py")
FIX = os.path.join(HERE, "headers")
GOLDEN = os.path.join(FIX, "golden")
HEADERS = ["GL/gl.h", "GL/glext.h", "GL/glcorearb.h", "GLES2/gl2.h", "GLES2/gl2ext.h",
           "EGL/egl.h", "EGL/eglext.h", "GLES2/gl2platform.h", "KHR/khrplatform.h"]


def gen(out, *extra):
    cmd = [sys.executable, GEN, "--gl-xml", os.path.join(FIX, "gl.xml"),
           "--egl-xml", os.path.join(FIX, "egl.xml"), "--khr-dir", FIX, "--date", "20260101",
           "--out", out, *extra]
    return subprocess.run(cmd, capture_output=True, text=True)


def files(top):
    return sorted(os.path.relpath(os.path.join(r, f), top)
                  for r, _, fs in os.walk(top) for f in fs)


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "one")
        r = gen(out, "--only", *HEADERS)
        if r.returncode != 0:
            print(f"FAIL: generator failed: {r.stderr}")
            return 1
        if "--update" in sys.argv:
            for name in files(out):
                os.makedirs(os.path.dirname(os.path.join(GOLDEN, name)), exist_ok=True)
                with open(os.path.join(out, name)) as f, \
                        open(os.path.join(GOLDEN, name), "w") as g:
                    g.write(f.read())
            print(f"updated {len(files(out))} golden files")
            return 0
        if files(out) != files(GOLDEN):
            print(f"FAIL: produced {files(out)}, golden has {files(GOLDEN)}")
            failures += 1
        for name in files(out):
            golden = os.path.join(GOLDEN, name)
            if os.path.exists(golden) and not filecmp.cmp(os.path.join(out, name), golden,
                                                         shallow=False):
                print(f"FAIL: {name} differs from tests/gen/headers/golden/{name} "
                      "(run tests/gen/run_headers_golden.py --update if intended)")
                failures += 1
        again = os.path.join(tmp, "two")
        gen(again, "--only", *HEADERS)
        for name in files(out):
            if not filecmp.cmp(os.path.join(out, name), os.path.join(again, name),
                               shallow=False):
                print(f"FAIL: {name} differs between two runs")
                failures += 1
        r = gen(os.path.join(tmp, "bad"), "--only", "GL/nosuch.h")
        if r.returncode == 0 or "unknown header GL/nosuch.h" not in r.stderr:
            print(f"FAIL: an unknown header was not refused: {r.stderr}")
            failures += 1
    print(f"{len(HEADERS)} golden headers checked, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
