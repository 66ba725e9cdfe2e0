#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: docs/porting-glx-to-egl.md followed step by step on the GLX demonstration.

The guide's "A port step by step" gives each step's edit of demo/glx_demo.c as a pair of code
blocks, the GLX lines (```c glx) then the EGL lines that replace them (```c egl). This test
applies every pair, in order, to demo/glx_demo.c (each GLX text must occur exactly once), and
requires:
  * the result to equal demo/egl_x11_demo.c but for the files' opening comments: the port
    differs from the GLX program only as the guide says;
  * the result to compile (the C compiler of the build, -Wall -Wextra -Werror, the generated
    Khronos headers) and link as step 1 says, with libEGL and libOpenGL (ours) and libX11,
    not libGL;
  * the program to run on the GLX tests' Xvfb with Debian's Mesa: exit 0 (its pixels read
    back as drawn), Mesa's EGL vendor, our libEGL and libOpenGL, no libGL or libGLX loaded.
  run_port_steps.py GUIDE DEMO_DIR CC INCLUDE_DIR LIBEGL LIBOPENGL WORK_DIR [EMULATOR...]
A cross build passes its CMAKE_CROSSCOMPILING_EMULATOR (qemu-user and its arguments) last: the
program runs under it. Exit 0 pass, 77 skip (no Xvfb, no Mesa EGL vendor, or the build machine
cannot execute the compiled program: the run is left out), 1 fail.
"""
import difflib
import os
import re
import shutil
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def guide_pairs(path):
    """[(step, glx_text, egl_text)] from the guide's step-by-step section."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^## A port step by step\n(.*?)^## ", text, re.S | re.M)
    if m is None:
        fail("%s has no section 'A port step by step'" % path)
    blocks, step, lines = [], "?", m.group(1).split("\n")
    i = 0
    while i < len(lines):
        s = re.match(r"(\d+)\. \*\*", lines[i].lstrip())
        if s and not lines[i].startswith("    "):
            step = s.group(1)
        fence = re.match(r"^(\s*)```c (glx|egl)\s*$", lines[i])
        if fence:
            indent, kind, body = fence.group(1), fence.group(2), []
            i += 1
            while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
                line = lines[i]
                if line.strip() and not line.startswith(indent):
                    fail("step %s: a line of a code block is not indented as its fence: %r"
                         % (step, line))
                body.append(line[len(indent):] if line.strip() else "")
                i += 1
            blocks.append((step, kind, "\n".join(body) + "\n"))
        i += 1
    pairs = []
    for k in range(0, len(blocks), 2):
        if k + 1 >= len(blocks) or blocks[k][1] != "glx" or blocks[k + 1][1] != "egl":
            fail("step %s: the code blocks must come in pairs, GLX then EGL" % blocks[k][0])
        pairs.append((blocks[k][0], blocks[k][2], blocks[k + 1][2]))
    return pairs


def without_opening_comment(source):
    """The source without its opening comment (the one after the SPDX line)."""
    return re.sub(r"\A(/\*[^\n]*\*/\n)/\*.*?\*/\n", r"\1", source, count=1, flags=re.S)


