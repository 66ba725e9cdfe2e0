#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/test-summary.py, the closing table of scripts/test.sh, on JUnit files of its own:
the counts of each row and of the total, each skipped test with the line of its output that
says why (a long one cut at a word's end), each failed test, a build that failed, and the exit
status.
  test_summary.py SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile

CASES = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite tests="4">
  <testcase name="a" status="run"><system-out>ok</system-out></testcase>
  <testcase name="b" status="run"><system-out></system-out></testcase>
  <testcase name="c" status="notrun"><skipped message="SKIP_RETURN_CODE=77"/>
    <system-out>checking
skipped: umockdev-run is not installed
</system-out></testcase>
  <testcase name="d" status="fail"><failure message=""/><system-out>bad</system-out></testcase>
</testsuite>
"""
PASSING = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite tests="3">
  <testcase name="e" status="run"/>
  <testcase name="f" status="notrun"><system-out>no X server here
</system-out></testcase>
  <testcase name="g" status="notrun"><system-out>%s
</system-out></testcase>
</testsuite>
""" % ("skipped: setcap failed (it needs root and a file system with xattrs): Failed to set "
       "capabilities on file `/build/glmux-1+glmux1/obj/tests/secure' (Operation not permitted)")
WANT = [
    "== summary",
    "configuration  tests  passed  failed  skipped  time",
    "default            4       2       1        1  1:05",
    "tsan               3       1       0        2  0:09",
    "minimal            -       -       -        -  2:00  build failed",
    "all                7       3       1        3  3:14",
    "  default: failed: d",
    "  default: skipped: c: skipped: umockdev-run is not installed",
    "  tsan: skipped: f: no X server here",
    # A long reason is cut at a word's end, never inside a word.
    "  tsan: skipped: g: skipped: setcap failed (it needs root and a file system with xattrs): "
    "Failed to set capabilities on file...",
    "test.sh: FAILED (the failed tests' output is above, under their names)",
]


def run(script, rows):
    return subprocess.run([sys.executable, script, rows], capture_output=True, text=True)


def main():
    script = os.path.join(sys.argv[1], "scripts", "test-summary.py")
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for name, text in (("one", CASES), ("two", PASSING)):
            paths[name] = os.path.join(tmp, name + ".xml")
            with open(paths[name], "w", encoding="utf-8") as f:
                f.write(text)
        rows = os.path.join(tmp, "rows")
        with open(rows, "w", encoding="utf-8") as f:
            f.write("default\t%s\t65\t\ntsan\t%s\t9\t\nminimal\t\t120\tbuild failed\n"
                    % (paths["one"], paths["two"]))
        out = run(script, rows)
        got = out.stdout.splitlines()
        if got != WANT or out.returncode != 1:
            print("got (exit %d):\n%s\nwanted (exit 1):\n%s" % (out.returncode, out.stdout,
                                                                 "\n".join(WANT)))
            return 1
        with open(rows, "w", encoding="utf-8") as f:
            f.write("tsan\t%s\t9\t\n" % paths["two"])
        out = run(script, rows)
        if out.returncode != 0 or out.stdout.splitlines()[-1] != "test.sh: every run passed":
            print("a run without failures:\n" + out.stdout)
            return 1
    print("test-summary.py: the table, the reasons and the exit status as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
