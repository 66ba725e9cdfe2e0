#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden-file test of scripts/gen/gen_port_table.py on a small table of our own.

The C table and the guide tables generated from golden/mini.tsv must equal
golden/mini_table.c.golden and golden/mini_doc.md.golden byte for byte (sorted by strcmp,
escaped, PFN names derived, Markdown pipes escaped, text around the markers kept), --check-doc
must reject a stale guide, and a table with a malformed row must stop the generator.
  run_port_golden.py GENERATOR [--update]
"""
import os
import shutil
import subprocess
import sys
import tempfile

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
gen = sys.argv[1]
table = os.path.join(here, "mini.tsv")
golden_c = os.path.join(here, "mini_table.c.golden")
golden_md = os.path.join(here, "mini_doc.md.golden")


def same(path, golden):
    with open(path, encoding="utf-8") as a, open(golden, encoding="utf-8") as b:
        if a.read() == b.read():
            return True
    print(f"generator output differs from {golden}; rerun with --update if intended")
    subprocess.run(["diff", "-u", golden, path])
    return False


with tempfile.TemporaryDirectory() as tmp:
    out_c = os.path.join(tmp, "port_table.c")
    doc = os.path.join(tmp, "doc.md")
    shutil.copy(os.path.join(here, "mini_doc.md.in"), doc)
    subprocess.run([sys.executable, gen, "--table", table, "--c", out_c, "--doc", doc], check=True)
    if "--update" in sys.argv:
        shutil.copy(out_c, golden_c)
        shutil.copy(doc, golden_md)
        sys.exit(0)
    ok = same(out_c, golden_c) and same(doc, golden_md)
    stale = subprocess.run([sys.executable, gen, "--table", table, "--check-doc",
                            os.path.join(here, "mini_doc.md.in")], capture_output=True, text=True)
    if stale.returncode == 0 or "is stale" not in stale.stdout:
        print("--check-doc accepted a stale guide:", stale.stdout)
        ok = False
    bad = os.path.join(tmp, "bad.tsv")
    with open(table, encoding="utf-8") as f, open(bad, "w", encoding="utf-8") as g:
        g.write(f.read() + "glXBroken\tfunction\tGLX_VERSION_1_0\tmaybe\tnone\t-\t\n")
    r = subprocess.run([sys.executable, gen, "--table", bad, "--c", os.path.join(tmp, "b.c")],
                       capture_output=True, text=True)
    if r.returncode == 0 or "unknown match 'maybe'" not in r.stderr:
        print("a malformed row was accepted:", r.stderr)
        ok = False
    sys.exit(0 if ok else 1)