def main():
    if len(sys.argv) < 8:
        raise SystemExit(__doc__)
    guide, demo_dir, cc, include_dir, libegl, libopengl, work = sys.argv[1:8]
    emulator = sys.argv[8:]
    with open(os.path.join(demo_dir, "glx_demo.c"), encoding="utf-8") as f:
        source = f.read()
    with open(os.path.join(demo_dir, "egl_x11_demo.c"), encoding="utf-8") as f:
        port = f.read()

    pairs = guide_pairs(guide)
    if len(pairs) < 5:
        fail("the guide gives %d edits; it should give one for each part of the port" % len(pairs))
    steps = set()
    for step, glx, egl in pairs:
        count = source.count(glx)
        if count != 1:
            fail("step %s: its GLX lines occur %d times in demo/glx_demo.c (after the earlier "
                 "steps), not once:\n%s" % (step, count, glx))
        source = source.replace(glx, egl)
        steps.add(step)
    print("applied %d edits of steps %s" % (len(pairs), ", ".join(sorted(steps, key=int))))
    want, got = without_opening_comment(port), without_opening_comment(source)
    if got != want:
        sys.stdout.writelines(difflib.unified_diff(
            want.splitlines(True), got.splitlines(True), "demo/egl_x11_demo.c",
            "demo/glx_demo.c + the guide's edits"))
        fail("the port differs from the GLX demo by more than the guide's edits")
    print("demo/egl_x11_demo.c is demo/glx_demo.c with the guide's edits")

    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    ported = os.path.join(work, "ported.c")
    with open(ported, "w", encoding="utf-8") as f:
        f.write(source)
    program = os.path.join(work, "ported")
    libdirs = sorted({os.path.dirname(libegl), os.path.dirname(libopengl)})
    cmd = (cc.split() + ["-std=gnu11", "-Wall", "-Wextra", "-Werror", "-isystem", include_dir,
                         "-I", demo_dir, ported, os.path.join(demo_dir, "demo_libs.c"),
                         os.path.join(demo_dir, "demo_pixels.c"), "-o", program]
           + ["-L" + d for d in libdirs] + ["-Wl,-rpath," + ":".join(libdirs)]
           + ["-lEGL", "-lOpenGL", "-lX11"])
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        fail("the ported program does not compile:\n%s\n%s" % (" ".join(cmd), r.stderr))
    print("compiled and linked with libEGL, libOpenGL and libX11")
    needed = subprocess.run(["readelf", "-d", program], capture_output=True, text=True).stdout
    for lib in ("libGL.so.1", "libGLX.so.0"):
        if "[%s]" % lib in needed:
            fail("the ported program links %s" % lib)

    xvfb_dir = os.environ.get("GLMUX_TEST_XVFB_DIR", "")
    try:
        with open(os.path.join(xvfb_dir, "two.display"), encoding="utf-8") as f:
            display = f.read().strip()
    except OSError:
        fail("no Xvfb fixture (GLMUX_TEST_XVFB_DIR)")
    if display == "none":
        print("skipped: the run, Xvfb is not installed")
        return 77
    if not os.path.exists("/usr/share/glvnd/egl_vendor.d/50_mesa.json"):
        print("skipped: the run, Debian's Mesa EGL vendor is not installed (libegl-mesa0)")
        return 77
    env = {k: v for k, v in os.environ.items()
           if k not in ("__EGL_VENDOR_LIBRARY_FILENAMES", "__EGL_VENDOR_LIBRARY_DIRS",
                        "GLMUX_VENDOR_DIRS")}
    env["DISPLAY"] = display
    try:
        r = subprocess.run(emulator + [program], env=env, capture_output=True, text=True,
                           timeout=120)
    except OSError as e:
        # A cross build without an emulator (or with one that is not installed): the program
        # compiled for the target, and this machine cannot run it.
        print("skipped: the run, %s cannot be executed here (%s)"
              % (" ".join(emulator + [program]), e.strerror))
        return 77
    print(r.stdout + r.stderr)
    if r.returncode != 0:
        fail("the ported program failed (exit %d)" % r.returncode)
    out = r.stdout
    if not re.search(r"^EGL vendor: *Mesa", out, re.M):
        fail("the EGL vendor is not Mesa")
    for lib in (libegl, libopengl):
        name = os.path.basename(lib).split(".so")[0] + ".so"
        if ("loaded %s/%s" % (os.path.dirname(lib), name)) not in out:
            fail("%s was not loaded from the build (%s)" % (name, os.path.dirname(lib)))
    if re.search(r"loaded \S*/lib(GL|GLX)\.so", out):
        fail("the ported program loaded libGL or libGLX")
    print("the ported program rendered with Mesa through our libEGL and libOpenGL")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
