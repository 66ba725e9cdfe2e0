# SPDX-License-Identifier: MIT
"""What the document checkers of tests/docs share: a self-test on a small tree of their own,
and the command line (SOURCE_DIR, or --self-test)."""
import os
import sys
import tempfile


def self_test(files, want, check):
    """Writes files ({path: text}) into a fresh tree, runs check(top) and compares its errors
    with want (order aside). Returns the exit status."""
    with tempfile.TemporaryDirectory() as top:
        top = os.path.realpath(top)
        for name, text in files.items():
            os.makedirs(os.path.join(top, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(top, name), "w", encoding="utf-8") as f:
                f.write(text)
        got = check(top)
    if sorted(got) != sorted(want):
        print("self-test: the checker found\n  %s\nexpected\n  %s"
              % ("\n  ".join(got), "\n  ".join(want)))
        return 1
    print("self-test: %d broken rules found, as expected" % len(want))
    return 0


def main(usage, check, files, want, failed, passed):
    """check_X.py SOURCE_DIR | --self-test: prints each error and a last line (failed with
    the count, or passed)."""
    if sys.argv[1:] == ["--self-test"]:
        return self_test(files, want, check)
    if len(sys.argv) != 2:
        raise SystemExit(usage)
    errors = check(os.path.realpath(sys.argv[1]))
    for e in errors:
        print(e)
    if errors:
        print("%d %s" % (len(errors), failed))
        return 1
    print(passed)
    return 0
