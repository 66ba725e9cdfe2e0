#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux tests: `glmux port-check` on a generated tree of 10,000 files finishes, reports every
use, and its memory does not grow with the tree.

  run_port_tree.py GLMUX PEAK_RSS WORK_DIR

Generates (in WORK_DIR, removed afterwards) 100 directories of 100 files: 90 C sources with
three GLX uses each (one more in a comment, not reported) and 10 files that are not C. Runs the
tool on one file and on the whole tree under PEAK_RSS (peak_rss.c, which reports the child's
ru_maxrss) and compares their peak resident memory: the whole tree may use at most 16 MiB more. A generous bound that still
fails if the tool kept the files (4 KiB each, 36 MiB in all) or its output (about 8 MiB) in
memory. No timing is asserted.
"""
import os
import re
import shutil
import subprocess
import sys

DIRS, FILES, C_FILES = 100, 100, 90
PAD = " * padding so that the tree holds about 36 MiB of sources: glXWaitX is not code here\n"
SOURCE = ("/* file {n}: glXSwapBuffers in a comment\n" + PAD * 46 + " */\n"
          "#include <GL/glx.h>\n"
          "void draw_{n}(Display *d, GLXDrawable w) {{ glXSwapBuffers(d, w); }}\n")


def peak_rss_kib(helper, cmd):
    p = subprocess.run([helper] + cmd, capture_output=True, text=True, errors="replace")
    m = re.search(r"^peak_rss_kib (\d+)$", p.stderr, re.M)
    return p.returncode, p.stdout, int(m.group(1)) if m else 1 << 30


def main():
    glmux, helper, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    tree = os.path.join(work, "tree")
    for d in range(DIRS):
        sub = os.path.join(tree, f"d{d // 10}", f"e{d % 10}")
        os.makedirs(sub)
        for i in range(FILES):
            n = d * FILES + i
            if i < C_FILES:
                with open(os.path.join(sub, f"f{i}.c"), "w") as f:
                    f.write(SOURCE.format(n=n))
            else:
                with open(os.path.join(sub, f"notes{i}.txt"), "w") as f:
                    f.write("glXSwapBuffers\n")
    files = DIRS * FILES
    small = os.path.join(tree, "d0", "e0")
    rc_small, out_small, rss_small = peak_rss_kib(helper, [glmux, "port-check", os.path.join(small, "f0.c")])
    rc, out, rss = peak_rss_kib(helper, [glmux, "port-check", tree])
    failures = []
    uses = DIRS * C_FILES * 3
    summary = [l for l in out.splitlines() if l.startswith("glmux port-check:")]
    print(summary[0] if summary else out[-2000:])
    print(f"peak RSS: {rss_small} KiB for one file, {rss} KiB for {files} files")
    if rc != 1 or rc_small != 1:
        failures.append(f"exit status {rc} (one file: {rc_small}), expected 1")
    if not summary or not re.search(
            rf"{uses} GLX uses \(3 distinct identifiers\) in {DIRS * C_FILES} of "
            rf"{DIRS * C_FILES} C/C\+\+ files scanned; {DIRS * (FILES - C_FILES)} other files "
            r"skipped; 0 errors", summary[0]):
        failures.append(f"expected {uses} uses in {DIRS * C_FILES} files")
    if out.count(": glXSwapBuffers -> eglSwapBuffers") != DIRS * C_FILES:
        failures.append("not every glXSwapBuffers was reported once")
    if rss - rss_small > 16 * 1024:
        failures.append(f"memory grew by {rss - rss_small} KiB over the tree (bound: 16 MiB)")
    for f in failures:
        print("FAIL:", f)
    shutil.rmtree(work, ignore_errors=True)
    if failures:
        return 1
    print(f"ok: {files} files, memory bounded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
