#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden-file test of src/gl/gen_glx_wrappers.py on a fixture registry of our own.

The generator's output for golden/mini_glx.xml + golden/mini_other.txt must equal
golden/mini_wrappers.c.golden byte for byte (deterministic, sorted, skipped SGIX name left out,
core names not wrapped), and a symbol list that disagrees with the registry must stop it.
  run_wrapper_golden.py GENERATOR [--update]
"""
import os
import subprocess
import sys
import tempfile

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
gen = sys.argv[1]
args = ["--xml", os.path.join(here, "mini_glx.xml"), "--other", os.path.join(here, "mini_other.txt")]
golden = os.path.join(here, "mini_wrappers.c.golden")

with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "out.c")
    subprocess.run([sys.executable, gen] + args +
                   ["--symbols", os.path.join(here, "mini_symbols.txt"), out], check=True)
    if "--update" in sys.argv:
        os.replace(out, golden)
        sys.exit(0)
    with open(out, encoding="utf-8") as a, open(golden, encoding="utf-8") as b:
        if a.read() != b.read():
            print(f"generator output differs from {golden}; rerun with --update if intended")
            subprocess.run(["diff", "-u", golden, out])
            sys.exit(1)
    short = os.path.join(tmp, "short.txt")
    with open(os.path.join(here, "mini_symbols.txt"), encoding="utf-8") as f, \
            open(short, "w", encoding="utf-8") as g:
        g.write("".join(line for line in f if "ExampleBool" not in line))
    bad = subprocess.run([sys.executable, gen] + args + ["--symbols", short,
                         os.path.join(tmp, "bad.c")], capture_output=True, text=True)
    if bad.returncode == 0 or "glXExampleBoolGLMUX" not in bad.stderr:
        print("a symbol list missing glXExampleBoolGLMUX was accepted:", bad.stderr)
        sys.exit(1)
print("ok")
