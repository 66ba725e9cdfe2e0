#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""abi_reference: reference.py, the guard of the tests that compare glmux with libglvnd.

With a stand-in compiler whose -print-file-name answer the test chooses:
  1. the answer is one of this build's libraries (glmux's mark): skip (77), saying it is glmux's;
  2. no answer (the library is not installed): skip (77), saying so;
  3. an unmarked library: the command runs, with {SONAME} and {SONAME:dir} replaced;
  4. a reference header that is glmux's own, or missing: skip (77).
  test_reference.py OUR_LIBRARY WORK_DIR
"""
import os
import shutil
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
ours, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
cc = os.path.join(work, "fake-cc")
with open(cc, "w") as f:
    f.write('#!/bin/sh\ncase $1 in -print-file-name=*) echo "${FAKE_ANSWER:-${1#*=}}" ;; esac\n')
os.chmod(cc, 0o755)


def run(answer, *args):
    env = dict(os.environ, FAKE_ANSWER=answer)
    p = subprocess.run([sys.executable, os.path.join(here, "reference.py"), "--cc", cc, *args],
                       capture_output=True, text=True, env=env)
    return p.returncode, p.stdout + p.stderr


def expect(what, got, rc, text):
    if got[0] != rc or text not in got[1]:
        print(f"FAIL: {what}: exit {got[0]}, output {got[1]!r}; expected exit {rc} and {text!r}")
        sys.exit(1)
    print(f"ok: {what}: {got[1].strip().splitlines()[0]}")


expect("this build's library as the reference", run(ours, "--lib", "libOpenGL.so.0", "--", "true"),
       77, "glmux's own libOpenGL.so.0")
expect("no library", run("", "--lib", "libOpenGL.so.0", "--", "true"), 77, "finds no libOpenGL.so.0")
libglvnd = os.path.join(work, "lib", "libOpenGL.so.0")
os.makedirs(os.path.dirname(libglvnd))
with open(libglvnd, "wb") as f:
    f.write(b"\x7fELF not glmux's\n")
expect("an unmarked library", run(libglvnd, "--lib", "libOpenGL.so.0", "--", "echo",
                                  "path={libOpenGL.so.0}", "LD_LIBRARY_PATH=x:{libOpenGL.so.0:dir}"),
       0, f"path={libglvnd} LD_LIBRARY_PATH=x:{os.path.dirname(libglvnd)}")
header = os.path.join(work, "libeglabi.h")
with open(header, "w") as f:
    f.write("/* glvnd/libeglabi.h of glmux */\n")
expect("glmux's header", run("", "--header", header, "--", "true"), 77, "glmux's own header")
expect("a missing header", run("", "--header", header + ".none", "--", "true"), 77, "is missing")
print("abi_reference passed")
