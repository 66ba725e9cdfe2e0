#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glmux test: no reference to an issue by its number ("issue 12", "(issue 27, item 4)",
"issues 5 and 9", "issue #3") in src/, tests/, docs/, bench/ or README.md, on one line or
broken across two ("before issue" at a line's end, "28" after the next line's comment leader). A reader of the code has
no issue list: the text says the reason in words instead.

  check_issue_refs.py SOURCE_DIR     prints each reference found (file:line: text); exit 0
                                     when there is none, 1 otherwise
  check_issue_refs.py --self-test    the pattern on examples

The pattern is that of `grep -rniE '\\bissues? #?[0-9]+' src tests docs README.md`; this file
is left out (it names the pattern).
"""
import os
import re
import sys

PATTERN = re.compile(r"\bissues? #?[0-9]+", re.I)
PLACES = ("src", "tests", "docs", "bench", "README.md")
# A reference broken across lines: "issue" ends one line, the number opens the next once its
# comment leader (#, *, //, > and blanks) is left out.
LINE_END = re.compile(r"\bissues?\s*$", re.I)
NEXT_START = re.compile(r"^[\s#*/>-]*#?[0-9]+\b")
SELF = os.path.realpath(__file__)


def files(top):
    for place in PLACES:
        path = os.path.join(top, place)
        if os.path.isfile(path):
            yield path
        for root, dirs, names in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                yield os.path.join(root, name)


def references(top):
    found = []
    for path in files(top):
        if os.path.realpath(path) == SELF:
            continue
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except (UnicodeDecodeError, OSError):
            continue    # binary files hold no prose
        for number, line in enumerate(lines, 1):
            if refers(line, lines[number] if number < len(lines) else ""):
                found.append("%s:%d: %s" % (os.path.relpath(path, top), number, line.strip()))
    return found


def refers(line, next_line):
    return bool(PATTERN.search(line) or (LINE_END.search(line) and NEXT_START.match(next_line)))


def self_test():
    hits = ["see issue 12", "(issue 27, item 4)", "Issues 5 and 9", "issue #3", "Issue 24's"]
    misses = ["tissue 5", "issues with the X server", "an issue of 2 bytes", "issue-tracker 4"]
    broken_hits = [("before issue", "28 the code"), ("# as in issue", "# 27, item 4"),
                   (" * see issue", " * #3")]
    broken_misses = [("the issue", "was the size"), ("issues", "with 2 screens")]
    bad = [t for t in hits if not refers(t, "")] + [t for t in misses if refers(t, "")]
    bad += [t for t in broken_hits if not refers(*t)] + [t for t in broken_misses if refers(*t)]
    for text in bad:
        print("FAIL: the pattern gets %r wrong" % text)
    print("self-test: %d example(s) wrong" % len(bad))
    return 1 if bad else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    found = references(sys.argv[1])
    for ref in found:
        print(ref)
    if found:
        print("FAIL: %d reference(s) to an issue by number; a reader has no issue list: say "
              "the reason in words (what went wrong, what the code guards against)" % len(found))
        return 1
    print("ok: no reference to an issue by number in %s" % ", ".join(PLACES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
